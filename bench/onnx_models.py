#!/usr/bin/env python3
"""End-to-end compile of real ONNX networks: import, offload, check.

    python3 bench/onnx_models.py [build/bin] [--pipeline PASSES]

Per model (PaddleOCR cls at 1x3x48x192 and rec at 1x3x48x320 from
build/models, see scripts/fetch-models.sh): layers offloaded / total, the
transposes and casts left at the partition boundary (what layout
assignment turns into relayouts) with their bytes, dla.relayout ops and
packed weight bytes once the pipeline contains layout assignment and
packing, weight bytes of the offloaded convolutions, wall time and peak RSS
of each stage, and compile time as a ratio of dla-opt parsing and printing
the same module (baseline measured in the same run).
"""

import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = [
    ("cls", "ch_ppocr_mobile_v2.0_cls_infer.onnx", "x=1x3x48x192"),
    ("rec", "ch_PP-OCRv4_rec_infer.onnx", "x=1x3x48x320"),
]
# TOSA ops that only move, reshape or convert data: not layers.
DATA_MOVEMENT = {"const", "const_shape", "transpose", "reshape", "cast", "slice", "concat", "pad",
                 "tile", "identity", "reverse", "gather"}
ELEMENT_BYTES = {"f32": 4, "f16": 2, "i8": 1, "i16": 2, "i32": 4, "i64": 8}


def run(cmd):
    """Runs cmd; returns (seconds, peak RSS in MiB, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err.decode()[-2000:]))
    return time.perf_counter() - start, usage.ru_maxrss / 1024.0, err.decode()


def tensor_bytes(t):
    m = re.match(r"tensor<((?:\d+x)*)([a-z]+\d+)", t)
    n = 1
    for d in m.group(1).split("x")[:-1]:
        n *= int(d)
    return n * ELEMENT_BYTES.get(m.group(2), 0)


def layers(text):
    tosa = [op for op in re.findall(r"= tosa\.([a-z_0-9]+)", text) if op not in DATA_MOVEMENT]
    dla = re.findall(r"= dla\.(conv|sdp|pool|lrn)\b", text)
    return tosa, dla


def boundary(text):
    """Transposes and casts touching an offloaded layer's data (rank 4)."""
    count, nbytes = 0, 0
    for m in re.finditer(r"= tosa\.(transpose|cast) .*-> (tensor<[^>]*>)", text):
        if re.match(r"tensor<\d+x\d+x\d+x\d+x", m.group(2)):
            count += 1
            nbytes += tensor_bytes(m.group(2))
    return count, nbytes


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bindir", nargs="?", default=os.path.join(ROOT, "build", "bin"))
    p.add_argument("--models", default=os.path.join(ROOT, "build", "models"))
    p.add_argument("--pipeline", default="dla-compile{convert-tosa=true layouts=false}",
                   help="dla-opt pipeline after import (default: the registered --dla-compile, "
                        "offloading only; layouts=true adds layout assignment and packing)")
    args = p.parse_args()
    dla_opt = os.path.join(args.bindir, "dla-opt")
    importer = os.path.join(args.bindir, "dla-import-onnx")
    work = os.path.join(ROOT, "build", "bench-onnx")
    os.makedirs(work, exist_ok=True)
    print("pipeline: import | %s" % args.pipeline)
    hdr = ("model", "offloaded/total", "dla ops", "boundary ops", "boundary MiB", "relayouts",
           "conv weight MiB", "packed MiB", "import s", "compile s", "compile/parse",
           "import RSS", "compile RSS")
    print("%-5s %15s %8s %12s %12s %9s %15s %10s %8s %9s %13s %10s %11s" % hdr)
    for name, fname, shape in MODELS:
        model = os.path.join(args.models, fname)
        if not os.path.exists(model):
            print("%-5s missing %s (bash scripts/fetch-models.sh)" % (name, model))
            continue
        tosa_file = os.path.join(work, name + ".mlir")
        out_file = os.path.join(work, name + ".dla.mlir")
        t_imp, rss_imp, _ = run([importer, model, "--input-shape", shape, "-o", tosa_file])
        t_parse, _, _ = run([dla_opt, tosa_file, "-o", os.devnull])
        t_comp, rss_comp, _ = run([dla_opt, tosa_file, "--pass-pipeline=builtin.module(%s)" % args.pipeline,
                                   "-o", out_file])
        with open(tosa_file) as f:
            before, _ = layers(f.read())
        with open(out_file) as f:
            text = f.read()
        host, dla = layers(text)
        b_count, b_bytes = boundary(text)
        relayouts = len(re.findall(r"= dla\.relayout\b", text))
        weights = sum(tensor_bytes(m) for m in re.findall(
            r"dla\.conv\s+\w+ [^:]*: tensor<[^>]*>, (tensor<[^>]*>)", text))
        packed = 0
        for m in re.finditer(r"dense_resource<(dla_packed[^>]*)>", text):
            blob = re.search(r"\b%s: \"0x([0-9A-F]*)\"" % re.escape(m.group(1)), text)
            packed += (len(blob.group(1)) // 2 - 4) if blob else 0
        print("%-5s %15s %8d %12d %12.2f %9d %15.2f %10.2f %8.2f %9.2f %13.1f %9.0fM %10.0fM" % (
            name, "%d/%d" % (len(before) - len(host), len(before)), len(dla), b_count, b_bytes / 2**20,
            relayouts, weights / 2**20, packed / 2**20, t_imp, t_comp, t_comp / t_parse, rss_imp,
            rss_comp))


if __name__ == "__main__":
    main()
