#!/usr/bin/env python3
"""Random QDQ models (qdq_models.py) run by dla-run-onnx and by
onnxruntime-node (which fuses the same groups into QLinearConv etc.) on the
same input, compared in the quantized domain.

    compare_qdq.py --dla-run-onnx TOOL --ort PKG_DIR [--kind K ...]
        [--seeds 0-3] [--max-lsb 1] [--max-rms R] [--scales both|per-tensor|per-channel]
        [--keep DIR] [-- EXTRA dla-run-onnx ARGS]

Each seed runs per tensor and per channel, int8 and uint8. A line per run
gives the % of identical elements and the largest difference in LSB; pass:
>= 99% identical and none more than 1 LSB apart (tosa.rescale rounds ties
up, onnxruntime half to even on float products: exact ties and near-ties
may land one LSB apart). An average pool's mean k + 1/2 (an even element
count) is a tie TOSA's avg_pool2d rounds away from zero and onnxruntime's
QLinearAveragePool to even: those elements are counted apart (the pool's
quantized input, a second output in onnxruntime's run, finds them) and the
99% is of the others. Exit status 1 when a run fails.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
import qdq_models  # noqa: E402


def seeds(text):
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def u8s8_saturates():
    """Whether onnxruntime's fused 8-bit kernels saturate here: without VNNI,
    x86's MLAS multiplies u8 x s8 pairs (s8 x s8 shifted to them) with
    vpmaddubsw, whose 16-bit pair sums saturate (onnxruntime's quantization
    docs: reduce_range), so its QLinearConv is not the QDQ model's
    arithmetic on such a machine."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return " avx2" in flags and " avx512_vnni" not in flags and " avx_vnni" not in flags


def run_one(a, extra, work, kind, seed, per_channel, dtype):
    model, shape, pool = qdq_models.build(kind, seed, per_channel, dtype, probe=True)
    d = os.path.join(work, "%s_%d_%d_%s" % (kind, seed, per_channel, np.dtype(dtype).name))
    os.makedirs(d)
    path = os.path.join(d, "model.onnx")
    onnx.save(model, path)
    x = np.random.default_rng(seed + 1000).uniform(-1.0, 1.0, shape).astype(np.float32)
    np.save(os.path.join(d, "x.npy"), x)
    # Where onnxruntime's fused kernels saturate: the model as written (float
    # operators between quantize steps), said in the line.
    unfused = u8s8_saturates()
    ort = subprocess.run(["node", os.path.join(HERE, "run-ort.js"), path, os.path.join(d, "ort"),
                          os.path.join(d, "x.npy")] + (["--no-optimize"] if unfused else []),
                         env=dict(os.environ, ONNXRUNTIME_NODE=a.ort), capture_output=True, text=True)
    if ort.returncode:
        sys.exit("onnxruntime failed on %s:\n%s" % (path, ort.stderr))
    dla = subprocess.run([a.dla_run_onnx, path, "--input", os.path.join(d, "x.npy"), "--output-dir",
                          os.path.join(d, "dla")] + extra, capture_output=True, text=True)
    if dla.returncode:
        sys.exit("dla-run-onnx failed on %s:\n%s" % (path, dla.stderr))
    want = np.load(os.path.join(d, "ort", "0.npy"))
    got = np.load(os.path.join(d, "dla", "output_0.npy"))
    if got.shape != want.shape or got.dtype != want.dtype:
        return 0.0, -1, "%s %s, onnxruntime %s %s" % (got.dtype, got.shape, want.dtype, want.shape)
    diff = np.abs(got.astype(np.int32) - want.astype(np.int32))
    what, lsb = "%d elements" % diff.size, int(diff.max())
    if a.max_rms is not None:
        # A program with its own stated error (the attention's softmax on
        # NVDLA, docs/WholeNetworks.md): its rms in output LSB.
        rms = float(np.sqrt(np.mean(diff.astype(np.float64) ** 2)))
        what += ", rms %.3f LSB (bound %.2f)" % (rms, a.max_rms)
        if rms > a.max_rms:
            return 0.0, lsb, what + " EXCEEDED"
    if unfused:
        what += ", onnxruntime unfused: its 8-bit kernels saturate without VNNI"
    if isinstance(pool, dict):
        # The hard-swish against its float function of the conv's quantized
        # output (the probe), in output LSB: within hardswish_bound.
        cs, cz, a, bb, ys, yz = pool["hardswish"]
        x = (np.load(os.path.join(d, "ort", "1.npy")).astype(np.float64) - cz) * cs
        t = x * a.reshape(1, -1, 1, 1) + bb.reshape(1, -1, 1, 1)
        exact = np.clip(t * np.clip(t + 3, 0, 6) / 6 / ys + yz, *(QRANGE[np.dtype(dtype)]))
        err = float(np.abs(got.astype(np.float64) - exact).max())
        bound = hardswish_bound(ys, yz - (128 if np.dtype(dtype) == np.uint8 else 0))
        what += ", %.3f LSB from the float function (bound %.3f)" % (err, bound)
        if err > bound:
            return 0.0, lsb, what + " EXCEEDED"
    elif pool is not None:
        tie = mean_ties(np.load(os.path.join(d, "ort", "1.npy")), *pool)
        what += ", %d ties of the mean (%d differ)" % (tie.sum(), np.sum(diff[tie] != 0))
        diff = diff[~tie]
    return 100.0 * np.mean(diff == 0) if diff.size else 100.0, lsb, what


QRANGE = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255)}


def hardswish_bound(ys, zy):
    """docs/IntegerAttributes.md decision 19's bound, in output LSB, of the
    quantized hard-swish against x relu6(x + 3) / 6 of its input (zy in
    TOSA's signed form): t rounded at st = ((127 - zy) ys + 3) / 255, u at
    1/127 (it matters only where |t| < 3), one final rounding and the
    int16 multiplier's 15 bits."""
    st = ((127 - zy) * ys + 3) / 255
    return 0.5 + st / (2 * ys) + 3 / (254 * ys) + 0.01


def mean_ties(q, kernel, stride, pad, zp):
    """Where an average pool (count_include_pad = 0) of quantized q has a
    mean of exactly k + 1/2."""
    x = np.pad(q.astype(np.int64) - zp, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ones = np.pad(np.ones(q.shape, np.int64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    view = lambda a: np.lib.stride_tricks.sliding_window_view(a, kernel, axis=(2, 3))[:, :, ::stride, ::stride]
    total, count = view(x).sum(axis=(4, 5)), view(ones).sum(axis=(4, 5))
    return (2 * total) % (2 * count) == count


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dla-run-onnx", required=True)
    p.add_argument("--ort", required=True, help="the onnxruntime-node package directory")
    p.add_argument("--kind", choices=qdq_models.KINDS, action="append")
    p.add_argument("--seeds", type=seeds, default=seeds("0-3"))
    p.add_argument("--keep", help="keep the models and outputs in this directory")
    p.add_argument("--max-lsb", type=int, default=1,
                   help="the largest difference that passes (default 1)")
    p.add_argument("--min-identical", type=float, default=99.0,
                   help="the least share of identical elements that passes, in %% (default 99)")
    p.add_argument("--max-rms", type=float,
                   help="also the largest rms difference in LSB that passes (a program with a "
                        "stated error: pass --min-identical 0 and a --max-lsb of its own)")
    p.add_argument("--scales", choices=["both", "per-tensor", "per-channel"], default="both",
                   help="weight scales of the models (default both)")
    a = p.parse_args(argv)
    ok = True
    with tempfile.TemporaryDirectory(prefix="compare-qdq-") as tmp:
        work = a.keep or tmp
        for kind in a.kind or qdq_models.KINDS:
            worst_same, worst_lsb = 100.0, 0
            for seed in a.seeds:
                for per_channel in {"both": (False, True), "per-tensor": (False,),
                                    "per-channel": (True,)}[a.scales]:
                    for dtype in (np.int8, np.uint8):
                        same, lsb, what = run_one(a, extra, work, kind, seed, per_channel, dtype)
                        good = same >= a.min_identical and 0 <= lsb <= a.max_lsb
                        print("%s seed %d %s %s: %.2f%% identical, max %d LSB (%s): %s"
                              % (kind, seed, "per-channel" if per_channel else "per-tensor",
                                 np.dtype(dtype).name, same, lsb, what, "ok" if good else "FAIL"))
                        worst_same, worst_lsb = min(worst_same, same), max(worst_lsb, lsb)
                        ok &= good
            print("%s: worst %.2f%% identical, max %d LSB" % (kind, worst_same, worst_lsb))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
