"""The quantizer's attention products (python/dla/onnx/qdq_attention.py,
issue 45): a MatMul of two activations gets Q / DQ on both operands at
zero point 0 whatever the table's offsets (NVDLA reads a run-time weight
without an offset; the left operand's offset would need the run-time
kernels' sums), its product quantized at the table's; per-channel scales
for the right operand are a located error naming the MatMul."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import qdq, qdq_attention
from dla.onnx.calibration_table import Table


def _attention():
    rng = np.random.default_rng(0)
    w = {n: numpy_helper.from_array(rng.normal(0, 0.3, (16, 8)).astype(np.float32), n)
         for n in ("wq", "wk", "wv")}
    nodes = [helper.make_node("MatMul", ["x", "wq"], ["q"], "fc_q"),
             helper.make_node("MatMul", ["x", "wk"], ["k"], "fc_k"),
             helper.make_node("MatMul", ["x", "wv"], ["v"], "fc_v"),
             helper.make_node("Transpose", ["k"], ["kt"], "kt", perm=[0, 2, 1]),
             helper.make_node("MatMul", ["q", "kt"], ["s"], "scores"),
             helper.make_node("Softmax", ["s"], ["p"], "softmax", axis=-1),
             helper.make_node("MatMul", ["p", "v"], ["o"], "context")]
    g = helper.make_graph(nodes, "attention", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8, 16])],
                          [helper.make_tensor_value_info("o", TensorProto.FLOAT, [1, 8, 8])], list(w.values()))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def _dq_params(model, name):
    """(scale, zero point) of the DequantizeLinear writing `name`."""
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    n = next(n for n in model.graph.node if n.output[0] == name)
    assert n.op_type == "DequantizeLinear", (name, n.op_type)
    return float(inits[n.input[1]]), int(inits[n.input[2]])


def test_products_quantized_at_zero_point_0():
    m = _attention()
    _, acts, _ = qdq.quantized_nodes(m)
    for name in ("q", "kt", "p", "v", "s", "o"):
        assert name in acts
    table = Table({a: 0.05 for a in acts}, zero_points={a: 10 for a in acts})
    out = qdq.quantize_model(m, table)
    products = {n.name: n for n in out.graph.node if n.op_type == "MatMul" and n.name in ("scores", "context")}
    assert set(products) == {"scores", "context"}
    for n in products.values():
        for operand in n.input:
            scale, zp = _dq_params(out, operand)
            # Zero point 0, the scale widened to cover the table's range:
            # (127 - 10) levels above, (10 + 128) below: 138 * 0.05 / 127.
            assert zp == 0
            assert scale == pytest.approx(138 * 0.05 / 127, rel=1e-6)
    # The product itself keeps the table's offset.
    q = next(n for n in out.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == "s")
    inits = {i.name: numpy_helper.to_array(i) for i in out.graph.initializer}
    assert int(inits[q.input[2]]) == 10
    onnx.checker.check_model(out)


def test_right_operand_per_channel_is_an_error():
    node = helper.make_node("MatMul", ["q", "kt"], ["s"], "scores")
    with pytest.raises(ValueError, match="MatMul 'scores' multiplies two activations: its right operand 'kt' "
                                         "must be quantized per tensor"):
        qdq_attention.check_operands(node, {"kt": np.ones(8)})
    qdq_attention.check_operands(node, {"q": np.ones(8)})  # the left operand may be
