"""ONNX backend-style test directories (model.onnx, test_data_set_0) of an
int8 model's float nearest Resize between DequantizeLinear and
QuantizeLinear (as quantizers leave it), written to DIR:

  same      DQ -> Resize (nearest, asymmetric, floor, scales 2 x 3) -> Q,
            one scale and zero point: the importer raises the Resize to
            the int8 tensor (a copy commutes with quantization).
  rescaled  the same with the Q's scale tripled (no ties when requantized):
            stays float.

The expected outputs are numpy written from ONNX's operator definitions:
DequantizeLinear (x - zp) * s, Resize nearest asymmetric / floor (output
index o reads floor(o / scale)), QuantizeLinear saturate(round_even(y / s)
+ zp).

    qdq_resize.py DIR"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

XS, ZP, SCALES = np.float32(0.05), np.int8(3), (2, 3)


def expected(x, ys):
    f = (x.astype(np.float32) - np.float32(ZP)) * XS
    iy = np.floor(np.arange(x.shape[2] * SCALES[0]) / SCALES[0]).astype(int)
    ix = np.floor(np.arange(x.shape[3] * SCALES[1]) / SCALES[1]).astype(int)
    r = f[:, :, iy][:, :, :, ix]
    return np.clip(np.rint(r / np.float32(ys)) + ZP, -128, 127).astype(np.int8)


def write(root, name, ys):
    shape = [1, 10, 4, 5]
    out = [1, 10, 4 * SCALES[0], 5 * SCALES[1]]
    x = np.random.default_rng(45).integers(-128, 128, size=shape).astype(np.int8)
    inits = [numpy_helper.from_array(np.array(XS), "xs"),
             numpy_helper.from_array(np.array(ZP), "zp"),
             numpy_helper.from_array(np.array(ys, np.float32), "ys"),
             numpy_helper.from_array(np.array([1, 1, *SCALES], np.float32), "scales")]
    nodes = [helper.make_node("DequantizeLinear", ["x", "xs", "zp"], ["xf"]),
             helper.make_node("Resize", ["xf", "", "scales"], ["yf"], name="up", mode="nearest",
                              coordinate_transformation_mode="asymmetric", nearest_mode="floor"),
             helper.make_node("QuantizeLinear", ["yf", "ys", "zp"], ["y"])]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.INT8, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.INT8, out)], inits)
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "test_data_set_0"), exist_ok=True)
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]),
         os.path.join(d, "model.onnx"))
    for kind, a in (("input", x), ("output", expected(x, ys))):
        with open(os.path.join(d, "test_data_set_0", kind + "_0.pb"), "wb") as f:
            f.write(numpy_helper.from_array(a).SerializeToString())


write(sys.argv[1], "same", XS)
write(sys.argv[1], "rescaled", 3 * XS)
