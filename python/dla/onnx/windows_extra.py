"""The windows TOSA has no single op for, written with the ops it has:
3-D convolutions (tosa.conv3d, grouped by channel slices), 3-D transposed
convolutions (a convolution of the zero-inserted input), 3-D pooling
(two 2-D poolings: over height and width, then over depth) and dilated
2-D pooling (undilated pooling on phase grids, interleaved). None of these runs on NVDLA; they stay on the
host.
"""

import numpy as np

from . import ops_nn

TO_NDHWC = (0, 2, 3, 4, 1)
# A dilated window whose dilation the stride does not cover is pooled
# once per phase grid; a bound keeps the module (and the import) small.
MAX_PHASE_GRIDS = 1024
TO_NCDHW = (0, 4, 1, 2, 3)


def _float_acc(dtype):
    return "f32" if dtype == np.float32 else "f16"


def conv3d(ctx, x, w, bias):
    """Conv of a rank-5 input: NDHWC, weights [O, KD, KH, KW, I]."""
    kernels, cpg = w.shape[:2]
    group = int(ctx.attr("group", 1))
    channels = x.shape[1]
    if channels != cpg * group or kernels % group:
        ctx.fail("weight %s does not match %d input channels in %d groups" % (w.shape, channels, group))
    strides = ctx.attr("strides", [1, 1, 1])
    dilations = ctx.attr("dilations", [1, 1, 1])
    pad, out, crop = ops_nn._window(ctx, x.shape, w.shape[2:], strides, dilations)
    bias = np.zeros((kernels,), x.dtype) if bias is None else bias.astype(x.dtype)
    b = ctx.b
    xt = ops_nn._crop(ctx, ctx.transpose(x, TO_NDHWC), crop)
    kpg = kernels // group
    parts = []
    for g in range(group):
        part = xt
        if group > 1:
            size = list(xt.shape[:4]) + [cpg]
            part = b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<5>, !tosa.shape<5>) -> $TYPE"
                        % (xt.name, b.shape_value([0, 0, 0, 0, g * cpg]), b.shape_value(size), xt.type),
                        size, x.dtype)
        wv = ctx.value(np.ascontiguousarray(w[g * kpg:(g + 1) * kpg].transpose(0, 2, 3, 4, 1)), "weight")
        bv = ctx.value(bias[g * kpg:(g + 1) * kpg], "bias")
        zp = b.zero_point(x.dtype)
        parts.append(b.op(
            "tosa.conv3d %s, %s, %s, %s, %s {acc_type = %s, dilation = array<i64: %s>, "
            "pad = array<i64: %s>, stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $TYPE"
            % (part.name, wv.name, bv.name, zp.name, zp.name, _float_acc(x.dtype), ops_nn._ints(dilations),
               ops_nn._ints(pad), ops_nn._ints(strides), part.type, wv.type, bv.type, zp.type, zp.type),
            (x.shape[0], out[0], out[1], out[2], kpg), x.dtype))
    y = parts[0]
    if group > 1:
        y = b.op("tosa.concat %s {axis = 4 : i32} : (%s) -> $TYPE"
                 % (", ".join(p.name for p in parts), ", ".join(p.type for p in parts)),
                 (x.shape[0], out[0], out[1], out[2], kernels), x.dtype)
    return ctx.transpose(y, TO_NCDHW)


def conv_transpose3d(ctx, x, w, bias):
    """ConvTranspose of a rank-5 input as a convolution: the input with
    s - 1 zeros between its elements, padded by (k - 1) * d less the pads,
    convolved with the kernel flipped and its channel axes swapped."""
    cin, cout = w.shape[:2]
    strides = ctx.attr("strides", [1, 1, 1])
    dilations = ctx.attr("dilations", [1, 1, 1])
    span = [(k - 1) * d + 1 for k, d in zip(w.shape[2:], dilations)]
    pads, extra = ops_nn.transpose_pads(ctx, x.shape[2:], span, strides)
    edges, crop, out = [0, 0], [], []
    for i in range(3):
        begin, end = span[i] - 1 - pads[i], span[i] - 1 - pads[i + 3] + extra[i]
        edges += [max(begin, 0), max(end, 0)]
        crop.append((max(-begin, 0), max(-end, 0)))
        out.append((x.shape[2 + i] - 1) * strides[i] + 1 + begin + end - span[i] + 1)
    if any(o < 1 for o in out):
        ctx.fail("the pads leave no output %s" % out)
    xt = ctx.transpose(x, TO_NDHWC)
    for axis, s in enumerate(strides, start=1):
        xt = _zero_insert(ctx, xt, axis, s)
    xt = _pad(ctx, xt, edges + [0, 0], 0.0)
    if any(c for pair in crop for c in pair):
        start = [0] + [c[0] for c in crop] + [0]
        size = [xt.shape[0]] + [xt.shape[1 + i] - sum(crop[i]) for i in range(3)] + [xt.shape[4]]
        xt = _slice(ctx, xt, start, size)
    weight = np.ascontiguousarray(w[:, :, ::-1, ::-1, ::-1].transpose(1, 2, 3, 4, 0).astype(x.dtype))
    bias = np.zeros((cout,), x.dtype) if bias is None else bias.astype(x.dtype)
    b = ctx.b
    wv, bv, zp = ctx.value(weight, "weight"), ctx.value(bias, "bias"), b.zero_point(x.dtype)
    y = b.op("tosa.conv3d %s, %s, %s, %s, %s {acc_type = %s, dilation = array<i64: %s>, "
             "pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (%s, %s, %s, %s, %s) -> $TYPE"
             % (xt.name, wv.name, bv.name, zp.name, zp.name, _float_acc(x.dtype), ops_nn._ints(dilations),
                xt.type, wv.type, bv.type, zp.type, zp.type), (x.shape[0], out[0], out[1], out[2], cout),
             x.dtype)
    return ctx.transpose(y, TO_NCDHW)


def _zero_insert(ctx, v, axis, s):
    """s - 1 zeros between consecutive elements of `axis`."""
    if s == 1 or v.shape[axis] == 1:
        return v
    length = v.shape[axis]
    v = ctx.reshape(v, list(v.shape[:axis + 1]) + [1] + list(v.shape[axis + 1:]))
    pads = [0] * (2 * len(v.shape))
    pads[2 * (axis + 1) + 1] = s - 1
    v = _pad(ctx, v, pads, 0.0)
    merged = list(v.shape[:axis]) + [length * s] + list(v.shape[axis + 2:])
    v = ctx.reshape(v, merged)
    size = list(merged)
    size[axis] = (length - 1) * s + 1
    return _slice(ctx, v, [0] * len(merged), size)


def pool3d(ctx, kind, x, kernel, strides, pad, out, crop):
    """A 3-D window's pooling as two 2-D ones: height and width of every
    depth plane, then depth. The window is a box, so its maximum is the
    maximum of the planes' maxima, and its count of real (unpadded)
    elements is the product of the axes' counts: the mean of the planes'
    means is the window's mean."""
    n, c = x.shape[:2]
    xt = ops_nn._crop(ctx, ctx.transpose(x, TO_NDHWC), crop)
    d, h, w = xt.shape[1:4]
    planes = ctx.reshape(xt, (n * d, h, w, c))
    y = ops_nn.pool2d(ctx, kind, planes, kernel[1:], strides[1:], pad[2:], out[1:])
    y = ctx.reshape(y, (n, d, out[1] * out[2], c))
    y = ops_nn.pool2d(ctx, kind, y, (kernel[0], 1), (strides[0], 1), pad[:2] + [0, 0], (out[0], out[1] * out[2]))
    return ctx.transpose(ctx.reshape(y, (n, out[0], out[1], out[2], c)), TO_NCDHW)


def _slice(ctx, v, start, size):
    b = ctx.b
    rank = len(v.shape)
    return b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> $TYPE"
                % (v.name, b.shape_value(start), b.shape_value(size), v.type, rank, rank), size, v.dtype)


def _pad(ctx, v, pads, fill):
    """tosa.pad of `v` by [begin, end] per axis with the value `fill`."""
    if not any(pads):
        return v
    b = ctx.b
    shape = [d + pads[2 * i] + pads[2 * i + 1] for i, d in enumerate(v.shape)]
    value = b.const(np.full((1,), fill, v.dtype))
    return b.op("tosa.pad %s, %s, %s : (%s, !tosa.shape<%d>, %s) -> $TYPE"
                % (v.name, b.shape_value(pads), value.name, v.type, 2 * len(v.shape), value.type),
                shape, v.dtype)


def _phase(ctx, v, axis, d, r, fill):
    """Elements r, r + d, r + 2d, ... of `axis`: the axis padded to a multiple
    of d, split into (length / d, d), and the r-th column taken."""
    length = v.shape[axis]
    if d == 1:
        return v
    extra = -length % d
    pads = [0] * (2 * len(v.shape))
    pads[2 * axis + 1] = extra
    v = _pad(ctx, v, pads, fill)
    split = list(v.shape[:axis]) + [v.shape[axis] // d, d] + list(v.shape[axis + 1:])
    v = ctx.reshape(v, split)
    start = [0] * len(split)
    start[axis + 1] = r
    size = list(split)
    size[axis + 1] = 1
    v = _slice(ctx, v, start, size)
    return ctx.reshape(v, split[:axis + 1] + split[axis + 2:])


def _interleave(ctx, parts, axis, out, fill):
    """Output positions j, j + g, j + 2g, ... come from parts[j]: each padded
    to the longest, stacked on a new axis after `axis`, merged, cropped."""
    if len(parts) == 1:
        return parts[0]
    longest = max(p.shape[axis] for p in parts)
    lifted = []
    for p in parts:
        pads = [0] * (2 * len(p.shape))
        pads[2 * axis + 1] = longest - p.shape[axis]
        p = _pad(ctx, p, pads, fill)
        lifted.append(ctx.reshape(p, list(p.shape[:axis + 1]) + [1] + list(p.shape[axis + 1:])))
    shape = list(lifted[0].shape)
    shape[axis + 1] = len(parts)
    y = ctx.b.op("tosa.concat %s {axis = %d : i32} : (%s) -> $TYPE"
                 % (", ".join(p.name for p in lifted), axis + 1, ", ".join(p.type for p in lifted)),
                 shape, parts[0].dtype)
    merged = shape[:axis] + [longest * len(parts)] + shape[axis + 2:]
    y = ctx.reshape(y, merged)
    size = list(merged)
    size[axis] = out
    return _slice(ctx, y, [0] * len(merged), size)


def _groups(s, d, out):
    """A dilated window axis of stride s and dilation d as g = d / gcd(s, d)
    undilated ones: output j + g * m (m = 0, 1, ...) starts at padded
    position (j + g * m) * s, which is element (j * s) // d + m * (g * s / d)
    of phase (j * s) % d. [(phase, first, count)] and the stride g * s / d."""
    g = d // np.gcd(s, d)
    return [((j * s) % d, (j * s) // d, -(-(out - j) // g)) for j in range(min(g, out))], g * s // d


def dilated_pool2d(ctx, kind, x, kernel, strides, dilations, pad, out, crop, include_pad):
    """A dilated 2-D window as undilated ones on phase grids (space to batch):
    for each phase of the output positions, the input elements its windows
    read form a strided sub-grid, pooled without dilation; the phases'
    results are interleaved back. The average is the sum over the count of
    real elements (with count_include_pad, those inside the explicit pads)."""
    xt = ops_nn._crop(ctx, ctx.transpose(x, ops_nn.TO_NHWC), crop)
    n, h, w, c = xt.shape
    fill = -np.inf if kind == "max" else 0.0
    xp = _pad(ctx, xt, [0, 0, pad[0], pad[1], pad[2], pad[3], 0, 0], fill)
    rows, row_step = _groups(strides[0], dilations[0], out[0])
    cols, col_step = _groups(strides[1], dilations[1], out[1])
    if len(rows) * len(cols) > MAX_PHASE_GRIDS:
        ctx.fail("dilations %s with strides %s need %d phase grids (at most %d are written)"
                 % (list(dilations), list(strides), len(rows) * len(cols), MAX_PHASE_GRIDS))
    row_parts = []
    for r, first_r, count_r in rows:
        grid_r = _phase(ctx, xp, 1, dilations[0], r, fill)
        col_parts = []
        for q, first_q, count_q in cols:
            grid = _phase(ctx, grid_r, 2, dilations[1], q, fill)
            size = [n, (count_r - 1) * row_step + kernel[0], (count_q - 1) * col_step + kernel[1], c]
            window = _slice(ctx, grid, [0, first_r, first_q, 0], size)
            col_parts.append(ops_nn.pool2d(ctx, kind, window, kernel, (row_step, col_step), (0, 0, 0, 0),
                                     (count_r, count_q)))
        row_parts.append(_interleave(ctx, col_parts, 2, out[1], fill))
    y = _interleave(ctx, row_parts, 1, out[0], fill)
    if kind == "avg":
        # avg_pool2d divided each window by the kernel's size; the count of
        # the positions that count (the input, or with count_include_pad
        # also the explicit pads, never the extra end rows ceil_mode reads).
        inside = np.zeros(xp.shape[1:3], np.float64)
        if include_pad:
            ends = list(ctx.attr("pads", [0, 0, pad[1], pad[3]]))[2:]
            inside[:pad[0] + h + min(pad[1], ends[0]), :pad[2] + w + min(pad[3], ends[1])] = 1
        else:
            inside[pad[0]:pad[0] + h, pad[2]:pad[2] + w] = 1
        count = np.zeros(out, np.float64)
        for i in range(kernel[0]):
            r = i * dilations[0]
            for j in range(kernel[1]):
                s = j * dilations[1]
                count += inside[r:r + (out[0] - 1) * strides[0] + 1:strides[0],
                                s:s + (out[1] - 1) * strides[1] + 1:strides[1]]
        scale = kernel[0] * kernel[1] / np.maximum(count, 1)
        y = ctx.binary("mul", y, scale.astype(x.dtype).reshape(1, out[0], out[1], 1))
    return ctx.transpose(y, ops_nn.TO_NCHW)
