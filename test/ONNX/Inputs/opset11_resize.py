"""Writes opset11.onnx into argv[1]: a float network of opset 11 (as
torch exports U^2-Net: bench/u2net.py) whose bilinear Resize reads roi and
scales as inputs, between two convolutions, and calibration samples in
argv[1]/data (save-qdq.test: --save-qdq raises the Resize to opset 13);
and resize_q.onnx, a quantized resize alone."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper as nh

out = sys.argv[1]
rng = np.random.default_rng(11)
nodes = [
    h.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
    h.make_node("Relu", ["c"], ["r"], name="relu"),
    h.make_node("Resize", ["r", "roi", "scales"], ["u"], name="up", mode="linear",
                coordinate_transformation_mode="half_pixel"),
    h.make_node("Conv", ["u", "w2", "b2"], ["y"], name="conv2", pads=[1, 1, 1, 1]),
]
g = h.make_graph(nodes, "opset11", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 4, 16, 16])],
                 [nh.from_array((rng.standard_normal((8, 3, 3, 3)) * 0.5).astype(np.float32), "w"),
                  nh.from_array(rng.standard_normal(8).astype(np.float32), "b"),
                  nh.from_array(np.zeros(0, np.float32), "roi"),
                  nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
                  nh.from_array((rng.standard_normal((4, 8, 3, 3)) * 0.3).astype(np.float32), "w2"),
                  nh.from_array(rng.standard_normal(4).astype(np.float32), "b2")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 11)])
m.ir_version = 6
onnx.checker.check_model(m, full_check=True)
onnx.save(m, os.path.join(out, "opset11.onnx"))
os.makedirs(os.path.join(out, "data"), exist_ok=True)
for i in range(4):
    np.save(os.path.join(out, "data", "sample_%d.npy" % i),
            rng.uniform(-1, 1, (1, 3, 8, 8)).astype(np.float32))

# A quantized bilinear half-pixel resize alone (QuantizeLinear ->
# DequantizeLinear -> Resize -> QuantizeLinear -> DequantizeLinear, opset
# 13, scales 0.01 and 0.008): the importer's exact integer interpolation,
# on the host (IntegerResizeBorders.cpp) and on NVDLA.
q = [h.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"], name="q0"),
     h.make_node("DequantizeLinear", ["xq", "xs", "z"], ["xd"], name="dq0"),
     h.make_node("Resize", ["xd", "roi", "scales"], ["u"], name="up", mode="linear",
                 coordinate_transformation_mode="half_pixel"),
     h.make_node("QuantizeLinear", ["u", "us", "z"], ["uq"], name="q1"),
     h.make_node("DequantizeLinear", ["uq", "us", "z"], ["y"], name="dq1")]
g = h.make_graph(q, "resize_q", [h.make_tensor_value_info("x", T.FLOAT, [1, 2, 4, 4])],
                 [h.make_tensor_value_info("y", T.FLOAT, [1, 2, 8, 8])],
                 [nh.from_array(np.array(0.01, np.float32), "xs"),
                  nh.from_array(np.array(0.008, np.float32), "us"),
                  nh.from_array(np.array(0, np.int8), "z"),
                  nh.from_array(np.zeros(0, np.float32), "roi"),
                  nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
m.ir_version = 7
onnx.checker.check_model(m, full_check=True)
onnx.save(m, os.path.join(out, "resize_q.onnx"))
