"""Writes the models of run-onnx-errors.test into DIR: a test directory
whose model has an operator the importer lacks (errors must name the
directory, not the temporary copy of each data set), and a model with a
static input."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(op, name, path):
    """A one-node model y = op(x), x and y of shape 1x4."""
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"], name=name)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


out = sys.argv[1]
d = os.path.join(out, "unsupported")
os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
save("Hardmax", "hm", os.path.join(d, "model.onnx"))
with open(os.path.join(d, "test_data_set_0", "input_0.pb"), "wb") as f:
    f.write(numpy_helper.from_array(np.zeros((1, 4), np.float32), "x").SerializeToString())
np.save(os.path.join(out, "x_1x4.npy"), np.zeros((1, 4), np.float32))
np.save(os.path.join(out, "x_2x4.npy"), np.zeros((2, 4), np.float32))
np.save(os.path.join(out, "x_1x4_f64.npy"), np.zeros((1, 4), np.float64))
save("Relu", "relu", os.path.join(out, "relu.onnx"))
