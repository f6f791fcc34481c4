"""A tiny float model for calibration tests: y = Relu(Conv(x)) + Conv(x)
(Conv 2 -> 3 channels, 3x3, pad 1, with bias), and N samples x_<i>.npy.

    calib_tiny.py DIR [N]   writes DIR/model.onnx and DIR/data/x_<i>.npy
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def tiny_model():
    rng = np.random.default_rng(7)
    w = (rng.standard_normal((3, 2, 3, 3)) * 0.4).astype(np.float32)
    b = np.array([0.25, -0.5, 0.1], np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], "conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], "relu"),
             helper.make_node("Add", ["r", "c"], ["y"], "add")]
    g = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 6, 6])],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def samples(n, seed=11):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, (1, 2, 6, 6)).astype(np.float32) * (1 + i % 3) for i in range(n)]


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "data"), exist_ok=True)
    onnx.save(tiny_model(), os.path.join(out, "model.onnx"))
    for i, x in enumerate(samples(int(sys.argv[2]) if len(sys.argv) > 2 else 4)):
        np.save(os.path.join(out, "data", "x_%d.npy" % i), x)
