"""Float classifier heads and a calibration table for each (every tensor
at one scale: the structure of the import does not depend on them):

  head:  x [1, 40, 3, 3] -> GlobalAveragePool -> Reshape [0, -1] -> MatMul
         [40, 10] -> Add -> Softmax (PaddleOCR's classifier's head);
  gemm:  x [1, 24, 2, 2] -> GlobalAveragePool -> Flatten -> Gemm (transB,
         [6, 24]) -> Softmax;
  squeeze: x [2, 16, 3, 3] -> GlobalAveragePool -> Squeeze [2, 3] -> MatMul
         [16, 5] -> Add (tf2onnx's head, a batch of 2);
  wide:  x [1, 8, 40, 40] -> Conv 1x1 -> Flatten -> MatMul [12800, 4] ->
         Add: the FC is a convolution whose kernel covers the 40 x 40 map;
  deep:  x [1, 32768, 1, 1] -> GlobalAveragePool -> Flatten -> MatMul
         [32768, 8] -> Add: more input channels than a layer reads.

and QDQ-form FC layers with an int8 input [1, K, 1, 1] and int8 output
(exact_<K>_<N>: DQ -> Flatten -> MatMul by an int8 weight, per column ->
Add of the int32 bias -> Q) with test_data_set_0, the expected output
(exact_9000_2: K beyond DATAIN_CHANNEL's 8192; exact_2_9000: N beyond
DATAOUT_CHANNEL's) written in numpy from
QLinearMatMul's definition: rint((sum (x - zx) w +
b) * fl32(xs * ws / ys)) + zy, saturated.

    qdq_fc.py DIR   writes DIR/<name>/model.onnx and DIR/<name>/table.json,
                    DIR/exact_<K>_<N>/{model.onnx,test_data_set_0}
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
    yield model("squeeze", [2, 16, 3, 3], [
        helper.make_node("GlobalAveragePool", ["x"], ["p"], "pool"),
        helper.make_node("Squeeze", ["p", "axes"], ["f"], "squeeze"),
        helper.make_node("MatMul", ["f", "w"], ["m"], "fc"),
        helper.make_node("Add", ["m", "b"], ["y"], "fc_bias")],
        {"axes": np.array([2, 3], np.int64), "w": w(16, 5), "b": w(5)}, "y")
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


def exact(root, k, n, xz, per_column, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-128, 128, (1, k, 1, 1)).astype(np.int8)
    w = rng.integers(-127, 128, (k, n)).astype(np.int8)
    xs = np.float32(0.02)
    ws = (rng.uniform(0.3, 1.0, n if per_column else 1) / (np.sqrt(k) * 40)).astype(np.float32)
    bs = (xs * ws).astype(np.float32)
    b = rng.integers(-3000, 3000, n).astype(np.int32)
    acc = (x.reshape(1, k).astype(np.int64) - xz) @ w.astype(np.int64) + b
    m = (xs * np.broadcast_to(ws, (n,))).astype(np.float32)
    f = acc * m.astype(np.float64)
    ys = np.float32(max(np.abs(f).max(), 1e-3) / 100)  # a few outputs saturate
    yz = np.int8(-7)
    mult = (xs * np.broadcast_to(ws, (n,)) / ys).astype(np.float32).astype(np.float64)
    y = np.clip(np.rint(acc * mult) + yz, -128, 127).astype(np.int8)
    axis = {"axis": 1} if per_column else {}
    nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "xz"], ["xf"]),
             helper.make_node("Flatten", ["xf"], ["f"], "flatten"),
             helper.make_node("DequantizeLinear", ["w", "ws", "wz"], ["wf"], **axis),
             helper.make_node("DequantizeLinear", ["b", "bs", "bz"], ["bf"], **({"axis": 0} if per_column else {})),
             helper.make_node("MatMul", ["f", "wf"], ["m"], "fc"),
             helper.make_node("Add", ["m", "bf"], ["a"], "fc_bias"),
             helper.make_node("QuantizeLinear", ["a", "ys", "yz"], ["y"])]
    one = (lambda v: v) if per_column else (lambda v: v[0])
    inits = {"xs": xs, "xz": np.int8(xz), "w": w, "ws": one(ws), "wz": one(np.zeros(len(ws), np.int8)),
             "b": b, "bs": one(bs), "bz": one(np.zeros(len(bs), np.int32)), "ys": ys, "yz": yz}
    g = helper.make_graph(nodes, "exact", [helper.make_tensor_value_info("x", TensorProto.INT8, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, y.shape)],
                          [numpy_helper.from_array(np.asarray(v), name) for name, v in inits.items()])
    d = os.path.join(root, "exact_%d_%d" % (k, n))
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), os.path.join(d, "model.onnx"))
    for kind, a in (("input", x), ("output", y)):
        with open(os.path.join(d, "test_data_set_0", kind + "_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())


if __name__ == "__main__":
    exact(sys.argv[1], 200, 2, 0, True, 1)
    exact(sys.argv[1], 1000, 37, 5, False, 2)
    exact(sys.argv[1], 77, 300, -3, True, 3)
    exact(sys.argv[1], 9000, 2, 0, True, 4)  # more input channels than a layer reads
    exact(sys.argv[1], 2, 9000, 0, True, 5)  # more kernels than a layer writes
    for m in models():
        d = os.path.join(sys.argv[1], m.graph.name)
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        names = ["x"] + [o for n in m.graph.node for o in n.output]
        with open(os.path.join(d, "table.json"), "w") as f:
            json.dump({n: {"scale": 0.05, "min": 0, "max": 0, "offset": 0} for n in names}, f)
