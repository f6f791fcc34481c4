#!/usr/bin/env python3
"""CPU execution of real networks by dla-run-onnx vs onnxruntime-node.

    python3 bench/execution_speed.py [build/bin] [--baseline OTHER/bin]
        [--repeat N] [--opt-level L]
        [--only cls,rec,cls-layouts,rec-layouts,det,det-layouts]

Per case (PaddleOCR's classifier at 1x3x48x192, its recognizer at
1x3x48x320, each also with --layouts, its text detector at
1x3x640x640 without and with --layouts; nv_full fp16, models from
build/models, see scripts/fetch-models.sh): dla-run-onnx's compile time
(import, dla-opt and the JIT, as it prints it), the CPU seconds of the whole
process (what a loaded machine does not inflate), time per inference (mean
of N runs after a warm-up), peak RSS of the process and its dla-opt
(through dla-maxrss), against onnxruntime-node on the same input with one
thread as ours (utils/ort/run-ort.js), with the ratio and the outputs'
largest difference. With --baseline, another build's dla-run-onnx runs each
case too, in the same script run (before / after on the same load), and the
last column says whether its outputs are bitwise those of the first build.
"""

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = {
    "cls": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", (1, 3, 48, 192), []),
    "rec": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320), []),
    "cls-layouts": ("ch_ppocr_mobile_v2.0_cls_infer.onnx", (1, 3, 48, 192), ["--layouts"]),
    "rec-layouts": ("ch_PP-OCRv4_rec_infer.onnx", (1, 3, 48, 320), ["--layouts"]),
    "det": ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 640, 640), []),
    "det-layouts": ("ch_PP-OCRv4_det_infer.onnx", (1, 3, 640, 640), ["--layouts"]),
}


def run_dla(bindir, model, x, out, repeat, opt_level, extra, work):
    """(compile s, CPU s, s per run, peak RSS MiB) of one dla-run-onnx."""
    rss_file = os.path.join(work, "rss")
    cmd = [os.path.join(bindir, "dla-maxrss"), rss_file, os.path.join(bindir, "dla-run-onnx"),
           model, "--input", x, "--output-dir", out, "--repeat", str(repeat),
           "--opt-level", str(opt_level)] + extra
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), proc.stdout, proc.stderr[-3000:]))
    compiled = float(re.search(r"compiled .* in ([0-9.]+) s", proc.stdout).group(1))
    per_run = float(re.search(r"([0-9.eE+-]+) s per run", proc.stdout).group(1))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with open(rss_file) as f:
        rss = int(f.read().split()[0]) / 2**20
    return compiled, cpu, per_run, rss


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bindir", nargs="?", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--baseline", help="another build's bin directory, run on the same cases")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--opt-level", type=int, default=2)
    p.add_argument("--only", default=",".join(CASES))
    a = p.parse_args()
    ort = subprocess.run(["bash", os.path.join(ROOT, "scripts", "fetch-onnxruntime.sh")],
                         capture_output=True, text=True)
    if ort.returncode:
        sys.exit("onnxruntime-node is not available:\n" + ort.stderr)
    env = dict(os.environ, ONNXRUNTIME_NODE=ort.stdout.strip())
    builds = [("new", a.bindir)] + ([("base", a.baseline)] if a.baseline else [])
    print("%-12s %-5s %10s %8s %12s %12s %9s %8s %10s %s" % (
        "case", "build", "compile s", "CPU s", "ms per run", "ort ms", "ratio", "RSS MiB",
        "max |diff|", "bitwise = new" if a.baseline else ""))
    with tempfile.TemporaryDirectory(prefix="execution-speed-") as work:
        for name in a.only.split(","):
            fname, shape, extra = CASES[name]
            model = os.path.join(ROOT, "build", "models", fname)
            if not os.path.exists(model):
                sys.exit("%s is missing: run scripts/fetch-models.sh" % model)
            x = os.path.join(work, "x.npy")
            np.save(x, np.random.default_rng(2024).uniform(-1, 1, shape).astype(np.float32))
            ort_dir = os.path.join(work, "ort")
            proc = subprocess.run(["node", os.path.join(ROOT, "utils", "ort", "run-ort.js"), model,
                                   ort_dir, x, "--repeat", str(a.repeat)],
                                  env=env, capture_output=True, text=True)
            if proc.returncode:
                sys.exit("onnxruntime failed:\n" + proc.stderr)
            t_ort = float(re.search(r"ort_seconds ([0-9.eE+-]+)", proc.stdout).group(1))
            want = np.load(os.path.join(ort_dir, "0.npy")).astype(np.float64)
            first = None
            for build, bindir in builds:
                out = os.path.join(work, build)
                compiled, cpu, per_run, rss = run_dla(bindir, model, x, out, a.repeat,
                                                      a.opt_level, extra, work)
                got = np.load(os.path.join(out, "output_0.npy"))
                same = ""
                if first is None:
                    first = got
                else:
                    same = "yes" if got.tobytes() == first.tobytes() else "NO"
                got = got.astype(np.float64)
                print("%-12s %-5s %10.2f %8.2f %12.2f %12.2f %8.1fx %8.0f %10.3g %s" % (
                    name, build, compiled, cpu, per_run * 1e3, t_ort * 1e3, per_run / t_ort,
                    rss, float(np.max(np.abs(got - want))), same), flush=True)
    print("load average at the end: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
