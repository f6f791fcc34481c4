#!/usr/bin/env python3
"""dla-calibrate's float run: host convolutions as vector loops (new) vs
the scalar loops tosa-to-linalg-named's filters left (old), on the same
samples in the same script, and the tables of both.

    PYTHONPATH=build/python_packages python3 bench/calibrate_speed.py
        [--only cls,seg320,seg320-fp16w,seg320-fp16] [--samples N] [--old-samples N]

Cases: PaddleOCR's classifier (build/models, scripts/fetch-models.sh) on
N rendered text lines (utils/textlines.py, seeds 0..N-1, 1x3x48x192); a
U-Net-like segmentation network at 1x3x320x320 (test/ONNX/Inputs/seg_net.py:
3x3 convolutions, a depthwise one, pools, upsampling, skips) with float32
weights, with float16 weights read through Casts (fp16w) and wholly in
float16 (fp16), on N random samples. Per case and path: dla-calibrate's
compile seconds, seconds per sample, the whole collection, the ratio
new / old, and whether the two paths' tables (max and entropy) are equal
(they should be: the same sums in the same order). Beside them, for
reference, one inference of the same model with its layers offloaded
(dla-run-onnx's default, nv_full fp16) on the CPU execution: the speed
the issue asked calibration to reach. The old path runs --old-samples
samples (default: all) and its total is scaled to N.
"""

import argparse
import os
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "ONNX", "Inputs"))
sys.path.insert(0, os.path.join(ROOT, "utils"))

from dla import calibrate, runner  # noqa: E402

CLS = os.path.join(ROOT, "build", "models", "ch_ppocr_mobile_v2.0_cls_infer.onnx")


def prepare(case, n, work):
    """(model path, data dir, {input: shape}) of a case."""
    data = os.path.join(work, case, "data")
    os.makedirs(data, exist_ok=True)
    if case == "cls":
        import textlines
        if not os.path.exists(CLS):
            sys.exit("%s is missing: bash scripts/fetch-models.sh build/models" % CLS)
        for seed in range(n):
            img, _, _ = textlines.render(seed)
            np.save(os.path.join(data, "line_%03d.npy" % seed),
                    textlines.as_input(img, 48, 192)[None].astype(np.float32))
        return CLS, data, {"x": [1, 3, 48, 192]}
    import seg_net
    fp16 = {"seg320": "none", "seg320-fp16w": "weights", "seg320-fp16": "all"}[case]
    seg_net.write(os.path.join(work, case), 320, n, fp16)
    return os.path.join(work, case, "model.onnx"), data, {}


def subset(data, k, work, tag):
    """A directory with the first k samples of `data`."""
    d = os.path.join(work, tag)
    os.makedirs(d, exist_ok=True)
    for f in sorted(os.listdir(data))[:k]:
        os.symlink(os.path.join(data, f), os.path.join(d, f))
    return d


def collect(model, data, shapes, vector):
    t0 = time.perf_counter()
    stats, n, compile_s = calibrate.collect(model, data, shapes, [0.5] * 3, [0.5] * 3, 1,
                                            quiet=True, vector_host_convolutions=vector)
    total = time.perf_counter() - t0
    return stats, n, compile_s, (total - compile_s) / n, total


def tables(stats):
    return {m: calibrate.make_table(stats, m)[0] for m in ("max", "entropy")}


def offloaded_seconds(model, data, shapes, work):
    """Seconds per inference of the model compiled with its layers
    offloaded (nv_full fp16), on the first sample (mean of 3 after one)."""
    import onnx
    m = onnx.load(model)
    x = np.load(os.path.join(data, sorted(os.listdir(data))[0]))
    for name, shape in shapes.items():
        for inp in m.graph.input:
            if inp.name == name:
                for d, s in zip(inp.type.tensor_type.shape.dim, shape):
                    d.Clear()
                    d.dim_value = s
    path = os.path.join(work, "offload.onnx")
    onnx.save(m, path)
    options = runner.CompileOptions(allow_host=True, opt_level=1)
    compiled = runner.Compiled(path, options, work)
    (_, dtype), = compiled.arg_types
    compiled.engine.invoke(compiled.name, [x.astype(dtype)])
    t0 = time.perf_counter()
    for _ in range(3):
        compiled.engine.invoke(compiled.name, [x.astype(dtype)])
    return (time.perf_counter() - t0) / 3


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="cls,seg320,seg320-fp16w,seg320-fp16")
    p.add_argument("--samples", type=int, default=32)
    p.add_argument("--old-samples", type=int, default=0,
                   help="samples of the old path (default all; its total scaled to --samples)")
    a = p.parse_args()
    print("%-13s %5s %9s %9s %9s %9s %9s %9s %8s %7s %9s" % (
        "case", "N", "old cmp s", "old s/smp", "old tot s", "new cmp s", "new s/smp",
        "new tot s", "new/old", "tables", "offl s/inf"))
    with tempfile.TemporaryDirectory(prefix="bench-calibrate-") as work:
        for case in a.only.split(","):
            model, data, shapes = prepare(case, a.samples, work)
            k = a.old_samples or a.samples
            old_data = data if k >= a.samples else subset(data, k, work, case + "-old")
            s_old, n_old, c_old, per_old, _ = collect(model, old_data, shapes, False)
            s_new, n_new, c_new, per_new, tot_new = collect(model, data, shapes, True)
            tot_old = c_old + per_old * n_new
            if n_old == n_new:
                same = tables(s_old) == tables(s_new)
                same_text = "equal" if same else "DIFFER"
            else:
                same_text = "n/a"
            offl = offloaded_seconds(model, data, shapes, os.path.join(work, case))
            print("%-13s %5d %9.2f %9.3f %9.1f %9.2f %9.3f %9.1f %8.3f %7s %9.3f" % (
                case, n_new, c_old, per_old, tot_old, c_new, per_new, tot_new, tot_new / tot_old,
                same_text, offl), flush=True)


if __name__ == "__main__":
    main()
