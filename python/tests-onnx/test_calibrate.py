"""Calibration: tables (JSON, TensorRT cache), dla-calibrate's scales on a
tiny Conv + Relu + Add model against a numpy model of it, the QDQ rewrite
of --calibration-table against numpy's int8 / int32 values, and the
errors."""

import json
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla import calibrate
from dla.cli import calibrate as calibrate_cli
from dla.cli import import_onnx as import_cli
from dla.onnx import ImportFailure, import_model
from dla.onnx.calibration_table import read_table, write_table
from dla.onnx.qdq import quantize_model

from calib_tiny import samples, tiny_model  # noqa: E402

TABLE = {"x": 0.02, "c": 0.05, "r": 0.04, "y": 0.08}


# -- tables ---------------------------------------------------------------

def test_json_round_trip(tmp_path):
    table = {"x": 0.0123, "conv/out:0": 1.5e-3, "zero": 0.0}
    write_table(str(tmp_path / "t.json"), table)
    data = json.load(open(tmp_path / "t.json"))
    assert data["x"] == {"scale": 0.0123, "min": 0, "max": 0, "offset": 0}
    assert read_table(str(tmp_path / "t.json")) == table


def test_trt_cache_hand_computed(tmp_path):
    # 3c010a14: sign 0, exponent 0x78 (2^-7), mantissa 0x010a14.
    (tmp_path / "c").write_text("TRT-7000-EntropyCalibration2\ninput: 3c010a14\n"
                                "conv1: 3f800000\nrelu:0: 3e000000\nzero: 00000000\n")
    t = read_table(str(tmp_path / "c"))
    assert t == {"input": (1 + 0x010a14 / 2 ** 23) * 2 ** -7, "conv1": 1.0, "relu:0": 0.125, "zero": 0.0}


def test_trt_cache_round_trip(tmp_path):
    table = {"a": 0.1, "b": 3.0e-5}
    write_table(str(tmp_path / "t.cache"), table, "TRT-7000-EntropyCalibration2")
    lines = (tmp_path / "t.cache").read_text().splitlines()
    assert lines[0] == "TRT-7000-EntropyCalibration2" and lines[1] == "a: 3dcccccd"
    assert read_table(str(tmp_path / "t.cache")) == {k: float(np.float32(v)) for k, v in table.items()}


@pytest.mark.parametrize("text,message", [
    ("TRT-7000-EntropyCalibration2\nx: 3c01zz14\n", "t:2: expected 'name: <8 hex digits>'"),
    ("TRT-7000-EntropyCalibration2\nx: bf800000\n", "'x' has scale -1.0"),
    ("x: 3c010a14\n", "starts with a line like TRT-7000-EntropyCalibration2"),
    ('{"x": {"min": 0}}', "tensor 'x' has no \"scale\""),
])
def test_bad_tables(tmp_path, text, message):
    (tmp_path / "t").write_text(text)
    with pytest.raises(ImportFailure, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_table(str(tmp_path / "t"))


# -- names ----------------------------------------------------------------

def test_missing_names():
    table = {k: v for k, v in TABLE.items() if k not in ("c", "y")}
    with pytest.raises(ImportFailure) as e:
        quantize_model(tiny_model(), table, "t.json")
    assert str(e.value) == "calibration table t.json: no scale for 2 tensors the quantization needs: c, y"


def test_extra_names():
    with pytest.raises(ImportFailure) as e:
        quantize_model(tiny_model(), dict(TABLE, zz=1.0, conv_out=2.0), "t.json")
    assert str(e.value) == "calibration table t.json: 2 names of no tensor of the model: conv_out, zz"


def test_cli_error_is_one_line(tmp_path, capsys):
    onnx.save(tiny_model(), str(tmp_path / "m.onnx"))
    (tmp_path / "t.cache").write_text("TRT-7000-EntropyCalibration2\nx: 3c010a14\n")
    assert import_cli.main([str(tmp_path / "m.onnx"), "--calibration-table", str(tmp_path / "t.cache")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no scale for 3 tensors the quantization needs: c, r, y" in err


# -- the QDQ rewrite --------------------------------------------------------

def _graph(m):
    return [(n.op_type, list(n.input), list(n.output)) for n in m.graph.node]


def test_qdq_layout():
    m = quantize_model(tiny_model(), TABLE)
    onnx.checker.check_model(m)
    nodes = _graph(m)
    q = [n for n in nodes if n[0] == "QuantizeLinear"]
    assert [n[1][0] for n in q] == ["x", "c", "r", "y_QuantizeLinear_Input"]
    conv = [n for n in nodes if n[0] == "Conv"][0]
    assert conv[1] == ["x_DequantizeLinear_Output", "w_DequantizeLinear_Output", "b_DequantizeLinear_Output"]
    # One pair for c, read by both Relu and Add.
    assert [n for n in nodes if n[0] == "Relu"][0][1] == ["c_DequantizeLinear_Output"]
    assert [n for n in nodes if n[0] == "Add"][0][1] == ["r_DequantizeLinear_Output", "c_DequantizeLinear_Output"]
    # The graph output keeps its name, on the last DequantizeLinear.
    assert nodes[-1] == ("DequantizeLinear", ["y_QuantizeLinear_Output", "y_scale", "y_zero_point"], ["y"])
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    assert inits["c_scale"] == np.float32(0.05) and inits["c_zero_point"].dtype == np.int8
    assert "w" not in inits and "b" not in inits


def test_qdq_weights_per_channel():
    model = tiny_model()
    w = numpy_helper.to_array(model.graph.initializer[0]).astype(np.float64)
    b = numpy_helper.to_array(model.graph.initializer[1]).astype(np.float64)
    m = quantize_model(model, TABLE)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    ws = np.abs(w).max(axis=(1, 2, 3)) / 127
    assert inits["w_quantized"].dtype == np.int8
    np.testing.assert_array_equal(inits["w_quantized"], np.round(w / ws[:, None, None, None]))
    np.testing.assert_allclose(inits["w_quantized_scale"], ws, rtol=1e-7)
    assert inits["b_quantized"].dtype == np.int32
    np.testing.assert_array_equal(inits["b_quantized"], np.round(b / (0.02 * ws)))
    np.testing.assert_allclose(inits["b_quantized_scale"], 0.02 * ws, rtol=1e-6)
    axes = {n.output[0]: [(a.name, a.i) for a in n.attribute] for n in m.graph.node}
    assert axes["w_DequantizeLinear_Output"] == [("axis", 0)]
    assert axes["b_DequantizeLinear_Output"] == [("axis", 0)]


def test_qdq_weights_per_tensor():
    model = tiny_model()
    w = numpy_helper.to_array(model.graph.initializer[0]).astype(np.float64)
    m = quantize_model(model, TABLE, per_channel=False)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    ws = np.abs(w).max() / 127
    assert inits["w_quantized_scale"].shape == ()
    np.testing.assert_array_equal(inits["w_quantized"], np.round(w / ws))
    assert all(not n.attribute for n in m.graph.node if n.op_type == "DequantizeLinear")


def test_qdq_near_zero_channel_floor():
    """A channel of near-zero weights beside a bias (PP-OCRv4's recognizer
    has them): max|w| / 127 would make its bias overflow int32 and its
    factor x_scale * w_scale / y_scale fall below 2^-32, which no rescale
    represents (the fused convolution was refused, left in float). Its
    scale rises to the least that fits both; the other channels keep
    max|w| / 127, and the convolution fuses into the integer form."""
    model = tiny_model()
    w = numpy_helper.to_array(model.graph.initializer[0]).copy()
    w[1] = w[1] * np.float32(1e-15)
    model.graph.initializer[0].CopyFrom(numpy_helper.from_array(w, "w"))
    b = numpy_helper.to_array(model.graph.initializer[1]).astype(np.float64)
    m = quantize_model(model, TABLE)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    ws = np.abs(w.astype(np.float64)).max(axis=(1, 2, 3)) / 127
    # Channel 1: the bias within int32 needs |b| / (0.02 * (2^31 - 1)) =
    # 1.16e-8 (with 1.0001 of margin), the factor 2^-31 * 0.05 / 0.02 =
    # 1.16e-9; the bias's is the larger. Below that floor, the channel's
    # weights count for nothing beside its bias: its scale becomes
    # |b| / (0.02 * 2^20) (the bias 2^20, which nv_small's SDP scales
    # without leaving 32 bits) and its weights 0.
    floor = abs(b[1]) * 1.0001 / (0.02 * (2 ** 31 - 1))
    assert ws[1] < floor
    dead = abs(b[1]) / (0.02 * 2 ** 20)
    np.testing.assert_allclose(inits["w_quantized_scale"], [ws[0], dead, ws[2]], rtol=1e-6)
    np.testing.assert_array_equal(inits["w_quantized"][1], 0)
    np.testing.assert_array_equal(inits["w_quantized"][[0, 2]],
                                  np.round(w[[0, 2]] / ws[[0, 2], None, None, None]))
    bq = inits["b_quantized"].astype(np.int64)
    assert abs(abs(bq[1]) - 2 ** 20) <= 1
    text = import_model(m)
    assert "tosa.conv2d" in text and "xf32>, tensor<3x3x3x2xf32>" not in text
    assert len([l for l in text.splitlines() if "tosa.conv2d" in l and "xi8>" in l]) == 1


def test_qdq_float_hardswish_quantized_gate():
    """Between two convolutions, a decomposed hardswish (x + 3, Clip 0..6,
    x * that, / 6), a learnable affine (* a, + b) and a squeeze-excite
    (GlobalAveragePool, Conv, HardSigmoid, x * gate). Quantized: what the
    integer form computes (the convolutions, the pool, the Relu after a
    convolution) and the gate with its Mul; the hardswish and the affine
    stay float, their constants too (a requantization at each of their
    steps cost PP-OCRv4's recognizer 5 points of its steps; without the
    gate's the classifier's cosine fell below 0.99 on some lines)."""
    w = np.ones((2, 2, 1, 1), np.float32)
    c = lambda name, v: numpy_helper.from_array(np.array(v, np.float32), name)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c1"]),
             helper.make_node("Add", ["c1", "three"], ["p3"]),
             helper.make_node("Clip", ["p3", "zero", "six"], ["r6"]),
             helper.make_node("Mul", ["c1", "r6"], ["m"]),
             helper.make_node("Div", ["m", "six"], ["hs"]),
             helper.make_node("Mul", ["hs", "a"], ["ha"]),
             helper.make_node("Add", ["ha", "b"], ["aff"]),
             helper.make_node("GlobalAveragePool", ["aff"], ["g"]),
             helper.make_node("Conv", ["g", "w"], ["gc"]),
             helper.make_node("HardSigmoid", ["gc"], ["gate"]),
             helper.make_node("Mul", ["aff", "gate"], ["se"]),
             helper.make_node("Conv", ["se", "w"], ["c2"]),
             helper.make_node("Relu", ["c2"], ["y"])]
    g = helper.make_graph(nodes, "hs", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [numpy_helper.from_array(w, "w"), c("three", 3), c("zero", 0), c("six", 6),
                           c("a", [[[0.5]], [[0.25]]]), c("b", 0.25)])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    names = ("x", "c1", "p3", "r6", "m", "hs", "ha", "aff", "g", "gc", "gate", "se", "c2", "y")
    m = quantize_model(model, {n: 0.05 for n in names})
    q = [n.input[0] for n in m.graph.node if n.op_type == "QuantizeLinear"]
    # c2 is read by its Relu alone: quantized after it (the layer's own SDP
    # ReLU), not between them.
    assert q == ["x", "c1", "aff", "g", "gc", "gate", "se", "y_QuantizeLinear_Input"]
    ops = {n.op_type + ":" + n.output[0]: list(n.input) for n in m.graph.node}
    assert ops["Add:p3"] == ["c1_DequantizeLinear_Output", "three"]
    assert ops["Clip:r6"] == ["p3", "zero", "six"]
    assert ops["Mul:ha"] == ["hs", "a"] and ops["Add:aff"] == ["ha", "b"]
    assert ops["Mul:se"] == ["aff_DequantizeLinear_Output", "gate_DequantizeLinear_Output"]


def test_qdq_gate_at_zero_point_zero():
    """An asymmetric table's gate (a HardSigmoid read by a Mul: [0, top]
    at zero point -128) is quantized at zero point 0 over the same top,
    127 levels (the SDP reads its memory operand without an offset); other
    tensors keep the table's offset."""
    nodes = [helper.make_node("GlobalAveragePool", ["x"], ["g"]),
             helper.make_node("HardSigmoid", ["g"], ["gate"]),
             helper.make_node("Mul", ["x", "gate"], ["y"])]
    g = helper.make_graph(nodes, "se", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 3, 3])])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    table = {"x": 0.02, "g": 0.01, "gate": 0.003, "y": 0.02}
    m = quantize_model(model, table, zero_points={"x": 5, "g": -3, "gate": -128, "y": 7})
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    assert int(inits["gate_zero_point"]) == 0
    assert inits["gate_scale"] == np.float32(0.003 * 255 / 127)
    assert [int(inits[n + "_zero_point"]) for n in ("x", "g", "y")] == [5, -3, 7]


def test_qdq_gemm_axis():
    """Gemm's output channels: axis 0 of B with transB, else axis 1."""
    b = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    for trans, axis in ((1, 0), (0, 1)):
        g = helper.make_graph([helper.make_node("Gemm", ["x", "B"], ["y"], transB=trans)], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3 if not trans else 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                              [numpy_helper.from_array(b, "B")])
        m = quantize_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), {"x": 1.0, "y": 1.0})
        s = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}["B_quantized_scale"]
        np.testing.assert_allclose(s, np.abs(b).max(axis=1 - axis) / 127, rtol=1e-7)

def test_qdq_of_an_opset_11_model():
    # The quantizer writes opset 13's per-axis DequantizeLinear into a
    # model of any opset; DequantizeLinear 10 has no axis, so the importer
    # checks the quantizer's nodes (their doc string) as opset 13's.
    model = tiny_model()
    model.opset_import[0].version = 11
    m = quantize_model(model, TABLE)
    axes = [n for n in m.graph.node if n.op_type == "DequantizeLinear" and n.attribute]
    assert axes and all(n.doc_string for n in axes)
    assert "tosa.conv2d" in import_model(m)
    # The same node written by someone else is the opset's to judge.
    axes[0].doc_string = ""
    with pytest.raises(ImportFailure, match=r"^node 'w_DequantizeLinear' \(DequantizeLinear\): 'axis' "
                       r"is not an attribute of DequantizeLinear at opset 11 \(it has none\)$"):
        import_model(m)


def test_save_qdq_raises_an_opset_11_resize(tmp_path):
    # --save-qdq raises the model to opset 13 for onnxruntime; Resize 11's
    # inputs and attributes are Resize 13's (13 made roi, scales optional).
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], "conv", pads=[1, 1, 1, 1]),
             helper.make_node("Resize", ["c", "roi", "scales"], ["y"], "resize", mode="linear",
                              coordinate_transformation_mode="pytorch_half_pixel")]
    rng = np.random.default_rng(3)
    inits = [numpy_helper.from_array(rng.standard_normal((3, 2, 3, 3)).astype(np.float32), "w"),
             numpy_helper.from_array(np.zeros(3, np.float32), "b"),
             numpy_helper.from_array(np.zeros(0, np.float32), "roi"),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])], inits)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)]), str(tmp_path / "m.onnx"))
    write_table(str(tmp_path / "t.json"), {"x": 0.02, "c": 0.05, "y": 0.05})
    assert import_cli.main([str(tmp_path / "m.onnx"), "--calibration-table", str(tmp_path / "t.json"),
                            "--save-qdq", str(tmp_path / "q.onnx"), "-o", str(tmp_path / "m.mlir")]) == 0
    saved = onnx.load(str(tmp_path / "q.onnx"))
    onnx.checker.check_model(saved, full_check=True)
    assert saved.opset_import[0].version == 13
    assert [n.op_type for n in saved.graph.node].count("Resize") == 1


def test_qdq_concat_part_after_a_batch_norm():
    # Conv -> BatchNormalization -> Relu read by a Concat alone (an export
    # that keeps its batch-norms): the Relu's output is quantized as the
    # Concat's part (at its own table scale), so the batch-norm and Relu
    # are an affine step between quantize steps, not float at the join; a
    # resized part is quantized at the Resize's input (the Resize keeps it).
    rng = np.random.default_rng(5)
    w = lambda name, co, ci: numpy_helper.from_array(
        rng.standard_normal((co, ci, 3, 3)).astype(np.float32) * 0.3, name)
    one = lambda name, v: numpy_helper.from_array(np.full(4, v, np.float32), name)
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], "conv1", pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c1", "g", "be", "mu", "var"], ["n1"], "bn1"),
             helper.make_node("Relu", ["n1"], ["r1"], "relu1"),
             helper.make_node("MaxPool", ["x"], ["p"], "pool", kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("Conv", ["p", "w2"], ["c2"], "conv2", pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c2", "g", "be", "mu", "var"], ["n2"], "bn2"),
             helper.make_node("Relu", ["n2"], ["r2"], "relu2"),
             helper.make_node("Resize", ["r2", "", "scales"], ["u2"], "resize", mode="nearest"),
             helper.make_node("Concat", ["r1", "u2"], ["cat"], "concat", axis=1),
             helper.make_node("Conv", ["cat", "w3"], ["y"], "conv3", pads=[1, 1, 1, 1])]
    inits = [w("w1", 4, 2), w("w2", 4, 2), w("w3", 3, 8), one("g", 1.5), one("be", 0.1),
             one("mu", 0.2), one("var", 2.0),
             numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 4, 4])], inits)
    table = {n: 0.05 for n in ["x", "c1", "n1", "r1", "p", "c2", "n2", "cat", "y"]}
    table.update(r2=0.04, u2=0.07)
    m = quantize_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), table)
    q = {n.input[0]: n for n in m.graph.node if n.op_type == "QuantizeLinear"}
    assert {"r1", "r2", "cat"} <= set(q) and not {"n1", "n2"} & set(q)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    scale = lambda name: float(inits[q[name].input[1]])
    assert scale("r2") == np.float32(0.04) and scale("u2") == np.float32(0.04)


# -- dla-calibrate ------------------------------------------------------------

@pytest.fixture(scope="session")
def tools(dla_opt):
    """dla-opt, which the calibration's compile runs (dla.tools finds it)."""
    return dla_opt


def np_conv_pad1(x, w, b):
    """NCHW 3x3 convolution, padding 1, stride 1, in float64."""
    n, c, h, wd = x.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return out + b[None, :, None, None]


def reference(xs):
    m = tiny_model()
    w, b = (numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer)
    acts = {"x": [], "c": [], "r": [], "y": []}
    for x in xs:
        c = np_conv_pad1(x, w, b)
        r = np.maximum(c, 0)
        for k, v in zip(acts, (x, c, r, r + c)):
            acts[k].append(np.abs(v).ravel())
    return {k: np.concatenate(v) for k, v in acts.items()}


@pytest.fixture(scope="session")
def collected(tmp_path_factory, tools):
    d = tmp_path_factory.mktemp("calib-data")
    xs = samples(5)
    for i, x in enumerate(xs):
        np.save(d / ("x_%d.npy" % i), x)
    model = tmp_path_factory.mktemp("calib-model") / "m.onnx"
    onnx.save(tiny_model(), str(model))
    stats, n, _ = calibrate.collect(str(model), str(d), {}, [0.5] * 3, [0.5] * 3, quiet=True)
    assert n == 5
    return stats, reference(xs)


def test_calibrate_max(collected):
    stats, ref = collected
    assert list(stats) == ["x", "c", "r", "y"]
    for k, a in ref.items():
        np.testing.assert_allclose(stats[k].scale("max"), a.max() / 127, rtol=1e-6)


@pytest.mark.parametrize("p", [90.0, 99.0])
def test_calibrate_percentile(collected, p):
    stats, ref = collected
    for k, a in ref.items():
        want = np.percentile(a, p, method="inverted_cdf") / 127
        got = stats[k].scale("percentile", p)
        # The upper edge of want's bin: at most one bin (range / 4096, range < 2 max) above.
        assert want * (1 - 1e-6) <= got <= want + 2 * a.max() / 4096 / 127, (k, got, want)
        assert got < a.max() / 127


def test_entropy_clips_outliers():
    h = calibrate.Histogram()
    rng = np.random.default_rng(3)
    for _ in range(4):
        h.add(rng.standard_normal(100000))
    h.add(np.array([60.0]))
    s = h.scale("entropy") * 127
    assert 2.5 < s < 20, s
    assert h.scale("max") * 127 == 60.0


def _kl_by_bins(bins, i, levels=128):
    """KL(P||Q) at threshold i as TensorRT's entropy calibration states it,
    bin by bin (None where Q is empty)."""
    total = bins.sum()
    p = bins[:i].copy()
    p[-1] += bins[i:].sum()
    level = (np.arange(i) * levels) // i
    nonzero = bins[:i] != 0
    sums = np.bincount(level, weights=bins[:i], minlength=levels)
    counts = np.bincount(level[nonzero], minlength=levels)
    q = np.where(nonzero, sums[level] / np.maximum(counts[level], 1), 0.0)
    if q.sum() == 0:
        return None
    p, q = p / total, q / q.sum()
    mask = p > 0
    if np.any(q[mask] == 0):
        return np.inf
    return float(np.sum(p[mask] * np.log(p[mask] / q[mask])))


@pytest.mark.parametrize("seed", range(6))
def test_entropy_divergence_per_level_equals_per_bin(seed):
    # Histograms with empty runs, an empty bin under the outliers, a long tail.
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 900))
    bins = np.floor(rng.exponential(50.0, n) * (rng.random(n) < 0.7)).astype(np.float64)
    bins[int(rng.integers(0, n // 2)):][:int(rng.integers(0, 40))] = 0
    bins[-1] = 3
    cands = np.arange(128, n + 1)
    got = calibrate.Histogram._kl(bins, bins.sum(), cands, 128)
    for i, g in zip(cands, got):
        want = _kl_by_bins(bins, i)
        if want is None:
            assert np.isnan(g), i
        elif np.isinf(want):
            assert np.isinf(g), i
        else:
            assert abs(g - want) <= 1e-9 * max(1.0, abs(want)), (i, g, want)
    assert np.isinf(got).any() and np.isfinite(got).any()


def test_entropy_small_tensors_keep_max():
    h = calibrate.Histogram()
    rng = np.random.default_rng(4)
    for _ in range(8):
        h.add(np.append(rng.standard_normal(1000), 60.0))
    assert h.scale("entropy") * 127 == 60.0
    h.add(rng.standard_normal(20000))  # now 2000+ values per sample on average
    assert h.scale("entropy") * 127 < 30


def _softmax_stats(logits, method="max"):
    """{logits, probabilities} Histograms of rows of logits (numpy's softmax
    over the last axis), the first a Softmax's input (collect's links)."""
    x, p = calibrate.Histogram(), calibrate.Histogram()
    for row in (logits[i:i + 1] for i in range(len(logits))):  # one sample each
        e = np.exp(row - row.max(-1, keepdims=True))
        x.add(row)
        x.add_rows(row, (row.ndim - 1,))
        p.add(e / e.sum(-1, keepdims=True))
    x.softmax_output = "p"
    return {"x": x, "p": p}


def test_softmax_input_floor_by_hand():
    """A Softmax's input keeps levels only down to the least row maximum
    less ln(2 n / s), s the output's step, n a row's length: below it the
    row's probabilities add up to under half a step. By hand: rows of 4
    with maxima 4 and 10, the output's range [0, max p] at 255 levels."""
    logits = np.array([[[4.0, 3.0, -30.0, 0.5], [10.0, -20.0, 9.0, 2.0]]])
    stats = _softmax_stats(logits)
    assert stats["x"].row_max_min == 4.0
    e = np.exp(logits - logits.max(-1, keepdims=True))
    s = float((e / e.sum(-1, keepdims=True)).max()) / 255.0
    floor = 4.0 + np.log(s / 8.0)
    # max p = 1 / (1 + e^-1 + e^-8 + e^-30) = 0.73087: s = 0.0028662,
    # ln(s / 8) = -7.9342.
    assert floor == pytest.approx(-3.9342, abs=1e-4)
    table, ranges = calibrate.make_table(stats, "max", asymmetric=True)
    assert ranges["x"] == (pytest.approx(floor), 10.0)
    assert table["x"] == pytest.approx((10.0 - floor) / 255.0)
    # Per channel (the last axis of tokens), the channels' lows clip too:
    # the tensor's scale is the largest channel's, not the -30 one's.
    table_c, _ = calibrate.make_table(stats, "max", asymmetric=True, per_channel=True)
    zp = table_c.zero_points["x"]
    assert max(table_c.channel_scales["x"]) == pytest.approx(
        max(10.0 / (127 - zp), -floor / (128 + zp)))
    # Symmetric tables and tensors that no Softmax reads keep their range.
    assert calibrate.make_table(stats, "max")[0]["x"] == pytest.approx(30.0 / 127)
    stats["x"].softmax_output = None
    assert calibrate.make_table(stats, "max", asymmetric=True)[1]["x"] == (-30.0, 10.0)


def test_softmax_floor_inside_range_only():
    """A floor below the tensor's low end leaves the range as it was."""
    stats = _softmax_stats(np.array([[[4.0, 3.0, 2.5, 1.0]]]))
    assert calibrate.make_table(stats, "max", asymmetric=True)[1]["x"] == (0.0, 4.0)
    # A floor above 0 (40 - ln(2 * 4 * 255) = 32.4) clips at 0: the range
    # holds real 0 (asymmetric_params).
    stats = _softmax_stats(np.array([[[40.0, 3.0, -2.5, 1.0]]]))
    assert calibrate.make_table(stats, "max", asymmetric=True)[1]["x"] == (0.0, 40.0)


@pytest.mark.parametrize("opset,axis,rank,axes", [(13, None, 3, (2,)), (13, 1, 3, (1,)),
                                                   (11, None, 3, (1, 2)), (11, 2, 4, (2, 3))])
def test_softmax_rows_axes(opset, axis, rank, axes):
    """Rows as ONNX defines them: from opset 13 the axis (default -1);
    before, the input coerced to 2-D at the axis (default 1)."""
    kw = {} if axis is None else {"axis": axis}
    node = helper.make_node("Softmax", ["x"], ["y"], **kw)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, None)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    rows = calibrate.softmax_rows(m)
    assert rows["x"][0](rank) == axes and rows["x"][1] == "y"


def test_histogram_range_doubling():
    """Merging bin pairs when the range grows keeps every count."""
    h = calibrate.Histogram()
    h.add(np.linspace(0, 1, 1000))
    h.add(np.array([3.5, -7.9]))
    assert h.range == 8.0 and h.hist.sum() == 1002 and h.amax == pytest.approx(7.9)
    assert h.hist[:NB2(h, 1.0)].sum() >= 999


@pytest.mark.parametrize("seed", range(4))
def test_histogram_bins_as_numpy_bins_them(seed):
    """hist: numpy's histogram of |x| on [0, range); neg: of the negatives'
    |x| (values on bin edges, the range's end, signed zeros, denormals)."""
    rng = np.random.default_rng(seed)
    h = calibrate.Histogram()
    xs = [rng.standard_normal(5000).astype(np.float32) * np.float32(s) for s in (3, 1, 2)]
    top = np.float32(np.abs(xs[0]).max())
    for x in xs:
        x[:64] = top * np.arange(-32, 32, dtype=np.float32) / np.float32(32)
        x[64:69] = [0.0, -0.0, -top, 1e-40, -1e-40]
        h.add(x)
    assert h.range == float(top)  # one range: the sums compare directly
    want = sum(np.histogram(np.abs(x), bins=calibrate.NBINS, range=(0.0, h.range))[0] for x in xs)
    want_neg = sum(np.histogram(np.abs(x[x < 0]), bins=calibrate.NBINS, range=(0.0, h.range))[0]
                   for x in xs)
    assert (h.hist == want).all() and (h.neg == want_neg).all()
    assert h.hist.sum() == 15000 and h.neg.sum() == sum(int(np.sum(x < 0)) for x in xs)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_histogram_bins_as_numpy_at_every_edge(dtype):
    """histogram_bins against np.histogram on every bin edge and its two
    neighbours, the range's ends, values past it and NaN."""
    rng = np.random.default_rng(7)
    for top in (float(dtype(3.1)), 1.0, float(dtype(1e-3)), float(dtype(7.7e4))):
        edges = np.linspace(0.0, top, calibrate.NBINS + 1, dtype=dtype)
        a = np.concatenate([edges, np.nextafter(edges, dtype(np.inf)),
                            np.nextafter(edges, dtype(-np.inf)),
                            np.abs(rng.standard_normal(3000)).astype(dtype) * dtype(top / 2),
                            np.array([top * 2, np.nan, np.inf, 0.0], dtype)]).astype(dtype)
        a = a[~(a < 0)]  # |x| only: nextafter(0, -inf) < 0
        bins, keep = calibrate.histogram_bins(a, top)
        want = np.histogram(a, bins=calibrate.NBINS, range=(0.0, top))[0]
        assert (np.bincount(bins, minlength=calibrate.NBINS) == want).all()
        assert int(keep.sum()) == int(want.sum()) == len(bins)


def _fields(h):
    return (h.amax, h.range, h.count, h.min, h.max, h.samples, h.hist.tolist(), h.neg.tolist(),
            None if h.channel_min is None else (h.channel_min.dtype, h.channel_min.tolist(),
                                                h.channel_max.tolist()))


@pytest.mark.parametrize("seed", range(3))
def test_histogram_float16_as_numpy_bins_its_values(seed):
    """A float16 activation (binned from the counts of its bit patterns):
    numpy's histogram of its values' |x| and of the negatives', the
    extremes, and every field as the same values in float32 get them,
    across samples that double the range (bin edges, signed zeros,
    subnormals, the largest float16)."""
    rng = np.random.default_rng(seed)
    xs = []
    for s in (2, 1, 9):
        x = (rng.standard_normal((2, 3, 7, 11)) * s).astype(np.float16)
        flat = x.reshape(-1)
        top = np.abs(flat).max().astype(np.float32)
        edges = np.linspace(0, top, calibrate.NBINS + 1, dtype=np.float32)[::97]
        flat[:len(edges)] = edges.astype(np.float16)
        flat[40:48] = np.array([0.0, -0.0, 6e-8, -6e-8, 6.1e-5, -3e-6, 0.5, -0.5], np.float16)
        xs.append(x)
    xs.append(np.array([[-65504.0, 1.0]], np.float16))  # rank 2: no channels
    h16, h32 = calibrate.Histogram(), calibrate.Histogram()
    for x in xs:
        h16.add(x)
        h32.add(x.astype(np.float32))
    assert _fields(h16) == _fields(h32) and h16.range >= 65504.0 and h16.count == 3 * 462 + 2
    # One sample against numpy.
    one = calibrate.Histogram()
    one.add(xs[0])
    v = xs[0].astype(np.float32)
    want = np.histogram(np.abs(v), calibrate.NBINS, (0.0, one.range))[0]
    want_neg = np.histogram(np.abs(v[v < 0]), calibrate.NBINS, (0.0, one.range))[0]
    assert (one.hist == want).all() and (one.neg == want_neg).all()
    assert one.min == float(xs[0].min()) and one.max == float(xs[0].max())
    assert one.amax == float(np.abs(xs[0]).max()) == one.range
    assert one.channel_min.tolist() == np.minimum(xs[0].min(axis=(0, 2, 3)), 0).tolist()


def test_histogram_float16_with_nan_as_float32():
    """NaN in a float16 activation: the general path, which drops it from
    the bins as for float32."""
    x = np.array([[1.0, np.nan, -2.0, 0.25]], np.float16)
    h16, h32 = calibrate.Histogram(), calibrate.Histogram()
    h16.add(x)
    h32.add(x.astype(np.float32))
    assert repr(_fields(h16)) == repr(_fields(h32))


def NB2(h, x):
    return int(np.ceil(x / h.range * len(h.hist))) + 1


def _cal(argv, tools, capsys):
    status = calibrate_cli.main(argv)
    return status, capsys.readouterr().err


def test_calibrate_errors(tmp_path, capsys):
    onnx.save(tiny_model(), str(tmp_path / "m.onnx"))
    m, out = str(tmp_path / "m.onnx"), str(tmp_path / "t.json")
    os.makedirs(tmp_path / "empty")
    status, err = _cal([m, "--data", str(tmp_path / "empty"), "-o", out], "/nonexistent", capsys)
    assert status == 1 and err == "dla-calibrate: error: %s: no samples (.npy or .png .jpg .jpeg .bmp files)\n" \
        % (tmp_path / "empty")
    os.makedirs(tmp_path / "bad")
    np.save(tmp_path / "bad" / "a.npy", np.zeros((1, 2, 5, 5), np.float32))
    status, err = _cal([m, "--data", str(tmp_path / "bad"), "-o", out], "/nonexistent", capsys)
    assert status == 1 and err == ("dla-calibrate: error: %s: shape 1x2x5x5 does not match the model "
                                   "input's 1x2x6x6\n" % (tmp_path / "bad" / "a.npy"))
    os.makedirs(tmp_path / "img")
    (tmp_path / "img" / "a.png").write_bytes(b"not a png")
    status, err = _cal([m, "--data", str(tmp_path / "img"), "-o", out], "/nonexistent", capsys)
    assert status == 1 and err == ("dla-calibrate: error: %s: images need an input N x 3 x H x W, the "
                                   "model's is 1x2x6x6\n" % (tmp_path / "img" / "a.png"))
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), m)
    status, err = _cal([m, "--data", str(tmp_path / "img"), "-o", out], "/nonexistent", capsys)
    assert status == 1 and err.count("\n") == 1 and \
        err.startswith("dla-calibrate: error: %s: cannot read the image: " % (tmp_path / "img" / "a.png"))
    assert not os.path.exists(out)


def test_calibrate_image_preprocessing(tmp_path, tools):
    """An image is resized to the input's W x H and mapped to (x/255 - 0.5)/0.5."""
    from PIL import Image
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(tmp_path / "m.onnx"))
    os.makedirs(tmp_path / "img")
    # A 12 x 8 image of one colour: resizing keeps it, so the input is exact.
    Image.new("RGB", (12, 8), (255, 51, 0)).save(tmp_path / "img" / "a.png")
    stats, n, _ = calibrate.collect(str(tmp_path / "m.onnx"), str(tmp_path / "img"), {}, [0.5] * 3,
                                    [0.5] * 3, quiet=True)
    assert n == 1 and stats["x"].amax == 1.0 and stats["y"].amax == pytest.approx(1.0)
    # Channel means: R 1, G 0.2 * 2 - 1 = -0.6, B -1: |x| counts 24 each.
    assert stats["x"].hist.sum() == 72
    assert stats["x"].percentile(50) == pytest.approx(1.0)


# -- utils/textlines.py ---------------------------------------------------------

def test_textlines_deterministic():
    pytest.importorskip("PIL")
    import textlines
    x, labels, texts = textlines.batch(range(6), 48, 320)
    assert x.shape == (6, 3, 48, 320) and x.dtype == np.float32
    assert -1 <= x.min() and x.max() <= 1 and list(labels) == [0, 1, 0, 1, 0, 1]
    again, _, texts2 = textlines.batch([3], 48, 320)
    np.testing.assert_array_equal(again[0], x[3])
    assert texts2[0] == texts[3] and len(set(texts)) == 6
    # An odd seed's line is its upright rendering turned by 180 degrees.
    img, text, flipped = textlines.render(1)
    upright, text2, _ = textlines.render(1, flip=False)
    assert flipped and text == text2 and img.size == upright.size and img.size[1] > 10
    np.testing.assert_array_equal(np.asarray(img), np.asarray(upright.rotate(180)))
    assert not np.array_equal(np.asarray(img), np.asarray(upright))


# -- the calibration's speed path: the same tables --------------------------

CLS_MODEL = os.path.join(os.path.dirname(__file__), "..", "..", "build", "models",
                         "ch_ppocr_mobile_v2.0_cls_infer.onnx")


def _both_paths(model, data, shapes):
    """The histograms of the float run with host convolutions as vector
    loops (dla-calibrate's) and as the scalar loops before (the baseline)."""
    return [calibrate.collect(model, data, shapes, [0.5] * 3, [0.5] * 3, quiet=True,
                              vector_host_convolutions=v)[0] for v in (True, False)]


def _assert_same_tables(fast, slow):
    assert list(fast) == list(slow)
    for name in fast:
        a, b = fast[name], slow[name]
        assert (a.amax, a.min, a.max, a.range) == (b.amax, b.min, b.max, b.range), name
        assert np.array_equal(a.hist, b.hist) and np.array_equal(a.neg, b.neg), name
    for method in ("max", "percentile", "entropy"):
        for asym in (False, True):
            t_fast, r_fast = calibrate.make_table(fast, method, asymmetric=asym, per_channel=True)
            t_slow, r_slow = calibrate.make_table(slow, method, asymmetric=asym, per_channel=True)
            assert dict(t_fast) == dict(t_slow) and r_fast == r_slow, (method, asym)
            assert t_fast.channel_scales == t_slow.channel_scales
            assert t_fast.zero_points == t_slow.zero_points


@pytest.mark.parametrize("fp16", ["none", "weights", "all"])
def test_vector_host_convolutions_keep_the_tables(tmp_path, tools, fp16):
    """A U-Net-like network (3x3, depthwise and 1x1 convolutions, pools,
    upsampling, skips): every activation's histogram, hence every table,
    bit for bit those of the scalar loops (the same sums in the same
    order); and the activations are those of a float run (the head's
    sigmoid within [0, 1], every Relu's minimum 0)."""
    import seg_net
    seg_net.write(str(tmp_path), size=24, n=3, fp16=fp16)
    fast, slow = _both_paths(str(tmp_path / "model.onnx"), str(tmp_path / "data"), {})
    assert len(fast) > 15
    _assert_same_tables(fast, slow)
    assert 0 < fast["prob"].max <= 1 and fast["enc1a_relu"].min == 0


@pytest.mark.skipif(not os.path.exists(CLS_MODEL),
                    reason="PaddleOCR's classifier is missing (scripts/fetch-models.sh build/models)")
def test_vector_host_convolutions_keep_the_classifier_tables(tmp_path, tools):
    """PaddleOCR's direction classifier on 4 rendered lines: the same
    histograms and tables either way."""
    import textlines
    for seed in range(4):
        img, _, _ = textlines.render(seed)
        np.save(tmp_path / ("line_%d.npy" % seed), textlines.as_input(img, 48, 192)[None])
    fast, slow = _both_paths(CLS_MODEL, str(tmp_path), {"x": [1, 3, 48, 192]})
    assert len(fast) > 100
    _assert_same_tables(fast, slow)


def test_jobs_keep_the_tables(tmp_path, tools):
    """Samples run in threads, histogrammed in sample order: the same
    histograms for one job, two, and more jobs than samples; and those of
    running each sample alone through the compiled network."""
    import seg_net
    seg_net.write(str(tmp_path), size=24, n=5, fp16="all")
    model, data = str(tmp_path / "model.onnx"), str(tmp_path / "data")
    runs = [calibrate.collect(model, data, {}, [0.5] * 3, [0.5] * 3, quiet=True, jobs=j)[0]
            for j in (1, 2, 8)]
    for other in runs[1:]:
        assert [_fields(h) for h in other.values()] == [_fields(h) for h in runs[0].values()]
    for j in (0, -1, 1.5, True):
        with pytest.raises(calibrate.Failure, match="jobs must be a positive number of samples "
                                                    "run at once, got %r" % (j,)):
            calibrate.collect(model, data, {}, [0.5] * 3, [0.5] * 3, quiet=True, jobs=j)


def test_jobs_option(tmp_path, capsys):
    with pytest.raises(SystemExit):
        calibrate_cli.main(["m.onnx", "--data", str(tmp_path), "-o", "t.json", "--jobs", "0"])
    assert capsys.readouterr().err.splitlines()[-1] == \
        "dla-calibrate: error: --jobs must be at least 1"
    assert 1 <= calibrate.default_jobs() <= calibrate.MAX_JOBS


def test_progress_names_each_sample_with_time_left(monkeypatch, capsys):
    clock = iter([100.0, 102.0, 104.5, 130.0])
    progress = calibrate.Progress(3, False, clock=lambda: next(clock))
    progress.tty = False
    progress.step(1, "a.npy")
    progress.step(2, "b.npy")
    progress.step(3, "c.npy")
    assert capsys.readouterr().err.splitlines() == [
        "calibrating 1/3: a.npy (2.00 s per sample, 4 s left)",
        "calibrating 2/3: b.npy (2.25 s per sample, 2 s left)",
        "calibrating 3/3: c.npy (10.00 s per sample, 0 s left)"]
    assert calibrate.duration(185) == "3 min 05 s" and calibrate.duration(3725) == "1 h 02 min"


def test_qdq_matmul_head():
    """A classifier's head (pool, Reshape, MatMul, Add): the MatMul reads the
    pool's DQ through the Reshape (no Q / DQ of its own), its weight int8
    per column (axis 1), the Add's constant int32 at x_scale * w_scale per
    column, the product itself not quantized, the Add's output quantized;
    against numpy written from onnxruntime's rules."""
    rng = np.random.default_rng(7)
    w = rng.standard_normal((6, 3)).astype(np.float32)
    bias = rng.standard_normal(3).astype(np.float32)
    nodes = [helper.make_node("GlobalAveragePool", ["x"], ["p"]),
             helper.make_node("Reshape", ["p", "shape"], ["f"]),
             helper.make_node("MatMul", ["f", "w"], ["m"]),
             helper.make_node("Add", ["m", "b"], ["a"]),
             helper.make_node("Softmax", ["a"], ["y"], axis=1)]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 6, 2, 2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
                          [numpy_helper.from_array(np.array([0, -1], np.int64), "shape"),
                           numpy_helper.from_array(w, "w"), numpy_helper.from_array(bias, "b")])
    table = {"x": 0.02, "p": 0.03, "f": 0.5, "m": 0.5, "a": 0.07, "y": 0.01}
    m = quantize_model(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), table)
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    by_out = {n.output[0]: n for n in m.graph.node}
    assert by_out["f"].input[0] == "p_DequantizeLinear_Output"
    assert by_out["m"].input[0] == "f"  # no Q / DQ between the Reshape and the MatMul
    assert not any(n.op_type == "QuantizeLinear" and n.input[0] in ("f", "m") for n in m.graph.node)
    assert any(n.op_type == "QuantizeLinear" and n.input[0] == "a" for n in m.graph.node)
    ws = np.abs(w).max(axis=0) / 127
    np.testing.assert_allclose(inits["w_quantized_scale"], ws, rtol=1e-6)
    np.testing.assert_array_equal(inits["w_quantized"], np.clip(np.rint(w / ws), -127, 127))
    wdq = by_out["w_DequantizeLinear_Output"]
    assert [a.i for a in wdq.attribute if a.name == "axis"] == [1]
    assert inits["b_quantized"].dtype == np.int32
    np.testing.assert_array_equal(inits["b_quantized"], np.rint(bias / (0.03 * ws.astype(np.float64))))
    np.testing.assert_allclose(inits["b_quantized_scale"], 0.03 * ws, rtol=1e-6)
    assert by_out["a"].input[1] == "b_DequantizeLinear_Output"
