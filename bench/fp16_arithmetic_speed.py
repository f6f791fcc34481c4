#!/usr/bin/env python3
"""NVDLA's fp16 arithmetic in the CPU execution vs the ideal one (issue 47).

    python3 bench/fp16_arithmetic_speed.py [build/bin] [--baseline OTHER/bin]
        [--repeat N] [--rounds R] [--opt-level L] [--model cls|rec]

PaddleOCR's classifier (1x3x48x192; or the recognizer, 1x3x48x320) run by
dla-run-onnx on nv_full fp16 with --fp16-arithmetic hardware (CMAC's Booth
products, CACC, the SDP's fp32: lib/Format/NvdlaConvFp16.cpp) and ideal,
the same deterministic input: ms per inference (dla-run-onnx's mean of N
runs after a warm-up, wall and CPU time of the process: on the shared
machine the CPU time is the figure load inflates least) and the ratios
hardware / ideal. The modes alternate, R rounds; medians printed. With --baseline, another build's hardware mode
runs in the same rounds (before / after), and the script says whether its
outputs are bitwise this build's (they must be: the arithmetic is the same).
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = {
    "cls": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", (1, 3, 48, 192)),
    "rec": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320)),
}


def run(bin_dir, model, inp, out_dir, mode, repeat, opt_level):
    cmd = [os.path.join(bin_dir, "dla-run-onnx"), model, "--input", inp,
           "--output-dir", out_dir, "--target", "nv_full", "--precision", "fp16",
           "--opt-level", str(opt_level), "--fp16-arithmetic", mode, "--repeat", str(repeat)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"([0-9.]+) s per run \(mean of \d+; CPU ([0-9.]+) s per run", r.stdout)
    if r.returncode != 0 or not m:
        sys.exit("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return ((float(m.group(1)) * 1e3, float(m.group(2)) * 1e3),
            np.load(os.path.join(out_dir, "output_0.npy")))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bin", nargs="?", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--baseline", help="another build's bin directory (hardware mode only)")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--opt-level", type=int, default=2)
    p.add_argument("--model", choices=list(MODELS), default="cls")
    a = p.parse_args()
    name, shape = MODELS[a.model]
    model = os.path.join(ROOT, "build", "models", name)
    if not os.path.exists(model):
        sys.exit(f"{model} missing: run scripts/fetch-models.sh build/models")
    builds = [("hardware", a.bin, "hardware"), ("ideal", a.bin, "ideal")]
    if a.baseline:
        builds.append(("baseline hardware", a.baseline, "hardware"))
    times = {label: [] for label, _, _ in builds}
    outputs = {}
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "x.npy")
        np.save(inp, np.random.default_rng(2024).random(shape, dtype=np.float32))
        for rnd in range(a.rounds):
            for label, bin_dir, mode in builds:
                out = os.path.join(tmp, label.replace(" ", "-"))
                (ms, cpu), outputs[label] = run(bin_dir, model, inp, out, mode, a.repeat,
                                                a.opt_level)
                times[label].append((ms, cpu))
                print(f"round {rnd + 1}: {label:18s} {ms:9.2f} ms per run, CPU {cpu:9.2f} ms "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
    med = {label: (statistics.median(w for w, _ in t), statistics.median(c for _, c in t))
           for label, t in times.items()}
    print(f"\n{a.model}, {a.repeat} runs x {a.rounds} rounds, medians:")
    for label, (w, c) in med.items():
        print(f"  {label:18s} {w:9.2f} ms per run, CPU {c:9.2f} ms")
    print(f"  hardware / ideal: {med['hardware'][0] / med['ideal'][0]:.1f}x wall, "
          f"{med['hardware'][1] / med['ideal'][1]:.1f}x CPU")
    if a.baseline:
        same = np.array_equal(outputs["hardware"].view(np.uint8),
                              outputs["baseline hardware"].view(np.uint8))
        print(f"  baseline / hardware: {med['baseline hardware'][0] / med['hardware'][0]:.1f}x "
              f"wall, {med['baseline hardware'][1] / med['hardware'][1]:.1f}x CPU; "
              f"outputs bitwise equal: {same}")
        if not same:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
