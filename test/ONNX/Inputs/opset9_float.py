"""Writes opset9.onnx into argv[1]: a float network of opset 9 holding the
nodes whose definitions changed by opset 13 (Clip's bounds, Slice's
starts / ends, Squeeze's axes as attributes; Softmax over the input
flattened at its axis), and calibration samples in argv[1]/data
(save-qdq.test)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(9)
nodes = [
    h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
    h.make_node("Clip", ["c"], ["r6"], name="relu6", min=0.0, max=6.0),
    h.make_node("Slice", ["r6"], ["s"], name="crop", starts=[1], ends=[7], axes=[2]),
    h.make_node("GlobalAveragePool", ["s"], ["g"], name="gap"),
    h.make_node("Squeeze", ["g"], ["v"], name="squeeze", axes=[2, 3]),
    h.make_node("Softmax", ["v"], ["y"], name="softmax", axis=1),
]
g = h.make_graph(nodes, "opset9", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 6])],
                 [nh.from_array((rng.standard_normal((6, 3, 3, 3)) * 0.5).astype(np.float32), "w"),
                  nh.from_array(rng.standard_normal(6).astype(np.float32), "b")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 9)])
m.ir_version = 4
onnx.save(m, os.path.join(out, "opset9.onnx"))
os.makedirs(os.path.join(out, "data"), exist_ok=True)
for i in range(3):
    np.save(os.path.join(out, "data", "x_%d.npy" % i), rng.uniform(-1, 1, (1, 3, 8, 8)).astype(np.float32))
