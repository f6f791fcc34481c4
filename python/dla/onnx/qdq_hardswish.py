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
signed; through the trailing map, (top - b2) / a2). The error against the float function is in
docs/IntegerAttributes.md decision 19.
"""

import numpy as np

# The widest span of a per-channel trailing map's factors fused (emit).
MAX_SPREAD = 2.0

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
    """The three steps above, NCHW i8; a trailing map per channel (a2, b2
    of one value per channel, e.g. qdq.py's channel scale) is a fourth,
    qdq_affine.py's, from the product at an intermediate scale."""
    from .qdq_fusion import _need
    from . import qdq_affine
    x, xs, xzp, a, b, a2, b2 = params
    a2, b2 = np.asarray(a2, np.float64).reshape(-1), np.asarray(b2, np.float64).reshape(-1)
    _need(np.all(a2 > 0))
    top_y = (127 - yz) * np.float64(np.float32(ys))
    if a2.size == 1 and b2.size == 1:
        return _hardswish(f, ctx, get, (x, xs, xzp, a, b), float(a2[0]), float(b2[0]), ys, yz,
                          (top_y - b2[0]) / a2[0])
    # The hard-swish's range, [-3/8, the largest top through the map],
    # over all 256 levels; then y = a2 h + b2 per channel. t and h are
    # quantized per tensor, so a channel whose a2 is r times below the
    # largest keeps log2(r) bits less than its own scale gives it: beyond
    # MAX_SPREAD the block stays float (PP-OCRv4's recognizer with every
    # span allowed: 92.7% of the steps agree on 16 lines, 95.6% before).
    # Per-channel t needs X1's per-channel (ALU, MUL) pairs.
    _need(a2.max() <= MAX_SPREAD * a2.min())
    top = float(np.max((top_y - b2) / a2))
    _need(top > 0)
    hs = (top + 0.375) / 255.0
    hz = int(np.clip(np.round(-128 + 0.375 / hs), -128, 127))
    h = _hardswish(f, ctx, get, (x, xs, xzp, a, b), 1.0, 0.0, np.float32(hs), hz, top)
    name = "%s_hardswish_%d" % (x, len(f.signed))  # unique: x may feed several
    f.signed[name] = (h, np.dtype(np.int8))
    return qdq_affine.emit(f, ctx, get, (name, float(np.float32(hs)), np.array(hz, np.int8), a2, b2,
                                         None), ys, yz)


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
    parts = [ops_quant._rescale(ctx, ctx.transpose(v, TO_NHWC), np.int32, [1 << 30], [30], in_zp=z)
             for v, z in ((t, zt), (u, 0))]
    p = ctx.binary("mul", parts[0], parts[1])
    m = np.float32(a2 * st / (127.0 * np.float64(np.float32(ys))))
    _need(f._ok(m))
    c = round(b2 / (np.float64(np.float32(ys)) * np.float64(m)))
    _need(abs(c) < 2 ** 30)
    if c:
        # b2 in the product's units (|p| <= 255 * 127: no overflow).
        p = ctx.binary("add", p, ctx.b.const(np.full((1, 1, 1, 1), c, np.int32), inline=True))
    mult, shift = ops_quant._multiplier(ctx, m)
    y = ops_quant._rescale(ctx, p, np.int8, mult, shift, out_zp=yz)
    return ctx.transpose(y, TO_NCHW)
