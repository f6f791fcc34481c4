"""ONNX backend-style test directories (model.onnx, test_data_set_0) of
bilinear Resizes by integer factors with half-pixel centres, written to DIR
as DIR/<kind>_<mode>_<f> (docs/Resize.md "Bilinear"):

  float_<mode>_<f>  float32 x -> Resize (linear, by `sizes`) -> y, f in 2,
                    3, 4, 32, mode half_pixel or pytorch_half_pixel;
                    inputs multiples of 1/8 in [-8, 8) (exact in fp16).
  qdq_<mode>_<f>    int8 x -> DequantizeLinear (scale 0.05, zero point 0)
                    -> the Resize -> QuantizeLinear (scale 0.03, zero point
                    5), f in 2, 3, 4, 32.

The expected outputs are numpy written from ONNX's operator definitions:
Resize linear (x_original = (o + 1/2) / f - 1/2, clamped to [0, n - 1],
the two neighbours weighted per axis; pytorch_half_pixel reads 0 where the
output length is 1, never here), DequantizeLinear (x - zp) s,
QuantizeLinear saturate(round_half_even(y / s) + zp).

    bilinear_resize.py DIR"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

XS, YS, YZ = np.float32(0.05), np.float32(0.03), np.int8(5)


def resize_axis(x, axis, f):
    """ONNX's linear resize of one axis by integer f, half-pixel centres."""
    n = x.shape[axis]
    o = np.arange(n * f)
    s = np.clip((o + 0.5) / f - 0.5, 0, n - 1)
    i0 = np.floor(s).astype(int)
    i1 = np.minimum(i0 + 1, n - 1)
    t = (s - i0).reshape([-1 if a == axis else 1 for a in range(x.ndim)])
    return np.take(x, i0, axis) * (1 - t) + np.take(x, i1, axis) * t


def resize(x, f):
    return resize_axis(resize_axis(x.astype(np.float64), 2, f), 3, f)


def write(root, name, x, y, nodes, inits, in_type, out_type):
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", in_type, x.shape)],
                              [helper.make_tensor_value_info("y", out_type, y.shape)], inits)
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    for kind, a in (("input", x), ("output", y)):
        with open(os.path.join(d, "test_data_set_0", kind + "_0.pb"), "wb") as fh:
            fh.write(numpy_helper.from_array(a).SerializeToString())


def case(root, rng, mode, f, qdq):
    shape = [1, 10, 3, 4] if f < 32 else [1, 4, 2, 3]
    out = [1, shape[1], shape[2] * f, shape[3] * f]
    resize_node = helper.make_node("Resize", ["xf" if qdq else "x", "", "", "sizes"], ["yf" if qdq else "y"],
                                   mode="linear", coordinate_transformation_mode=mode)
    inits = [numpy_helper.from_array(np.array(out, np.int64), "sizes")]
    if not qdq:
        x = (rng.integers(-64, 64, size=shape) / 8).astype(np.float32)
        write(root, "float_%s_%d" % (mode, f), x, resize(x, f).astype(np.float32), [resize_node],
              inits, TensorProto.FLOAT, TensorProto.FLOAT)
        return
    x = rng.integers(-128, 128, size=shape).astype(np.int8)
    inits += [numpy_helper.from_array(np.array(XS), "xs"), numpy_helper.from_array(np.int8(0), "xz"),
              numpy_helper.from_array(np.array(YS), "ys"), numpy_helper.from_array(YZ, "yz")]
    nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]), resize_node,
             helper.make_node("QuantizeLinear", ["yf", "ys", "yz"], ["y"])]
    yf = resize(x.astype(np.float32) * XS, f).astype(np.float32)
    y = np.clip(np.rint(yf / YS) + YZ, -128, 127).astype(np.int8)
    write(root, "qdq_%s_%d" % (mode, f), x, y, nodes, inits, TensorProto.INT8, TensorProto.INT8)


rng = np.random.default_rng(45)
for mode in ("half_pixel", "pytorch_half_pixel"):
    for f in (2, 3, 4, 32):
        case(sys.argv[1], rng, mode, f, False)
    for f in (2, 3, 4, 32):
        case(sys.argv[1], rng, mode, f, True)
