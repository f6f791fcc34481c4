#!/usr/bin/env python3
"""A U-Net-like salient-object network (U^2-Net style) as torch exports it,
built with onnx.helper from seeded random weights, and its compile figures.

    python3 bench/seg_net.py model OUT.onnx [--size 320] [--width 1.0] [--seed 0] [--no-corners] [--outputs 5]
    python3 bench/seg_net.py samples DIR [--size 320] [--count 2] [--seed 0]
    python3 bench/seg_net.py table MODEL.onnx TABLE.json
    python3 bench/seg_net.py measure [build/bin] [--size 320] [--work DIR]

`model` writes the network: float32 input 1x3xSxS cast to fp16 and fp16
throughout (fp16 initializers, as onnxconverter_common's
convert_float_to_float16(keep_io_types=True) leaves a model), float32
outputs. Encoder: 3x3 convolutions (bias, ReLU: batch-norms folded, as
torch's eval export writes them) of 32 to 512 channels, dilated 2 in every
stage's second convolution, MaxPool 2x2 stride 2 ceil_mode. Decoder: per
stage a Resize by 2 of the deeper stage, a Concat with the skip connection
along channels and a 3x3 convolution; the Resizes as torch writes them
(F.interpolate bilinear: `linear` / `pytorch_half_pixel`, once
`half_pixel`; align_corners=True: `align_corners`; nearest: `nearest` /
`asymmetric` / `floor`), by `scales` or by `sizes`. At 1/16 of the input
the decoder's first convolution reads 1024 channels (U^2-Net's stage5d:
on nv_small one row of its input does not fit beside a kernel group).
Side outputs: a 3x3 convolution to one channel per decoder stage, resized
to the input (bilinear by 2, 4 and 32), concatenated (4 channels: not a
multiple of any channel group) into a 1x1 fuse convolution; Sigmoid on
the fused map and on every side output (five outputs).

`table` writes a calibration table without calibrating (every tensor at
scale 1/16, sigmoids at 1/127): compile tests, not accuracy. `samples`
writes calibration inputs (.npy, seeded uniform [0, 1) images
after the calibrator's default mean / std). `measure` builds the model
and samples in --work, runs `dla-compile` for nv_full fp16, `dla-calibrate`
then `dla-compile` for nv_small int8, and prints per compile the summary's
layers on the accelerator and the host, the host ops by TOSA name, the
transitions (the manifest summary's: tensors handed between host and
accelerator, and twice each relayout between encoded tensors the host runs)
and the relayout bytes: the figures of docs/WholeNetworks.md.
"""

import argparse
import collections
import json
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(size=320, width=1.0, seed=0, corners=True, outputs=5):
    """The ONNX model (onnx.ModelProto), opset 13. `corners` False: the
    align_corners resize is pytorch_half_pixel too, as U^2-Net's own
    code exports (F.upsample(..., mode='bilinear') without align_corners).
    `outputs` 1: the fused map's sigmoid only (what a user reads)."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(seed)
    nodes, inits = [], []
    count = collections.Counter()

    def name(kind):
        count[kind] += 1
        return "%s_%d" % (kind, count[kind])

    def ch(c):
        return max(1, int(round(c * width)))

    def const(kind, array):
        n = name(kind)
        inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def conv(x, cin, cout, k=3, dil=1, relu=True):
        # He-scaled weights keep the activations in fp16's range.
        w = (rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float16)
        b = (rng.standard_normal(cout) * 0.1).astype(np.float16)
        y = name("conv")
        pad = dil * (k // 2)
        nodes.append(helper.make_node("Conv", [x, const("w", w), const("b", b)], [y], name=y,
                                      kernel_shape=[k, k], pads=[pad] * 4, dilations=[dil, dil],
                                      strides=[1, 1]))
        if not relu:
            return y
        r = name("relu")
        nodes.append(helper.make_node("Relu", [y], [r], name=r))
        return r

    def pool(x):
        y = name("pool")
        nodes.append(helper.make_node("MaxPool", [x], [y], name=y, kernel_shape=[2, 2],
                                      strides=[2, 2], ceil_mode=1))
        return y

    def resize(x, factor, mode, coord, hw, channels=None):
        y = name("resize")
        roi = const("roi", np.zeros(0, np.float32))
        if channels:  # by sizes (the whole output shape), as F.interpolate(size=...)
            inputs = [x, roi, "", const("sizes", np.array([1, channels, hw * factor, hw * factor],
                                                          np.int64))]
        else:
            inputs = [x, roi, const("scales", np.array([1, 1, factor, factor], np.float32))]
        attrs = dict(mode=mode, coordinate_transformation_mode=coord,
                     nearest_mode="floor", cubic_coeff_a=-0.75)
        nodes.append(helper.make_node("Resize", inputs, [y], name=y, **attrs))
        return y

    def concat(xs):
        y = name("concat")
        nodes.append(helper.make_node("Concat", xs, [y], name=y, axis=1))
        return y

    def sigmoid(x, out):
        s = name("sigmoid")
        nodes.append(helper.make_node("Sigmoid", [x], [s], name=s))
        nodes.append(helper.make_node("Cast", [s], [out], name=name("cast"), to=TensorProto.FLOAT))

    nodes.append(helper.make_node("Cast", ["input"], ["x16"], name="cast_in", to=TensorProto.FLOAT16))
    c1, c2, c3, c4, c5 = ch(64), ch(128), ch(256), ch(512), ch(512)
    # Encoder: resolution S, S/2, S/4, S/8, S/16, S/32.
    h1 = conv(conv("x16", 3, ch(32)), ch(32), c1, dil=2)
    h2 = conv(conv(pool(h1), c1, c2), c2, c2, dil=2)
    h3 = conv(conv(pool(h2), c2, c3), c3, c3, dil=2)
    h4 = conv(pool(h3), c3, c4)
    h5 = conv(conv(pool(h4), c4, c5), c5, c5, dil=2)
    h6 = conv(pool(h5), c5, c5, dil=2)
    s = size
    # Decoder: up by 2, concatenate the skip, convolve.
    d5 = conv(concat([resize(h6, 2, "linear", "pytorch_half_pixel", s // 32, c5), h5]),
              2 * c5, c5)
    d4 = conv(concat([resize(d5, 2, "linear", "half_pixel", s // 16), h4]), c5 + c4, c3)
    d3 = conv(concat([resize(d4, 2, "linear", "align_corners" if corners else "pytorch_half_pixel",
                             s // 8), h3]), 2 * c3, c2)
    d2 = conv(concat([resize(d3, 2, "nearest", "asymmetric", s // 4), h2]), 2 * c2, c1)
    d1 = conv(concat([resize(d2, 2, "linear", "pytorch_half_pixel", s // 2, c1), h1]),
              2 * c1, c1)
    # Side outputs at the input's resolution, fused.
    s1 = conv(d1, c1, 1, relu=False)
    s2 = resize(conv(d2, c1, 1, relu=False), 2, "linear", "pytorch_half_pixel", s // 2)
    s3 = resize(conv(d3, c2, 1, relu=False), 4, "linear", "pytorch_half_pixel", s // 4)
    s6 = resize(conv(h6, c5, 1, relu=False), 32, "linear", "pytorch_half_pixel", s // 32)
    fused = conv(concat([s1, s2, s3, s6]), 4, 1, k=1, relu=False)
    outs = []
    for i, t in enumerate([fused, s1, s2, s3, s6][:outputs]):
        outs.append("d%d" % i)
        sigmoid(t, outs[-1])
    graph = helper.make_graph(
        nodes, "seg_net",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, [1, 1, size, size]) for o in outs],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="dla-mlir bench/seg_net.py")
    model.ir_version = 7
    return model


def write_table(path, model):
    """A calibration table without calibrating (NVIDIA's JSON): every tensor
    of `model` at scale 1/16 (int8 covers [-8, 8)), the sigmoids' outputs
    at 1/127. For compile tests and figures, not for accuracy."""
    scales = {"input": 1.0 / 127}
    for node in model.graph.node:
        for out in node.output:
            scales[out] = 1.0 / 127 if node.op_type == "Sigmoid" else 1.0 / 16
    with open(path, "w") as f:
        json.dump({k: {"scale": v, "min": 0, "max": 0, "offset": 0} for k, v in scales.items()}, f,
                  indent=0)


def write_samples(directory, size, count, seed):
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(count):
        np.save(os.path.join(directory, "sample_%02d.npy" % i),
                rng.random((1, 3, size, size), dtype=np.float32))


def figures(bundle, bindir):
    """The figures of a dla-compile bundle's manifest: accelerator layers,
    host layers and host data ops with the host ops by name (and why),
    transitions in dla-compile's words (dla.bundle.transitions_text, from
    the build's Python package next to `bindir`), relayouts and their bytes
    read plus written."""
    sys.path.insert(0, os.path.join(bindir, os.pardir, "python_packages"))
    from dla.bundle import transitions_text
    with open(os.path.join(bundle, "manifest.json")) as f:
        m = json.load(f)
    s = m["summary"]
    host = collections.Counter((l["op"], l.get("reason", "")) for l in m["layers"]
                               if l.get("placement") == "host")
    lines = ["accelerator layers %d, host layers %d + host data ops %d"
             % (s["accelerator_layers"], s["host_layers"], s["host_data_ops"]),
             "transitions " + transitions_text(s),
             "relayouts %d, %d bytes" % (s["relayouts"], s["relayout_bytes"])]
    lines += ["  host %4d x %s: %s" % (n, op, why[:110]) for (op, why), n in host.most_common()]
    return "\n".join(lines)


def measure(bindir, size, work, width=1.0, calibrate=False):
    os.makedirs(work, exist_ok=True)
    import onnx
    stem = os.path.join(work, "seg_%d_w%g" % (size, width))
    onnx_path = stem + ".onnx"
    if not os.path.exists(onnx_path):
        onnx.save(build(size, width), onnx_path)
    table = stem + (".calibrated.json" if calibrate else ".table.json")
    if not os.path.exists(table):
        if calibrate:
            data = stem + "_samples"
            write_samples(data, size, 2, 0)
            r = subprocess.run([os.path.join(bindir, "dla-calibrate"), onnx_path, "--data", data,
                                "-o", table, "-q"], capture_output=True, text=True)
            if r.returncode:
                sys.exit("dla-calibrate failed:\n%s" % r.stderr[-3000:])
        else:
            write_table(table, onnx.load(onnx_path))
    compile_both(bindir, onnx_path, table, stem, ", %dx%d, width %g" % (size, size, width))


def compile_both(bindir, onnx_path, table, stem, title):
    """dla-compile of `onnx_path` for nv_full fp16 and nv_small int8 (with
    `table`) into STEM.<target>, each run's figures printed."""
    runs = [("nv_full fp16", ["--target", "nv_full", "--precision", "fp16"]),
            ("nv_small int8", ["--target", "nv_small", "--precision", "int8",
                               "--calibration-table", table])]
    for label, args in runs:
        out = "%s.%s" % (stem, label.replace(" ", "_"))
        r = subprocess.run([os.path.join(bindir, "dla-compile"), onnx_path, *args, "--allow-host",
                            "-o", out], capture_output=True, text=True)
        print("== %s%s: exit %d" % (label, title, r.returncode))
        print(r.stderr[-2500:] if r.returncode else figures(out, bindir), flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("model")
    m.add_argument("output")
    m.add_argument("--size", type=int, default=320)
    m.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--no-corners", action="store_true",
                   help="the align_corners resize half-pixel too (U^2-Net's own resizes)")
    m.add_argument("--outputs", type=int, choices=(1, 5), default=5,
                   help="5: the fused map's and the four side outputs' sigmoids; 1: the fused one")
    sm = sub.add_parser("samples")
    sm.add_argument("directory")
    sm.add_argument("--size", type=int, default=320)
    sm.add_argument("--count", type=int, default=2)
    sm.add_argument("--seed", type=int, default=0)
    t = sub.add_parser("table")
    t.add_argument("model")
    t.add_argument("output")
    me = sub.add_parser("measure")
    me.add_argument("bindir", nargs="?", default=os.path.join(ROOT, "build", "bin"))
    me.add_argument("--size", type=int, default=320)
    me.add_argument("--work", default="/tmp/seg_net")
    me.add_argument("--width", type=float, default=1.0, help="channel multiplier")
    me.add_argument("--calibrate", action="store_true",
                    help="dla-calibrate on two samples (slow at 320) instead of `table`'s scales")
    a = p.parse_args()
    if getattr(a, "size", 32) % 32:
        sys.exit("--size must be a multiple of 32 (five poolings by 2)")
    if a.cmd == "model":
        import onnx
        model = build(a.size, a.width, a.seed, corners=not a.no_corners, outputs=a.outputs)
        onnx.checker.check_model(model)
        onnx.save(model, a.output)
    elif a.cmd == "table":
        import onnx
        write_table(a.output, onnx.load(a.model))
    elif a.cmd == "samples":
        write_samples(a.directory, a.size, a.count, a.seed)
    else:
        measure(a.bindir, a.size, a.work, a.width, a.calibrate)


if __name__ == "__main__":
    main()
