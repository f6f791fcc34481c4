"""Convolutions, pooling, batch-norm, LRN: the layers of convolutional nets.

Each is written in NHWC between two transposes (TOSA's convolution and
pooling ops are NHWC); the transposes between consecutive layers cancel.
"""

import numpy as np

from .builder import Value
from .context import TO_NCHW, TO_NHWC, Context, op_registry
from . import windows_extra

OPS = {}
op = op_registry(OPS)


def _as_2d(ctx):
    """A 1-D window's attributes as the 2-D window of height 1."""
    attrs = ctx.attrs
    out = dict(attrs)
    for key, n in (("kernel_shape", 1), ("strides", 1), ("dilations", 1), ("output_padding", 1),
                   ("pads", 2), ("output_shape", 1)):
        if key not in attrs:
            continue
        if not isinstance(attrs[key], (list, tuple)) or \
                not all(isinstance(v, (int, np.integer)) for v in attrs[key]):
            ctx.fail("attribute '%s' is not a list of integers" % key)
        values = list(attrs[key])
        if len(values) != n:
            ctx.fail("%s has %d values for a 1-D window (%d expected)" % (key, len(values), n))
        pad = 1 if key in ("kernel_shape", "strides", "dilations", "output_shape") else 0
        out[key] = [0, values[0], 0, values[1]] if key == "pads" else [pad] + values
    return out


def windows_1d(fn):
    """Runs a 2-D window converter on a 1-D window (N, C, L) as the
    (N, C, 1, L) one with a kernel of height 1 (weights too)."""
    def convert(ctx):
        x = ctx.input(0)
        if not isinstance(x, Value) or x.rank != 3:
            return fn(ctx)
        inputs = [ctx.reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2]))]
        for v in ctx.inputs[1:2]:
            inputs.append(v if v is None or isinstance(v, Value) or np.ndim(v) != 3
                          else np.expand_dims(v, 2))
        inputs += list(ctx.inputs[2:])
        lifted = Context(ctx.b, ctx.node, inputs, ctx.opset)
        lifted.attrs = _as_2d(ctx)
        return [y if not isinstance(y, Value) else ctx.reshape(y, (y.shape[0], y.shape[1], y.shape[3]))
                for y in fn(lifted)]
    return convert


def _window(ctx, x_shape, kernel, strides, dilations, ceil_mode=False):
    """TOSA [begin, end] pads per spatial axis and output sizes for a 2-D
    (or 3-D) window, ONNX pads/auto_pad applied. TOSA wants (in - 1 + pads -
    (k - 1) * d) divisible by the stride: padding that no window reaches is
    dropped."""
    spatial = x_shape[2:]
    n = len(spatial)
    pads = list(ctx.attr("pads", [0] * (2 * n)))
    auto = ctx.attr("auto_pad", "NOTSET")
    if auto in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0] * (2 * n)
        for i in range(n):
            out = -(-spatial[i] // strides[i])
            total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1 - spatial[i])
            small, big = total // 2, total - total // 2
            pads[i], pads[i + n] = (small, big) if auto == "SAME_UPPER" else (big, small)
    elif auto == "VALID":
        pads = [0] * (2 * n)
    elif auto != "NOTSET":
        ctx.fail("auto_pad %s is not supported" % auto)
    if len(pads) != 2 * n or len(kernel) != n:
        ctx.fail("only 1-D, 2-D and 3-D windows are supported")
    tosa_pad, out, crop = [], [], []
    for i in range(n):
        begin, end = pads[i], pads[i + n]
        span = spatial[i] + begin + end - (kernel[i] - 1) * dilations[i] - 1
        if span < 0:
            ctx.fail("the window does not fit the padded input")
        count = span // strides[i] + 1
        if ceil_mode and span % strides[i]:
            count += 1
            # ONNX drops a last window that starts in the end padding.
            if (count - 1) * strides[i] >= spatial[i] + begin:
                count -= 1
        end += (count - 1) * strides[i] - span  # exact fit: drops or adds end padding
        # Rows no window reaches beyond the padding are cropped off the input.
        crop.append(max(0, -end))
        tosa_pad += [begin, max(0, end)]
        out.append(count)
    return tosa_pad, out, crop


def _crop(ctx, xt, crop):
    """Drops trailing rows / columns (/ planes) of a channels-last value that
    no window reads."""
    if not any(crop):
        return xt
    rank = len(xt.shape)
    shape = (xt.shape[0],) + tuple(d - c for d, c in zip(xt.shape[1:-1], crop)) + (xt.shape[-1],)
    start = ctx.b.shape_value([0] * rank)
    size = ctx.b.shape_value(shape)
    return ctx.b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> $TYPE"
                    % (xt.name, start, size, xt.type, rank, rank), shape, xt.dtype)


def _ints(xs):
    return ", ".join(str(int(v)) for v in xs)


def _conv2d(ctx, x, weight_ohwi, bias, pad, strides, dilations, out_hw):
    b = ctx.b
    w = ctx.value(weight_ohwi, "weight")
    bv = ctx.value(bias, "bias")
    zp = b.zero_point(x.dtype)
    shape = (x.shape[0], out_hw[0], out_hw[1], weight_ohwi.shape[0])
    return b.op("tosa.conv2d %s, %s, %s, %s, %s {acc_type = %s, dilation = array<i64: %s>, "
                "pad = array<i64: %s>, stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $TYPE"
                % (x.name, w.name, bv.name, zp.name, zp.name, "f32" if x.dtype == np.float32 else "f16",
                   _ints(dilations), _ints(pad), _ints(strides), x.type, w.type, bv.type, zp.type,
                   zp.type), shape, x.dtype)


@op("Conv")
@windows_1d
def conv(ctx):
    x = ctx.value(ctx.input(0))
    w = ctx.const_input(1, "the weight")
    bias = ctx.const_input(2, "the bias")
    if x.rank not in (4, 5) or w.ndim != x.rank:
        ctx.fail("only 1-D, 2-D and 3-D convolutions are supported")
    if x.dtype not in (np.float32, np.float16):
        ctx.fail("%s inputs are not supported (integer convolutions are QLinearConv, ConvInteger "
                 "or QuantizeLinear / DequantizeLinear pairs)" % x.dtype)
    w = w.astype(x.dtype)
    if x.rank == 5:
        return [windows_extra.conv3d(ctx, x, w, bias)]
    kernels, cpg, kh, kw = w.shape
    group = int(ctx.attr("group", 1))
    channels = x.shape[1]
    if channels != cpg * group or kernels % group:
        ctx.fail("weight %s does not match %d input channels in %d groups" % (w.shape, channels, group))
    strides = ctx.attr("strides", [1, 1])
    dilations = ctx.attr("dilations", [1, 1])
    pad, out, crop = _window(ctx, x.shape, (kh, kw), strides, dilations)
    bias = np.zeros((kernels,), x.dtype) if bias is None else bias.astype(x.dtype)
    xt = _crop(ctx, ctx.transpose(x, TO_NHWC), crop)
    b = ctx.b
    if group == 1:
        y = _conv2d(ctx, xt, np.ascontiguousarray(w.transpose(0, 2, 3, 1)), bias, pad, strides,
                    dilations, out)
    elif cpg == 1:
        # Depthwise: HWCM weights, output channel c * M + m reads channel c.
        mult = kernels // channels
        hwcm = np.ascontiguousarray(w.reshape(channels, mult, kh, kw).transpose(2, 3, 0, 1))
        wv, bv, zp = ctx.value(hwcm, "weight"), ctx.value(bias, "bias"), b.zero_point(x.dtype)
        y = b.op("tosa.depthwise_conv2d %s, %s, %s, %s, %s {acc_type = %s, dilation = array<i64: %s>, "
                 "pad = array<i64: %s>, stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $TYPE"
                 % (xt.name, wv.name, bv.name, zp.name, zp.name, "f32" if x.dtype == np.float32 else "f16",
                    _ints(dilations), _ints(pad), _ints(strides), xt.type, wv.type, bv.type, zp.type,
                    zp.type), (x.shape[0], out[0], out[1], kernels), x.dtype)
    else:
        # Grouped: one convolution per group over its channel slice.
        kpg = kernels // group
        parts = []
        for g in range(group):
            start = b.shape_value([0, 0, 0, g * cpg])
            size = b.shape_value([xt.shape[0], xt.shape[1], xt.shape[2], cpg])
            part = b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<4>, !tosa.shape<4>) -> $TYPE"
                        % (xt.name, start, size, xt.type), (xt.shape[0], xt.shape[1], xt.shape[2], cpg),
                        x.dtype)
            wg = np.ascontiguousarray(w[g * kpg:(g + 1) * kpg].transpose(0, 2, 3, 1))
            parts.append(_conv2d(ctx, part, wg, bias[g * kpg:(g + 1) * kpg], pad, strides, dilations, out))
        shape = (x.shape[0], out[0], out[1], kernels)
        y = b.op("tosa.concat %s {axis = 3 : i32} : (%s) -> $TYPE"
                 % (", ".join(p.name for p in parts), ", ".join(p.type for p in parts)), shape, x.dtype)
    return [ctx.transpose(y, TO_NCHW)]


def transpose_pads(ctx, x_spatial, kernel, strides):
    """ConvTranspose's [begin..., end...] pads and output_padding for a
    (dilated) kernel's spatial sizes: from pads, or from output_shape /
    auto_pad (ONNX: total = s * (in - 1) + extra + k - out; a negative
    total means extra rows at the end, where floor division puts them)."""
    n = len(kernel)
    auto = ctx.attr("auto_pad", "NOTSET")
    if auto not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        ctx.fail("auto_pad %s is not supported" % auto)
    pads = list(ctx.attr("pads", [0] * (2 * n)))
    extra = list(ctx.attr("output_padding", [0] * n))
    target = ctx.attr("output_shape")
    if target is None and auto in ("SAME_UPPER", "SAME_LOWER"):
        target = [x_spatial[i] * strides[i] for i in range(n)]
    if auto == "VALID":
        pads = [0] * (2 * n)
    if target is not None:
        target = list(target)[-n:]
        for i, k in enumerate(kernel):
            total = strides[i] * (x_spatial[i] - 1) + extra[i] + k - int(target[i])
            if auto == "SAME_UPPER":
                pads[i], pads[i + n] = total // 2, total - total // 2
            else:
                pads[i], pads[i + n] = total - total // 2, total // 2
    return pads, extra


@op("ConvTranspose")
@windows_1d
def conv_transpose(ctx):
    x = ctx.value(ctx.input(0))
    w = ctx.const_input(1, "the weight")
    bias = ctx.const_input(2, "the bias")
    if x.rank not in (4, 5) or w.ndim != x.rank:
        ctx.fail("only 1-D, 2-D and 3-D transposed convolutions are supported")
    if x.dtype not in (np.float32, np.float16):
        ctx.fail("%s inputs are not supported (float32 and float16 are)" % x.dtype)
    if int(ctx.attr("group", 1)) != 1:
        ctx.fail("grouped transposed convolutions are not supported")
    if x.rank == 5:
        return [windows_extra.conv_transpose3d(ctx, x, w, bias)]
    dilations = list(ctx.attr("dilations", [1, 1]))
    if dilations != [1, 1]:
        # A dilated kernel is the kernel with d - 1 zeros between its taps.
        cin, cout, kh, kw = w.shape
        dilated = np.zeros((cin, cout, (kh - 1) * dilations[0] + 1, (kw - 1) * dilations[1] + 1), w.dtype)
        dilated[:, :, ::dilations[0], ::dilations[1]] = w
        w = dilated
    cin, cout, kh, kw = w.shape
    strides = ctx.attr("strides", [1, 1])
    pads, extra = transpose_pads(ctx, x.shape[2:], (kh, kw), strides)
    # ONNX: out = s * (in - 1) + extra + k - begin - end; TOSA out_pad is
    # added to (in - 1) * s + k on each side.
    out_pad = [-pads[0], -pads[2] + extra[0], -pads[1], -pads[3] + extra[1]]
    oh = (x.shape[2] - 1) * strides[0] + out_pad[0] + out_pad[1] + kh
    ow = (x.shape[3] - 1) * strides[1] + out_pad[2] + out_pad[3] + kw
    b = ctx.b
    xt = ctx.transpose(x, TO_NHWC)
    wv = ctx.value(np.ascontiguousarray(w.astype(x.dtype).transpose(1, 2, 3, 0)), "weight")
    bv = ctx.value(np.zeros((cout,), x.dtype) if bias is None else bias.astype(x.dtype), "bias")
    zp = b.zero_point(x.dtype)
    y = b.op("tosa.transpose_conv2d %s, %s, %s, %s, %s {acc_type = %s, out_pad = array<i64: %s>, "
             "stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $TYPE"
             % (xt.name, wv.name, bv.name, zp.name, zp.name, "f32" if x.dtype == np.float32 else "f16",
                _ints(out_pad), _ints(strides), xt.type, wv.type, bv.type, zp.type, zp.type),
             (x.shape[0], oh, ow, cout), x.dtype)
    return [ctx.transpose(y, TO_NCHW)]


def pool2d(ctx, kind, xt, kernel, strides, pad, out):
    """TOSA's max_pool2d / avg_pool2d of an NHWC value."""
    b = ctx.b
    shape = (xt.shape[0], out[0], out[1], xt.shape[3])
    attrs = "kernel = array<i64: %s>, pad = array<i64: %s>, stride = array<i64: %s>" % (
        _ints(kernel), _ints(pad), _ints(strides))
    if kind == "max":
        return b.op("tosa.max_pool2d %s {%s} : (%s) -> $TYPE" % (xt.name, attrs, xt.type), shape, xt.dtype)
    zp = b.zero_point(xt.dtype)
    return b.op("tosa.avg_pool2d %s, %s, %s {acc_type = %s, %s} : (%s, %s, %s) -> $TYPE"
                % (xt.name, zp.name, zp.name, "f32" if xt.dtype.kind == "f" else "i32", attrs, xt.type,
                   zp.type, zp.type), shape, xt.dtype)


def _pool(ctx, kind, x, kernel, strides, pad, out, crop=(0, 0)):
    xt = _crop(ctx, ctx.transpose(x, TO_NHWC), crop)
    return ctx.transpose(pool2d(ctx, kind, xt, kernel, strides, pad, out), TO_NCHW)


@op("MaxPool", "AveragePool")
@windows_1d
def pool(ctx):
    x = ctx.value(ctx.input(0))
    if x.rank not in (4, 5):
        ctx.fail("only 1-D, 2-D and 3-D pooling is supported")
    if len(ctx.node.output) > 1 and ctx.node.output[1]:
        ctx.fail("the Indices output is not supported")
    if x.dtype.kind == "u":
        ctx.fail("unsigned %s pooling is not supported (TOSA's integers are signed)" % x.dtype)
    spatial = x.rank - 2
    kernel = ctx.attr("kernel_shape")
    strides = ctx.attr("strides", [1] * spatial)
    dilations = list(ctx.attr("dilations", [1] * spatial))
    kind = "max" if ctx.node.op_type == "MaxPool" else "avg"
    include_pad = kind == "avg" and bool(ctx.attr("count_include_pad", 0))
    pad, out, crop = _window(ctx, x.shape, kernel, strides, dilations, bool(ctx.attr("ceil_mode", 0)))
    if dilations != [1] * spatial:
        if spatial != 2:
            ctx.fail("dilated 3-D pooling is not supported")
        if x.dtype.kind != "f":
            ctx.fail("dilated %s pooling is not supported (float inputs are)" % x.dtype)
        return [windows_extra.dilated_pool2d(ctx, kind, x, kernel, strides, dilations, pad, out, crop,
                                             include_pad)]
    if include_pad and any(pad):
        # Padding counts: pad with zeros first, then average unpadded.
        b = ctx.b
        padded = x.shape[:2] + tuple(d + pad[2 * i] + pad[2 * i + 1] for i, d in enumerate(x.shape[2:]))
        p = b.shape_value([0, 0, 0, 0] + list(pad))
        zero = b.const(np.zeros((1,), x.dtype))
        x = b.op("tosa.pad %s, %s, %s : (%s, !tosa.shape<%d>, %s) -> $TYPE"
                 % (x.name, p, zero.name, x.type, 2 * x.rank, zero.type), padded, x.dtype)
        pad = [0] * (2 * spatial)
    if any(p >= kernel[i // 2] for i, p in enumerate(pad)):
        ctx.fail("padding as large as the window is not supported")
    if spatial == 3:
        return [windows_extra.pool3d(ctx, kind, x, kernel, strides, pad, out, crop)]
    return [_pool(ctx, kind, x, kernel, strides, pad, out, crop)]


@op("GlobalAveragePool", "GlobalMaxPool")
@windows_1d
def global_pool(ctx):
    x = ctx.value(ctx.input(0))
    if x.rank != 4:
        ctx.fail("only 1-D and 2-D pooling is supported")
    kind = "avg" if ctx.node.op_type == "GlobalAveragePool" else "max"
    return [_pool(ctx, kind, x, x.shape[2:], [1, 1], [0, 0, 0, 0], [1, 1])]


@op("BatchNormalization")
def batch_norm(ctx):
    x = ctx.input(0)
    if int(ctx.attr("training_mode", 0)) or any(ctx.node.output[1:]):
        ctx.fail("training mode (batch statistics, running-mean outputs) is not supported")
    stats = [ctx.const_input(i, "the statistics") for i in range(1, 5)]
    if any(v is None for v in stats):
        ctx.fail("scale, B, mean and var are all required")
    scale, bias, mean, var = (np.asarray(v, np.float64) for v in stats)
    channels = x.shape[1] if len(x.shape) > 1 else None
    if any(np.shape(v) != (channels,) for v in (scale, bias, mean, var)):
        ctx.fail("scale, B, mean and var of shapes %s for %s channels"
                 % ([list(np.shape(v)) for v in (scale, bias, mean, var)], channels))
    eps = float(ctx.attr("epsilon", 1e-5))
    a = scale / np.sqrt(var + eps)
    c = bias - mean * a
    shape = (1, -1) + (1,) * (x.rank - 2)
    a = a.astype(x.dtype).reshape(shape)
    c = c.astype(x.dtype).reshape(shape)
    return [ctx.in_nhwc([x, a, c], lambda o: ctx.binary("add", ctx.binary("mul", o[0], o[1]), o[2]))]


@op("LRN")
def lrn(ctx):
    # y = x / (bias + alpha / size * sum of x^2 over size channels)^beta; the
    # channel window sum is a 1x1 convolution with a band matrix.
    x = ctx.value(ctx.input(0))
    size = int(ctx.attr("size"))
    if x.dtype not in (np.float32, np.float16):
        ctx.fail("%s inputs are not supported (float32 and float16 are)" % x.dtype)
    if x.rank != 4 or size < 1:
        ctx.fail("needs a rank-4 input and a positive size (size %d, rank %d)" % (size, x.rank))
    alpha, beta, bias = (float(ctx.attr(k, d)) for k, d in (("alpha", 1e-4), ("beta", 0.75), ("bias", 1.0)))
    channels = x.shape[1]
    band = np.zeros((channels, 1, 1, channels), x.dtype)
    lo, hi = (size - 1) // 2, -(-(size - 1) // 2)
    for o in range(channels):
        band[o, 0, 0, max(0, o - lo):min(channels, o + hi + 1)] = alpha / size
    xt = ctx.transpose(x, TO_NHWC)
    sq = ctx.binary("mul", xt, xt)
    s = _conv2d(ctx, sq, band, np.zeros((channels,), x.dtype), [0, 0, 0, 0], [1, 1], [1, 1], xt.shape[1:3])
    d = ctx.binary("pow", ctx.binary("add", s, np.array(bias, x.dtype)), np.array(beta, x.dtype))
    y = ctx.binary("mul", xt, ctx.unary("reciprocal", d))
    return [ctx.transpose(y, TO_NCHW)]
