"""A QDQ model of an opset below 13 raised to opset 13, where
QuantizeLinear / DequantizeLinear have the per-axis form the quantizer
writes, so that --save-qdq writes a model onnx.checker and onnxruntime
accept. (The importer reads the model at its own opset; only the saved
copy is raised.)

onnx.version_converter would do it but stops on a Softmax whose input
shape its inference cannot follow (PaddleOCR's Shape -> Slice -> Concat ->
Reshape chains), so the nodes whose definitions changed between opset 9 and
13 in a way a model notices are rewritten here; the other changes in that
range only add types or optional attributes. An operator changed in a way
not rewritten here is an error naming the node."""

import numpy as np
from onnx import helper, numpy_helper

from .builder import ImportError_
from .validate import node_label

QDQ_OPSET = 13

# Operator -> the opset from which its attribute became an input
# (attribute, input position): attributes moved to inputs by opset 13.
ATTRIBUTES_TO_INPUTS = {
    "Clip": (11, [("min", 1, np.float32), ("max", 2, np.float32)]),
    "Slice": (10, [("starts", 1, np.int64), ("ends", 2, np.int64), ("axes", 3, np.int64)]),
    "Squeeze": (13, [("axes", 1, np.int64)]),
    "Unsqueeze": (13, [("axes", 1, np.int64)]),
    "ReduceSum": (13, [("axes", 1, np.int64)]),
    "Split": (13, [("split", 1, np.int64)]),
    "Pad": (11, [("pads", 1, np.int64), ("value", 2, np.float32)]),
}
# Changed in a way these rewrites do not cover. Resize from opset 11 on
# is raised as it stands (opset 13 made roi, scales and sizes optional and
# added types); opset 10's (no roi, asymmetric coordinates) is not.
NOT_RAISED = {"Upsample", "TopK", "Dropout", "Hardmax"}
RAISED_FROM = {"Resize": 11}


def raise_opset(model):
    """`model` (changed in place) at opset 13 when below it, every
    QuantizeLinear reading float32 (an fp16 model's activation through a
    Cast: opset 13's QuantizeLinear reads float32 only)."""
    _float_quantize_inputs(model)
    opset = next(o for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset.version >= QDQ_OPSET:
        return model
    graph = model.graph
    nodes, inits = [], []
    for node in graph.node:
        nodes.extend(_raised(node, opset.version, inits))
    del graph.node[:]
    graph.node.extend(nodes)
    graph.initializer.extend(inits)
    opset.version = QDQ_OPSET
    return model


def _float_quantize_inputs(model):
    """A Cast to float32 before each QuantizeLinear of a float16 tensor (the
    types by onnx's inference, which needs no shapes for them)."""
    from onnx import TensorProto, shape_inference
    graph = model.graph
    if not any(n.op_type == "QuantizeLinear" for n in graph.node):
        return
    typed = shape_inference.infer_shapes(model)
    types = {v.name: v.type.tensor_type.elem_type
             for v in list(typed.graph.value_info) + list(graph.input) + list(graph.output)}
    types.update((t.name, t.data_type) for t in graph.initializer)
    nodes = []
    for node in graph.node:
        if node.op_type == "QuantizeLinear" and types.get(node.input[0]) == TensorProto.FLOAT16:
            wide = node.input[0] + "_float32"
            nodes.append(helper.make_node("Cast", [node.input[0]], [wide], name=wide,
                                          to=TensorProto.FLOAT))
            node.input[0] = wide
        nodes.append(node)
    del graph.node[:]
    graph.node.extend(nodes)


def _raised(node, opset, inits):
    if node.domain not in ("", "ai.onnx"):
        return [node]
    if node.op_type in NOT_RAISED or opset < RAISED_FROM.get(node.op_type, 0):
        raise ImportError_("--save-qdq: %s of opset %d is not raised to opset %d yet (the "
                           "model's QuantizeLinear needs it)" % (node_label(node), opset, QDQ_OPSET))
    if node.op_type in ("Softmax", "LogSoftmax"):
        return _softmax(node)
    since, moved = ATTRIBUTES_TO_INPUTS.get(node.op_type, (0, []))
    if opset >= since:
        return [node]
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    inputs = list(node.input)
    for name, position, dtype in moved:
        if name not in attrs:
            continue
        value = numpy_helper.from_array(np.asarray(attrs[name], dtype),
                                        "%s_%s" % (node.name or node.output[0], name))
        inits.append(value)
        inputs += [""] * (position + 1 - len(inputs))
        inputs[position] = value.name
    keep = [a for a in node.attribute if a.name not in {m[0] for m in moved}]
    new = helper.make_node(node.op_type, inputs, list(node.output), name=node.name)
    new.attribute.extend(keep)
    return [new]


def _softmax(node):
    """Before 13: over the input flattened to 2-D at `axis` (default 1);
    from 13 over one axis: Flatten, the op over axis 1, Reshape back."""
    axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
    base = node.name or node.output[0]
    x, y = node.input[0], node.output[0]
    return [helper.make_node("Shape", [x], [base + "_shape"], name=base + "_shape"),
            helper.make_node("Flatten", [x], [base + "_2d"], name=base + "_flatten", axis=axis),
            helper.make_node(node.op_type, [base + "_2d"], [base + "_out_2d"], name=node.name, axis=1),
            helper.make_node("Reshape", [base + "_out_2d", base + "_shape"], [y], name=base + "_reshape")]
