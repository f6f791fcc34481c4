"""Quantized networks: QuantizeLinear / DequantizeLinear (QDQ form) and
QLinearConv, QLinearMatMul, ConvInteger, MatMulInteger (operator form).

Integer arithmetic is written in TOSA's quantized form: i8 operands with
zero points, i32 accumulation (tosa.conv2d, tosa.matmul) and tosa.rescale.
TOSA's integers are signed, so uint8 operands become int8 by subtracting
128 from the value and from its zero point (a rescale with input_unsigned),
which leaves every (value - zero point) unchanged.

Rounding, against ONNX's reference (onnx/reference/ops/op_*.py):
  - DequantizeLinear: (x - zp) in i32, cast to f32, times the scale in f32:
    exactly ONNX's (x.astype(f32) - zp) * scale.
  - QuantizeLinear: ONNX divides by the scale in float and rounds half to
    even. TOSA has no float division, and rint(x * fl(1 / scale)) (tosa.cast
    rounds half to even) can be one off near ties. The importer computes,
    with numpy doing ONNX's own arithmetic, the least x reaching each
    quotient -512..512 (per channel), and two tosa.gather lookups of those
    thresholds correct the estimate: exact for float32, float16 and int32.
  - QLinear*: ONNX rounds acc * fl32(a_scale * b_scale / y_scale) half to
    even. That f32 multiplier is exactly M * 2^-s with a 31-bit M, so ONE
    tosa.rescale (i32 -> i8, the form --dla-convert-tosa offloads) computes
    the product exactly in 64 bits but rounds ties up (SINGLE_ROUND): one
    LSB above ONNX on an exact tie whose lower neighbour is even, exact
    otherwise (onnxruntime, which rounds fl32(acc) * M, differs from both on
    a few near-ties). Of the node tests, test_qlinearconv and
    test_qlinearmatmul_2D/3D are exact (node-quant.test).
"""

import numpy as np

from .builder import Value
from .context import TO_NCHW, TO_NHWC, op_registry
from . import ops_math, ops_nn

OPS = {}
op = op_registry(OPS)

QRANGE = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255)}
# ONNX element types the quantization ops know but this importer does not
# quantize to: the error says they are out of scope.
OUT_OF_SCOPE_TYPES = {4: "uint16", 5: "int16", 17: "float8e4m3fn", 18: "float8e4m3fnuz",
                      19: "float8e5m2", 20: "float8e5m2fnuz", 21: "uint4", 22: "int4"}


def _i32(values):
    return np.asarray(values, dtype=np.int32).reshape(-1)


def _rescale(ctx, v, out_dtype, mult, shift, in_zp=0, out_zp=0):
    """tosa.rescale of v: ((v - in_zp) * mult >> shift, ties up) + out_zp,
    per channel (the last dimension) when mult has several entries."""
    b = ctx.b
    # Inline even per channel: --dla-convert-tosa reads them as dense elements.
    m = b.const(_i32(mult), inline=True)
    s = b.const(np.asarray(shift, dtype=np.int8).reshape(-1), inline=True)
    izp = b.const(np.asarray([in_zp], dtype=v.dtype))
    ozp = b.const(np.asarray([out_zp], dtype=out_dtype))
    attrs = ("input_unsigned = %s, output_unsigned = %s, per_channel = %s, "
             "rounding_mode = SINGLE_ROUND, scale32 = true"
             % (str(v.dtype == np.uint8).lower(), str(np.dtype(out_dtype) == np.uint8).lower(),
                str(m.shape[0] > 1).lower()))
    return b.op("tosa.rescale %s, %s, %s, %s, %s {%s} : (%s, %s, %s, %s, %s) -> $TYPE"
                % (v.name, m.name, s.name, izp.name, ozp.name, attrs, v.type, m.type, s.type,
                   izp.type, ozp.type), v.shape, out_dtype)


def _to_i32(ctx, v):
    """An integer value widened to i32 (uint8 by an unsigned rescale)."""
    if v.dtype == np.uint8:
        return _rescale(ctx, v, np.int32, [1 << 30], [30])
    return ctx.cast(v, np.int32)


def _from_i32(ctx, v, dtype):
    """An i32 value already clamped to dtype's range, narrowed to it."""
    if np.dtype(dtype) == np.uint8:
        return _rescale(ctx, v, np.uint8, [1 << 30], [30])
    return ctx.cast(v, dtype)


def _signed(ctx, v, zp):
    """(int8 operand, int8 zero point) with the same differences v - zp:
    uint8 moves down by 128. Constants stay numpy arrays."""
    zp = np.asarray(zp).astype(np.int32)
    if isinstance(v, Value):
        if v.dtype == np.uint8:
            return _rescale(ctx, v, np.int8, [1 << 30], [30], in_zp=128), zp - 128
        return v, zp
    v = np.asarray(v)
    if v.dtype == np.uint8:
        return (v.astype(np.int16) - 128).astype(np.int8), zp - 128
    return v.astype(np.int8), zp


def _check_type(ctx, i, what):
    """Out-of-scope element types (float8, int4, 16-bit) reach converters as
    markers from the importer; say so naming the node."""
    v = ctx.input(i)
    if isinstance(v, UnsupportedTensor):
        # saturate (opset 19) only means something for float8 outputs: with
        # int8 / uint8 it is ignored, as ONNX says.
        sat = "; saturate=%d with it too" % ctx.attrs["saturate"] if "saturate" in ctx.attrs else ""
        ctx.fail("%s has element type %s: only int8 and uint8 quantization is supported "
                 "(float8, int4 and 16-bit quantization are out of scope%s)" % (what, v.type_name, sat))
    return v


class UnsupportedTensor:
    """An initializer or input of an element type numpy or this importer
    cannot hold (float8, int4): kept so the consuming node's error names it."""

    def __init__(self, name, elem_type):
        self.name = name
        self.type_name = OUT_OF_SCOPE_TYPES.get(elem_type, "#%d" % elem_type)


def _const(ctx, i, what, default=None):
    _check_type(ctx, i, what)
    v = ctx.const_input(i, what)
    return default if v is None else np.asarray(v)


def _axis_shape(ctx, rank, n, axis):
    """Broadcast shape of a per-axis parameter of n entries."""
    if n == 1:
        return (1,) * rank
    axis = int(axis) % rank if rank else 0
    shape = [1] * rank
    shape[axis] = n
    return tuple(shape)


def _flat_view(ctx, x, scale, zp):
    """x as [before axis, channels, after axis] with its per-axis parameters
    shaped to match: the float arithmetic of QuantizeLinear and
    DequantizeLinear stays on the host in f32 (--dla-convert-tosa offloads
    rank-4 multiplies to the SDP in the target's precision, which is not
    ONNX's result)."""
    if scale.size == 1:
        shape = (1, 1, int(np.prod(x.shape)))
    else:
        axis = scale.shape.index(scale.size)
        if x.shape[axis] != scale.size:
            ctx.fail("%d scales for the %d entries of axis %d" % (scale.size, x.shape[axis], axis))
        shape = (int(np.prod(x.shape[:axis])), x.shape[axis], int(np.prod(x.shape[axis + 1:])))
    pshape = (1, scale.size, 1)
    return ctx.reshape(x, shape), scale.reshape(pshape), zp.reshape(pshape)


def _check_common(ctx):
    if ctx.attr("block_size", 0):
        ctx.fail("blocked quantization (block_size %d) is out of scope" % ctx.attr("block_size"))


def _qparams(ctx, scale_i, zp_i, rank, out_dtype=None):
    scale = _const(ctx, scale_i, "the scale")
    zp = _const(ctx, zp_i, "the zero point")
    if scale.ndim > 1:
        ctx.fail("blocked quantization (a scale of rank %d) is out of scope" % scale.ndim)
    if zp is not None and zp.shape != scale.shape and zp.size != scale.size:
        ctx.fail("the zero point's shape %s differs from the scale's %s" % (zp.shape, scale.shape))
    if zp is None:
        zp = np.zeros(scale.shape, out_dtype or np.uint8)
    shape = _axis_shape(ctx, rank, scale.size, ctx.attr("axis", 1))
    return scale.reshape(shape), zp.reshape(shape)


# QuantizeLinear's thresholds cover the quotients -SPAN..SPAN: beyond them
# every result saturates (|zero point| <= 255 and the range is 256 wide).
SPAN = 512


def _thresholds(ctx, scale, dtype):
    """T[c, k]: the least x (of x's type) whose ONNX quotient
    rint(x / scale[c]) is at least k - SPAN, found by bisection over the
    ordered values of the type with numpy doing ONNX's reference arithmetic
    (f32 / f32 and f16 / f16 divisions, int32 / f32 in float64). Monotone
    because the scale is positive."""
    scale = scale.reshape(-1, 1)
    if np.any(~np.isfinite(scale.astype(np.float64))) or np.any(scale <= 0):
        ctx.fail("the scale %s must be positive and finite" % scale.reshape(-1))
    n = np.arange(-SPAN, SPAN + 1, dtype=np.float64).reshape(1, -1)
    if dtype == np.int32:
        to_x = lambda k: k.astype(np.int32)
        lo, hi = -2 ** 31, 2 ** 31 - 1
    else:
        bits, sign = (np.int32, 0x7FFFFFFF) if dtype == np.float32 else (np.int16, 0x7FFF)
        inf = int(np.array(np.inf, dtype).view(bits))

        def to_x(k):  # ordered key -> value: sign-magnitude bit patterns
            mag = np.abs(k)
            return np.where(k >= 0, mag, mag | (sign + 1)).astype(np.int64).astype(
                np.uint32 if bits == np.int32 else np.uint16).view(dtype)
        lo, hi = -inf, inf
    lo = np.full(np.broadcast_shapes(scale.shape, n.shape), lo, np.int64)
    hi = np.full(lo.shape, hi, np.int64)
    sc = scale.astype(np.float32 if dtype == np.int32 else dtype)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        while np.any(hi - lo > 1):
            mid = (lo + hi) // 2
            ok = np.rint(to_x(mid) / sc) >= n
            hi, lo = np.where(ok, mid, hi), np.where(ok, lo, mid)
    t = to_x(hi)
    return t.astype(np.int32 if dtype == np.int32 else np.float32)


def _gather(ctx, table, idx):
    """table[c, idx[c, w]] of a [C, K] constant and [C, W] i32 indices."""
    values = ctx.value(table.reshape(table.shape + (1,)), "quantize_thresholds")
    g = ctx.b.op("tosa.gather %s, %s : (%s, %s) -> $TYPE" % (values.name, idx.name, values.type, idx.type),
                 idx.shape + (1,), values.dtype)
    return ctx.reshape(g, idx.shape)


@op("QuantizeLinear")
def quantize_linear(ctx):
    _check_common(ctx)
    x = _check_type(ctx, 0, "the input")
    x = x if isinstance(x, Value) else np.asarray(x)
    if x.dtype not in (np.float32, np.float16, np.int32):
        ctx.fail("input of type %s: QuantizeLinear takes float32, float16 or int32" % x.dtype)
    out = ctx.attr("output_dtype", 0)
    if out and out not in (2, 3):
        ctx.fail("output_dtype %s is out of scope (only int8 and uint8)" % OUT_OF_SCOPE_TYPES.get(out, out))
    scale, zp = _qparams(ctx, 1, 2, len(x.shape), {2: np.uint8, 3: np.int8}.get(out))
    dtype = zp.dtype
    if dtype not in QRANGE:
        ctx.fail("zero point of type %s: only int8 and uint8 quantization is supported" % dtype)
    lo, hi = QRANGE[dtype]
    if not isinstance(x, Value):
        # Folded, with the reference's arithmetic.
        with np.errstate(over="ignore", invalid="ignore"):
            q = np.rint(x / scale.astype(x.dtype if x.dtype != np.int32 else np.float32))
        return [np.clip(q + zp.astype(np.float64), lo, hi).astype(dtype)]
    shape = x.shape
    v, scale, zp = _flat_view(ctx, x, scale, zp)
    pcq = v.shape
    # Channels first, [C, W]: the layout of tosa.gather's batches.
    channels = scale.size
    v = ctx.reshape(ctx.transpose(v, (1, 0, 2)), (channels, v.shape[0] * v.shape[2]))
    table = _thresholds(ctx, scale, x.dtype)
    vf = ctx.cast(v, np.float32)
    # n0 = rint(x * fl(1 / scale)) is ONNX's rint(x / scale) or a neighbour
    # (the two quotients differ in the last bits); the thresholds of ONNX's
    # own arithmetic decide which: exact.
    recip = (np.float32(1) / scale.astype(np.float32).reshape(channels, 1)).astype(np.float32)
    y = ctx.clamp(ctx.binary("mul", vf, recip), -2.0 * SPAN, 2.0 * SPAN)
    n0 = ctx.cast(y, np.int32)  # round half to even
    idx = ctx.binary("add", ctx.clamp(n0, -SPAN, SPAN - 1), np.array(SPAN, np.int32))
    at = _gather(ctx, table, idx)
    above = _gather(ctx, table, ctx.binary("add", idx, np.array(1, np.int32)))
    cmp = v if x.dtype == np.int32 else vf
    below = ctx.binary("greater", at, cmp)  # x < T(n0): one less
    reach = ctx.binary("greater_equal", cmp, above)  # x >= T(n0 + 1): one more
    n = ctx.binary("add", ctx.binary("sub", n0, ctx.cast(below, np.int32)), ctx.cast(reach, np.int32))
    n = ctx.binary("add", n, zp.astype(np.int32).reshape(channels, 1))
    n = ctx.clamp(n, lo, hi)
    n = ctx.transpose(ctx.reshape(n, (pcq[1], pcq[0], pcq[2])), (1, 0, 2))
    # Reshaped in i32: the host lowering of tosa.reshape takes no uint8.
    return [_from_i32(ctx, ctx.reshape(n, shape), dtype)]


@op("DequantizeLinear")
def dequantize_linear(ctx):
    _check_common(ctx)
    x = _check_type(ctx, 0, "the input")
    x = x if isinstance(x, Value) else np.asarray(x)
    if x.dtype not in QRANGE and x.dtype != np.int32:
        ctx.fail("input of type %s: only int8, uint8 and int32 are supported" % x.dtype)
    scale, zp = _qparams(ctx, 1, 2, len(x.shape), x.dtype)
    out_dtype = scale.dtype if scale.dtype.kind == "f" else np.dtype(np.float32)
    if not isinstance(x, Value):
        # Folded (the weights of a QDQ model), with the reference's arithmetic:
        # the float layer that reads them sees constants.
        y = (x.astype(np.float32) - zp.astype(np.float32)) * scale.astype(np.float32)
        return [y.astype(out_dtype)]
    shape = x.shape
    d, scale, zp = _flat_view(ctx, _to_i32(ctx, x), scale, zp)
    if np.any(zp):
        d = ctx.binary("sub", d, zp.astype(np.int32))
    y = ctx.binary("mul", ctx.cast(d, np.float32), scale.astype(np.float32))
    return [ctx.reshape(ctx.cast(y, out_dtype), shape)]


def _multiplier(ctx, m):
    """f32 multipliers as (M, shift) with M * 2^-shift == m exactly."""
    m = np.asarray(m, np.float32).reshape(-1)
    if np.any(~np.isfinite(m)) or np.any(m <= 0):
        ctx.fail("the requantization scale %s must be positive and finite" % m)
    mant, exp = np.frexp(m.astype(np.float64))  # m = mant * 2^exp, mant in [0.5, 1)
    mult = np.round(mant * 2.0 ** 31).astype(np.int64)
    shift = 31 - exp
    if np.any(mult >= 2 ** 31):  # unreachable: a 24-bit mantissa
        ctx.fail("requantization scale %s has no 31-bit multiplier" % m)
    if np.any(shift < 2) or np.any(shift > 62):
        ctx.fail("requantization scale %s is outside tosa.rescale's range 2^-62 to 2^29" % m)
    return mult, shift


def _requantize(ctx, acc, m, y_zp, dtype):
    """acc * m rounded (ties up) + y_zp, saturated: ONE tosa.rescale i32 ->
    i8 (TOSA's signed form: uint8 results come out 128 lower, see
    _unsigned); m per the last dimension or per tensor."""
    mult, shift = _multiplier(ctx, m)
    zp = int(np.asarray(y_zp).reshape(-1)[0]) - (128 if np.dtype(dtype) == np.uint8 else 0)
    return _rescale(ctx, acc, np.int8, mult, shift, out_zp=zp)


def _unsigned(ctx, v, dtype):
    """An i8 value of TOSA's signed form back in dtype (uint8: 128 higher),
    through i32: the host lowering reshapes and transposes no uint8."""
    if np.dtype(dtype) != np.uint8:
        return v
    return _from_i32(ctx, ctx.binary("add", ctx.cast(v, np.int32), np.array(128, np.int32)), np.uint8)


def _operand(ctx, i, what):
    v = _check_type(ctx, i, what)
    if v is None:
        ctx.fail("%s is missing" % what)
    dtype = v.dtype if isinstance(v, Value) else np.asarray(v).dtype
    if np.dtype(dtype) not in QRANGE:
        ctx.fail("%s of type %s: only int8 and uint8 are supported" % (what, dtype))
    return v


def _zero_point(ctx, i, what, like):
    zp = _const(ctx, i, what)
    if zp is None:
        return np.zeros((), np.int32)
    dtype = like.dtype if isinstance(like, Value) else np.asarray(like).dtype
    if zp.dtype != dtype:
        ctx.fail("%s of type %s differs from its operand's %s" % (what, zp.dtype, dtype))
    return zp


def _scalar(ctx, zp, what):
    zp = np.asarray(zp).reshape(-1)
    if zp.size and np.any(zp != zp[0]):
        ctx.fail("%s must be per tensor" % what)
    return int(zp[0]) if zp.size else 0


def _conv_integer(ctx, x, x_zp, w, w_zp, bias):
    """conv(x - x_zp, w - w_zp) + bias in i32, NCHW in and out."""
    x = ctx.value(x)
    if x.rank != 4 or np.ndim(w) != 4:
        ctx.fail("only 2-D convolutions are supported")
    if isinstance(w, Value):
        ctx.fail("the weight must be known at import time (a constant)")
    xs, xzp = _signed(ctx, x, x_zp)
    ws, wzp = _signed(ctx, np.asarray(w), w_zp)
    kernels, cpg, kh, kw = ws.shape
    wzp = wzp.reshape(-1)
    if wzp.size > 1 and np.any(wzp != wzp[0]):
        # Per-channel weight zero points: subtracted now where the
        # differences stay in int8 (TOSA's weight_zp is per tensor).
        diff = ws.astype(np.int32) - wzp.reshape(-1, 1, 1, 1)
        if diff.min() < -128 or diff.max() > 127:
            ctx.fail("per-channel weight zero points whose differences leave int8 are not supported")
        ws, wzp = diff.astype(np.int8), np.zeros((1,), np.int32)
    xzp = _scalar(ctx, xzp, "the input zero point")
    wzp = int(wzp[0]) if wzp.size else 0
    group = int(ctx.attr("group", 1))
    channels = x.shape[1]
    if channels != cpg * group or kernels % group:
        ctx.fail("weight %s does not match %d input channels in %d groups" % (ws.shape, channels, group))
    strides = ctx.attr("strides", [1, 1])
    dilations = ctx.attr("dilations", [1, 1])
    pad, out, crop = ops_nn._window(ctx, x.shape, (kh, kw), strides, dilations)
    bias = np.zeros((kernels,), np.int32) if bias is None else np.asarray(bias).astype(np.int32)
    b = ctx.b
    xt = ops_nn._crop(ctx, ctx.transpose(xs, TO_NHWC), crop)
    izp = b.const(np.array([xzp], np.int8))
    kzp = b.const(np.array([wzp], np.int8))

    def conv(name, xin, wk, bias):
        wv, bv = ctx.value(wk, "weight"), ctx.value(bias, "bias")
        return b.op("tosa.%s %s, %s, %s, %s, %s {acc_type = i32, dilation = array<i64: %s>, "
                    "pad = array<i64: %s>, stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $TYPE"
                    % (name, xin.name, wv.name, bv.name, izp.name, kzp.name, ops_nn._ints(dilations),
                       ops_nn._ints(pad), ops_nn._ints(strides), xin.type, wv.type, bv.type, izp.type,
                       kzp.type), (x.shape[0], out[0], out[1], bias.shape[0]), np.int32)

    if group == 1:
        return conv("conv2d", xt, np.ascontiguousarray(ws.transpose(0, 2, 3, 1)), bias)
    if cpg == 1:
        # Depthwise: HWCM weights, output channel c * M + m reads channel c.
        hwcm = ws.reshape(channels, kernels // channels, kh, kw).transpose(2, 3, 0, 1)
        return conv("depthwise_conv2d", xt, np.ascontiguousarray(hwcm), bias)
    # Grouped: one convolution per group over its channel slice.
    kpg, parts = kernels // group, []
    for g in range(group):
        start = b.shape_value([0, 0, 0, g * cpg])
        size = b.shape_value([xt.shape[0], xt.shape[1], xt.shape[2], cpg])
        part = b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<4>, !tosa.shape<4>) -> $TYPE"
                    % (xt.name, start, size, xt.type), xt.shape[:3] + (cpg,), xt.dtype)
        wg = np.ascontiguousarray(ws[g * kpg:(g + 1) * kpg].transpose(0, 2, 3, 1))
        parts.append(conv("conv2d", part, wg, bias[g * kpg:(g + 1) * kpg]))
    y = b.op("tosa.concat %s {axis = 3 : i32} : (%s) -> $TYPE"
             % (", ".join(p.name for p in parts), ", ".join(p.type for p in parts)),
             (x.shape[0], out[0], out[1], kernels), np.int32)
    return y  # NHWC


@op("ConvInteger")
def conv_integer(ctx):
    x = _operand(ctx, 0, "the input")
    w = _operand(ctx, 1, "the weight")
    y = _conv_integer(ctx, x, _zero_point(ctx, 2, "the input zero point", x), w,
                      _zero_point(ctx, 3, "the weight zero point", w), None)
    return [ctx.transpose(y, TO_NCHW)]


@op("QLinearConv")
def qlinear_conv(ctx):
    x = _operand(ctx, 0, "the input")
    w = _operand(ctx, 3, "the weight")
    x_scale, w_scale, y_scale = (_const(ctx, i, n) for i, n in
                                 ((1, "x_scale"), (4, "w_scale"), (6, "y_scale")))
    y_zp = _zero_point(ctx, 7, "the output zero point", x)
    bias = _const(ctx, 8, "the bias")
    acc = _conv_integer(ctx, x, _zero_point(ctx, 2, "the input zero point", x), w,
                        _zero_point(ctx, 5, "the weight zero point", w), bias)
    kernels = np.shape(w)[0]
    if x_scale.size != 1 or y_scale.size != 1 or w_scale.size not in (1, kernels):
        ctx.fail("x_scale and y_scale must be per tensor and w_scale per tensor or per output "
                 "channel (%d)" % kernels)
    # ONNX's multiplier: (x_scale * w_scale) / y_scale in f32, per output channel.
    m = (x_scale.astype(np.float32).reshape(-1)[:1] * w_scale.astype(np.float32).reshape(-1)
         / y_scale.astype(np.float32).reshape(-1)[:1]).astype(np.float32)
    dtype = x.dtype if isinstance(x, Value) else np.asarray(x).dtype
    y = _requantize(ctx, acc, m, _scalar(ctx, y_zp, "the output zero point"), dtype)
    return [_unsigned(ctx, ctx.transpose(y, TO_NCHW), dtype)]


def _matmul_integer(ctx, a, a_zp, b, b_zp):
    """(a - a_zp) @ (b - b_zp) in i32 with numpy's batch broadcasting."""
    a_s, azp = _signed(ctx, a, a_zp)
    b_s, bzp = _signed(ctx, b, b_zp)
    azp = _scalar(ctx, azp, "the A zero point (per-row zero points)")
    bzp_v = np.asarray(bzp).reshape(-1)
    if bzp_v.size > 1 and np.any(bzp_v != bzp_v[0]):
        if isinstance(b_s, Value):
            ctx.fail("per-column zero points of a computed B are not supported")
        diff = b_s.astype(np.int32) - bzp_v
        if diff.min() < -128 or diff.max() > 127:
            ctx.fail("per-column B zero points whose differences leave int8 are not supported")
        b_s, bzp_v = diff.astype(np.int8), np.zeros((1,), np.int32)
    bzp = int(bzp_v[0]) if bzp_v.size else 0

    def mm3d(ctx_, x, y):
        za = ctx.b.const(np.array([azp], np.int8))
        zb = ctx.b.const(np.array([bzp], np.int8))
        shape = (x.shape[0], x.shape[1], y.shape[2])
        return ctx.b.op("tosa.matmul %s, %s, %s, %s : (%s, %s, %s, %s) -> $TYPE"
                        % (x.name, y.name, za.name, zb.name, x.type, y.type, za.type, zb.type),
                        shape, np.int32)

    return ops_math.matmul_values(ctx, a_s, b_s, mm3d)


@op("MatMulInteger")
def matmul_integer(ctx):
    a = _operand(ctx, 0, "A")
    b = _operand(ctx, 1, "B")
    return [_matmul_integer(ctx, a, _zero_point(ctx, 2, "the A zero point", a), b,
                            _zero_point(ctx, 3, "the B zero point", b))]


@op("QLinearMatMul")
def qlinear_matmul(ctx):
    a = _operand(ctx, 0, "A")
    b = _operand(ctx, 3, "B")
    a_scale, b_scale, y_scale = (_const(ctx, i, n) for i, n in
                                 ((1, "a_scale"), (4, "b_scale"), (6, "y_scale")))
    y_zp = _zero_point(ctx, 7, "the output zero point", a)
    acc = _matmul_integer(ctx, a, _zero_point(ctx, 2, "the A zero point", a), b,
                          _zero_point(ctx, 5, "the B zero point", b))
    if a_scale.size != 1 or y_scale.size != 1:
        ctx.fail("a_scale and y_scale must be per tensor")
    # ONNX's multiplier: (a_scale * b_scale) / y_scale in f32, per column of B.
    m = (a_scale.astype(np.float32).reshape(-1) * b_scale.astype(np.float32).reshape(-1)
         / y_scale.astype(np.float32).reshape(-1)).astype(np.float32)
    if m.size > 1 and m.size != acc.shape[-1]:
        ctx.fail("b_scale has %d entries for %d columns" % (m.size, acc.shape[-1]))
    dtype = a.dtype if isinstance(a, Value) else np.asarray(a).dtype
    return [_unsigned(ctx, _requantize(ctx, acc, m, _scalar(ctx, y_zp, "the output zero point"), dtype),
                      dtype)]
