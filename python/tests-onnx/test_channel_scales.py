"""Asymmetric and per-channel int8 activations: dla-calibrate's zero points
and channel scales against numpy computed from their definitions, the
table's new fields, channel_scales.apply against a numpy execution of the
same graph before the rewrite, and the per-channel quantization it
realizes against numpy's per-channel fake quantization."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla import calibrate
from dla.onnx import ImportFailure, channel_scales
from dla.onnx.calibration_table import Table, read_table, write_table
from dla.onnx.qdq import fold_constants, quantize_model, quantized_nodes

from calib_tiny import samples, tiny_model  # noqa: E402


# -- zero points and channel scales ---------------------------------------

def test_asymmetric_params_by_hand():
    # [0, 2.55]: 256 levels of 0.01 from -128 (real 0) up.
    s, z = calibrate.asymmetric_params(0.0, 2.55)
    assert s == pytest.approx(0.01) and z == -128
    # [-1, 1]: 2 / 255, real 0 at rint(-128 + 127.5) = 0 (half to even).
    s, z = calibrate.asymmetric_params(-1.0, 1.0)
    assert s == pytest.approx(2 / 255) and z == 0
    # [-0.375, 6]: real 0 at rint(-128 + 0.375 / (6.375 / 255)) = -113.
    s, z = calibrate.asymmetric_params(-0.375, 6.0)
    assert s == pytest.approx(6.375 / 255) and z == -113
    # A range not containing 0 is widened to it; an empty range.
    assert calibrate.asymmetric_params(0.5, 2.55) == calibrate.asymmetric_params(0.0, 2.55)
    assert calibrate.asymmetric_params(0.0, 0.0) == (0.0, 0)


def np_conv(x, w, b=None, pad=0, group=1):
    """NCHW convolution, stride 1, in float64 (the definition)."""
    n, c, h, wd = x.shape
    k, per, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh, ow = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    out = np.zeros((n, k, oh, ow))
    kg = k // group
    for gi in range(group):
        xs = xp[:, gi * per:(gi + 1) * per]
        for i in range(kh):
            for j in range(kw):
                out[:, gi * kg:(gi + 1) * kg] += np.einsum(
                    "nchw,oc->nohw", xs[:, :, i:i + oh, j:j + ow], w[gi * kg:(gi + 1) * kg, :, i, j])
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def signed_reference(xs):
    m = tiny_model()
    w, b = (numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer)
    out = {"c": [], "r": []}
    for x in xs:
        c = np_conv(x, w, b, pad=1)
        out["c"].append(c)
        out["r"].append(np.maximum(c, 0))
    return {k: np.concatenate(v) for k, v in out.items()}


def test_histogram_asymmetric_and_channel_scales():
    xs = samples(5)
    ref = signed_reference(xs)
    stats = {k: calibrate.Histogram() for k in ref}
    for k, v in ref.items():
        for i in range(len(v)):
            stats[k].add(v[i:i + 1].astype(np.float32))
    for k, v in ref.items():
        lo, hi = min(v.min(), 0.0), max(v.max(), 0.0)
        assert stats[k].range_of("max") == pytest.approx((lo, hi), rel=1e-6)
        scale, zp = stats[k].asymmetric("max")
        assert scale == pytest.approx((hi - lo) / 255, rel=1e-6)
        assert zp == int(np.clip(np.rint(-128 - lo / ((hi - lo) / 255)), -128, 127))
        # Per channel, the tensor's zero point: the least scale whose levels
        # -128 - zp .. 127 - zp cover the channel's extremes.
        clo = np.minimum(v.min(axis=(0, 2, 3)), 0)
        chi = np.maximum(v.max(axis=(0, 2, 3)), 0)
        want = np.maximum(chi / (127 - zp), clo / (-128 - zp) if zp > -128 else 0)
        got = stats[k].channel_scales("max", zero_point=zp)
        np.testing.assert_allclose(got, want, rtol=1e-6)
        for c in range(len(want)):
            q = np.rint(v[:, c] / got[c]) + zp
            assert q.min() >= -128 - 1e-9 and q.max() <= 127 + 1e-9
    # A Relu's output: every level above real 0.
    assert stats["r"].asymmetric("max")[1] == -128


def test_make_table(tmp_path):
    ref = signed_reference(samples(3))
    stats = {k: calibrate.Histogram() for k in ref}
    for k, v in ref.items():
        stats[k].add(v.astype(np.float32))
    table, ranges = calibrate.make_table(stats, "max", asymmetric=True, per_channel=True)
    assert table.zero_points["r"] == -128
    for k in ref:
        assert table[k] == pytest.approx(max(table.channel_scales[k]))
    write_table(str(tmp_path / "t.json"), table, ranges=ranges)
    back = read_table(str(tmp_path / "t.json"))
    assert back == pytest.approx(dict(table))
    assert back.zero_points == table.zero_points
    assert back.channel_scales == pytest.approx(table.channel_scales)
    with pytest.raises(ValueError, match="no zero points"):
        write_table(str(tmp_path / "t.cache"), table, "TRT-7000-MinMaxCalibration")


@pytest.mark.parametrize("entry, message", [
    ('{"scale": 0.1, "offset": 200}', "offset 200"),
    ('{"scale": 0.1, "offset": 1.5}', "offset 1.5"),
    ('{"scale": 0.1, "channel_scales": []}', "channel_scales"),
    ('{"scale": 0.1, "channel_scales": [0.1, -1]}', "scale -1"),
])
def test_bad_asymmetric_entries(tmp_path, entry, message):
    (tmp_path / "t.json").write_text('{"x": %s}' % entry)
    with pytest.raises(ImportFailure, match=message):
        read_table(str(tmp_path / "t.json"))


# -- realizing channel scales ---------------------------------------------

C = 4


def chain_model():
    """x -> Conv 1x1 -> c1 -> (* a1 + d1) -> t -> depthwise 3x3 -> c2 -> * a2
    -> m2 -> Conv 1x1 (4 -> 3) -> y: each of c1, t, c2, m2 qualifies (a
    Conv writes or reads it, float Mul / Add the rest)."""
    rng = np.random.default_rng(5)
    f = lambda *s: rng.standard_normal(s).astype(np.float32)
    inits = {"w1": f(C, C, 1, 1), "b1": f(C), "a1": np.abs(f(1, C, 1, 1)) + 0.1, "d1": f(1, C, 1, 1),
             "w2": f(C, 1, 3, 3), "b2": f(C), "a2": f(1, C, 1, 1), "w3": f(3, C, 1, 1), "b3": f(3)}
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"]),
             helper.make_node("Mul", ["c1", "a1"], ["p1"]),
             helper.make_node("Add", ["p1", "d1"], ["t"]),
             helper.make_node("Conv", ["t", "w2", "b2"], ["c2"], group=C, pads=[1, 1, 1, 1]),
             helper.make_node("Mul", ["c2", "a2"], ["m2"]),
             helper.make_node("Conv", ["m2", "w3", "b3"], ["y"])]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, C, 5, 5])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 5, 5])],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def np_run(model, x, want=()):
    """The graph's values by numpy: Conv, Mul, Add, QuantizeLinear,
    DequantizeLinear (per tensor, ONNX's definitions)."""
    g = model.graph
    v = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in g.initializer}
    v[g.input[0].name] = x.astype(np.float64)
    for n in g.node:
        a = {x.name: helper.get_attribute_value(x) for x in n.attribute}
        ins = [v[i] for i in n.input if i]
        if n.op_type == "Conv":
            pads = a.get("pads", [0, 0, 0, 0])
            y = np_conv(ins[0], ins[1], ins[2] if len(ins) > 2 else None, pads[0], a.get("group", 1))
        elif n.op_type == "Mul":
            y = ins[0] * ins[1]
        elif n.op_type == "Add":
            y = ins[0] + ins[1]
        elif n.op_type == "QuantizeLinear":
            y = np.clip(np.rint(ins[0] / ins[1]) + ins[2], -128, 127)
        elif n.op_type == "DequantizeLinear":
            s = ins[1]
            if s.size > 1:  # per axis (weights, axis 0)
                s = s.reshape((-1,) + (1,) * (ins[0].ndim - 1))
            z = ins[2].reshape(s.shape) if ins[2].size > 1 else ins[2]
            y = (ins[0] - z) * s
        else:
            raise AssertionError(n.op_type)
        v[n.output[0]] = y
    return v


def test_qualifying_and_function_kept():
    m = chain_model()
    chosen = quantized_nodes(m)[0]
    names = ["x", "c1", "p1", "t", "c2", "m2", "y"]
    assert sorted(channel_scales.qualifying(m, chosen, names)) == ["c1", "c2", "m2", "t"]
    x = np.random.default_rng(1).uniform(-1, 1, (1, C, 5, 5)).astype(np.float32)
    before = np_run(m, x)
    rng = np.random.default_rng(2)
    factors = {n: rng.uniform(0.2, 5, C) for n in ["c1", "t", "c2", "m2"]}
    channel_scales.apply(m, chosen, factors)
    after = np_run(m, x)
    np.testing.assert_allclose(after["y"], before["y"], rtol=1e-5, atol=1e-5)
    # The tensors now hold t * r_c (m2 read by a Conv mixing channels: sqrt).
    for n, r in factors.items():
        r = np.sqrt(r) if n == "m2" else r
        np.testing.assert_allclose(after[n], before[n] * r.reshape(1, -1, 1, 1), rtol=1e-5, atol=1e-5)
    # Four float Muls added: t's and m2's producers (an Add, a Mul) scale,
    # c1's and c2's readers (Muls) unscale; the rest went into the Convs.
    ops = [n.op_type for n in m.graph.node]
    assert ops.count("Mul") == 2 + 4 and ops.count("Conv") == 3


def test_quantize_model_per_channel():
    """The QDQ model's tensor t, unscaled, is t quantized per channel with
    the table's channel scales and zero point."""
    m = chain_model()
    x = np.random.default_rng(3).uniform(-1, 1, (1, C, 5, 5)).astype(np.float32)
    v = np_run(m, x)
    table = Table()
    for n in ["x", "c1", "t", "c2", "m2", "y"]:
        table[n] = float(np.abs(v[n]).max() / 127)
    lo, hi = v["t"].min(axis=(0, 2, 3)), v["t"].max(axis=(0, 2, 3))
    zp = -20
    s = np.maximum(np.maximum(hi, 0) / (127 - zp), np.minimum(lo, 0) / (-128 - zp))
    table.channel_scales["t"] = list(s)
    table.zero_points["t"] = zp
    table["t"] = float(s.max())
    q = quantize_model(m, table)
    got = np_run(q, x)
    mul = [n for n in q.graph.node if n.op_type == "Mul" and n.output[0] == "t"][0]
    r = numpy_helper.to_array([i for i in q.graph.initializer if i.name == mul.input[1]][0])
    np.testing.assert_allclose(r.reshape(-1), s.max() / s, rtol=1e-6)
    dq = got["t_DequantizeLinear_Output"] / r.reshape(1, -1, 1, 1)
    raw = got["t_per_channel"]
    sc = s.reshape(1, -1, 1, 1)
    want = (np.clip(np.rint(raw / sc) + zp, -128, 127) - zp) * sc
    close = np.isclose(dq, want, rtol=1e-6, atol=1e-9)
    # A product t * r_c / S may round across a tie where t / s_c does not.
    assert close.mean() > 0.99 and np.all(np.abs(dq - want) <= sc * 1.000001)
    # Symmetric tensors keep zero point 0; the fold kept the model's outputs.
    assert numpy_helper.to_array([i for i in q.graph.initializer if i.name == "t_zero_point"][0]) == zp


# -- tokens [N, T, C]: channels on the last axis ----------------------------

def test_histogram_token_channel_extremes():
    """Rank-3 tokens: per channel of the LAST axis, the extremes over the
    batch and tokens of every sample (and 0), as numpy's; the table marks
    the axis (channel_axis -1) and reads it back; rank 4 keeps axis 1."""
    rng = np.random.default_rng(11)
    xs = [rng.standard_normal((1, 7, 5)) * np.array([1, 10, 0.1, 3, 25]) + 0.5 for _ in range(3)]
    h = calibrate.Histogram()
    for x in xs:
        h.add(x.astype(np.float32))
    v = np.concatenate(xs).astype(np.float32)
    assert h.channel_axis == -1
    assert h.channel_min.tolist() == np.minimum(v.min(axis=(0, 1)), 0).tolist()
    assert h.channel_max.tolist() == np.maximum(v.max(axis=(0, 1)), 0).tolist()
    m = calibrate.Histogram()
    m.add(v.reshape(3, 7, 5, 1))  # N x C x H x W: channels on axis 1 (7 of them)
    assert m.channel_axis == 1 and m.channel_min.shape == (7,)
    table, _ = calibrate.make_table({"t": h, "m": m}, "max", asymmetric=True, per_channel=True)
    assert len(table.channel_scales["t"]) == 5 and table.channel_axis("t") == -1
    assert table.channel_axis("m") == 1 and "m" not in table.channel_axes


def test_table_channel_axis(tmp_path):
    path = str(tmp_path / "t.json")
    table = Table({"t": 0.5, "m": 0.25}, channel_scales={"t": [0.5, 0.1], "m": [0.25, 0.2]},
                  channel_axes={"t": -1})
    write_table(path, table)
    text = open(path).read()
    assert text.count('"channel_axis"') == 1  # axis 1 is the default, not written
    back = read_table(path)
    assert back.channel_axes == {"t": -1} and back.channel_axis("m") == 1
    # A table written before the field: every channel list on axis 1.
    (tmp_path / "old.json").write_text('{"m": {"scale": 0.25, "channel_scales": [0.25, 0.2]}}')
    assert read_table(str(tmp_path / "old.json")).channel_axis("m") == 1


@pytest.mark.parametrize("entry, message", [
    ('{"scale": 0.1, "channel_scales": [0.1], "channel_axis": 2}', "channel_axis 2"),
    ('{"scale": 0.1, "channel_axis": -1}', "channel_axis -1"),
])
def test_bad_channel_axis(tmp_path, entry, message):
    (tmp_path / "t.json").write_text('{"x": %s}' % entry)
    with pytest.raises(ImportFailure, match=message):
        read_table(str(tmp_path / "t.json"))


T, K, CT = 6, 5, 4


def token_model():
    """x [1, T, K] -> FC (K -> CT) -> f -> LayerNorm (spelled out) -> y ->
    FC (CT -> 3) -> z -> Add x2 -> o: f (an FC writes it) and y (the
    LayerNorm's affine step writes it) are read by an FC and a
    LayerNorm's ReduceMean / Sub (f: not an FC: no) or an FC alone (y)."""
    rng = np.random.default_rng(4)
    r = lambda *s: rng.standard_normal(s).astype(np.float32)
    inits = {"w1": r(K, CT), "b1": r(CT), "two": np.float32(2.0), "eps": np.float32(1e-5),
             "gamma": r(CT), "beta": r(CT), "w2": r(CT, 3), "b2": r(3)}
    mk = helper.make_node
    nodes = [mk("MatMul", ["x", "w1"], ["m1"]), mk("Add", ["m1", "b1"], ["f"]),
             mk("ReduceMean", ["f"], ["mean"], axes=[-1]), mk("Sub", ["f", "mean"], ["d"]),
             mk("Pow", ["d", "two"], ["sq"]), mk("ReduceMean", ["sq"], ["var"], axes=[-1]),
             mk("Add", ["var", "eps"], ["ve"]), mk("Sqrt", ["ve"], ["sd"]),
             mk("Div", ["d", "sd"], ["n"]), mk("Mul", ["n", "gamma"], ["g"]),
             mk("Add", ["g", "beta"], ["y"]), mk("Shape", ["y"], ["ys"]),
             mk("MatMul", ["y", "w2"], ["m2"]), mk("Add", ["m2", "b2"], ["z"])]
    g = helper.make_graph(nodes, "tokens", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, T, K])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, T, 3]),
                           helper.make_tensor_value_info("ys", TensorProto.INT64, [3])],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def np_tokens(model, x):
    """token_model's values by numpy from its initializers (float64)."""
    v = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer}
    f = x @ v["w1"] + v["b1"]
    d = f - f.mean(-1, keepdims=True)
    y = d / np.sqrt((d ** 2).mean(-1, keepdims=True) + v["eps"]) * v["gamma"] + v["beta"]
    return {"f": f, "y": y, "z": y @ v["w2"] + v["b2"]}


def test_token_channel_scales_kept_function():
    """Tokens: the LayerNorm's output (its gamma, beta scaled, the FC's
    weight rows divided) qualifies; the FC output read by the LayerNorm
    does not (a LayerNorm reads its input itself). After apply, y holds
    y * sqrt(r) on its last axis (an FC mixing channels reads it: half the
    equalization, as Convs) and z, from numpy's run of the original
    initializers, is kept; no float Mul is added (the Shape reads y as it
    is)."""
    m = token_model()
    chosen = quantized_nodes(m)[0]
    axes = {"f": -1, "y": -1}
    assert sorted(channel_scales.qualifying(m, chosen, ["x", "f", "y", "z"], axes)) == ["y"]
    x = np.random.default_rng(6).standard_normal((1, T, K))
    before = np_tokens(m, x)
    r = np.array([1.0, 4.0, 9.0, 16.0])
    channel_scales.apply(m, chosen, {"y": r}, axes)
    after = np_tokens(m, x)
    np.testing.assert_allclose(after["y"], before["y"] * np.sqrt(r), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(after["z"], before["z"], rtol=1e-5, atol=1e-5)
    assert [n.op_type for n in m.graph.node].count("Mul") == 1  # the LayerNorm's gamma


def test_token_fc_output_channel_scales():
    """Tokens written by a fully connected layer and read by another (which
    mixes channels: f takes sqrt(r_c), as for Convs): the first's weight
    columns and bias scaled by it (per output channel int8 weights: the
    same integers), the second's rows divided by it, no node added; f and
    the output against numpy from the original initializers."""
    rng = np.random.default_rng(9)
    r_ = lambda *s: rng.standard_normal(s).astype(np.float32)
    inits = {"w1": r_(K, CT), "b1": r_(CT), "w2": r_(CT, 3), "b2": r_(3)}
    mk = helper.make_node
    nodes = [mk("MatMul", ["x", "w1"], ["m1"]), mk("Add", ["m1", "b1"], ["f"]),
             mk("MatMul", ["f", "w2"], ["m2"]), mk("Add", ["m2", "b2"], ["z"])]
    g = helper.make_graph(nodes, "fc2", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, T, K])],
                          [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, T, 3])],
                          [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    chosen = quantized_nodes(m)[0]
    assert list(channel_scales.qualifying(m, chosen, ["f"], {"f": -1})) == ["f"]
    # Without the axis (a rank-4 map's rule): no Conv reads it.
    assert not channel_scales.qualifying(m, chosen, ["f"])
    x = np.random.default_rng(2).standard_normal((1, T, K))
    f = x @ inits["w1"].astype(np.float64) + inits["b1"]
    z = f @ inits["w2"].astype(np.float64) + inits["b2"]
    r = np.array([2.0, 0.5, 16.0, 1.0])
    channel_scales.apply(m, chosen, {"f": r}, {"f": -1})
    v = {i.name: numpy_helper.to_array(i).astype(np.float64) for i in m.graph.initializer}
    f2 = x @ v["w1"] + v["b1"]
    np.testing.assert_allclose(f2, f * np.sqrt(r), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(f2 @ v["w2"] + v["b2"], z, rtol=1e-5, atol=1e-5)
    assert [n.op_type for n in m.graph.node] == ["MatMul", "Add", "MatMul", "Add"]
