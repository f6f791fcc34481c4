"""Writes QDQ models whose quantization is out of dla-import-onnx's scope
(float8, int4, 16-bit, blocked, saturate) into the directory argv[1].
Debian's onnx 1.12 predates these types, so tensors are built by number."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT8E4M3FN, UINT16, INT4 = 17, 4, 22


def raw(name, elem_type, data=b"\x00"):
    t = TensorProto()
    t.name, t.data_type, t.raw_data = name, elem_type, data
    return t


def save(name, node, zp=None, x_type=TensorProto.FLOAT, out_type=TensorProto.INT8, scale=None,
         opset=21):
    scale = np.array(0.5, np.float32) if scale is None else scale
    inits = [numpy_helper.from_array(scale, "s")] + ([zp] if zp is not None else [])
    g = helper.make_graph([node], name, [helper.make_tensor_value_info("x", x_type, [2, 4])],
                          [helper.make_tensor_value_info("y", out_type, None)], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(m, os.path.join(sys.argv[1], name + ".onnx"))


q = lambda name, **kw: helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name=name, **kw)
save("float8", q("q_f8"), raw("z", FLOAT8E4M3FN), out_type=FLOAT8E4M3FN)
save("int4", q("q_i4"), raw("z", INT4), out_type=INT4)
save("uint16", q("q_u16"), raw("z", UINT16, b"\x00\x00"), out_type=UINT16)
save("blocked", q("q_blocked", axis=1, block_size=2),
     numpy_helper.from_array(np.zeros((2, 2), np.int8), "z"), scale=np.ones((2, 2), np.float32))
save("saturate", q("q_sat", saturate=0), raw("z", FLOAT8E4M3FN), out_type=FLOAT8E4M3FN, opset=19)
save("float8_input", helper.make_node("DequantizeLinear", ["x", "s"], ["y"], name="dq_f8"),
     x_type=FLOAT8E4M3FN, out_type=TensorProto.FLOAT, opset=19)
