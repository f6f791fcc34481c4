#!/usr/bin/env python3
"""Random quantized TOSA layers, offloaded by --dla-convert-tosa (int8) and
executed, against the same module run on the host by upstream's TOSA
lowering (an implementation independent of the offload).

    run_quant_tosa.py --opt DLA_OPT --bin LLVM_BIN [--seed S] [--count N]
                      [--config nv_small|nv_large|nv_full] [--layouts] [--verbose]
                      [--large-pools | --large-averages | --rescales | --products |
                       --channel-products | --gates |
                       --bilinear]

Layers, in TOSA's quantized form (what dla-import-onnx writes for QDQ and
QLinear models): conv2d and depthwise_conv2d on i8 with input / weight zero
points, an i32 bias, padding and strides, rescaled to i8 per tensor or per
channel with an output zero point, with or without the clamp at the zero
point (ReLU); matmul by a constant (a 1x1 convolution on the accelerator),
rescaled likewise; the sum of two rescaled i8 maps (a residual add); max and
average pooling on i8 with a zero point. Every case must be offloaded
entirely (no integer TOSA computation left on the host).

The SDP rounds half away from zero where TOSA's SINGLE_ROUND rounds half up,
and its multipliers are int16 (TOSA's are 31-bit): so a value may differ by
one. Pass: every value within 1, at least 99% of each kind's values identical;
average pooling (where small windows tie often) exactly the window sum
divided and rounded half away from zero once, computed here in numpy.
"""

import argparse
import os
import re
import subprocess
import sys

import numpy as np

from dla import pipelines  # PYTHONPATH=build/python_packages (lit sets it)

NUMBER = re.compile(r"-?\d+")
COMPUTE = re.compile(r"tosa\.(conv2d|depthwise_conv2d|matmul|rescale|add|clamp|avg_pool2d|max_pool2d|resize)\b")


def literal(a, t):
    return 'dense<"0x%s"> : %s' % (np.ascontiguousarray(a).tobytes().hex().upper(), t)


def ttype(shape, e):
    return "tensor<%sx%s>" % ("x".join(map(str, shape)), e)


class Builder:
    def __init__(self):
        self.lines, self.n = [], 0

    def op(self, text, type_):
        self.n += 1
        name = "%%v%d" % self.n
        self.lines.append("  %s = %s" % (name, text.replace("$T", type_)))
        return name

    def const(self, a, e):
        t = ttype(a.shape, e)
        return self.op('"tosa.const"() {values = %s} : () -> $T' % literal(a, t), t)


def multiplier(m):
    """TOSA's 31-bit multiplier and shift of each factor (exact for f32)."""
    mant, exp = np.frexp(np.asarray(m, np.float64))
    return np.round(mant * 2.0 ** 31).astype(np.int64), (31 - exp).astype(np.int64)


def rescale(b, x, in_shape, in_e, out_e, m, in_zp, out_zp):
    mult, shift = multiplier(m)
    mv = b.const(mult.astype(np.int32), "i32")
    sv = b.const(shift.astype(np.int8), "i8")
    iz = b.const(np.array([in_zp], np.int8 if in_e == "i8" else np.int32), in_e)
    oz = b.const(np.array([out_zp], np.int8 if out_e == "i8" else np.int32), out_e)
    t_in, t_out = ttype(in_shape, in_e), ttype(in_shape, out_e)
    per = str(len(mult) > 1).lower()
    return b.op("tosa.rescale %s, %s, %s, %s, %s {input_unsigned = false, output_unsigned = false, "
                "per_channel = %s, rounding_mode = SINGLE_ROUND, scale32 = true} : (%s, %s, %s, %s, %s)"
                " -> $T" % (x, mv, sv, iz, oz, per, t_in, ttype(mult.shape, "i32"),
                            ttype(shift.shape, "i8"), ttype((1,), in_e), ttype((1,), out_e)), t_out)


def relu(b, x, shape, zp):
    return b.op("tosa.clamp %s {max_val = 127 : i8, min_val = %d : i8} : (%s) -> $T"
                % (x, zp, ttype(shape, "i8")), ttype(shape, "i8"))


def i8(rng, shape):
    return rng.integers(-128, 128, size=shape).astype(np.int8)


def conv_case(rng, depthwise):
    n, c = 1, int(rng.integers(1, 40))
    kh, kw = (int(v) for v in rng.integers(1, 4, size=2))
    stride = [int(v) for v in rng.integers(1, 3, size=2)]
    pad = [int(v) for v in rng.integers(0, 2, size=4)] if rng.random() < 0.6 else [0] * 4
    if depthwise and kh == kw == 1:
        # Upstream's tosa-optional-decompositions turns a padded quantized
        # 1x1 depthwise into an invalid tosa.pad (i32 in, i8 out).
        pad = [0] * 4
    # TOSA wants the windows to tile the padded input exactly.
    oh, ow = int(rng.integers(2, 8)), int(rng.integers(2, 8))
    h = max(1, (oh - 1) * stride[0] + kh - pad[0] - pad[1])
    w = max(1, (ow - 1) * stride[1] + kw - pad[2] - pad[3])
    oh = (h + pad[0] + pad[1] - kh) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kw) // stride[1] + 1
    mult = int(rng.integers(1, 3)) if depthwise else 1
    k = c * mult if depthwise else int(rng.integers(1, 40))
    zx, zy = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    per_channel = rng.random() < 0.5
    wt = i8(rng, (kh, kw, c, mult) if depthwise else (k, kh, kw, c))
    bias = rng.integers(-40000, 40000, size=k).astype(np.int32) if rng.random() < 0.7 \
        else np.zeros(k, np.int32)
    # A factor that maps the accumulator's typical range onto int8.
    base = 1.0 / (128.0 * np.sqrt(kh * kw * (1 if depthwise else c)) * 40)
    m = base * np.exp(rng.uniform(-1, 1, size=k if per_channel else 1))
    m = m.astype(np.float32)
    b = Builder()
    x_shape, out = (n, h, w, c), (n, oh, ow, k)
    wv, bv = b.const(wt, "i8"), b.const(bias, "i32")
    izp, wzp = b.const(np.array([zx], np.int8), "i8"), b.const(np.array([0], np.int8), "i8")
    name = "depthwise_conv2d" if depthwise else "conv2d"
    acc = b.op("tosa.%s %%a0, %s, %s, %s, %s {acc_type = i32, dilation = array<i64: 1, 1>, "
               "pad = array<i64: %s>, stride = array<i64: %s>} : (%s, %s, %s, %s, %s) -> $T"
               % (name, wv, bv, izp, wzp, ", ".join(map(str, pad)), ", ".join(map(str, stride)),
                  ttype(x_shape, "i8"), ttype(wt.shape, "i8"), ttype(bias.shape, "i32"),
                  ttype((1,), "i8"), ttype((1,), "i8")), ttype(out, "i32"))
    y = rescale(b, acc, out, "i32", "i8", m, 0, zy)
    if rng.random() < 0.5:
        y = relu(b, y, out, zy)
    return b, [x_shape], out, y, "%s_%s" % (name, "pc" if per_channel else "pt")


def matmul_case(rng):
    """A [1, M, K] by constant B [1, K, P] (a fully connected layer, ONNX
    MatMulInteger / QLinearMatMul), rescaled per tensor or per column: a
    1x1 convolution on the accelerator."""
    m, k, p = (int(v) for v in rng.integers(1, 40, size=3))
    zx, zy = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    per_channel = rng.random() < 0.5
    wt = i8(rng, (1, k, p))
    base = 1.0 / (128.0 * np.sqrt(k) * 40)
    f = (base * np.exp(rng.uniform(-1, 1, size=p if per_channel else 1))).astype(np.float32)
    b = Builder()
    wv = b.const(wt, "i8")
    az, bz = b.const(np.array([zx], np.int8), "i8"), b.const(np.array([0], np.int8), "i8")
    out = (1, m, p)
    acc = b.op("tosa.matmul %%a0, %s, %s, %s : (%s, %s, %s, %s) -> $T"
               % (wv, az, bz, ttype((1, m, k), "i8"), ttype(wt.shape, "i8"), ttype((1,), "i8"),
                  ttype((1,), "i8")), ttype(out, "i32"))
    y = rescale(b, acc, out, "i32", "i8", f, 0, zy)
    return b, [(1, m, k)], out, y, "matmul_%s" % ("pc" if per_channel else "pt")


def add_case(rng):
    shape = (1, int(rng.integers(1, 8)), int(rng.integers(1, 8)), int(rng.integers(1, 40)))
    sa, sb, sy = np.exp(rng.uniform(-1, 1, size=3))
    za, zb, zy = (int(v) for v in rng.integers(-128, 128, size=3))
    big = max(sa, sb)
    b = Builder()
    a32 = rescale(b, "%a0", shape, "i8", "i32", [np.float32(sa / big * 2 ** 20)], za, 0)
    b32 = rescale(b, "%a1", shape, "i8", "i32", [np.float32(sb / big * 2 ** 20)], zb, 0)
    s = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (a32, b32, ttype(shape, "i32"), ttype(shape, "i32")),
             ttype(shape, "i32"))
    y = rescale(b, s, shape, "i32", "i8", [np.float32(big / sy * 2.0 ** -20)], 0, zy)
    if rng.random() < 0.4:
        y = relu(b, y, shape, zy)
    return b, [shape, shape], shape, y, "add"


def pool_case(rng):
    k = [int(v) for v in rng.integers(1, 4, size=2)]
    stride = [int(v) for v in rng.integers(1, 3, size=2)]
    oh, ow = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    h, w = (oh - 1) * stride[0] + k[0], (ow - 1) * stride[1] + k[1]
    c = int(rng.integers(1, 20))
    shape, out = (1, h, w, c), (1, oh, ow, c)
    b = Builder()
    attrs = "kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: %d, %d>" % (
        k[0], k[1], stride[0], stride[1])
    if rng.random() < 0.5:
        y = b.op("tosa.max_pool2d %%a0 {%s} : (%s) -> $T" % (attrs, ttype(shape, "i8")), ttype(out, "i8"))
        return b, [shape], out, y, "max_pool"
    b.window = (k, stride)
    z = b.const(np.array([int(rng.integers(-128, 128))], np.int8), "i8")
    y = b.op("tosa.avg_pool2d %%a0, %s, %s {acc_type = i32, %s} : (%s, %s, %s) -> $T"
             % (z, z, attrs, ttype(shape, "i8"), ttype((1,), "i8"), ttype((1,), "i8")), ttype(out, "i8"))
    return b, [shape], out, y, "avg_pool"


def large_max_pool_case(rng):
    """Max pooling with a window or padding the PDP cannot hold (a kernel
    above 8, padding above 7): --dla-convert-tosa splits it into a chain."""
    k = [int(v) for v in rng.integers(1, 21, size=2)]
    k[int(rng.integers(0, 2))] = int(rng.integers(9, 21))
    stride = [int(v) for v in rng.integers(1, 5, size=2)]
    oh, ow = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    pad, hw = [], []
    for d, o in enumerate((oh, ow)):
        room = (o - 1) * stride[d] + k[d] - 1  # padding that leaves one row
        before = int(rng.integers(0, min(k[d] - 1, room) + 1))
        after = int(rng.integers(0, min(k[d] - 1, room - before) + 1))
        pad += [before, after]
        hw.append((o - 1) * stride[d] + k[d] - before - after)
    c = int(rng.integers(1, 20))
    shape, out = (1, hw[0], hw[1], c), (1, oh, ow, c)
    b = Builder()
    attrs = ("kernel = array<i64: %d, %d>, pad = array<i64: %d, %d, %d, %d>, stride = array<i64: %d, %d>"
             % (k[0], k[1], *pad, stride[0], stride[1]))
    y = b.op("tosa.max_pool2d %%a0 {%s} : (%s) -> $T" % (attrs, ttype(shape, "i8")), ttype(out, "i8"))
    return b, [shape], out, y, "max_pool"


def greedy_factors(k):
    """docs/IntegerAttributes.md decision 20: a window above 8 as factors of
    at most 8, the largest first; None when a prime factor exceeds 8."""
    out = []
    while k > 1:
        f = next((f for f in range(8, 1, -1) if k % f == 0), None)
        if f is None:
            return None
        out.append(f)
        k //= f
    return out or [1]


def large_avg_pool_case(rng):
    """Average pooling on int8 with a window the PDP cannot hold, unpadded:
    mostly global pools (squeeze-excitation's), some with two outputs a
    window apart. --dla-convert-tosa chains means of sub-window means."""
    while True:
        k = [int(v) for v in rng.choice([1, 2, 3, 4, 6, 8, 9, 12, 16, 24, 32, 48, 96], size=2)]
        if max(k) > 8:
            break
    outs = [1, 1]
    if rng.random() < 0.3 and max(k) <= 16:
        outs[int(np.argmax(k))] = 2
    stride = [k[d] if outs[d] > 1 else 1 for d in range(2)]
    hw = [(outs[d] - 1) * stride[d] + k[d] for d in range(2)]
    c = int(rng.integers(1, 20))
    shape, out = (1, hw[0], hw[1], c), (1, outs[0], outs[1], c)
    b = Builder()
    b.window = (k, stride)
    attrs = "kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: %d, %d>" % (
        k[0], k[1], stride[0], stride[1])
    z = b.const(np.array([int(rng.integers(-128, 128))], np.int8), "i8")
    y = b.op("tosa.avg_pool2d %%a0, %s, %s {acc_type = i32, %s} : (%s, %s, %s) -> $T"
             % (z, z, attrs, ttype(shape, "i8"), ttype((1,), "i8"), ttype((1,), "i8")), ttype(out, "i8"))
    return b, [shape], out, y, "large_avg_pool"


def rescale_case(rng):
    """An int8 feature map rescaled to int8 with zero points (per tensor or
    per channel, factors 0.05..8, sometimes ReLU at the output zero point),
    half of them after a global average pool: squeeze-excitation's pool and
    its requantization (an offline SDP after the PDP); 40% of them the
    affine map with a bias per channel (rescale, add, rescale), half of
    those with negative factors on some channels (a negative batch-norm
    scale: the rescale by |f| times -1, an i32 tosa.mul by a sign per
    channel, before the add)."""
    c = int(rng.integers(1, 40))
    hw = [int(v) for v in rng.integers(1, 9, size=2)]
    b = Builder()
    x, shape = "%a0", (1, hw[0], hw[1], c)
    ins = [shape]
    if rng.random() < 0.5:
        k = [int(v) for v in rng.choice([1, 2, 3, 6, 8, 12, 24, 96], size=2)]
        ins = [(1, k[0], k[1], c)]
        z = b.const(np.array([int(rng.integers(-128, 128))], np.int8), "i8")
        attrs = "kernel = array<i64: %d, %d>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>" % tuple(k)
        shape = (1, 1, 1, c)
        b.window = (k, [1, 1])
        x = b.op("tosa.avg_pool2d %%a0, %s, %s {acc_type = i32, %s} : (%s, %s, %s) -> $T"
                 % (z, z, attrs, ttype(ins[0], "i8"), ttype((1,), "i8"), ttype((1,), "i8")),
                 ttype(shape, "i8"))
    count = c if rng.random() < 0.5 else 1
    factors = [np.float32(np.exp(rng.uniform(np.log(0.05), np.log(8.0)))) for _ in range(count)]
    zx, zy = (int(v) for v in rng.integers(-128, 128, size=2))
    if rng.random() < 0.4:
        # The affine map dla-import-onnx writes for a batch-norm between
        # quantize steps: rescale to i32 at 2^16, add b 2^16, rescale 2^-16.
        bias = np.round(rng.uniform(-40, 40, c) * 2 ** 16).astype(np.int32)
        t = rescale(b, x, shape, "i8", "i32", [np.float32(f * 2 ** 16) for f in factors], zx, 0)
        signs = np.ones(c, np.int32)
        if rng.random() < 0.5:
            signs = np.where(rng.random(c) < 0.5, -1, 1).astype(np.int32)
            sv = b.const(signs.reshape(1, 1, 1, c), "i32")
            zero = b.const(np.zeros(1, np.int8), "i8")
            t = b.op("tosa.mul %s, %s, %s : (%s, %s, %s) -> $T" % (t, sv, zero, ttype(shape, "i32"),
                                                                  ttype((1, 1, 1, c), "i32"), ttype((1,), "i8")),
                     ttype(shape, "i32"))
        k = b.const(bias.reshape(1, 1, 1, c), "i32")
        u = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (t, k, ttype(shape, "i32"), ttype((1, 1, 1, c), "i32")),
                 ttype(shape, "i32"))
        y = rescale(b, u, shape, "i32", "i8", [np.float32(2.0 ** -16)], 0, zy)
        b.affine = (bias, signs)
    else:
        y = rescale(b, x, shape, "i8", "i8", factors, zx, zy)
    b.rescale = (factors, zx, zy, rng.random() < 0.4)
    if b.rescale[3]:
        y = relu(b, y, shape, zy)
    return b, ins, shape, y, "rescale"


def product_case(rng):
    """The product of a quantized hard-swish (dla-import-onnx's form:
    rescale(mul(rescale(x, 1, zx) : i32, rescale(g, 1, 0) : i32), f, zy)),
    g an input of its own (any int8), 30% of them one value per channel
    (squeeze-excitation's scaling), or, 40% of them, the whole
    hard-swish: g = relu6(x + 3) / 6 of x as the affine map at 1/127 (the
    HardSigmoid form, clamped to [0, 127]) then the product."""
    c = int(rng.integers(1, 40))
    hw = [int(v) for v in rng.integers(1, 9, size=2)]
    shape = (1, hw[0], hw[1], c)
    b = Builder()
    zx, zy = (int(v) for v in rng.integers(-128, 128, size=2))
    sx = float(np.exp(rng.uniform(np.log(0.01), np.log(0.5))))
    r = rng.random()
    gshape, offset = shape, 0
    if r < 0.3:
        ins, g = [shape, shape], "%a1"
        kind = "product"
    elif r < 0.6:
        # The squeeze-excitation's scaling: one gate value per channel.
        gshape = (1, 1, 1, c)
        ins, g = [shape, gshape], "%a1"
        kind = "channel_product"
    else:
        # u = clamp(sx (x - zx) / 6 + 1/2) at 1/127: f = 127 sx / 6, b = 63.5.
        ins, kind = [shape], "hardswish"
        bias = np.full(c, int(round(63.5 * 2 ** 16)), np.int32)
        t = rescale(b, "%a0", shape, "i8", "i32", [np.float32(127 * sx / 6 * 2 ** 16)], zx, 0)
        k = b.const(bias.reshape(1, 1, 1, c), "i32")
        u = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (t, k, ttype(shape, "i32"), ttype((1, 1, 1, c), "i32")),
                 ttype(shape, "i32"))
        u = rescale(b, u, shape, "i32", "i8", [np.float32(2.0 ** -16)], 0, 0)
        g = b.op("tosa.clamp %s {max_val = 127 : i8, min_val = 0 : i8} : (%s) -> $T"
                 % (u, ttype(shape, "i8")), ttype(shape, "i8"))
        if rng.random() < 0.5:
            # Half of them with a bias of up to +-20 output steps.
            kind, offset = "hardswish_offset", int(rng.integers(-20 * 127 * 2, 20 * 127 * 2 + 1))
    y, _ = gate_product(b, rng, g, shape, gshape, sx, zx, zy, offset)
    return b, ins, shape, y, kind


def gate_product(b, rng, g, shape, gshape, sx, zx, zy, offset=0):
    """x (%a0, scale sx, zero point zx) times the gate g (at 1/127) per
    channel, plus the i32 constant `offset` (a learnable affine block's
    bias after a hard-swish: qdq_hardswish.py), requantized to a drawn
    scale at zero point zy: (y, factor)."""
    wa = rescale(b, "%a0", shape, "i8", "i32", [1.0], zx, 0)
    wb = rescale(b, g, gshape, "i8", "i32", [1.0], 0, 0)
    shift = b.const(np.zeros(1, np.int8), "i8")
    p = b.op("tosa.mul %s, %s, %s : (%s, %s, %s) -> $T" % (wa, wb, shift, ttype(shape, "i32"),
                                                          ttype(gshape, "i32"), ttype((1,), "i8")),
             ttype(shape, "i32"))
    if offset:
        k = b.const(np.full((1, 1, 1, 1), offset, np.int32), "i32")
        p = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (p, k, ttype(shape, "i32"), ttype((1, 1, 1, 1), "i32")),
                 ttype(shape, "i32"))
    sy = sx * float(np.exp(rng.uniform(np.log(0.5), np.log(2.0))))
    factor = sx / 127 / sy
    return rescale(b, p, shape, "i32", "i8", [np.float32(factor)], 0, zy), factor


def channel_product_case(rng):
    """The product of a hard-swish whose trailing map is per channel
    (qdq_hardswish.py's per-channel form): t and u both at zero point 0,
    rescale(add(mul(rescale(t, 1, 0) : i32, rescale(u, 1, 0) : i32),
    c[k] : i32), f[k], zy), f spanning up to 100x, c up to +-20 output
    steps (QuantizedProducts.cpp: X1 reads u per element, X2 the (c, m)
    pairs). u is an input of its own, or, half of them, relu(t) (a clamp
    of t itself: X1 then reads the surface X2's input came from)."""
    c = int(rng.integers(1, 40))
    hw = [int(v) for v in rng.integers(1, 9, size=2)]
    shape, ctype = (1, hw[0], hw[1], c), (1, 1, 1, c)
    b = Builder()
    zy = int(rng.integers(-128, 128))
    f = np.exp(rng.uniform(np.log(2.0 ** -13), np.log(100 * 2.0 ** -13), c)).astype(np.float32)
    if rng.random() < 0.5:
        ins, u, kind = [shape, shape], "%a1", "channel_scaled_product"
    else:
        ins, kind = [shape], "channel_scaled_square"
        u = relu(b, "%a0", shape, 0)
    wa = rescale(b, "%a0", shape, "i8", "i32", [1.0], 0, 0)
    wb = rescale(b, u, shape, "i8", "i32", [1.0], 0, 0)
    shift = b.const(np.zeros(1, np.int8), "i8")
    p = b.op("tosa.mul %s, %s, %s : (%s, %s, %s) -> $T" % (wa, wb, shift, ttype(shape, "i32"),
                                                          ttype(shape, "i32"), ttype((1,), "i8")),
             ttype(shape, "i32"))
    added = np.round(rng.uniform(-20, 20, c) / f).astype(np.int32)
    k = b.const(added.reshape(ctype), "i32")
    p = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (p, k, ttype(shape, "i32"), ttype(ctype, "i32")),
             ttype(shape, "i32"))
    return b, ins, shape, rescale(b, p, shape, "i32", "i8", list(f), 0, zy), kind


def gate_case(rng):
    """The squeeze-excitation's scaling with its gate computed by a layer
    (issue 45: the product reads the gate layer's own 1xCx1x1 result):
    half of them g = clamp(a1, 0, 127) (a dla.clamp, exact), half the
    HardSigmoid's affine map of a1 at 1/127 (rescale, add a bias per
    channel, rescale, clamp to [0, 127]: an offline SDP that rounds once
    where TOSA rounds twice), then product_case's x * g[c]. C up to 72:
    several channel atoms on every configuration."""
    c = int(rng.integers(1, 73))
    hw = [int(v) for v in rng.integers(1, 9, size=2)]
    shape, gshape = (1, hw[0], hw[1], c), (1, 1, 1, c)
    b = Builder()
    zx, zy = (int(v) for v in rng.integers(-128, 128, size=2))
    sx = float(np.exp(rng.uniform(np.log(0.01), np.log(0.5))))
    if rng.random() < 0.5:
        g = relu(b, "%a1", gshape, 0)
        kind = "gate_clamp"
    else:
        zg = int(rng.integers(-128, 128))
        f = float(np.exp(rng.uniform(np.log(0.05), np.log(0.5))))
        bias = np.round(rng.uniform(-64, 64, c) * 2 ** 16).astype(np.int32)
        t = rescale(b, "%a1", gshape, "i8", "i32", [np.float32(f * 2 ** 16)], zg, 0)
        k = b.const(bias.reshape(gshape), "i32")
        u = b.op("tosa.add %s, %s : (%s, %s) -> $T" % (t, k, ttype(gshape, "i32"), ttype(gshape, "i32")),
                 ttype(gshape, "i32"))
        u = rescale(b, u, gshape, "i32", "i8", [np.float32(2.0 ** -16)], 0, 0)
        g = relu(b, u, gshape, 0)
        kind = "gate_affine"
    y, factor = gate_product(b, rng, g, shape, gshape, sx, zx, zy)
    # A gate one step off TOSA's (the affine map's one rounding) moves the
    # product by |x - zx| factor at most.
    b.gate = (zx, factor)
    return b, [shape, gshape], shape, y, kind


def bilinear_case(rng):
    """A quantized bilinear resize by integer factors with half-pixel
    centres, as the importer writes DQ -> Resize (linear) -> Q: tosa.resize
    i8 -> i32 (scale [2 fy, 2, 2 fx, 2], offset 1 - f, border f - 1: the
    interpolation times 4 fy fx), rescaled to i8 by r / (4 fy fx) with an
    output zero point. Factors 1 to 4 (not both 1), 1 to 40 channels, 1 to
    6 rows and columns; or, one case in four, 32 on one axis (a box, its
    int8 mean, then [1, 1]: two stages), 1 to 8 channels of two pixels
    along that axis and one along the other (the C model takes minutes for
    a 32 x 32 box over more)."""
    b = Builder()
    f = [int(v) for v in rng.integers(2, 5, size=2)]
    if rng.random() < 0.2:
        f[int(rng.integers(0, 2))] = 1
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
    if rng.random() < 0.25:
        axis = int(rng.integers(0, 2))
        f[axis] = 32
        c, h, w = int(rng.integers(1, 9)), (2 if axis == 0 else 1), (2 if axis == 1 else 1)
    out = (1, h * f[0], w * f[1], c)
    shape = lambda v, n: b.op("tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> "
                              "!tosa.shape<%d>" % (", ".join(map(str, v)), n, n), "")
    s = shape([2 * f[0], 2, 2 * f[1], 2], 4)
    o = shape([1 - f[0], 1 - f[1]], 2)
    d = shape([f[0] - 1, f[1] - 1], 2)
    y = b.op("tosa.resize %%a0, %s, %s, %s {mode = BILINEAR} : (%s, !tosa.shape<4>, "
             "!tosa.shape<2>, !tosa.shape<2>) -> $T" % (s, o, d, ttype((1, h, w, c), "i8")),
             ttype(out, "i32"))
    r = float(rng.uniform(0.5, 2.0)) / (4 * f[0] * f[1])
    zy = int(rng.integers(-20, 21))
    y = rescale(b, y, out, "i32", "i8", [r], 0, zy)
    b.bilinear = (f, r, zy)
    # By 32 the box's mean rounds between the stages: "bilinear_box", not
    # held to the 99% identical to TOSA of one rounding.
    return b, [(1, h, w, c)], out, y, "bilinear_box" if max(f) >= 32 else "bilinear"


def tosa_bilinear(x, f, r, zy):
    """TOSA's RESIZE (BILINEAR, i8 -> i32) of NHWC `x` with bilinear_case's
    scale [2 fy, 2, 2 fx, 2] and offset 1 - f, from the specification:
    source y = o d + offset, iy = floor(y / n), dy = y - iy n, the indices
    clamped to the input, acc = sum of v (n - d or d) products; then its
    RESCALE by r with output zero point zy."""
    def axis(size, fa):
        n, d, off = 2 * fa, 2, 1 - fa
        y = np.arange(size * fa) * d + off
        i = np.floor_divide(y, n)
        dy = y - i * n
        return np.maximum(i, 0), np.minimum(i + 1, size - 1), n, dy
    y0, y1, ny, dy = axis(x.shape[1], f[0])
    x0, x1, nx, dx = axis(x.shape[2], f[1])
    v = x.astype(np.int64)
    wy0, wy1 = (ny - dy)[None, :, None, None], dy[None, :, None, None]
    wx0, wx1 = (nx - dx)[None, None, :, None], dx[None, None, :, None]
    acc = (v[:, y0][:, :, x0] * wy0 * wx0 + v[:, y0][:, :, x1] * wy0 * wx1 +
           v[:, y1][:, :, x0] * wy1 * wx0 + v[:, y1][:, :, x1] * wy1 * wx1)
    return tosa_rescale(acc, [r], 0, zy, False)


def tosa_rescale(x, factors, zx, zy, relu, affine=None):
    """TOSA's RESCALE (SINGLE_ROUND, scale32) of int8 NHWC `x` to int8, from
    the specification: ((x - zx) * multiplier + 2^(shift - 1)) >> shift,
    plus zy, saturated; ReLU at zy. With `affine` (the i32 bias and the
    sign per channel of rescale_case's affine form): to i32 at factors
    2^16, times the sign, plus the bias, then rescaled by 2^-16."""
    def apply(v, m, zin, zout):
        mult, shift = multiplier(m)
        v = (v.astype(np.int64) - zin) * mult + (np.int64(1) << (shift - 1))
        return (v >> shift) + zout
    if affine is None:
        v = apply(x, factors, zx, zy)
    else:
        bias, signs = affine
        t = apply(x, [np.float32(f * 2 ** 16) for f in factors], zx, 0) * signs + bias
        v = apply(t, [np.float32(2.0 ** -16)], 0, zy)
    return np.clip(v, zy if relu else -128, 127)


def average_chain(x, kernel, stride):
    """The chain decision 20 describes, in numpy: per dimension the greedy
    factors, the shorter list padded with 1 in front; stage i pools
    kernel = stride = its factors (the last with the stride over the rest),
    each stage the PDP's average (int_pdp, from NVIDIA's C model) with the
    firmware's reciprocals floor(2^16 / k) per dimension when there are
    several stages (two roundings each, what a loadable can express), and
    2^16 and round(2^16 / (kh kw)) (one rounding) when one. Returns
    (result, stages)."""
    import layer_ref
    from int_pdp import pdp_recip_kernel
    fh, fw = greedy_factors(kernel[0]), greedy_factors(kernel[1])
    n = max(len(fh), len(fw))
    fh, fw = [1] * (n - len(fh)) + fh, [1] * (n - len(fw)) + fw
    for i, (a, b) in enumerate(zip(fh, fw)):
        last = i == n - 1
        st = [stride[0] // int(np.prod(fh[:-1])) if last else a,
              stride[1] // int(np.prod(fw[:-1])) if last else b]
        nchw = layer_ref.pool(x.transpose(0, 3, 1, 2).astype(np.int8), "average", (a, b),
                              tuple(max(v, 1) for v in st),
                              recip=(pdp_recip_kernel(b), pdp_recip_kernel(a)) if n > 1 else
                              (1 << 16, int(np.floor((1 << 16) / (a * b) + 0.5))))
        x = np.asarray(nchw).transpose(0, 2, 3, 1)
    return x, n


def pdp_average(x, kernel, stride):
    """The PDP's average of NHWC int8 `x` with one rounding (what the
    conversion programs): the window sum over kh * kw, rounded half away
    from zero (TOSA rounds half up: the two differ on negative ties)."""
    n, h, w, c = x.shape
    oh, ow = (h - kernel[0]) // stride[0] + 1, (w - kernel[1]) // stride[1] + 1
    s = np.zeros((n, oh, ow, c), np.int64)
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            s += x[:, i:i + stride[0] * (oh - 1) + 1:stride[0],
                   j:j + stride[1] * (ow - 1) + 1:stride[1]].astype(np.int64)
    d = kernel[0] * kernel[1]
    return np.sign(s) * ((2 * np.abs(s) + d) // (2 * d))


def make_cases(rng, count, large_pools=False, large_averages=False, rescales=False,
               products=False, gates=False, bilinear=False, channel_products=False):
    cases = []
    for i in range(count):
        r = rng.random()
        b, ins, out, y, kind = (bilinear_case(rng) if bilinear
                                else gate_case(rng) if gates
                                else product_case(rng) if products
                                else channel_product_case(rng) if channel_products
                                else rescale_case(rng) if rescales
                                else large_avg_pool_case(rng) if large_averages
                                else large_max_pool_case(rng) if large_pools
                                else conv_case(rng, False) if r < 0.35 else conv_case(rng, True) if r < 0.55
                                else matmul_case(rng) if r < 0.65
                                else add_case(rng) if r < 0.82 else pool_case(rng))
        cases.append(("%s_%d" % (kind, i), b, ins, out, y, [i8(rng, s) for s in ins]))
    return cases


def module(cases):
    lines = []
    for name, b, ins, out, y, _ in cases:
        params = ", ".join("%%a%d: %s" % (i, ttype(s, "i8")) for i, s in enumerate(ins))
        lines += ["func.func @%s(%s) -> %s {" % (name, params, ttype(out, "i8"))] + b.lines
        lines += ["  return %s : %s" % (y, ttype(out, "i8")), "}"]
    lines += ["func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
              "func.func @main() {"]
    for n, (name, b, ins, out, y, data) in enumerate(cases):
        args = []
        for i, a in enumerate(data):
            lines.append("  %%c%d_%d = arith.constant %s" % (n, i, literal(a, ttype(a.shape, "i8"))))
            args.append("%%c%d_%d" % (n, i))
        t, wide = ttype(out, "i8"), ttype(out, "i32")
        mem = wide.replace("tensor", "memref")
        lines += ["  %%r%d = call @%s(%s) : (%s) -> %s" % (n, name, ", ".join(args),
                                                          ", ".join(ttype(s, "i8") for s in ins), t),
                  "  %%w%d = arith.extsi %%r%d : %s to %s" % (n, n, t, wide),
                  "  %%m%d = bufferization.to_buffer %%w%d : %s to %s" % (n, n, wide, mem),
                  "  %%u%d = memref.cast %%m%d : %s to memref<*xi32>" % (n, n, mem),
                  "  call @printMemrefI32(%%u%d) : (memref<*xi32>) -> ()" % n]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


def run(text, opt, bin_dir, config, offload, layouts=False):
    pipeline = pipelines.module(
        pipelines.compile(convert_tosa=offload, target=config, precision="int8",
                          layouts=offload and layouts, compression=False),
        pipelines.lower_to_llvm())
    llvm = subprocess.run([opt, "--pass-pipeline=" + pipeline, "-"], input=text,
                          capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt failed:\n" + llvm.stderr[:4000])
    libs = ",".join(os.path.join(os.path.dirname(bin_dir), "lib", lib)
                    for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))
    ran = subprocess.run([os.path.join(bin_dir, "mlir-runner"), "-e", "main",
                          "-entry-point-result=void", "-shared-libs=" + libs],
                         input=llvm.stdout, capture_output=True, text=True)
    if ran.returncode:
        sys.exit("mlir-runner failed:\n" + ran.stderr[:4000])
    return [np.array([int(v) for v in NUMBER.findall(ch.split("data =", 1)[1])])
            for ch in ran.stdout.split("Unranked Memref")[1:]]


def offloaded(text, opt, config):
    """Per function, the integer TOSA computations left on the host."""
    conv = subprocess.run([opt, "--dla-convert-tosa=target=%s precision=int8" % config, "-"],
                          input=text, capture_output=True, text=True)
    if conv.returncode:
        sys.exit("--dla-convert-tosa failed:\n" + conv.stderr[:4000])
    left, func = {}, None
    for line in conv.stdout.splitlines():
        m = re.match(r"\s*func\.func (?:private )?@(\w+)", line)
        if m:
            func = m.group(1)
        elif func and COMPUTE.search(line):
            left.setdefault(func, []).append(COMPUTE.search(line).group(1))
    return left


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opt", required=True)
    p.add_argument("--bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=100)
    p.add_argument("--config", default="nv_small", choices=["nv_small", "nv_large", "nv_full"])
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--print-module", action="store_true")
    p.add_argument("--layouts", action="store_true",
                   help="assign the configuration's formats (--dla-compile layouts=true): the "
                        "offloaded layers execute on their storage bytes")
    p.add_argument("--large-pools", action="store_true",
                   help="max pooling windows the PDP cannot hold only (split into chains)")
    p.add_argument("--large-averages", action="store_true",
                   help="int8 average pooling windows the PDP cannot hold only (chains that "
                        "round per layer: within the bound of their remark)")
    p.add_argument("--rescales", action="store_true",
                   help="int8 feature maps rescaled to int8 only (offline SDPs), half of them "
                        "after a global average pool")
    p.add_argument("--products", action="store_true",
                   help="products of two int8 maps requantized (a quantized hard-swish's "
                        "product), half of them after the hard-swish's gate")
    p.add_argument("--channel-products", action="store_true",
                   help="products of two int8 maps at zero point 0 plus a constant per channel, "
                        "requantized per channel (a hard-swish with a per-channel trailing map)")
    p.add_argument("--gates", action="store_true",
                   help="squeeze-excitation's x * gate[c], the gate computed by a layer "
                        "(a clamp or the HardSigmoid's affine map) and read in place")
    p.add_argument("--bilinear", action="store_true",
                   help="quantized bilinear resizes by integer factors (an upsampling with a "
                        "replicated border and a depthwise convolution with the rescale)")
    a = p.parse_args()
    cases = make_cases(np.random.default_rng(a.seed), a.count, a.large_pools, a.large_averages,
                       a.rescales, a.products, a.gates, a.bilinear, a.channel_products)
    text = module(cases)
    if a.print_module:
        print(text)
        return 0
    left = offloaded(text, a.opt, a.config)
    dla = run(text, a.opt, a.bin, a.config, True, a.layouts)
    host = run(text, a.opt, a.bin, a.config, False)
    if len(dla) != len(cases) or len(host) != len(cases):
        sys.exit("expected %d printed results, got %d and %d" % (len(cases), len(dla), len(host)))
    bad, kinds, worst = 0, {}, {}
    for (name, b, _, _, _, data), d, h in zip(cases, dla, host):
        diff = np.abs(d - h)
        ident = float(np.mean(diff == 0)) if diff.size else 1.0
        ok = name not in left and diff.size and diff.max() <= 1
        kind = name.rsplit("_", 1)[0]
        if kind == "avg_pool":
            # Ties are frequent in small windows: exact against the PDP's
            # own rounding instead.
            ok = ok and np.array_equal(d, pdp_average(data[0], *b.window).ravel())
        if kind == "rescale" and hasattr(b, "window"):
            # After a pool chain (within its bound of TOSA's pool, which the
            # factor magnifies): within one of TOSA's rescale of the chain.
            chain, _ = average_chain(data[0], *b.window)
            want = tosa_rescale(chain, *b.rescale, getattr(b, "affine", None)).ravel()
            ok = name not in left and diff.size and np.abs(d - want).max() <= 1
            diff = np.abs(d - want)
        if kind in ("bilinear", "bilinear_box"):
            # Against the specification in numpy (tosa_bilinear): within
            # one (the rounding-tie direction); by 32, the box's mean rounded
            # to int8 (half an input step) moves the output by up to half of
            # r times TOSA's unit 4 fy fx more.
            f, r, _ = b.bilinear
            bound = 1 + (int(0.5 * r * 4 * f[0] * f[1]) if max(f) >= 32 else 0)
            want = tosa_bilinear(data[0], *b.bilinear).ravel()
            diff = np.abs(d - want)
            ok = name not in left and diff.size and diff.max() <= bound
            ident = float(np.mean(diff == 0))
        if kind == "gate_affine":
            # The gate within one step of TOSA's: the product within one
            # plus what one gate step moves it.
            zx, factor = b.gate
            bound = 1 + int(np.ceil(np.abs(data[0].astype(np.int64) - zx).max() * factor))
            ok = name not in left and diff.size and diff.max() <= bound
        if kind == "large_avg_pool":
            # n layers each rounding twice with the firmware's floored
            # reciprocals: within 53n/64 of the exact mean (the remark's
            # derivation, WindowLimits.cpp averageChainError), at most
            # (53n + 32) // 64 from TOSA's one rounding; equal to the chain
            # of decision 20 computed here.
            chain, n = average_chain(data[0], *b.window)
            k, st = b.window
            x = data[0].astype(np.float64)
            exact = np.stack([x[:, i * st[0]:i * st[0] + k[0], j * st[1]:j * st[1] + k[1]].mean((1, 2))
                              for i in range((x.shape[1] - k[0]) // st[0] + 1)
                              for j in range((x.shape[2] - k[1]) // st[1] + 1)], 1).ravel()
            ok = (name not in left and diff.size and diff.max() <= (53 * n + 32) // 64 and
                  np.abs(d - exact).max() <= 53 * n / 64 and np.array_equal(d, chain.ravel()))
            worst[n] = max(worst.get(n, 0), int(diff.max()))
        same, total = kinds.get(kind, (0, 0))
        kinds[kind] = (same + int(np.sum(diff == 0)), total + diff.size)
        bad += not ok
        if a.verbose or not ok:
            print("%s %s: %d values, %.2f%% identical, max |diff| %d%s"
                  % ("ok" if ok else "MISMATCH", name, diff.size, 100 * ident,
                     diff.max() if diff.size else -1,
                     ", left on the host: " + " ".join(left[name]) if name in left else ""))
    for kind, (same, total) in sorted(kinds.items()):
        share = same / max(total, 1)
        low = kind not in ("avg_pool", "large_avg_pool", "gate_affine", "bilinear_box") and \
            share < 0.99
        bad += low
        print("%s: %.2f%% of %d values identical to TOSA%s"
              % (kind, 100 * share, total, " (below 99%)" if low else ""))
    for n, most in sorted(worst.items()):
        print("chains of %d layers: at most %d from TOSA (bound %d)" % (n, most, (53 * n + 32) // 64))
    print("%d of %d cases offloaded and within %s" % (len(cases) - min(bad, len(cases)), len(cases),
                                                      "their bound" if worst else "one"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
