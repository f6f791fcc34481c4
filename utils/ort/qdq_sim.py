#!/usr/bin/env python3
"""Float simulation of the int8 accuracy bench (bench/int8_accuracy.py):
the QDQ model dla-import-onnx --calibration-table builds (dla.onnx.qdq)
run by onnxruntime-node, against the float model, on rendered text lines.

    PYTHONPATH=build/python_packages:utils \
    qdq_sim.py MODEL.onnx --work DIR [--kind cls|rec] [--method M]
        [--percentile P] [--calibration 32] [--count 64] [--bias-correction N]
        [--fold-bn] [--equalize] [--keep-sums] [--fused] [--asymmetric]
        [--per-channel] [--save QDQ.onnx]

Calibration: onnxruntime-node runs the float model with every activation
as an output on lines 0.. (dla-calibrate's Histogram and methods on the
values; dla-calibrate itself runs them through the project's JIT), the
evaluation lines are 1000.. as in the bench. --bias-correction N: N rounds
of ptq_variants.correct_biases on the calibration lines; --fold-bn,
--equalize: ptq_variants' BatchNormalization folding, cross-layer
equalization of the float model first;
--keep-sums: its kernel-sum-keeping weight rounding. The
QDQ model runs with graph optimizations off (float fake-quantization;
--fused: onnxruntime's QLinearConv etc. fusions on). Prints the bench's
figures. Needs ONNXRUNTIME_NODE as run-ort.js does.
"""

import argparse
import os
import subprocess
import time

import numpy as np
import onnx
import onnx.version_converter

import ptq_variants
import textlines  # utils/ (PYTHONPATH)
from dla import calibrate  # build/python_packages (PYTHONPATH)
from dla.onnx import qdq

HERE = os.path.dirname(os.path.abspath(__file__))

WIDTH = {"cls": 192, "rec": 320}


def lines(first, count, width):
    return np.stack([textlines.as_input(textlines.render(s)[0], 48, width)
                     for s in range(first, first + count)]).astype(np.float32)


def ort(model, work, tag, x, fused=False):
    """Outputs of `model` (a ModelProto or path) on x, in graph order."""
    path = model if isinstance(model, str) else os.path.join(work, tag + ".onnx")
    if not isinstance(model, str):
        onnx.save(model, path)
    xs = os.path.join(work, tag + "_x.npy")
    np.save(xs, x)
    out = os.path.join(work, tag + "_out")
    cmd = ["node", os.path.join(HERE, "run-ort.js"), path, out, xs] + ([] if fused else ["--no-optimize"])
    subprocess.run(cmd, check=True)
    n = len(onnx.load(path, load_external_data=False).graph.output) if isinstance(model, str) \
        else len(model.graph.output)
    return [np.load(os.path.join(out, "%d.npy" % i)) for i in range(n)]


def opset13(model):
    """`model` at opset 13: onnx's converter to 12, then the axes attributes
    of Squeeze / Unsqueeze as inputs (its Softmax adapter needs shapes
    PaddleOCR's models do not give; their Softmax axes are the last)."""
    if model.opset_import[0].version >= 13:
        return model
    m = onnx.version_converter.convert_version(model, 12)
    for node in m.graph.node:
        if node.op_type in ("Squeeze", "Unsqueeze", "ReduceSum", "Split"):
            attrs = [x for x in node.attribute if x.name in ("axes", "split")]
            for x in attrs:
                name = node.name + "_" + x.name
                m.graph.initializer.append(onnx.numpy_helper.from_array(np.array(x.ints, np.int64), name))
                node.input.append(name)
                node.attribute.remove(x)
    m.opset_import[0].version = 13
    return m


def with_outputs(model, names):
    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for n in names:
        if n not in have:
            m.graph.output.append(onnx.helper.make_empty_tensor_value_info(n))
    return m


def runner(work, fused):
    """run(model, names, x) -> [values of the tensors names on x]."""
    def run(model, names, x):
        m = with_outputs(model, names)
        outs = ort(m, work, "bc", x, fused)
        index = {o.name: i for i, o in enumerate(m.graph.output)}
        return [outs[index[n]] for n in names]
    return run


def histograms(model, x, batch=4):
    m = model
    names = calibrate.activations(m)
    stats = {}
    for i in range(0, len(x), batch):
        outs = ort(with_outputs(m, names), WORK, "calib", x[i:i + batch])
        index = {o.name: k for k, o in enumerate(with_outputs(m, names).graph.output)}
        for n in names:
            y = outs[index[n]]
            if y.dtype.kind != "f":
                continue
            h = stats.setdefault(n, calibrate.Histogram())
            if y.ndim and y.shape[0] == len(x[i:i + batch]):
                for s in y:
                    h.add(s[None])
            else:
                h.add(y)
    return stats


def report(kind, got, want):
    if kind == "cls":
        agree = np.mean(np.argmax(got, 1) == np.argmax(want, 1))
        a, b = got.astype(np.float64), want.astype(np.float64)
        cos = np.sum(a * b, 1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
        return "top-1 %.1f%%, mean cosine %.4f" % (100 * agree, cos.mean())
    agree = np.mean(np.argmax(got, -1) == np.argmax(want, -1))
    return "per-step argmax agreement %.2f%%" % (100 * agree)


def main():
    global WORK
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("--work", required=True)
    p.add_argument("--kind", choices=["cls", "rec"], default="rec")
    p.add_argument("--method", default="percentile", choices=["max", "percentile", "entropy", "mse"])
    p.add_argument("--percentile", type=float, default=99.99)
    p.add_argument("--calibration", type=int, default=32)
    p.add_argument("--count", type=int, default=64)
    p.add_argument("--bias-correction", type=int, default=0)
    p.add_argument("--keep-sums", action="store_true")
    p.add_argument("--fold-bn", action="store_true")
    p.add_argument("--equalize", action="store_true")
    p.add_argument("--fused", action="store_true")
    p.add_argument("--asymmetric", action="store_true",
                   help="zero points as dla-calibrate --asymmetric writes them")
    p.add_argument("--per-channel", action="store_true",
                   help="channel scales as dla-calibrate --per-channel writes them")
    p.add_argument("--save", help="write the QDQ model here")
    a = p.parse_args()
    WORK = a.work
    os.makedirs(a.work, exist_ok=True)
    width = WIDTH[a.kind]
    # Opset 13 (PaddleOCR's models are opset 9, which has no QuantizeLinear
    # for onnxruntime); the importer reads the QDQ form at any opset.
    model = opset13(onnx.load(a.model))
    ptq_variants.prepare(model, a.fold_bn, a.equalize)
    if a.keep_sums:
        plain = qdq.quantize_weight

        def quantize_weight(w, axis, floor=None):
            q, scale = plain(w, axis, floor)
            return (ptq_variants.keep_kernel_sums(w, scale, q) if axis == 0 else q), scale
        qdq.quantize_weight = quantize_weight
    t0 = time.perf_counter()
    ref_path = os.path.join(a.work, "float_%d.npy" % a.count)
    x = lines(1000, a.count, width)
    if not os.path.exists(ref_path):
        np.save(ref_path, ort(a.model, a.work, "float", x, True)[0])
    want = np.load(ref_path)
    cal = lines(0, a.calibration, width)
    hist_path = os.path.join(a.work, "hist3_%d%s%s.npy" % (a.calibration, "_eq" * a.equalize,
                                                          "_bn" * a.fold_bn))
    if os.path.exists(hist_path):
        stats = np.load(hist_path, allow_pickle=True).item()
    else:
        stats = histograms(model, cal)
        np.save(hist_path, np.array(stats, dtype=object), allow_pickle=True)
    table = {n: ptq_variants.mse_threshold(h) / 127.0 if a.method == "mse"
             else h.scale(a.method, a.percentile) for n, h in stats.items()}
    zero_points, channel_scales = {}, {}
    if a.asymmetric or a.per_channel:
        t = calibrate.make_table(stats, a.method, a.percentile, a.asymmetric, a.per_channel)[0]
        table, zero_points, channel_scales = dict(t), t.zero_points, t.channel_scales
    for k in range(a.bias_correction):
        model, shift = ptq_variants.correct_biases(model, table, cal, runner(a.work, a.fused))
        print("bias correction round %d: largest shift %.4g" % (k + 1, shift))
    q = qdq.quantize_model(model, {n: table[n] for n in qdq.quantized_nodes(model)[1]},
                           zero_points=zero_points, channel_scales=channel_scales)
    if a.save:
        onnx.save(q, a.save)
    got = ort(q, a.work, "qdq", x, a.fused)[0]
    print("%s %s bias-correction %d%s%s%s: %s (%.0f s)" % (
        a.kind, a.method, a.bias_correction, " fused" * a.fused,
        " fold-bn" * a.fold_bn + " equalize" * a.equalize,
        " keep-sums" * a.keep_sums + " asymmetric" * a.asymmetric + " per-channel" * a.per_channel,
        report(a.kind, got, want), time.perf_counter() - t0))


if __name__ == "__main__":
    main()
