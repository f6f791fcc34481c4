"""QDQ fusion of a quantized transcendental activation (issue 45):
DQ(x) -> Sigmoid | Tanh -> Q as TOSA's integer form of such a function, a
tosa.table of 256 int8 entries indexed by the input level (TOSA's own form
of a quantized sigmoid or tanh):

    table[q + 128] = clamp(rint(f(xs (q - zx)) / ys) + zy, -128, 127)

for every signed input level q (TOSA's signed form: uint8 levels and zero
points - 128), f evaluated in float64 from the float32 scales, rint half to
even as QuantizeLinear. This table is the one statement of the function:
--dla-convert-tosa reads its entries (the Y stage's LO table, or the
X-stage program that approximates it on nv_small; docs/Activations.md).
"""

import numpy as np

FUNCTIONS = {
    "Sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "Tanh": np.tanh,
}


def entries(kind, xs, xz, ys, yz):
    """The 256 int8 entries (signed levels -128..127 of the input)."""
    q = np.arange(-128, 128, dtype=np.float64)
    x = np.float64(np.float32(xs)) * (q - xz)
    with np.errstate(over="ignore"):
        y = FUNCTIONS[kind](x) / np.float64(np.float32(ys))
    return np.clip(np.rint(y) + yz, -128, 127).astype(np.int8)


def match(f, i):
    """(Q, members, params) of the group anchored at Sigmoid / Tanh node i."""
    n = f.nodes[i]
    x, xs, xzp = f._act(n.input[0])
    return f._q(n.output[0]), [i], (n.op_type, x, xs, xzp)


def emit(f, ctx, get, params, ys, yz):
    """tosa.table on the signed i8 input as it stands (NCHW)."""
    from .qdq_fusion import _need
    kind, x, xs, xzp = params
    xv, xz = f.signed_input(ctx, get, x, xzp)
    _need(np.isfinite(xs) and xs > 0 and np.isfinite(ys) and ys > 0)
    t = ctx.b.const(entries(kind, xs, xz, ys, yz), hint="table", inline=True)
    return ctx.b.op("tosa.table %s, %s : (%s, %s) -> $TYPE" % (xv.name, t.name, xv.type, t.type),
                    xv.shape, np.int8)
