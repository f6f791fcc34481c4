"""Attention's head split as channel views (issue 45, docs/WholeNetworks.md
"The head split"): PP-OCRv4's recognizer writes its heads as

    qkv = token FC [n, T, 3 H d] -> Q -> DQ -> Reshape [n, T, 3, H, d]
        -> Transpose [2, 0, 3, 1, 4] -> per part s: Slice [s, s + 1) of
        axis 0 and Squeeze 0 (or Gather s of axis 0) [-> Mul / Div by a
        constant (q * d^-1/2)] [-> Transpose [0, 1, 3, 2] (k^T)] -> Q

The qkv FC's result is the map [n, 3 H d, 1, T] (qdq_fusion's token
maps): head h of part s is its channels (s H + h) d .. + d, so q, k and v
are channel slices of it, no move. A slice is a view on NVDLA only when it
starts on a channel atom (8 on nv_small), so the FC's constant weights are
widened at compile time with zero kernels (bias 0) until each head
occupies pd = d rounded up to 8 channels (15 -> 16): the map [n, 3 H pd,
1, T], pad channel k's value is the FC's zero point, i.e. a real 0; no
result changes (a padded dim of k contributes 0 to q k^T, of v a column
no one reads).

Each part is then one requantization i8 -> i8 of its channel slice (the
move's values, times the constant, from the qkv's quantization to the
part's: rescale by fl(xs) c / fl(ys) with both zero points: one offline
SDP pass on NVDLA, within one LSB of onnxruntime's float arithmetic as
qdq_affine's maps), its result the map [n, H pd, 1, T] in the view
("heads", order, H, d, pd): order "htd" is the ONNX tensor [n, H, T, d]
(q, v), "hdt" [n, H, d, T] (k^T), "tokens" [n, T, H d] (the FC's own
result). qdq_attention writes a product of such operands per head, each
head a channel slice: q k^T as A_h [1, T, pd] (the slice's tokens) by B_h
[1, pd, T] (its channels x width), p v as p_h by v_h's tokens, the
contexts joined on channels in the same view.

A reader outside the fused groups gets the ONNX tensor back (materialize:
the pad channels dropped, the order restored; host moves).
"""

import numpy as np

from .context import TO_NCHW, TO_NHWC
from . import ops_layout, ops_quant

GROUP = "Heads"  # the fusion's group kind: one part of a head split
PERM = [2, 0, 3, 1, 4]
ATOM = 8  # channels of a head rounded up to this (nv_small's int8 channel atom)


def padded(d):
    return -(-d // ATOM) * ATOM


def is_view(view):
    return isinstance(view, tuple) and len(view) == 5 and view[0] == "heads"


# -- matching (ONNX graph only) ----------------------------------------------


def _static(f, name, depth=0):
    """Integer values of shape tensor `name` where constants give them (a
    Constant node, an initializer, Cast / Concat / Unsqueeze of such), -1
    for a part only the input shape gives (Shape -> Slice: one entry);
    None when neither."""
    c = f._const(name)
    if c is not None:
        return [int(v) for v in np.asarray(c).reshape(-1)]
    i = f.producer.get(name)
    if i is None or depth > 8:
        return None
    n = f.nodes[i]
    if n.op_type == "Constant":
        from onnx import numpy_helper
        a = f._attrs(n)
        if "value" not in a:
            return None
        return [int(v) for v in numpy_helper.to_array(a["value"]).reshape(-1)]
    if n.op_type in ("Cast", "Unsqueeze", "Squeeze", "Reshape"):
        return _static(f, n.input[0], depth + 1)
    if n.op_type == "Concat":
        out = []
        for x in n.input:
            v = _static(f, x, depth + 1)
            out += [-1] if v is None else v
        return out
    return None


def _slice_part(f, i):
    """Part index s of node i taking element s of axis 0 of a [3, ...]
    tensor and dropping the axis (Gather, or Slice then Squeeze): (s, the
    nodes, the last node's index)."""
    from .qdq_fusion import _need
    n = f.nodes[i]
    a = f._attrs(n)
    if n.op_type == "Gather":
        idx = f._const(n.input[1])
        _need(a.get("axis", 0) == 0 and idx is not None and idx.ndim == 0)
        return int(idx), [i], i
    _need(n.op_type == "Slice")
    if len(n.input) > 1:
        vals = [f._const(x) if x else None for x in list(n.input[1:]) + [""] * 4][:4]
        _need(all(v is not None for v in vals[:2]))
        starts, ends = vals[0].reshape(-1), vals[1].reshape(-1)
        axes = vals[2].reshape(-1) if vals[2] is not None else np.arange(len(starts))
        _need(vals[3] is None or np.all(vals[3] == 1))
    else:
        starts, ends, axes = (np.asarray(a.get(k, [])) for k in ("starts", "ends", "axes"))
        if not axes.size:
            axes = np.arange(len(starts))
    _need(len(starts) == 1 and int(axes[0]) == 0 and 0 <= int(starts[0]) < 3 and
          int(ends[0]) == int(starts[0]) + 1)
    r = f._single_reader(n.output[0])
    sq = f.nodes[r]
    _need(sq.op_type == "Squeeze")
    axes = f._attrs(sq).get("axes")
    if len(sq.input) > 1 and sq.input[1]:
        axes = f._const(sq.input[1])
    _need(axes is not None and [int(v) for v in np.asarray(axes).reshape(-1)] == [0])
    return int(starts[0]), [i, r], r


def match(f, i):
    """Node i a Reshape starting a head split (see the module's doc): a list
    of (Q, members, params) per part, the FC's padding recorded in f.pads;
    _Reject when it is not one."""
    from .qdq_fusion import _need, _Reject
    from . import qdq_affine
    n = f.nodes[i]
    _need(n.op_type == "Reshape")
    x, xs, xzp = f._act(n.input[0])
    # x: the qkv FC's quantized result, read by this DQ alone.
    q_fc = f.producer.get(x)
    _need(q_fc is not None and q_fc in f.groups and f.groups[q_fc][0] in ("MatMul", "Gemm"))
    dq = f.producer[n.input[0]]
    _need(f.readers.get(x, []) == [dq] and x not in f.outputs)
    _need(f._single_reader(n.input[0]) == i)
    shape = _static(f, n.input[1])
    _need(shape is not None and len(shape) == 5 and shape[2] in (3, -1) and shape[3] > 0 and shape[4] > 0)
    heads, dim = shape[3], shape[4]
    w = f.groups[q_fc][2][3]  # the FC's weight [N, K]
    _need(w.shape[0] == 3 * heads * dim)
    t = f._single_reader(n.output[0])
    tn = f.nodes[t]
    _need(tn.op_type == "Transpose" and list(f._attrs(tn).get("perm", [])) == PERM)
    _need(tn.output[0] not in f.outputs)
    groups, seen = [], set()
    for r in f.readers.get(tn.output[0], []):
        s, members, last = _slice_part(f, r)
        _need(s not in seen)
        seen.add(s)
        factor, transposed = 1.0, False
        out = f.nodes[last].output[0]
        while True:
            _need(out not in f.outputs)
            k = f._single_reader(out)
            m = f.nodes[k]
            if m.op_type == "QuantizeLinear":
                break
            if m.op_type == "Transpose" and not transposed:
                _need(list(f._attrs(m).get("perm", [])) == [0, 1, 3, 2])
                transposed = True
            else:
                step = qdq_affine.affine_step(f, m, out)
                _need(step is not None)
                a, c = step
                _need(a.size == 1 and c.size == 1 and not np.any(c) and float(a[0]) != 0.0)
                factor *= float(a[0])
            members.append(k)
            out = m.output[0]
        q = f._q(out)
        groups.append((q, members, dict(x=x, xs=xs, xzp=xzp, part=s, factor=factor, transposed=transposed,
                                        heads=heads, dim=dim, reshape=i, fc=q_fc)))
    _need(groups)
    if any(q[0] in f.groups or any(m in f.owner for m in members) for q, members, _ in groups):
        raise _Reject()
    f.pads[q_fc] = (3 * heads, dim, padded(dim))
    # The Reshape and Transpose serve every part: the first group holds
    # them, the others name them (f.shared) for their fallback.
    groups[0][1][:0] = [i, t]
    for q, _, _ in groups[1:]:
        f.shared[q[0]] = [i, t]
    return groups


# -- emission ----------------------------------------------------------------


def widen(w, ws, wzp, bias, groups, dim, pd):
    """The FC's weight [N, K] (N = groups dim), its per-column scales, zero
    points and bias with zero kernels after each group's dim columns, so
    that group g occupies columns g pd .. g pd + pd - 1."""
    cols = np.concatenate([np.arange(dim) + g * pd for g in range(groups)])
    n = groups * pd

    def spread(v, fill):
        if v is None or np.size(v) <= 1:
            return v
        out = np.full((n,) + v.shape[1:], fill, v.dtype)
        out[cols] = v
        return out

    w2 = np.zeros((n,) + w.shape[1:], w.dtype)
    w2[cols] = w
    # A zero kernel's scale: its group's first (any valid multiplier does).
    ws2 = ws if np.size(ws) <= 1 else np.repeat(np.asarray(ws).reshape(groups, dim)[:, :1], pd, 1).reshape(-1)
    if np.size(ws) > 1:
        ws2 = ws2.astype(ws.dtype)
        ws2[cols] = ws
    return w2, ws2, spread(wzp, 0), spread(bias, 0)


def _slice_channels(ctx, v, first, count):
    n, _, h, w = v.shape
    return ops_layout._slice(ctx, v, [0, first, 0, 0], [n, count, h, w])


def emit_part(f, ctx, get, params, ys, yz):
    """One part: the channel slice of the padded qkv map requantized to the
    part's scale (see the module's doc), in the view ("heads", ...)."""
    from .qdq_fusion import _need
    p = params
    xv, xz = f.signed_input(ctx, get, p["x"], p["xzp"], views=(("heads", "tokens", 3 * p["heads"],
                                                                  p["dim"], padded(p["dim"])),))
    heads, dim, pd = p["heads"], p["dim"], padded(p["dim"])
    # The Reshape's shape as the importer knows it now (the FC's own
    # check was of its constant dims).
    rnode = f.nodes[p["reshape"]]
    shape = f._flat_shape(get, p["reshape"], (xv.shape[0], xv.shape[3], 3 * heads * dim)) \
        if len(rnode.input) > 1 else None
    _need(shape == (xv.shape[0], xv.shape[3], 3, heads, dim))
    part = _slice_channels(ctx, xv, p["part"] * heads * pd, heads * pd)
    m = np.float64(np.float32(p["xs"])) * np.float64(np.float32(p["factor"])) / np.float64(np.float32(ys))
    negative = m < 0
    m = abs(m)
    _need(f._ok(m) and not negative)
    mult, shift = ops_quant._multiplier(ctx, np.float32(m))
    y = ops_quant._rescale(ctx, ctx.transpose(part, TO_NHWC), np.int8, mult, shift, in_zp=xz, out_zp=yz)
    f._out_view = (("heads", "hdt" if p["transposed"] else "htd", heads, dim, pd),)
    return ctx.transpose(y, TO_NCHW)


def materialize(ctx, v, view):
    """The ONNX tensor of map v [n, G pd, 1, T] in heads view `view`."""
    _, order, groups, dim, pd = view
    n, _, _, t = v.shape
    x = ctx.reshape(v, (n, groups, pd, t))
    if dim != pd:
        x = ops_layout._slice(ctx, x, [0, 0, 0, 0], [n, groups, dim, t])
    if order == "hdt":
        return x
    if order == "htd":
        return ctx.transpose(x, (0, 1, 3, 2))
    if order == "thd":
        return ctx.transpose(x, (0, 3, 1, 2))
    return ctx.reshape(ctx.transpose(x, (0, 3, 1, 2)), (n, t, groups * dim))


def move(f, get, i, view, xv):
    """The heads view node i (a Transpose / Reshape quantized alike on both
    sides) gives map xv in `view`: [n, H, T, d] -> Transpose [0, 2, 1, 3]
    -> [n, T, H, d] -> Reshape [n, T, H d] (the contexts back to tokens);
    _Reject otherwise."""
    from .qdq_fusion import _need
    node = f.nodes[i]
    _, order, groups, dim, pd = view
    n, t = xv.shape[0], xv.shape[3]
    if node.op_type == "Transpose":
        _need(order == "htd" and list(f._attrs(node).get("perm", [])) == [0, 2, 1, 3])
        return ("heads", "thd", groups, dim, pd)
    _need(node.op_type == "Reshape" and order == "thd")
    _need(f._flat_shape(get, i, (n, t, groups, dim)) == (n, t, groups * dim))
    return ("heads", "tokens", groups, dim, pd)


def widen_rows(w, view):
    """An FC's weight [N, G d] reading tokens in heads view `view` (G
    groups of d channels, each on pd): [N, G pd], zero rows at the pads."""
    _, _, groups, dim, pd = view
    from .qdq_fusion import _need
    _need(w.shape[1] == groups * dim)
    out = np.zeros((w.shape[0], groups, pd), w.dtype)
    out[:, :, :dim] = w.reshape(w.shape[0], groups, dim)
    return out.reshape(w.shape[0], groups * pd)


def head(ctx, v, view, h):
    """Head h of map v in heads view `view`: (the map's slice [n, pd, 1,
    T], as the rank-3 operand: "htd" its tokens [n, T, pd], "hdt" its
    channels x width [n, pd, T])."""
    _, order, _, _, pd = view
    s = _slice_channels(ctx, v, h * pd, pd)
    if order == "hdt":
        return ctx.reshape(s, (s.shape[0], pd, s.shape[3]))
    return ctx.reshape(ctx.transpose(s, TO_NHWC), (s.shape[0], s.shape[3], pd))
