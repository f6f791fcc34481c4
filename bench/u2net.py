#!/usr/bin/env python3
"""U^2-Net and U^2-Net-P as torch exports them, built with onnx.helper from
seeded random weights: the architecture of the authors' model/u2net.py
(xuebinqin/U-2-Net), for compile tests against a real network's structure
without its weights.

    python3 bench/u2net.py model OUT.onnx [--variant u2net|u2netp] [--size 320]
        [--batch-norm] [--shape-chain] [--fp16] [--seed 0]
    python3 bench/u2net.py measure [build/bin] [--variant u2netp] [--size 320] [--work DIR]

What the export holds (bench/seg_net.py is a simpler stand-in):
- RSU blocks: REBNCONV (3x3 convolution, dilation d, batch-norm, ReLU), an
  encoder of MaxPool 2x2 stride 2 ceil_mode, a dilated bottom, a decoder of
  Concat (deeper, skip) and REBNCONV, upsampling by `F.upsample(size=
  tar.shape[2:], mode='bilinear')` (Resize linear pytorch_half_pixel by
  sizes), and the block's residual Add (hx1d + hxin); RSU4F dilated 1, 2,
  4, 8 without pooling (a 10x10 map read at dilation 8 at 320);
- six side outputs (3x3 convolution to one channel) resized to the input
  (by 2 .. 32), concatenated (6 channels) into a 1x1 fuse convolution, and
  seven Sigmoids (the outputs d0 .. d6).
Options: --batch-norm keeps BatchNormalization nodes (an export without
torch's Conv + BN folding); --shape-chain writes the Resize's sizes as
torch's tracer does, Shape -> Slice -> Concat with the channels' Shape ->
Gather (constant after shape inference: the importer must fold them);
--fp16: fp16 initializers and compute with float32 interface casts
(onnxconverter_common's convert_float_to_float16(keep_io_types=True)).
`measure` writes the model and a table of stated scales (bench/seg_net.py
`write_table`) and prints `bench/seg_net.py figures` for nv_full fp16 and
nv_small int8.
"""

import argparse
import collections
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

# (in, mid, out) per stage, U2NET and U2NETP (model/u2net.py).
VARIANTS = {
    "u2net": dict(enc=[(3, 32, 64), (64, 32, 128), (128, 64, 256), (256, 128, 512),
                       (512, 256, 512), (512, 256, 512)],
                  dec=[(1024, 256, 512), (1024, 128, 256), (512, 64, 128), (256, 32, 64),
                       (128, 16, 64)],
                  side=[64, 64, 128, 256, 512, 512]),
    "u2netp": dict(enc=[(3, 16, 64)] + [(64, 16, 64)] * 5,
                   dec=[(128, 16, 64)] * 5,
                   side=[64] * 6),
}
# Stage i's RSU depth (7, 6, 5, 4, then 4F twice); the decoder mirrors it.
DEPTHS = [7, 6, 5, 4, "4F", "4F"]


def build(variant="u2netp", size=320, seed=0, batch_norm=False, shape_chain=False, fp16=True):
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(seed)
    dtype = np.float16 if fp16 else np.float32
    nodes, inits = [], []
    count = collections.Counter()
    shapes = {}

    def name(kind):
        count[kind] += 1
        return "%s_%d" % (kind, count[kind])

    def const(kind, array):
        n = name(kind)
        inits.append(numpy_helper.from_array(np.asarray(array), n))
        return n

    def node(op, inputs, shape, **attrs):
        y = name(op.lower())
        nodes.append(helper.make_node(op, inputs, [y], name=y, **attrs))
        shapes[y] = shape
        return y

    def conv(x, cout, k=3, dil=1, bn_relu=True):
        n, cin, h, w = shapes[x]
        # He-scaled weights keep the activations in fp16's range.
        wt = (rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(dtype)
        b = (rng.standard_normal(cout) * 0.1).astype(dtype)
        pad = dil * (k // 2)
        y = node("Conv", [x, const("w", wt), const("b", b)], (n, cout, h, w),
                 kernel_shape=[k, k], pads=[pad] * 4, dilations=[dil, dil], strides=[1, 1])
        if not bn_relu:
            return y
        if batch_norm:
            gamma = (1 + 0.1 * rng.standard_normal(cout)).astype(dtype)
            beta = (0.1 * rng.standard_normal(cout)).astype(dtype)
            mean = (0.1 * rng.standard_normal(cout)).astype(dtype)
            var = (1 + 0.1 * rng.random(cout)).astype(dtype)
            y = node("BatchNormalization", [y, const("gamma", gamma), const("beta", beta),
                                            const("mean", mean), const("var", var)],
                     shapes[y], epsilon=1e-5)
        return node("Relu", [y], shapes[y])

    def pool(x):
        n, c, h, w = shapes[x]
        return node("MaxPool", [x], (n, c, -(-h // 2), -(-w // 2)), kernel_shape=[2, 2],
                    strides=[2, 2], ceil_mode=1)

    def upsample_like(src, tar):
        n, c = shapes[src][:2]
        th, tw = shapes[tar][2:]
        roi = const("roi", np.zeros(0, np.float32))
        scales = const("scales", np.zeros(0, np.float32))
        if shape_chain:
            # torch's tracer: sizes = Concat(Shape(src)[:2], Shape(tar)[2:]).
            s_src = node("Shape", [src], (4,))
            s_tar = node("Shape", [tar], (4,))
            head = node("Slice", [s_src, const("st", np.array([0], np.int64)),
                                  const("en", np.array([2], np.int64))], (2,))
            tail = node("Slice", [s_tar, const("st", np.array([2], np.int64)),
                                  const("en", np.array([4], np.int64))], (2,))
            sizes = node("Concat", [head, tail], (4,), axis=0)
        else:
            sizes = const("sizes", np.array([n, c, th, tw], np.int64))
        return node("Resize", [src, roi, scales, sizes], (n, c, th, tw), mode="linear",
                    coordinate_transformation_mode="pytorch_half_pixel", nearest_mode="floor",
                    cubic_coeff_a=-0.75)

    def cat(xs):
        n, _, h, w = shapes[xs[0]]
        return node("Concat", xs, (n, sum(shapes[x][1] for x in xs), h, w), axis=1)

    def add(a, b):
        return node("Add", [a, b], shapes[a])

    def rsu(x, depth, mid, out):
        """RSU-L (L = depth, pools L - 2) or RSU4F (dilations 1, 2, 4, 8)."""
        hxin = conv(x, out)
        if depth == "4F":
            hx1 = conv(hxin, mid)
            hx2 = conv(hx1, mid, dil=2)
            hx3 = conv(hx2, mid, dil=4)
            hx4 = conv(hx3, mid, dil=8)
            hx3d = conv(cat([hx4, hx3]), mid, dil=4)
            hx2d = conv(cat([hx3d, hx2]), mid, dil=2)
            return add(conv(cat([hx2d, hx1]), out), hxin)
        enc = [conv(hxin, mid)]
        for _ in range(depth - 2):
            enc.append(conv(pool(enc[-1]), mid))
        d = conv(enc[-1], mid, dil=2)
        for i in range(depth - 2, 0, -1):
            d = conv(cat([d, enc[i]]), mid)
            d = upsample_like(d, enc[i - 1])
        return add(conv(cat([d, enc[0]]), out), hxin)

    v = VARIANTS[variant]
    x = "input"
    shapes[x] = (1, 3, size, size)
    if fp16:
        x = node("Cast", [x], shapes[x], to=TensorProto.FLOAT16)
    hx = []
    h = x
    for i, (_, mid, out) in enumerate(v["enc"]):
        h = rsu(h if i == 0 else pool(hx[-1]) if i < 5 else pool(hx[-1]), DEPTHS[i], mid, out)
        hx.append(h)
    d = hx[5]
    dec = [hx[5]]
    for j, (_, mid, out) in enumerate(v["dec"]):
        stage = 4 - j  # stage5d .. stage1d
        d = rsu(cat([upsample_like(d, hx[stage]), hx[stage]]), DEPTHS[stage], mid, out)
        dec.append(d)
    # dec: [hx6, hx5d, hx4d, hx3d, hx2d, hx1d]; side i reads stage i's.
    sources = [dec[5], dec[4], dec[3], dec[2], dec[1], dec[0]]
    sides = [conv(sources[0], 1, bn_relu=False)]
    for s in sources[1:]:
        sides.append(upsample_like(conv(s, 1, bn_relu=False), sides[0]))
    d0 = conv(cat(sides), 1, k=1, bn_relu=False)
    outs = []
    for i, t in enumerate([d0] + sides):
        s = node("Sigmoid", [t], shapes[t])
        o = "d%d" % i
        if fp16:
            nodes.append(helper.make_node("Cast", [s], [o], name=name("cast"),
                                          to=TensorProto.FLOAT))
        else:
            nodes.append(helper.make_node("Identity", [s], [o], name=name("identity")))
        outs.append(o)
    graph = helper.make_graph(
        nodes, variant,
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, size, size])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, [1, 1, size, size]) for o in outs],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)],
                              producer_name="dla-mlir bench/u2net.py")
    model.ir_version = 6
    return model


def measure(bindir, variant, size, work, batch_norm, shape_chain):
    import onnx
    from seg_net import compile_both, write_table
    os.makedirs(work, exist_ok=True)
    stem = os.path.join(work, "%s_%d%s%s" % (variant, size, "_bn" if batch_norm else "",
                                            "_shapes" if shape_chain else ""))
    onnx_path, table = stem + ".onnx", stem + ".table.json"
    model = build(variant, size, batch_norm=batch_norm, shape_chain=shape_chain)
    onnx.checker.check_model(model)
    onnx.save(model, onnx_path)
    write_table(table, model)
    compile_both(bindir, onnx_path, table, stem, " (%s), %dx%d" % (variant, size, size))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for cmd in ("model", "measure"):
        s = sub.add_parser(cmd)
        if cmd == "model":
            s.add_argument("output")
        else:
            s.add_argument("bindir", nargs="?", default=os.path.join(ROOT, "build", "bin"))
            s.add_argument("--work", default="/tmp/u2net")
        s.add_argument("--variant", choices=sorted(VARIANTS), default="u2netp")
        s.add_argument("--size", type=int, default=320)
        s.add_argument("--seed", type=int, default=0)
        s.add_argument("--batch-norm", action="store_true",
                       help="keep BatchNormalization nodes (no Conv + BN folding)")
        s.add_argument("--shape-chain", action="store_true",
                       help="the Resizes' sizes as Shape / Slice / Concat, as torch traces them")
    a = p.parse_args()
    if a.size % 32:
        sys.exit("--size must be a multiple of 32 (five poolings by 2)")
    if a.cmd == "model":
        import onnx
        model = build(a.variant, a.size, a.seed, a.batch_norm, a.shape_chain)
        onnx.checker.check_model(model)
        onnx.save(model, a.output)
    else:
        measure(a.bindir, a.variant, a.size, a.work, a.batch_norm, a.shape_chain)


if __name__ == "__main__":
    main()
