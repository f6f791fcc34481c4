"""Writes an ONNX model with two Convs that --dla-assign-layouts
winograd=auto turns into Winograd: 3x3 stride 1 (24 -> 20 channels, a bias)
then 5x5 stride 2 (channel-extended to 3x3 x 4*Cp). Random dense f32
weights (imported as f32 constants rounded by arith.truncf). With a second
argument DIR: also DIR/x.npy (an input) and DIR/y.npy (both convolutions
in float64 numpy, from the definition)."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(27)
w1 = rng.uniform(-0.3, 0.3, size=(20, 24, 3, 3)).astype(np.float32)
b1 = rng.uniform(-1, 1, size=(20,)).astype(np.float32)
w2 = rng.uniform(-0.2, 0.2, size=(12, 20, 5, 5)).astype(np.float32)
nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["h"], name="wino_3x3", pads=[1, 1, 1, 1]),
         helper.make_node("Conv", ["h", "w2"], ["y"], name="wino_5x5_s2", pads=[2, 2, 2, 2],
                          strides=[2, 2])]
graph = helper.make_graph(
    nodes, "winograd", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 24, 10, 9])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 12, 5, 5])],
    [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
     numpy_helper.from_array(w2, "w2")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, sys.argv[1])


def conv(x, w, pad, stride):
    k, _, r, s = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (xp.shape[2] - r) // stride + 1
    ow = (xp.shape[3] - s) // stride + 1
    y = np.zeros((x.shape[0], k, oh, ow))
    for i in range(r):
        for j in range(s):
            y += np.einsum("nchw,kc->nkhw",
                           xp[:, :, i:i + stride * (oh - 1) + 1:stride,
                              j:j + stride * (ow - 1) + 1:stride], w[:, :, i, j])
    return y


if len(sys.argv) > 2:
    import os
    x = np.random.default_rng(28).uniform(-1, 1, size=(1, 24, 10, 9)).astype(np.float32)
    h = conv(x.astype(np.float64), w1.astype(np.float64), 1, 1) + b1[None, :, None, None]
    y = conv(h, w2.astype(np.float64), 2, 2)
    np.save(os.path.join(sys.argv[2], "x.npy"), x)
    np.save(os.path.join(sys.argv[2], "y.npy"), y.astype(np.float32))
