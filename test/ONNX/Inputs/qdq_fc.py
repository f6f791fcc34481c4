"""Float classifier heads and a calibration table for each (every tensor
at one scale: the structure of the import does not depend on them):

  head:  x [1, 40, 3, 3] -> GlobalAveragePool -> Reshape [0, -1] -> MatMul
         [40, 10] -> Add -> Softmax (PaddleOCR's classifier's head);
  gemm:  x [1, 24, 2, 2] -> GlobalAveragePool -> Flatten -> Gemm (transB,
         [6, 24]) -> Softmax;
  wide:  x [1, 8, 40, 40] -> Conv 1x1 -> Flatten -> MatMul [12800, 4] ->
         Add: the FC is a convolution whose kernel covers the 40 x 40 map;
  deep:  x [1, 32768, 1, 1] -> GlobalAveragePool -> Flatten -> MatMul
         [32768, 8] -> Add: one kernel group's weights exceed nv_small's
         convolution buffer.

    qdq_fc.py DIR   writes DIR/<name>/model.onnx and DIR/<name>/table.json
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(name, shape, nodes, inits, out):
    g = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def models():
    rng = np.random.default_rng(45)
    w = lambda *s: (rng.standard_normal(s) * 0.3).astype(np.float32)
    yield model("head", [1, 40, 3, 3], [
        helper.make_node("GlobalAveragePool", ["x"], ["p"], "pool"),
        helper.make_node("Reshape", ["p", "shape"], ["f"], "reshape"),
        helper.make_node("MatMul", ["f", "w"], ["m"], "fc"),
        helper.make_node("Add", ["m", "b"], ["a"], "fc_bias"),
        helper.make_node("Softmax", ["a"], ["y"], "softmax", axis=1)],
        {"shape": np.array([0, -1], np.int64), "w": w(40, 10), "b": w(10)}, "y")
    yield model("gemm", [1, 24, 2, 2], [
        helper.make_node("GlobalAveragePool", ["x"], ["p"], "pool"),
        helper.make_node("Flatten", ["p"], ["f"], "flatten"),
        helper.make_node("Gemm", ["f", "w", "b"], ["a"], "fc", transB=1),
        helper.make_node("Softmax", ["a"], ["y"], "softmax", axis=1)],
        {"w": w(6, 24), "b": w(6)}, "y")
    yield model("wide", [1, 8, 40, 40], [
        helper.make_node("Conv", ["x", "c"], ["v"], "conv"),
        helper.make_node("Flatten", ["v"], ["f"], "flatten"),
        helper.make_node("MatMul", ["f", "w"], ["m"], "fc"),
        helper.make_node("Add", ["m", "b"], ["y"], "fc_bias")],
        {"c": w(8, 8, 1, 1), "w": w(12800, 4) * 0.01, "b": w(4)}, "y")
    yield model("deep", [1, 32768, 1, 1], [
        helper.make_node("GlobalAveragePool", ["x"], ["p"], "pool"),
        helper.make_node("Flatten", ["p"], ["f"], "flatten"),
        helper.make_node("MatMul", ["f", "w"], ["m"], "fc"),
        helper.make_node("Add", ["m", "b"], ["y"], "fc_bias")],
        {"w": w(32768, 8) * 0.01, "b": w(8)}, "y")


if __name__ == "__main__":
    for m in models():
        d = os.path.join(sys.argv[1], m.graph.name)
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        names = ["x"] + [o for n in m.graph.node for o in n.output]
        with open(os.path.join(d, "table.json"), "w") as f:
            json.dump({n: {"scale": 0.05, "min": 0, "max": 0, "offset": 0} for n in names}, f)
