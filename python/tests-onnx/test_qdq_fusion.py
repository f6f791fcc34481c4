"""QDQ fusion (dla/onnx/qdq_fusion.py): the TOSA shapes --dla-convert-tosa
matches, and exact values against numpy models of TOSA's integer
arithmetic (tosa.rescale SINGLE_ROUND: ties up; avg_pool2d: the spec's
reciprocal_scale). The graph inputs are the quantized tensors, so only the
fused arithmetic is measured."""

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import import_model
from test_quant import ONNX_TYPE, RNG, ref_conv, run  # noqa: F401 (run: fixture)

QMIN = {np.dtype(np.int8): -128, np.dtype(np.uint8): 0}


def qdq_model(nodes, x, out, out_dtype, inits, out_shape=None):
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", ONNX_TYPE[x.dtype], x.shape)],
                          [helper.make_tensor_value_info(out, ONNX_TYPE[np.dtype(out_dtype)], out_shape)],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def dq(name, x, s, z, **kw):
    return helper.make_node("DequantizeLinear", [x, s, z], [name], **kw)


def q(name, x, s, z):
    return helper.make_node("QuantizeLinear", [x, s, z], [name])


def ties_up(v):
    return np.floor(v + 0.5)


def apply_scale(v, m):
    """tosa.rescale of int64 v by the float64 scale m: a 31-bit multiplier
    and a shift, rounded half up."""
    mant, exp = np.frexp(m)
    mult, shift = int(round(mant * 2 ** 31)), 31 - int(exp)
    return (v.astype(np.int64) * mult + (1 << (shift - 1))) >> shift


def conv_case(per_channel, dtype, act=None, group=1):
    cin, cout = 6, 5 if group == 1 else 6
    x = RNG.integers(QMIN[np.dtype(dtype)], QMIN[np.dtype(dtype)] + 256, (1, cin, 7, 6)).astype(dtype)
    w = RNG.integers(-127, 128, (cout, cin // group, 3, 3)).astype(np.int8)
    xs, ys = np.float32(0.023), np.float32(0.061)
    ws = (RNG.uniform(0.004, 0.012, cout if per_channel else 1)).astype(np.float32)
    xz = np.array(QMIN[np.dtype(dtype)] + 131, dtype)
    yz = np.array(QMIN[np.dtype(dtype)] + 120, dtype)
    bias = RNG.integers(-3000, 3000, cout).astype(np.int32)
    inits = {"xs": xs, "xz": xz, "w": w, "ws": ws if per_channel else ws[0],
             "wz": np.zeros(cout if per_channel else (), np.int8), "b": bias,
             "bs": xs * ws if per_channel else xs * ws[0], "bz": np.zeros(cout if per_channel else (), np.int32),
             "ys": ys, "yz": yz, "lo": np.float32(-0.5), "hi": np.float32(2.0)}
    axis = {"axis": 0} if per_channel else {}
    nodes = [dq("xd", "x", "xs", "xz"), dq("wd", "w", "ws", "wz", **axis), dq("bd", "b", "bs", "bz", **axis),
             helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1], group=group)]
    if act == "relu":
        nodes.append(helper.make_node("Relu", ["c"], ["a"]))
    elif act == "clip":
        nodes.append(helper.make_node("Clip", ["c", "lo", "hi"], ["a"]))
    nodes.append(q("y", "a" if act else "c", "ys", "yz"))
    # Reference: exact i32 accumulation, ties up, clamp.
    xp = np.pad(x.astype(np.int64) - int(xz), ((0, 0), (0, 0), (1, 1), (1, 1)))
    if group == 1:
        acc = ref_conv(xp, w)
    else:
        acc = np.concatenate([ref_conv(xp[:, g:g + 1], w[g:g + 1]) for g in range(group)], axis=1)
    acc = acc + bias.reshape(1, -1, 1, 1)
    m = (xs * ws / ys).astype(np.float32).astype(np.float64).reshape(1, -1, 1, 1)
    want = ties_up(acc * m) + int(yz)
    lo, hi = QMIN[np.dtype(dtype)], QMIN[np.dtype(dtype)] + 255
    if act == "relu":
        lo = int(yz)
    elif act == "clip":
        lo = max(lo, int(np.rint(np.float32(-0.5) / ys)) + int(yz))
        hi = min(hi, int(np.rint(np.float32(2.0) / ys)) + int(yz))
    return qdq_model(nodes, x, "y", dtype, inits), x, np.clip(want, lo, hi).astype(dtype)


@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("act", [None, "relu", "clip"])
def test_conv_exact(run, per_channel, dtype, act):
    m, x, want = conv_case(per_channel, dtype, act)
    np.testing.assert_array_equal(run(m, x, "qdqconv"), want)


def test_depthwise_conv_exact(run):
    m, x, want = conv_case(True, np.int8, "relu", group=6)
    np.testing.assert_array_equal(run(m, x, "qdqdw"), want)


def ops(text):
    """The TOSA op names of a module, in order (constants left out)."""
    return [line.split("=", 1)[1].split()[0] for line in text.splitlines()
            if " = tosa." in line and "tosa.const" not in line]


@pytest.mark.parametrize("per_channel", [False, True])
def test_conv_structure(verify, per_channel):
    m, _, _ = conv_case(per_channel, np.int8, "relu")
    text = import_model(m)
    verify(text)
    assert ops(text) == ["tosa.transpose", "tosa.conv2d", "tosa.rescale", "tosa.clamp", "tosa.transpose"]
    rescale = next(line.split(" loc(")[0] for line in text.splitlines() if "tosa.rescale" in line)
    assert "per_channel = %s" % str(per_channel).lower() in rescale
    assert "rounding_mode = SINGLE_ROUND, scale32 = true" in rescale
    assert "xi32>, tensor<%dxi32>" % (5 if per_channel else 1) in rescale and rescale.endswith("x5xi8>")
    assert "min_val = -8 : i8, max_val = 127 : i8" in text  # Relu: the zero point
    assert "acc_type = i32" in text and "f32" not in text.split("func.func")[1].split("return")[0]


def test_uint8_conv_structure_and_output_type(verify):
    m, _, _ = conv_case(False, np.uint8)
    text = import_model(m)
    verify(text)
    # uint8 in: one rescale to TOSA's signed form; out: back through i32.
    assert ops(text)[:4] == ["tosa.rescale", "tosa.transpose", "tosa.conv2d", "tosa.rescale"]
    assert text.count("tosa.rescale") == 3 and "-> (tensor<1x5x7x6xui8>)" in text


def add_case(dtype, relu):
    x = RNG.integers(QMIN[np.dtype(dtype)], QMIN[np.dtype(dtype)] + 256, (1, 3, 4, 5)).astype(dtype)
    inits = {"as": np.float32(0.031), "az": np.array(QMIN[np.dtype(dtype)] + 140, dtype),
             "bs": np.float32(0.012), "bz": np.array(QMIN[np.dtype(dtype)] + 100, dtype),
             "ys": np.float32(0.047), "yz": np.array(QMIN[np.dtype(dtype)] + 110, dtype)}
    # b: x through a second Q of another scale (a requantization).
    nodes = [dq("ad", "x", "as", "az"), q("bq", "ad", "bs", "bz"), dq("bd", "bq", "bs", "bz"),
             helper.make_node("Add", ["ad", "bd"], ["s"])]
    if relu:
        nodes.append(helper.make_node("Relu", ["s"], ["r"]))
    nodes.append(q("y", "r" if relu else "s", "ys", "yz"))
    return qdq_model(nodes, x, "y", dtype, inits), x, inits


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
@pytest.mark.parametrize("relu", [False, True])
def test_add_exact(run, verify, dtype, relu):
    m, x, p = add_case(dtype, relu)
    text = verify(import_model(m))
    widen = [line for line in text.splitlines() if "tosa.rescale" in line and "(tensor<1x3x4x5xi8>" in line
             and line.endswith("-> tensor<1x3x4x5xi32>")]
    assert len(widen) == 2 and "tosa.add %s, %s" % (widen[0].split()[0], widen[1].split()[0]) in text
    got = run(m, x, "qdqadd")
    lo, hi = QMIN[np.dtype(dtype)], QMIN[np.dtype(dtype)] + 255
    a = x.astype(np.int64) - int(p["az"])
    # The graph's own Q of b (exact in ONNX's arithmetic, host f32).
    bq = np.clip(np.rint((a * np.float64(p["as"])).astype(np.float32) / p["bs"]) + int(p["bz"]), lo, hi)
    b = bq.astype(np.int64) - int(p["bz"])
    big = max(float(p["as"]), float(p["bs"]))
    s = apply_scale(a, float(p["as"]) / big * 2 ** 20) + apply_scale(b, float(p["bs"]) / big * 2 ** 20)
    want = apply_scale(s, big / float(p["ys"]) * 2 ** -20) + int(p["yz"])
    want = np.clip(want, int(p["yz"]) if relu else lo, hi)
    np.testing.assert_array_equal(got, want.astype(dtype))


def pool_model(op, x, xs, xz, ys, yz, **attrs):
    nodes = [dq("xd", "x", "xs", "xz"), helper.make_node(op, ["xd"], ["p"], **attrs), q("y", "p", "ys", "yz")]
    return qdq_model(nodes, x, "y", x.dtype, {"xs": xs, "xz": xz, "ys": ys, "yz": yz})


def windows(x, k, s, pad, fill):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    return np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))[:, :, ::s, ::s]


def test_maxpool_same_parameters_is_exact_and_bare(run, verify):
    x = RNG.integers(-128, 128, (1, 5, 7, 7)).astype(np.int8)
    z = np.array(-3, np.int8)
    m = pool_model("MaxPool", x, np.float32(0.02), z, np.float32(0.02), z, kernel_shape=[3, 3],
                   strides=[2, 2], pads=[1, 1, 1, 1])
    text = verify(import_model(m))
    assert ops(text) == ["tosa.transpose", "tosa.max_pool2d", "tosa.transpose"]
    np.testing.assert_array_equal(run(m, x, "qdqmax"), windows(x, 3, 2, 1, -128).max(axis=(4, 5)))


def tosa_avg(x, k, s, pad, izp, ozp, lo=-128, hi=127):
    """TOSA 1.0 avg_pool2d on integers: the sum of (x - izp) over the
    window's elements inside the input, times reciprocal_scale(count)."""
    win = windows(x.astype(np.int64) - izp, k, s, pad, 0)
    cnt = windows(np.ones(x.shape, np.int64), k, s, pad, 0).sum(axis=(4, 5))
    acc = win.sum(axis=(4, 5))
    out = np.zeros(acc.shape, np.int64)
    for idx in np.ndindex(acc.shape):
        c = int(cnt[idx])
        kk = (c - 1).bit_length()
        mult, shift = (((1 << 30) + 1) << kk) // c, 30 + kk
        out[idx] = (int(acc[idx]) * mult + (1 << (shift - 1))) >> shift
    return np.clip(out + ozp, lo, hi)


@pytest.mark.parametrize("k,s,pad", [(2, 2, 0), (3, 1, 1), (3, 2, 1)])
def test_avgpool_equal_scales_is_tosa_avg(run, verify, k, s, pad):
    x = RNG.integers(-128, 128, (1, 4, 6, 7)).astype(np.int8)
    m = pool_model("AveragePool", x, np.float32(0.02), np.array(5, np.int8), np.float32(0.02),
                   np.array(-9, np.int8), kernel_shape=[k, k], strides=[s, s], pads=[pad] * 4)
    text = verify(import_model(m))
    # (A slice drops the column no 2x2 window reads.)
    assert [o for o in ops(text) if o != "tosa.slice"] == ["tosa.transpose", "tosa.avg_pool2d", "tosa.transpose"]
    assert "acc_type = i32" in text
    np.testing.assert_array_equal(run(m, x, "qdqavg"), tosa_avg(x, k, s, pad, 5, -9))


def test_global_avgpool_and_unequal_scales(run, verify):
    x = RNG.integers(0, 256, (1, 3, 5, 5)).astype(np.uint8)
    m = pool_model("GlobalAveragePool", x, np.float32(0.02), np.array(128, np.uint8), np.float32(0.03),
                   np.array(100, np.uint8))
    text = verify(import_model(m))
    assert "tosa.avg_pool2d" in text and "kernel = array<i64: 5, 5>" in text
    mean = tosa_avg(x.astype(np.int64) - 128, 5, 1, 0, 0, 0)  # keeps x's zero point
    want = np.clip(apply_scale(mean, float(np.float32(np.float32(0.02) / np.float32(0.03)))) + 100, 0, 255)
    np.testing.assert_array_equal(run(m, x, "qdqgap"), want)


def test_what_does_not_fit_stays_float(verify):
    # count_include_pad with padding: TOSA would not count the padding.
    x = np.zeros((1, 2, 5, 5), np.int8)
    z = np.array(0, np.int8)
    m = pool_model("AveragePool", x, np.float32(0.02), z, np.float32(0.02), z, kernel_shape=[3, 3],
                   pads=[1, 1, 1, 1], count_include_pad=1)
    text = verify(import_model(m))
    assert "acc_type = f32" in text and "acc_type = i32" not in text
    # A float op between DQ and Q (Sigmoid and Tanh are tables now:
    # qdq_table.py); a bias that is not int32 x_scale * w_scale.
    m = pool_model("Exp", x, np.float32(0.02), z, np.float32(0.02), z)
    assert "tosa.exp" in verify(import_model(m))
    cm, _, _ = conv_case(False, np.int8)
    for init in cm.graph.initializer:
        if init.name == "bs":
            init.CopyFrom(numpy_helper.from_array(np.float32(0.5), "bs"))
    assert "acc_type = f32" in verify(import_model(cm))


def test_fused_result_read_by_a_plain_dq_and_an_output(run):
    # Conv's quantized result is a graph output (uint8) and, dequantized, a
    # float Sigmoid's input: both get its ONNX meaning back.
    m, x, want = conv_case(False, np.uint8)
    m.graph.node.extend([dq("yd", "y", "ys", "yz"), helper.make_node("Sigmoid", ["yd"], ["f"])])
    m.graph.output.append(helper.make_tensor_value_info("f", TensorProto.FLOAT, None))
    text = import_model(m)
    assert "tosa.sigmoid" in text and text.count("tosa.conv2d") == 1
    np.testing.assert_array_equal(run(m, x, "qdqout"), want)


def test_group_rejected_at_emission_converts_node_by_node(verify):
    # A requantization scale beyond tosa.rescale's range (2^29) is found
    # while writing the group: what was written is dropped, the nodes
    # convert one by one (float Conv), the module verifies.
    m, _, _ = conv_case(True, np.uint8)
    for init in m.graph.initializer:
        if init.name == "ys":
            init.CopyFrom(numpy_helper.from_array(np.float32(1e-15), "ys"))
    text = import_model(m)
    verify(text)
    assert "acc_type = f32" in text and "acc_type = i32" not in text


def test_clip_of_opset_10_attributes(run):
    m, x, want = conv_case(False, np.int8, "clip")
    m.opset_import[0].version = 10
    clip = next(n for n in m.graph.node if n.op_type == "Clip")
    del clip.input[1:]
    clip.attribute.extend([helper.make_attribute("min", -0.5), helper.make_attribute("max", 2.0)])
    assert "min_val = " in import_model(m)
    np.testing.assert_array_equal(run(m, x, "qdqclip10"), want)


@pytest.mark.parametrize("kind", ["conv", "conv_relu_maxpool", "conv_avgpool", "residual"])
@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_generated_qdq_models_fuse_every_group(verify, kind, per_channel, dtype):
    # utils/ort/qdq_models.py (compared with onnxruntime by compare_qdq.py):
    # no float layer is left in what the importer writes.
    import qdq_models
    for seed in range(3):
        text = import_model(qdq_models.build(kind, seed, per_channel, dtype)[0])
        verify(text)
        assert "acc_type = f32" not in text and "tosa.conv2d" in text
        assert ("_pool2d" in text) == ("pool" in kind)
        assert not [line for line in text.splitlines() if "tosa.add" in line and "f32" in line]


@pytest.mark.parametrize("kind", ["hardswish", "affine_hardswish", "gate"])
@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_generated_hardswish_and_gate_fuse(verify, kind, per_channel, dtype):
    # A BatchNormalization + decomposed hard-swish (qdq_hardswish.py), the
    # same between scalar affine maps (x * a + b, then * a2 + b2, on odd
    # seeds a per-channel factor: PP-OCRv4's recognizer) and a
    # squeeze-excitation's x * gate (qdq_fusion.py Mul) between quantize
    # steps: the product is an i32 tosa.mul, and no float arithmetic is
    # left but the input's quantization (what a conv-only model has).
    import qdq_models
    import re
    floats = lambda t: [line for line in t.splitlines() if "f32>" in line and
                        re.search(r"tosa\.(mul|add|clamp|sub|gather)\b", line)]
    for seed in range(3):
        base = import_model(qdq_models.build("conv", seed, per_channel, dtype)[0])
        text = import_model(qdq_models.build(kind, seed, per_channel, dtype)[0])
        verify(text)
        assert len(floats(text)) == len(floats(base))
        assert [line for line in text.splitlines() if "tosa.mul" in line and "i32>" in line]


@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_fc_through_a_computed_reshape_exact(run, verify, dtype):
    """A classifier's head as PaddleOCR exports it: the [n, K, 1, 1] map
    reshaped to [n, K] by a shape computed from its own (Shape, Slice,
    Concat), MatMul by int8 columns, the int32 bias Add, Q: one conv2d over
    the map (no matmul, no reshape before it), exact against TOSA's
    arithmetic in numpy (one rescale, ties up)."""
    lo = QMIN[np.dtype(dtype)]
    x = RNG.integers(lo, lo + 256, (2, 6, 1, 1)).astype(dtype)
    w = RNG.integers(-127, 128, (6, 4)).astype(np.int8)
    ws = np.array([0.011, 0.02, 0.007, 0.015], np.float32)
    xs, ys = np.float32(0.03), np.float32(0.05)
    bias = RNG.integers(-400, 400, 4).astype(np.int32)
    inits = {"xs": xs, "xz": np.array(lo + 131, dtype), "w": w, "ws": ws, "wz": np.zeros(4, np.int8),
             "b": bias, "bs": (xs * ws).astype(np.float32), "bz": np.zeros(4, np.int32),
             "starts": np.array([0], np.int64), "ends": np.array([1], np.int64),
             "k": np.array([6], np.int64), "ys": ys, "yz": np.array(lo + 120, dtype)}
    nodes = [dq("xd", "x", "xs", "xz"), helper.make_node("Shape", ["xd"], ["sh"]),
             helper.make_node("Slice", ["sh", "starts", "ends"], ["n"]),
             helper.make_node("Concat", ["n", "k"], ["shape"], axis=0),
             helper.make_node("Reshape", ["xd", "shape"], ["f"]),
             dq("wd", "w", "ws", "wz", axis=1), dq("bd", "b", "bs", "bz", axis=0),
             helper.make_node("MatMul", ["f", "wd"], ["m"]), helper.make_node("Add", ["m", "bd"], ["a"]),
             q("y", "a", "ys", "yz")]
    m = qdq_model(nodes, x, "y", dtype, inits, [2, 4])
    text = verify(import_model(m))
    assert "tosa.matmul" not in text and "tosa.conv2d" in text
    assert "(tensor<2x1x1x6xi8>, tensor<4x1x1x6xi8>, tensor<4xi32>" in text
    got = run(m, x, "qdqfc")
    acc = (x.reshape(2, 6).astype(np.int64) - int(inits["xz"])) @ w.astype(np.int64) + bias
    mult = (xs * ws / ys).astype(np.float32).astype(np.float64)
    want = np.stack([apply_scale(acc[:, j], mult[j]) for j in range(4)], axis=1) + int(inits["yz"])
    np.testing.assert_array_equal(got, np.clip(want, lo, lo + 255).astype(dtype))


@pytest.mark.parametrize("axis", [-1, 1])
def test_attention_softmax_mark(verify, axis):
    # qdq_attention.SOFTMAX_MARK: p v's per-head products carry the
    # scores', v's and o's scales when p is Q(Softmax(DQ(scores))) over the
    # keys (--dla-convert-tosa then runs the softmax on NVDLA); a Softmax
    # over another axis is not the attention's: no mark, the same products.
    import re
    import qdq_models
    from dla.onnx import qdq_attention
    m = qdq_models.build("attention_qkv", 2)[0]  # 3 heads of 16 dims over 8 tokens
    sm = next(n for n in m.graph.node if n.op_type == "Softmax")
    next(a for a in sm.attribute if a.name == "axis").i = axis
    text = import_model(m)
    verify(text)
    products = [line for line in text.splitlines()
                if "tosa.matmul" in line and "(tensor<1x8x8xi8>, tensor<1x8x16xi8>" in line]
    assert len(products) == 3
    marked = [line for line in products if qdq_attention.SOFTMAX_MARK in line]
    assert len(marked) == (3 if axis == -1 else 0)
    for line in marked:
        scales = dict(re.findall(r"(\w+_scale) = ([0-9.e+-]+) : f64", line))
        assert sorted(scales) == ["o_scale", "scores_scale", "v_scale"]
        assert all(float(v) > 0 for v in scales.values())
