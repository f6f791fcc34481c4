"""A tiny float model whose nearest Resize sits between two quantized
convolutions: c = Conv(x) (2 -> 8 channels, 3x3, pad 1), u = Resize(c,
nearest, asymmetric, floor, scales 2 x 2), y = Conv(u) (8 -> 3, 1x1); and
N samples x_<i>.npy. With `join`, a U-Net decoder step instead: c =
Conv(MaxPool(x)) (2 -> 8, 3x3), u = Resize(c, linear, half_pixel, 2 x 2)
beside the skip s = Conv(x) (2 -> 8, 3x3), y = Conv(Concat(u, s)) (16 ->
3, 1x1), x of 1x2x10x12.

    calib_resize.py DIR [N] [join]   writes DIR/model.onnx and DIR/data/x_<i>.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model():
    rng = np.random.default_rng(45)
    w1 = (rng.standard_normal((8, 2, 3, 3)) * 0.4).astype(np.float32)
    w2 = (rng.standard_normal((3, 8, 1, 1)) * 0.4).astype(np.float32)
    scales = np.array([1, 1, 2, 2], np.float32)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c"], "conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Resize", ["c", "", "scales"], ["u"], "up", mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("Conv", ["u", "w2"], ["y"], "conv2")]
    g = helper.make_graph(nodes, "calib_resize",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 10, 12])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2"),
                           numpy_helper.from_array(scales, "scales")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def join_model():
    rng = np.random.default_rng(46)
    w1 = (rng.standard_normal((8, 2, 3, 3)) * 0.4).astype(np.float32)
    ws = (rng.standard_normal((8, 2, 3, 3)) * 0.4).astype(np.float32)
    w2 = (rng.standard_normal((3, 16, 1, 1)) * 0.4).astype(np.float32)
    scales = np.array([1, 1, 2, 2], np.float32)
    nodes = [helper.make_node("MaxPool", ["x"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p", "w1"], ["c"], "conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Resize", ["c", "", "scales"], ["u"], "up", mode="linear",
                              coordinate_transformation_mode="half_pixel"),
             helper.make_node("Conv", ["x", "ws"], ["s"], "skip", pads=[1, 1, 1, 1]),
             helper.make_node("Concat", ["u", "s"], ["j"], "join", axis=1),
             helper.make_node("Conv", ["j", "w2"], ["y"], "conv2")]
    g = helper.make_graph(nodes, "calib_resize_join",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 10, 12])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 10, 12])],
                          [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(ws, "ws"),
                           numpy_helper.from_array(w2, "w2"),
                           numpy_helper.from_array(scales, "scales")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    join = len(sys.argv) > 3 and sys.argv[3] == "join"
    onnx.save(join_model() if join else model(), os.path.join(out, "model.onnx"))
    rng = np.random.default_rng(11)
    for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 4):
        np.save(os.path.join(out, "data", "x_%d.npy" % i),
                rng.uniform(-1, 1, (1, 2, 10, 12) if join else (1, 2, 5, 6)).astype(np.float32))
