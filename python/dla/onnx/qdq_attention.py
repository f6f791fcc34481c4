"""Attention's products of two activations (issue 45, docs/WholeNetworks.md
"From ONNX"): a MatMul whose operands are both run-time tensors, q k^T and
p v of a transformer's attention.

Quantizer (qdq.py, quantize_model): such a MatMul is quantized, its two
operands and its product each by a Q -> DQ pair, when its right operand's
quantization is per tensor at zero point 0: NVDLA reads a run-time weight
(dla.as_weights) raw, without a weight offset, and its SDP scales output
channels only, so the right operand's channels (the convolution's input
channels) share one scale: per-channel scales for it are a located error
naming the MatMul (check_operands); its zero point is 0 whatever the
table's offset (qdq.symmetric_tensors, the scale widened to cover the
range), and its left operand's too (see below).

Importer (qdq_fusion): DQ(a), DQ(b) -> MatMul -> Q becomes the exact
integer product, tosa.matmul i8 x i8 -> i32 with both zero points, then
ONE rescale to the output by fl32(a_scale * b_scale / y_scale) (as
onnxruntime's QLinearMatMul). --dla-convert-tosa offloads it as a
convolution by dla.as_weights when b's zero point is 0 (and a's: a
run-time weight's sum, which a's offset would multiply, is not known at
compile time); otherwise it stays an integer product on the host, with a
remark.
"""

import numpy as np

from . import ops_layout, ops_math, ops_quant, qdq_heads

GROUP = "MatMul2"  # the fusion's group kind: a product of two activations


def activation_product(node, static, inits):
    """Whether MatMul `node` multiplies two run-time tensors."""
    return node.op_type == "MatMul" and len(node.input) == 2 and \
        all(name not in static and name not in inits for name in node.input)


def check_operands(node, channel_factors):
    """Raises ValueError naming `node` when its right operand would be
    quantized per channel (`channel_factors`: the tensors channel_scales.py
    rescales): a run-time weight's channels are the convolution's input
    channels, and the SDP scales output channels only. Its zero point is
    0 whatever the table's offset (qdq.symmetric_tensors)."""
    b = node.input[1]
    if b in channel_factors:
        raise ValueError(
            "MatMul '%s' multiplies two activations: its right operand '%s' must be quantized per "
            "tensor (NVDLA reads it as the convolution's weights, whose input channels share one "
            "scale), not per channel" % (node.name or node.output[0], b))


# -- importer (qdq_fusion) ---------------------------------------------------


def match(fusion, i):
    """DQ(a), DQ(b) -> MatMul -> Q, a and b per tensor: (Q, members, params)."""
    n = fusion.nodes[i]
    a = fusion._act(n.input[0])
    b = fusion._act(n.input[1])
    return fusion._q(n.output[0]), [i], (a, b)


def _tensor(fusion, ctx, get, name, zp):
    """Quantized tensor `name` as an i8 Value of its ONNX shape, with its
    signed zero point."""
    v, z = fusion.signed_input(ctx, get, name, zp, views=(None, "cw", "tokens", "nhwc"))
    view = fusion.views.get(name)
    if view:
        from .qdq_fusion import map_to_view
        v = map_to_view(ctx, v, view)
    return v, z


def emit(fusion, ctx, get, params, ys, yz):
    from .qdq_fusion import _need, _f32, view_to_map
    (a, as_, azp), (b, bs, bzp) = params
    m = np.float32(np.float64(np.float32(as_)) * np.float32(bs) / np.float32(ys))
    _need(fusion._ok(m))
    mult, shift = ops_quant._multiplier(ctx, m)
    if any(qdq_heads.is_view(fusion.views.get(t)) for t in (a, b)):
        return _emit_heads(fusion, ctx, get, params, mult, shift, yz, ys)
    av, az = _tensor(fusion, ctx, get, a, azp)
    bv, bz = _tensor(fusion, ctx, get, b, bzp)
    _need(av.rank >= 2 and bv.rank >= 2)

    def mm3d(ctx_, x, w):
        return _product(ctx_, x, w, az, bz, mult, shift, yz)

    y = ops_math.matmul_values(ctx, av, bv, mm3d)
    if y.rank == 3:
        # Tokens [n, T, C]: the map [n, C, 1, T] (qdq_fusion's VIEWS), so
        # that a token FC after it is a convolution of the map.
        fusion._out_view = ("tokens",)
        return view_to_map(ctx, y, "tokens")
    fusion._out_view = (None,)
    return y


def _product(ctx, x, w, az, bz, mult, shift, yz, attrs=""):
    """rescale(tosa.matmul(x [n, M, K], w [n, K, P])): the exact integer
    product rounded once (`attrs`: the matmul's attribute dictionary)."""
    zx = ctx.b.const(np.asarray([az], np.int8))
    zw = ctx.b.const(np.asarray([bz], np.int8))
    acc = ctx.b.op("tosa.matmul %s, %s, %s, %s%s : (%s, %s, %s, %s) -> $TYPE"
                   % (x.name, w.name, zx.name, zw.name, attrs, x.type, w.type, zx.type, zw.type),
                   (x.shape[0], x.shape[1], w.shape[2]), np.int32)
    return ops_quant._rescale(ctx, acc, np.int8, mult, shift, out_zp=yz)


SOFTMAX_MARK = "dla.attention_softmax"


def _softmax_mark(fusion, p, v_scale, o_scale):
    """The attribute that marks p v's per-head products when p is
    Q(Softmax(DQ(s)) over the last axis) of int8 scores s: the scales
    --dla-convert-tosa's attention core needs to run the softmax on NVDLA
    (docs/WholeNetworks.md, "The softmax over 40 keys on nv_small"; its
    tables are the compiler's, DLATablePlans). The host program written
    here stays its fallback (onnxruntime's arithmetic). "" when p is not
    such a softmax."""
    from .qdq_fusion import _Reject
    qi = fusion.producer.get(p)
    if qi is None or fusion.nodes[qi].op_type != "QuantizeLinear":
        return ""
    si = fusion.producer.get(fusion.nodes[qi].input[0])
    if si is None or fusion.nodes[si].op_type != "Softmax":
        return ""
    sm = fusion.nodes[si]
    if fusion._attrs(sm).get("axis", -1 if fusion.opset >= 13 else 1) not in (-1, 3):
        return ""
    try:
        _, _, s_scale, _ = fusion._dq(sm.input[0])
    except _Reject:
        return ""
    if s_scale.size != 1:
        return ""
    f = lambda x: "%.17e : f64" % float(x)
    return " {%s = {o_scale = %s, scores_scale = %s, v_scale = %s}}" % (
        SOFTMAX_MARK, f(o_scale), f(np.asarray(s_scale).reshape(-1)[0]), f(v_scale))


def _emit_heads(fusion, ctx, get, params, mult, shift, yz, ys):
    """A product whose operands are a head split's parts (qdq_heads.py),
    per head h: q k^T as q_h's tokens [1, T, pd] by k_h's channels x width
    [1, pd, T] (channel slices of the parts' maps), the scores [1, H, T, T]
    joined on the batch; p v as p_h [1, T, T] by v_h's tokens [1, T, pd],
    the contexts [1, pd, 1, T] joined on channels, in v's heads view."""
    from .qdq_fusion import _need
    (a, as_, azp), (b, bs, bzp) = params
    views = [fusion.views.get(t) for t in (a, b)]
    av, az = fusion.signed_input(ctx, get, a, azp, views=(views[0],))
    bv, bz = fusion.signed_input(ctx, get, b, bzp, views=(views[1],))
    va, vb = views
    _need(qdq_heads.is_view(vb) and vb[1] in ("hdt", "htd"))
    heads = vb[2]
    if qdq_heads.is_view(va):
        # q k^T: q [n, H, T, d] by k^T [n, H, d, T], d padded on both.
        _need(va[1] == "htd" and vb[1] == "hdt" and va[2:] == vb[2:] and av.shape[0] == 1)
    else:
        # p v: p [1, H, T, T] (any tensor) by v [1, H, T, d].
        _need(va is None and vb[1] == "htd" and av.rank == 4 and av.shape[:2] == (1, heads) and
              av.shape[3] == bv.shape[3] and bv.shape[0] == 1)
    attrs = "" if qdq_heads.is_view(va) else _softmax_mark(fusion, a, bs, ys)
    outs = []
    for h in range(heads):
        if qdq_heads.is_view(va):
            ah = qdq_heads.head(ctx, av, va, h)
        else:
            ah = ctx.reshape(ops_layout._slice(ctx, av, [0, h, 0, 0], [1, 1] + list(av.shape[2:])),
                             (1,) + tuple(av.shape[2:]))
        bh = qdq_heads.head(ctx, bv, vb, h)
        _need(ah.shape[2] == bh.shape[1])
        outs.append(_product(ctx, ah, bh, az, bz, mult, shift, yz, attrs))
    if vb[1] == "hdt":
        # Scores [1, T, T] per head: the tensor [1, H, T, T].
        t = outs[0].shape[1]
        y = outs[0] if heads == 1 else ctx.b.op(
            "tosa.concat %s {axis = 0 : i32} : (%s) -> $TYPE" % (", ".join(o.name for o in outs),
                                                                 ", ".join(o.type for o in outs)),
            (heads, t, outs[-1].shape[2]), np.int8)
        fusion._out_view = (None,)
        return ctx.reshape(y, (1, heads, t, outs[-1].shape[2]))
    # Contexts [1, T, pd] per head: their maps [1, pd, 1, T] joined.
    from .qdq_fusion import view_to_map
    maps = [view_to_map(ctx, o, "tokens") for o in outs]
    y = maps[0] if heads == 1 else ctx.b.op(
        "tosa.concat %s {axis = 1 : i32} : (%s) -> $TYPE" % (", ".join(o.name for o in maps),
                                                             ", ".join(o.type for o in maps)),
        (1, heads * vb[4], 1, maps[0].shape[3]), np.int8)
    fusion._out_view = (vb,)
    return y
