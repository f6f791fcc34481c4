#!/usr/bin/env python3
"""One attention head's softmax and p v as softmax_int8_model.py designs
them (design "ev"), written as a dla module for nv_small int8 from the
model's own chains, so that its layers run on NVIDIA's C model
(run_network_trace.py) and its output is compared with the numpy model.

    softmax_head.py gen DIR [--seed S] [--spread X]   DIR/head.mlir, s.npy, vt.npy
    softmax_head.py check DIR KEEP [--seed S] [--spread X]   KEEP: run_network_trace.py --keep

The module (@main(s^T, v^T)): the PDP's row max; d = m - s
- 128 (softmax_row_max.py's pass); the exp chain, one offline SDP per
segment; e^T transposed by a convolution of the 40 x 40 identity map by
dla.as_weights(e^T); per reciprocal segment a convolution of e by ones (16
kernels) and its on-the-fly SDP (the chain's pass over the accumulator);
v^T through an SDP (a layer's result, written as a weight stream) and p v's
convolution of e by dla.as_weights(v^T) whose SDP multiplies by r per
element (X1) and s_v / (127^2 s_o) (X2). The -1s and the identity are
constant feature maps (packed at compile time).
"""

import argparse
import os
import sys

import numpy as np

import nvdla_ref
import softmax_int8_model as M

FEATURE = "#dla.feature<int8, config = nv_small>"
T40 = "tensor<1x40x5x8xi8>"
T16 = "tensor<1x16x5x8xi8>"
TV = "tensor<1x40x2x8xi8>"
EYE = np.eye(40, dtype=np.int8).reshape(1, 40, 5, 8)   # [c, 8 h + w] = (c == 8 h + w)


def chain_ops(x, xt, plan, prefix, conv=None):
    """The chain's passes as dla.sdp ops over %x (offline), or over a
    fresh convolution each (conv = (input, weights, types) -> result type):
    lines, the last value."""
    segs, falling = plan
    lines, last, carry = [], None, 0
    n = len(segs)
    for k, (lo, _, m, shift, frm, to) in enumerate(segs):
        c = 127 - to if k + 1 < n else 0
        offset = -(frm + c) if k == 0 else carry - c
        scale = -1 if (k + 1 == n and falling) else 1
        carry = c
        ot = conv[3] if conv else xt
        src, mode = x, "offline"
        if conv:
            src = "%%%s_acc%d" % (prefix, k)
            lines.append("  %s = dla.conv direct %s, %s : %s, %s -> %s"
                         % (src, conv[0], conv[1], xt, conv[2], ot))
            mode = "on_the_fly"
        bs = "bs <alu = sum, alu_operand = %d, mul_operand = %d, mul_shift = %d, relu = true>" \
            % (-lo, m, shift)
        elt = " eltwise %s : %s" % (last, ot) if last else ""
        bn = " bn <alu = sum, alu_operand = eltwise>" if last else ""
        cvt = " out_cvt <offset = %d, scale = %d, shift = 0>" % (offset, scale) \
            if (offset or scale != 1) else ""
        name = "%%%s%d" % (prefix, k)
        lines.append("  %s = dla.sdp %s %s%s %s%s%s : %s -> %s"
                     % (name, mode, src, elt, bs, bn, cvt, ot, ot))
        last = name
    return lines, last


def module(q, chains):
    s_o, z_o = q["o"]
    exp_plan, recip_plan = chains
    mo, so = M.multiplier(q["v"] / (M.R * s_o))
    out = ["module attributes {dla.target = #dla.target<nvdla, nv_small>} {",
           "func.func @main(%%s: %s, %%vt: %s) -> %s {" % (T40, TV, T16),
           "  %%neg = arith.constant dense<-1> : %s" % T40,
           "  %%eye = arith.constant dense<\"0x%s\"> : %s" % (EYE.tobytes().hex().upper(), T40),
           "  %m = dla.pool max %s kernel [5, 8] : " + T40 + " -> tensor<1x40x1x1xi8>",
           "  %d = dla.sdp offline %neg eltwise %s : " + T40 + " prelu %m : tensor<1x40x1x1xi8>"
           " bs <mul_operand = prelu> bn <alu = sum, alu_operand = eltwise>"
           " out_cvt <offset = -128, scale = -1, shift = 0> : " + T40 + " -> " + T40]
    lines, et = chain_ops("%d", T40, exp_plan, "e")
    out += lines
    out += ["  %%we = dla.as_weights %s : %s -> tensor<40x40x1x1xi8>" % (et, T40),
            "  %e = dla.conv direct %eye, %we : " + T40 + ", tensor<40x40x1x1xi8> -> " + T40,
            "  %ones = arith.constant dense<1> : tensor<16x40x1x1xi8>"]
    lines, r = chain_ops("%e", T40, recip_plan, "r",
                         conv=("%e", "%ones", "tensor<16x40x1x1xi8>", T16))
    out += lines
    out += ["  %v = dla.sdp offline %vt bs <alu = sum, alu_operand = 0> : " + TV + " -> " + TV,
            "  %wv = dla.as_weights %v : " + TV + " -> tensor<16x40x1x1xi8>",
            "  %ev = dla.conv direct %e, %wv : " + T40 + ", tensor<16x40x1x1xi8> -> " + T16,
            "  %%o = dla.sdp on_the_fly %%ev eltwise %s : %s bs <mul_operand = eltwise>"
            " bn <mul_operand = %d, mul_shift = %d> out_cvt <offset = %d, scale = 1, shift = 0>"
            " : %s -> %s" % (r, T16, mo, so, -z_o, T16, T16),
            "  return %o : " + T16, "}", "}", ""]
    return "\n".join(out)


def draw(seed, spread):
    """One head's float scores and values drawn like the recognizer's
    (softmax_int8_model.sample: spread 0.3 like block 1, 1.0 like block
    2), its scales calibrated on 16 other draws."""
    rng = np.random.default_rng(seed)
    cs, cv = M.sample(rng, 16, spread=spread)
    es, ev = M.sample(rng, 1, spread=spread)
    q = M.calibrate(cs, cv)
    s8 = M.quantize(es, q["s"][0], q["s"][1])[0]
    v8 = np.zeros((40, 16), np.int64)
    v8[:, :15] = M.quantize(ev, q["v"])[0]
    return s8, v8, q


def gen(a):
    os.makedirs(a.dir, exist_ok=True)
    s8, v8, q = draw(a.seed, a.spread)
    chains = M.plans(q["s"][0])
    with open(os.path.join(a.dir, "head.mlir"), "w") as f:
        f.write(module(q, chains))
    np.save(os.path.join(a.dir, "s.npy"), s8.astype(np.int8).reshape(1, 40, 5, 8))
    np.save(os.path.join(a.dir, "vt.npy"), v8.astype(np.int8).reshape(1, 40, 2, 8))
    print("%d exp passes, %d reciprocal passes" % (len(chains[0][0]), len(chains[1][0])))


def check(a):
    s8, v8, q = draw(a.seed, a.spread)
    chains = M.plans(q["s"][0])
    _, o8, _ = M.program(s8, v8, q, "ev", chains)
    want = o8.T.reshape(1, 16, 5, 8).astype(np.int8)        # dims as channels
    # pool, d, the exp passes, the transpose, the reciprocal's, v^T, p v
    last = "layer_%03d" % (2 + len(chains[0][0]) + 1 + len(chains[1][0]) + 2 - 1)
    with open(os.path.join(a.keep, last + ".data", "result0.bin"), "rb") as f:
        got = f.read()
    exp = nvdla_ref.pack(want, nvdla_ref.parse_encoding(FEATURE), "i8")
    same = got[:len(exp)] == exp
    print("%s: o %s the numpy model's (%d bytes; o over %d..%d)"
          % (last, "equals" if same else "differs from", len(exp), o8.min(), o8.max()))
    sys.exit(0 if same else 1)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    for name in ("gen", "check"):
        c = sub.add_parser(name)
        c.add_argument("dir")
        if name == "check":
            c.add_argument("keep")
        c.add_argument("--seed", type=int, default=0)
        c.add_argument("--spread", type=float, default=0.3)
    a = p.parse_args()
    gen(a) if a.cmd == "gen" else check(a)


if __name__ == "__main__":
    main()
