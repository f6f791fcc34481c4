#!/usr/bin/env python3
"""Reference execution of PaddleOCR's classifier vs onnxruntime.

    python3 bench/cls_vs_onnxruntime.py [build/bin] [--repeat N] [--target T]
                                        [--fp16-arithmetic hardware|ideal]

Compiles ch_ppocr_mobile_v2.0_cls_infer.onnx (build/models, see
scripts/fetch-models.sh) at 1x3x48x192 with dla-run-onnx (nv_full fp16 by
default: layers offloaded, executed by --dla-lower-to-reference in the
accelerator's memory formats, JIT at -O2) and times N runs after a warm-up
on the same deterministic input as onnxruntime-node (one thread each; see
scripts/fetch-onnxruntime.sh). Prints both times per run and the ratio
dla / onnxruntime, measured in the same run, and the outputs' agreement.
"""

import argparse
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bin", nargs="?", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--target", default="nv_full")
    p.add_argument("--fp16-arithmetic", choices=["hardware", "ideal"],
                   help="what the fp16 layers compute (dla-run-onnx's option; default hardware)")
    a = p.parse_args()
    model = os.path.join(ROOT, "build", "models", "ch_ppocr_mobile_v2.0_cls_infer.onnx")
    if not os.path.exists(model):
        sys.exit("%s is missing: run scripts/fetch-models.sh" % model)
    ort = subprocess.run(["bash", os.path.join(ROOT, "scripts", "fetch-onnxruntime.sh")],
                         capture_output=True, text=True)
    if ort.returncode:
        sys.exit("onnxruntime-node is not available:\n" + ort.stderr)
    cmd = [sys.executable, os.path.join(ROOT, "utils", "ort", "compare_with_ort.py"), model,
           "--shape", "1x3x48x192", "--classes", "--repeat", str(a.repeat),
           "--dla-run-onnx", os.path.join(a.bin, "dla-run-onnx"), "--ort", ort.stdout.strip(),
           "--", "--target", a.target, "--precision", "fp16", "--opt-level", "2"]
    if a.fp16_arithmetic:
        cmd += ["--fp16-arithmetic", a.fp16_arithmetic]
    return subprocess.call(cmd)


if __name__ == "__main__":
    sys.exit(main())
