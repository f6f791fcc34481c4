"""Every op the importer writes is located at its ONNX node and the model
file ("name"("model.onnx":0:0)); unnamed nodes get <op type>_<index>; the
function, its return and the module are at the file. Checked on what
dla-opt parses (--mlir-print-debuginfo), so an alias the parser resolves
differently than meant fails too."""

import re

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import import_model
from test_qdq_fusion import conv_case

F = TensorProto.FLOAT
OP_LINE = re.compile(r"^\s+(?:%[\w:#, %]+ = )?(?:\"?[a-z_]+\.[a-z_0-9.]+|return)\b")


def located(verify, text):
    """(op name, location) of every op dla-opt prints, locations inline."""
    printed = verify(text, "--mlir-print-debuginfo", "--mlir-print-local-scope")
    ops = []
    for line in printed.splitlines():
        m = OP_LINE.match(line)
        if m and "func.func" not in line:  # its location is at its closing brace
            name = re.search(r"(?:= )?\"?([a-z_]+\.[a-z_0-9.]+|return)", line).group(1)
            loc = re.search(r"loc\((.*)\)$", line)
            ops.append((name, loc.group(1) if loc else None))
    return ops, printed


def test_every_op_names_its_node(verify):
    w = np.arange(8 * 3 * 3 * 3, dtype=np.float32).reshape(8, 3, 3, 3) / 100
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv1", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),  # unnamed: Relu_1
             helper.make_node("Shape", ["r"], ["s"], name="shape"),  # folded: no op
             helper.make_node("Reshape", ["r", "s"], ["t"], name="same \"shape\""),
             helper.make_node("MaxPool", ["t"], ["y"], name="pool/1", kernel_shape=[2, 2], strides=[2, 2])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", F, [1, 8, 4, 4])],
                          [numpy_helper.from_array(w, "w")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    ops, printed = located(verify, import_model(m, source="nets/m.onnx"))
    at = lambda node: '"%s"("nets/m.onnx":0:0)' % node
    locs = {}
    for name, loc in ops:
        assert loc is not None, name
        locs.setdefault(loc, []).append(name)
    assert "tosa.conv2d" in locs.pop(at("conv1"))
    assert "tosa.clamp" in locs.pop(at("Relu_1"))
    # A node name with a quote: escaped in the text, the same name parsed.
    locs.pop(at('same \\"shape\\"'), None)
    assert "tosa.max_pool2d" in locs.pop(at("pool/1"))
    # Only the return is left, at the file (so is the function).
    assert locs == {'"nets/m.onnx":0:0': ["return"]}
    assert re.search(r'^\s+func.func @main\(.*\{$', printed, re.M)
    assert re.search(r'^\s+\} loc\("nets/m.onnx":0:0\)$', printed, re.M)


def test_fused_and_deferred_groups_are_located(verify):
    # A QDQ convolution becomes one integer group, at its Conv's location;
    # the DequantizeLinear nodes it reads convert when first read.
    m, _, _ = conv_case(True, np.int8, act="relu")
    for i, node in enumerate(m.graph.node):
        node.name = "n%d" % i
    ops, _ = located(verify, import_model(m))
    assert ops and all(loc is not None for _, loc in ops)
    names = {re.match(r'"([^"]*)"\(', loc).group(1) for _, loc in ops if loc.startswith('"n')}
    conv = next(n.name for n in m.graph.node if n.op_type == "Conv")
    assert conv in names and names <= {n.name for n in m.graph.node}
    assert any(n == "tosa.conv2d" and loc.startswith('"%s"' % conv) for n, loc in ops)
    assert {loc for n, loc in ops if n == "return"} == {'"model.onnx":0:0'}
