"""QDQ fusion of a hard-swish after a per-channel affine map (issue 45):
DQ(x) -> BatchNormalization (or Mul by a constant [-> Add of one]) ->
HardSwish [-> Mul by a scalar a2 > 0 [-> Add of a scalar b2]] -> Q, the
hard-swish a HardSwish node or as exporters decompose it (t + 3 ->
Clip(0, 6) -> t * that -> / 6 or * 1/6). The trailing scalar map is
PP-OCRv4's learnable affine block after its activations; it costs no pass
(a2 joins the product's requantization, b2 its output offset). With
t = a_c x + b_c (x dequantized) and u = relu6(t + 3) / 6,
three integer steps, each one NVDLA SDP pass without Y stage or LUT
(nv_small):

    t8 = affine(x) at st, zt      (t's range [-3, T], T the least t whose
                                   hard-swish is y's top (y's top from 3
                                   on): below -3 the hard-swish is 0,
                                   above T it saturates, so clamping t
                                   there is exact)
    u8 = affine(x; a_c / 6, (b_c + 3) / 6) clamped to [0, 1] at 1/127,
         zero point 0 (the product reads u with no offset)
    y  = rescale(mul(rescale(t8, 1, zt) : i32, rescale(u8, 1, 0) : i32)
                 [+ c : i32], a2 st / (127 ys), zy),   c = round(b2 / (ys m))

(qdq_affine.py's form for the first two; the product is
QuantizedProducts.cpp's). st = (T + 3) / 255 with
zt = round(-128 + 3 / st): the range [-3, T] over all 256 levels, in
TOSA's signed form also for uint8 outputs (top = (127 - zy) ys, zy
signed; through the trailing map, (top - b2) / a2).

A trailing map with a2 or b2 per channel (qdq.py's channel scales: the
output's channel c is k_c times the block's, k spanning up to 240x on the
recognizer) gives each channel its own range: t and u are quantized per
channel, both at zero point 0, and the product is requantized per channel
(_hardswish_channels; QuantizedProducts.cpp's second form, X1 reading u
per element, X2 (c, m) pairs per channel): again three passes, each
channel at its own scale. The error against the float function is in
docs/IntegerAttributes.md decision 19.
"""

import numpy as np

from .context import TO_NCHW, TO_NHWC
from . import ops_quant


def _scalar(f, name):
    v = f._const(name)
    return None if v is None or v.size != 1 else float(v.reshape(-1)[0])


def _clip_bounds(f, n):
    if f.opset < 11:
        a = f._attrs(n)
        return a.get("min", -np.inf), a.get("max", np.inf)
    out = []
    for name, default in zip(list(n.input[1:3]) + ["", ""], (-np.inf, np.inf)):
        out.append(_scalar(f, name) if name else default)
    return tuple(out)


def match_after(f, i):
    """The hard-swish reading node i's output, with the affine maps by
    constants after it (qdq_affine.affine_chain): (Q, members, (a2, b2))."""
    from .qdq_fusion import _need
    from .qdq_affine import affine_chain
    t = f.nodes[i].output[0]
    readers = f.readers.get(t, [])
    _need(t not in f.outputs)
    if len(readers) == 1 and f.nodes[readers[0]].op_type == "HardSwish":
        r = readers[0]
        out, extra, a2, b2 = affine_chain(f, f.nodes[r].output[0])
        return f._q(out), [r] + extra, (a2, b2)
    _need(len(readers) == 2)
    kinds = {f.nodes[r].op_type: r for r in readers}
    _need(set(kinds) == {"Add", "Mul"})
    add, mul = kinds["Add"], kinds["Mul"]
    other = [n for n in f.nodes[add].input if n != t]
    _need(len(other) == 1 and _scalar(f, other[0]) == 3.0)
    clip = f._single_reader(f.nodes[add].output[0])
    _need(f.nodes[clip].op_type == "Clip" and _clip_bounds(f, f.nodes[clip]) == (0.0, 6.0))
    _need(f._single_reader(f.nodes[clip].output[0]) == mul)
    _need(sorted(f.nodes[mul].input) == sorted([t, f.nodes[clip].output[0]]))
    div = f._single_reader(f.nodes[mul].output[0])
    dn = f.nodes[div]
    _need(dn.op_type in ("Div", "Mul") and dn.input[0] == f.nodes[mul].output[0])
    k = _scalar(f, dn.input[1])
    _need(k is not None and (k == 6.0 if dn.op_type == "Div" else abs(k * 6.0 - 1.0) < 1e-6))
    out, extra, a2, b2 = affine_chain(f, dn.output[0])
    return f._q(out), [add, clip, mul, div] + extra, (a2, b2)


def emit(f, ctx, get, params, ys, yz):
    """The three steps above, NCHW i8 (a trailing map per channel:
    _hardswish_channels)."""
    from .qdq_fusion import _need
    from . import qdq_affine
    x, xs, xzp, a, b, a2, b2 = params
    a2, b2 = np.asarray(a2, np.float64).reshape(-1), np.asarray(b2, np.float64).reshape(-1)
    _need(np.all(a2 > 0))
    top_y = (127 - yz) * np.float64(np.float32(ys))
    if a2.size == 1 and b2.size == 1:
        return _hardswish(f, ctx, get, (x, xs, xzp, a, b), float(a2[0]), float(b2[0]), ys, yz,
                          (top_y - b2[0]) / a2[0])
    return _hardswish_channels(f, ctx, get, (x, xs, xzp, a, b), a2, b2, ys, yz, top_y)


def _hardswish_channels(f, ctx, get, affine, a2, b2, ys, yz, top_y):
    """a2_c hardswish(affine(x)) + b2_c at (ys, yz), a2 or b2 one value
    per channel (qdq.py's channel scales): t and u each quantized per
    channel at zero point 0, their product rescaled per channel."""
    from .qdq_fusion import _need
    from . import qdq_affine
    x, xs, xzp, a, b = affine
    xv, xz = f.signed_input(ctx, get, x, xzp)
    channels = xv.shape[1]
    _need(a2.size in (1, channels) and b2.size in (1, channels))
    a2, b2 = np.broadcast_to(a2, (channels,)), np.broadcast_to(b2, (channels,))
    top = (top_y - b2) / a2
    # T_c as in _hardswish, per channel (top_c <= -3/8: the channel is its
    # top everywhere; any T then does).
    t_top = np.where(top >= 3.0, top, (np.sqrt(np.maximum(9.0 + 24.0 * top, 0.0)) - 3.0) / 2.0)
    # t's own range: x is int8, so t = a_c xs (x8 - xz) + b_c lies within
    # its values at x8 = -128 and 127, a bound that holds for every input
    # (not a calibration's guess). Many of the recognizer's narrow
    # channels never reach -3 or T_c (docs/IntegerAttributes.md decision
    # 19): their t and u take their levels from that range instead.
    ends = [np.broadcast_to(a * np.float64(np.float32(xs)) * (q - xz) + b, (channels,))
            for q in (-128, 127)]
    t_lo = np.maximum(np.minimum(*ends), -3.0)
    t_top = np.minimum(t_top, np.maximum(*ends))
    # Zero point 0 for both: the product's X1 reads u from memory, so no
    # register ALU can take t's zero point away there (QuantizedProducts.cpp).
    # t8 = -128 is max(-3, t_lo) or below (the hard-swish's 0 from -3 on);
    # t8 and u8 at 127 are T_c or beyond (saturated, like the output). A
    # channel whose t never leaves one side of 0 still gets a positive
    # scale (the unused side's bound is 0).
    st = np.maximum(np.maximum(-t_lo, 0.0) / 128.0, np.maximum(t_top, 0.0) / 127.0)
    st = np.where(st > 0, st, 3.0 / 128.0)
    # u's top: u(T_c) (0 when t stays at -3 or below: any positive scale).
    u_top = np.clip((t_top + 3.0) / 6.0, 0.0, 1.0)
    su = np.where(u_top > 0, u_top, 1.0) / 127.0
    t = qdq_affine.emit(f, ctx, get, (x, xs, xzp, a / st, b / st, None), 1.0, 0)
    u = qdq_affine.emit(f, ctx, get, (x, xs, xzp, a / (6.0 * su), (b + 3.0) / (6.0 * su),
                                      ("relu",)), 1.0, 0)
    # y = yz + m_c (p + c_c): h = st_c su_c p.
    m = (a2 * st * su / np.float64(np.float32(ys))).astype(np.float32)
    return _product(f, ctx, (t, 0), u, m, lambda m: np.round(b2 / (np.float64(np.float32(ys)) * m)),
                    yz)


def _product(f, ctx, t, u, m, offset, yz):
    """rescale(mul(rescale(t, 1, zt), rescale(u, 1, 0)) [+ c], m, yz),
    NCHW i8: t = (map, zt), m one factor or one per channel, c =
    offset(m as float64) in the product's units (|p| <= 255 * 127: no
    overflow), added when not 0."""
    from .qdq_fusion import _need
    (t, zt) = t
    parts = [ops_quant._rescale(ctx, ctx.transpose(v, TO_NHWC), np.int32, [1 << 30], [30], in_zp=z)
             for v, z in ((t, zt), (u, 0))]
    p = ctx.binary("mul", parts[0], parts[1])
    _need(f._ok(m))
    c = np.asarray(offset(np.float64(m)))
    _need(np.all(np.abs(c) < 2 ** 30))
    if np.any(c):
        p = ctx.binary("add", p, ctx.b.const(c.astype(np.int32).reshape(1, 1, 1, -1), inline=True))
    mult, shift = ops_quant._multiplier(ctx, m)
    y = ops_quant._rescale(ctx, p, np.int8, mult, shift, out_zp=yz)
    return ctx.transpose(y, TO_NCHW)


def _hardswish(f, ctx, get, affine, a2, b2, ys, yz, top):
    """a2 hardswish(affine(x)) + b2 at (ys, yz): the three steps; `top`
    the hard-swish's largest value represented."""
    from .qdq_fusion import _need
    from . import qdq_affine
    x, xs, xzp, a, b = affine
    _need(top > 0)
    # t up to the least t whose hard-swish reaches `top` (t itself from 3
    # on; below, t (t + 3) / 6 = top): beyond it the output saturates.
    top = top if top >= 3.0 else (np.sqrt(9.0 + 24.0 * top) - 3.0) / 2.0
    st = (top + 3.0) / 255.0
    zt = int(np.clip(np.round(-128 + 3.0 / st), -128, 127))
    t = qdq_affine.emit(f, ctx, get, (x, xs, xzp, a, b, None), st, zt)
    u = qdq_affine.emit(f, ctx, get, (x, xs, xzp, a / 6.0, (b + 3.0) / 6.0, ("clip", 0.0, 1.0)),
                        1.0 / 127, 0)
    # b2 in the product's units.
    m = np.float32(a2 * st / (127.0 * np.float64(np.float32(ys))))
    return _product(f, ctx, (t, zt), u, m, lambda m: round(b2 / (np.float64(np.float32(ys)) * m)),
                    yz)
