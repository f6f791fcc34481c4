"""Writes an ONNX model with one Conv whose f32 weights are mostly zero
(every kernel keeps 8 non-zero values of 16x3x3 = 144): imported weights
arrive as f32 constants that the fp16 layer reads through arith.truncf."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
w = np.zeros((32, 16, 3, 3), np.float32)
for k in range(32):
    idx = rng.choice(16 * 9, size=8, replace=False)
    w.reshape(32, -1)[k, idx] = rng.uniform(0.5, 2.0, size=8).astype(np.float32)
node = helper.make_node("Conv", ["x", "w"], ["y"], name="sparse_conv", pads=[1, 1, 1, 1])
graph = helper.make_graph(
    [node], "sparse", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 8, 8])],
    [numpy_helper.from_array(w, "w")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, sys.argv[1])
