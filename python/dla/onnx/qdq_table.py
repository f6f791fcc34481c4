"""QDQ fusion of a quantized transcendental activation (issue 45):
DQ(x) -> [Mul by one constant c ->] Sigmoid | Tanh -> Q as TOSA's integer
form of such a function, a tosa.table of 256 int8 entries indexed by the
input level (TOSA's own form of a quantized sigmoid or tanh):

    table[q + 128] = clamp(rint(f(c xs (q - zx)) / ys) + zy, -128, 127)

for every signed input level q (TOSA's signed form: uint8 levels and zero
points - 128), f evaluated in float64 from the float32 scales, rint half to
even as QuantizeLinear. This table is the one statement of the function:
--dla-convert-tosa reads its entries (the Y stage's LO table, or the
X-stage program that approximates it on nv_small; docs/Activations.md).

A swish (SiLU), x * sigmoid(c x) as exporters write it (Mul(x, c) ->
Sigmoid -> Mul(x, that), the sigmoid quantized between them), is the
hard-swish's program (qdq_hardswish.py) with the sigmoid for the gate:

    g8 = table(x8) at 1/127, zero point 0 (the product's memory operand
         is read without an offset; the calibrated scale of the sigmoid's
         output is not used)
    y  = rescale(mul(rescale(x8, 1, zx) : i32, rescale(g8, 1, 0) : i32),
                 xs / (127 ys), zy)

Error against the float x sigmoid(c x): the gate is within 1/254 of the
sigmoid in the table (within 1/127 + 1/254 in nv_small's X-stage program,
docs/Activations.md), so y is within |x| 3/254 + 1/2 output steps (+ one
for the SDP's int16 multiplier), the input's own quantization aside
(docs/WholeNetworks.md, "The recognizer's neck").
"""

import numpy as np

FUNCTIONS = {
    "Sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "Tanh": np.tanh,
}


def entries(kind, xs, xz, ys, yz, c=1.0):
    """The 256 int8 entries (signed levels -128..127 of the input) of f(c x)."""
    q = np.arange(-128, 128, dtype=np.float64)
    x = np.float64(c) * np.float64(np.float32(xs)) * (q - xz)
    with np.errstate(over="ignore"):
        y = FUNCTIONS[kind](x) / np.float64(np.float32(ys))
    return np.clip(np.rint(y) + yz, -128, 127).astype(np.int8)


def match(f, i):
    """(Q, members, params) of the group anchored at Sigmoid / Tanh node i
    (a swish's product included when one reads it)."""
    from .qdq_fusion import _need, _Reject
    n = f.nodes[i]
    src, c, members = n.input[0], 1.0, [i]
    p = f.producer.get(src)
    if p is not None and f.nodes[p].op_type == "Mul" and f.nodes[p].input[0] != f.nodes[p].input[1]:
        mul = f.nodes[p]
        consts = [k for k in mul.input if f._const(k) is not None]
        acts = [k for k in mul.input if f._const(k) is None]
        _need(f._single_reader(src) == i and len(consts) == 1 and len(acts) == 1)
        cv = f._const(consts[0])
        _need(cv.size == 1 and np.issubdtype(cv.dtype, np.floating) and np.isfinite(cv).all())
        src, c, members = acts[0], float(cv.reshape(-1)[0]), [p, i]
    x, xs, xzp = f._act(src)
    try:
        q, extra = _swish(f, i, src)
        return q, members + extra, (n.op_type, x, xs, xzp, c, True)
    except _Reject:
        pass
    return f._q(n.output[0]), members, (n.op_type, x, xs, xzp, c, False)


def _swish(f, i, src):
    """(the product's Q, [the sigmoid's Q, its DQ, the product]) when
    sigmoid node i's quantized result is read by one Mul alone whose other
    operand is `src` (the DQ the function reads)."""
    from .qdq_fusion import _need, Q, DQ
    n = f.nodes[i]
    _need(n.op_type == "Sigmoid")
    qi, _, _ = f._q(n.output[0])
    di = f._single_reader(f.nodes[qi].output[0])
    _need(f.nodes[di].op_type == DQ)
    mi = f._single_reader(f.nodes[di].output[0])
    mul = f.nodes[mi]
    _need(mul.op_type == "Mul" and sorted(mul.input) == sorted([src, f.nodes[di].output[0]]))
    return f._q(mul.output[0]), [qi, di, mi]


def emit(f, ctx, get, params, ys, yz):
    """tosa.table on the signed i8 input as it stands (NCHW); a swish: the
    gate's table at 1/127 and the product (module docstring)."""
    from .qdq_fusion import _need, VIEWS
    from .context import TO_NCHW, TO_NHWC
    from . import ops_quant
    kind, x, xs, xzp, c, swish = params
    xv, xz = f.signed_input(ctx, get, x, xzp, views=VIEWS)
    _need(np.isfinite(xs) and xs > 0 and np.isfinite(ys) and ys > 0)
    if not swish:
        t = ctx.b.const(entries(kind, xs, xz, ys, yz, c), hint="table", inline=True)
        return ctx.b.op("tosa.table %s, %s : (%s, %s) -> $TYPE" % (xv.name, t.name, xv.type, t.type),
                        xv.shape, np.int8)
    _need(xv.rank == 4)
    # Gate and product both in NHWC: the gate's layers write what the
    # product reads, no transpose between them.
    xt = ctx.transpose(xv, TO_NHWC)
    t = ctx.b.const(entries(kind, xs, xz, 1.0 / 127, 0, c), hint="table", inline=True)
    g = ctx.b.op("tosa.table %s, %s : (%s, %s) -> $TYPE" % (xt.name, t.name, xt.type, t.type),
                 xt.shape, np.int8)
    parts = [ops_quant._rescale(ctx, v, np.int32, [1 << 30], [30], in_zp=z) for v, z in ((xt, xz), (g, 0))]
    m = np.float32(np.float64(np.float32(xs)) / 127 / np.float32(ys))
    _need(f._ok(m))
    mult, shift = ops_quant._multiplier(ctx, m)
    y = ops_quant._rescale(ctx, ctx.binary("mul", parts[0], parts[1]), np.int8, mult, shift, out_zp=yz)
    return ctx.transpose(y, TO_NCHW)
