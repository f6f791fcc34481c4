#!/usr/bin/env python3
"""Writes a copy of an ONNX model that onnxruntime runs with NVDLA's fp16
storage emulated in f32: every float weight (initializers and Constant
nodes) rounded to fp16, and every float tensor a node produces rounded to
fp16 through Cast(float16) -> Cast(float). The arithmetic stays f32, so the
copy's distance to the f32 model is what storing weights and activations in
fp16 costs by itself, measured without the code under test
(compare_with_ort.py --fp16-emulation-factor).

    fp16_emulation.py MODEL.onnx OUT.onnx [--shape 1x3x48x320]
"""

import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference


def _round_tensor(t):
    if t.data_type != TensorProto.FLOAT:
        return
    a = numpy_helper.to_array(t).astype(np.float16).astype(np.float32)
    t.CopyFrom(numpy_helper.from_array(a, t.name))


def emulate(model, input_shapes=()):
    """The emulated copy of `model` (an onnx.ModelProto, modified in place)."""
    for inp, shape in zip(model.graph.input, input_shapes):
        for d, v in zip(inp.type.tensor_type.shape.dim, shape):
            d.ClearField("dim_param")
            d.dim_value = v
    model = shape_inference.infer_shapes(model)
    g = model.graph
    types = {v.name: v.type.tensor_type.elem_type
             for v in list(g.value_info) + list(g.output) + list(g.input)}
    for t in g.initializer:
        _round_tensor(t)
    nodes = []
    for n in g.node:
        nodes.append(n)
        if n.op_type == "Constant":
            for attr in n.attribute:
                if attr.name == "value":
                    _round_tensor(attr.t)
            continue
        for k, y in enumerate(n.output):
            if types.get(y) != TensorProto.FLOAT:
                continue
            n.output[k] = y + "__f32"
            nodes.append(helper.make_node("Cast", [y + "__f32"], [y + "__f16"],
                                          to=TensorProto.FLOAT16))
            nodes.append(helper.make_node("Cast", [y + "__f16"], [y], to=TensorProto.FLOAT))
    del g.node[:]
    g.node.extend(nodes)
    return model


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model")
    p.add_argument("out")
    p.add_argument("--shape", action="append", default=[],
                   help="static shape of each model input (shape inference), e.g. 1x3x48x320")
    a = p.parse_args()
    shapes = [tuple(int(d) for d in s.split("x")) for s in a.shape]
    onnx.save(emulate(onnx.load(a.model), shapes), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
