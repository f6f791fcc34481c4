#!/usr/bin/env python3
"""Executes dla layer ops through --dla-lower-to-reference and mlir-runner
and compares every output element with layer_ref.py.

    run_layers.py --kind conv|conv-order|sdp|pool|lrn|encoded|compressed|winograd|int-sdp|
                         int-pool|int-conv|int-lrn|int-lrn-wrap|fp16-lut|fp16-conv|fp16-pdp|fp16-lrn|
                         fp16-lrn-tables|fp16-ew|fp16-ew-lut
                  [--seed S] [--count N] --opt DLA_OPT --bin LLVM_BIN
                  [--path reference|memref|compiled|llvm]

--kind conv-order: fp16 convolutions compared bit for bit with the f32 sum
in the stated order (layer_ref.conv_f32_in_order).

--path llvm lowers with --dla-lower-to-llvm after --dla-lower-to-reference:
the outlined, vectorized kernels dla-run-onnx executes.

--kind int-lrn: N random integer LRN layers (int_cases_lrn.py), stated and
derived tables, compared with int_cdp.cdp_lrn; run in modules of --batch
cases. --kind int-lrn-wrap: stated tables in the LE exponent underflow whose
product wraps int64 (int_cases_lrn.wrap_underflow).

--path memref (encoded cases) runs the layer ops in dla.on_storage
(dla.on_storage, made by --dla-lower-to-memref) instead; --path compiled
first assigns layouts with --dla-compile (any case), then does the same.

--kind fp16-lut: the SDP's LUT in float mode on fp16 (fp16_cases_lut.py):
the sigmoid and tanh programs over every finite fp16 input and N random
tables, every value compared bit for bit with lut_float_ref.py.

--kind fp16-pdp: N random fp16 pooling layers (fp16_cases_pdp.py), every
value compared bit for bit with fp_nvdla.pdp_fp16 (the PDP's fp16 path).

--kind fp16-lrn: N random fp16 LRN layers (fp16_cases_lrn.py), every value
compared bit for bit with fp_nvdla.cdp_fp16 (the CDP's fp16 path);
fp16-lrn-tables: each stating a random float-mode table (drawn_tables).

--kind fp16-ew: N random offline fp16 SDPs of X stages then the Y stage's
multiplier and ALU (fp16_cases_sdp.layer_cases), every value compared bit
for bit with fp_nvdla (sdp_x_fp16, sdp_y_fp16, Fp32ToFp16). --kind
fp16-ew-lut: the same with the Y stage's float LUT after them (on their
fp32 value: sdp_y_fp16's `lut`); --lut-on-fp16 expects the LUT on that
value rounded to fp16 (the negative control).

int-pool and int-conv are N random integer layers with their registers
(int_cases_pool.py, int_cases_conv.py; expected values from the numpy model
of NVIDIA's C model), printed as one summary line unless --verbose.

One module per kind: one function per case, called from @main on constant
random inputs; results are widened (f16 -> f32, ints -> i32) and printed
with printMemref*. f16 outputs may differ from the reference by one f16 ulp
(the lowering accumulates in f32 in loop order, the reference sums exactly),
integer outputs must be exact (integer LRN: the CDP's arithmetic on the
derived tables of lrn_tables.py, or the stated ones of int_cases_lrn.py).
Prints one line per case with its max error; exits 1 on any mismatch.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

import numpy as np

import layer_ref as ref  # noqa: E402

MLIR_TYPE = {"f16": "f16", "f32": "f32", "i8": "i8", "i16": "i16", "ui8": "ui8", "ui16": "ui16"}


def tensor_type(shape, t, enc=None):
    dims = "x".join(str(d) for d in shape)
    body = f"{dims}x{MLIR_TYPE[t]}" if shape else MLIR_TYPE[t]
    return f"tensor<{body}{', ' + enc if enc else ''}>"


def literal(a):
    return 'dense<"0x' + np.ascontiguousarray(a).tobytes().hex().upper() + '">'


def rand(rng, shape, t, scale=4.0):
    if t == "f16":
        return np.clip(rng.standard_normal(shape) * scale, -60000, 60000).astype(np.float16)
    lo, hi = {"i8": (-128, 127), "i16": (-300, 300), "ui8": (0, 255)}[t]
    return rng.integers(lo, hi + 1, size=shape).astype(ref.NP_TYPE[t])


class Case:
    def __init__(self, name, args, op, out_shape, out_t, expected, encodings=None):
        self.name, self.args, self.op = name, args, op
        self.out_shape, self.out_t, self.expected = out_shape, out_t, expected
        # Lines before `%r = op` (a producing op), and whether the values must
        # be exact (the integer units' cases; fp16 results included).
        self.prelude = ""
        # Argument index or "result" -> the encoding of that function boundary.
        self.encodings = encodings or {}

    def arg_type(self, i):
        a, t = self.args[i]
        return tensor_type(a.shape, t, self.encodings.get(i))

    def result_type(self):
        return tensor_type(self.out_shape, self.out_t, self.encodings.get("result"))


def conv_cases(rng):
    cases = []

    def add(mode, xt, wt, out, x_shape, w_shape, stride=(1, 1), pad=(0, 0, 0, 0),
            dil=(1, 1), bias_t=None, scale=4.0, clip=None):
        x = rand(rng, x_shape, xt, scale)
        w = rand(rng, w_shape, wt, 1.0 if wt == "f16" else 4.0)
        if wt != "f16":
            w = rand(rng, w_shape, "i8").astype(ref.NP_TYPE[wt]) if wt == "i8" else \
                rng.integers(-50, 51, size=w_shape).astype(np.int16)
        b = rand(rng, (w_shape[0],), bias_t) if bias_t else None
        e = ref.conv(x, w, b, stride, pad, dil, out, clip)
        args = [(x, xt), (w, wt)] + ([(b, bias_t)] if bias_t else [])
        names = ", ".join(f"%a{i}" for i in range(len(args)))
        types = ", ".join(tensor_type(a.shape, t) for a, t in args)
        op = (f"dla.conv {mode} {names} stride [{stride[0]}, {stride[1]}] "
              f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}] dilation [{dil[0]}, {dil[1]}] "
              + (f"clip_truncate {clip} " if clip is not None else "")
              + f": {types} -> {tensor_type(e.shape, out)}")
        cases.append(Case(f"conv_{mode}_{xt}_{out}_{len(cases)}", args, op, e.shape, out, e))

    add("direct", "f16", "f16", "f16", (1, 5, 7, 6), (4, 5, 3, 3), (2, 1), (1, 1, 0, 2), bias_t="f16")
    add("direct", "f16", "f16", "f16", (2, 3, 9, 9), (6, 3, 3, 2), (1, 2), (0, 1, 1, 0), (2, 1))
    add("direct", "f16", "f16", "f16", (1, 8, 4, 4), (3, 8, 1, 1), scale=20000.0)  # clips to 65504
    add("direct", "i8", "i8", "i8", (1, 6, 5, 5), (5, 6, 3, 3), pad=(1, 1, 1, 1), bias_t="i8")
    add("direct", "i16", "i16", "i16", (1, 4, 6, 5), (3, 4, 2, 3), (2, 2), (1, 0, 1, 1), bias_t="i16")
    add("winograd", "f16", "f16", "f16", (1, 4, 6, 6), (4, 4, 3, 3), pad=(1, 1, 1, 1))
    add("winograd", "i8", "i8", "i8", (1, 3, 8, 8), (2, 3, 6, 6), (2, 2), (2, 2, 2, 2))
    add("image", "ui8", "i8", "i8", (1, 4, 7, 7), (4, 3, 3, 3), (2, 2), (1, 1, 1, 1))
    add("image", "ui8", "f16", "f16", (1, 4, 5, 6), (2, 3, 3, 3), pad=(1, 1, 1, 1))
    add("image", "i16", "i16", "i16", (1, 1, 5, 5), (2, 1, 3, 3))
    # CACC's clip truncate: half-away rounding of the sum (ties included),
    # then the bias; the field's maximum on int16 sums.
    add("direct", "i8", "i8", "i8", (1, 6, 5, 5), (5, 6, 3, 3), pad=(1, 1, 1, 1), bias_t="i8",
        clip=9)
    add("direct", "i16", "i16", "i16", (1, 4, 6, 5), (3, 4, 2, 3), bias_t="i16", clip=16)
    add("direct", "i16", "i16", "i16", (1, 4, 6, 5), (3, 4, 2, 3), clip=1)
    return cases


def conv_order_cases(rng):
    """fp16 convolutions whose sums depend on their order, expected bit for bit from the stated order
    (layer_ref.conv_f32_in_order); shapes across the vector kernels' edges:
    output widths below, at and past 16 lanes, output channels past a block
    of 8, strides (gathers), dilation, padding."""
    cases = []
    for x_shape, w_shape, stride, pad, dil in [
            ((1, 5, 6, 20), (9, 5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1)),
            ((1, 16, 3, 33), (17, 16, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1)),
            ((2, 3, 9, 40), (8, 3, 3, 3), (2, 2), (1, 0, 1, 2), (1, 1)),
            ((1, 4, 7, 16), (7, 4, 2, 3), (1, 3), (0, 1, 2, 0), (2, 1)),
            ((1, 7, 5, 1), (3, 7, 3, 1), (1, 1), (1, 1, 0, 0), (1, 1))]:
        x = (rng.uniform(-1, 1, x_shape) * 2.0 ** rng.integers(-4, 5, x_shape)).astype(np.float16)
        w = (rng.uniform(-1, 1, w_shape) * 2.0 ** rng.integers(-4, 5, w_shape)).astype(np.float16)
        # The first and last channels add and then cancel terms of 2^13:
        # the small terms between are rounded at that magnitude, so the
        # result depends on the order of the sum.
        x[:, 0] = x[:, w_shape[1] - 1] = 128
        w[:, 0] = 64 * rng.choice([-1, 1], w[:, 0].shape)
        w[:, -1] = -w[:, 0]
        e = ref.conv_f32_in_order(x, w, stride, pad, dil)
        args = [(x, "f16"), (w, "f16")]
        op = (f"dla.conv direct %a0, %a1 stride [{stride[0]}, {stride[1]}] "
              f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}] dilation [{dil[0]}, {dil[1]}] "
              f": {tensor_type(x.shape, 'f16')}, {tensor_type(w.shape, 'f16')} -> "
              f"{tensor_type(e.shape, 'f16')}")
        cases.append(Case(f"ord_conv_{len(cases)}", args, op, e.shape, "f16", e))
    return cases


def _fp16_bias_to_int16(x, bias):
    """An fp16 SDP adding a per-channel bias and writing int16, as NVDLA
    computes it (fp_nvdla: FpAdd in fp32 on the X stage, Fp32ToFp16, then
    Fp16ToInt16), not the exact sum rounded once (layer_ref)."""
    import fp_nvdla
    xb = fp_nvdla.fp16_to_fp32(x.view(np.uint16))
    op = np.broadcast_to(bias.view(np.uint16).reshape(1, -1, 1, 1), x.shape)
    y = fp_nvdla.sdp_x_fp16(xb, alu_bypass=0, alu_algo=fp_nvdla.ALU_SUM, alu_op=op)
    return fp_nvdla.sdp_cvt_fp16(y, out_int16=True)


def sdp_cases(rng):
    cases = []

    def add(xt, out, shape, bias=None, bn=None, elt=None, prelu=None, relu=False, scale=4.0,
            out_cvt=None):
        c = shape[1]
        x = rand(rng, shape, xt, scale)
        args, parts = [(x, xt)], []
        vals = {}
        for key, spec in (("bias", bias), ("batchnorm", bn), ("eltwise", elt), ("prelu", prelu)):
            if spec is None:
                continue
            t, kind = spec
            aux_shape = {"layer": (), "channel": (c,), "element": shape, "bn": (c, 2)}[kind]
            a = rand(rng, aux_shape, t, 1.0)
            if t != "f16" and key in ("batchnorm", "prelu"):
                a = rng.integers(-3, 4, size=aux_shape).astype(ref.NP_TYPE[t])
            vals[key] = a
            args.append((a, t))
            parts.append(f"{key} %a{len(args) - 1} : {tensor_type(a.shape, t)}")
        e = ref.sdp(x, vals.get("bias"), vals.get("batchnorm"), vals.get("eltwise"),
                    vals.get("prelu"), relu, out, out_cvt)
        if xt == "f16" and out == "i16" and FP16_ARITHMETIC == "hardware":
            e = _fp16_bias_to_int16(x, vals["bias"])
        cvt = (" out_cvt <offset = %d, scale = %d, shift = %d>" % out_cvt) if out_cvt else ""
        op = (f"dla.sdp offline %a0 {' '.join(parts)}{' relu' if relu else ''}{cvt} "
              f": {tensor_type(shape, xt)} -> {tensor_type(shape, out)}")
        cases.append(Case(f"sdp_{xt}_{out}_{len(cases)}", args, op, e.shape, out, e))

    add("f16", "f16", (1, 6, 3, 4), ("f16", "channel"), ("f16", "bn"), ("f16", "element"),
        ("f16", "channel"))
    add("f16", "f16", (2, 3, 4, 5), ("f16", "layer"), relu=True)
    add("f16", "f16", (1, 4, 3, 3), ("f16", "element"), ("f16", "bn"), scale=40000.0)  # clips
    add("f16", "i16", (1, 5, 4, 4), ("f16", "channel"), scale=20000.0)  # rounds, saturates
    add("i8", "i8", (1, 7, 3, 3), ("i8", "channel"), ("i8", "bn"), relu=True)
    add("i8", "i16", (1, 3, 4, 4), ("i16", "element"), prelu=("i8", "channel"))
    add("i16", "f16", (1, 4, 3, 5), ("i16", "channel"), elt=("i16", "element"))
    add("i16", "i8", (1, 2, 5, 5), ("i16", "layer"))
    # The output converter (D_CVT_*): ties both ways, shift 0 and the field
    # maximum, a negative scale, int16 and int8 saturation after the 17 bits.
    add("i16", "i16", (1, 6, 5, 5), ("i16", "channel"), ("i16", "bn"), scale=3000.0,
        out_cvt=(-7, 27307, 16))
    add("i8", "i8", (1, 7, 3, 4), ("i8", "channel"), relu=True, out_cvt=(3, 3, 1))
    add("i16", "i8", (1, 3, 4, 4), ("i16", "element"), out_cvt=(0, -32768, 0))
    add("i8", "i16", (1, 4, 3, 3), ("i8", "layer"), out_cvt=(100, 32767, 63))

    # dla.clamp: the ALU's MAX / MIN with register operands (ReLU6, a
    # bounded int8 clamp, an fp16 -> int16 conversion that then saturates).
    for xt, out, lo, hi, scale in (("f16", "f16", 0.0, 6.0, 8.0), ("i8", "i8", -20.0, 35.0, 4.0),
                                   ("f16", "i16", -1.5, 40000.0, 30000.0)):
        shape = (1, 5, 3, 4)
        x = rand(rng, shape, xt, scale)
        e = ref.clamp(x, lo, hi, out)
        op = (f"dla.clamp %a0 min {lo!r} max {hi!r} : {tensor_type(shape, xt)} -> "
              f"{tensor_type(shape, out)}")
        cases.append(Case(f"clamp_{xt}_{out}_{len(cases)}", [(x, xt)], op, e.shape, out, e))
    # ReLU6 of int8 data rescaled by the output converter.
    for xt, out, lo, hi, scale, cvt in (("i8", "i8", 0.0, 96.0, 4.0, (5, 21845, 15)),):
        shape = (1, 5, 3, 4)
        x = rand(rng, shape, xt, scale)
        e = ref.clamp(x, lo, hi, out, cvt)
        op = (f"dla.clamp %a0 min {lo!r} max {hi!r} out_cvt <offset = {cvt[0]}, "
              f"scale = {cvt[1]}, shift = {cvt[2]}> : {tensor_type(shape, xt)} -> "
              f"{tensor_type(shape, out)}")
        cases.append(Case(f"clamp_{xt}_{out}_{len(cases)}", [(x, xt)], op, e.shape, out, e))
    return cases


def pool_cases(rng):
    cases = []
    for kind in ("max", "min", "average"):
        for t in ("f16", "i8", "i16"):
            shape = (1, 3 + len(cases) % 3, 7, 6)
            kernel, stride, pad = [(3, 3), (2, 2), (1, 1, 0, 1)] if len(cases) % 2 else \
                [(2, 3), (1, 2), (0, 0, 1, 1)]
            x = rand(rng, shape, t)
            e = ref.pool(x, kind, kernel, stride, pad)
            op = (f"dla.pool {kind} %a0 kernel [{kernel[0]}, {kernel[1]}] "
                  f"stride [{stride[0]}, {stride[1]}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}] "
                  f": {tensor_type(shape, t)} -> {tensor_type(e.shape, t)}")
            cases.append(Case(f"pool_{kind}_{t}_{len(cases)}", [(x, t)], op, e.shape, t, e))
    return cases


def lrn_cases(rng):
    cases = []
    for t, size, alpha, beta, k, scale in (("f16", 5, 1e-2, 0.75, 1.0, 4.0),
                                           ("f16", 3, 0.5, 0.5, 2.0, 4.0),
                                           ("f16", 7, 1e-4, 0.75, 1.0, 4.0),  # NORMALZ_LEN: odd 3..9
                                           ("i8", 5, 1e-3, 0.75, 1.0, 1.0),
                                           ("i16", 3, 1e-4, 0.6, 1.5, 1.0)):
        shape = (1, 7, 3, 4)
        x = rand(rng, shape, t, scale)
        e = ref.lrn(x, size, alpha, beta, k)
        op = (f"dla.lrn %a0 size {size} {{alpha = {alpha:e} : f32, beta = {beta:e} : f32, "
              f"k = {k:e} : f32}} : {tensor_type(shape, t)} -> {tensor_type(shape, t)}")
        cases.append(Case(f"lrn_{t}_{size}_{len(cases)}", [(x, t)], op, e.shape, t, e))
    return cases


def encoded_cases(rng):
    """Layers whose operands and results live in accelerator formats: the
    case functions take and return storage bytes, every encoded operand is
    unpacked and every result packed by code that runs (lowered relayouts);
    @main's inputs are packed at compile time by --dla-pack-weights."""
    cases = []
    x = rand(rng, (1, 20, 5, 6), "f16")  # 20 channels: a partial second atom
    w = rand(rng, (12, 20, 3, 3), "f16", 1.0)
    b = rand(rng, (12,), "f16", 1.0)
    e = ref.conv(x, w, b, (1, 1), (1, 1, 1, 1))
    op = ("dla.conv direct %a0, %a1, %a2 pad [1, 1, 1, 1] : "
          "{0}, {1}, {2} -> {3}")
    enc = {0: "#dla.feature<fp16>", 1: "#dla.weight<direct, fp16>",
           2: "#dla.bias<per_channel, fp16>",
           "result": "#dla.feature<fp16, line_stride = 224, surface_stride = 1344>"}
    c = Case("enc_conv_f16", [(x, "f16"), (w, "f16"), (b, "f16")], None, e.shape, "f16", e, enc)
    c.op = op.format(c.arg_type(0), c.arg_type(1), c.arg_type(2), c.result_type())
    cases.append(c)

    x = rand(rng, (1, 40, 3, 4), "i8")  # 40 channels: int8 atoms of 32
    b = rand(rng, (40,), "i8")
    bn = rng.integers(-3, 4, size=(40, 2)).astype(np.int16)
    el = rand(rng, (1, 40, 3, 4), "i8")
    pr = rng.integers(-3, 4, size=(40,)).astype(np.int8)
    e = ref.sdp(x, b, bn, el, pr, False, "i16")
    enc = {0: "#dla.feature<int8>", 1: "#dla.bias<per_channel, int8>",
           2: "#dla.batchnorm<per_channel, int16>", 3: "#dla.eltwise<int8>",
           4: "#dla.prelu<int8>", "result": "#dla.feature<int16>"}
    c = Case("enc_sdp_i8", [(x, "i8"), (b, "i8"), (bn, "i16"), (el, "i8"), (pr, "i8")], None,
             e.shape, "i16", e, enc)
    c.op = ("dla.sdp offline %a0 bias %a1 : {1} batchnorm %a2 : {2} eltwise %a3 : {3} "
            "prelu %a4 : {4} : {0} -> {5}").format(*[c.arg_type(i) for i in range(5)],
                                                   c.result_type())
    cases.append(c)

    x = rand(rng, (1, 9, 3, 5), "i8", 1.0)
    e = ref.lrn(x, 3, 1e-2, 0.75, 1.0)
    enc = {0: "#dla.feature<int8, line_stride = 192>", "result": "#dla.feature<int8>"}
    c = Case("enc_lrn_i8", [(x, "i8")], None, e.shape, "i8", e, enc)
    c.op = ("dla.lrn %a0 size 3 {{alpha = 1.0e-02 : f32}} : {0} -> {1}"
            .format(c.arg_type(0), c.result_type()))
    cases.append(c)

    # Images: interleaved (one view) and semi-planar (a view per plane, U and
    # V at their plane offsets); image weights have no strided view (bytes).
    for name, fmt, ch, shape, wshape in (
            ("enc_image_abgr", "T_A8B8G8R8", 4, (1, 4, 7, 7), (4, 3, 3, 3)),
            ("enc_image_yuv", "T_Y8___U8V8_N444", 3, (1, 3, 6, 8), (5, 3, 3, 3))):
        x = rand(rng, shape, "ui8")
        w = rand(rng, wshape, "i8")
        e = ref.conv(x, w, None, (2, 2), (1, 1, 1, 1), (1, 1), "i8")
        enc = {0: f"#dla.pixel<{fmt}>", 1: f"#dla.weight<image, int8, channels = {ch}>",
               "result": "#dla.feature<int8>"}
        c = Case(name, [(x, "ui8"), (w, "i8")], None, e.shape, "i8", e, enc)
        c.op = ("dla.conv image %a0, %a1 stride [2, 2] pad [1, 1, 1, 1] : {0}, {1} -> {2}"
                .format(c.arg_type(0), c.arg_type(1), c.result_type()))
        cases.append(c)

    # fp16 results beyond the largest normal clip to +-65504 on storage too.
    x = rand(rng, (1, 6, 3, 4), "f16", 30000.0)
    bn = rand(rng, (6, 2), "f16", 2.0)
    e = ref.sdp(x, None, bn, None, None, False, "f16")
    enc = {0: "#dla.feature<fp16>", 1: "#dla.batchnorm<per_channel, fp16>",
           "result": "#dla.feature<fp16>"}
    c = Case("enc_sdp_f16_clips", [(x, "f16"), (bn, "f16")], None, e.shape, "f16", e, enc)
    c.op = ("dla.sdp offline %a0 batchnorm %a1 : {1} : {0} -> {2}"
            .format(c.arg_type(0), c.arg_type(1), c.result_type()))
    cases.append(c)

    x = rand(rng, (1, 40, 7, 6), "i8")  # a partial second atom, own line stride
    e = ref.pool(x, "average", (3, 3), (2, 2), (1, 1, 1, 1))
    enc = {0: "#dla.feature<int8, line_stride = 256>", "result": "#dla.feature<int8>"}
    c = Case("enc_pool_i8", [(x, "i8")], None, e.shape, "i8", e, enc)
    c.op = ("dla.pool average %a0 kernel [3, 3] stride [2, 2] pad [1, 1, 1, 1] : {0} -> {1}"
            .format(c.arg_type(0), c.result_type()))
    cases.append(c)
    return cases


def compressed_cases(rng):
    """Convolutions whose weights are sparse-compressed (nv_full), each with
    its uncompressed twin: kernel group 0 sparse (random zeros; fp16 with
    -0.0, which keeps its bytes), group 1 all zero (WGS 0, no data), group 2
    incompressible (no zero). Kernel groups of nv_full: 32 kernels for int8,
    16 for int16 / fp16. Both run from storage; the twins must agree byte
    for byte and both match utils/dla-ref/layer_ref.py."""
    cases = []
    for t, group, prec in (("i8", 32, "int8"), ("i16", 16, "int16"), ("f16", 16, "fp16")):
        k = 2 * group + 8
        x = rand(rng, (1, 20, 5, 6), t, 1.0 if t == "f16" else 4.0)
        w = rand(rng, (k, 20, 3, 3), t, 0.25) if t == "f16" else \
            rng.integers(-20, 21, size=(k, 20, 3, 3)).astype(ref.NP_TYPE[t])
        w[w == 0] = 1  # zeros only where placed below
        sparse = rng.random((group, 20, 3, 3)) < 0.6
        w[:group][sparse] = 0
        if t == "f16":
            w[:group][sparse & (rng.random(sparse.shape) < 0.2)] = np.float16(-0.0)
        w[group:2 * group] = 0
        b = rand(rng, (k,), t, 1.0)
        e = ref.conv(x, w, b, (1, 1), (1, 1, 1, 1), (1, 1), t)
        for compressed in (", compressed", ""):
            # Compressed weights have no single storage buffer to pass: a
            # constant of the case function, packed by --dla-pack-weights.
            enc = {0: f"#dla.feature<{prec}>", 1: f"#dla.bias<per_channel, {prec}>",
                   "result": f"#dla.feature<{prec}>"}
            name = f"cmp_conv_{t}" + ("" if compressed else "_plain")
            c = Case(name, [(x, t), (b, t)], None, e.shape, t, e, enc)
            wt = tensor_type(w.shape, t, f"#dla.weight<direct, {prec}{compressed}>")
            c.prelude = (f"%wc = arith.constant {literal(w)} : {tensor_type(w.shape, t)}\n"
                         f"  %w = dla.relayout %wc : {tensor_type(w.shape, t)} -> {wt}")
            c.op = ("dla.conv direct %a0, %w, %a1 pad [1, 1, 1, 1] : {0}, {1}, {2} -> {3}"
                    .format(c.arg_type(0), wt, c.arg_type(1), c.result_type()))
            cases.append(c)
    return cases


# The CPU execution's fp16 arithmetic the cases expect (main's
# --fp16-arithmetic).
FP16_ARITHMETIC = "hardware"


def winograd_cases(rng):
    """Winograd convolutions (nv_full) run from their stored taps, against
    winograd_ref.py (the C model's steps; fp16 3x3 at stride 1 with
    --fp16-arithmetic hardware: fp16_cases_wino.py, NVDLA's arithmetic) and,
    separately, the direct
    convolution (main: fp16 within WINOGRAD_F16_TOL; the integer case
    "_exact" equal, its taps and transformed inputs exact by construction).
    Strides 1 and 2, output sizes that end in half tiles, channels and
    kernels that do not fill their padding / group, a PAD_VALUE."""
    import winograd_ref
    cases = []
    specs = [  # t, prec, C, K, R, stride, H, W, pad, pad_value, exact
        ("f16", "fp16", 20, 24, 3, 1, 7, 9, (1, 1, 1, 1), 0, False),
        ("f16", "fp16", 6, 17, 5, 2, 11, 10, (2, 2, 2, 2), 0, False),
        ("i8", "int8", 20, 40, 3, 1, 6, 7, (1, 1, 1, 1), 3, False),
        ("i8", "int8", 9, 33, 3, 1, 5, 5, (1, 1, 1, 1), 0, True),
        ("i16", "int16", 12, 18, 3, 1, 7, 6, (1, 0, 1, 0), -5, False),
        ("i16", "int16", 5, 16, 6, 2, 12, 13, (2, 2, 2, 2), 0, False),
    ]
    for t, prec, C, K, R, st, H, W, pad, pv, exact in specs:
        if t == "f16":
            x = rand(rng, (1, C, H, W), t, 1.0)
            w = rand(rng, (K, C, R, R), t, 0.25)
        elif exact:
            # Weights multiples of 4 up to 28 (G g G^T integral, |tap| <= 63)
            # and inputs up to 31 (|C^T d C| <= 124): nothing rounds.
            x = rng.integers(-31, 32, size=(1, C, H, W)).astype(np.int8)
            w = (4 * rng.integers(-7, 8, size=(K, C, R, R))).astype(np.int8)
        else:
            lo, hi = (-128, 128) if t == "i8" else (-3000, 3001)
            x = rng.integers(lo, hi, size=(1, C, H, W)).astype(ref.NP_TYPE[t])
            w = rng.integers(-40, 41, size=(K, C, R, R)).astype(ref.NP_TYPE[t])
        b = rand(rng, (K,), t, 1.0)
        stride = f", stride = {st}" if st > 1 else ""
        enc = f"#dla.weight<winograd, {prec}{stride}>"
        e = winograd_ref.winograd_conv(x, w, enc, b, st, pad, pv, t)
        if t == "f16" and st == 1 and FP16_ARITHMETIC == "hardware":
            # 3x3 at stride 1 runs NVDLA's fp16 arithmetic (fp_nvdla's PRA,
            # Winograd MAC cell and CACC, then the SDP's bias and converter).
            import fp16_cases_wino
            e = fp16_cases_wino.expected(x[0], w, pad, b, enc)[1].view(np.float16)[None]
        name = f"wino_conv_{t}_s{st}_{C}x{K}" + ("_exact" if exact else "")
        c = Case(name, [(x, t), (b, t)], None, e.shape, t, e,
                 {0: f"#dla.feature<{prec}>", 1: f"#dla.bias<per_channel, {prec}>",
                  "result": f"#dla.feature<{prec}>"})
        c.direct = ref.conv(x, w, b, (st, st), pad, out=t) if pv == 0 else None
        c.exact_direct = exact
        if t == "f16":
            # sum over c, r, s of |x * w|: the scale of the rounding error.
            xa = np.pad(np.abs(x.astype(np.float64)),
                        ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
            oh, ow = e.shape[2:]
            c.abs_sum = sum(np.einsum("nchw,kc->nkhw",
                                      xa[:, :, i:i + st * (oh - 1) + 1:st,
                                         j:j + st * (ow - 1) + 1:st],
                                      np.abs(w[:, :, i, j].astype(np.float64)))
                            for i in range(R) for j in range(R))
        cases.append(winograd_case(c, w, t, enc, st, pad, pv))
    cases += scaled_winograd_cases(rng)
    return cases


def scaled_winograd_cases(rng):
    """f32 weights relayouted straight into int8 / int16 Winograd taps with a
    scale: the taps are round(G w G^T / scale), one rounding. Each case also
    counts the outputs in which quantizing first (round(w / scale), then the
    integer transform, rounding again) differs: it must differ somewhere, so
    that matching the one-rounding reference means something."""
    import winograd_ref
    cases = []
    # t, prec, C, K, R, stride, H, W, pad, scale (exact in decimal)
    for t, prec, C, K, R, st, H, W, pad, scale in [
            ("i8", "int8", 20, 24, 3, 1, 7, 9, (1, 1, 1, 1), 0.01171875),
            ("i16", "int16", 6, 17, 5, 2, 11, 10, (2, 2, 2, 2), 0.0001220703125)]:
        # Inputs and weights (taps about +-100) whose sums stay mostly within
        # the output's range, so that rounding differences are not saturated.
        lo, hi = (-128, 128) if t == "i8" else (-8, 9)
        x = rng.integers(lo, hi, size=(1, C, H, W)).astype(ref.NP_TYPE[t])
        w = (rng.standard_normal((K, C, R, R)) * 40 * scale).astype(np.float32)
        b = rand(rng, (K,), t, 1.0)
        stride = f", stride = {st}" if st > 1 else ""
        enc = f"#dla.weight<winograd, {prec}{stride}, scale = {scale!r}>"
        e = winograd_ref.winograd_conv(x, w, enc, b, st, pad, 0, t, elt=t)
        name = f"wino_conv_{t}_s{st}_{C}x{K}_f32_scaled"
        c = Case(name, [(x, t), (b, t)], None, e.shape, t, e,
                 {0: f"#dla.feature<{prec}>", 1: f"#dla.bias<per_channel, {prec}>",
                  "result": f"#dla.feature<{prec}>"})
        c.direct = None
        bits = 8 if t == "i8" else 16
        q = np.clip(np.where(w >= 0, np.floor(w.astype(np.float64) / scale + 0.5),
                             -np.floor(-w.astype(np.float64) / scale + 0.5)),
                    -(1 << (bits - 1)), (1 << (bits - 1)) - 1).astype(ref.NP_TYPE[t])
        c.two_roundings = winograd_ref.winograd_conv(
            x, q, f"#dla.weight<winograd, {prec}{stride}>", b, st, pad, 0, t)
        cases.append(winograd_case(c, w, "f32", enc, st, pad, 0, t))
    return cases


def winograd_case(c, w, wt_elt, enc, st, pad, pv, t=None):
    """`c` with its Winograd weights relayouted from a constant of `wt_elt`
    and its dla.conv winograd (weights of element type `t`, default
    `wt_elt`)."""
    t = t or wt_elt
    wt = tensor_type(w.shape, t, enc)
    c.prelude = (f"%wc = arith.constant {literal(w)} : {tensor_type(w.shape, wt_elt)}\n"
                 f"  %w = dla.relayout %wc : {tensor_type(w.shape, wt_elt)} -> {wt}")
    pv_text = f" pad_value {pv}" if pv else ""
    c.op = ("dla.conv winograd %a0, %w, %a1 stride [{s}, {s}] pad [{p}]{pv} : "
            "{0}, {1}, {2} -> {3}".format(c.arg_type(0), wt, c.arg_type(1), c.result_type(),
                                          s=st, p=", ".join(map(str, pad)), pv=pv_text))
    return c


# Winograd fp16 against the direct convolution: |a - b| <= TOL * sum|x*w| +
# one fp16 ulp of b (the taps and the transformed inputs each round to
# fp16's 11 bits; the transforms add at most 4 terms per step).
WINOGRAD_F16_TOL = 2.0 ** -8


def module(cases):
    lines = []
    for c in cases:
        params = ", ".join(f"%a{i}: {c.arg_type(i)}" for i in range(len(c.args)))
        out = c.result_type()
        lines += [f"func.func @{c.name}({params}) -> {out} {{"]
        lines += [f"  {c.prelude}"] if c.prelude else []
        lines += [f"  %r = {c.op}", f"  return %r : {out}", "}"]
    lines += ["func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}",
              "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
              "func.func @main() {"]
    for n, c in enumerate(cases):
        names = []
        for i, (a, t) in enumerate(c.args):
            plain = tensor_type(a.shape, t)
            lines.append(f"  %c{n}_{i} = arith.constant {literal(a)} : {plain}")
            names.append(f"%c{n}_{i}")
            if i in c.encodings:
                lines.append(f"  %e{n}_{i} = dla.relayout %c{n}_{i} : {plain} -> {c.arg_type(i)}")
                names[-1] = f"%e{n}_{i}"
        types = ", ".join(c.arg_type(i) for i in range(len(c.args)))
        out = tensor_type(c.out_shape, c.out_t)
        lines.append(f"  %q{n} = call @{c.name}({', '.join(names)}) : ({types}) -> "
                     f"{c.result_type()}")
        if "result" in c.encodings:
            lines.append(f"  %r{n} = dla.relayout %q{n} : {c.result_type()} -> {out}")
        else:
            lines.append(f"  %r{n} = tensor.cast %q{n} : {out} to {out}")
        wide_t = "f32" if c.out_t == "f16" else "i32"
        wide = f"tensor<{'x'.join(map(str, c.out_shape))}x{wide_t}>"
        cast = "extf" if c.out_t == "f16" else "extsi"
        src = f"%r{n}"
        if getattr(c, "bits", False):
            # fp16 results as their bit patterns (zeros' signs, NaNs); int16
            # ones as their unsigned bits too.
            wide_t, cast = "i32", "extui"
            wide = f"tensor<{'x'.join(map(str, c.out_shape))}xi32>"
            if c.out_t == "f16":
                lines.append(f"  %h{n} = arith.bitcast %r{n} : {out} to "
                             f"{out.replace('xf16>', 'xi16>')}")
                src, out = f"%h{n}", out.replace("xf16>", "xi16>")
        memref = wide.replace("tensor", "memref")
        lines += [f"  %w{n} = arith.{cast} {src} : {out} to {wide}",
                  f"  %m{n} = bufferization.to_buffer %w{n} : {wide} to {memref}",
                  f"  %u{n} = memref.cast %m{n} : {memref} to memref<*x{wide_t}>",
                  f"  call @printMemref{wide_t.upper()}(%u{n}) : (memref<*x{wide_t}>) -> ()"]
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


#: LLVM's tools (mlir-opt, mlir-runner) and, beside them in ../lib, the runner utilities.
DEFAULT_LLVM_BIN = "/usr/lib/llvm-22/bin"

LOWERING = ["--convert-elementwise-to-linalg",
            "--one-shot-bufferize=bufferize-function-boundaries",
            "--convert-linalg-to-loops", "--expand-strided-metadata", "--lower-affine",
            "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-to-llvm",
            "--reconcile-unrealized-casts"]

NUMBER = re.compile(r"-?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)")


def runtime_library(dla_opt):
    """libDLARuntime.so beside dla-opt's bin directory: the functions the
    lowered code of fp16 layers calls (NvdlaRuntime.h)."""
    path = shutil.which(dla_opt) or dla_opt
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(path))), "lib",
                        "libDLARuntime.so")


def run_main(llvm_text, bin_dir, runtime=None):
    """Runs @main of an LLVM-dialect module with mlir-runner (LLVM's
    `bin_dir`), the runner utilities and `runtime` (libDLARuntime.so); its
    stdout, or exit on failure."""
    libs = ",".join([os.path.join(os.path.dirname(bin_dir), "lib", lib)
                     for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
                    + ([runtime] if runtime else []))
    ran = subprocess.run([os.path.join(bin_dir, "mlir-runner"), "-e", "main",
                          "-entry-point-result=void", f"-shared-libs={libs}"],
                         input=llvm_text, capture_output=True, text=True)
    if ran.returncode:
        sys.exit("mlir-runner failed:\n" + ran.stderr)
    return ran.stdout


def run(cases, dla_opt, bin_dir, path="reference", fp16="hardware"):
    """`fp16`: --dla-lower-to-reference's fp16-arithmetic (hardware or
    ideal), also given to the pipelines."""
    text = module(cases)
    ref_pass = f"--dla-lower-to-reference=fp16-arithmetic={fp16}"
    llvm_pass = f"--dla-lower-to-llvm=fp16-arithmetic={fp16}"
    if path == "memref":
        # The encoded layer ops in dla.on_storage on their storage (one per
        # case), run by --dla-lower-buffers-to-reference inside the pipeline.
        memref = subprocess.run([dla_opt, "--dla-pack-weights", "--convert-elementwise-to-linalg",
                                 "--dla-encodings-to-memref", "-"],
                                input=text, capture_output=True, text=True)
        found = len(re.findall(r"dla\.on_storage ", memref.stdout))
        if memref.returncode or found != len(cases):
            sys.exit(f"--dla-lower-to-memref made {found} dla.on_storage ops for {len(cases)} "
                     "cases:\n" + memref.stderr)
        llvm = subprocess.run([dla_opt, llvm_pass, "-"],
                              input=text, capture_output=True, text=True)
        if llvm.returncode:
            sys.exit("dla-opt failed:\n" + llvm.stderr)
    elif path == "compiled":
        # --dla-compile assigns the layers' layouts, then the whole lowering
        # runs each encoded layer in dla.on_storage (storage layers).
        compiled = subprocess.run([dla_opt, "--dla-compile", "-"], input=text,
                                  capture_output=True, text=True)
        if compiled.returncode:
            sys.exit("dla-opt --dla-compile failed:\n" + compiled.stderr)
        memref = subprocess.run([dla_opt, "--dla-pack-weights", "--convert-elementwise-to-linalg",
                                 "--dla-encodings-to-memref", "-"], input=compiled.stdout,
                                capture_output=True, text=True)
        found = len(re.findall(r"dla\.on_storage ", memref.stdout))
        if memref.returncode or found < len(cases):
            sys.exit(f"--dla-lower-to-memref made {found} dla.on_storage ops for {len(cases)} "
                     "cases:\n" + memref.stderr)
        llvm = subprocess.run([dla_opt, llvm_pass, "-"], input=compiled.stdout,
                              capture_output=True, text=True)
        if llvm.returncode:
            sys.exit("dla-opt failed:\n" + llvm.stderr)
    elif path == "llvm" or any(c.encodings for c in cases):
        # Encodings need dla-opt's own lowering (relayouts, storage buffers).
        llvm = subprocess.run([dla_opt, ref_pass,
                               "--convert-elementwise-to-linalg", llvm_pass, "-"],
                              input=text, capture_output=True, text=True)
        if llvm.returncode:
            sys.exit("dla-opt failed:\n" + llvm.stderr)
    else:
        lowered = subprocess.run([dla_opt, ref_pass, "-"], input=text,
                                 capture_output=True, text=True)
        if lowered.returncode:
            sys.exit("dla-opt failed:\n" + lowered.stderr)
        llvm = subprocess.run([os.path.join(bin_dir, "mlir-opt")] + LOWERING,
                              input=lowered.stdout, capture_output=True, text=True)
        if llvm.returncode:
            sys.exit("mlir-opt failed:\n" + llvm.stderr)
    chunks = run_main(llvm.stdout, bin_dir, runtime_library(dla_opt)).split("Unranked Memref")[1:]
    if len(chunks) != len(cases):
        sys.exit(f"expected {len(cases)} printed results, got {len(chunks)}")
    return [np.array([float(v) for v in NUMBER.findall(ch.split("data =", 1)[1])])
            for ch in chunks]


def compare(case, got):
    exp = case.expected.astype(np.float64).ravel()
    if got.size != exp.size:
        return False, f"{got.size} values, expected {exp.size}"
    if getattr(case, "bits", False):
        # fp16 bit patterns, printed as integers.
        want = case.expected.view(np.uint16).astype(np.float64).ravel()
        bad = int(np.sum(got != want))
        return bad == 0, f"{bad} of {want.size} values differ"
    if case.name.startswith(("int_", "wino_", "ord_", "lut_")):
        # The integer units, Winograd and the float LUT: every value exact (an fp16 result
        # too, +-inf included: Int17ToFp16 is one rounding). fp16 values are
        # printed as f32 with 6 digits: back to fp16 first.
        if case.out_t == "f16":
            got = got.astype(np.float16).astype(np.float64)
        bad = int(np.sum(got != exp))
        return bad == 0, f"{bad} of {exp.size} values differ"
    if case.out_t == "f16":
        # One f16 ulp at the expected value (the spacing of f16 there).
        # At +-65504 numpy's spacing overflows to inf, which would accept
        # anything (an unclipped inf): one ulp there is 32.
        g = got.astype(np.float16).astype(np.float64)
        mag = np.abs(case.expected.ravel()).astype(np.float16)
        with np.errstate(over="ignore"):
            ulp = np.where(mag == np.float16(ref.F16_MAX), 32.0,
                           np.spacing(mag).astype(np.float64))
        err = np.abs(g - exp)
        ok = bool(np.all(err <= ulp))
        ulps = float(np.max(err / ulp)) if err.size else 0.0
        return ok, f"max |err| {err.max():.3g} ({ulps:.0f} ulp)"
    err = np.abs(got - exp)
    return bool(np.all(err == 0)), f"max |err| {err.max():.0f}"


def compare_direct(cases, results):
    """Winograd against the direct convolution; returns the failures."""
    bad = 0
    for c, got in zip(cases, results):
        two = getattr(c, "two_roundings", None)
        if two is not None:
            diff = int(np.sum(got != two.astype(np.float64).ravel()))
            bad += diff == 0
            print(f"{'ok' if diff else 'MISMATCH'} {c.name} quantized first (two roundings): "
                  f"{diff} of {got.size} differ")
        if c.direct is None:
            continue
        d = c.direct.astype(np.float64).ravel()
        if c.out_t == "f16":
            got = got.astype(np.float16).astype(np.float64)
        else:
            same = c.exact_direct == bool(np.array_equal(got, d))
            bad += not same
            diff = int(np.sum(got != d))
            print(f"{'ok' if same else 'MISMATCH'} {c.name} vs direct: {diff} of {d.size} differ")
            continue
        ulp = np.spacing(np.abs(c.direct.ravel())).astype(np.float64)
        err = np.abs(got - d)
        bound = WINOGRAD_F16_TOL * c.abs_sum.ravel() + ulp
        ok = bool(np.all(err <= bound))
        bad += not ok
        print(f"{'ok' if ok else 'MISMATCH'} {c.name} vs direct: max |err| / bound "
              f"{float(np.max(err / bound)):.2f}")
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kind", required=True,
                   choices=["conv", "conv-order", "sdp", "pool", "lrn", "encoded", "int-sdp",
                            "int-pool", "int-conv", "int-lrn", "int-lrn-wrap", "compressed",
                            "winograd", "emu", "fp16-lut", "fp16-conv", "fp16-pdp", "fp16-lrn",
                            "fp16-lrn-tables", "fp16-ew", "fp16-ew-lut"])
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--count", type=int, default=500,
                   help="random cases of the int-* kinds")
    p.add_argument("--batch", type=int, default=100, help="int-lrn: cases per module")
    p.add_argument("--verbose", action="store_true",
                   help="int-pool / int-conv: a line per case, not only the mismatches")
    p.add_argument("--opt", required=True, help="the dla-opt binary")
    p.add_argument("--bin", default=DEFAULT_LLVM_BIN)
    p.add_argument("--print-module", action="store_true")
    p.add_argument("--path", choices=["reference", "memref", "compiled", "llvm"],
                   default="reference",
                   help="llvm: --dla-lower-to-reference, then --dla-lower-to-llvm (the CPU "
                        "kernels dla-run-onnx runs) instead of upstream loops; "
                        "memref: encoded layer ops in dla.on_storage "
                        "(--dla-lower-to-memref, --dla-lower-buffers-to-reference) instead "
                        "of --dla-lower-to-reference; compiled: layouts assigned by "
                        "--dla-compile first, then the same")
    p.add_argument("--lut-on-fp16", action="store_true",
                   help="--kind fp16-ew-lut, the negative control: expect the LUT on the "
                        "stages' value rounded to fp16 (a table per fp16 input)")
    p.add_argument("--fp16-arithmetic", choices=["hardware", "ideal"], default="hardware",
                   help="what fp16 layers compute (--dla-lower-to-reference's option)")
    p.add_argument("--expect", choices=["hardware", "ideal"], default="hardware",
                   help="fp16-conv: expect fp_nvdla's bits, or the exact result rounded once "
                        "(the negative control)")
    a = p.parse_args()
    global FP16_ARITHMETIC
    FP16_ARITHMETIC = a.fp16_arithmetic
    rng = np.random.default_rng(a.seed)
    if a.kind in ("int-lrn", "int-lrn-wrap"):
        import int_cases_lrn
        cases = int_cases_lrn.int_lrn_cases(rng, a.count, wrap=a.kind == "int-lrn-wrap")
    elif a.kind == "int-sdp":
        import int_cases_sdp
        cases = int_cases_sdp.cases(rng, a.count, Case, tensor_type)
    elif a.kind == "fp16-lut":
        import fp16_cases_lut
        cases = fp16_cases_lut.layer_cases(rng, a.count, Case, tensor_type)
    elif a.kind == "fp16-conv":
        import fp16_cases_conv
        cases = fp16_cases_conv.layer_cases(rng, a.count, Case, tensor_type, a.expect)
    elif a.kind == "fp16-pdp":
        import fp16_cases_pdp
        cases = fp16_cases_pdp.layer_cases(rng, a.count, Case, tensor_type)
    elif a.kind in ("fp16-ew", "fp16-ew-lut"):
        import fp16_cases_sdp
        cases = fp16_cases_sdp.layer_cases(rng, a.count, Case, tensor_type,
                                           lut=a.kind == "fp16-ew-lut",
                                           lut_rounded=a.lut_on_fp16)
    elif a.kind in ("fp16-lrn", "fp16-lrn-tables"):
        import fp16_cases_lrn
        cases = fp16_cases_lrn.layer_cases(rng, a.count, Case, tensor_type,
                                           tables=a.kind == "fp16-lrn-tables")
    elif a.kind == "emu":
        import int_cases_emu
        cases = int_cases_emu.emu_cases(rng, a.count, Case, tensor_type)
    elif a.kind in ("int-pool", "int-conv"):
        import int_cases_conv
        import int_cases_pool
        cases = {"int-pool": int_cases_pool.int_pool_cases,
                 "int-conv": int_cases_conv.int_conv_cases}[a.kind](rng, a.count, Case,
                                                                    tensor_type)
    else:
        cases = {"conv": conv_cases, "conv-order": conv_order_cases, "sdp": sdp_cases, "pool": pool_cases,
                 "lrn": lrn_cases, "encoded": encoded_cases,
                 "compressed": compressed_cases, "winograd": winograd_cases}[a.kind](rng)
    quiet = a.kind in ("int-pool", "int-conv") and not a.verbose
    if a.print_module:
        print(module(cases))
        return 0
    batch = a.batch if a.kind.startswith("int-lrn") else len(cases)
    results = []
    for i in range(0, len(cases), batch):
        results += run(cases[i:i + batch], a.opt, a.bin, a.path, a.fp16_arithmetic)
    bad = 0
    differ = total = 0
    for case, got in zip(cases, results):
        ok, msg = compare(case, got)
        bad += not ok
        if getattr(case, "bits", False):
            differ += int(np.sum(got != case.expected.view(np.uint16).astype(np.float64).ravel()))
            total += case.expected.size
        if case.out_t == "f16":
            # NVDLA clips beyond the largest normal: how many values the
            # reference clipped, so a test pins that clipping is exercised.
            clipped = int(np.sum(np.abs(case.expected.astype(np.float64)) == ref.F16_MAX))
            if clipped:
                msg += f", {clipped} clipped to +-65504"
        if ok and quiet:
            continue
        print(f"{'ok' if ok else 'MISMATCH'} {case.name}: {case.expected.size} values, {msg}")
    if a.kind == "compressed":
        # Compressed weights compute exactly what their uncompressed twin does.
        got = {c.name: r for c, r in zip(cases, results)}
        for name in got:
            if not name.endswith("_plain"):
                same = np.array_equal(got[name], got[name + "_plain"])
                bad += not same
                print(f"{'same' if same else 'DIFFERENT'} {name} as uncompressed")
    if a.kind == "winograd":
        bad += compare_direct(cases, results)
    if total:
        print(f"{differ} of {total} values differ")
    print(f"{len(cases) - bad} of {len(cases)} cases match")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
