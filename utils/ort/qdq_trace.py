#!/usr/bin/env python3
"""The QDQ models of qdq-vs-onnxruntime.test layer by layer on NVIDIA's C
model (issue 28 part 3: the integer execution tests that fit).

    qdq_trace.py --build BUILD --keep DIR [--seeds 0-1] [--kind K ...]
                 [--scales per-tensor|per-channel|both]

Each model (qdq_models.build, int8 activations; its input drawn as
compare_qdq.py draws it) is imported with dla-import-onnx, compiled for
nv_small int8 with layouts (as dla-run-onnx --target nv_small --precision
int8 compiles it) and given to run_network_trace.py: every hardware layer
runs on the model as its own register program, its result bytes equal to
the CPU execution's. Prints run_network_trace.py's summary line per model;
exits 1 when one fails.
"""

import argparse
import os
import subprocess
import sys

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
import compare_qdq  # noqa: E402
import qdq_models  # noqa: E402

NETWORK_TRACE = os.path.join(HERE, "..", "dla-ref", "run_network_trace.py")
PIPELINE = ("builtin.module(dla-compile{convert-tosa=true target=nv_small precision=int8 "
            "layouts=true compression=true})")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-cmod/)")
    p.add_argument("--keep", required=True, help="write the models and programs here")
    p.add_argument("--seeds", type=compare_qdq.seeds, default=compare_qdq.seeds("0-1"))
    p.add_argument("--kind", choices=qdq_models.KINDS, action="append")
    p.add_argument("--scales", choices=["both", "per-tensor", "per-channel"], default="both")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    a = p.parse_args()
    bin_dir = os.path.join(os.path.abspath(a.build), "bin")
    per = {"both": (False, True), "per-tensor": (False,), "per-channel": (True,)}[a.scales]
    bad = 0
    for kind in a.kind or qdq_models.KINDS:
        for seed in a.seeds:
            for per_channel in per:
                name = f"{kind}_{seed}_{'per_channel' if per_channel else 'per_tensor'}"
                d = os.path.join(a.keep, name)
                os.makedirs(d, exist_ok=True)
                model, shape, _ = qdq_models.build(kind, seed, per_channel, np.int8)
                onnx.save(model, os.path.join(d, "model.onnx"))
                x = np.random.default_rng(seed + 1000).uniform(-1.0, 1.0, shape)
                np.save(os.path.join(d, "x.npy"), x.astype(np.float32))
                steps = [[os.path.join(bin_dir, "dla-import-onnx"), os.path.join(d, "model.onnx"),
                          "-o", os.path.join(d, "model.mlir")],
                         [os.path.join(bin_dir, "dla-opt"), os.path.join(d, "model.mlir"),
                          "--pass-pipeline=" + PIPELINE, "-o", os.path.join(d, "compiled.mlir")],
                         [sys.executable, NETWORK_TRACE, os.path.join(d, "compiled.mlir"),
                          "--input", os.path.join(d, "x.npy"), "--build", a.build,
                          "--llvm-bin", a.llvm_bin, "--keep", os.path.join(d, "net")]]
                for step in steps:
                    ran = subprocess.run(step, capture_output=True, text=True)
                    if ran.returncode:
                        break
                lines = (ran.stdout + ran.stderr).strip().splitlines()
                ok = ran.returncode == 0
                bad += not ok
                print(f"{name}: {lines[-1] if lines else 'no output'}"
                      if ok else f"{name}: FAILED: {' '.join(step[:2])}\n" + "\n".join(lines[-20:]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
