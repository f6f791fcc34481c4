"""The importer on what exporters write (dla.onnx.exporter_forms, the
importer's float-type promotion, bfloat16); numeric checks against
onnxruntime: test/ONNX/exporter-forms.test."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T, helper as h, numpy_helper as nh

from dla.onnx import ImportFailure, import_model
from dla.onnx.builder import round_bf16


def _model(nodes, inputs, outputs, inits=()):
    return h.make_model(h.make_graph(nodes, "g", inputs, outputs, list(inits)),
                        opset_imports=[h.make_opsetid("", 13)])


def _vi(name, elem=T.FLOAT, shape=(1, 4, 2, 2)):
    return h.make_tensor_value_info(name, elem, list(shape))


def test_unsorted_graph_is_sorted_and_the_callers_model_kept():
    nodes = [h.make_node("Relu", ["a"], ["y"], name="second"),
             h.make_node("Neg", ["x"], ["a"], name="first")]
    m = _model(nodes, [_vi("x")], [_vi("y")])
    remarks = []
    text = import_model(m, remark=remarks.append)
    assert remarks == ["the graph's nodes were not in topological order: sorted (as onnxruntime does)"]
    assert text.index("tosa.negate") < text.index("tosa.clamp")
    assert [n.name for n in m.graph.node] == ["second", "first"]


def test_a_node_reading_its_own_output_is_a_cycle():
    m = _model([h.make_node("Add", ["x", "y"], ["y"], name="loop")], [_vi("x")], [_vi("y")])
    with pytest.raises(ImportFailure, match=r"^node 'loop' \(Add\) reads its own output 'y': "
                                            r"the graph has a cycle$"):
        import_model(m)


def test_two_writers_of_one_tensor():
    """onnx.checker's SSA rule (the importer used to keep the last writer)."""
    nodes = [h.make_node("Relu", ["x"], ["y"], name="a"), h.make_node("Neg", ["x"], ["y"], name="b")]
    with pytest.raises(ImportFailure, match=r"^node 'b' \(Neg\) writes 'y', which node 'a' \(Relu\) "
                                            r"writes too \(a tensor has one writer\)$"):
        import_model(_model(nodes, [_vi("x")], [_vi("y")]))


def test_mixed_float_inputs_are_cast_to_the_widest(verify):
    """A Concat of an f16 and an f32 activation (a calibrated fp16 model's
    DequantizeLinear beside an fp16 branch) reads both in f32."""
    nodes = [h.make_node("Cast", ["x"], ["h"], to=T.FLOAT16, name="half"),
             h.make_node("Relu", ["h"], ["r"], name="relu"),
             h.make_node("Concat", ["r", "x"], ["y"], axis=1, name="cat")]
    remarks = []
    text = import_model(_model(nodes, [_vi("x")], [_vi("y", shape=(1, 8, 2, 2))]),
                        remark=remarks.append)
    assert remarks == ["1 cast added where a node mixes float types (f16 -> f32; 16 elements "
                       "converted per inference), at node 'cat' (Concat)"]
    assert "-> tensor<1x8x2x2xf32>" in verify(text)


def test_bfloat16_weights_and_casts():
    """A bfloat16 initializer is read with its values; a Cast to bfloat16
    of a constant rounds to nearest, ties to even (the format: float32's
    upper 16 bits)."""
    w = np.array([1.0, -2.5, 3.140625, 0.0], np.float32)
    bits = (w.view(np.uint32) >> 16).astype(np.uint16)
    wb = h.make_tensor("wb", T.BFLOAT16, [4], bits.tobytes(), raw=True)
    nodes = [h.make_node("Cast", ["wb"], ["wf"], to=T.FLOAT, name="widen"),
             h.make_node("Add", ["x", "wf"], ["y"], name="add")]
    text = import_model(_model(nodes, [_vi("x", shape=(4,))], [_vi("y", shape=(4,))], [wb]))
    assert "dense<[1.0, -2.5, 3.140625, 0.0]>" in text
    one = np.float32(1.0)
    ulp = np.float32(2.0 ** -7)  # bfloat16's spacing at 1
    values = np.array([one + ulp / 2, one + ulp * 1.5, one + ulp / 2 + ulp / 64, -np.inf, np.nan],
                      np.float32)
    expected = np.array([one, one + 2 * ulp, one + ulp, -np.inf, np.nan], np.float32)
    np.testing.assert_array_equal(round_bf16(values), expected)
