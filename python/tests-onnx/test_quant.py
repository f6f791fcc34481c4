"""The quantization importers (ops_quant) on small hand-built models with
non-splat data, executed on the CPU by dla-run-onnx (default nv_full fp16
compile: what it offloads runs in fp16, so exact results also show that
the quantization arithmetic stays on the host)
and compared with numpy models of ONNX's reference implementation
(onnx/reference/ops/op_*.py of onnx >= 1.13; Debian's onnx 1.12 has no
ReferenceEvaluator, so the formulas are written out here). Errors for what
is out of scope name the node."""

import subprocess

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from dla.onnx import ImportFailure, import_model

RNG = np.random.default_rng(22)
ONNX_TYPE = {np.dtype(np.uint8): TensorProto.UINT8, np.dtype(np.int8): TensorProto.INT8,
             np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.float16): TensorProto.FLOAT16,
             np.dtype(np.int32): TensorProto.INT32}


def model(node, x, out_type, inits, opset=13):
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", ONNX_TYPE[x.dtype], x.shape)],
                          [helper.make_tensor_value_info("y", out_type, None)],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


@pytest.fixture(scope="session")
def run(tmp_path_factory, tool_bin):
    """Runs a model through dla-run-onnx (the package's, beside the
    build's dla-opt); returns output 0."""
    def go(m, x, name, offload=True):
        d = tmp_path_factory.mktemp(name)
        onnx.save(m, str(d / "m.onnx"))
        np.save(d / "x.npy", x)
        proc = subprocess.run([str(tool_bin / "dla-run-onnx"), str(d / "m.onnx"),
                               "--input", str(d / "x.npy"), "--output-dir", str(d / "out")]
                              + (["--allow-host"] if offload else ["--no-offload"]),
                              capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        return np.load(d / "out" / "output_0.npy")
    return go


def ref_quantize(x, scale, zp, axis=1):
    shape = [1] * x.ndim
    if np.size(scale) > 1:
        shape[axis] = -1
    q = np.rint(x / scale.reshape(shape)).astype(np.int32) + zp.reshape(shape).astype(np.int32)
    lo, hi = (0, 255) if zp.dtype == np.uint8 else (-128, 127)
    return np.clip(q, lo, hi).astype(zp.dtype)


def ref_requantize(acc, m, y_zp):
    r = np.rint(acc.astype(np.float64) * m.astype(np.float64)) + int(y_zp)
    lo, hi = (0, 255) if y_zp.dtype == np.uint8 else (-128, 127)
    return np.clip(r, lo, hi).astype(y_zp.dtype)


def ref_conv(x, w):
    """NCHW, no padding, stride 1, int64 arithmetic."""
    n, c, h, wd = x.shape
    k, _, kh, kw = w.shape
    out = np.zeros((n, k, h - kh + 1, wd - kw + 1), np.int64)
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            patch = x[:, :, i:i + kh, j:j + kw].astype(np.int64)
            out[:, :, i, j] = np.einsum("nchw,kchw->nk", patch, w.astype(np.int64))
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_quantize_per_axis(run, dtype):
    x = (RNG.standard_normal((1, 3, 4, 5)) * 40).astype(np.float32)
    x.flat[:4] = [2.5, -3.5, 0.5, 1000.0]  # ties to even, saturation
    scale = np.array([1.0, 0.5, 0.25], np.float32)  # exact reciprocals: exact
    zp = np.array([3, 120, 9], dtype) if dtype == np.uint8 else np.array([-3, 7, 0], dtype)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]), x, ONNX_TYPE[np.dtype(dtype)],
              {"s": scale, "z": zp})
    np.testing.assert_array_equal(run(m, x, "q"), ref_quantize(x, scale, zp))


def near_ties(scale, shape):
    """Inputs within a few ulps of (k + 1/2) * scale: where x * (1 / scale)
    and ONNX's x / scale round differently."""
    k = RNG.integers(-140, 140, shape).astype(np.float32) + np.float32(0.5)
    x = (k * scale).astype(np.float32)
    steps = RNG.integers(-3, 4, shape).astype(np.int32)
    return (x.view(np.int32) + steps).view(np.float32)  # a few ulps either way


@pytest.mark.parametrize("scale", [0.0371, 0.1, 3.3, 1e-3 / 3])
def test_quantize_inexact_reciprocal_is_exact(run, scale):
    scale = np.array(scale, np.float32)
    x = near_ties(scale, (4, 128))
    zp = np.array(-5, np.int8)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]), x, TensorProto.INT8,
              {"s": scale, "z": zp}, opset=10)
    want = ref_quantize(x, scale, zp)
    recip = np.clip(np.rint(x * (np.float32(1) / scale)) - 5, -128, 127)
    assert np.any(recip != want)  # the naive form would be off by one here
    np.testing.assert_array_equal(run(m, x, "q10"), want)


def test_quantize_per_axis_near_ties_uint8_and_float16(run):
    scale = np.array([0.0173, 0.29, 0.0041], np.float32)
    x = near_ties(scale.reshape(1, 3, 1), (2, 3, 40))
    zp = np.array([128, 3, 250], np.uint8)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], axis=-2), x, TensorProto.UINT8,
              {"s": scale, "z": zp})
    np.testing.assert_array_equal(run(m, x, "qaxis"), ref_quantize(x, scale, zp, axis=1))
    xh, sh = x.astype(np.float16), np.array(0.0173, np.float16)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]), xh, TensorProto.INT8,
              {"s": sh, "z": np.array(1, np.int8)}, opset=19)
    np.testing.assert_array_equal(run(m, xh, "qf16"), ref_quantize(xh, sh, np.array(1, np.int8)))


def test_dequantize_per_axis(run):
    x = RNG.integers(0, 256, (1, 4, 3, 5)).astype(np.uint8)
    scale = np.array([0.1, 0.02, 3.0, 0.7], np.float32)
    zp = np.array([0, 128, 17, 255], np.uint8)
    m = model(helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"], axis=1), x, TensorProto.FLOAT,
              {"s": scale, "z": zp})
    want = (x.astype(np.float32) - zp.reshape(1, 4, 1, 1).astype(np.float32)) * scale.reshape(1, 4, 1, 1)
    np.testing.assert_array_equal(run(m, x, "dq"), want)
    # Per tensor on a feature map: the multiply the SDP would take in fp16.
    x = RNG.integers(-128, 128, (1, 3, 4, 4)).astype(np.int8)
    m = model(helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"]), x, TensorProto.FLOAT,
              {"s": np.array(0.1, np.float32), "z": np.array(7, np.int8)})
    want = (x.astype(np.float32) - np.float32(7)) * np.float32(0.1)
    np.testing.assert_array_equal(run(m, x, "dq1"), want)


def test_qlinear_conv_per_channel(run):
    x = RNG.integers(0, 256, (1, 3, 6, 5)).astype(np.uint8)
    w = RNG.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    bias = RNG.integers(-2000, 2000, (4,)).astype(np.int32)
    xs, xz = np.array(0.021, np.float32), np.array(131, np.uint8)
    ws, wz = np.array([0.003, 0.011, 0.0071, 0.02], np.float32), np.zeros((4,), np.int8)
    ys, yz = np.array(0.09, np.float32), np.array(120, np.uint8)
    m = model(helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"]),
              x, TensorProto.UINT8, {"xs": xs, "xz": xz, "w": w, "ws": ws, "wz": wz, "ys": ys, "yz": yz,
                                     "b": bias}, opset=10)
    acc = ref_conv(x.astype(np.int32) - int(xz), w) + bias.reshape(1, 4, 1, 1)
    mult = (xs * ws / ys).astype(np.float32).reshape(1, 4, 1, 1)
    np.testing.assert_array_equal(run(m, x, "qconv"), ref_requantize(acc, mult, yz))


def ref_requantize_ties_up(acc, m, y_zp):
    """What the single tosa.rescale computes: acc * m rounded half up."""
    r = np.floor(acc.astype(np.float64) * m.astype(np.float64) + 0.5) + int(y_zp)
    lo, hi = (0, 255) if y_zp.dtype == np.uint8 else (-128, 127)
    return np.clip(r, lo, hi).astype(y_zp.dtype)


def test_qlinear_matmul_ties_round_up(run):
    # Multiplier 0.5 makes every odd accumulator a tie: one rescale rounds
    # it up (ONNX: half to even), one LSB above ONNX on half of them.
    a = RNG.integers(-9, 9, (2, 3, 4)).astype(np.int8)
    b = RNG.integers(-9, 9, (4, 5)).astype(np.int8)
    inits = {"as": np.array(0.5, np.float32), "az": np.array(3, np.int8), "b": b,
             "bs": np.array(0.25, np.float32), "bz": np.array(-2, np.int8),
             "ys": np.array(0.25, np.float32), "yz": np.array(-1, np.int8)}
    m = model(helper.make_node("QLinearMatMul", ["x", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"]),
              a, TensorProto.INT8, inits, opset=10)
    acc = np.matmul(a.astype(np.int64) - 3, b.astype(np.int64) + 2)
    assert np.sum(acc % 2 == 1) > 5 and np.abs(acc).max() < 250  # ties, unsaturated
    got = run(m, a, "qmm")
    np.testing.assert_array_equal(got, ref_requantize_ties_up(acc, np.float32(0.5), inits["yz"]))
    onnx_ = ref_requantize(acc, np.float32(0.5), inits["yz"]).astype(np.int32)
    assert 0 < np.sum(got != onnx_) and np.abs(got.astype(np.int32) - onnx_).max() == 1


def test_matmul_and_conv_integer(run):
    a = RNG.integers(0, 256, (3, 4)).astype(np.uint8)
    b = RNG.integers(0, 256, (4, 2)).astype(np.uint8)
    m = model(helper.make_node("MatMulInteger", ["x", "b", "az", "bz"], ["y"]), a, TensorProto.INT32,
              {"b": b, "az": np.array(12, np.uint8), "bz": np.array(200, np.uint8)}, opset=10)
    want = np.matmul(a.astype(np.int32) - 12, b.astype(np.int32) - 200)
    np.testing.assert_array_equal(run(m, a, "mmi"), want)
    x = RNG.integers(-128, 128, (1, 2, 4, 4)).astype(np.int8)
    w = RNG.integers(-128, 128, (3, 2, 2, 2)).astype(np.int8)
    m = model(helper.make_node("ConvInteger", ["x", "w", "xz"], ["y"]), x, TensorProto.INT32,
              {"w": w, "xz": np.array(-7, np.int8)}, opset=10)
    np.testing.assert_array_equal(run(m, x, "convi"), ref_conv(x.astype(np.int32) + 7, w))


def test_quantized_ops_are_integer_tosa(verify):
    a = np.zeros((2, 4), np.int8)
    m = model(helper.make_node("QLinearMatMul", ["x", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"]),
              a, TensorProto.INT8, {"as": np.array(0.5, np.float32), "az": np.array(3, np.int8),
                                    "b": np.arange(12, dtype=np.int8).reshape(4, 3),
                                    "bs": np.array(0.25, np.float32), "bz": np.array(0, np.int8),
                                    "ys": np.array(0.3, np.float32), "yz": np.array(0, np.int8)}, opset=10)
    text = verify(import_model(m))
    assert "tosa.matmul" in text and "-> tensor<1x2x3xi32>" in text
    assert "tosa.rescale" in text and "rounding_mode = SINGLE_ROUND" in text


def _raw(name, elem_type, dims, raw):
    t = TensorProto()
    t.name, t.data_type, t.raw_data = name, elem_type, raw
    t.dims.extend(dims)
    return t


@pytest.mark.parametrize("elem_type,what", [(17, "float8e4m3fn"), (19, "float8e5m2"), (22, "int4"),
                                            (21, "uint4")])
def test_out_of_scope_types_name_the_node(elem_type, what):
    x = np.zeros((2, 2), np.float32)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="q8"), x, TensorProto.FLOAT,
              {"s": np.array(0.5, np.float32)}, opset=21)
    m.graph.initializer.append(_raw("z", elem_type, [], b"\x00"))
    with pytest.raises(ImportFailure, match=r"node 'q8' \(QuantizeLinear\): the zero point has element "
                                            r"type %s: .*out of scope" % what):
        import_model(m)


def test_blocked_and_saturate_name_the_node():
    x = np.zeros((2, 4), np.float32)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="qb", axis=1, block_size=2),
              x, TensorProto.INT8, {"s": np.ones((2, 2), np.float32), "z": np.zeros((2, 2), np.int8)},
              opset=21)
    with pytest.raises(ImportFailure, match=r"node 'qb' \(QuantizeLinear\): blocked quantization "
                                            r"\(block_size 2\) is out of scope"):
        import_model(m)
    # saturate concerns float8 only: named with the float8 error, ignored
    # with int8 as ONNX says.
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], name="qs", saturate=0), x,
              TensorProto.INT8, {"s": np.array(2, np.float32)}, opset=19)
    m.graph.initializer.append(_raw("z", 17, [], b"\x00"))
    with pytest.raises(ImportFailure, match=r"node 'qs' \(QuantizeLinear\): the zero point has element "
                                            r"type float8e4m3fn: .*out of scope; saturate=0 with it too"):
        import_model(m)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"], saturate=1), x, TensorProto.INT8,
              {"s": np.array(2, np.float32), "z": np.array(1, np.int8)}, opset=19)
    assert "tosa.gather" in import_model(m)


def test_runtime_scale_and_wide_weight_zero_points_name_the_node():
    x = np.zeros((4,), np.float32)
    g = helper.make_graph([helper.make_node("QuantizeLinear", ["x", "s"], ["y"], name="qs")], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
                           helper.make_tensor_value_info("s", TensorProto.FLOAT, [])],
                          [helper.make_tensor_value_info("y", TensorProto.UINT8, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    with pytest.raises(ImportFailure, match=r"node 'qs' \(QuantizeLinear\): the scale must be known"):
        import_model(m)
    x = np.zeros((1, 4, 3, 3), np.int8)
    m = model(helper.make_node("ConvInteger", ["x", "w", "xz", "wz"], ["y"], name="wz"), x, TensorProto.INT32,
              {"w": np.full((2, 4, 1, 1), -100, np.int8), "xz": np.array(0, np.int8),
               "wz": np.array([100, -100], np.int8)}, opset=10)
    with pytest.raises(ImportFailure, match=r"node 'wz' \(ConvInteger\): per-channel weight zero points "
                                            r"whose differences leave int8"):
        import_model(m)
    inits = {"xs": np.array([0.1, 0.2], np.float32), "xz": np.array(0, np.int8),
             "w": np.ones((2, 2, 1, 1), np.int8), "ws": np.array(0.5, np.float32),
             "wz": np.array(0, np.int8), "ys": np.array(1, np.float32), "yz": np.array(0, np.int8)}
    node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], name="qc")
    m = model(node, np.zeros((1, 2, 2, 2), np.int8), TensorProto.INT8, inits, opset=10)
    with pytest.raises(ImportFailure, match=r"node 'qc' \(QLinearConv\): x_scale and y_scale must be "
                                            r"per tensor"):
        import_model(m)


@pytest.mark.parametrize("group", [2, 4])
def test_grouped_and_depthwise_qlinear_conv(run, group):
    x = RNG.integers(-128, 128, (1, 4, 5, 5)).astype(np.int8)
    w = RNG.integers(-127, 128, (8, 4 // group, 3, 3)).astype(np.int8)
    bias = RNG.integers(-500, 500, (8,)).astype(np.int32)
    inits = {"xs": np.array(0.05, np.float32), "xz": np.array(6, np.int8), "w": w,
             "ws": np.array(0.004, np.float32), "wz": np.array(0, np.int8),
             "ys": np.array(0.1, np.float32), "yz": np.array(-9, np.int8), "b": bias}
    m = model(helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"], ["y"],
                               group=group, pads=[1, 1, 1, 1], strides=[2, 2]),
              x, TensorProto.INT8, inits, opset=10)
    xp = np.pad(x.astype(np.int32) - 6, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cpg, kpg = 4 // group, 8 // group
    acc = np.concatenate([ref_conv(xp[:, g * cpg:(g + 1) * cpg], w[g * kpg:(g + 1) * kpg])
                          for g in range(group)], axis=1)[:, :, ::2, ::2] + bias.reshape(1, 8, 1, 1)
    mult = (inits["xs"] * inits["ws"] / inits["ys"]).astype(np.float32)
    np.testing.assert_array_equal(run(m, x, "gconv%d" % group), ref_requantize(acc, mult, inits["yz"]))


def test_opsets_19_to_21_refuse_changed_definitions():
    # Q/DQ import at opset 21; Pad's opset-19 definition (wrap mode) does not.
    x = np.zeros((1, 2, 3, 3), np.float32)
    m = model(helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"]), x, TensorProto.UINT8,
              {"s": np.array(0.5, np.float32), "z": np.array(9, np.uint8)}, opset=21)
    assert "tosa.rescale" in import_model(m)
    m = model(helper.make_node("Pad", ["x", "p"], ["y"], name="pad19"), x, TensorProto.FLOAT,
              {"p": np.zeros((8,), np.int64)}, opset=19)
    with pytest.raises(ImportFailure, match=r"node 'pad19' \(Pad\): its definition of opset 19 "
                                            r"\(after 18\) is not supported"):
        import_model(m)


def ref_conv_f32(x, w, bias):
    n, c, h, wd = x.shape
    k, _, kh, kw = w.shape
    out = np.zeros((n, k, h - kh + 1, wd - kw + 1), np.float64)
    for i in range(out.shape[2]):
        for j in range(out.shape[3]):
            out[:, :, i, j] = np.einsum("nchw,kchw->nk", x[:, :, i:i + kh, j:j + kw].astype(np.float64), w)
    return (out + bias.reshape(1, -1, 1, 1)).astype(np.float32)


def test_qdq_conv_with_folded_per_channel_weights(run):
    # The QDQ form: Q -> DQ on the activation, DQ of int8 per-channel
    # weights (folded at import: the float Conv reads constants), Q -> DQ out.
    x = (RNG.standard_normal((1, 3, 6, 6)) * 2).astype(np.float32)
    wq = RNG.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    inits = {"xs": np.array(0.031, np.float32), "xz": np.array(-3, np.int8), "wq": wq,
             "ws": np.array([0.01, 0.02, 0.005, 0.013], np.float32), "wz": np.zeros((4,), np.int8),
             "b": RNG.standard_normal(4).astype(np.float32),
             "ys": np.array(0.07, np.float32), "yz": np.array(4, np.int8)}
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
             helper.make_node("DequantizeLinear", ["wq", "ws", "wz"], ["wd"], axis=0),
             helper.make_node("Conv", ["xd", "wd", "b"], ["c"]),
             helper.make_node("QuantizeLinear", ["c", "ys", "yz"], ["y"])]
    g = helper.make_graph(nodes, "qdq", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                          [helper.make_tensor_value_info("y", TensorProto.INT8, None)],
                          [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    xd = (ref_quantize(x, inits["xs"], inits["xz"]).astype(np.float32) + 3) * inits["xs"]
    wd = wq.astype(np.float32) * inits["ws"].reshape(4, 1, 1, 1)
    want = ref_quantize(ref_conv_f32(xd, wd, inits["b"]), inits["ys"], inits["yz"]).astype(np.int32)
    got = run(m, x, "qdq", offload=False).astype(np.int32)
    # The float Conv sums in another order than numpy: a sum that lands
    # within an ulp of a rounding tie may round the other way.
    assert np.abs(got - want).max() <= 1 and np.mean(got == want) >= 0.99
