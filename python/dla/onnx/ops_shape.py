"""Shapes and data movement: Reshape, Transpose, Flatten, Squeeze,
Unsqueeze, Slice, Concat, Gather, Shape, Constant, Identity, Resize.

`fold` evaluates a node whose inputs are all known at import time with
numpy; that is how shape subgraphs (Shape -> Gather/Slice -> Concat ->
Reshape) become constants."""

import functools
from fractions import Fraction

import numpy as np
from onnx import TensorProto, numpy_helper

from .builder import Value, onnx_dtype, round_bf16
from .context import op_registry
from . import resample
from .ops_layout import gather_dynamic
from .ops_math import matmul_values

OPS = {}
op = op_registry(OPS)


def _axes_input(ctx, position, attr="axes"):
    if ctx.opset >= 13 or (ctx.node.op_type == "Slice" and ctx.opset >= 10):
        v = ctx.const_input(position, attr)
    else:
        v = ctx.attr(attr)
    if v is None:
        return None
    v = np.asarray(v)
    if v.size and v.dtype.kind not in "iu":
        ctx.fail("%s must be integers, not %s" % (attr, v.dtype))
    return [int(a) for a in v.reshape(-1)]


def _shape_of(v):
    return v.shape if isinstance(v, Value) else np.shape(v)


def reshape_target(ctx, in_shape, target):
    target = np.asarray(target)
    if target.dtype.kind not in "iu" or target.ndim != 1:
        ctx.fail("the target shape must be a 1-D integer tensor, not %s of shape %s"
                 % (target.dtype, list(target.shape)))
    target = [int(d) for d in target]
    if any(d < -1 for d in target):
        ctx.fail("target shape %s: sizes below -1" % target)
    allow_zero = int(ctx.attr("allowzero", 0))
    if not allow_zero and any(d == 0 and i >= len(in_shape) for i, d in enumerate(target)):
        ctx.fail("target shape %s copies (0) a dimension the rank-%d input does not have"
                 % (target, len(in_shape)))
    out = [in_shape[i] if d == 0 and not allow_zero else d for i, d in enumerate(target)]
    if out.count(-1) > 1:
        ctx.fail("more than one -1 in the target shape")
    if -1 in out:
        known = int(np.prod([d for d in out if d != -1]))
        out[out.index(-1)] = int(np.prod(in_shape)) // max(known, 1)
    if int(np.prod(out)) != int(np.prod(in_shape)):
        ctx.fail("cannot reshape %s to %s" % (list(in_shape), out))
    return out


@op("Reshape")
def reshape(ctx):
    x = ctx.input(0)
    if ctx.opset < 5:
        target = ctx.attr("shape")
    else:
        target = ctx.const_input(1, "the target shape")
    out = reshape_target(ctx, _shape_of(x), target)
    if not isinstance(x, Value):
        return [np.reshape(x, out)]
    return [ctx.reshape(x, out)]


@op("Flatten")
def flatten(ctx):
    x = ctx.input(0)
    shape = _shape_of(x)
    axis = int(ctx.attr("axis", 1))
    axis = axis + len(shape) if axis < 0 else axis  # in [-r, r]
    out = [int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))]
    return [np.reshape(x, out) if not isinstance(x, Value) else ctx.reshape(x, out)]


@op("Squeeze")
def squeeze(ctx):
    x = ctx.input(0)
    shape = list(_shape_of(x))
    axes = _axes_input(ctx, 1)
    if axes is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    axes = ctx.axes(axes, len(shape))
    if any(shape[a] != 1 for a in axes):
        ctx.fail("axes %s: dimensions of sizes %s, not 1" % (axes, [shape[a] for a in axes]))
    out = [d for i, d in enumerate(shape) if i not in axes]
    return [np.reshape(x, out) if not isinstance(x, Value) else ctx.reshape(x, out)]


@op("Unsqueeze")
def unsqueeze(ctx):
    x = ctx.input(0)
    shape = list(_shape_of(x))
    axes = _axes_input(ctx, 1)
    rank = len(shape) + len(axes)
    out = list(shape)
    for a in sorted(a % rank for a in axes):
        out.insert(a, 1)
    return [np.reshape(x, out) if not isinstance(x, Value) else ctx.reshape(x, out)]


@op("Transpose")
def transpose(ctx):
    x = ctx.input(0)
    rank = len(_shape_of(x))
    perm = [int(p) for p in ctx.attr("perm", list(reversed(range(rank))))]
    if sorted(perm) != list(range(rank)):
        ctx.fail("perm %s is not a permutation of the %d axes of its input" % (perm, rank))
    if perm == list(range(rank)):
        return [x]  # the identity (a rank-0 transpose has no TOSA form)
    if not isinstance(x, Value):
        return [np.ascontiguousarray(np.transpose(x, perm))]
    return [ctx.transpose(x, perm)]


@op("Slice")
def slice_(ctx):
    x = ctx.input(0)
    shape = list(_shape_of(x))
    if ctx.opset < 10:
        starts, ends = ctx.attr("starts"), ctx.attr("ends")
        axes, steps = ctx.attr("axes"), None
    else:
        given = {}
        for i, name in enumerate(("starts", "ends", "axes", "steps"), start=1):
            v = ctx.const_input(i, name)
            if v is not None and np.ndim(v) != 1:
                ctx.fail("%s must be a 1-D tensor, not of shape %s" % (name, list(np.shape(v))))
            given[name] = None if v is None else v.tolist()
        starts, ends, axes, steps = given["starts"], given["ends"], given["axes"], given["steps"]
        if starts is None or ends is None:
            ctx.fail("starts and ends are required")
    for name, v in (("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)):
        if v is not None and np.asarray(v).size and np.asarray(v).dtype.kind not in "iu":
            ctx.fail("%s must be integers, not %s" % (name, np.asarray(v).dtype))
    steps = [1] * len(starts) if steps is None else steps
    if axes is not None and any(not -len(shape) <= int(a) < len(shape) for a in axes):
        ctx.fail("axes %s are outside the input's rank %d" % (list(axes), len(shape)))
    axes = list(range(len(starts))) if axes is None else [int(a) % len(shape) for a in axes]
    if not len(starts) == len(ends) == len(axes) == len(steps) or len(set(axes)) != len(axes):
        ctx.fail("starts %s, ends %s, axes %s and steps %s do not pair up"
                 % (list(starts), list(ends), axes, list(steps)))
    if any(int(st) == 0 for st in steps):
        ctx.fail("steps %s: a step of 0" % list(steps))
    index = [slice(None)] * len(shape)
    for a, s, e, st in zip(axes, starts, ends, steps):
        index[a] = slice(*slice(int(s), int(e), int(st)).indices(shape[a]))
    if not isinstance(x, Value):
        return [np.ascontiguousarray(np.asarray(x)[tuple(index)])]
    # Unit steps are one tosa.slice; other steps gather their elements.
    picked = [np.arange(*i.indices(d)) for i, d in zip(index, shape)]
    if any(p.size == 0 for p in picked):
        ctx.fail("an empty result (shape %s): TOSA has no empty tensors" % [p.size for p in picked])
    begin, size, strided = [], [], []
    for a, (i, p) in enumerate(zip(index, picked)):
        unit = i.step == 1
        begin.append(int(p[0]) if unit else 0)
        size.append(p.size if unit else shape[a])
        if not unit:
            strided.append(a)
    b = ctx.b
    y = x
    if begin != [0] * len(shape) or size != shape:
        y = b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> $TYPE"
                 % (x.name, b.shape_value(begin), b.shape_value(size), x.type, len(shape), len(shape)),
                 size, x.dtype)
    for a in strided:
        y = gather_dynamic(ctx, y, ctx.value(picked[a].astype(np.int32)), a)
    return [y]


@op("Concat")
def concat(ctx):
    vals = [v for v in ctx.inputs if v is not None]
    rank = len(_shape_of(vals[0]))
    axis = int(ctx.attr("axis", 0))
    if not -rank <= axis < rank:
        ctx.fail("axis %d is outside the input's rank %d" % (axis, rank))
    if any(len(_shape_of(v)) != rank for v in vals):
        ctx.fail("inputs of ranks %s" % [len(_shape_of(v)) for v in vals])
    axis %= rank
    if all(not isinstance(v, Value) for v in vals):
        return [np.concatenate([np.asarray(v) for v in vals], axis=axis)]
    dtype = next(v.dtype for v in vals if isinstance(v, Value))
    vals = [ctx.value(np.asarray(v, dtype)) if not isinstance(v, Value) else v for v in vals]
    vals = [v for v in vals if v.shape[axis] != 0]
    shape = list(vals[0].shape)
    shape[axis] = sum(v.shape[axis] for v in vals)
    if len(vals) == 1:
        return [vals[0]]
    return [ctx.b.op("tosa.concat %s {axis = %d : i32} : (%s) -> $TYPE"
                     % (", ".join(v.name for v in vals), axis, ", ".join(v.type for v in vals)),
                     shape, dtype)]


@op("Gather")
def gather(ctx):
    x, idx = ctx.input(0), ctx.input(1)
    shape = list(_shape_of(x))
    axis = int(ctx.attr("axis", 0))
    if not -len(shape) <= axis < len(shape):
        ctx.fail("axis %d is outside the input's rank %d" % (axis, len(shape)))
    axis %= len(shape)
    if isinstance(idx, Value):
        return [gather_dynamic(ctx, x, idx, axis)]
    idx = np.asarray(idx).astype(np.int64)
    if idx.size and (idx.min() < -shape[axis] or idx.max() >= shape[axis]):
        ctx.fail("indices %s are outside axis %d of size %d"
                 % (idx.reshape(-1)[:8].tolist(), axis, shape[axis]))
    idx = np.where(idx < 0, idx + shape[axis], idx)
    if not isinstance(x, Value):
        return [np.take(np.asarray(x), idx, axis=axis)]
    b = ctx.b
    parts = []
    for i in idx.reshape(-1):
        begin = [0] * len(shape)
        begin[axis] = int(i)
        size = list(shape)
        size[axis] = 1
        parts.append(b.op("tosa.slice %s, %s, %s : (%s, !tosa.shape<%d>, !tosa.shape<%d>) -> $TYPE"
                          % (x.name, b.shape_value(begin), b.shape_value(size), x.type, len(shape), len(shape)),
                          size, x.dtype))
    y = parts[0]
    if len(parts) > 1:
        cat_shape = list(shape)
        cat_shape[axis] = len(parts)
        y = b.op("tosa.concat %s {axis = %d : i32} : (%s) -> $TYPE"
                 % (", ".join(p.name for p in parts), axis, ", ".join(p.type for p in parts)), cat_shape, x.dtype)
    out = shape[:axis] + list(idx.shape) + shape[axis + 1:]
    return [ctx.reshape(y, out)]


@op("Shape")
def shape(ctx):
    s = np.asarray(_shape_of(ctx.input(0)), dtype=np.int64)
    start, end = ctx.attr("start", 0), ctx.attr("end", None)
    return [s[start:end]]


@op("Constant")
def constant(ctx):
    if "value" in ctx.attrs:
        return [numpy_helper.to_array(ctx.attrs["value"])]
    for key, dtype in (("value_float", np.float32), ("value_int", np.int64)):
        if key in ctx.attrs:
            return [np.asarray(ctx.attrs[key], dtype)]
    for key, dtype in (("value_floats", np.float32), ("value_ints", np.int64)):
        if key in ctx.attrs:
            return [np.asarray(ctx.attrs[key], dtype)]
    ctx.fail("only value, value_float(s) and value_int(s) constants are supported")


@op("ConstantOfShape")
def constant_of_shape(ctx):
    s = ctx.const_input(0, "the shape")
    value = numpy_helper.to_array(ctx.attrs["value"]) if "value" in ctx.attrs else np.zeros((1,), np.float32)
    return [np.full([int(d) for d in s], value.reshape(-1)[0], dtype=value.dtype)]


@op("Identity", "Dropout")
def identity(ctx):
    if ctx.node.op_type == "Dropout":
        training = ctx.input(2)
        if isinstance(training, Value):
            ctx.fail("training_mode must be known at import time")
        ratio = ctx.input(1)
        ratio = 0.5 if ratio is None or isinstance(ratio, Value) else float(np.asarray(ratio).reshape(-1)[0])
        if training is not None and bool(np.asarray(training).reshape(-1)[0]) and ratio != 0.0:
            ctx.fail("training mode (random dropout) is not supported")
    outs = [ctx.input(0)]
    if ctx.node.op_type == "Dropout" and len(ctx.node.output) > 1 and ctx.node.output[1]:
        outs.append(np.ones(_shape_of(ctx.input(0)), np.bool_))
    return outs


def _linear_axis(ctx, coord, size, out, ratio):
    """TOSA (n, d, offset, border) of one axis: TOSA reads source coordinate
    (o * d + offset) / n; ONNX's is o / r (asymmetric), o * (in - 1) /
    (size * r - 1) (align_corners) or (o + 1/2) / r - 1/2 (half pixel) = (2 o d +
    d - n) / 2n for r = n / d. Both clamp at the edges."""
    if out == 1 and coord in ("align_corners", "pytorch_half_pixel"):
        n, d, offset = 1, 1, 0  # ONNX reads coordinate 0
    elif coord == "align_corners":
        # ONNX's resized length is size * scale, not floored.
        q = (ratio * size - 1) / max(size - 1, 1)
        n, d, offset = q.numerator, q.denominator, 0
    elif coord == "asymmetric":
        n, d, offset = ratio.numerator, ratio.denominator, 0
    else:
        n, d = 2 * ratio.numerator, 2 * ratio.denominator
        offset = ratio.denominator - ratio.numerator
    # TOSA: out = ((in - 1) * n - offset + border) / d + 1.
    border = (out - 1) * d - (size - 1) * n + offset
    return n, d, offset, border


# The largest interpolation matrix a linear / cubic Resize axis is written
# with (16 Mi entries, 32 MiB in f16 after the import's 128 MiB of f64).
MAX_MATRIX = 1 << 24


@op("Resize", "Upsample")
def resize(ctx):
    x = ctx.value(ctx.input(0))
    mode = ctx.attr("mode", "nearest")
    roi = None
    if ctx.node.op_type == "Upsample" or ctx.opset < 11:
        scales = ctx.attr("scales") if ctx.opset < 9 else ctx.const_input(1, "scales")
        sizes = None
    else:
        roi, scales, sizes = (ctx.const_input(i, "roi/scales/sizes") for i in (1, 2, 3))
        if scales is not None and np.size(scales) == 0:
            scales = None
    if sizes is None and scales is None:
        ctx.fail("neither scales nor sizes is given")
    if int(ctx.attr("antialias", 0)) or ctx.attr("axes") is not None or \
            ctx.attr("keep_aspect_ratio_policy", "stretch") != "stretch":
        ctx.fail("antialias, axes and keep_aspect_ratio_policy (opset 18) are not supported")
    given = np.asarray(sizes if sizes is not None else scales, dtype=np.float64).reshape(-1)
    if given.size != x.rank or not np.all(np.isfinite(given)) or np.any(given <= 0):
        ctx.fail("%s %s: %d positive finite values expected"
                 % ("sizes" if sizes is not None else "scales", given.tolist(), x.rank))
    if sizes is not None:
        out = [int(d) for d in given]
        factors = [o / i for o, i in zip(out, x.shape)]
    else:
        out = [int(np.floor(d * float(s))) for d, s in zip(x.shape, given)]
        factors = [float(s) for s in given]
    if any(o < 1 for o in out):
        ctx.fail("an output of shape %s: TOSA has no empty tensors" % out)
    coord = ctx.attr("coordinate_transformation_mode", "half_pixel" if ctx.opset >= 11 else "asymmetric")
    nearest = ctx.attr("nearest_mode", "round_prefer_floor" if ctx.opset >= 11 else "floor")
    if mode not in ("nearest", "linear", "cubic"):
        ctx.fail("Resize mode %s is not supported" % mode)
    if coord not in resample.COORDINATE_MODES or nearest not in resample.NEAREST_MODES:
        ctx.fail("coordinate_transformation_mode %s / nearest_mode %s is not supported" % (coord, nearest))
    tosa_mode = _tosa_resize_mode(ctx, x, out, mode, coord, nearest)
    if tosa_mode is None:
        return [_resize_by_matrices(ctx, x, out, factors, sizes is not None, mode, coord, nearest, roi)]
    ih, iw, oh, ow = x.shape[2], x.shape[3], out[2], out[3]
    # TOSA: out = ((in - 1) * n - offset + border) / d + 1 with scale
    # [y_n, y_d, x_n, x_d] = [out, in, ...] and offset 0 (asymmetric).
    scale = [oh, ih, ow, iw]
    # TOSA's nearest rounds the source coordinate out * in / out_size half
    # up; ONNX's cases above floor it: an offset of -floor(n / 2) turns the
    # rounding into a floor. Bilinear reads the exact coordinate.
    offset = [-(oh // 2), -(ow // 2)] if tosa_mode == "NEAREST_NEIGHBOR" else [0, 0]
    border = [(oh - 1) * ih - (ih - 1) * oh + offset[0], (ow - 1) * iw - (iw - 1) * ow + offset[1]]
    if tosa_mode == "BILINEAR":
        axes = []
        for i in (2, 3):
            ratio = Fraction(out[i], x.shape[i]) if scales is None else \
                Fraction(float(scales[i])).limit_denominator(1 << 10)
            axes.append(_linear_axis(ctx, coord, x.shape[i], out[i], ratio))
        scale = [axes[0][0], axes[0][1], axes[1][0], axes[1][1]]
        offset = [axes[0][2], axes[1][2]]
        border = [axes[0][3], axes[1][3]]
    b = ctx.b
    xt = ctx.transpose(x, (0, 2, 3, 1))
    # TOSA's integer bilinear (an i8 map, qdq_fusion.py): an i32 result,
    # the interpolation times the scales' numerators.
    wide = tosa_mode == "BILINEAR" and x.dtype == np.int8
    y = b.op("tosa.resize %s, %s, %s, %s {mode = %s} : (%s, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> $TYPE"
             % (xt.name, b.shape_value(scale), b.shape_value(offset), b.shape_value(border), tosa_mode, xt.type),
             (x.shape[0], oh, ow, x.shape[1]), np.int32 if wide else x.dtype)
    if wide:
        y.unit = scale[0] * scale[2]
        return [y]  # NHWC, for the rescale that follows
    return [ctx.transpose(y, (0, 3, 1, 2))]


def _tosa_resize_mode(ctx, x, out, mode, coord, nearest):
    """TOSA's resize mode when tosa.resize computes this Resize, else None:
    a rank-4 input scaled in height and width only, nearest with floor
    rounding of asymmetric coordinates or integer upsampling of half-pixel
    ones, or linear in four of the coordinate modes."""
    if x.rank != 4 or out[:2] != list(x.shape[:2]):
        return None
    if mode == "nearest":
        integer_up = all(o % i == 0 for o, i in zip(out[2:], x.shape[2:]))
        # Integer upsampling reads input floor(out / s) under asymmetric +
        # floor and under half_pixel + round_prefer_*: TOSA's nearest.
        floor_like = coord == "asymmetric" and nearest == "floor"
        half_like = (coord in ("half_pixel", "pytorch_half_pixel") and integer_up and
                     nearest in ("round_prefer_floor", "round_prefer_ceil"))
        return "NEAREST_NEIGHBOR" if floor_like or half_like else None
    if mode == "linear" and coord in ("asymmetric", "align_corners", "half_pixel", "pytorch_half_pixel"):
        return "BILINEAR"
    return None


def _resize_by_matrices(ctx, x, out, factors, sizes, mode, coord, nearest, roi):
    """A Resize tosa.resize cannot compute (cubic, the other coordinate and
    rounding modes, any axis): per resized axis, nearest gathers its
    elements and linear / cubic is a constant interpolation matrix
    (dla/onnx/resample.py) applied as a matrix product; then the
    extrapolation value where tf_crop_and_resize reads outside."""
    if x.dtype.kind != "f" and mode != "nearest":
        ctx.fail("%s Resize in mode %s / %s is not supported (float inputs are)" % (x.dtype, mode, coord))
    rank = x.rank
    if int(np.prod(np.asarray(out, np.float64))) >= 2 ** 31:
        ctx.fail("an output of shape %s: sizes out of range" % out)
    if roi is not None and np.size(roi):
        roi = np.asarray(roi, np.float64).reshape(-1)
        if roi.size != 2 * rank or not np.all(np.isfinite(roi)):
            ctx.fail("roi %s: %d finite values expected" % (roi.tolist(), 2 * rank))
    elif coord == "tf_crop_and_resize":
        ctx.fail("tf_crop_and_resize needs a roi")
    cubic_a = float(ctx.attr("cubic_coeff_a", -0.75))
    exclude = bool(ctx.attr("exclude_outside", 0))
    fill = ctx.value(np.full((1,) * rank, float(ctx.attr("extrapolation_value", 0.0)), x.dtype))
    y = x
    for axis in range(rank):
        window = (roi[axis], roi[axis + rank]) if coord == "tf_crop_and_resize" else (0.0, 1.0)
        length = out[axis] if sizes else x.shape[axis] * factors[axis]
        idx, coeffs, outside = resample.axis_taps(x.shape[axis], out[axis], factors[axis], coord, mode, nearest,
                                                  cubic_a, exclude, window, length)
        pick = idx[np.arange(idx.shape[0]), np.argmax(coeffs, axis=1)]
        exact = np.all(coeffs.max(axis=1) == 1.0) and np.all(np.count_nonzero(coeffs, axis=1) == 1)
        if out[axis] == x.shape[axis] and exact and np.array_equal(pick, np.arange(out[axis])) \
                and not outside.any():
            continue  # this axis is not resized
        if mode == "nearest" or exact:
            # One input element per output: a gather, exact for every value.
            y = gather_dynamic(ctx, y, ctx.value(pick.astype(np.int32)), axis)
        else:
            if out[axis] * x.shape[axis] > MAX_MATRIX:
                ctx.fail("a %s Resize of axis %d from %d to %d needs a %d x %d interpolation matrix (at most "
                         "%d entries)" % (mode, axis, x.shape[axis], out[axis], out[axis], x.shape[axis],
                                          MAX_MATRIX))
            y = _along_axis(ctx, y, axis, resample.dense(idx, coeffs, x.shape[axis]))
        if outside.any():
            mask = ctx.value(outside.reshape([-1 if a == axis else 1 for a in range(rank)]))
            y = ctx.b.op("tosa.select %s, %s, %s : (%s, %s, %s) -> $TYPE"
                         % (mask.name, fill.name, y.name, mask.type, fill.type, y.type), y.shape, y.dtype)
    return y


def _along_axis(ctx, v, axis, m):
    """sum over i of m[o, i] * v[..., i, ...] along `axis`: a matrix product
    with that axis last."""
    rank = len(v.shape)
    perm = [a for a in range(rank) if a != axis] + [axis]
    moved = v if axis == rank - 1 else ctx.transpose(v, perm)
    rows = int(np.prod(moved.shape[:-1]))
    flat = ctx.reshape(moved, (1, rows, moved.shape[-1]))
    y = matmul_values(ctx, flat, np.ascontiguousarray(m.T[None]).astype(v.dtype))
    y = ctx.reshape(y, moved.shape[:-1] + (m.shape[0],))
    if axis == rank - 1:
        return y
    back = [perm.index(a) for a in range(rank)]
    return ctx.transpose(y, back)


# Numpy evaluation of nodes whose inputs are all constants (beyond the ones
# above, which handle constants themselves).
_FOLDERS = {
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply,
    "Div": lambda a, b: (a / b) if np.asarray(a).dtype.kind == "f" else np.floor_divide(a, b).astype(np.asarray(a).dtype),
    "Equal": np.equal, "Less": np.less, "Greater": np.greater, "Not": np.logical_not,
    "Floor": np.floor, "Ceil": np.ceil, "Sqrt": np.sqrt, "Neg": np.negative, "Abs": np.abs,
    "Where": np.where,
    # Variadic: folded left to right.
    "Max": lambda *a: functools.reduce(np.maximum, a), "Min": lambda *a: functools.reduce(np.minimum, a),
    "Sum": lambda *a: functools.reduce(np.add, a),
    "Mean": lambda *a: functools.reduce(np.add, a) / len(a),
}
# The operators fold() evaluates.
FOLDED = set(_FOLDERS) | {"Cast", "Range"}


def fold(node, inputs, attrs):
    """The outputs of `node` computed with numpy, or None if it cannot fold."""
    if node.op_type == "Cast":
        out = np.asarray(inputs[0]).astype(onnx_dtype(attrs["to"]))
        return [round_bf16(out) if attrs["to"] == TensorProto.BFLOAT16 else out]
    if node.op_type == "Range":
        s, l, d = (np.asarray(v).item() for v in inputs)
        return [np.arange(s, l, d, dtype=np.asarray(inputs[0]).dtype)]
    fn = _FOLDERS.get(node.op_type)
    if fn is None:
        return None
    out = fn(*[np.asarray(v) for v in inputs])
    dtype = np.asarray(inputs[0]).dtype if node.op_type not in ("Equal", "Less", "Greater", "Not", "Where") else None
    out = np.asarray(out)
    return [out.astype(dtype) if dtype is not None else out]
