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

from . import ops_math, ops_quant

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
    av, az = _tensor(fusion, ctx, get, a, azp)
    bv, bz = _tensor(fusion, ctx, get, b, bzp)
    _need(av.rank >= 2 and bv.rank >= 2)
    m = np.float32(np.float64(np.float32(as_)) * np.float32(bs) / np.float32(ys))
    _need(fusion._ok(m))
    mult, shift = ops_quant._multiplier(ctx, m)

    def mm3d(ctx_, x, w):
        zx = ctx_.b.const(np.asarray([az], np.int8))
        zw = ctx_.b.const(np.asarray([bz], np.int8))
        acc = ctx_.b.op("tosa.matmul %s, %s, %s, %s : (%s, %s, %s, %s) -> $TYPE"
                        % (x.name, w.name, zx.name, zw.name, x.type, w.type, zx.type, zw.type),
                        (x.shape[0], x.shape[1], w.shape[2]), np.int32)
        return ops_quant._rescale(ctx_, acc, np.int8, mult, shift, out_zp=yz)

    y = ops_math.matmul_values(ctx, av, bv, mm3d)
    if y.rank == 3:
        # Tokens [n, T, C]: the map [n, C, 1, T] (qdq_fusion's VIEWS), so
        # that a token FC after it is a convolution of the map.
        fusion._out_view = ("tokens",)
        return view_to_map(ctx, y, "tokens")
    fusion._out_view = (None,)
    return y
