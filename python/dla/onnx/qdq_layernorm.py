"""QDQ fusion of a LayerNormalization over the channels of tokens (issue
45: the recognizer's neck), as exporters spell it out between a DQ and a
Q: ReduceMean, Sub [-> Q -> DQ], Pow 2, ReduceMean, Add eps [-> Q -> DQ],
Sqrt, Div [-> Q -> DQ], Mul gamma, Add beta (qdq.layer_norm quantizes x -
mean at zero point 0, var + eps and the normalized values at the table's
scales). With the tokens [n, T, C]
the map [n, C, 1, T] (qdq_fusion's views), every step is an NVDLA
program nv_small already runs (no LUT, int8 only):

  d8  = rescale(conv1x1(x8; W = s_c (C I - 1)), xs / (C sd))   at d's scale, zero point 0
        (the centering matrix: int8 weights for C <= 128, the sum C (x_c
        - mean) exact in the accumulator, the input's zero point
        cancelling; s_c = sign(gamma_c), so that the affine step below
        multiplies by |gamma_c| > 0)
  q8  = rescale(d8 * d8, sd^2 / sq)                            zero point -128
  v8  = rescale(conv1x1(q8; ones C x C) + round(eps C / sq), sq / (C sv))
        (var + eps on every channel: no broadcast step after it)
  r8  = table(v8): rsqrt(sv (v - zv)) at sr, zero point -128
        (nv_small: the X-stage chain of a falling monotone table)
  n8  = rescale((r8 + 128) * d8, sr sd / sn)                  at the table's n
  y   = |gamma_c| n + beta_c (qdq_affine's per-channel map)

Scales: sd, sv and sn are the calibration's (x - mean, var + eps, the
normalized values; sd symmetric); sq covers (127 sd)^2; sr puts rsqrt at 255
levels from the largest var + eps down to a sixteenth of it (a smaller
one saturates r). Error (utils/dla-ref/layernorm_int8_model.py; the
recognizer's five LayerNorms: docs/WholeNetworks.md, "The recognizer's
neck"): mostly within a few output steps of the float LayerNorm of the
quantized input, more where a token's variance is far below the largest.
"""

import numpy as np

from .context import TO_NCHW, TO_NHWC
from . import ops_quant, qdq_affine


def _axes(f, n):
    a = f._attrs(n).get("axes")
    if a is None and len(n.input) > 1 and n.input[1]:
        a = f._const(n.input[1])
    return None if a is None else [int(v) for v in np.asarray(a).reshape(-1)]


def _scalar(f, n, name):
    other = [i for i in n.input if i != name]
    v = f._const(other[0]) if len(other) == 1 else None
    return None if v is None else np.asarray(v, np.float64).reshape(-1)


def match(f, i):
    """(Q, members, params) of the LayerNorm whose first ReduceMean is node i."""
    from .qdq_fusion import _need, DQ
    n0 = f.nodes[i]
    _need(_axes(f, n0) == [-1] and f._attrs(n0).get("keepdims", 1) == 1)
    src = n0.input[0]
    x, xs, xzp = f._act(src)

    def reader(name, op):
        r = f._single_reader(name)
        _need(f.nodes[r].op_type == op)
        return r

    sub = reader(n0.output[0], "Sub")
    _need(list(f.nodes[sub].input) == [src, n0.output[0]])
    qd, sd, zd = f._q(f.nodes[sub].output[0])
    _need(int(zd) - (128 if zd.dtype == np.uint8 else 0) == 0)
    dqd = reader(f.nodes[qd].output[0], DQ)
    d = f.nodes[dqd].output[0]
    rs = f.readers.get(d, [])
    _need(len(rs) == 2 and d not in f.outputs)
    kinds = {f.nodes[r].op_type: r for r in rs}
    _need(set(kinds) == {"Pow", "Div"})
    pw, div = kinds["Pow"], kinds["Div"]
    e = _scalar(f, f.nodes[pw], d)
    _need(e is not None and e.size == 1 and e[0] == 2.0)
    m2 = reader(f.nodes[pw].output[0], "ReduceMean")
    _need(_axes(f, f.nodes[m2]) == [-1])
    add = reader(f.nodes[m2].output[0], "Add")
    eps = _scalar(f, f.nodes[add], f.nodes[m2].output[0])
    _need(eps is not None and eps.size == 1 and eps[0] >= 0)
    qv, sv, zv = f._q(f.nodes[add].output[0])
    dqv = reader(f.nodes[qv].output[0], DQ)
    sqrt = reader(f.nodes[dqv].output[0], "Sqrt")
    _need(f.nodes[div].input[0] == d and f.nodes[div].input[1] == f.nodes[sqrt].output[0])
    _need(f._single_reader(f.nodes[sqrt].output[0]) == div)
    qn, sn, zn = f._q(f.nodes[div].output[0])
    dqn = reader(f.nodes[qn].output[0], DQ)
    mul = reader(f.nodes[dqn].output[0], "Mul")
    gamma = _scalar(f, f.nodes[mul], f.nodes[dqn].output[0])
    beta_add = reader(f.nodes[mul].output[0], "Add")
    beta = _scalar(f, f.nodes[beta_add], f.nodes[mul].output[0])
    _need(gamma is not None and beta is not None)
    members = [i, sub, qd, dqd, pw, m2, add, qv, dqv, sqrt, div, qn, dqn, mul, beta_add]
    return f._q(f.nodes[beta_add].output[0]), members, \
        (x, xs, xzp, float(eps[0]), gamma, beta, sd, (sv, zv), (f.nodes[qn].output[0], sn, zn))


def rsqrt_entries(sv, zv, eps, sr):
    """The table of r8 = rint(rsqrt(sv (v - zv)) / sr) - 128 over the 256
    signed levels v of var + eps (at least eps: the level of zero holds
    var + eps below sv / 2)."""
    q = np.arange(-128, 128, dtype=np.float64)
    val = np.maximum(np.float64(np.float32(sv)) * (q - zv), max(eps, 1e-30))
    return np.clip(np.rint(1.0 / np.sqrt(val) / sr) - 128, -128, 127).astype(np.int8)


def rsqrt_scale(sv, zv):
    """sr: rsqrt at 255 levels down to a sixteenth of the largest var + eps."""
    low = max((127 - zv) / 16.0, 1.0) * np.float64(np.float32(sv))
    return 1.0 / np.sqrt(low) / 255


def emit(f, ctx, get, params, ys, yz):
    from .qdq_fusion import _need, _f32
    x, xs, xzp, eps, gamma, beta, sd, (sv, zv), (n_name, sn, zn) = params
    xv, xz = f.signed_input(ctx, get, x, xzp, views=("tokens", "nhwc"))
    view = f.views.get(x)
    _need(xv.rank == 4)
    c = xv.shape[1]
    _need(2 <= c <= 128 and gamma.size in (1, c) and beta.size in (1, c))
    gamma = np.broadcast_to(gamma, (c,))
    sign = np.where(gamma < 0, -1, 1)
    _need(np.all(gamma != 0))
    zv = int(zv) - (128 if zv.dtype == np.uint8 else 0)
    xs = np.float64(np.float32(xs))

    def requant(acc, m, out_zp):
        m = np.float32(m)
        _need(f._ok(m))
        mult, shift = ops_quant._multiplier(ctx, np.array([m], np.float32))
        return ops_quant._rescale(ctx, acc, np.int8, mult, shift, out_zp=out_zp)

    def product(a, az, g, m, out_zp):
        """rescale(a - az times g (zero point 0), m): QuantizedProducts' form."""
        parts = [ops_quant._rescale(ctx, ctx.transpose(v, TO_NHWC), np.int32, [1 << 30], [30], in_zp=z)
                 for v, z in ((a, az), (g, 0))]
        return ctx.transpose(requant(ctx.binary("mul", parts[0], parts[1]), m, out_zp), TO_NCHW)

    zeros = np.zeros((1,), np.int8)
    # d = s_c (C x_c - sum x): the centering matrix.
    w = (c * np.eye(c) - 1) * sign.reshape(-1, 1)
    sd = np.float64(np.float32(sd))
    acc = ops_quant._conv_integer(ctx, xv, np.array(xz), w.astype(np.int8).reshape(c, c, 1, 1), zeros, None)
    d8 = ctx.transpose(requant(acc, xs / (c * sd), 0), TO_NCHW)
    sq = (127 * sd) ** 2 / 255
    q8 = product(d8, 0, d8, sd * sd / sq, -128)
    bias = np.full((c,), int(np.rint(eps * c / sq)), np.int32)
    acc = ops_quant._conv_integer(ctx, q8, np.array(-128), np.ones((c, c, 1, 1), np.int8), zeros, bias)
    v8 = ctx.transpose(requant(acc, sq / (c * np.float64(np.float32(sv))), zv), TO_NCHW)
    sr = rsqrt_scale(sv, zv)
    t = ctx.b.const(rsqrt_entries(sv, zv, eps, sr), hint="table", inline=True)
    r8 = ctx.b.op("tosa.table %s, %s : (%s, %s) -> $TYPE" % (v8.name, t.name, v8.type, t.type),
                  v8.shape, np.int8)
    n8 = product(r8, -128, d8, sr * sd / np.float64(np.float32(sn)),
                 int(zn) - (128 if zn.dtype == np.uint8 else 0))
    # y = |gamma_c| n + beta_c: qdq_affine's per-channel map of n8, read
    # as the quantized tensor it is (no view: per channel of the map).
    f.signed[n_name] = (n8, zn.dtype)
    f.views.pop(n_name, None)
    y = qdq_affine.emit(f, ctx, get, (n_name, sn, zn, np.abs(gamma).astype(np.float64),
                                      np.broadcast_to(beta, (c,)).astype(np.float64), None), ys, yz)
    f._out_view = (view,)
    return y
