"""The operators PyTorch's exports need (ops_activation, ops_layout, 1-D
windows) on small hand-built models with non-trivial data, executed by
dla-run-onnx (nv_full fp16, one process for all cases) against numpy
written from the ONNX operator specs; the opset conversion
(dla/onnx/opsets.py) and the diagnostics of what stays out."""

import re

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import ImportFailure, import_model
from dla.onnx import opsets

from conftest import run_cases

RNG = np.random.default_rng(24)
F = TensorProto.FLOAT


def randn(*shape, scale=2.0):
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def make(nodes, x, outputs, inits=(), opset=13, x_type=F):
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", x_type, list(x.shape))],
                          [helper.make_tensor_value_info(o, F, None) for o in outputs],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


# -- numpy from the specs ---------------------------------------------------

def np_elu(x, a):
    return np.where(x > 0, x, a * (np.exp(x.astype(np.float64)) - 1))


def np_log_softmax(x, axes):
    x = x.astype(np.float64)
    m = x.max(axis=axes, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axes, keepdims=True))


def np_depth_to_space(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), h * b, w * b)


def np_space_to_depth(x, b):
    n, c, h, w = x.shape
    t = x.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(n, c * b * b, h // b, w // b)


def np_conv1d(x, w, bias, stride, pads, dilation):
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), tuple(pads)))
    k = w.shape[2]
    n_out = (xp.shape[2] - (k - 1) * dilation - 1) // stride + 1
    y = np.zeros((x.shape[0], w.shape[0], n_out))
    for o in range(n_out):
        taps = xp[:, :, o * stride:o * stride + (k - 1) * dilation + 1:dilation]
        y[:, :, o] = np.einsum("nck,ock->no", taps, w)
    return y + bias[None, :, None]


def np_instance_norm(x, s, b, eps):
    x = x.astype(np.float64)
    m = x.mean(axis=(2, 3), keepdims=True)
    v = ((x - m) ** 2).mean(axis=(2, 3), keepdims=True)
    return (x - m) / np.sqrt(v + eps) * s[None, :, None, None] + b[None, :, None, None]


def _cases():
    x4 = randn(2, 3, 5, 6)
    i64 = lambda v: np.asarray(v, np.int64)
    c = {}
    # Pad: constant (inputs, opset 11), reflect (opset 18 axes), edge
    # (attributes of Pad-2: the model is converted to opset 9), negative pads.
    c["pad_constant"] = (make([helper.make_node("Pad", ["x", "p", "v"], ["y"])], x4, ["y"],
                              [("p", i64([0, 0, 1, 2, 0, 0, 3, 0])), ("v", np.float32(1.5))], opset=11),
                         x4, [np.pad(x4, ((0, 0), (0, 0), (1, 3), (2, 0)), constant_values=1.5)])
    c["pad_reflect_axes"] = (make([helper.make_node("Pad", ["x", "p", "", "a"], ["y"], mode="reflect")], x4,
                                  ["y"], [("p", i64([2, 1, 3, 4])), ("a", i64([2, -1]))], opset=18),
                             x4, [np.pad(x4, ((0, 0), (0, 0), (2, 3), (1, 4)), mode="reflect")])
    c["pad_edge_opset2"] = (make([helper.make_node("Pad", ["x"], ["y"], mode="edge",
                                                   pads=[0, 1, 2, 0, 0, 2, 1, 3])], x4, ["y"], opset=2),
                            x4, [np.pad(x4, ((0, 0), (1, 2), (2, 1), (0, 3)), mode="edge")])
    x3 = randn(2, 4, 7)
    c["pad_negative"] = (make([helper.make_node("Pad", ["x", "p"], ["y"])], x3, ["y"],
                              [("p", i64([0, -1, 2, 0, 1, -3]))], opset=13),
                         x3, [np.pad(x3[:, 1:, :4], ((0, 0), (0, 1), (2, 0)))])
    # Pad of bool data (ONNX's Pad takes bool): the constant True, then Cast.
    xb = randn(1, 2, 3, 4) > 0
    c["pad_bool"] = (make([helper.make_node("Pad", ["x", "p", "v"], ["t"]),
                           helper.make_node("Cast", ["t"], ["y"], to=TensorProto.FLOAT)], xb, ["y"],
                          [("p", i64([0, 0, 1, 0, 0, 1, 0, 2])), ("v", np.bool_(True))], opset=13,
                          x_type=TensorProto.BOOL),
                     xb, [np.pad(xb, ((0, 0), (0, 1), (1, 0), (0, 2)), constant_values=True).astype(np.float32)])
    # Activations (Softplus over +-40: the stable form never overflows).
    xa = randn(2, 3, 4, 5, scale=3.0)
    xa[0, 0, 0, :3] = [40.0, -40.0, 0.0]
    c["elu"] = (make([helper.make_node("Elu", ["x"], ["y"], alpha=0.5)], xa, ["y"]), xa, [np_elu(xa, 0.5)])
    c["selu"] = (make([helper.make_node("Selu", ["x"], ["y"], alpha=1.5, gamma=2.0)], xa, ["y"]), xa,
                 [2.0 * np_elu(xa, 1.5)])
    c["softplus"] = (make([helper.make_node("Softplus", ["x"], ["y"])], xa, ["y"]), xa,
                     [np.logaddexp(0.0, xa.astype(np.float64))])
    c["softsign"] = (make([helper.make_node("Softsign", ["x"], ["y"])], xa, ["y"]), xa, [xa / (1 + np.abs(xa))])
    xl = randn(3, 4, 5)
    c["logsoftmax_opset11"] = (make([helper.make_node("LogSoftmax", ["x"], ["y"], axis=1)], xl, ["y"], opset=11),
                               xl, [np_log_softmax(xl, (1, 2))])
    c["logsoftmax_opset13"] = (make([helper.make_node("LogSoftmax", ["x"], ["y"], axis=1)], xl, ["y"]),
                               xl, [np_log_softmax(xl, (1,))])
    # Layout.
    xd = randn(2, 8, 3, 4)
    for mode in ("DCR", "CRD"):
        c["depth_to_space_" + mode] = (make([helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode=mode)],
                                            xd, ["y"]), xd, [np_depth_to_space(xd, 2, mode)])
    xs = randn(1, 3, 4, 6)
    c["space_to_depth"] = (make([helper.make_node("SpaceToDepth", ["x"], ["y"], blocksize=2)], xs, ["y"]), xs,
                           [np_space_to_depth(xs, 2)])
    c["split"] = (make([helper.make_node("Split", ["x", "s"], ["a", "b"], axis=1)], xd, ["a", "b"],
                       [("s", i64([3, 5]))]), xd, [xd[:, :3], xd[:, 3:]])
    c["tile"] = (make([helper.make_node("Tile", ["x", "r"], ["y"])], xl, ["y"], [("r", i64([2, 1, 3]))]),
                 xl, [np.tile(xl, (2, 1, 3))])
    # Variadic with broadcasting constants.
    b1, b2 = randn(1, 5), randn(4, 1, 1)
    for op, fn in (("Max", lambda a: np.maximum(np.maximum(a[0], a[1]), a[2])),
                   ("Min", lambda a: np.minimum(np.minimum(a[0], a[1]), a[2])),
                   ("Sum", lambda a: a[0] + a[1] + a[2]), ("Mean", lambda a: (a[0] + a[1] + a[2]) / 3)):
        xv = randn(4, 3, 5)
        c["variadic_" + op] = (make([helper.make_node(op, ["x", "b1", "b2"], ["y"])], xv, ["y"],
                                    [("b1", b1), ("b2", b2)]), xv, [fn([xv, b1, b2])])
    s, b = randn(3), randn(3)
    c["instance_norm"] = (make([helper.make_node("InstanceNormalization", ["x", "s", "b"], ["y"], epsilon=1e-3)],
                               x4, ["y"], [("s", s), ("b", b)]), x4, [np_instance_norm(x4, s, b, 1e-3)])
    # Gather with run-time indices (negative ones count from the end).
    table = randn(6, 4)
    idx = i64([[0, 5, -1], [2, -6, 3]])
    c["gather_axis0"] = (make([helper.make_node("Gather", ["t", "x"], ["y"])], idx, ["y"], [("t", table)],
                              x_type=TensorProto.INT64), idx, [np.take(table, idx, axis=0)])
    c["gather_axis1"] = (make([helper.make_node("Gather", ["t", "x"], ["y"], axis=1)], idx % 4, ["y"],
                              [("t", table)], x_type=TensorProto.INT64), idx % 4, [np.take(table, idx % 4, axis=1)])
    # 1-D windows as 2-D of height 1.
    xc = randn(2, 4, 11)
    w, bias = randn(3, 4, 3), randn(3)
    c["conv1d"] = (make([helper.make_node("Conv", ["x", "w", "b"], ["y"], strides=[2], pads=[1, 2], dilations=[2])],
                        xc, ["y"], [("w", w), ("b", bias)]), xc, [np_conv1d(xc, w, bias, 2, (1, 2), 2)])
    c["maxpool1d"] = (make([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3], strides=[2], pads=[1, 1])],
                           xc, ["y"]), xc,
                      [np.stack([np.pad(xc, ((0, 0), (0, 0), (1, 1)), constant_values=-np.inf)[:, :, i:i + 3].max(2)
                                 for i in range(0, 11, 2)], axis=2)])
    # PRelu-6's per-channel slope (PyTorch's export), converted to opset 9.
    slope = randn(3)
    c["prelu_opset6_channels"] = (make([helper.make_node("PRelu", ["x", "s"], ["y"])], x3[:, :3], ["y"],
                                       [("s", slope)], opset=6), x3[:, :3],
                                  [np.where(x3[:, :3] >= 0, x3[:, :3], x3[:, :3] * slope[None, :, None])])
    return c


CASES = _cases()


@pytest.fixture(scope="module")
def results(tmp_path_factory, tool_bin):
    """Every case run by one dla-run-onnx process (expected outputs from
    numpy); {case: its output lines}."""
    return run_cases(tmp_path_factory.mktemp("cases"), tool_bin, CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_numpy(results, name):
    got = results.get(name, [])
    checks = [l for l in got if re.search(r" output \d+: max abs error", l)]
    assert len(checks) == len(CASES[name][2]), "\n".join(got)
    assert all(l.endswith(": ok") for l in checks), "\n".join(got)


def test_opset_conversion_remarks():
    said = []
    m = CASES["pad_edge_opset2"][0]
    import_model(m, remark=said.append)
    assert said == ["opset 2 converted to opset 9 by onnx.version_converter"]
    said.clear()
    import_model(CASES["elu"][0], remark=said.append)
    assert said == []


def test_opset_native_when_the_converter_cannot(monkeypatch):
    # The converter failing, a model whose nodes have their opset-9
    # definitions imports natively (and says so); one that has an older
    # definition is refused with both reasons.
    monkeypatch.setattr(opsets, "_convert", lambda model, target: (None, "No Adapter"))
    said = []
    relu = make([helper.make_node("Relu", ["x"], ["y"])], randn(2), ["y"], opset=8)
    assert "tosa.clamp" in import_model(relu, remark=said.append)
    assert said == ["opset 8 imported natively (onnx.version_converter cannot convert it to opset 9: No Adapter)"]
    x = randn(1, 1, 2, 2)
    stats = [(n, np.ones((1,), np.float32)) for n in ("s", "b", "m", "v")]
    bn = make([helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn")], x, ["y"],
              stats, opset=8)
    with pytest.raises(ImportFailure, match=r"^opset 8: onnx.version_converter cannot convert the model to "
                                            r"opset 9 \(No Adapter\), and node 'bn' \(BatchNormalization\) "
                                            r"has the definition of opset 7, which the importer does not read "
                                            r"natively \(it reads opsets 9 to 21\)$"):
        import_model(bn)


def test_converter_failure_is_named():
    # MeanVarianceNormalization-1 has no adapter to opset 9.
    m = make([helper.make_node("MeanVarianceNormalization", ["x"], ["y"], name="mvn")], randn(1, 2, 3, 3), ["y"],
             opset=8)
    with pytest.raises(ImportFailure, match=r"^opset 8: onnx.version_converter cannot convert the model to "
                                            r"opset 9 \(No Adapter From Version \$8 for "
                                            r"MeanVarianceNormalization\), and node 'mvn'"):
        import_model(m)


@pytest.mark.parametrize("node, inits, message", [
    (helper.make_node("Pad", ["x", "p"], ["y"], mode="wrap", name="n"), [("p", np.zeros(8, np.int64))],
     r"mode wrap is not supported \(constant, reflect and edge are\)"),
    (helper.make_node("Pad", ["x", "p"], ["y"], mode="reflect", name="n"),
     [("p", np.array([0, 0, 3, 0, 0, 0, 0, 0], np.int64))], r"reflect pads 3, 0 reach beyond axis 2 of size 3"),
    (helper.make_node("Pad", ["x", "p"], ["y"], name="n"), [("p", np.zeros(8, np.bool_))],
     r"the pads must be integers, not bool"),
    (helper.make_node("Pad", ["x", "p"], ["y"], name="n"), [("p", np.zeros(6, np.int64))],
     r"6 pads for a rank-4 input \(2 per axis\)"),
    (helper.make_node("Split", ["x", "s"], ["a", "b"], axis=1, name="n"), [("s", np.array([1, 1], np.int64))],
     r"split sizes \[1, 1\] do not cut axis 1 of size 4 into 2 outputs"),
    (helper.make_node("Split", ["x", "s"], ["a", "b"], axis=1, name="n"), [("s", np.array([0, 4], np.int64))],
     r"empty parts \[0, 4\]: TOSA has no empty tensors"),
    (helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=3, name="n"), [],
     r"4 channels are not a multiple of blocksize\^2 = 9"),
    (helper.make_node("Tile", ["x", "r"], ["y"], name="n"), [("r", np.array([2, 2], np.int64))],
     r"repeats \[2, 2\] do not fit a rank-4 input"),
    (helper.make_node("LogSoftmax", ["x"], ["y"], axis=4, name="n"), [],
     r"axis 4 is outside the input's rank 4"),
    (helper.make_node("InstanceNormalization", ["x", "s", "s"], ["y"], name="n"), [("s", np.ones(3, np.float32))],
     r"scale \[3\] and bias \[3\] must have the 4 channels of the input"),
    (helper.make_node("BatchNormalization", ["x", "s", "s", "s", "v"], ["y"], name="n"),
     [("s", np.ones(4, np.float32)), ("v", np.ones(5, np.float32))],
     r"scale, B, mean and var of shapes \[\[4\], \[4\], \[4\], \[5\]\] for 4 channels"),
    (helper.make_node("Split", ["x", "s"], ["a", "b"], axis=1, name="n"), [("s", np.array([1.5, 2.5], np.float32))],
     r"split sizes must be integers, not float32"),
    (helper.make_node("Squeeze", ["x", "a"], ["y"], name="n"), [("a", np.array([0, 1], np.int64))],
     r"axes \[0, 1\]: dimensions of sizes \[1, 4\], not 1"),
    (helper.make_node("Reshape", ["x", "s"], ["y"], name="n"), [("s", np.array([4, 9, 1, 1, 0], np.int64))],
     r"target shape \[4, 9, 1, 1, 0\] copies \(0\) a dimension the rank-4 input does not have"),
    (helper.make_node("Slice", ["x", "s", "e", "a"], ["y"], name="n"),
     [("s", np.array([0], np.int64)), ("e", np.array([2], np.int64)), ("a", np.array([[1]], np.int64))],
     r"axes must be a 1-D tensor, not of shape \[1, 1\]"),
    (helper.make_node("Gemm", ["x", "w"], ["y"], name="n"), [("w", np.ones((3, 2), np.float32))],
     r"A and B must be matrices \(ranks \[4, 2\]\)"),
    (helper.make_node("MatMul", ["x", "w"], ["y"], name="n"), [("w", np.ones((5, 2), np.float32))],
     r"operands of shapes \[1, 4, 3, 3\] and \[5, 2\]: 3 columns against 5 rows"),
    (helper.make_node("MatMul", ["x", "w"], ["y"], name="n"), [("w", np.ones((2, 3, 3, 2), np.float32))],
     r"operands of shapes \[1, 4, 3, 3\] and \[2, 3, 3, 2\]: their batch axes do not broadcast"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="n"), [("w", np.ones((1, 4, 1, 1, 1), np.float32))],
     r"only 1-D, 2-D and 3-D convolutions are supported"),
])
def test_diagnostics_name_the_node(node, inits, message):
    m = make([node], randn(1, 4, 3, 3), list(node.output), inits)
    with pytest.raises(ImportFailure, match=r"^node 'n' \(%s\): %s$" % (node.op_type, message)):
        import_model(m)


def test_opset_out_of_range():
    m = CASES["elu"][0]
    m.opset_import[0].version = 99
    with pytest.raises(ImportFailure, match=r"^opset 99 is outside the supported 1 to %d$"
                       % opsets.newest_opset()):
        import_model(m)
    m.opset_import[0].version = 13


def test_1d_window_attributes_are_checked():
    m = make([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], name="n")], randn(1, 2, 6), ["y"])
    with pytest.raises(ImportFailure, match=r"^node 'n' \(MaxPool\): kernel_shape has 2 values for a 1-D window "
                                            r"\(1 expected\)$"):
        import_model(m)
    # An attribute the operator does not have is named (onnx.checker's rule).
    m = make([helper.make_node("Conv", ["x", "w"], ["y"], kernel_shape=[3], output_padding=1.5, name="n")],
             randn(1, 2, 6), ["y"], [("w", randn(1, 2, 3))])
    with pytest.raises(ImportFailure, match=r"^node 'n' \(Conv\): 'output_padding' is not an attribute of "
                                            r"Conv at opset \d+ \(it has auto_pad, "):
        import_model(m)


def test_variadic_of_constants_folds():
    a, b, c = randn(2, 3), randn(3), randn(1, 3)
    for op, expected in (("Max", np.maximum(np.maximum(a, b), c)), ("Min", np.minimum(np.minimum(a, b), c)),
                         ("Sum", a + b + c), ("Mean", (a + b + c) / 3)):
        m = make([helper.make_node(op, ["a", "b", "c"], ["k"]), helper.make_node("Add", ["x", "k"], ["y"])],
                 randn(2, 3), ["y"], [("a", a), ("b", b), ("c", c)])
        text = import_model(m)
        consts = re.findall(r"tosa.const\"\(\) \{values = dense<(\[\[.*?\]\])> : tensor<2x3xf32>", text)
        assert len(consts) == 1, text
        got = np.array(eval(consts[0]), np.float32)
        np.testing.assert_allclose(got, expected, rtol=1e-6)
