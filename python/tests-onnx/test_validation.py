"""Inconsistent models: each is an ImportFailure naming the node, input,
initializer or file (never a traceback, never a module dla-opt rejects)."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import ImportFailure, import_model, load_model

F = TensorProto.FLOAT


def _model(nodes, inputs, inits=(), opset=13, outputs=None):
    outputs = outputs or [helper.make_tensor_value_info("y", F, None)]
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _x(shape=(1, 4, 6, 6), name="x", elem=F):
    return helper.make_tensor_value_info(name, elem, list(shape))


def _w(shape, name="w"):
    return numpy_helper.from_array(np.ones(shape, np.float32), name)


def _conv(**attrs):
    w = attrs.pop("weights", (8, 4, 3, 3))
    return _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv1", **attrs)], [_x()], [_w(w)])


def _pool(**attrs):
    return _model([helper.make_node("MaxPool", ["x"], ["y"], name="pool1", **attrs)], [_x()])


CASES = [
    ("kernel_shape vs weights", _conv(kernel_shape=[5, 5]),
     r"^node 'conv1' \(Conv\): kernel_shape \[5, 5\] contradicts the weights' shape \[8, 4, 3, 3\]$"),
    ("pads length", _conv(pads=[1, 1, 1]),
     r"^node 'conv1' \(Conv\): pads has 3 values for a 2-D window \(4 expected\)$"),
    ("strides length", _conv(strides=[1, 1, 1]),
     r"^node 'conv1' \(Conv\): strides has 3 values for a 2-D window \(2 expected\)$"),
    ("zero stride", _conv(strides=[0, 1]),
     r"^node 'conv1' \(Conv\): strides \[0, 1\]: every value must be at least 1$"),
    ("negative dilation", _conv(dilations=[1, -2]),
     r"^node 'conv1' \(Conv\): dilations \[1, -2\]: every value must be at least 1$"),
    ("negative pads", _conv(pads=[0, -1, 0, 0]),
     r"^node 'conv1' \(Conv\): pads \[0, -1, 0, 0\]: negative values$"),
    ("huge pads", _conv(pads=[0, 0, 1 << 40, 0]),
     r"^node 'conv1' \(Conv\): pads \[0, 0, 1099511627776, 0\]: values beyond 65536$"),
    ("huge pool kernel", _pool(kernel_shape=[2, 1 << 33]),
     r"^node 'pool1' \(MaxPool\): kernel_shape \[2, 8589934592\]: values beyond 65536$"),
    ("zero pool kernel", _pool(kernel_shape=[0, 2]),
     r"^node 'pool1' \(MaxPool\): kernel_shape \[0, 2\]: every value must be at least 1$"),
    ("group divisibility", _conv(group=3, weights=(8, 1, 3, 3)),
     r"^node 'conv1' \(Conv\): weights \[8, 1, 3, 3\] do not fit 4 input channels in 3 groups$"),
    ("bias shape",
     _model([helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv1")], [_x()],
            [_w((8, 4, 3, 3)), _w((2, 2, 3, 3), "b")]),
     r"^node 'conv1' \(Conv\): a bias of shape \[2, 2, 3, 3\] for 8 output channels$"),
    ("group zero", _conv(group=0),
     r"^node 'conv1' \(Conv\): group 0: must be an integer, at least 1$"),
    ("transpose perm length",
     _model([helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[0, 2, 1])], [_x()]),
     r"^node 'tr' \(Transpose\): perm \[0, 2, 1\] is not a permutation of the 4 axes of its input$"),
    ("transpose perm repeated",
     _model([helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[0, 1, 1, 3])], [_x()]),
     r"^node 'tr' \(Transpose\): perm \[0, 1, 1, 3\] is not a permutation"),
    ("NaN clip bound",
     _model([helper.make_node("Clip", ["x", "lo"], ["y"], name="clip")], [_x()],
            [numpy_helper.from_array(np.array(np.nan, np.float32), "lo")]),
     r"^node 'clip' \(Clip\): the bounds \[nan, inf\] hold NaN$"),
    ("NaN clip attribute",
     _model([helper.make_node("Clip", ["x"], ["y"], name="clip", min=float("nan"))], [_x()], opset=6),
     r"^node 'clip' \(Clip\): attribute 'min' is NaN$"),
    ("batch of zero", _model([helper.make_node("Relu", ["x"], ["y"], name="r")], [_x((0, 4, 6, 6))]),
     r"^input 'x' has a dimension of size 0 \(sizes are at least 1: TOSA has no empty tensors\)$"),
    ("negative dimension", _model([helper.make_node("Relu", ["x"], ["y"], name="r")], [_x((1, -3))]),
     r"^input 'x' has a dimension of size -3"),
    ("missing input",
     _model([helper.make_node("Conv", ["x"], ["y"], name="conv1")], [_x()]),
     r"^node 'conv1' \(Conv\): the required input 1 \(W\) is missing$"),
    ("undefined input",
     _model([helper.make_node("Add", ["x", "nothing"], ["y"], name="add")], [_x()]),
     r"^node 'add' \(Add\): input 'nothing' is defined by no node, graph input or initializer$"),
    ("too many inputs",
     _model([helper.make_node("Relu", ["x", "x"], ["y"], name="r")], [_x()]),
     r"^node 'r' \(Relu\): 2 inputs, the operator takes at most 1$"),
    ("attribute of the wrong type",
     _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv1", group=1.5)], [_x()],
            [_w((8, 4, 3, 3))]),
     r"^node 'conv1' \(Conv\): attribute 'group' is FLOAT, the operator wants INT$"),
    ("missing required attribute",
     _model([helper.make_node("MaxPool", ["x"], ["y"], name="pool1")], [_x()]),
     r"^node 'pool1' \(MaxPool\): the required attribute 'kernel_shape' is missing$"),
    ("unknown input dtype", _model([helper.make_node("Relu", ["x"], ["y"], name="r")], [_x(elem=99)]),
     r"^input 'x' has the unknown element type #99$"),
    ("zero-sized result",
     _model([helper.make_node("Slice", ["x", "s", "e", "a"], ["y"], name="sl")], [_x()],
            [numpy_helper.from_array(np.array([3], np.int64), n) for n in ("s", "e")] +
            [numpy_helper.from_array(np.array([2], np.int64), "a")]),
     r"^node 'sl' \(Slice\): an empty result \(shape \[1, 4, 0, 6\]\): TOSA has no empty tensors$"),
    ("slice step zero",
     _model([helper.make_node("Slice", ["x", "s", "e", "a", "st"], ["y"], name="sl")], [_x()],
            [numpy_helper.from_array(np.array([v], np.int64), n)
             for n, v in (("s", 0), ("e", 3), ("a", 2), ("st", 0))]),
     r"^node 'sl' \(Slice\): steps \[0\]: a step of 0$"),
    ("LRN size zero",
     _model([helper.make_node("LRN", ["x"], ["y"], name="lrn", size=0)], [_x()]),
     r"^node 'lrn' \(LRN\): needs a rank-4 input and a positive size \(size 0, rank 4\)$"),
]


def _initializer_case(mutate):
    w = _w((8, 4, 3, 3))
    mutate(w)
    return _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv1")], [_x()], [w])


def _truncate(w):
    w.raw_data = w.raw_data[:100]


def _unknown_type(w):
    w.data_type = 99


def _negative_dims(w):
    w.dims[0] = -8


CASES += [
    ("truncated initializer", _initializer_case(_truncate),
     r"^initializer 'w' has 100 bytes of data for shape \[8, 4, 3, 3\] of float32 \(1152 expected\): "
     r"truncated or corrupt$"),
    ("unknown initializer dtype", _initializer_case(_unknown_type),
     r"^initializer 'w': unknown element type #99$"),
    ("negative initializer dims", _initializer_case(_negative_dims),
     r"^initializer 'w' has negative dimensions \[-8, 4, 3, 3\]$"),
]


@pytest.mark.parametrize("name,model,message", CASES, ids=[c[0] for c in CASES])
def test_inconsistent_model(name, model, message):
    with pytest.raises(ImportFailure, match=message):
        import_model(model)


def test_consistent_models_verify(verify):
    """The same models with consistent attributes import, and verify."""
    verify(import_model(_conv(kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 1])))
    verify(import_model(_conv(group=2, weights=(8, 2, 3, 3))))
    verify(import_model(_pool(kernel_shape=[2, 2], pads=[1, 1, 1, 1])))


@pytest.mark.parametrize("content,message", [
    (b"", r": the file is empty, not an ONNX model$"),
    (b"\x08\x07\x12\xff\xff", r": not an ONNX model, or a truncated one"),
])
def test_unreadable_files(tmp_path, content, message):
    path = tmp_path / "bad.onnx"
    path.write_bytes(content)
    with pytest.raises(ImportFailure, match="^" + str(path) + message):
        load_model(str(path))


def test_truncated_model_file(tmp_path):
    data = _conv().SerializeToString()
    path = tmp_path / "cut.onnx"
    path.write_bytes(data[:len(data) - 300])
    with pytest.raises(ImportFailure, match=str(path) + ": not an ONNX model, or a truncated one"):
        import_model(load_model(str(path)))


def test_resize_scales_are_checked():
    m = _model([helper.make_node("Resize", ["x", "", "sc"], ["y"], name="rz")], [_x()],
               [numpy_helper.from_array(np.array([1, 1, np.inf, 2], np.float32), "sc")])
    with pytest.raises(ImportFailure, match=r"^node 'rz' \(Resize\): scales \[1.0, 1.0, inf, 2.0\]: "
                                            r"4 positive finite values expected$"):
        import_model(m)


def test_reshape_target_is_integer():
    m = _model([helper.make_node("Reshape", ["x", "s"], ["y"], name="rs")], [_x()],
               [numpy_helper.from_array(np.array([1, np.nan], np.float32), "s")])
    with pytest.raises(ImportFailure, match=r"^node 'rs' \(Reshape\): the target shape must be a 1-D "
                                            r"integer tensor, not float32 of shape \[2\]$"):
        import_model(m)


def test_converter_crash_is_contained():
    """onnx.version_converter's C++ crashes on some malformed models: it
    runs in a child process, and its crash is a reason, not our end."""
    import os
    import signal
    from dla.onnx import opsets
    result, why = opsets._isolated(lambda: os.kill(os.getpid(), signal.SIGSEGV))
    assert result is None and why == "it crashed (signal 11)"
    assert opsets._isolated(lambda: b"fine") == (b"fine", None)
    assert opsets._isolated(lambda: 1 / 0) == (None, "division by zero")


def test_cli_refuses_a_module_that_does_not_verify(tmp_path, monkeypatch, capsys):
    """What dla-import-onnx writes verifies: an importer bug is an error
    naming the model, and nothing is written."""
    import dla.onnx
    from dla.cli import import_onnx as import_cli
    path = tmp_path / "m.onnx"
    path.write_bytes(_conv().SerializeToString())
    out = tmp_path / "out.mlir"
    monkeypatch.setattr(dla.onnx, "import_model", lambda *a, **k: "func.func @f() { return %x }")
    assert import_cli.main([str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dla-import-onnx: error: %s: the imported module does not verify (an "
                          "importer bug): <input>:1:" % path), err
    assert not out.exists()


# Issue 46's audit: what onnx.checker rejects, the importer rejects too
# (each case is checked against onnx.checker as well), or states.

I64 = TensorProto.INT64

AUDIT = [
    ("unknown attribute",
     _model([helper.make_node("Relu", ["x"], ["y"], name="r", alpha=0.5)], [_x()]),
     r"^node 'r' \(Relu\): 'alpha' is not an attribute of Relu at opset 13 \(it has none\)$"),
    ("misspelt attribute",
     _model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv1", stride=[2, 2])], [_x()],
            [_w((8, 4, 3, 3))]),
     r"^node 'conv1' \(Conv\): 'stride' is not an attribute of Conv at opset 13 \(it has "
     r"auto_pad, dilations, group, kernel_shape, pads, strides\)$"),
    ("int64 MaxPool input",
     _model([helper.make_node("MaxPool", ["x"], ["y"], name="pool1", kernel_shape=[2, 2])],
            [_x(elem=I64)], outputs=[helper.make_tensor_value_info("y", I64, None)]),
     r"^node 'pool1' \(MaxPool\): input 0 \(X\) is tensor\(int64\); the operator takes "
     r"tensor\(double\), tensor\(float\), tensor\(float16\), tensor\(int8\), tensor\(uint8\)$"),
    ("declared output type",
     _model([helper.make_node("Relu", ["x"], ["y"], name="r")], [_x()],
            outputs=[helper.make_tensor_value_info("y", TensorProto.FLOAT16, [1, 4, 6, 6])]),
     r"^graph output 'y' is declared float16, the graph computes float32$"),
]


@pytest.mark.parametrize("name,model,message", AUDIT, ids=[c[0] for c in AUDIT])
def test_what_onnx_checker_rejects(name, model, message):
    with pytest.raises((onnx.checker.ValidationError, onnx.shape_inference.InferenceError)):
        onnx.checker.check_model(model, full_check=True)
    with pytest.raises(ImportFailure, match=message):
        import_model(model)


def test_declared_output_shape_is_stated(verify):
    """A declared output shape the graph does not compute: onnxruntime
    warns and returns the computed shape; so does the importer, in a
    remark (the function's result type is the computed one)."""
    model = _model([helper.make_node("Relu", ["x"], ["y"], name="r")], [_x()],
                   outputs=[helper.make_tensor_value_info("y", F, [1, 4, 3, 3])])
    remarks = []
    text = import_model(model, remark=remarks.append)
    verify(text)
    assert remarks == ["graph output 'y' is declared of shape [1, 4, 3, 3], the graph computes "
                       "[1, 4, 6, 6]: the function returns the computed shape (onnxruntime's "
                       "lenient merge)"]
    assert "-> tensor<1x4x6x6xf32>" in text
    # A dynamic dimension declared is no mismatch.
    model.graph.output[0].type.tensor_type.shape.dim[2].dim_param = "H"
    model.graph.output[0].type.tensor_type.shape.dim[3].dim_value = 6
    remarks.clear()
    import_model(model, remark=remarks.append)
    assert remarks == []
