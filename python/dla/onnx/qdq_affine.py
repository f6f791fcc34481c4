"""QDQ fusion of a per-channel affine map between quantize steps (issue
45): DQ(x) -> BatchNormalization [-> Relu | Clip] -> Q, DQ(x) -> Relu | Clip
-> Q and DQ(x) -> HardSigmoid -> Q are, in quantized units,

    y = clamp(zy + round(f_c (x - zx) + b_c)),  f_c = xs a_c / ys,  b_c = beta_c / ys

(a_c, beta_c: the BatchNormalization's scale / sqrt(var + eps) and
B - mean a_c; 1, 0 for Relu / Clip; alpha, beta for HardSigmoid, clamped to
[0, 1]). TOSA has no rescale with a bias, so it is written

    rescale(add(rescale(x, f_c 2^S, zx) : i32, round(b_c 2^S)), 2^-S, zy) [clamp]

with S = 16 (less when f_c 255 2^S would leave int32): the first rounding
is at 2^-S of an output step, so the result is within one of ONNX's (which
rounds ties to even once). Without a bias (Relu, Clip alone) it is one
rescale i8 -> i8. --dla-convert-tosa runs it as one offline SDP
(RescalePatterns.cpp). A channel with f_c <= 0 (a negative BatchNormalization
scale) keeps the group on the float path. A BatchNormalization followed
by a hard-swish, or a HardSwish alone, is qdq_hardswish.py's.
"""

import numpy as np

from .context import TO_NCHW, TO_NHWC
from . import ops_quant, qdq_hardswish

ANCHORS = ("BatchNormalization", "Relu", "Clip", "HardSigmoid", "HardSwish")
BITS = 16  # S above


def match(f, i):
    """The group anchored at node i: (Q, members, params); f._need fails."""
    from .qdq_fusion import _need, _Reject
    n = f.nodes[i]
    x, xs, xzp = f._act(n.input[0])
    if n.op_type == "BatchNormalization":
        _need(len(n.input) == 5 and (len(n.output) == 1 or not any(n.output[1:])))
        attrs = f._attrs(n)
        _need(not attrs.get("training_mode", 0))
        scale, bias, mean, var = (f._const(name) for name in n.input[1:5])
        _need(all(v is not None and v.ndim == 1 for v in (scale, bias, mean, var)))
        a = scale.astype(np.float64) / np.sqrt(var.astype(np.float64) + attrs.get("epsilon", 1e-5))
        b = bias.astype(np.float64) - mean.astype(np.float64) * a
        try:
            # A hard-swish after it: qdq_hardswish.py.
            q, extra = qdq_hardswish.match_after(f, i)
            return q, [i] + extra, (x, xs, xzp, a, b, ("hardswish",))
        except _Reject:
            pass
        q, extra, act = f._activation(i)
        return q, [i] + extra, (x, xs, xzp, a, b, act)
    if n.op_type == "HardSwish":
        return f._q(n.output[0]), [i], (x, xs, xzp, np.ones(1), np.zeros(1), ("hardswish",))
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
        return qdq_hardswish.emit(f, ctx, get, (x, xs, xzp, a, b), ys, yz)
    xv, xz = f.signed_input(ctx, get, x, xzp)
    _need(xv.rank == 4)
    channels = xv.shape[1]
    _need(a.size in (1, channels) and b.size in (1, channels))
    fac = np.float64(np.float32(xs)) * a / np.float64(np.float32(ys))
    _need(np.all(np.isfinite(fac)) and np.all(fac > 0))
    bits = BITS
    while bits > 0 and fac.max() * 255 * 2.0 ** bits >= 2.0 ** 31:
        bits -= 1
    scaled = fac * 2.0 ** bits
    _need(f._ok(scaled))
    beta = np.round(np.broadcast_to(b / np.float64(np.float32(ys)), (channels,)) * 2.0 ** bits)
    _need(np.all(np.abs(beta) < 2.0 ** 31 - 2.0 ** 20))
    xt = ctx.transpose(xv, TO_NHWC)
    if not np.any(beta):
        # No bias (a Relu, Clip alone): one rescale i8 -> i8, TOSA's one
        # rounding (a zero add would fold away and leave two rescales).
        mult, shift = ops_quant._multiplier(ctx, fac if np.ptp(fac) else fac[:1])
        y = ops_quant._rescale(ctx, xt, np.int8, mult, shift, in_zp=xz, out_zp=yz)
        return ctx.transpose(f._clamp(ctx, y, act, ys, yz), TO_NCHW)
    mult, shift = ops_quant._multiplier(ctx, scaled if np.ptp(scaled) else scaled[:1])
    t = ops_quant._rescale(ctx, xt, np.int32, mult, shift, in_zp=xz)
    bias = ctx.b.const(beta.astype(np.int32).reshape(1, 1, 1, channels), inline=True)
    u = ctx.binary("add", t, bias)
    y = ops_quant._rescale(ctx, u, np.int8, [1 << 30], [30 + bits], out_zp=yz)
    return ctx.transpose(f._clamp(ctx, y, act, ys, yz), TO_NCHW)
