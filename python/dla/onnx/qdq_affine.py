"""QDQ fusion of a per-channel affine map between quantize steps (issue
45): DQ(x) -> BatchNormalization [-> Relu | Clip] -> Q, DQ(x) -> Relu | Clip
-> Q and DQ(x) -> HardSigmoid -> Q are, in quantized units,

    y = clamp(zy + round(f_c (x - zx) + b_c)),  f_c = xs a_c / ys,  b_c = beta_c / ys

(a_c, beta_c: the BatchNormalization's scale / sqrt(var + eps) and
B - mean a_c; 1, 0 for Relu / Clip; alpha, beta for HardSigmoid, clamped to
[0, 1]; for a chain of Mul / Add / Sub / Div by constants (one value or
one per channel) and BatchNormalizations, their composition: PP-OCRv4's
"learnable affine blocks" x * a + b, and qdq.py's channel-scale Muls
around them). TOSA has no rescale with a bias, so it is written

    rescale(add(rescale(x, f_c 2^S, zx) : i32, round(b_c 2^S)), 2^-S, zy) [clamp]

with S = 16 (less when f_c 255 2^S would leave int32): the first rounding
is at 2^-S of an output step, so the result is within one of ONNX's (which
rounds ties to even once). Without a bias (Relu, Clip alone) it is one
rescale i8 -> i8. --dla-convert-tosa runs it as one offline SDP
(RescalePatterns.cpp). A channel with f_c < 0 (a negative BatchNormalization
scale; TOSA's multipliers are non-negative) is rescaled by |f_c| and
multiplied by -1 (an i32 tosa.mul by a sign per channel) before the add;
the SDP's X2 multiplier takes the sign. f_c = 0 keeps the group float.
A BatchNormalization or a constant affine map followed by a hard-swish,
or a HardSwish alone, is qdq_hardswish.py's.
"""

import numpy as np

from .context import TO_NCHW, TO_NHWC
from . import ops_quant, qdq_hardswish

ANCHORS = ("BatchNormalization", "Relu", "Clip", "HardSigmoid", "HardSwish")
# The group kind of a Mul by a constant (qdq_fusion: a Mul of two
# activations is a product instead).
AFFINE_MUL = "AffineMul"
BITS = 16  # S above


def channel_constant(f, name):
    """A float constant `name` as one value or one per channel of an NCHW
    map (shape [C, 1, 1] or [1, C, 1, 1] broadcast over H and W), float64
    1-D; None when it is neither (emit checks C against the map's)."""
    v = f._const(name)
    if v is None or v.dtype.kind != "f":
        return None
    if v.size == 1:
        return v.astype(np.float64).reshape(1)
    dims = list(v.shape)
    while dims and dims[0] == 1 and len(dims) > 3:
        dims.pop(0)
    if len(dims) != 3 or dims[1:] != [1, 1]:
        return None
    return v.astype(np.float64).reshape(-1)


def affine_step(f, n, v):
    """(k, c) when node n maps its input `v` to k v + c by constants (one
    value or one per channel): a Mul, Add, Sub (v - c) or Div (v / k) by
    one, or an inference BatchNormalization; else None."""
    if n.domain not in ("", "ai.onnx") or n.op_type not in ("Mul", "Add", "Sub", "Div",
                                                             "BatchNormalization"):
        return None
    if n.op_type == "BatchNormalization":
        attrs = f._attrs(n)
        if n.input[0] != v or len(n.input) != 5 or attrs.get("training_mode", 0) or \
                (len(n.output) > 1 and any(n.output[1:])):
            return None
        scale, bias, mean, var = (f._const(name) for name in n.input[1:5])
        if not all(c is not None and c.ndim == 1 for c in (scale, bias, mean, var)):
            return None
        a = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + attrs.get("epsilon", 1e-5))
        return a, bias.astype(np.float64) - mean.astype(np.float64) * a
    if len(n.input) != 2 or list(n.input).count(v) != 1:
        return None
    c = channel_constant(f, n.input[1] if n.input[0] == v else n.input[0])
    if c is None or (n.op_type in ("Sub", "Div") and n.input[0] != v):
        return None
    if n.op_type == "Div":
        return (1.0 / c, np.zeros(1)) if np.all(c != 0) else None
    return {"Mul": (c, np.zeros(1)), "Add": (np.ones(1), c), "Sub": (np.ones(1), -c)}[n.op_type]


def affine_chain(f, out):
    """The affine steps (affine_step) that alone read `out`, one after
    another, composed: (last tensor, members, a, b) with last = a out + b."""
    a, b, members = np.ones(1), np.zeros(1), []
    while out not in f.outputs:
        r = f.readers.get(out, [])
        step = affine_step(f, f.nodes[r[0]], out) if len(r) == 1 else None
        if step is None:
            break
        a, b = a * step[0], b * step[0] + step[1]
        members.append(r[0])
        out = f.nodes[r[0]].output[0]
    return out, members, a, b


def match(f, i):
    """The group anchored at node i: (Q, members, params); f._need fails."""
    from .qdq_fusion import _need, _Reject
    n = f.nodes[i]
    if n.op_type in ("BatchNormalization", "Mul"):
        # A chain of affine maps from a dequantized tensor (with channel
        # scales, qdq.py's unscale Mul comes first, then the layer's own).
        for name in n.input[:2]:
            try:
                x, xs, xzp = f._act(name)
            except _Reject:
                continue
            first = affine_step(f, n, name)
            if first is not None:
                break
        else:
            _need(False)
        last, chain, a, b = affine_chain(f, n.output[0])
        a, b = a * first[0], a * first[1] + b  # the chain after the first step
        _need(a.size in (1, max(a.size, b.size)) and b.size in (1, max(a.size, b.size)))
        anchor = chain[-1] if chain else i
        try:
            # A hard-swish after it: qdq_hardswish.py.
            q, extra, after = qdq_hardswish.match_after(f, anchor)
            return q, [i] + chain + extra, (x, xs, xzp, a, b, ("hardswish",) + after)
        except _Reject:
            pass
        q, extra, act = f._activation(anchor)
        return q, [i] + chain + extra, (x, xs, xzp, a, b, act)
    x, xs, xzp = f._act(n.input[0])
    if n.op_type == "HardSwish":
        out, extra, a2, b2 = affine_chain(f, n.output[0])
        return f._q(out), [i] + extra, (x, xs, xzp, np.ones(1), np.zeros(1), ("hardswish", a2, b2))
    if n.op_type == "HardSigmoid":
        attrs = f._attrs(n)
        a, b = np.array([attrs.get("alpha", 0.2)]), np.array([attrs.get("beta", 0.5)])
        return f._q(n.output[0]), [i], (x, xs, xzp, a, b, ("clip", 0.0, 1.0))
    # Relu / Clip alone: f._activation reads the node after i, so look at i
    # as that node.
    q, extra, act = f._activation(f.producer[n.input[0]])
    _need(extra == [i])
    return q, [i], (x, xs, xzp, np.ones(1), np.zeros(1), act)


def emit(f, ctx, get, params, ys, yz):
    """The integer form above, NCHW i8."""
    from .qdq_fusion import _need
    x, xs, xzp, a, b, act = params
    if act is not None and act[0] == "hardswish":
        return qdq_hardswish.emit(f, ctx, get, (x, xs, xzp, a, b) + tuple(act[1:]), ys, yz)
    xv, xz = f.signed_input(ctx, get, x, xzp)
    _need(xv.rank == 4)
    channels = xv.shape[1]
    _need(a.size in (1, channels) and b.size in (1, channels))
    fac = np.float64(np.float32(xs)) * a / np.float64(np.float32(ys))
    _need(np.all(np.isfinite(fac)) and np.all(fac != 0))
    # TOSA's multipliers are non-negative: a negative factor (a negative
    # BatchNormalization scale) is |f| times a sign per channel.
    negative = np.broadcast_to(fac < 0, (channels,))
    fac = np.abs(fac)
    bits = BITS
    while bits > 0 and fac.max() * 255 * 2.0 ** bits >= 2.0 ** 31:
        bits -= 1
    scaled = fac * 2.0 ** bits
    _need(f._ok(scaled))
    beta = np.round(np.broadcast_to(b / np.float64(np.float32(ys)), (channels,)) * 2.0 ** bits)
    _need(np.all(np.abs(beta) < 2.0 ** 31 - 2.0 ** 20))
    xt = ctx.transpose(xv, TO_NHWC)
    if not np.any(beta) and not np.any(negative):
        # No bias (a Relu, Clip alone): one rescale i8 -> i8, TOSA's one
        # rounding (a zero add would fold away and leave two rescales).
        mult, shift = ops_quant._multiplier(ctx, fac if np.ptp(fac) else fac[:1])
        y = ops_quant._rescale(ctx, xt, np.int8, mult, shift, in_zp=xz, out_zp=yz)
        return ctx.transpose(f._clamp(ctx, y, act, ys, yz), TO_NCHW)
    mult, shift = ops_quant._multiplier(ctx, scaled if np.ptp(scaled) else scaled[:1])
    t = ops_quant._rescale(ctx, xt, np.int32, mult, shift, in_zp=xz)
    if np.any(negative):
        signs = np.where(negative, -1, 1).astype(np.int32).reshape(1, 1, 1, channels)
        t = ctx.binary("mul", t, ctx.b.const(signs, inline=True))
    u = t
    if np.any(beta):
        bias = ctx.b.const(beta.astype(np.int32).reshape(1, 1, 1, channels), inline=True)
        u = ctx.binary("add", t, bias)
    y = ops_quant._rescale(ctx, u, np.int8, [1 << 30], [30 + bits], out_zp=yz)
    return ctx.transpose(f._clamp(ctx, y, act, ys, yz), TO_NCHW)
