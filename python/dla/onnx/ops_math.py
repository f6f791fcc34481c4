"""Element-wise arithmetic, activations, reductions, Softmax, Gemm/MatMul.

Element-wise ops on rank-4 feature maps are written in NHWC (see
Context.in_nhwc) so that the accelerator's SDP patterns see TOSA's layout.
"""

import numpy as np
from onnx import TensorProto

from .builder import Value, onnx_dtype
from .context import F32_MAX, op_registry

OPS = {}
op = op_registry(OPS)


def _dtype(ctx):
    for v in ctx.inputs:
        if isinstance(v, Value):
            return v.dtype
    return np.dtype(np.float32)


@op("Add", "Sub", "Mul", "Div", "Pow")
def arithmetic(ctx):
    a, b = ctx.input(0), ctx.input(1)
    name = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Pow": "pow"}[ctx.node.op_type]
    dtype = _dtype(ctx)
    if dtype.kind == "u":
        ctx.fail("unsigned %s arithmetic is not supported (TOSA's integers are signed)" % dtype)
    if name == "div":
        if dtype.kind != "f":
            ctx.fail("integer division of tensors is not supported")
        if isinstance(b, Value):
            def fn(o):
                return ctx.binary("mul", o[0], ctx.unary("reciprocal", ctx.value(o[1])))
            return [ctx.in_nhwc([a, b], fn)]
        name, b = "mul", (1.0 / np.asarray(b, dtype=np.float64)).astype(dtype)
    if name == "pow" and not isinstance(b, Value):
        b = np.asarray(b, dtype=dtype)
    if name == "pow" and isinstance(b, Value) and isinstance(a, Value) and b.dtype != a.dtype:
        b = ctx.cast(b, a.dtype)
    if name == "sub" and not isinstance(b, Value) and dtype.kind == "f":
        name, b = "add", -np.asarray(b, dtype=dtype)
    return [ctx.in_nhwc([a, b], lambda o: ctx.binary(name, o[0], o[1]))]


@op("Relu")
def relu(ctx):
    x = ctx.input(0)
    hi = F32_MAX if x.dtype == np.float32 else float(np.finfo(np.float16).max)
    return [ctx.in_nhwc([x], lambda o: ctx.clamp(o[0], 0.0, hi))]


@op("Clip")
def clip(ctx):
    x = ctx.input(0)
    if ctx.opset < 11:
        lo, hi = ctx.attr("min", -np.inf), ctx.attr("max", np.inf)
    else:
        lo = ctx.const_input(1, "min")
        hi = ctx.const_input(2, "max")
        for name, bound in (("min", lo), ("max", hi)):
            if bound is not None and np.size(bound) != 1:
                ctx.fail("%s has %d values, a bound is one" % (name, np.size(bound)))
        lo = -np.inf if lo is None else float(np.asarray(lo).reshape(-1)[0])
        hi = np.inf if hi is None else float(np.asarray(hi).reshape(-1)[0])
    if np.isnan(lo) or np.isnan(hi):
        ctx.fail("the bounds [%s, %s] hold NaN" % (lo, hi))
    if not isinstance(x, Value):
        return [np.clip(np.asarray(x), lo, hi).astype(np.asarray(x).dtype)]
    if x.dtype.kind not in "fiu":
        ctx.fail("clipping %s values is not supported" % x.dtype)
    info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
    big = float(info.max)
    if x.dtype.kind != "f":
        lo, hi = max(float(lo), float(info.min)), min(float(hi), big)
        return [ctx.clamp(ctx.value(x), int(lo), int(hi))]
    lo, hi = max(float(lo), -big), min(float(hi), big)
    return [ctx.in_nhwc([x], lambda o: ctx.clamp(o[0], lo, hi))]


@op("LeakyRelu")
def leaky_relu(ctx):
    x = ctx.input(0)
    alpha = np.asarray(ctx.attr("alpha", 0.01), dtype=x.dtype)
    fn = "maximum" if alpha <= 1 else "minimum"
    return [ctx.in_nhwc([x], lambda o: ctx.binary(fn, o[0], ctx.binary("mul", o[0], alpha)))]


@op("PRelu")
def prelu(ctx):
    x, slope = ctx.input(0), ctx.input(1)
    xs = x.shape if isinstance(x, Value) else np.shape(x)
    ss = slope.shape if isinstance(slope, Value) else np.shape(slope)
    if len(ss) == 1 and len(xs) > 2 and ss[0] == xs[1] != xs[-1] and ss[0] != 1:
        # PRelu-6 and older took one slope per channel (axis 1); PyTorch
        # exports them so and onnx.version_converter keeps the shape.
        slope = ctx.reshape(slope, (ss[0],) + (1,) * (len(xs) - 2)) if isinstance(slope, Value) \
            else np.reshape(slope, (ss[0],) + (1,) * (len(xs) - 2))

    def fn(o):
        v, s = o
        zero = np.zeros((1,) * v.rank, v.dtype)
        keep = ctx.binary("greater_equal", v, zero)
        neg = ctx.binary("mul", v, s)
        return ctx.b.op("tosa.select %s, %s, %s : (%s, %s, %s) -> $TYPE"
                        % (keep.name, v.name, neg.name, keep.type, v.type, neg.type), v.shape, v.dtype)

    return [ctx.in_nhwc([x, slope], fn)]


def _hard_sigmoid(ctx, v, alpha, beta):
    y = ctx.binary("add", ctx.binary("mul", v, np.asarray(alpha, v.dtype)), np.asarray(beta, v.dtype))
    return ctx.clamp(y, 0.0, 1.0)


@op("HardSigmoid")
def hard_sigmoid(ctx):
    x = ctx.input(0)
    alpha, beta = float(ctx.attr("alpha", 0.2)), float(ctx.attr("beta", 0.5))
    return [ctx.in_nhwc([x], lambda o: _hard_sigmoid(ctx, o[0], alpha, beta))]


@op("HardSwish")
def hard_swish(ctx):
    x = ctx.input(0)
    return [ctx.in_nhwc([x], lambda o: ctx.binary("mul", o[0], _hard_sigmoid(ctx, o[0], 1 / 6, 0.5)))]


@op("Sigmoid", "Tanh", "Exp", "Abs", "Neg", "Reciprocal", "Floor", "Ceil", "Erf", "Log")
def unary(ctx):
    name = {"Sigmoid": "sigmoid", "Tanh": "tanh", "Exp": "exp", "Abs": "abs", "Neg": "negate",
            "Reciprocal": "reciprocal", "Floor": "floor", "Ceil": "ceil", "Erf": "erf",
            "Log": "log"}[ctx.node.op_type]
    x = ctx.value(ctx.input(0))
    if name == "negate":
        zp = ctx.b.zero_point(x.dtype)
        return [ctx.b.op("tosa.negate %s, %s, %s : (%s, %s, %s) -> $TYPE"
                         % (x.name, zp.name, zp.name, x.type, zp.type, zp.type), x.shape, x.dtype)]
    return [ctx.unary(name, x)]


@op("Sqrt")
def sqrt(ctx):
    x = ctx.value(ctx.input(0))
    return [ctx.binary("pow", x, np.asarray(0.5, x.dtype))]


@op("Cast")
def cast(ctx):
    x = ctx.value(ctx.input(0))
    to = onnx_dtype(ctx.attr("to"))
    if ctx.attr("to") == TensorProto.BFLOAT16:
        # Computed in float32 (onnx_dtype): rounded to bfloat16's values.
        x = ctx.cast(x, np.float32)
        bf16 = x.type.replace("xf32>", "xbf16>").replace("<f32>", "<bf16>")
        t = ctx.b.op("tosa.cast %s : (%s) -> %s" % (x.name, x.type, bf16), x.shape, np.float32)
        return [ctx.b.op("tosa.cast %s : (%s) -> $TYPE" % (t.name, bf16), x.shape, np.float32)]
    return [ctx.cast(x, to)]


def reduce_axes(ctx, name, v, axes):
    for axis in sorted(axes):
        shape = list(v.shape)
        shape[axis] = 1
        v = ctx.b.op("tosa.reduce_%s %s {axis = %d : i32} : (%s) -> $TYPE" % (name, v.name, axis, v.type),
                     shape, v.dtype)
    return v


def _axes(ctx, rank, position=1):
    axes = ctx.attr("axes")
    if axes is None and ctx.input(position) is not None:
        axes = ctx.const_input(position, "axes").tolist()
    if axes is None or np.size(axes) == 0:
        # Omitted or empty axes reduce everything, unless (opset 13+)
        # noop_with_empty_axes makes the node an identity.
        axes = [] if int(ctx.attr("noop_with_empty_axes", 0)) else list(range(rank))
    return sorted(ctx.axes(axes, rank))


@op("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin")
def reduce(ctx):
    x = ctx.value(ctx.input(0))
    position = 1 if (ctx.node.op_type == "ReduceSum" and ctx.opset >= 13) or ctx.opset >= 18 else 99
    axes = _axes(ctx, x.rank, position)
    name = {"ReduceMean": "sum", "ReduceSum": "sum", "ReduceMax": "max", "ReduceMin": "min"}[ctx.node.op_type]
    y = reduce_axes(ctx, name, x, axes)
    if ctx.node.op_type == "ReduceMean":
        count = int(np.prod([x.shape[a] for a in axes]))
        y = ctx.binary("mul", y, np.asarray(1.0 / count, x.dtype))
    if not int(ctx.attr("keepdims", 1)):
        y = ctx.reshape(y, [d for i, d in enumerate(x.shape) if i not in axes])
    return [y]


def softmax_axes(ctx, rank):
    """The axes Softmax / LogSoftmax normalize over: before opset 13 all
    from `axis` on (the input flattened to 2-D there)."""
    axis = int(ctx.attr("axis", -1 if ctx.opset >= 13 else 1))
    if not -rank <= axis < rank:
        ctx.fail("axis %d is outside the input's rank %d" % (axis, rank))
    axis %= rank
    return [axis] if ctx.opset >= 13 else list(range(axis, rank))


@op("Softmax")
def softmax(ctx):
    x = ctx.value(ctx.input(0))
    axes = softmax_axes(ctx, x.rank)
    shifted = ctx.binary("sub", x, reduce_axes(ctx, "max", x, axes))
    e = ctx.unary("exp", shifted)
    return [ctx.binary("mul", e, ctx.unary("reciprocal", reduce_axes(ctx, "sum", e, axes)))]


def _matmul3d(ctx, a, b):
    zp = ctx.b.zero_point(a.dtype)
    shape = (a.shape[0], a.shape[1], b.shape[2])
    return ctx.b.op("tosa.matmul %s, %s, %s, %s : (%s, %s, %s, %s) -> $TYPE"
                    % (a.name, b.name, zp.name, zp.name, a.type, b.type, zp.type, zp.type), shape, a.dtype)


def matmul_values(ctx, a, b, mm3d=None):
    """numpy matmul semantics for rank >= 2 (and 1-D operands); mm3d(ctx, a, b)
    writes the rank-3 product (the quantized importers pass their own)."""
    dtype = a.dtype if isinstance(a, Value) else b.dtype
    ash = a.shape if isinstance(a, Value) else np.shape(a)
    bsh = b.shape if isinstance(b, Value) else np.shape(b)
    if len(ash) < 2 or len(bsh) < 2:
        ctx.fail("1-D MatMul operands are not supported")
    try:
        batch = np.broadcast_shapes(tuple(ash[:-2]), tuple(bsh[:-2]))
    except ValueError:
        ctx.fail("operands of shapes %s and %s: their batch axes do not broadcast" % (list(ash), list(bsh)))
    if ash[-1] != bsh[-2]:
        ctx.fail("operands of shapes %s and %s: %d columns against %d rows" % (list(ash), list(bsh), ash[-1],
                                                                               bsh[-2]))
    n = int(np.prod(batch)) if batch else 1

    def as3d(v, sh):
        full = tuple(batch) + tuple(sh[-2:])
        if isinstance(v, Value):
            if tuple(sh[:-2]) != tuple(batch):
                if int(np.prod(sh[:-2] or (1,))) != 1:
                    ctx.fail("broadcast MatMul batches are not supported")
                v = ctx.reshape(v, (1, sh[-2], sh[-1]))
                tiles = ctx.b.shape_value([n, 1, 1])
                return ctx.b.op("tosa.tile %s, %s : (%s, !tosa.shape<3>) -> $TYPE" % (v.name, tiles, v.type),
                                (n, sh[-2], sh[-1]), v.dtype)
            return ctx.reshape(v, (n, sh[-2], sh[-1]))
        return ctx.value(np.ascontiguousarray(np.broadcast_to(np.asarray(v, dtype), full)).reshape(
            n, sh[-2], sh[-1]), "weight")

    y = (mm3d or _matmul3d)(ctx, as3d(a, ash), as3d(b, bsh))
    return ctx.reshape(y, tuple(batch) + (ash[-2], bsh[-1]))


@op("MatMul")
def matmul(ctx):
    return [matmul_values(ctx, ctx.input(0), ctx.input(1))]


@op("Gemm")
def gemm(ctx):
    a, b, c = ctx.input(0), ctx.input(1), ctx.input(2)
    alpha, beta = float(ctx.attr("alpha", 1.0)), float(ctx.attr("beta", 1.0))
    ranks = [v.rank if isinstance(v, Value) else np.ndim(v) for v in (a, b)]
    if ranks != [2, 2]:
        ctx.fail("A and B must be matrices (ranks %s)" % ranks)

    def t(v):
        if isinstance(v, Value):
            return ctx.transpose(v, (1, 0))
        return np.ascontiguousarray(np.asarray(v).T)

    if ctx.attr("transA", 0):
        a = t(a)
    if ctx.attr("transB", 0):
        b = t(b)
    if alpha != 1.0:
        if isinstance(b, Value):
            a = ctx.binary("mul", ctx.value(a), np.asarray(alpha, _dtype(ctx)))
        else:
            b = (np.asarray(b) * alpha).astype(_dtype(ctx))
    y = matmul_values(ctx, a, b)
    if c is not None and beta != 0.0:
        if not isinstance(c, Value):
            c = (np.asarray(c) * beta).astype(y.dtype)
        elif beta != 1.0:
            c = ctx.binary("mul", c, np.asarray(beta, y.dtype))
        y = ctx.binary("add", y, c)
    return [y]
