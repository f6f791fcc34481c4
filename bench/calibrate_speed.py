#!/usr/bin/env python3
"""dla-calibrate's float run: host convolutions as vector loops (new) vs
the scalar loops tosa-to-linalg-named's filters left (old), on the same
samples in the same script, and the tables of both.

    PYTHONPATH=build/python_packages python3 bench/calibrate_speed.py
        [--only cls,seg320,seg320-fp16w,seg320-fp16,standin-w0.5,standin-w1]
        [--samples N] [--old-samples N]

Cases: PaddleOCR's classifier (build/models, scripts/fetch-models.sh) on
N rendered text lines (utils/textlines.py, seeds 0..N-1, 1x3x48x192); a
U-Net-like segmentation network at 1x3x320x320 (test/ONNX/Inputs/seg_net.py:
3x3 convolutions, a depthwise one, pools, upsampling, skips) with float32
weights, with float16 weights read through Casts (fp16w) and wholly in
float16 (fp16), on N random samples; the issue's network's stand-in,
bench/seg_net.py's U^2-Net-like model (fp16 throughout, 32 to 1024
channels at width 1, 9.6 and 38 G multiply-accumulates at widths 0.5 and
1) at 320x320 (standin-w0.5, standin-w1: its scalar loops take minutes a
sample, give --old-samples 1). Per case and path: dla-calibrate's
compile seconds, seconds per sample, the whole collection, the ratio
new / old, and whether the two paths' tables (max and entropy) are equal
(they should be: the same sums in the same order). The new path runs
dla-calibrate's default jobs (samples at once, calibrate.default_jobs())
and again one at a time (-j1 s/smp: the histograms still overlap the
next run); its tables are the same. Beside them, for
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
    if case.startswith("standin-w"):
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "bench_seg_net", os.path.join(ROOT, "bench", "seg_net.py"))
        standin = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(standin)
        import onnx
        model = os.path.join(work, case, "model.onnx")
        onnx.save(standin.build(320, float(case[len("standin-w"):])), model)
        standin.write_samples(data, 320, n, 0)
        return model, data, {}
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


def collect(model, data, shapes, vector, jobs=None):
    t0 = time.perf_counter()
    stats, n, compile_s = calibrate.collect(model, data, shapes, [0.5] * 3, [0.5] * 3, 1,
                                            quiet=True, vector_host_convolutions=vector,
                                            jobs=jobs)
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
    p.add_argument("--only", default="cls,seg320,seg320-fp16w,seg320-fp16",
                   help="cases (also standin-w0.5, standin-w1)")
    p.add_argument("--samples", type=int, default=32)
    p.add_argument("--old-samples", type=int, default=0,
                   help="samples of the old path (default all; its total scaled to --samples)")
    a = p.parse_args()
    print("jobs (samples at once): %d" % calibrate.default_jobs())
    print("%-13s %5s %9s %9s %9s %9s %9s %9s %8s %9s %7s %9s" % (
        "case", "N", "old cmp s", "old s/smp", "old tot s", "new cmp s", "new s/smp",
        "new tot s", "new/old", "-j1 s/smp", "tables", "offl s/inf"))
    with tempfile.TemporaryDirectory(prefix="bench-calibrate-") as work:
        for case in a.only.split(","):
            model, data, shapes = prepare(case, a.samples, work)
            k = a.old_samples or a.samples
            old_data = data if k >= a.samples else subset(data, k, work, case + "-old")
            s_old, n_old, c_old, per_old, _ = collect(model, old_data, shapes, False)
            s_new, n_new, c_new, per_new, tot_new = collect(model, data, shapes, True)
            s_one, _, _, per_one, _ = collect(model, data, shapes, True, jobs=1)
            tot_old = c_old + per_old * n_new
            same = tables(s_one) == tables(s_new)
            if n_old == n_new:
                same = same and tables(s_old) == tables(s_new)
            same_text = "equal" if same else "DIFFER"
            offl = offloaded_seconds(model, data, shapes, os.path.join(work, case))
            print("%-13s %5d %9.2f %9.3f %9.1f %9.2f %9.3f %9.1f %8.3f %9.3f %7s %9.3f" % (
                case, n_new, c_old, per_old, tot_old, c_new, per_new, tot_new, tot_new / tot_old,
                per_one, same_text, offl), flush=True)


if __name__ == "__main__":
    main()
