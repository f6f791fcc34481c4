"""ONNX backend-style test directories (model.onnx, test_data_set_0) of an
int8 model's Concat along channels between DequantizeLinear and
QuantizeLinear (as quantizers leave it), written to DIR:

  skip   DQ(a: 32 channels, the output's scale and zero point), DQ(b: 5
         channels, twice the output's scale, another zero point) -> Concat
         (axis 1) -> Q -> DQ -> MaxPool 2x2 stride 2 -> Q (the same scale):
         the importer joins the int8 parts (b requantized by a rescale,
         exact here: the factor is 2), so the concatenation is a view
         written by an SDP pass and a copy, read by a pool.

  side   DQ of three 1-channel maps (scale 1) -> Concat -> Q -> DQ -> a
         1x1 Conv (int8 weights, scale 1) -> Q: the side outputs' join
         into the fuse convolution, padded on NVDLA (each part from a whole
         channel atom, the convolution's weights widened with zeros at the
         gaps). Small values and unit scales: every sum is exact.

  side16 the same join in an fp16 model: two 3x3 convolutions of an
         8-channel input to 1 channel each, concatenated (a, b, a) into a
         1x1 convolution; the expected output in float64 (compared within
         dla-run-onnx's fp16 tolerance).

The expected output is numpy written from ONNX's operator definitions:
DequantizeLinear (x - zp) * s in float32, QuantizeLinear
saturate(round_even(y / s) + zp), MaxPool the window's largest.

    qdq_concat.py DIR"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

YS, YZ = np.float32(0.05), np.int8(3)
BS, BZ = np.float32(0.1), np.int8(-5)


def quantize(f, s, z):
    return np.clip(np.rint(f / s) + np.float32(z), -128, 127).astype(np.int8)


def expected(a, b):
    fa = (a.astype(np.float32) - np.float32(YZ)) * YS
    fb = (b.astype(np.float32) - np.float32(BZ)) * BS
    q = np.concatenate([quantize(fa, YS, YZ), quantize(fb, YS, YZ)], axis=1)
    n, c, h, w = q.shape
    return q.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def write(root, name):
    sa, sb = [1, 32, 4, 6], [1, 5, 4, 6]
    rng = np.random.default_rng(45)
    a = rng.integers(-128, 128, size=sa).astype(np.int8)
    b = rng.integers(-128, 128, size=sb).astype(np.int8)
    inits = [numpy_helper.from_array(np.array(YS), "ys"), numpy_helper.from_array(np.array(YZ), "yz"),
             numpy_helper.from_array(np.array(BS), "bs"), numpy_helper.from_array(np.array(BZ), "bz")]
    nodes = [helper.make_node("DequantizeLinear", ["a", "ys", "yz"], ["af"]),
             helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bf"]),
             helper.make_node("Concat", ["af", "bf"], ["j"], name="join", axis=1),
             helper.make_node("QuantizeLinear", ["j", "ys", "yz"], ["jq"]),
             helper.make_node("DequantizeLinear", ["jq", "ys", "yz"], ["jf"]),
             helper.make_node("MaxPool", ["jf"], ["p"], name="pool", kernel_shape=[2, 2],
                              strides=[2, 2]),
             helper.make_node("QuantizeLinear", ["p", "ys", "yz"], ["y"])]
    out = [1, 37, 2, 3]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("a", TensorProto.INT8, sa),
                                            helper.make_tensor_value_info("b", TensorProto.INT8, sb)],
                              [helper.make_tensor_value_info("y", TensorProto.INT8, out)], inits)
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    for kind, i, v in (("input", 0, a), ("input", 1, b), ("output", 0, expected(a, b))):
        with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, i)), "wb") as f:
            f.write(numpy_helper.from_array(v, ("a", "b")[i] if kind == "input" else "y")
                    .SerializeToString())


def write_side(root):
    shape, rng = [1, 1, 4, 5], np.random.default_rng(46)
    xs = [rng.integers(-20, 21, size=shape).astype(np.int8) for _ in range(3)]
    w = rng.integers(-2, 3, size=(2, 3, 1, 1)).astype(np.int8)
    one, zero = np.float32(1), np.int8(0)
    inits = [numpy_helper.from_array(np.array(one), "s"), numpy_helper.from_array(np.array(zero), "z"),
             numpy_helper.from_array(w, "w")]
    names = ["a", "b", "c"]
    nodes = [helper.make_node("DequantizeLinear", [n, "s", "z"], [n + "f"]) for n in names]
    nodes += [helper.make_node("Concat", [n + "f" for n in names], ["j"], name="join", axis=1),
              helper.make_node("QuantizeLinear", ["j", "s", "z"], ["jq"]),
              helper.make_node("DequantizeLinear", ["jq", "s", "z"], ["jf"]),
              helper.make_node("DequantizeLinear", ["w", "s", "z"], ["wf"]),
              helper.make_node("Conv", ["jf", "wf"], ["f"], name="fuse", kernel_shape=[1, 1]),
              helper.make_node("QuantizeLinear", ["f", "s", "z"], ["y"])]
    # ONNX: the convolution of the dequantized values (exact small
    # integers), quantized at scale 1.
    j = np.concatenate([x.astype(np.float32) for x in xs], axis=1)
    f = np.einsum("nchw,kc->nkhw", j, w[:, :, 0, 0].astype(np.float32))
    y = quantize(f, one, zero)
    graph = helper.make_graph(nodes, "side", [helper.make_tensor_value_info(n, TensorProto.INT8, shape)
                                              for n in names],
                              [helper.make_tensor_value_info("y", TensorProto.INT8, [1, 2, 4, 5])],
                              inits)
    d = os.path.join(root, "side")
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    for kind, i, v, n in [("input", i, x, names[i]) for i, x in enumerate(xs)] + [("output", 0, y, "y")]:
        with open(os.path.join(d, "test_data_set_0", "%s_%d.pb" % (kind, i)), "wb") as fh:
            fh.write(numpy_helper.from_array(v, n).SerializeToString())


def write_side16(root):
    rng = np.random.default_rng(47)
    x = rng.uniform(-1, 1, (1, 8, 4, 5)).astype(np.float16)
    wa, wb = (rng.uniform(-0.5, 0.5, (1, 8, 3, 3)).astype(np.float16) for _ in range(2))
    wf = rng.uniform(-1, 1, (2, 3, 1, 1)).astype(np.float16)
    inits = [numpy_helper.from_array(v, n) for v, n in ((wa, "wa"), (wb, "wb"), (wf, "wf"))]
    nodes = [helper.make_node("Conv", ["x", "wa"], ["a"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Conv", ["x", "wb"], ["b"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Concat", ["a", "b", "a"], ["j"], name="join", axis=1),
             helper.make_node("Conv", ["j", "wf"], ["y"], name="fuse", kernel_shape=[1, 1])]

    def conv3(w):
        p = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        return sum(np.einsum("nchw,c->nhw", p[:, :, r:r + 4, s:s + 5], w[0, :, r, s].astype(np.float64))
                   for r in range(3) for s in range(3))[:, None]
    a, b = conv3(wa), conv3(wb)
    j = np.concatenate([a, b, a], axis=1)
    y = np.einsum("nchw,kc->nkhw", j, wf[:, :, 0, 0].astype(np.float64)).astype(np.float16)
    graph = helper.make_graph(nodes, "side16", [helper.make_tensor_value_info("x", TensorProto.FLOAT16, x.shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT16, y.shape)], inits)
    d = os.path.join(root, "side16")
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    for kind, v, n in (("input", x, "x"), ("output", y, "y")):
        with open(os.path.join(d, "test_data_set_0", "%s_0.pb" % kind), "wb") as fh:
            fh.write(numpy_helper.from_array(v, n).SerializeToString())


write(sys.argv[1], "skip")
write_side(sys.argv[1])
write_side16(sys.argv[1])
