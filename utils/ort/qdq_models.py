#!/usr/bin/env python3
"""QDQ-form ONNX models as onnxruntime's quantizer writes them, random from
a seed: QuantizeLinear -> DequantizeLinear on activations, int8 weights
(per tensor or per output channel, axis 0) and int32 biases (scale
x_scale * w_scale, zero point 0) under DequantizeLinear.

    qdq_models.py OUT_DIR [--seed S] [--kind K] [--per-channel] [--uint8]

Kinds: conv, conv_relu_maxpool, conv_avgpool, residual (conv -> relu ->
conv, + skip, relu), residual_symmetric (the same with the add's
operands and output at zero point 0, int8: the add's Relu fused into its
SDP's BN), affine (conv, then between its Q -> DQ and a Q one of
BatchNormalization, BatchNormalization -> Relu, BatchNormalization -> Clip,
Relu, HardSigmoid: the per-channel maps of issue 45), hardswish (a
BatchNormalization then a decomposed hard-swish), affine_hardswish (scalar
x * a + b, the decomposed hard-swish, * a2 + b2 and on odd seeds a
per-channel factor spanning 100x: PP-OCRv4's recognizer blocks), fc (conv, global
average pool, Reshape or Flatten, MatMul by an int8 weight and the Add of
its int32 bias: a classifier's head, one int8 fully connected layer),
tokens (conv over a map of one row, its W pixels as tokens [1, W, C]
through Reshape / Transpose, an MLP of two token FCs with a swish x *
sigmoid(1.0 x) between them, the residual add, back to the map: a
transformer block's integer layers, qdq_fusion's views), layernorm (conv
over a map of one row, its tokens through Reshape / Transpose, a
LayerNormalization over their channels spelled out as exporters write it,
var + eps and the normalized values quantized as qdq.py does, back to
the map: qdq_layernorm.py), attention (conv over a map of one row, its
tokens [1, T, C], q, k, v as token FCs, their heads through Reshape /
Transpose as PP-OCRv4's recognizer exports them (k^T by a Transpose),
MatMul(q, k^T), Softmax over the keys, MatMul(p, v), the heads back to
tokens: q, k, v and p at zero point 0, per tensor, as qdq_attention.py
quantizes them; on odd seeds 2 heads of 8 or 16 dims (15 on seed 3, as
the recognizer's) through Reshape / Transpose, on even seeds one head, the
tokens themselves), attention_qkv (PP-OCRv4's recognizer's form: one qkv
token FC of 3 H d columns, Reshape to [1, T, 3, H, d], Transpose [2, 0, 3,
1, 4], Slice and Squeeze per q, k, v (opset 13's inputs; Gather on odd
seeds), q * d^-1/2, k^T by a Transpose, the products and the Softmax as
in attention, the heads back to tokens and on odd seeds their projection
(a token FC); q, k, v quantized after the
float moves as qdq.py writes them: seed 0 the recognizer's 8 heads of 15
dims over 40 tokens, others 2 or 3 heads of 15, 8 or 16 dims over 8, 16
or 40 tokens). The input is float32 (quantized at entry), the output
the int8 / uint8 tensor: comparisons are in the quantized domain. Output
scales and zero points come from the float range on a sample input, as
calibration would; after a Relu the zero point is the range's minimum
(what the quantizer writes) or, for some seeds, random (exercising the
clamp).
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

KINDS = ("conv", "conv_relu_maxpool", "conv_avgpool", "residual", "residual_symmetric", "affine",
         "hardswish", "affine_hardswish", "gate", "fc", "tokens", "layernorm", "attention",
         "attention_qkv")


def _conv_f(x, w, b, stride, pad):
    """NCHW float64 convolution (the calibration's float model)."""
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[2]
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(2, 3))[:, :, ::stride, ::stride]
    return np.einsum("nchwij,ocij->nohw", win, w) + b.reshape(1, -1, 1, 1)


def _pool_f(v, kind, k, s, pad):
    """NCHW float64 max / average pool (the average over the elements
    inside the input: count_include_pad = 0)."""
    fill = -np.inf if kind == "max" else 0.0
    x = np.pad(v, ((0, 0), (0, 0), (pad, pad), (pad, pad)), constant_values=fill)
    ones = np.pad(np.ones_like(v), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = np.lib.stride_tricks.sliding_window_view(x, (k, k), axis=(2, 3))[:, :, ::s, ::s]
    if kind == "max":
        return win.max(axis=(4, 5))
    cnt = np.lib.stride_tricks.sliding_window_view(ones, (k, k), axis=(2, 3))[:, :, ::s, ::s]
    return win.sum(axis=(4, 5)) / cnt.sum(axis=(4, 5))


class _Builder:
    def __init__(self, rng, dtype, per_channel):
        self.rng, self.dtype, self.per_channel = rng, np.dtype(dtype), per_channel
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, base):
        self.n += 1
        return "%s%d" % (base, self.n)

    def init(self, base, value):
        n = self.name(base)
        self.inits.append(numpy_helper.from_array(np.asarray(value), n))
        return n

    def params(self, lo, hi, relu=False):
        """(scale, zero point) covering [lo, hi] (with 0) in self.dtype."""
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        scale = np.float32(max(hi - lo, 1e-3) / 255)
        qmin = -128 if self.dtype == np.int8 else 0
        zp = qmin + int(round(-lo / scale))
        shift = int(self.rng.integers(0, 40))
        if relu and self.rng.random() < 0.5:
            zp += shift  # a clamp above the range's minimum
        return scale, np.array(np.clip(zp, qmin, qmin + 255), self.dtype)

    def qdq(self, t, scale, zp, value):
        """Q -> DQ of tensor t; returns (dq name, the float values it holds)."""
        s, z = self.init("s", np.float32(scale)), self.init("z", zp)
        q, d = self.name("q"), self.name("dq")
        self.nodes += [helper.make_node("QuantizeLinear", [t, s, z], [q]),
                       helper.make_node("DequantizeLinear", [q, s, z], [d])]
        qmin, qmax = (-128, 127) if self.dtype == np.int8 else (0, 255)
        v = (np.clip(np.rint(value / scale) + int(zp), qmin, qmax) - int(zp)) * np.float64(scale)
        return q, d, v

    def conv(self, xd, x_scale, xv, cout, k, stride, relu=False):
        cin = xv.shape[1]
        w = self.rng.integers(-127, 128, (cout, cin, k, k)).astype(np.int8)
        nws = cout if self.per_channel else 1  # the same draws either way
        ws = (self.rng.uniform(0.3, 1.0, cout)[:nws] / (np.sqrt(cin * k * k) * 40)).astype(np.float32)
        bs = (np.float32(x_scale) * ws).astype(np.float32)
        bias = self.rng.integers(-3000, 3000, cout).astype(np.int32)
        wd, bd = self.name("wdq"), self.name("bdq")
        axis = {"axis": 0} if self.per_channel else {}
        self.nodes += [helper.make_node("DequantizeLinear", [self.init("w", w), self.init("ws", ws.reshape(-1) if
                                        self.per_channel else ws[0]), self.init("wz", np.zeros(nws, np.int8)
                                        if self.per_channel else np.int8(0))], [wd], **axis),
                       helper.make_node("DequantizeLinear", [self.init("b", bias), self.init("bs", bs if
                                        self.per_channel else bs[0])], [bd], **axis)]
        y = self.name("conv")
        self.nodes.append(helper.make_node("Conv", [xd, wd, bd], [y], kernel_shape=[k, k],
                                           strides=[stride, stride], pads=[k // 2] * 4))
        wf = w.astype(np.float64) * np.broadcast_to(ws, (cout,)).reshape(-1, 1, 1, 1)
        v = _conv_f(xv, wf, bias * np.broadcast_to(bs, (cout,)).astype(np.float64), stride, k // 2)
        if relu:
            r = self.name("relu")
            self.nodes.append(helper.make_node("Relu", [y], [r]))
            y, v = r, np.maximum(v, 0)
        return y, v


def _symmetric(b, value):
    """(scale, zero point) of `value` at zero point 0 in signed form (uint8:
    128), per tensor: what a run-time convolution weight needs."""
    scale = np.float32(max(np.abs(value).max(), 1e-3) / 127)
    return scale, np.array(0 if b.dtype == np.int8 else 128, b.dtype)


def _token_fc(b, rng, xd, x_scale, xv, n_out):
    """MatMul by an int8 weight [K, n_out] (per tensor or column) + the Add
    of its int32 bias; (output name, float values) unquantized."""
    k_in = xv.shape[-1]
    w = rng.integers(-127, 128, (k_in, n_out)).astype(np.int8)
    nws = n_out if b.per_channel else 1
    ws = (rng.uniform(0.3, 1.0, n_out)[:nws] / (np.sqrt(k_in) * 10)).astype(np.float32)
    bs = (np.float32(x_scale) * ws).astype(np.float32)
    bias = rng.integers(-3000, 3000, n_out).astype(np.int32)
    wd, bd, mm, o = b.name("wdq"), b.name("bdq"), b.name("matmul"), b.name("add")
    axis = {"axis": 1} if b.per_channel else {}
    b.nodes.extend([
        helper.make_node("DequantizeLinear", [b.init("w", w), b.init("ws", ws if b.per_channel else ws[0]),
                         b.init("wz", np.zeros(nws, np.int8) if b.per_channel else np.int8(0))], [wd], **axis),
        helper.make_node("DequantizeLinear", [b.init("b", bias), b.init("bs", bs if b.per_channel else bs[0])],
                         [bd], **({"axis": 0} if b.per_channel else {})),
        helper.make_node("MatMul", [xd, wd], [mm]), helper.make_node("Add", [mm, bd], [o])])
    wf = w.astype(np.float64) * np.broadcast_to(ws, (n_out,))
    return o, xv @ wf + bias * np.broadcast_to(bs, (n_out,)).astype(np.float64)


def _core(b, q, k, v):
    """The attention core as qdq.py quantizes it, from the quantized q, k^T
    and v ((DQ output, values) each): s = q k^T, DQ -> Softmax -> Q at
    1/127 -> p v: (p v's output, its values, its scale and zero point)."""
    (qd, qv), (kd, kv), (vd, vv) = q, k, v
    s_, p_, o_ = b.name("scores"), b.name("softmax"), b.name("context")
    b.nodes.append(helper.make_node("MatMul", [qd, kd], [s_]))
    sv = qv @ kv
    _, sd, sv = b.qdq(s_, *b.params(sv.min(), sv.max()), sv)
    b.nodes.append(helper.make_node("Softmax", [sd], [p_], axis=-1))
    e = np.exp(sv - sv.max(-1, keepdims=True))
    pv = e / e.sum(-1, keepdims=True)
    _, pd, pv = b.qdq(p_, np.float32(1 / 127), np.array(0 if b.dtype == np.int8 else 128, b.dtype), pv)
    b.nodes.append(helper.make_node("MatMul", [pd, vd], [o_]))
    ov = pv @ vv
    return o_, ov, b.params(ov.min(), ov.max())


def _attention(b, rng, xd, xs, xv, k, seed):
    """The attention kind (see the module's doc): (output name, values)."""
    heads = 1 + seed % 2
    dim = 15 if seed == 3 else int(rng.choice([8, 16]))
    y, v = b.conv(xd, xs, xv, int(rng.integers(8, 40)), k, 1)
    ms, mz = b.params(v.min(), v.max())
    _, md, v = b.qdq(y, ms, mz, v)
    n_tok, ch = v.shape[3], v.shape[1]

    def move(src, op, value, params, **kw):
        """A data movement node, its output quantized as its input."""
        o = b.name(op.lower())
        args = [src] + ([b.init("shape", np.array(kw.pop("shape"), np.int64))] if op == "Reshape" else [])
        b.nodes.append(helper.make_node(op, args, [o], **kw))
        return b.qdq(o, *params, value)[1]

    tv = v.reshape(1, ch, n_tok).transpose(0, 2, 1)
    td = move(move(md, "Reshape", v.reshape(1, ch, n_tok), (ms, mz), shape=[1, ch, n_tok]), "Transpose",
              tv, (ms, mz), perm=[0, 2, 1])
    parts = {}
    for name in "qkv":
        o, val = _token_fc(b, rng, td, ms, tv, heads * dim)
        sp = _symmetric(b, val)
        _, d, val = b.qdq(o, *sp, val)
        if heads == 1:
            # One head: the tokens [1, T, d] themselves, k^T by a Transpose.
            parts[name] = (move(d, "Transpose", val.transpose(0, 2, 1), sp, perm=[0, 2, 1]),
                           val.transpose(0, 2, 1)) if name == "k" else (d, val)
            continue
        val4 = val.reshape(1, n_tok, heads, dim)
        r = move(d, "Reshape", val4, sp, shape=[1, n_tok, heads, dim])
        perm = [0, 2, 3, 1] if name == "k" else [0, 2, 1, 3]
        parts[name] = (move(r, "Transpose", val4.transpose(perm), sp, perm=perm), val4.transpose(perm))
    o_, ov, op_ = _core(b, parts["q"], parts["k"], parts["v"])
    if heads == 1:
        out, _, vo = b.qdq(o_, *op_, ov)
        return out, vo
    _, od, ov = b.qdq(o_, *op_, ov)
    t = move(od, "Transpose", ov.transpose(0, 2, 1, 3), op_, perm=[0, 2, 1, 3])
    o = b.name("reshape")
    b.nodes.append(helper.make_node("Reshape", [t, b.init("shape", np.array([1, n_tok, heads * dim], np.int64))],
                                    [o]))
    ov = ov.transpose(0, 2, 1, 3).reshape(1, n_tok, heads * dim)
    out, _, vo = b.qdq(o, *op_, ov)
    return out, vo


def _attention_qkv(b, rng, xd, xs, xv, k, seed):
    """The attention_qkv kind (see the module's doc): (output name, values)."""
    if seed == 0:
        heads, dim = 8, 15
    else:
        heads, dim = int(rng.choice([2, 3])), int(rng.choice([15, 8, 16]))
    y, v = b.conv(xd, xs, xv, int(rng.integers(8, 40)), k, 1)
    ms, mz = b.params(v.min(), v.max())
    _, md, v = b.qdq(y, ms, mz, v)
    n_tok, ch = v.shape[3], v.shape[1]

    def node(op, src, **kw):
        o = b.name(op.lower())
        args = [src] + [b.init(name, np.array(val, np.int64)) for name, val in kw.pop("inputs", [])]
        b.nodes.append(helper.make_node(op, args, [o], **kw))
        return o

    tv = v.reshape(1, ch, n_tok).transpose(0, 2, 1)
    td = b.qdq(node("Transpose", b.qdq(node("Reshape", md, inputs=[("shape", [1, ch, n_tok])]), ms, mz,
                                       v.reshape(1, ch, n_tok))[1], perm=[0, 2, 1]), ms, mz, tv)[1]
    o, val = _token_fc(b, rng, td, ms, tv, 3 * heads * dim)
    qs, qz = b.params(val.min(), val.max())
    # The parts' scales from the float projection (as calibration's): from
    # its quantized values, the part's largest would be the qkv's extreme
    # exactly, its requantization factor 127/128 and half the values ties.
    raw = val.reshape(1, n_tok, 3, heads, dim).transpose(2, 0, 3, 1, 4)
    _, qkv, val = b.qdq(o, qs, qz, val)
    r = node("Reshape", qkv, inputs=[("shape", [1, n_tok, 3, heads, dim])])
    t = node("Transpose", r, perm=[2, 0, 3, 1, 4])
    split = val.reshape(1, n_tok, 3, heads, dim).transpose(2, 0, 3, 1, 4)
    parts = []
    for s in range(3):
        if seed % 2:
            part = node("Gather", t, inputs=[("index", s)], axis=0)
        else:
            part = node("Squeeze", node("Slice", t, inputs=[("starts", [s]), ("ends", [s + 1]), ("axes", [0])]),
                        inputs=[("axes", [0])])
        pv, rv = split[s], raw[s]
        if s == 0:
            c = np.float32(dim ** -0.5)
            mul = b.name("mul")
            b.nodes.append(helper.make_node("Mul", [part, b.init("scale", c)], [mul]))
            part = mul
            pv, rv = pv * np.float64(c), rv * np.float64(c)
        if s == 1:
            part, pv = node("Transpose", part, perm=[0, 1, 3, 2]), pv.transpose(0, 1, 3, 2)
        _, d, pv = b.qdq(part, *_symmetric(b, rv), pv)
        parts.append((d, pv))
    o_, ov, op_ = _core(b, *parts)
    _, od, ov = b.qdq(o_, *op_, ov)
    t = node("Transpose", od, perm=[0, 2, 1, 3])
    _, td2, ov = b.qdq(t, *op_, ov.transpose(0, 2, 1, 3))
    o = node("Reshape", td2, inputs=[("shape", [1, n_tok, heads * dim])])
    if seed % 2 == 0:
        out, _, vo = b.qdq(o, *op_, ov.reshape(1, n_tok, heads * dim))
        return out, vo
    _, rd, ov = b.qdq(o, *op_, ov.reshape(1, n_tok, heads * dim))
    # The projection: a token FC over the heads joined (odd seeds: after
    # it, p v's near-ties, one LSB, reach more outputs).
    o, val = _token_fc(b, rng, rd, op_[0], ov, ch)
    out, _, vo = b.qdq(o, *b.params(val.min(), val.max()), val)
    return out, vo


def build(kind, seed, per_channel=False, dtype=np.int8, probe=False):
    """(model, input shape, pool) of one random QDQ model. For an average
    pool, pool = (kernel, stride, pad, zero point) of its quantized input,
    which `probe` adds as a second output (to find ties of the mean)."""
    rng = np.random.default_rng(seed)
    b = _Builder(rng, dtype, per_channel)
    c = int(rng.integers(1, 20))
    h, w = (int(v) for v in rng.integers(5, 17, 2))
    if kind == "attention":
        h, w = 1, int(rng.choice([8, 16, 40]))  # tokens: multiples of 8 (a 1x1 map of W / 8 rows)
    if kind == "attention_qkv":
        h, w = 1, 40 if seed == 0 else int(rng.choice([8, 16, 40]))
    if kind in ("tokens", "layernorm"):
        h = 1  # a map of one row: its pixels are the tokens
    shape = (1, c, h, w)
    sample = rng.uniform(-1, 1, shape)
    xs, xz = b.params(-1.0, 1.0)
    if dtype == np.int8:
        xz = np.array(int(rng.integers(-20, 21)), np.int8)
    else:
        xz = np.array(int(rng.integers(108, 149)), np.uint8)
    _, xd, xv = b.qdq("x", xs, xz, sample)
    k, stride = int(rng.choice([1, 3])), int(rng.choice([1, 2]))
    cout = int(rng.integers(1, 40))
    pool, extra = None, []
    if kind == "conv":
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        out, _, vo = b.qdq(y, *b.params(v.min(), v.max()), v)
    elif kind == "conv_relu_maxpool":
        y, v = b.conv(xd, xs, xv, cout, k, 1, relu=True)
        ys, yz = b.params(v.min(), v.max(), relu=True)
        _, yd, v = b.qdq(y, ys, yz, v)
        p = b.name("pool")
        k, s = [(2, 2), (3, 2), (3, 1)][int(rng.integers(0, 3))]
        b.nodes.append(helper.make_node("MaxPool", [yd], [p], kernel_shape=[k, k], strides=[s, s],
                                        pads=[k // 2 if k == 3 else 0] * 4))
        v = _pool_f(v, "max", k, s, k // 2 if k == 3 else 0)
        out, _, vo = b.qdq(p, ys, yz, v)  # the quantizer keeps MaxPool's parameters
    elif kind == "conv_avgpool":
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        ys, yz = b.params(v.min(), v.max())
        yq, yd, v = b.qdq(y, ys, yz, v)
        if probe:
            extra = [helper.make_tensor_value_info(yq, TensorProto.INT8 if np.dtype(dtype) == np.int8
                                                   else TensorProto.UINT8, v.shape)]
        p = b.name("pool")
        if rng.random() < 0.4:
            b.nodes.append(helper.make_node("GlobalAveragePool", [yd], [p]))
            pool = ((v.shape[2], v.shape[3]), 1, 0, int(yz))
            v = v.mean(axis=(2, 3), keepdims=True)
        else:
            k, s = [(2, 2), (3, 2), (3, 1)][int(rng.integers(0, 3))]
            b.nodes.append(helper.make_node("AveragePool", [yd], [p], kernel_shape=[k, k],
                                            strides=[s, s], pads=[k // 2 if k == 3 else 0] * 4))
            pool = ((k, k), s, k // 2 if k == 3 else 0, int(yz))
            v = _pool_f(v, "avg", k, s, k // 2 if k == 3 else 0)
        out, _, vo = b.qdq(p, ys, yz, v)  # and AveragePool's (same as input)
    elif kind == "residual_symmetric":
        # Symmetric int8 (TensorRT's and dla-calibrate's default): the add's
        # operands and output at zero point 0 (uint8: 128, TOSA's -128).
        y, v = b.conv(xd, xs, xv, c, 3, 1, relu=True)
        ys, yz = b.params(v.min(), v.max(), relu=True)
        _, yd, v = b.qdq(y, ys, yz, v)
        y, v = b.conv(yd, ys, v, c, 3, 1)
        zero = np.array(0 if np.dtype(dtype) == np.int8 else 128, dtype)
        _, ed, v = b.qdq(y, np.float32(max(np.abs(v).max(), 1e-3) / 127), zero, v)
        _, sd, sv = b.qdq(xd, np.float32(1.0 / 127), zero, xv)
        a, r = b.name("add"), b.name("relu")
        b.nodes += [helper.make_node("Add", [ed, sd], [a]), helper.make_node("Relu", [a], [r])]
        v = np.maximum(v + sv, 0)
        out, _, vo = b.qdq(r, np.float32(max(v.max(), 1e-3) / 127), zero, v)
    elif kind == "residual":
        y, v = b.conv(xd, xs, xv, c, 3, 1, relu=True)
        ys, yz = b.params(v.min(), v.max(), relu=True)
        _, yd, v = b.qdq(y, ys, yz, v)
        y, v = b.conv(yd, ys, v, c, 3, 1)
        _, yd, v = b.qdq(y, *b.params(v.min(), v.max()), v)
        a, r = b.name("add"), b.name("relu")
        b.nodes += [helper.make_node("Add", [yd, xd], [a]), helper.make_node("Relu", [a], [r])]
        v = np.maximum(v + xv, 0)
        out, _, vo = b.qdq(r, *b.params(v.min(), v.max(), relu=True), v)
    elif kind == "affine":
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        _, yd, v = b.qdq(y, *b.params(v.min(), v.max()), v)
        form = ["bn", "bn_relu", "bn_clip", "relu", "hardsigmoid"][int(rng.integers(0, 5))]
        o = b.name(form)
        if form.startswith("bn"):
            gamma = rng.uniform(0.2, 3.0, cout).astype(np.float32)
            if seed % 2:
                gamma[::3] *= -1  # negative scales (qdq_affine.py: a sign per channel)
            beta, mean = (rng.uniform(-1, 1, cout).astype(np.float32) for _ in range(2))
            var = rng.uniform(0.1, 2.0, cout).astype(np.float32)
            b.nodes.append(helper.make_node("BatchNormalization", [yd] + [
                b.init(n, t) for n, t in (("g", gamma), ("be", beta), ("m", mean), ("v", var))],
                [o], epsilon=1e-5))
            a = (gamma / np.sqrt(var.astype(np.float64) + 1e-5)).reshape(1, -1, 1, 1)
            v = (v - mean.reshape(1, -1, 1, 1)) * a + beta.reshape(1, -1, 1, 1)
            if form != "bn":
                r = b.name("act")
                lo, hi = (0.0, None) if form == "bn_relu" else (-0.5, 1.5)
                ins = [o] if hi is None else [o, b.init("lo", np.float32(lo)),
                                             b.init("hi", np.float32(hi))]
                b.nodes.append(helper.make_node("Relu" if hi is None else "Clip", ins, [r]))
                o, v = r, np.clip(v, lo, hi)
        elif form == "relu":
            b.nodes.append(helper.make_node("Relu", [yd], [o]))
            v = np.maximum(v, 0)
        else:
            b.nodes.append(helper.make_node("HardSigmoid", [yd], [o], alpha=0.2, beta=0.5))
            v = np.clip(0.2 * v + 0.5, 0, 1)
        out, _, vo = b.qdq(o, *b.params(v.min(), v.max(), relu=form != "bn"), v)
    elif kind == "hardswish":
        # conv -> Q -> DQ -> BatchNormalization -> hard-swish as exporters
        # write it (t + 3, Clip(0, 6), t * that, / 6) -> Q: the classifier's
        # blocks (python/dla/onnx/qdq_hardswish.py).
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        cs, cz = b.params(v.min(), v.max())
        cq, yd, v = b.qdq(y, cs, cz, v)
        gamma = rng.uniform(0.5, 4.0, cout).astype(np.float32)
        beta, mean = (rng.uniform(-2, 2, cout).astype(np.float32) for _ in range(2))
        var = rng.uniform(0.1, 2.0, cout).astype(np.float32)
        t = b.name("bn")
        b.nodes.append(helper.make_node("BatchNormalization", [yd] + [
            b.init(n, q) for n, q in (("g", gamma), ("be", beta), ("m", mean), ("v", var))],
            [t], epsilon=1e-5))
        a = (gamma / np.sqrt(var.astype(np.float64) + 1e-5))
        bb = beta.astype(np.float64) - mean.astype(np.float64) * a
        names = [b.name(n) for n in ("add", "clip", "mul", "div")]
        b.nodes += [helper.make_node("Add", [t, b.init("three", np.float32(3))], [names[0]]),
                    helper.make_node("Clip", [names[0], b.init("lo", np.float32(0)),
                                              b.init("hi", np.float32(6))], [names[1]]),
                    helper.make_node("Mul", [t, names[1]], [names[2]]),
                    helper.make_node("Div", [names[2], b.init("six", np.float32(6))], [names[3]])]
        tv = v * a.reshape(1, -1, 1, 1) + bb.reshape(1, -1, 1, 1)
        v = tv * np.clip(tv + 3, 0, 6) / 6
        ys, yz = b.params(v.min(), v.max())
        out, _, vo = b.qdq(names[3], ys, yz, v)
        if probe:
            extra = [helper.make_tensor_value_info(cq, TensorProto.INT8 if np.dtype(dtype) == np.int8
                                                   else TensorProto.UINT8, v.shape)]
        # What compare_qdq.py needs for the float function of the probe.
        pool = {"hardswish": (float(cs), int(cz), a, bb, float(ys), int(yz))}
    elif kind == "affine_hardswish":
        # PP-OCRv4's recognizer block: conv -> Q -> DQ -> x * a + b
        # (scalars: a learnable affine block) -> hard-swish as exporters
        # write it -> * a2 + b2 (another) [-> * k_c, qdq.py's channel
        # scale, on odd seeds] -> Q (qdq_hardswish.py).
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        cs, cz = b.params(v.min(), v.max())
        _, yd, v = b.qdq(y, cs, cz, v)
        a, bb, a2, b2 = (float(np.float32(rng.uniform(lo, hi))) for lo, hi in
                         ((0.5, 3.0), (-1.0, 1.0), (0.1, 2.0), (-0.8, 0.3)))
        names = [b.name(n) for n in ("mul", "add", "add3", "clip", "hmul", "div", "mul2", "add2")]
        t = names[1]
        b.nodes += [helper.make_node("Mul", [b.init("a", np.float32([a])), yd], [names[0]]),
                    helper.make_node("Add", [names[0], b.init("b", np.float32([bb]))], [t]),
                    helper.make_node("Add", [t, b.init("three", np.float32(3))], [names[2]]),
                    helper.make_node("Clip", [names[2], b.init("lo", np.float32(0)),
                                              b.init("hi", np.float32(6))], [names[3]]),
                    helper.make_node("Mul", [t, names[3]], [names[4]]),
                    helper.make_node("Div", [names[4], b.init("six", np.float32(6))], [names[5]]),
                    helper.make_node("Mul", [b.init("a2", np.float32([a2])), names[5]], [names[6]]),
                    helper.make_node("Add", [names[6], b.init("b2", np.float32([b2]))], [names[7]])]
        tv = v * a + bb
        v = (tv * np.clip(tv + 3, 0, 6) / 6) * a2 + b2
        last = names[7]
        if seed % 2:
            # Channel scales spanning 100x (the recognizer's span up to 240x).
            kc = np.exp(rng.uniform(0.0, np.log(100.0), cout)).astype(np.float32)
            last = b.name("chscale")
            b.nodes.append(helper.make_node("Mul", [names[7], b.init("k", kc.reshape(1, -1, 1, 1))], [last]))
            v = v * kc.reshape(1, -1, 1, 1)
        out, _, vo = b.qdq(last, *b.params(v.min(), v.max()), v)
    elif kind == "gate":
        # A squeeze-excitation: conv -> Q -> DQ, its global average pool ->
        # Q -> DQ -> HardSigmoid -> Q -> DQ (the gate), the map times the gate
        # per channel -> Q (qdq_fusion.py's Mul; on the SDP X1's per-kernel
        # multiplier).
        y, v = b.conv(xd, xs, xv, cout, k, stride)
        _, yd, v = b.qdq(y, *b.params(v.min(), v.max()), v)
        p, h = b.name("pool"), b.name("hsig")
        b.nodes.append(helper.make_node("GlobalAveragePool", [yd], [p]))
        pv = v.mean(axis=(2, 3), keepdims=True)
        _, pd, pv = b.qdq(p, *b.params(pv.min(), pv.max()), pv)
        b.nodes.append(helper.make_node("HardSigmoid", [pd], [h], alpha=0.2, beta=0.5))
        gv = np.clip(0.2 * pv + 0.5, 0, 1)
        gz = np.array(0 if np.dtype(dtype) == np.int8 else 128, dtype)
        _, gd, gv = b.qdq(h, np.float32(1 / 127), gz, gv)  # zero point 0 in TOSA's signed form
        o = b.name("mul")
        # Either operand order (exporters write both).
        b.nodes.append(helper.make_node("Mul", [yd, gd] if seed % 2 == 0 else [gd, yd], [o]))
        v = v * gv
        out, _, vo = b.qdq(o, *b.params(v.min(), v.max()), v)
    elif kind == "fc":
        # A classifier's head: the map's global average pool, flattened to
        # [1, K], times an int8 weight [K, N] (per column with
        # per_channel), plus an int32 bias at x_scale * w_scale.
        k_in = int(rng.integers(1, 300))
        y, v = b.conv(xd, xs, xv, k_in, 1, stride)
        _, yd, v = b.qdq(y, *b.params(v.min(), v.max()), v)
        p, f = b.name("pool"), b.name("flat")
        b.nodes.append(helper.make_node("GlobalAveragePool", [yd], [p]))
        pv = v.mean(axis=(2, 3), keepdims=True)
        ps, pz = b.params(pv.min(), pv.max())
        _, pd, pv = b.qdq(p, ps, pz, pv)
        if seed % 2:
            b.nodes.append(helper.make_node("Flatten", [pd], [f], axis=1))
        else:
            b.nodes.append(helper.make_node("Reshape", [pd, b.init("shape", np.array([0, -1], np.int64))],
                                            [f]))
        n_out = int(rng.integers(1, 40))
        w = rng.integers(-127, 128, (k_in, n_out)).astype(np.int8)
        nws = n_out if per_channel else 1
        ws = (rng.uniform(0.3, 1.0, n_out)[:nws] / (np.sqrt(k_in) * 40)).astype(np.float32)
        bs = (np.float32(ps) * ws).astype(np.float32)
        bias = rng.integers(-3000, 3000, n_out).astype(np.int32)
        wd, bd, mm, o = b.name("wdq"), b.name("bdq"), b.name("matmul"), b.name("add")
        axis = {"axis": 1} if per_channel else {}
        b.nodes += [helper.make_node("DequantizeLinear", [b.init("w", w), b.init("ws", ws if per_channel else ws[0]),
                                     b.init("wz", np.zeros(nws, np.int8) if per_channel else np.int8(0))],
                                     [wd], **axis),
                    helper.make_node("DequantizeLinear", [b.init("b", bias), b.init("bs", bs if per_channel
                                     else bs[0])], [bd], **({"axis": 0} if per_channel else {})),
                    helper.make_node("MatMul", [f, wd], [mm]), helper.make_node("Add", [mm, bd], [o])]
        wf = w.astype(np.float64) * np.broadcast_to(ws, (n_out,))
        v = pv.reshape(1, -1) @ wf + bias * np.broadcast_to(bs, (n_out,)).astype(np.float64)
        out, _, vo = b.qdq(o, *b.params(v.min(), v.max()), v)
    elif kind == "tokens":
        y, v = b.conv(xd, xs, xv, cout, k, 1)
        ms, mz = b.params(v.min(), v.max())
        _, md, v = b.qdq(y, ms, mz, v)
        n_tok, ch = v.shape[3], v.shape[1]

        def move(src, op, value, **kw):
            """A data movement node, its output quantized as its input."""
            o = b.name(op.lower())
            args = [src] + ([b.init("shape", np.array(kw.pop("shape"), np.int64))] if op == "Reshape" else [])
            b.nodes.append(helper.make_node(op, args, [o], **kw))
            return b.qdq(o, ms_, mz_, value)[1]

        ms_, mz_ = ms, mz
        td = move(move(md, "Reshape", v.reshape(1, ch, n_tok), shape=[1, ch, n_tok]), "Transpose",
                  v.reshape(1, ch, n_tok).transpose(0, 2, 1), perm=[0, 2, 1])
        tv = v.reshape(1, ch, n_tok).transpose(0, 2, 1)

        def token_fc(xd_, x_scale, xv_, n_out):
            k_in = xv_.shape[-1]
            w_ = rng.integers(-127, 128, (k_in, n_out)).astype(np.int8)
            nws = n_out if per_channel else 1
            ws = (rng.uniform(0.3, 1.0, n_out)[:nws] / (np.sqrt(k_in) * 40)).astype(np.float32)
            bs = (np.float32(x_scale) * ws).astype(np.float32)
            bias = rng.integers(-3000, 3000, n_out).astype(np.int32)
            wd, bd, mm, o = b.name("wdq"), b.name("bdq"), b.name("matmul"), b.name("add")
            axis = {"axis": 1} if per_channel else {}
            b.nodes.extend([
                helper.make_node("DequantizeLinear", [b.init("w", w_), b.init("ws", ws if per_channel else ws[0]),
                                 b.init("wz", np.zeros(nws, np.int8) if per_channel else np.int8(0))], [wd], **axis),
                helper.make_node("DequantizeLinear", [b.init("b", bias), b.init("bs", bs if per_channel else bs[0])],
                                 [bd], **({"axis": 0} if per_channel else {})),
                helper.make_node("MatMul", [xd_, wd], [mm]), helper.make_node("Add", [mm, bd], [o])])
            wf = w_.astype(np.float64) * np.broadcast_to(ws, (n_out,))
            val = xv_ @ wf + bias * np.broadcast_to(bs, (n_out,)).astype(np.float64)
            sc, zp = b.params(val.min(), val.max())
            _, od, val = b.qdq(o, sc, zp, val)
            return od, sc, val

        hidden = int(rng.integers(1, 64))
        hd, _, hv = token_fc(td, ms, tv, hidden)
        c1, sg, sw = b.name("mul"), b.name("sigmoid"), b.name("swish")
        b.nodes += [helper.make_node("Mul", [hd, b.init("one", np.float32(1.0))], [c1]),
                    helper.make_node("Sigmoid", [c1], [sg])]
        gv = 1 / (1 + np.exp(-hv))
        _, gd, gv = b.qdq(sg, np.float32(1 / 255), np.array(-128, np.int8), gv)
        b.nodes.append(helper.make_node("Mul", [hd, gd], [sw]))
        sv = hv * gv
        ss, sz = b.params(sv.min(), sv.max())
        _, swd, sv = b.qdq(sw, ss, sz, sv)
        f2d, _, f2v = token_fc(swd, ss, sv, ch)
        r = b.name("residual")
        b.nodes.append(helper.make_node("Add", [td, f2d], [r]))
        rv = tv + f2v
        ms_, mz_ = b.params(rv.min(), rv.max())
        _, rd, rv = b.qdq(r, ms_, mz_, rv)
        nd = move(rd, "Reshape", rv.reshape(1, 1, n_tok, ch), shape=[1, 1, n_tok, ch])
        o = b.name("transpose")
        b.nodes.append(helper.make_node("Transpose", [nd], [o], perm=[0, 3, 1, 2]))
        v = rv.reshape(1, 1, n_tok, ch).transpose(0, 3, 1, 2)
        out, _, vo = b.qdq(o, ms_, mz_, v)
    elif kind == "layernorm":
        ch = int(rng.integers(2, 129))  # the centering matrix's weights: C <= 128
        y, v = b.conv(xd, xs, xv, ch, k, 1)
        ms, mz = b.params(v.min(), v.max())
        _, md, v = b.qdq(y, ms, mz, v)
        n_tok = v.shape[3]
        r1, t1 = b.name("reshape"), b.name("transpose")
        b.nodes.append(helper.make_node("Reshape", [md, b.init("shape", np.array([1, ch, n_tok], np.int64))], [r1]))
        _, r1d, _ = b.qdq(r1, ms, mz, v)
        b.nodes.append(helper.make_node("Transpose", [r1d], [t1], perm=[0, 2, 1]))
        tv = v.reshape(1, ch, n_tok).transpose(0, 2, 1)
        _, td, tv = b.qdq(t1, ms, mz, tv)
        eps = float(rng.choice([1e-5, 1e-6]))
        gamma = rng.uniform(0.3, 1.5, ch) * np.where(rng.random(ch) < 0.2, -1, 1)
        beta = rng.normal(0, 0.2, ch)
        names = [b.name(n) for n in ("mean", "sub", "pow", "mean", "add", "sqrt", "div", "mul", "add")]
        ax = {"axes": [-1]}
        b.nodes += [helper.make_node("ReduceMean", [td], [names[0]], **ax),
                    helper.make_node("Sub", [td, names[0]], [names[1]])]
        d = tv - tv.mean(2, keepdims=True)
        _, dd, d = b.qdq(names[1], np.float32(max(np.abs(d).max(), 1e-6) / 127),
                         np.array(0 if np.dtype(dtype) == np.int8 else 128, dtype), d)
        b.nodes += [helper.make_node("Pow", [dd, b.init("two", np.float32(2))], [names[2]]),
                    helper.make_node("ReduceMean", [names[2]], [names[3]], **ax),
                    helper.make_node("Add", [names[3], b.init("eps", np.float32(eps))], [names[4]])]
        var = (d * d).mean(2, keepdims=True) + eps
        _, vd, var = b.qdq(names[4], *b.params(0.0, var.max()), var)
        b.nodes += [helper.make_node("Sqrt", [vd], [names[5]]),
                    helper.make_node("Div", [dd, names[5]], [names[6]])]
        nv = d / np.sqrt(np.maximum(var, 1e-30))
        _, nd, nv = b.qdq(names[6], *b.params(nv.min(), nv.max()), nv)
        b.nodes += [helper.make_node("Mul", [nd, b.init("gamma", gamma.astype(np.float32))], [names[7]]),
                    helper.make_node("Add", [names[7], b.init("beta", beta.astype(np.float32))], [names[8]])]
        yv = nv * gamma + beta
        ys, yz = b.params(yv.min(), yv.max())
        _, yd, yv = b.qdq(names[8], ys, yz, yv)
        r2, t2 = b.name("reshape"), b.name("transpose")
        b.nodes.append(helper.make_node("Reshape", [yd, b.init("shape", np.array([1, 1, n_tok, ch], np.int64))], [r2]))
        _, r2d, _ = b.qdq(r2, ys, yz, yv)
        b.nodes.append(helper.make_node("Transpose", [r2d], [t2], perm=[0, 3, 1, 2]))
        v = yv.reshape(1, 1, n_tok, ch).transpose(0, 3, 1, 2)
        out, _, vo = b.qdq(t2, ys, yz, v)
        pool = {"layernorm": (float(ms), int(mz), gamma, beta, eps, float(ys), int(yz))}
    elif kind == "attention":
        out, vo = _attention(b, rng, xd, xs, xv, k, seed)
    elif kind == "attention_qkv":
        out, vo = _attention_qkv(b, rng, xd, xs, xv, k, seed)
    else:
        raise ValueError("unknown kind %s" % kind)
    b.nodes = [n for n in b.nodes if not (n.op_type == "DequantizeLinear" and n.output[0] not in
                                         {i for m in b.nodes for i in m.input})]  # the output's DQ
    elem = TensorProto.INT8 if np.dtype(dtype) == np.int8 else TensorProto.UINT8
    g = helper.make_graph(b.nodes, "qdq_%s" % kind, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info(out, elem, vo.shape)] + extra, b.inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7  # onnxruntime 1.20 reads up to 10; Debian's onnx writes 8
    onnx.checker.check_model(m)
    return m, shape, pool


def with_offset(model, operand, zp):
    """`model` with the zero point of operand `operand` (0: left, 1: right)
    of its first MatMul of two activations set to `zp` (its Q and DQ share
    it): what the compiler must refuse to offload, saying why."""
    inits = {i.name for i in model.graph.initializer}
    producer = {o: n for n in model.graph.node for o in n.output}
    mm = next(n for n in model.graph.node if n.op_type == "MatMul"
              and not {producer[i].input[0] for i in n.input} & inits)  # no DQ of a weight
    name = producer[mm.input[operand]].input[2]
    for init in model.graph.initializer:
        if init.name == name:
            init.CopyFrom(numpy_helper.from_array(np.array(zp, numpy_helper.to_array(init).dtype), name))
    return model


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--kind", choices=KINDS, default="conv")
    p.add_argument("--per-channel", action="store_true")
    p.add_argument("--uint8", action="store_true")
    a = p.parse_args()
    m, shape, _ = build(a.kind, a.seed, a.per_channel, np.uint8 if a.uint8 else np.int8)
    os.makedirs(a.out_dir, exist_ok=True)
    onnx.save(m, os.path.join(a.out_dir, "model.onnx"))
    print("x".join(map(str, shape)))


if __name__ == "__main__":
    main()
