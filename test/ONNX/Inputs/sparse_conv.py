"""Writes an ONNX model with one Conv whose f32 weights are mostly zero
(every kernel keeps 8 non-zero values of 16x3x3 = 144): imported weights
arrive as f32 constants that the fp16 layer reads through arith.truncf.
With a second argument DIR: also DIR/x.npy (an input) and DIR/y.npy (the
convolution in float64 numpy, from the definition)."""
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

if len(sys.argv) > 2:
    import os
    x = np.random.default_rng(8).uniform(-1, 1, size=(1, 16, 8, 8)).astype(np.float32)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((1, 32, 8, 8))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,kc->nkhw", xp[:, :, i:i + 8, j:j + 8], w[:, :, i, j])
    np.save(os.path.join(sys.argv[2], "x.npy"), x)
    np.save(os.path.join(sys.argv[2], "y.npy"), y.astype(np.float32))
