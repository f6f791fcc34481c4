"""Data layout: Pad (constant / reflect / edge), DepthToSpace,
SpaceToDepth, Split, Tile, and Gather with indices computed at run time
(embedding lookups).

Constant inputs are computed with numpy; tensors become tosa.pad,
tosa.slice, tosa.reverse, tosa.concat, tosa.tile, tosa.transpose and
tosa.gather."""

import numpy as np

from .builder import Value
from .context import op_registry

OPS = {}
op = op_registry(OPS)


def _shape(v):
    return v.shape if isinstance(v, Value) else np.shape(v)


def _slice(ctx, x, begin, size):
    b = ctx.b
    return b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> $TYPE"
                % (x.name, b.shape_value(begin), b.shape_value(size), x.type, x.rank, x.rank),
                size, x.dtype)


def _axis_slice(ctx, x, axis, start, length):
    begin, size = [0] * x.rank, list(x.shape)
    begin[axis], size[axis] = start, length
    return _slice(ctx, x, begin, size)


def _concat(ctx, parts, axis):
    parts = [p for p in parts if p.shape[axis]]
    if len(parts) == 1:
        return parts[0]
    shape = list(parts[0].shape)
    shape[axis] = sum(p.shape[axis] for p in parts)
    return ctx.b.op("tosa.concat %s {axis = %d : i32} : (%s) -> $TYPE"
                    % (", ".join(p.name for p in parts), axis, ", ".join(p.type for p in parts)),
                    shape, parts[0].dtype)


def _tile(ctx, x, multiples):
    shape = [d * m for d, m in zip(x.shape, multiples)]
    return ctx.b.op("tosa.tile %s, %s : (%s, !tosa.shape<%d>) -> $TYPE"
                    % (x.name, ctx.b.shape_value(multiples), x.type, x.rank), shape, x.dtype)


def _pads(ctx, rank):
    """[begin_0, ..., begin_r-1, end_0, ..., end_r-1] (ONNX's order) and the
    constant value, from the attributes (before opset 11) or the inputs."""
    if ctx.opset < 11:
        pads = ctx.attr("pads", ctx.attr("paddings"))
        value = float(ctx.attr("value", 0.0))
        if pads is None:
            ctx.fail("the pads attribute is missing")
        pads = [int(p) for p in pads]
    else:
        pads = ctx.const_input(1, "the pads")
        if pads is None:
            ctx.fail("the pads input is missing")
        if np.asarray(pads).dtype.kind not in "iu":
            ctx.fail("the pads must be integers, not %s" % np.asarray(pads).dtype)
        pads = [int(p) for p in np.asarray(pads).reshape(-1)]
        value = ctx.const_input(2, "the constant value")
        value = 0.0 if value is None or np.size(value) == 0 else np.asarray(value).reshape(-1)[0]
        axes = ctx.const_input(3, "the axes")
        if axes is not None:
            axes = [int(a) for a in np.asarray(axes).reshape(-1)]
            if any(not -rank <= a < rank for a in axes) or len(set(a % rank for a in axes)) != len(axes):
                ctx.fail("axes %s are not distinct axes of a rank-%d input" % (axes, rank))
            if len(pads) != 2 * len(axes):
                ctx.fail("%d pads for %d axes" % (len(pads), len(axes)))
            full = [0] * (2 * rank)
            for i, a in enumerate(axes):
                full[a % rank], full[rank + a % rank] = pads[i], pads[len(axes) + i]
            pads = full
    if len(pads) != 2 * rank:
        ctx.fail("%d pads for a rank-%d input (2 per axis)" % (len(pads), rank))
    return pads, value


def _pad_axis(ctx, x, axis, begin, end, mode):
    """Reflect or edge padding of one axis: slices of x, reversed for
    reflect, concatenated around it."""
    n = x.shape[axis]
    if mode == "reflect":
        def rev(start, length):
            part = _axis_slice(ctx, x, axis, start, length)
            if length < 2:
                return part
            return ctx.b.op("tosa.reverse %s {axis = %d : i32} : (%s) -> $TYPE"
                            % (part.name, axis, part.type), part.shape, part.dtype)

        parts = [rev(1, begin)] if begin else []
        parts.append(x)
        if end:
            parts.append(rev(n - 1 - end, end))
        return _concat(ctx, parts, axis)
    reps = [1] * x.rank
    parts = []
    if begin:
        reps[axis] = begin
        parts.append(_tile(ctx, _axis_slice(ctx, x, axis, 0, 1), reps))
    parts.append(x)
    if end:
        reps[axis] = end
        parts.append(_tile(ctx, _axis_slice(ctx, x, axis, n - 1, 1), reps))
    return _concat(ctx, parts, axis)


def pad_value(ctx, x, pads, value, mode):
    """x (NCHW or any rank) padded as ONNX's Pad; negative pads crop."""
    rank = x.rank
    begin, end = pads[:rank], pads[rank:]
    if any(p < 0 for p in pads):
        start = [max(0, -p) for p in begin]
        size = [d + min(0, b) + min(0, e) for d, b, e in zip(x.shape, begin, end)]
        if any(s < 0 for s in size):
            ctx.fail("negative pads %s remove more than the input %s" % (pads, list(x.shape)))
        x = _slice(ctx, x, start, size)
        begin, end = [max(0, p) for p in begin], [max(0, p) for p in end]
    if not any(begin) and not any(end):
        return x
    if mode == "constant":
        shape = [d + b_ + e for d, b_, e in zip(x.shape, begin, end)]
        flat = [p for pair in zip(begin, end) for p in pair]
        if x.dtype.kind == "f":
            c = np.asarray([value], x.dtype)
        elif x.dtype.kind == "b":
            # ONNX's Pad takes bool data; its constant is cast as numpy casts.
            c = np.asarray([bool(value)])
        else:
            info = np.iinfo(x.dtype)
            if not info.min <= value <= info.max or value != int(value):
                ctx.fail("constant value %r does not fit %s" % (value, x.dtype))
            c = np.asarray([int(value)], x.dtype)
        cv = ctx.b.const(c)
        return ctx.b.op("tosa.pad %s, %s, %s : (%s, !tosa.shape<%d>, %s) -> $TYPE"
                        % (x.name, ctx.b.shape_value(flat), cv.name, x.type, 2 * rank, cv.type),
                        shape, x.dtype)
    for axis in range(rank):
        if begin[axis] or end[axis]:
            x = _pad_axis(ctx, x, axis, begin[axis], end[axis], mode)
    return x


@op("Pad")
def pad(ctx):
    x = ctx.input(0)
    rank = len(_shape(x))
    mode = ctx.attr("mode", "constant")
    if mode not in ("constant", "reflect", "edge"):
        ctx.fail("mode %s is not supported (constant, reflect and edge are)" % mode)
    pads, value = _pads(ctx, rank)
    for axis, (b, e) in enumerate(zip(pads[:rank], pads[rank:])):
        n = _shape(x)[axis] + min(0, b) + min(0, e)
        if mode == "reflect" and (b > 0 or e > 0) and max(b, e) >= n:
            ctx.fail("reflect pads %d, %d reach beyond axis %d of size %d" % (b, e, axis, n))
        if mode == "edge" and (b > 0 or e > 0) and n == 0:
            ctx.fail("edge padding of the empty axis %d" % axis)
    if not isinstance(x, Value):
        a = np.asarray(x)
        width = [(max(0, b), max(0, e)) for b, e in zip(pads[:rank], pads[rank:])]
        crop = tuple(slice(max(0, -b), d - max(0, -e) if e < 0 else None)
                     for b, e, d in zip(pads[:rank], pads[rank:], a.shape))
        a = a[crop]
        if mode == "constant":
            return [np.pad(a, width, mode="constant", constant_values=value)]
        return [np.pad(a, width, mode=mode)]
    if rank == 4 and not any(pads[:2] + pads[4:6]):
        # Spatial padding of a feature map: in NHWC, next to the layers.
        nhwc = [pads[0], pads[2], pads[3], pads[1], pads[4], pads[6], pads[7], pads[5]]
        return [ctx.in_nhwc([x], lambda o: pad_value(ctx, o[0], nhwc, value, mode))]
    return [pad_value(ctx, x, pads, value, mode)]


def _permute(ctx, x, shape6, perm, out):
    x = ctx.reshape(x, shape6)
    return ctx.reshape(ctx.transpose(x, perm), out)


def _blocks(ctx):
    """The rank-4 input and the blocksize of DepthToSpace / SpaceToDepth."""
    x = ctx.value(ctx.input(0))
    bs = int(ctx.attr("blocksize", 0))
    if x.rank != 4 or bs < 1:
        ctx.fail("needs a rank-4 input and a positive blocksize")
    return x, bs


@op("DepthToSpace")
def depth_to_space(ctx):
    x, bs = _blocks(ctx)
    n, c, h, w = x.shape
    if c % (bs * bs):
        ctx.fail("%d channels are not a multiple of blocksize^2 = %d" % (c, bs * bs))
    out = (n, c // (bs * bs), h * bs, w * bs)
    if ctx.attr("mode", "DCR") == "CRD":
        return [_permute(ctx, x, (n, c // (bs * bs), bs, bs, h, w), (0, 1, 4, 2, 5, 3), out)]
    if ctx.attr("mode", "DCR") != "DCR":
        ctx.fail("mode %s is not supported (DCR and CRD are)" % ctx.attr("mode"))
    return [_permute(ctx, x, (n, bs, bs, c // (bs * bs), h, w), (0, 3, 4, 1, 5, 2), out)]


@op("SpaceToDepth")
def space_to_depth(ctx):
    x, bs = _blocks(ctx)
    n, c, h, w = x.shape
    if h % bs or w % bs:
        ctx.fail("spatial size %dx%d is not a multiple of blocksize %d" % (h, w, bs))
    return [_permute(ctx, x, (n, c, h // bs, bs, w // bs, bs), (0, 3, 5, 1, 2, 4),
                     (n, c * bs * bs, h // bs, w // bs))]


@op("Split")
def split(ctx):
    x = ctx.input(0)
    shape = _shape(x)
    axis = int(ctx.attr("axis", 0))
    if not -len(shape) <= axis < len(shape):
        ctx.fail("axis %d is outside the input's rank %d" % (axis, len(shape)))
    axis %= len(shape)
    outputs = len(ctx.node.output)
    sizes = ctx.attr("split") if ctx.opset < 13 else ctx.const_input(1, "the split sizes")
    n = shape[axis]
    if sizes is None or np.size(sizes) == 0:
        parts = int(ctx.attr("num_outputs", outputs))
        if parts != outputs:
            ctx.fail("num_outputs %d differs from the %d outputs" % (parts, outputs))
        step = -(-n // parts)  # the last part may be smaller (opset 18)
        sizes = [min(step, n - i * step) for i in range(parts)]
    if np.asarray(sizes).dtype.kind not in "iu":
        ctx.fail("split sizes must be integers, not %s" % np.asarray(sizes).dtype)
    sizes = [int(s) for s in np.asarray(sizes).reshape(-1)]
    if len(sizes) != outputs or sum(sizes) != n or any(s < 0 for s in sizes):
        ctx.fail("split sizes %s do not cut axis %d of size %d into %d outputs" % (sizes, axis, n, outputs))
    starts = np.cumsum([0] + sizes[:-1])
    if not isinstance(x, Value):
        return list(np.split(np.asarray(x), np.cumsum(sizes)[:-1], axis=axis))
    if 0 in sizes or 0 in shape:
        ctx.fail("empty parts %s: TOSA has no empty tensors" % sizes)
    return [_axis_slice(ctx, x, axis, int(s), size) for s, size in zip(starts, sizes)]


@op("Tile")
def tile(ctx):
    x = ctx.input(0)
    reps = ctx.const_input(1, "the repeats")
    reps = [int(r) for r in np.asarray(reps).reshape(-1)]
    shape = _shape(x)
    if len(reps) != len(shape) or any(r < 0 for r in reps):
        ctx.fail("repeats %s do not fit a rank-%d input" % (reps, len(shape)))
    if not isinstance(x, Value):
        return [np.tile(np.asarray(x), reps)]
    return [_tile(ctx, x, reps)]


def gather_dynamic(ctx, x, idx, axis):
    """x[..., idx, ...] along `axis` for indices known only at run time:
    tosa.gather reads rows of a [1, K, C] table with [1, W] i32 indices."""
    x = ctx.value(x)
    if idx.dtype.kind not in "iu":
        ctx.fail("indices of type %s are not integers" % idx.dtype)
    k = x.shape[axis]
    if k >= 2 ** 31:
        ctx.fail("axis %d of size %d is too large for 32-bit indices" % (axis, k))
    perm = [axis] + [i for i in range(x.rank) if i != axis]
    rest = [x.shape[i] for i in perm[1:]]
    table = ctx.transpose(x, perm) if axis else x
    table = ctx.reshape(table, (1, k, int(np.prod(rest))))
    flat = ctx.reshape(ctx.cast(idx, np.int32), (1, int(np.prod(idx.shape))))
    # Negative indices count from the end.
    negative = ctx.binary("greater", np.zeros((1, 1), np.int32), flat)
    wrapped = ctx.binary("add", flat, np.full((1, 1), k, np.int32))
    flat = ctx.b.op("tosa.select %s, %s, %s : (%s, %s, %s) -> $TYPE"
                    % (negative.name, wrapped.name, flat.name, negative.type, wrapped.type, flat.type),
                    flat.shape, flat.dtype)
    rows = ctx.b.op("tosa.gather %s, %s : (%s, %s) -> $TYPE" % (table.name, flat.name, table.type, flat.type),
                    (1, flat.shape[1], table.shape[2]), x.dtype)
    y = ctx.reshape(rows, tuple(idx.shape) + tuple(rest))
    if axis:
        # Back to x's order: the index dims take axis's place.
        q = len(idx.shape)
        order = list(range(q, q + axis)) + list(range(q)) + list(range(q + axis, q + len(rest)))
        y = ctx.transpose(y, order)
    return y
