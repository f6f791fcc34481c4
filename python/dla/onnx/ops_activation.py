"""Activations built from TOSA element-wise ops (Elu, Selu, Softplus,
Softsign, LogSoftmax), the variadic Max / Min / Sum / Mean and
InstanceNormalization.

Element-wise ones on rank-4 feature maps are written in NHWC (see
Context.in_nhwc), like ops_math's."""

import numpy as np

from .builder import Value
from .context import op_registry
from .ops_math import reduce_axes, softmax_axes

OPS = {}
op = op_registry(OPS)


def _scalar(v, x):
    return np.asarray(x, v.dtype)


def _select(ctx, cond, a, b):
    return ctx.b.op("tosa.select %s, %s, %s : (%s, %s, %s) -> $TYPE"
                    % (cond.name, a.name, b.name, cond.type, a.type, b.type), a.shape, a.dtype)


def _elu(ctx, v, alpha):
    """x for x > 0, alpha * (exp(x) - 1) else."""
    neg = ctx.binary("mul", ctx.binary("add", ctx.unary("exp", v), _scalar(v, -1.0)), _scalar(v, alpha))
    positive = ctx.binary("greater", v, np.zeros((1,) * v.rank, v.dtype))
    return _select(ctx, positive, v, neg)


def _float_input(ctx):
    x = ctx.value(ctx.input(0))
    if x.dtype.kind != "f":
        ctx.fail("%s of %s is not supported (floating-point only)" % (ctx.node.op_type, x.dtype))
    return x


@op("Elu")
def elu(ctx):
    x = _float_input(ctx)
    alpha = float(ctx.attr("alpha", 1.0))
    return [ctx.in_nhwc([x], lambda o: _elu(ctx, o[0], alpha))]


@op("Selu")
def selu(ctx):
    x = _float_input(ctx)
    alpha = float(ctx.attr("alpha", 1.67326319217681884765625))
    gamma = float(ctx.attr("gamma", 1.05070102214813232421875))
    return [ctx.in_nhwc([x], lambda o: ctx.binary("mul", _elu(ctx, o[0], alpha), _scalar(o[0], gamma)))]


@op("Softplus")
def softplus(ctx):
    # log(1 + exp(x)) = max(x, 0) + log(1 + exp(-|x|)): exp never overflows.
    x = _float_input(ctx)

    def fn(o):
        v = o[0]
        zp = ctx.b.zero_point(v.dtype)
        neg_abs = ctx.b.op("tosa.negate %s, %s, %s : (%s, %s, %s) -> $TYPE"
                           % ((ctx.unary("abs", v).name, zp.name, zp.name, v.type, zp.type, zp.type)),
                           v.shape, v.dtype)
        tail = ctx.unary("log", ctx.binary("add", ctx.unary("exp", neg_abs), _scalar(v, 1.0)))
        return ctx.binary("add", ctx.binary("maximum", v, np.zeros((1,) * v.rank, v.dtype)), tail)

    return [ctx.in_nhwc([x], fn)]


@op("Softsign")
def softsign(ctx):
    x = _float_input(ctx)

    def fn(o):
        v = o[0]
        return ctx.binary("mul", v, ctx.unary("reciprocal", ctx.binary("add", ctx.unary("abs", v),
                                                                      _scalar(v, 1.0))))

    return [ctx.in_nhwc([x], fn)]


@op("LogSoftmax")
def log_softmax(ctx):
    # x - max - log(sum(exp(x - max))) over Softmax's axes.
    x = _float_input(ctx)
    axes = softmax_axes(ctx, x.rank)
    shifted = ctx.binary("sub", x, reduce_axes(ctx, "max", x, axes))
    total = reduce_axes(ctx, "sum", ctx.unary("exp", shifted), axes)
    return [ctx.binary("sub", shifted, ctx.unary("log", total))]


@op("Max", "Min", "Sum", "Mean")
def variadic(ctx):
    operands = [v for v in ctx.inputs if v is not None]
    if not operands:
        ctx.fail("needs at least one input")
    kind = ctx.node.op_type
    dtype = next(v.dtype for v in operands if isinstance(v, Value))
    if dtype.kind == "u":
        ctx.fail("unsigned %s is not supported (TOSA's integers are signed)" % dtype)
    if kind == "Mean" and dtype.kind != "f":
        ctx.fail("integer Mean is not supported")
    name = {"Max": "maximum", "Min": "minimum", "Sum": "add", "Mean": "add"}[kind]

    def fn(o):
        y = ctx.value(o[0]) if len(o) == 1 else o[0]
        for v in o[1:]:
            y = ctx.binary(name, y, v)
        if kind == "Mean" and len(o) > 1:
            y = ctx.binary("mul", y, _scalar(y, 1.0 / len(o)))
        return y

    return [ctx.in_nhwc(operands, fn)]


@op("InstanceNormalization")
def instance_norm(ctx):
    # (x - mean) / sqrt(var + eps) * scale + bias, statistics per sample and
    # channel over the spatial axes.
    x = _float_input(ctx)
    scale = ctx.const_input(1, "the scale")
    bias = ctx.const_input(2, "the bias")
    if x.rank < 3 or scale is None or bias is None:
        ctx.fail("needs an input of rank 3 or more, a scale and a bias")
    if scale.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        ctx.fail("scale %s and bias %s must have the %d channels of the input"
                 % (list(scale.shape), list(bias.shape), x.shape[1]))
    eps = float(ctx.attr("epsilon", 1e-5))
    axes = list(range(2, x.rank))
    inv = 1.0 / int(np.prod([x.shape[a] for a in axes]))
    mean = ctx.binary("mul", reduce_axes(ctx, "sum", x, axes), _scalar(x, inv))
    centered = ctx.binary("sub", x, mean)
    var = ctx.binary("mul", reduce_axes(ctx, "sum", ctx.binary("mul", centered, centered), axes),
                     _scalar(x, inv))
    norm = ctx.binary("mul", centered, ctx.unary("rsqrt", ctx.binary("add", var, _scalar(x, eps))))
    shape = (1, -1) + (1,) * (x.rank - 2)
    y = ctx.binary("mul", norm, scale.astype(x.dtype).reshape(shape))
    return [ctx.binary("add", y, bias.astype(x.dtype).reshape(shape))]
