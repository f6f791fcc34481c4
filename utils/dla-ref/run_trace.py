#!/usr/bin/env python3
"""Random hardware layers run on NVIDIA's C model from the register programs
dla-translate --dla-to-nvdla-trace writes, each compared bit for bit with
the project's CPU execution of the same layer (issue 28 parts 2-3).

    PYTHONPATH=BUILD_DIR/python_packages \
    run_trace.py --kind conv|conv-bands|conv-deep|conv-wide|conv-big|sdp|sdp-mem-bands|sdp-mem|sdp-lut|pool|pool-wide|lrn|lrn-wrap|chain|upsample|upsample-wide|upsample-border|
                 interleave|interleave-wide|interleaved|as-weights|groups|views|cvt16-sdp|cvt16-conv|cvt16-image|image16|fp16out-conv|fp16out-sdp|fp16out-image --count N --seed S
                 --build BUILD_DIR [--config nv_small|nv_large|nv_full]
                 [--precision int8|int16|fp16] [--fp16-arithmetic hardware|ideal]
                 [--negative] [--keep DIR] [--llvm-bin DIR]
    run_trace.py --from-execution int-conv|int-sdp|int-pool|int-lrn|int-lrn-wrap
                 --count N --seed S --build BUILD_DIR [--config ...]

--from-execution takes the cases `run_layers.py --kind KIND --count N
--seed S` draws (the integer execution tests, trace_exec_cases.py): those
that fit the configuration run as below, the others are counted by the
reason they do not fit (the data types the emitter does not program, the
verifier's message for what the configuration lacks, the emitter's located
refusals), printed before the summary.

For each case: a compiled function of layers on int8 feature data of the
configuration (nv_full's run on the v1 model; --precision int16: int16
feature data and weights, nv_full only, INT16_KINDS)
(the registers drawn as the integer units' random cases draw them,
int_cases_*.py, restricted to what the emitter programs); the CPU execution
of the same function in a @main that relayouts random logical arguments to
their storage, calls it and prints the storage bytes of the arguments and
the result (dla.to_storage), lowered by dla-opt --dla-lower-to-llvm with
storage layers (each layer in dla.on_storage) and run by mlir-runner; the
program written with those argument bytes and the CRC of those result bytes;
NVIDIA's model run on it by the trace player. A case passes when the player
passes: every result byte the checks cover equals the CPU execution's.
Prints one line per failing case and `N of M programs match the CPU
execution on nv_small`; exits 1 on any mismatch.

--kind cvt16-sdp (--config nv_full, int8): offline SDPs between int16 and
int8 feature data, either way (trace_cvt16_cases.py); --from-execution
int-sdp on nv_full takes the execution tests' ones too. --kind cvt16-conv:
int8 direct convolutions whose SDP on the fly writes int16; --kind
cvt16-image: image convolutions of 8-bit pixels into int8 weights whose SDP
on the fly writes int16. --kind image16 (--config nv_full --precision
int16): image convolutions of 8- and 16-bit pixels into int16 image
weights writing int16 (trace_image16_cases.py). --kind fp16out-conv,
fp16out-sdp, fp16out-image (--config nv_full --precision int16): int16
pipelines whose SDP writes fp16 (trace_fp16out_cases.py).

The SDP's pass-through kinds (upsample, upsample-wide, upsample-border,
interleave, interleave-wide) draw any precision: --precision int16, or
--precision fp16 (nv_full; those kinds only), the data with NaNs of both
signs and random payloads, infinities, subnormals and -0 among it (the
line `inputs hold ...` counts them). Their CPU execution is first compared
with numpy's resize / pixel shuffle, in fp16 each value then through the
fp16 SDP as fp_nvdla says (infinities to +-65504); `--fp16-arithmetic
ideal` runs the CPU execution with the ideal arithmetic (a plain copy,
compared with numpy's plain copy): the negative control on the model.
`--negative`: every SDP pass's destination line stride one atom more in
the written programs (no program may match).
"""

import argparse
import collections
import functools
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
import int_cases_lrn as lrn_cases  # noqa: E402
import run_layers  # noqa: E402
import weight_ref  # noqa: E402
import int_cases_pool as pool_cases  # noqa: E402
import int_cases_sdp as sdp_cases  # noqa: E402
import trace_exec_cases  # noqa: E402
import trace_cvt16_cases  # noqa: E402
import trace_image16_cases  # noqa: E402
import trace_fp16out_cases  # noqa: E402

CONFIG = "nv_small"
PRECISION = "int8"  # the layers' feature data and weights (int16: nv_full)
# The CPU execution's fp16 arithmetic (--fp16-arithmetic: hardware, NVDLA's,
# the default on nv_full; ideal, the negative control of the fp16 kinds).
FP16_ARITHMETIC = "hardware"
BITS = 8
FELT = "i8"  # their element type
ENC = f"#dla.feature<int8, config = {CONFIG}>"
WENC = f"#dla.weight<direct, int8, config = {CONFIG}>"
ELT = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.float16): "f16"}
# Each element type's numpy type.
DTYPE = {"i8": np.int8, "i16": np.int16, "f16": np.float16}


FEATURE = object()  # ttype's default: the configuration's feature encoding


def ttype(shape, enc=FEATURE, elt=None):
    enc = ENC if enc is FEATURE else enc
    elt = elt or FELT
    return f"tensor<{'x'.join(map(str, shape))}x{elt}{', ' + enc if enc else ''}>"


class Case:
    def __init__(self, name, shape, body, out_shape, weight=None, weights=(), operands=()):
        # body: the layer ops' text with %x as the input, %w the weights
        # (shape `weight`, if any) or %w0, %w1, ... (shapes `weights`), %y
        # the result; operands: SDP memory operands (name, data, encoding).
        self.name, self.shape, self.body, self.out_shape = name, shape, body, out_shape
        self.args = [("x", shape, ENC)] + ([("w", weight, WENC)] if weight else []) + \
            [(f"w{i}", sh, WENC) for i, sh in enumerate(weights)] + \
            [(n, d.shape, e) for n, d, e in operands]
        # Each argument's element type and fixed data (None: drawn later).
        self.elts = [FELT] * (len(self.args) - len(operands)) + \
            [ELT[d.dtype] for _, d, _ in operands]
        self.data = [None] * (len(self.args) - len(operands)) + [d for _, d, _ in operands]
        # The result's element type and encoding (None: the configuration's
        # feature data; a conversion between int8 and int16 states its own).
        self.out_elt = self.out_enc = None

    @classmethod
    def of(cls, name, args, body, out_shape):
        """A case with stated arguments: (name, data, encoding, element
        type) each."""
        c = cls(name, args[0][1].shape, body, out_shape)
        c.args = [(n, d.shape, e) for n, d, e, _ in args]
        c.elts = [t for *_, t in args]
        c.data = [d for _, d, _, _ in args]
        return c

    def out_type(self):
        return ttype(self.out_shape, self.out_enc or FEATURE, self.out_elt)

    def arg_types(self):
        return [ttype(sh, e, t) for (_, sh, e), t in zip(self.args, self.elts)]

    def layer_func(self, name="layer"):
        params = ", ".join(f"%{a[0]}: {t}" for a, t in zip(self.args, self.arg_types()))
        return (f"func.func @{name}({params}) -> {self.out_type()} {{\n"
                f"  {self.body}\n  return %y : {self.out_type()}\n}}\n")


# Blobs the cases' text names (dense_resource<KEY>): KEY -> bytes.
RESOURCES = {}


def resource(key, data):
    """`dense_resource<KEY>` of the i8 bytes `data` (module() writes them)."""
    RESOURCES[key] = bytes(data)
    return f"dense_resource<{key}> : tensor<{len(data)}xi8>"


def module(funcs):
    text = "".join(funcs)
    used = [k for k in RESOURCES if f"dense_resource<{k}>" in text]
    blobs = ""
    if used:  # the blob's first 4 bytes: its alignment (little-endian)
        blobs = ("{-#\n  dialect_resources: {\n    builtin: {\n" +
                 ",\n".join(f'      {k}: "0x10000000{RESOURCES[k].hex().upper()}"' for k in used) +
                 "\n    }\n  }\n#-}\n")
    return (f"module attributes {{dla.target = #dla.target<nvdla, {CONFIG}>}} {{\n" + text +
            "}\n" + blobs)


def _spread(rng, int8=False):
    """Whether this case draws its registers to keep values near the
    precision's size (_spread_stage, _spread_cvt) rather than as
    int_cases_sdp draws them, whose operands and shifts leave most int16
    results, and most int8 convolutions' results, saturated or zero. int16:
    70% of the cases; int8: the kinds that ask (`int8`), the others' draws
    unchanged."""
    if PRECISION == "int8":
        return int8
    return rng.random() < 0.7


def _near_one(rng, max_shift):
    """A multiplier m and shift s with |m| / 2^s in [1/2, 2] (|m| < 2^15)."""
    s = int(rng.integers(0, max_shift + 1))
    m = int(rng.integers(max(1, (1 << s) >> 1), min(32767, 2 << s) + 1))
    return (m if rng.random() < 0.7 else -m), s


def _spread_stage(rng):
    """An X stage (#dla.sdp_x) for values of the precision's size: an ALU sum of a small
    operand, a multiplier m / 2^s near +-1 (PReLU sometimes), ReLU
    sometimes; the ALU or the multiplier at least."""
    f = []
    alu, mul = rng.random() < 0.7, rng.random() < 0.7
    if alu or not mul:
        top = 2000 >> (16 - BITS)
        f.append(f"alu = sum, alu_operand = {int(rng.integers(-top, top + 1))}")
    if mul:
        m, sh = _near_one(rng, 12)
        f.append(f"mul_operand = {m}" + (f", mul_shift = {sh}" if sh else ""))
        if rng.random() < 0.3:
            f.append("prelu = true")
    if rng.random() < 0.3:
        f.append("relu = true")
    return "<" + ", ".join(f) + ">"


def _spread_cvt(rng):
    """An output converter scaling by about +-1 (the precision's values out
    of values of that size)."""
    scale, shift = _near_one(rng, 13)
    top = 500 >> (16 - BITS)
    return f"<offset = {int(rng.integers(-top, top + 1))}, scale = {scale}, shift = {shift}>"


def _x_stage_text(rng, tame, spread):
    return _spread_stage(rng) if spread else sdp_cases._x_stage(rng, None, tame)[0]


def _cvt_text(rng, tame, spread):
    return _spread_cvt(rng) if spread else sdp_cases._cvt(rng, tame)[0]


def sdp_case(rng, n, shape=None, spread_int8=False):
    """An offline SDP with register operands: stages and converter drawn as
    int_cases_sdp draws them (int16: most of them _spread; int8 when
    `spread_int8`)."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    if shape:
        _, c, h, w = shape
    tame = rng.random() < 0.5
    spread = _spread(rng, spread_int8)
    # nv_small has the X stages only (no EW: its capability table).
    stages = [s for s in ("bs", "bn") if rng.random() < 0.6] or ["bs"]
    text = []
    for s in stages:
        text.append(f"{s} {_x_stage_text(rng, tame, spread)}")
    cvt = ""
    if rng.random() < 0.8:
        cvt = " out_cvt " + _cvt_text(rng, tame, spread)
    shape = (1, c, h, w)
    body = (f"%y = dla.sdp offline %x {' '.join(text)}{cvt} : {ttype(shape)} -> {ttype(shape)}")
    return Case(f"sdp_{n}", shape, body, shape)


def clamp_case(rng, n, shape=None):
    """A dla.clamp (the register plan programs it as BS MAX and BN MIN with
    register operands, ClampOp::getXStages): integer bounds around the
    int8 range, now and then a large one as operand << shift, with or
    without an output converter."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    if shape:
        _, c, h, w = shape

    def bound():
        if rng.random() < 0.15:
            return int(rng.integers(-30000, 30000)) << int(rng.integers(1, 6))
        return int(rng.integers(-160, 160))
    lo, hi = sorted((bound(), bound()))
    cvt = ""
    if rng.random() < 0.5:
        cvt = " out_cvt " + sdp_cases._cvt(rng, rng.random() < 0.5)[0]
    shape = (1, c, h, w)
    body = (f"%y = dla.clamp %x min {lo}.0 max {hi}.0{cvt} : {ttype(shape)} -> {ttype(shape)}")
    return Case(f"clamp_{n}", shape, body, shape)


def sdp_lut_case(rng, n, shape=None):
    """An SDP whose Y (EW) stage reads the lookup table (nv_large): the Y
    stage with register operands and the table drawn as int_cases_sdp
    draws them (int_cases_sdp._sdp_lut: hits, interpolation, under- and
    overflow), X stages before it; offline, or on the fly after a direct
    convolution."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    if shape:
        _, c, h, w = shape
    shape = (1, c, h, w)
    tame = rng.random() < 0.5
    text = [f"{st} {sdp_cases._x_stage(rng, None, tame)[0]}" for st in ("bs", "bn")
            if rng.random() < 0.4]
    while True:  # eql writes no output (the emitter refuses it)
        y, _, lut = sdp_cases._y_stage(rng, None, tame)
        if lut and "alu = eql" not in y:
            break
    text.append(f"ew {y}")
    cvt = " out_cvt " + sdp_cases._cvt(rng, tame)[0] if rng.random() < 0.8 else ""
    if rng.random() < 0.5:
        body = (f"%y = dla.sdp offline %x {' '.join(text)}{cvt} : {ttype(shape)} -> "
                f"{ttype(shape)}")
        return Case(f"sdp_lut_{n}", shape, body, shape)
    cin = int(rng.integers(1, 17))
    ishape, wshape, conv_t = (1, cin, h, w), (c, cin, 1, 1), ttype(shape, None)
    body = (f"%c = dla.conv direct %x, %w clip_truncate {int(rng.integers(0, 17))} : "
            f"{ttype(ishape)}, {ttype(wshape, WENC)} -> {conv_t}\n"
            f"  %y = dla.sdp on_the_fly %c {' '.join(text)}{cvt} : {conv_t} -> {ttype(shape)}")
    return Case(f"sdp_lut_{n}", ishape, body, shape, weight=wshape)


def _operand_encoding(rng, name, t, per_element, two_byte_only=False):
    """An SDP memory operand's encoding: the precision of its data, or int8
    in two-byte components; per-element data in the SDP's atoms (its
    precision); element-wise data also as feature data. two_byte_only:
    int8 in two-byte components always (an int16 SDP reads no one-byte
    data, DescribeSdp.cpp)."""
    prec = "int8" if t == "i8" else "int16"
    if name == "eltwise" and rng.random() < 0.3:
        return ENC  # a layer's result read as it is (a residual add)
    two_byte = t == "i8" and (two_byte_only or rng.random() < 0.4)
    return trace_exec_cases.operand_encoding(name, prec, per_element, CONFIG, two_byte)


def sdp_mem_case(rng, n, shape=None):
    """An SDP reading memory operands in its X stages (BS through BRDMA, BN
    through NRDMA): per-channel bias, PReLU and batch-norm (int8, int8 in
    two bytes, int16), per-element bias and element-wise data (int8, one or
    two bytes); offline, or on the fly after a direct convolution. Stages
    drawn as int_cases_sdp draws them."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    if shape:
        _, c, h, w = shape
    shape = (1, c, h, w)
    decl, text, cvt, operands = sdp_mem_stages(rng, shape)
    if rng.random() < 0.5:
        body = (f"%y = dla.sdp offline %x {decl} {' '.join(text)}{cvt} : {ttype(shape)} -> "
                f"{ttype(shape)}")
        return Case(f"sdp_mem_{n}", shape, body, shape, operands=operands)
    k = int(rng.choice([1, 3]))
    cin = int(rng.integers(1, 17))
    ishape, wshape, conv_t = (1, cin, h, w), (c, cin, k, k), ttype(shape, None)
    p = (k - 1) // 2
    body = (f"%c = dla.conv direct %x, %w pad [{p}, {p}, {p}, {p}] clip_truncate "
            f"{int(rng.integers(0, 17))} : {ttype(ishape)}, {ttype(wshape, WENC)} -> {conv_t}\n"
            f"  %y = dla.sdp on_the_fly %c {decl} {' '.join(text)}{cvt} : {conv_t} -> "
            f"{ttype(shape)}")
    return Case(f"sdp_mem_{n}", ishape, body, shape, weight=wshape, operands=operands)


def sdp_mem_stages(rng, shape):
    """sdp_mem_case's SDP over `shape`: (operand declarations, stage
    texts, out_cvt text, operands (name, data, encoding))."""
    tame = rng.random() < 0.5
    stages = [st for st in ("bs", "bn") if rng.random() < 0.7] or ["bs"]
    names = list(sdp_cases.SDP_OPERANDS)
    rng.shuffle(names)
    operands, text = [], []
    for st in stages:
        mem = None
        if rng.random() < 0.85:
            name = names.pop()
            per_element = name == "eltwise" or (name == "bias" and rng.random() < 0.4)
            # Per element: the SDP's own precision (its atoms, DescribeSdp.cpp).
            t = FELT if per_element else str(rng.choice(["i8", "i16"]))
            data = sdp_cases._operand_data(rng, name, shape, t, per_element)
            mem = sdp_cases.Operand(name, data, t)
            two_byte_only = PRECISION == "int16"
            operands.append((name, data, _operand_encoding(rng, name, t, per_element,
                                                           two_byte_only)))
        text.append(f"{st} {sdp_cases._x_stage(rng, mem, tame)[0]}")
    decl = " ".join(f"{nm} %{nm} : {ttype(d.shape, e, ELT[d.dtype])}" for nm, d, e in
                    sorted(operands, key=lambda o: sdp_cases.SDP_OPERANDS.index(o[0])))
    cvt = " out_cvt " + sdp_cases._cvt(rng, tame)[0] if rng.random() < 0.8 else ""
    return decl, text, cvt, operands


def pool_case(rng, n, shape=None):
    """An offline int8 PDP layer: kernels 1..8, strides, padding below the
    kernel, reciprocals and padding values drawn as int_cases_pool draws
    them."""
    kind = "average" if rng.random() < 0.6 else str(rng.choice(["max", "min"]))
    # A chained layer keeps its input: kernels no larger than it.
    kmax = (min(8, shape[2]), min(8, shape[3])) if shape else (8, 8)
    kh, kw, sh, sw, pad = pool_cases.window(rng, kmax, zero_pad=0.3)
    h = int(rng.integers(max(1, kh - pad[0] - pad[1]), 17))
    w = int(rng.integers(max(1, kw - pad[2] - pad[3]), 17))
    c = int(rng.integers(1, 41))
    if shape:
        _, c, h, w = shape
    attrs = ""
    if kind == "average":
        attrs = pool_cases.average_attrs(rng, kw, kh, BITS)[0]
    oh = (h + pad[0] + pad[1] - kh) // sh + 1
    ow = (w + pad[2] + pad[3] - kw) // sw + 1
    shape, out = (1, c, h, w), (1, c, oh, ow)
    body = (f"%y = dla.pool {kind} %x kernel [{kh}, {kw}] stride [{sh}, {sw}] "
            f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]{attrs} : {ttype(shape)} -> {ttype(out)}")
    return Case(f"pool_{n}", shape, body, out)


def pool_wide_case(rng, n):
    """An offline int8 PDP layer wider than one pass of PDP's line buffer
    (nv_small: 64 to 512 output columns a pass by kernel height and
    stride): 150 to 1500 input columns, strides 1..3, so that NVIDIA's
    split by width programs 2 to 20 passes; kernels, padding, reciprocals
    and padding values as pool_case draws them."""
    kind = "average" if rng.random() < 0.6 else str(rng.choice(["max", "min"]))
    kh, kw, _, _, pad = pool_cases.window(rng, (8, 8), zero_pad=0.3)
    sh, sw = (int(v) for v in rng.choice([1, 1, 2, 3], size=2))
    h = int(rng.integers(max(1, kh - pad[0] - pad[1]), kh + 3))
    w = int(rng.integers(150, 1501))
    c = int(rng.integers(1, 13))
    attrs = pool_cases.average_attrs(rng, kw, kh, 8)[0] if kind == "average" else ""
    oh = (h + pad[0] + pad[1] - kh) // sh + 1
    ow = (w + pad[2] + pad[3] - kw) // sw + 1
    shape, out = (1, c, h, w), (1, c, oh, ow)
    body = (f"%y = dla.pool {kind} %x kernel [{kh}, {kw}] stride [{sh}, {sw}] "
            f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]{attrs} : {ttype(shape)} -> {ttype(out)}")
    return Case(f"pool_wide_{n}", shape, body, out)


def _spread_conv_data(rng, shape, wshape, batch=1):
    """A convolution's data and weights drawn so that its results spread
    over the precision (_spread): (data, weights of `batch` inputs, the
    CACC's clip, the data's bits bx)."""
    # Data of 2^bx, weights of 2^bw: the sums of c r s products about
    # 2^(bx + bw) sqrt(c r s), clipped to about the precision's top
    # (the SDP's stages and converter near +-1 keep them there).
    # int8: a uniform draw's deviation is a third of its top (the
    # sums' one bit less) and the input offset within a quarter of it.
    low, top = (6, 15) if BITS == 16 else (3, 6)
    bx, bw = int(rng.integers(low, BITS)), int(rng.integers(low, BITS))
    clip = bx + bw + int(np.log2(int(np.prod(wshape[1:]))) / 2) - top + int(rng.integers(-2, 3))
    clip = min(16, max(0, clip))
    dtype = np.int16 if BITS == 16 else np.int8
    data = [rng.integers(-(1 << bx), 1 << bx, size=(batch,) + tuple(shape[1:])).astype(dtype),
            rng.integers(-(1 << bw), 1 << bw, size=wshape).astype(dtype)]
    return data, clip, bx


def conv_case(rng, n, shape=None, spread_int8=False, batch=1):
    """A direct int8 convolution with its on-the-fly SDP (register
    operands, int_cases_sdp's draws) or alone (the SDP bypassed): kernels
    1..5, strides 1..3, padding below the kernel, dilation, the CACC's clip,
    the CDMA's input converter and padding value. `spread_int8`: int8 cases
    drawn as _spread draws them (values that are not mostly saturated);
    `batch`: the inputs its drawn data holds (the text's shapes stay 1)."""
    r, s = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    dy, dx = (int(rng.choice([1, 1, 1, 2])) for _ in range(2))
    if shape:  # a chained layer: its kernel within its input
        r, s = int(rng.integers(1, min(5, shape[2]) + 1)), int(rng.integers(1, min(5, shape[3]) + 1))
        dy = dx = 1
    er, es = (r - 1) * dy + 1, (s - 1) * dx + 1
    pad = [int(rng.integers(0, min(r, 4))), int(rng.integers(0, min(r, 4))),
           int(rng.integers(0, min(s, 4))), int(rng.integers(0, min(s, 4)))]
    if rng.random() < 0.3:
        pad = [0, 0, 0, 0]
    h = int(rng.integers(max(1, er - pad[0] - pad[1]), 11))
    w = int(rng.integers(max(1, es - pad[2] - pad[3]), 11))
    sy, sx = (int(rng.choice([1, 1, 2, 3])) for _ in range(2))
    c, k = int(rng.integers(1, 25)), int(rng.integers(1, 21))
    if shape:
        _, c, h, w = shape
    oh = (h + pad[0] + pad[1] - er) // sy + 1
    ow = (w + pad[2] + pad[3] - es) // sx + 1
    shape, wshape, out = (1, c, h, w), (k, c, r, s), (1, k, oh, ow)
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]"
    if (dy, dx) != (1, 1):
        attrs += f" dilation [{dy}, {dx}]"
    spread = _spread(rng, spread_int8)
    data = None
    if spread:
        data, clip, bx = _spread_conv_data(rng, shape, wshape, batch)
        off = 500 if BITS == 16 else 1 << (bx - 2)
        if rng.random() < 0.4:
            scale, sh = _near_one(rng, 8)
            attrs += (f" input_cvt <offset = {int(rng.integers(-off, off + 1))}, scale = {scale}, "
                      f"shift = {sh}>")
        attrs += f" clip_truncate {clip}"
        if any(pad) and rng.random() < 0.4:
            attrs += f" pad_value {int(rng.integers(-(1 << bx), 1 << bx))}"
    else:
        if rng.random() < 0.4:
            off, scale = int(rng.integers(-20, 21)), int(rng.integers(-300, 301))
            attrs += (f" input_cvt <offset = {off}, scale = {scale}, "
                      f"shift = {int(rng.integers(0, 9))}>")
        attrs += f" clip_truncate {int(rng.integers(0, 17))}"
        if any(pad) and rng.random() < 0.4:
            attrs += f" pad_value {int(rng.integers(-128, 128))}"
    case = Case(f"conv_{n}", shape, conv_body(rng, attrs, shape, wshape, out, spread), out,
                weight=wshape)
    if data:
        case.data[:2] = data
    return case


def image_window(rng, r, s, wider=9):
    """An image convolution's geometry around an R x S kernel: padding
    below the kernel (at most 3 columns), an image of up to 8 rows and S +
    wider - 1 columns that the padded kernel fits, strides 1 or 2 (x at most S: the
    image weights' pre-extension steps by whole pixels) and the output's
    size: (pad, h, w, sy, sx, oh, ow)."""
    pad = [int(rng.integers(0, r)), int(rng.integers(0, r)), int(rng.integers(0, min(s, 4))),
           int(rng.integers(0, min(s, 4)))]
    h = int(rng.integers(max(1, r - pad[0] - pad[1]), 9))
    w = int(rng.integers(max(1, s - pad[2] - pad[3]), s + wider))
    sy, sx = (int(rng.choice([1, 1, 2])) for _ in range(2))
    sx = min(sx, s)  # the image weights' pre-extension steps by whole pixels
    oh = (h + pad[0] + pad[1] - r) // sy + 1
    ow = (w + pad[2] + pad[3] - s) // sx + 1
    return pad, h, w, sy, sx, oh, ow


def conv_compressed_case(rng, n):
    """conv_case with sparse weights (some kernels all zero), compressed by
    the reference packer (weight_ref.py, from the format document) and held
    by the program as a dla.weight_constant: its WGS, WMB and data surfaces
    (configurations with weight compression: nv_full). int16: int16
    weights (draw_data's)."""
    c = conv_case(rng, n, spread_int8=True)
    wshape = c.args[1][1]
    if c.data[1] is not None:  # the spread draw's
        w = c.data[1].copy()
    elif PRECISION == "int8":
        w = rng.integers(-128, 128, size=wshape).astype(np.int8)
    else:
        w = draw_data(rng, wshape, FELT)
    w[rng.random(wshape) < rng.choice([0.3, 0.6, 0.9])] = 0
    w[rng.random(wshape[0]) < 0.15] = 0
    w.flat[int(rng.integers(0, w.size))] = 1  # the CDMA reads at least one entry
    wenc = f"#dla.weight<direct, {PRECISION}, compressed, config = {CONFIG}>"
    parts = weight_ref.pack(w, wenc, FELT)
    attr = ", ".join(f"{k} = {resource(f'conv_{n}_{k}', parts[k])}" for k in ("wgs", "wmb", "data"))
    body = (f"%w = dla.weight_constant {attr} : {ttype(wshape, wenc)}\n  " +
            c.body.replace(ttype(wshape, WENC), ttype(wshape, wenc)))
    case = Case(c.name, c.shape, body, c.out_shape)
    case.data[0] = c.data[0]
    return case


def conv_batch_case(rng, n):
    """conv_case on a batch of 2 to 6 inputs (NVDLA's batch mode: CDMA's
    batch stride, CSC's and CACC's batch count, the SDP on the fly writing
    each result at its batch stride)."""
    b = int(rng.integers(2, 7))
    c = conv_case(rng, n, spread_int8=True, batch=b)

    def batched(m):
        t = m.group(0)
        return t if "#dla.weight" in t else t.replace("tensor<1x", f"tensor<{b}x", 1)
    body = re.sub(r"tensor<[^>]*>", batched, c.body)
    shape, out = (b,) + c.shape[1:], (b,) + c.out_shape[1:]
    case = Case(c.name, shape, body, out, weight=c.args[1][1])
    case.data[:2] = c.data[:2]
    return case


def batched_case(base, rng, n):
    """`base`'s case on a batch of 2 to 4 inputs: every feature tensor of
    its text (arguments, results, a convolution's accumulator) holds N = b;
    weights and NVDLA operand data (#dla.bias, ...) stay one. Outside
    NVDLA's batch mode (a direct convolution's and its SDP's on the fly)
    each layer is one hardware operation per input at the batch stride.
    Stated data of a batched argument: input 0 as drawn, each further one
    a permutation of its values (the same spread in another order)."""
    c = base(rng, n)
    b = int(rng.integers(2, 5))

    def batches(shape, text):  # NCHW data or NCHW2 operand data, not weights
        return len(shape) >= 4 and shape[0] == 1 and "#dla.weight" not in (text or "")

    def batched(m):
        t = m.group(0)
        shape = [int(d) for d in re.match(r"tensor<((?:\d+x)*)", t).group(1).split("x")[:-1]]
        return t.replace("tensor<1x", f"tensor<{b}x", 1) if batches(shape, t) else t
    c.body = re.sub(r"tensor<[^>]*>", batched, c.body)
    for i, (name, sh, enc) in enumerate(c.args):
        if batches(sh, enc):
            c.args[i] = (name, (b,) + tuple(sh[1:]), enc)
            d = c.data[i]
            if d is not None:
                c.data[i] = np.concatenate(
                    [d] + [rng.permutation(d.ravel()).reshape(d.shape) for _ in range(b - 1)])
    c.shape = c.args[0][1]
    c.out_shape = (b,) + tuple(c.out_shape[1:])
    return c


# The kinds run_trace draws on a batch (batch-KIND): every layer but a
# direct convolution in batch mode as one operation per input.
BATCHED_KINDS = ("sdp", "sdp-mem", "sdp-lut", "pool", "lrn", "chain", "upsample", "interleave",
                 "concat", "views", "conv-bands", "cvt16-conv")


def conv_body(rng, attrs, shape, wshape, out, spread=False):
    """A direct convolution (registers `attrs`) to `out`, alone or with an
    on-the-fly SDP of random register stages and output converter
    (`spread`: _spread_stage's and _spread_cvt's)."""
    conv_t = ttype(out, None)
    if rng.random() < 0.2:
        return (f"%y = dla.conv direct %x, %w{attrs} : {ttype(shape)}, {ttype(wshape, WENC)} -> "
                f"{ttype(out)}")
    tame = rng.random() < 0.5
    text = [f"{st} {_x_stage_text(rng, tame, spread)}"
            for st in ("bs", "bn") if rng.random() < 0.6] or \
           [f"bs {_x_stage_text(rng, tame, spread)}"]
    cvt = " out_cvt " + _cvt_text(rng, tame, spread) if rng.random() < 0.8 else ""
    return (f"%c = dla.conv direct %x, %w{attrs} : {ttype(shape)}, {ttype(wshape, WENC)} -> "
            f"{conv_t}\n  %y = dla.sdp on_the_fly %c {' '.join(text)}{cvt} : {conv_t} -> "
            f"{ttype(out)}")


def _in_bands(rng, c, name):
    """`c` (a convolution and its SDP) run as several hardware layers by
    bands of output rows (rows_per_part 1 .. rows - 1, as
    --dla-split-convolutions records it when the input does not fit the
    convolution buffer beside the weights): each band reads its rows'
    windows and writes its rows at offsets into the same buffers, its SDP's
    per-element operands at the same rows."""
    rows = c.out_shape[2]
    # No band of one row of a one-column result (a 1x1 cube NVDLA writes
    # only packed: a located error, test/Target/NvdlaTrace/invalid.mlir).
    parts = [p for p in range(1, rows)
             if c.out_shape[3] > 1 or (p > 1 and rows % p != 1)]
    if parts and "dla.conv" in c.body:
        part = int(rng.choice(parts))
        conv, _, rest = c.body.partition(" : ")
        c.body = f"{conv} rows_per_part {part} : {rest}"
    c.name = name
    return c


def conv_bands_case(rng, n):
    """A convolution as conv_case draws it, in bands (_in_bands)."""
    return _in_bands(rng, conv_case(rng, n, spread_int8=True), f"conv_bands_{n}")


def _tame_conv_case(rng, name, shape, wshape, out, pad):
    """A stride-1 direct convolution padded by `pad` on every side, its
    clip and an on-the-fly SDP's tame BS stage and converter drawn in that
    order (the cases the buffer plan cuts by itself). int8: its data, clip,
    stage and converter drawn so that the results spread (_spread_conv_data,
    _spread_stage, _spread_cvt; int16's draws as they were)."""
    conv_t = ttype(out, None)
    data = None
    if PRECISION == "int8":
        data, clip, _ = _spread_conv_data(rng, shape, wshape)
        stage, cvt = _spread_stage(rng), _spread_cvt(rng)
    else:
        clip = int(rng.integers(6, 12))
        stage, cvt = sdp_cases._x_stage(rng, None, True)[0], sdp_cases._cvt(rng, True)[0]
    body = (f"%c = dla.conv direct %x, %w stride [1, 1] pad [{pad}, {pad}, {pad}, {pad}] "
            f"clip_truncate {clip} : {ttype(shape)}, {ttype(wshape, WENC)} -> "
            f"{conv_t}\n  %y = dla.sdp on_the_fly %c bs {stage} out_cvt {cvt} : {conv_t} -> "
            f"{ttype(out)}")
    case = Case(name, shape, body, out, weight=wshape)
    if data:
        case.data[:2] = data
    return case


def conv_deep_case(rng, n):
    """A direct convolution whose one row of input does not fit nv_small's
    convolution buffer beside one kernel group, as the segmentation
    network's 1024-channel 3x3 layers on 20 columns (issue 45): 480 to 512
    channels (one group of 8 kernels 9 banks, 23 banks beside it) of 72 to
    96 columns (three lines 24 to 36 banks) and 3 to 6 rows, so that the
    buffer plan itself cuts it by columns and rows (NvdlaConvBuffer.h's
    partial width)."""
    c, k = int(rng.choice([480, 496, 512])), int(rng.integers(1, 17))
    h, w = int(rng.integers(3, 7)), int(rng.integers(72, 97))
    shape, wshape, out = (1, c, h, w), (k, c, 3, 3), (1, k, h, w)
    return _tame_conv_case(rng, f"conv_deep_{n}", shape, wshape, out, 1)


def conv_wide_case(rng, n):
    """A direct convolution whose weights all fit nv_small's convolution
    buffer (128 channels, 5x5, 1 to 6 kernels: 2 to 5 banks, less than a
    kernel group of 8) while one row's 5-row window does not fit beside
    them (190 to 230 columns of 16 entries: at most 179 fit), so that the
    buffer plan cuts it by columns and rows and every part after the first
    reuses the weights the first loaded (DescribeConv.cpp's reuseWeights)."""
    c, k = 128, int(rng.integers(1, 7))
    h, w = int(rng.integers(6, 11)), int(rng.integers(190, 231))
    shape, wshape, out = (1, c, h, w), (k, c, 5, 5), (1, k, h, w)
    return _tame_conv_case(rng, f"conv_wide_{n}", shape, wshape, out, 2)


def sdp_mem_bands_case(rng, n):
    """An SDP with memory operands as sdp_mem_case draws it, on the fly
    after a convolution in bands (_in_bands), or offline."""
    return _in_bands(rng, sdp_mem_case(rng, n), f"sdp_mem_bands_{n}")


def conv_big_case(rng, n):
    """A direct convolution whose input does not fit nv_small's convolution
    buffer (32 banks of 512 8-byte entries) beside its weights: 8 to 32
    channels of 100 to 200 rows of 48 to 96 pixels, so that the buffer
    plan itself cuts it into bands (NvdlaConvBuffer.h's partial height)."""
    c, k = int(rng.integers(8, 33)), int(rng.integers(1, 17))
    h, w = int(rng.integers(100, 201)), int(rng.integers(48, 97))
    r = s = int(rng.choice([1, 3, 5]))
    sy = int(rng.choice([1, 2]))
    pad = r // 2
    oh, ow = (h + 2 * pad - r) // sy + 1, (w + 2 * pad - s) + 1
    shape, wshape, out = (1, c, h, w), (k, c, r, s), (1, k, oh, ow)
    conv_t = ttype(out, None)
    body = (f"%c = dla.conv direct %x, %w stride [{sy}, 1] pad [{pad}, {pad}, {pad}, {pad}] "
            f"clip_truncate {int(rng.integers(4, 10))} : {ttype(shape)}, {ttype(wshape, WENC)} -> "
            f"{conv_t}\n  %y = dla.sdp on_the_fly %c bs {sdp_cases._x_stage(rng, None, True)[0]} "
            f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> {ttype(out)}")
    return Case(f"conv_big_{n}", shape, body, out, weight=wshape)


def lrn_case(rng, n, shape=None, wrap=False):
    """An int8 CDP layer: sizes 3..9; a third with tables derived from
    alpha, beta, k, the rest with stated tables and converters drawn as
    int_cases_lrn draws them (both LE functions, every slope and
    priority). wrap: stated tables in the LE exponent underflow whose int64
    product wraps (int_cases_lrn.wrap_underflow)."""
    size = int(rng.choice(lrn_cases.SIZES))
    shape = shape or (1, int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    t = ttype(shape)
    if wrap:
        cin, cout, lut = lrn_cases._stated(rng, BITS)
        lrn_cases.wrap_underflow(rng, lut)
        attrs = (f"in_cvt {lrn_cases._cvt_text(cin)} out_cvt {lrn_cases._cvt_text(cout)} "
                 f"lut {lrn_cases.lut_text(lut)}")
    elif rng.random() < 0.33:
        alpha = float(np.float32(10.0 ** rng.uniform(-6, 1)))
        beta = float(np.float32(rng.uniform(0.3, 1.0)))
        k = float(np.float32(rng.uniform(0.5, 3.0)))
        attrs = f"{{alpha = {alpha!r} : f32, beta = {beta!r} : f32, k = {k!r} : f32}}"
    else:
        cin, cout, lut = lrn_cases._stated(rng, BITS)
        attrs = (f"in_cvt {lrn_cases._cvt_text(cin)} out_cvt {lrn_cases._cvt_text(cout)} "
                 f"lut {lrn_cases.lut_text(lut)}")
    return Case(f"lrn_{n}", shape, f"%y = dla.lrn %x size {size} {attrs} : {t} -> {t}", shape)


def upsample_case(rng, n, shape=None):
    """Nearest upsampling by factors 1..4 (dla.upsample: SDP pass-through
    passes, one per channel group and output phase): 1 to 40 channels (one
    to five nv_small atoms), 1 to 12 rows and columns; a tenth 40 to 120
    columns, a twentieth one pixel (a 1x1 cube, written line-packed)."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 13)), int(rng.integers(1, 13))
    if rng.random() < 0.1:
        w = int(rng.integers(40, 121))
    elif rng.random() < 0.05:
        h = w = 1
    if shape:
        _, c, h, w = shape
    fy, fx = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    shape, out = (1, c, h, w), (1, c, h * fy, w * fx)
    body = f"%y = dla.upsample %x factors [{fy}, {fx}] : {ttype(shape)} -> {ttype(out)}"
    case = Case(f"upsample_{n}", shape, body, out)
    case.factors = (fy, fx)
    return case


def upsample_wide_case(rng, n):
    """An upsampling wider than the SDP's 13-bit cube height (8192 input
    pixels a pass: the passes go by bands of columns), 8190 to 8200
    columns, 8193 among them (a last band of one column would be a 1x1
    cube of several surfaces: it is read with its rows as lines)."""
    c, h = int(rng.integers(1, 17)), int(rng.integers(1, 3))
    w = 8193 if n == 0 else int(rng.integers(8190, 8201))
    fy, fx = int(rng.integers(1, 3)), int(rng.integers(1, 3))
    case = upsample_case(rng, n, (1, c, h, w))
    shape, out = (1, c, h, w), (1, c, h * fy, w * fx)
    case.body = f"%y = dla.upsample %x factors [{fy}, {fx}] : {ttype(shape)} -> {ttype(out)}"
    case.out_shape, case.factors, case.name = out, (fy, fx), f"upsample_wide_{n}"
    return case


def upsample_border_case(rng, n):
    """An upsampling with a replicated border (a bilinear resize's first
    layer): factors 1..5, borders 0..3 per axis (one axis 0 a fifth of the
    time), the shapes of upsample_case (one column, one row, one pixel
    among them: the border passes of one line are read as one surface)."""
    _, c, h, w = upsample_case(rng, n).shape
    if rng.random() < 0.15:
        h = 1
    elif rng.random() < 0.15:
        w = 1
    fy, fx = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    by, bx = int(rng.integers(0, 4)), int(rng.integers(0, 4))
    if rng.random() < 0.2:
        by, bx = (0, max(bx, 1)) if rng.random() < 0.5 else (max(by, 1), 0)
    if by == bx == 0:
        by = 1
    shape, out = (1, c, h, w), (1, c, h * fy + 2 * by, w * fx + 2 * bx)
    case = Case(f"upsample_border_{n}", shape,
                f"%y = dla.upsample %x factors [{fy}, {fx}] border [{by}, {bx}] : "
                f"{ttype(shape)} -> {ttype(out)}", out)
    case.factors, case.border = (fy, fx), (by, bx)
    return case


def onnx_resize_nearest(x, scales):
    """ONNX Resize (opset 19), mode nearest, coordinate_transformation_mode
    asymmetric, nearest_mode floor, for the NCHW tensor `x` and integer
    `scales` of H and W: output index o reads input floor(o / scale),
    clamped to the input (the spec's x_original = x_resized / scale)."""
    out = np.empty(x.shape[:2] + (x.shape[2] * scales[0], x.shape[3] * scales[1]), x.dtype)
    for oy in range(out.shape[2]):
        iy = min(int(np.floor(oy / scales[0])), x.shape[2] - 1)
        for ox in range(out.shape[3]):
            ix = min(int(np.floor(ox / scales[1])), x.shape[3] - 1)
            out[:, :, oy, ox] = x[:, :, iy, ix]
    return out


def same_bits(a, b):
    """Whether `a` and `b` hold the same shape and bit patterns (fp16 NaNs
    compared by their bits)."""
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def through_sdp(values):
    """The values an SDP pass-through pass writes for `values`: the same, but
    fp16 ones taken to fp32 and back by NVIDIA's v1 SDP (fp_nvdla's
    Fp16ToFp32, then the output converter's Fp32ToFp16: every pattern kept
    but the infinities, saturated to +-65504; fp_nvdla is checked against
    the model's compiled functions, test_fp_nvdla.py)."""
    if values.dtype != np.float16 or FP16_ARITHMETIC == "ideal":
        return values
    import fp_nvdla
    bits = fp_nvdla.sdp_cvt_fp16(fp_nvdla.fp16_to_fp32(values.view(np.uint16)))
    return bits.astype(np.uint16).view(np.float16).reshape(values.shape)


# The numpy expectation's name in the reports.
def reference_name(op):
    return op + (" through the fp16 SDP (fp_nvdla)"
                 if FELT == "f16" and FP16_ARITHMETIC == "hardware" else "")


def check_upsample(cases, inputs, results):
    """The CPU execution of each upsampling against onnx_resize_nearest:
    the number that agree bit for bit (their result storage unpacked by the
    format library)."""
    import dla
    same = 0
    for c, xs, (_, ys) in zip(cases, inputs, results):
        got = dla.unpack(ttype(c.out_shape), ys, DTYPE[FELT]).reshape(c.out_shape)
        want = onnx_resize_nearest(xs[0], c.factors)
        # A border reads the clamped source index: numpy's edge padding.
        by, bx = getattr(c, "border", (0, 0))
        want = np.pad(want, ((0, 0), (0, 0), (by, by), (bx, bx)), mode="edge")
        if same_bits(got, through_sdp(want)):
            same += 1
        else:
            print(f"{c.name}: CPU execution differs from ONNX Resize (nearest)\n  {c.body}")
    return same


def interleave_case(rng, n, shape=None):
    """fy x fx phase maps interleaved into one (dla.interleave, a pixel
    shuffle: SDP pass-through passes, one per channel group and phase, each
    reading its phase): factors 1..4 each way, the shapes of upsample_case,
    a third of the outputs cropped at the end by up to factor - 1 rows or
    columns."""
    _, c, h, w = shape or upsample_case(rng, n).shape
    fy, fx = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    oh, ow = h * fy, w * fx
    if rng.random() < 0.33:
        oh -= int(rng.integers(0, fy))
        ow -= int(rng.integers(0, fx))
    phase, out = (1, c, h, w), (1, c, oh, ow)
    args = [(f"x{i}", draw_data(rng, phase, FELT), ENC, FELT) for i in range(fy * fx)]
    body = (f"%y = dla.interleave {', '.join('%' + a[0] for a in args)} factors [{fy}, {fx}] : "
            f"{', '.join([ttype(phase)] * len(args))} -> {ttype(out)}")
    case = Case.of(f"interleave_{n}", args, body, out)
    case.factors = (fy, fx)
    return case


def interleave_wide_case(rng, n):
    """An interleave whose phases are wider than the SDP's 13-bit cube
    height (8190 to 8200 columns, 8193 among them: the passes go by bands
    of columns)."""
    c, h = int(rng.integers(1, 17)), int(rng.integers(1, 3))
    w = 8193 if n == 0 else int(rng.integers(8190, 8201))
    case = interleave_case(rng, n, (1, c, h, w))
    case.name = f"interleave_wide_{n}"
    return case


def pixel_shuffle(phases, factors, out_shape):
    """The pixel shuffle TOSA writes for a transposed convolution (and ONNX's
    DepthToSpace, mode CRD, on NCHW): phases stacked (fy, fx, N, C, H, W),
    transposed to (N, C, H, fy, W, fx), reshaped to (N, C, H fy, W fx),
    then cropped to `out_shape` at the end."""
    fy, fx = factors
    n, c, h, w = phases[0].shape
    stacked = np.stack(phases).reshape(fy, fx, n, c, h, w)
    full = stacked.transpose(2, 3, 4, 0, 5, 1).reshape(n, c, h * fy, w * fx)
    return full[:, :, :out_shape[2], :out_shape[3]]


def check_interleave(cases, inputs, results):
    """The CPU execution of each interleave against pixel_shuffle: the
    number that agree (their result storage unpacked by the format
    library)."""
    import dla
    same = 0
    for c, xs, (_, ys) in zip(cases, inputs, results):
        got = dla.unpack(ttype(c.out_shape), ys, DTYPE[FELT]).reshape(c.out_shape)
        if same_bits(got, through_sdp(pixel_shuffle(xs, c.factors, c.out_shape))):
            same += 1
        else:
            print(f"{c.name}: CPU execution differs from the pixel shuffle\n  {c.body}")
    return same


def chain_case(rng, n, max_layers=5):
    """2..max_layers layers of random kinds, each reading the previous
    one's result: the address plan's reuse, the interrupt waits between
    layers, layers reading what the model wrote."""
    shape = (1, int(rng.integers(1, 25)), int(rng.integers(3, 11)), int(rng.integers(3, 11)))
    lines, weights, cur = [], [], shape
    count = int(rng.integers(2, max_layers + 1))
    for i in range(count):
        kind = str(rng.choice(["conv", "pool", "sdp", "lrn"]))
        # (conv_case unspread: the chain tests' draws as they were)
        c = (conv_case if kind == "conv" else KINDS[kind])(rng, 0, cur)
        body = c.body.replace("%c ", f"%c{i} ").replace("%c =", f"%c{i} =")
        if kind == "conv":
            body = body.replace("direct %x, %w ", f"direct %x, %w{len(weights)} ")
            weights.append(c.args[1][1])
        body = body.replace("%x", f"%t{i}").replace("%y =", f"%t{i + 1} =")
        lines.append(body)
        cur = c.out_shape
    text = re.sub(r"%t0\b", "%x", "\n  ".join(lines))
    text = re.sub(rf"%t{count}\b", "%y", text)
    return Case(f"chain_{n}", shape, text, cur, weights=weights)


def _strided(shape):
    """The configuration's feature encoding of `shape` with its packed
    strides written out: what a channel view of a tensor of `shape` has."""
    atom = 8 if CONFIG == "nv_small" else 32
    _, c, h, w = shape
    line = w * atom
    surf = h * line
    batch = -(-c // atom) * surf
    return (f"#dla.feature<int8, line_stride = {line}, surface_stride = {surf}, "
            f"batch_stride = {batch}, config = {CONFIG}>")


def _groups(rng, src, shape, cin, kout, kernel, prefix, result, weights):
    """The lines of one grouped convolution over `src` (of `shape`): group
    g reads channels cin[g] of it (dla.channel_slice), a direct convolution
    (kernel: r, s, pad, stride) with its on-the-fly SDP writes its kout[g]
    result channels into the dla.channel_concat %{result} (the parts
    %{prefix}x<g>, c<g>, y<g>). Appends the weights' shapes (%w<i>, i
    counting on from len(weights)); returns (lines, result shape)."""
    (r, s, pad, (sy, sx)), (_, _, h, w) = kernel, shape
    oh = (h + pad[0] + pad[1] - r) // sy + 1
    ow = (w + pad[2] + pad[3] - s) // sx + 1
    out = (1, sum(kout), oh, ow)
    vin, vout = _strided(shape), _strided(out)
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]"
    lines, parts, c0 = [], [], 0
    for g, (c, k) in enumerate(zip(cin, kout)):
        part_in, part_out = (1, c, h, w), (1, k, oh, ow)
        conv_t = ttype(part_out, None)
        text = f"bs {sdp_cases._x_stage(rng, None, True)[0]}"
        cvt = " out_cvt " + sdp_cases._cvt(rng, True)[0]
        x, c_, y = f"%{prefix}x{g}", f"%{prefix}c{g}", f"%{prefix}y{g}"
        lines.append(f"{x} = dla.channel_slice {src} [{c0}] : {ttype(shape)} -> "
                     f"{ttype(part_in, vin)}")
        lines.append(f"{c_} = dla.conv direct {x}, %w{len(weights)}{attrs} clip_truncate "
                     f"{int(rng.integers(0, 9))} : {ttype(part_in, vin)}, "
                     f"{ttype((k, c, r, s), WENC)} -> {conv_t}")
        lines.append(f"{y} = dla.sdp on_the_fly {c_} {text}{cvt} : {conv_t} -> "
                     f"{ttype(part_out, vout)}")
        weights.append((k, c, r, s))
        parts.append((y, ttype(part_out, vout)))
        c0 += c
    lines.append(f"%{result} = dla.channel_concat {', '.join(p for p, _ in parts)} : "
                 f"{', '.join(t for _, t in parts)} -> {ttype(out)}")
    return lines, out


def groups_case(rng, n):
    """A grouped convolution as the depthwise split runs it (issue 45 item
    4): 2..4 groups of whole channel atoms (the last may be partial), each
    a dla.channel_slice of the input, a direct convolution with its
    on-the-fly SDP, written into a dla.channel_concat of the results, all
    in the input's and the result's own surfaces."""
    atom = 8 if CONFIG == "nv_small" else 32
    groups = int(rng.integers(2, 5))
    cin = [atom * int(rng.integers(1, 3)) for _ in range(groups - 1)] + [int(rng.integers(1, atom + 1))]
    kout = [atom * int(rng.integers(1, 3)) for _ in range(groups - 1)] + [int(rng.integers(1, atom + 1))]
    r, s = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    pad = [int(rng.integers(0, r)), int(rng.integers(0, r)), int(rng.integers(0, s)),
           int(rng.integers(0, s))]
    h = int(rng.integers(max(1, r - pad[0] - pad[1]), 9))
    w = int(rng.integers(max(1, s - pad[2] - pad[3]), 9))
    stride = tuple(int(rng.choice([1, 1, 2])) for _ in range(2))
    shape, weights = (1, sum(cin), h, w), []
    lines, out = _groups(rng, "%x", shape, cin, kout, (r, s, pad, stride), "", "y",
                         weights)
    return Case(f"groups_{n}", shape, "\n  ".join(lines), out, weights=weights)


def _group_kernel(rng, groups, h, w):
    """Each group's output channels (whole atoms but the last) and a
    kernel (r, s, pad, stride) that fits an h x w input."""
    atom = 8 if CONFIG == "nv_small" else 32
    kout = [atom * int(rng.integers(1, 3)) for _ in range(groups - 1)] + \
        [int(rng.integers(1, atom + 1))]
    r, s = int(rng.integers(1, min(3, h) + 1)), int(rng.integers(1, min(3, w) + 1))
    pad = [int(rng.integers(0, r)), int(rng.integers(0, r)), int(rng.integers(0, s)),
           int(rng.integers(0, s))]
    return kout, (r, s, pad, tuple(int(rng.choice([1, 1, 2])) for _ in range(2)))


def views_case(rng, n):
    """Two grouped convolutions in a row, as a network of depthwise blocks
    holds them (issue 44 / 45): the first's groups slice the input, its
    concatenation is read by the second's slices (views of a view's
    parent in the middle of the program; cut at other channel atoms than
    the first's parts, so a group reads what several layers wrote) or by
    an offline SDP over all of it first, and the second's concatenation
    is the result."""
    atom = 8 if CONFIG == "nv_small" else 32
    cin = [atom * int(rng.integers(1, 3)) for _ in range(int(rng.integers(1, 4)))] + \
        [int(rng.integers(1, atom + 1))]
    shape = (1, sum(cin), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    weights = []
    first, mid = _groups(rng, "%x", shape, cin, *_group_kernel(rng, len(cin), *shape[2:]), "m",
                         "m", weights)
    src = "%m"
    if rng.random() < 0.5:
        sdp = sdp_case(rng, 0, mid).body
        first.append(sdp.replace("%x", "%m").replace("%y =", "%s ="))
        src = "%s"
    atoms = -(-mid[1] // atom)
    cuts = sorted(rng.choice(np.arange(1, atoms), size=int(rng.integers(1, min(3, atoms - 1) + 1)),
                             replace=False)) if atoms > 1 else []
    bounds = [0] + [int(c) * atom for c in cuts] + [mid[1]]
    parts = [b - a for a, b in zip(bounds, bounds[1:])]
    second, out = _groups(rng, src, mid, parts, *_group_kernel(rng, len(parts), *mid[2:]), "",
                          "y", weights)
    return Case(f"views_{n}", shape, "\n  ".join(first + second), out, weights=weights)


def _conv_sdp(rng, lines, weights, name, src, src_t, cin, k, hw, out_enc):
    """A 1x1 or 3x3 convolution of `src` (same size out) %c<name> and its
    on-the-fly SDP %<name> writing k channels in `out_enc`."""
    r = int(rng.choice([1, 3]))
    p = r // 2
    conv_t = ttype((1, k) + hw, None)
    lines.append(f"%c{name} = dla.conv direct {src}, %w{len(weights)} pad [{p}, {p}, {p}, {p}] "
                 f"clip_truncate {int(rng.integers(0, 9))} : {src_t}, "
                 f"{ttype((k, cin, r, r), WENC)} -> {conv_t}")
    lines.append(f"%{name} = dla.sdp on_the_fly %c{name} bs "
                 f"{sdp_cases._x_stage(rng, None, True)[0]} out_cvt "
                 f"{sdp_cases._cvt(rng, True)[0]} : {conv_t} -> {ttype((1, k) + hw, out_enc)}")
    weights.append((k, cin, r, r))


def _joined(rng, shape, kout, padded, weights):
    """Convolutions of %x (1x1 .. 3x3, same size out, each with its
    on-the-fly SDP) writing kout[g] channels each into a dla.channel_concat
    %j: one after another, or padded (each from a whole atom). Returns
    (lines, joined shape, each part's first channel)."""
    atom = 8 if CONFIG == "nv_small" else 32
    _, c, h, w = shape
    firsts, at = [], 0
    for g, k in enumerate(kout):
        firsts.append(at)
        at += -(-k // atom) * atom if padded and g + 1 < len(kout) else k
    joined = (1, at, h, w)
    vout = _strided(joined)
    lines, parts = [], []
    for g, k in enumerate(kout):
        _conv_sdp(rng, lines, weights, f"p{g}", "%x", ttype(shape), c, k, (h, w), vout)
        parts.append((f"%p{g}", ttype((1, k, h, w), vout)))
    at_ = f" at [{', '.join(map(str, firsts))}]" if padded else ""
    lines.append(f"%j = dla.channel_concat {', '.join(p for p, _ in parts)}{at_} : "
                 f"{', '.join(t for _, t in parts)} -> {ttype(joined)}")
    return lines, joined, firsts


def concat_case(rng, n):
    """A join along channels as --dla-convert-tosa runs a network's
    tosa.concat: 2..4 convolutions (whole channel atoms but the last)
    write into the dla.channel_concat in place, and a convolution reads
    it whole."""
    atom = 8 if CONFIG == "nv_small" else 32
    parts = int(rng.integers(2, 5))
    kout = [atom * int(rng.integers(1, 3)) for _ in range(parts - 1)] + \
        [int(rng.integers(1, atom + 1))]
    shape = (1, int(rng.integers(1, 17)), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    weights = []
    lines, joined, _ = _joined(rng, shape, kout, False, weights)
    k = int(rng.integers(1, 17))
    conv_t = ttype((1, k) + joined[2:], None)
    lines.append(f"%r = dla.conv direct %j, %w{len(weights)} : {ttype(joined)}, "
                 f"{ttype((k, joined[1], 1, 1), WENC)} -> {conv_t}")
    lines.append(f"%y = dla.sdp on_the_fly %r bs {sdp_cases._x_stage(rng, None, True)[0]} "
                 f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> "
                 f"{ttype((1, k) + joined[2:])}")
    weights.append((k, joined[1], 1, 1))
    return Case(f"concat_{n}", shape, "\n  ".join(lines), (1, k) + joined[2:], weights=weights)


def nested_concat_case(rng, n):
    """Joins of joins, as layout assignment leaves a network's (a depthwise
    layer's channel slices joined, that join joined beside a skip
    connection, ChannelViews.cpp): convolutions %p0, %p1 of %x write into
    join %i, which is itself a part of join %j beside %p2, which is a part
    of the outermost %k beside %z, a convolution reading %p2 where it lies
    inside %k (a part with a second reader). Every part and inner join is
    a view of %k (its strides); a convolution reads %k whole. Whole atoms
    but the last part (%z)."""
    atom = 8 if CONFIG == "nv_small" else 32
    _, c, h, w = shape = (1, int(rng.integers(1, 17)), int(rng.integers(1, 9)),
                          int(rng.integers(1, 9)))
    kp = [atom * int(rng.integers(1, 3)) for _ in range(3)]
    kz = int(rng.integers(1, atom + 1))
    outer = (1, sum(kp) + kz, h, w)
    view = _strided(outer)
    weights, lines = [], []

    def conv(name, src, src_t, cin, k, out_enc):
        _conv_sdp(rng, lines, weights, name, src, src_t, cin, k, (h, w), out_enc)

    for g in range(3):
        conv(f"p{g}", "%x", ttype(shape), c, kp[g], view)
    vt = lambda ch: ttype((1, ch, h, w), view)
    lines.append(f"%i = dla.channel_concat %p0, %p1 : {vt(kp[0])}, {vt(kp[1])} -> "
                 f"{vt(kp[0] + kp[1])}")
    lines.append(f"%j = dla.channel_concat %i, %p2 : {vt(kp[0] + kp[1])}, {vt(kp[2])} -> "
                 f"{vt(sum(kp))}")
    conv("z", "%p2", vt(kp[2]), kp[2], kz, view)
    lines.append(f"%k = dla.channel_concat %j, %z : {vt(sum(kp))}, {vt(kz)} -> {ttype(outer)}")
    k = int(rng.integers(1, 17))
    conv_t = ttype((1, k, h, w), None)
    lines.append(f"%r = dla.conv direct %k, %w{len(weights)} : {ttype(outer)}, "
                 f"{ttype((k, outer[1], 1, 1), WENC)} -> {conv_t}")
    lines.append(f"%y = dla.sdp on_the_fly %r bs {sdp_cases._x_stage(rng, None, True)[0]} "
                 f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> {ttype((1, k, h, w))}")
    weights.append((k, outer[1], 1, 1))
    return Case(f"nested_{n}", shape, "\n  ".join(lines), (1, k, h, w), weights=weights)


def padded_case(rng, n):
    """A padded join (the segmentation network's side outputs): 2..4
    convolutions of 1 .. atom - 1 channels each (the last 1 .. atom) write
    from a whole atom each of the dla.channel_concat, and a 1x1 (or 3x3)
    convolution reads it with weights that are zero at the gap channels,
    as --dla-convert-tosa widens them: the result does not depend on what
    the writers put in their atoms' padding (int8: exactly)."""
    atom = 8 if CONFIG == "nv_small" else 32
    parts = int(rng.integers(2, 5))
    kout = [int(rng.integers(1, atom)) for _ in range(parts - 1)] + \
        [int(rng.integers(1, atom + 1))]
    shape = (1, int(rng.integers(1, 17)), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    weights = []
    lines, joined, firsts = _joined(rng, shape, kout, True, weights)
    k, r = int(rng.integers(1, 9)), int(rng.choice([1, 1, 3]))
    wide = np.zeros((k, joined[1], r, r), np.int8)
    for f, c in zip(firsts, kout):
        wide[:, f:f + c] = rng.integers(-128, 128, (k, c, r, r))
    conv_t = ttype((1, k) + joined[2:], None)
    p = r // 2
    lines.append(f"%r = dla.conv direct %j, %wide pad [{p}, {p}, {p}, {p}] : {ttype(joined)}, "
                 f"{ttype(wide.shape, WENC)} -> {conv_t}")
    lines.append(f"%y = dla.sdp on_the_fly %r bs {sdp_cases._x_stage(rng, None, True)[0]} "
                 f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> "
                 f"{ttype((1, k) + joined[2:])}")
    return Case(f"padded_{n}", shape, "\n  ".join(lines), (1, k) + joined[2:], weights=weights,
                operands=[("wide", wide, WENC)])


def interleaved_encoding(c):
    """nv_small's feature encoding of C channels (a multiple of 8) over
    H x 8 positions with the surfaces interleaved line by line: surface
    stride 64 (one line of 8 atoms), line stride C x 8 (every surface's
    line side by side). Byte for byte the direct weight stream of 8 H 1x1
    kernels of C channels (docs/NvdlaFormats.md)."""
    return (f"#dla.feature<int8, line_stride = {c * 8}, surface_stride = 64, "
            f"config = {CONFIG}>")


def interleaved_case(rng, n):
    """An SDP (offline, or on the fly after a direct convolution) writes a
    map of C = 16 .. 48 channels (whole atoms, two surfaces or more) over H x 8 positions with
    its surfaces interleaved line by line (interleaved_encoding); a second
    layer reads it with the same strides: an offline SDP, a direct
    convolution (1x1 or 3x3, its SDP on the fly) or a pool. nv_small
    only: there the map is a 1x1 convolution's weight stream."""
    c, h = 8 * int(rng.integers(2, 7)), int(rng.integers(2, 7))
    shape = (1, c, h, 8)
    inter = interleaved_encoding(c)
    mid_t = ttype(shape, inter)
    lines, weights = [], []
    if rng.random() < 0.5:
        lines.append(sdp_case(rng, 0, shape).body.replace("%y =", "%t =")
                     .replace(f"-> {ttype(shape)}", f"-> {mid_t}"))
        src_shape = shape
    else:
        cin = int(rng.integers(1, 17))
        src_shape = (1, cin, h, 8)
        conv_t = ttype(shape, None)
        lines.append(f"%a = dla.conv direct %x, %w0 clip_truncate {int(rng.integers(0, 9))} : "
                     f"{ttype(src_shape)}, {ttype((c, cin, 1, 1), WENC)} -> {conv_t}")
        lines.append(f"%t = dla.sdp on_the_fly %a bs {sdp_cases._x_stage(rng, None, True)[0]} "
                     f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> {mid_t}")
        weights.append((c, cin, 1, 1))
    reader = str(rng.choice(["sdp", "conv", "pool"]))
    if reader == "sdp":
        body = sdp_case(rng, 0, shape).body.replace("%x", "%t").replace(
            f": {ttype(shape)} ->", f": {mid_t} ->")
        out = shape
    elif reader == "conv":
        k, r = int(rng.integers(1, 21)), int(rng.choice([1, 3]))
        p = r // 2
        out = (1, k, h, 8)
        conv_t = ttype(out, None)
        body = (f"%b = dla.conv direct %t, %w{len(weights)} pad [{p}, {p}, {p}, {p}] "
                f"clip_truncate {int(rng.integers(0, 9))} : {mid_t}, "
                f"{ttype((k, c, r, r), WENC)} -> {conv_t}\n"
                f"  %y = dla.sdp on_the_fly %b bs {sdp_cases._x_stage(rng, None, True)[0]} "
                f"out_cvt {sdp_cases._cvt(rng, True)[0]} : {conv_t} -> {ttype(out)}")
        weights.append((k, c, r, r))
    else:
        out = (1, c, h - 1, 7)
        body = (f"%y = dla.pool max %t kernel [2, 2] stride [1, 1] : {mid_t} -> {ttype(out)}")
    lines.append(body)
    return Case(f"interleaved_{n}", src_shape, "\n  ".join(lines), out, weights=weights)


def as_weights_case(rng, n):
    """A convolution whose weights are another layer's result (issue 45,
    attention's q k^T): a layer (an offline SDP, or a 1x1 convolution
    with its SDP on the fly) writes k, C = 8 .. 32 channels (whole atoms)
    over H x 8 positions, in the weight stream's interleaved encoding;
    dla.as_weights reads it as 8 H 1x1 kernels of C channels, and a
    direct convolution of q (C channels, any size) by them, its SDP on the
    fly, writes 8 H channels. The convolution's weight address is k's.
    The SDPs add a constant (their BS ALU) and the clip truncates bring the
    sums near int8, so that most result bytes depend on every weight (a
    random SDP's saturation would hide a misplaced kernel)."""
    c, h = 8 * int(rng.integers(1, 5)), int(rng.integers(1, 7))
    kshape, wshape = (1, c, h, 8), (8 * h, c, 1, 1)
    qshape = (1, c, int(rng.integers(1, 9)), int(rng.integers(1, 9)))
    out = (1, 8 * h) + qshape[2:]
    kenc = interleaved_encoding(c) if c > 8 and h > 1 else ENC
    k_t = ttype(kshape, kenc)
    add = lambda: f"bs <alu = sum, alu_operand = {int(rng.integers(-16, 17))}>"
    args = [("q", rng.integers(-128, 128, qshape).astype(np.int8), ENC, "i8")]
    lines = []
    if rng.random() < 0.5:
        args.append(("kin", rng.integers(-128, 128, kshape).astype(np.int8), ENC, "i8"))
        lines.append(f"%k = dla.sdp offline %kin {add()} : {ttype(kshape)} -> {k_t}")
    else:
        cin = int(rng.integers(1, 17))
        args.append(("kin", rng.integers(-128, 128, (1, cin, h, 8)).astype(np.int8), ENC, "i8"))
        args.append(("wk", rng.integers(-128, 128, (c, cin, 1, 1)).astype(np.int8), WENC, "i8"))
        conv_t = ttype(kshape, None)
        lines.append(f"%a = dla.conv direct %kin, %wk clip_truncate {int(rng.integers(6, 10))} : "
                     f"{ttype((1, cin, h, 8))}, {ttype((c, cin, 1, 1), WENC)} -> {conv_t}")
        lines.append(f"%k = dla.sdp on_the_fly %a {add()} : {conv_t} -> {k_t}")
    lines.append(f"%w = dla.as_weights %k : {k_t} -> {ttype(wshape, WENC)}")
    conv_t = ttype(out, None)
    clip = int(np.ceil(np.log2(c))) + 6  # |sum| < c 2^14: about int8 after the clip
    lines.append(f"%s = dla.conv direct %q, %w clip_truncate {clip} : "
                 f"{ttype(qshape)}, {ttype(wshape, WENC)} -> {conv_t}")
    lines.append(f"%y = dla.sdp on_the_fly %s {add()} : {conv_t} -> {ttype(out)}")
    return Case.of(f"as_weights_{n}", args, "\n  ".join(lines), out)


KINDS = {"concat": concat_case, "concat-nested": nested_concat_case, "padded": padded_case, "sdp": sdp_case, "clamp": clamp_case, "pool": pool_case,
         # int8 drawn within int8 (_spread): a saturated result checks little.
         "conv": functools.partial(conv_case, spread_int8=True),
         "conv-compressed": conv_compressed_case, "conv-batch": conv_batch_case,
         "lrn": lrn_case,
         "lrn-wrap": lambda rng, n: lrn_case(rng, n, wrap=True), "sdp-mem": sdp_mem_case,
         "sdp-lut": sdp_lut_case, "pool-wide": pool_wide_case,
         "conv-bands": conv_bands_case, "conv-deep": conv_deep_case, "conv-wide": conv_wide_case,
         "sdp-mem-bands": sdp_mem_bands_case, "conv-big": conv_big_case, "chain": chain_case,
         "upsample": upsample_case, "upsample-wide": upsample_wide_case,
         "upsample-border": upsample_border_case,
         "interleave": interleave_case, "interleave-wide": interleave_wide_case,
         "groups": groups_case, "views": views_case, "interleaved": interleaved_case,
         "as-weights": as_weights_case,
         # Between int16 and int8 (nv_full, trace_cvt16_cases.py).
         "cvt16-sdp": lambda rng, n: trace_cvt16_cases.sdp_case(sys.modules[__name__], rng, n),
         "cvt16-conv": lambda rng, n: trace_cvt16_cases.conv_case(sys.modules[__name__], rng, n),
         "cvt16-image": lambda rng, n: trace_cvt16_cases.image_case(sys.modules[__name__], rng, n),
         # Image convolutions of an int16 pipeline (--precision int16).
         "image16": lambda rng, n: trace_image16_cases.image16_case(sys.modules[__name__], rng, n),
         # int16 pipelines writing fp16 (--precision int16, trace_fp16out_cases.py).
         "fp16out-conv": lambda rng, n: trace_fp16out_cases.conv_case(sys.modules[__name__], rng, n),
         "fp16out-sdp": lambda rng, n: trace_fp16out_cases.sdp_case(sys.modules[__name__], rng, n),
         "fp16out-image": lambda rng, n: trace_fp16out_cases.image_case(sys.modules[__name__], rng,
                                                                        n)}
KINDS.update({f"batch-{k}": (lambda rng, n, k=k: batched_case(KINDS[k], rng, n))
              for k in BATCHED_KINDS})
# Register SDPs on a batch drawn within int8 too (_spread).
KINDS["batch-sdp"] = lambda rng, n: batched_case(
    lambda rng, n: sdp_case(rng, n, spread_int8=True), rng, n)


# Kinds whose draws reach what the emitter refuses (a located error): those
# cases are counted as not fitting, as --from-execution counts them.
REFUSALS_COUNTED = ("pool-wide",)


def verify(cases, build):
    """The verifier's message for each case whose layer function the
    configuration cannot hold (e.g. an SDP's EW stage on nv_small), else
    None: one dla-opt run over all cases (--split-input-file)."""
    chunks = [module([c.layer_func()]) for c in cases]
    ends = np.cumsum([ch.count("\n") + 1 for ch in chunks])
    run = subprocess.run([os.path.join(build, "bin", "dla-opt"), "--split-input-file",
                          "-o", os.devnull, "-"], input="// -----\n".join(chunks),
                         capture_output=True, text=True)
    errors = [None] * len(cases)
    for line, msg in re.findall(r"^<stdin>:(\d+):\d+: error: (.*)$", run.stderr, re.M):
        i = int(np.searchsorted(ends, int(line)))
        errors[i] = errors[i] or msg
    if run.returncode and not any(errors):
        sys.exit("dla-opt failed:\n" + run.stderr)
    return errors


def plan_refusals(cases, build):
    """dla-translate's located refusal (its register plan's: what it does
    not program) of each case, else None: the layer function translated
    without data (the plan refuses before it reads any)."""
    translate = os.path.join(build, "bin", "dla-translate")
    refusals = []
    with tempfile.TemporaryDirectory(prefix="dla-plan-") as root:
        for c in cases:
            tr = subprocess.run([translate, "--dla-to-nvdla-trace",
                                 f"--nvdla-trace-dir={os.path.join(root, c.name)}",
                                 f"--nvdla-trace-data={root}", "-"],
                                input=module([c.layer_func()]), capture_output=True, text=True)
            refusal = re.search(r"error: (.*' op .*)", tr.stderr)
            refusals.append(refusal.group(1) if tr.returncode and refusal else None)
    return refusals


def literal(a):
    return 'dense<"0x' + np.ascontiguousarray(a).tobytes().hex().upper() + '">'


def cpu_run(cases, inputs, build, llvm_bin="/usr/lib/llvm-22/bin"):
    """Each case's (argument storages, output storage) from the CPU
    execution: dla-opt --dla-lower-to-llvm with storage layers, run by
    mlir-runner, the storage bytes printed by printMemrefI32. The dla
    package is BUILD's: PYTHONPATH=BUILD/python_packages (lit sets it)."""
    import dla
    funcs, main, counts = [], [], []
    for k, (c, xs) in enumerate(zip(cases, inputs)):
        funcs.append(c.layer_func(f"layer_{k}"))
        names, printed = [], []
        for i, ((_, sh, enc), elt, x) in enumerate(zip(c.args, c.elts, xs)):
            plain = ttype(sh, None, elt)
            enc_t = ttype(sh, enc, elt)
            main.append(f"  %p{k}_{i} = arith.constant {literal(x)} : {plain}\n"
                        f"  %a{k}_{i} = dla.relayout %p{k}_{i} : {plain} -> {enc_t}\n")
            names.append(f"%a{k}_{i}")
            printed.append((f"%a{k}_{i}", ttype(sh, enc, elt)))
        types = ", ".join(c.arg_types())
        main.append(f"  %y{k} = call @layer_{k}({', '.join(names)}) : ({types}) -> "
                    f"{c.out_type()}\n")
        printed.append((f"%y{k}", c.out_type()))
        counts.append(len(printed))
        for v, t in printed:
            # (Winograd weights have one storage buffer but no layout.)
            n = dla.default_context().parse_type(t).storage()["buffers"][0]["bytes"]
            name = v[1:]
            main.append(f"""  %s{name} = dla.to_storage {v} : {t} -> tensor<{n}xi8>
  %w{name} = arith.extsi %s{name} : tensor<{n}xi8> to tensor<{n}xi32>
  %m{name} = bufferization.to_buffer %w{name} : tensor<{n}xi32> to memref<{n}xi32>
  %u{name} = memref.cast %m{name} : memref<{n}xi32> to memref<*xi32>
  call @printMemrefI32(%u{name}) : (memref<*xi32>) -> ()
""")
    return run_printed(funcs, main, counts, build, llvm_bin)


def run_printed(funcs, main, counts, build, llvm_bin):
    """Runs `funcs` with a @main of the statements `main` printing buffers as
    i32 (CPU execution: dla-opt --dla-lower-to-llvm, mlir-runner): per case
    (`counts` printed buffers each), its argument bytes and its result's
    bytes (the last buffer), each element taken as int8."""
    funcs.append("func.func private @printMemrefI32(memref<*xi32>) attributes "
                 "{llvm.emit_c_interface}\n")
    funcs.append("func.func @main() {\n" + "".join(main) + "  return\n}\n")
    text = module(funcs)
    bin_dir = os.path.join(build, "bin")
    llvm = subprocess.run([os.path.join(bin_dir, "dla-opt"),
                           "--dla-lower-to-llvm=storage-layers=true "
                           f"fp16-arithmetic={FP16_ARITHMETIC}", "-"],
                          input=text, capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt failed:\n" + llvm.stderr)
    runtime = run_layers.runtime_library(os.path.join(bin_dir, "dla-opt"))
    chunks = run_layers.run_main(llvm.stdout, llvm_bin, runtime).split("Unranked Memref")[1:]
    if len(chunks) != sum(counts):
        sys.exit(f"expected {sum(counts)} printed buffers, got {len(chunks)}")
    data = [np.array([int(v) for v in re.findall(r"-?\d+", ch.split("data =", 1)[1])],
                     np.int64).astype(np.int8).tobytes() for ch in chunks]
    out, at = [], 0
    for n in counts:
        out.append((data[at:at + n - 1], data[at + n - 1]))
        at += n
    return out


CONFIGS = ("nv_small", "nv_large", "nv_full")


def player_path(build, config):
    """The trace player of `config`: master's C model for nv_small and
    nv_large (scripts/build-nvdla-cmod.sh), the v1 model for nv_full
    (scripts/build-nvdla-cmod-v1.sh: the same player linked with it)."""
    if config == "nv_full":
        return os.path.join(build, "nvdla-cmod-v1", "nvdla-trace-player")
    return os.path.join(build, "nvdla-cmod", config, "nvdla-trace-player")


PRECISIONS = ("int8", "int16", "fp16")
# The SDP pass-through kinds (every stage bypassed: the values copied),
# drawn in any precision: --precision fp16 draws them only (the other fp16
# layers are run_fp16_trace.py's, expected from fp_nvdla).
PASS_THROUGH_KINDS = ("upsample", "upsample-wide", "upsample-border", "interleave",
                      "interleave-wide")
# The kinds whose draws follow --precision int16 (data, weights, operands);
# the others draw int8 joins, views, weights and checks of their own.
INT16_KINDS = ("sdp", "clamp", "sdp-mem", "sdp-mem-bands", "sdp-lut", "pool", "pool-wide",
               "conv", "conv-bands", "conv-deep", "conv-wide", "conv-big", "conv-compressed",
               "lrn", "lrn-wrap", "chain", "image16", "fp16out-conv", "fp16out-sdp", "fp16out-image") + \
    tuple(f"batch-{k}" for k in ("sdp", "sdp-mem", "sdp-lut", "pool", "lrn", "chain",
                                  "conv-bands")) + PASS_THROUGH_KINDS


def configure(config, precision="int8", fp16_arithmetic="hardware"):
    """Cases, types and modules for `config` (nv_small, nv_large, nv_full),
    the layers' `precision` (int8; int16 and fp16 on nv_full only) and the
    CPU execution's `fp16_arithmetic`."""
    global CONFIG, PRECISION, BITS, FELT, ENC, WENC, FP16_ARITHMETIC
    FP16_ARITHMETIC = fp16_arithmetic
    if precision != "int8" and config != "nv_full":
        sys.exit(f"--precision {precision} needs --config nv_full (the configuration with "
                 f"{precision})")
    CONFIG, PRECISION = config, precision
    BITS, FELT = {"int8": (8, "i8"), "int16": (16, "i16"), "fp16": (16, "f16")}[precision]
    ENC = f"#dla.feature<{precision}, config = {CONFIG}>"
    WENC = f"#dla.weight<direct, {precision}, config = {CONFIG}>"


def draw_data(rng, shape, elt):
    """Random argument data of element type `elt`: int8's whole range; int16
    half of the time within a random power of two (2^7 .. 2^15), so that
    sums do not all saturate; fp16 as fp16_special."""
    if elt == "i8":
        return rng.integers(-128, 128, size=shape).astype(np.int8)
    if elt == "f16":
        return fp16_special(rng, shape)
    top = 1 << 15 if rng.random() < 0.5 else 1 << int(rng.integers(7, 16))
    return rng.integers(-top, top, size=shape).astype(np.int16)


def fp16_special(rng, shape):
    """fp16 values over most binades, and as bit patterns a few of every
    special kind: zeros of both signs, subnormals, infinities, quiet and
    signalling NaNs of either sign with random payloads (a copy keeps each
    pattern: the v1 SDP's pass-through is the identity on all of them,
    test_fp_nvdla.py test_sdp_pass_through_fp16)."""
    values = rng.standard_normal(shape) * 2.0 ** rng.integers(-14, 16, shape)
    bits = np.clip(values, -65504, 65504).astype(np.float16).view(np.uint16).copy()
    r = rng.random(shape)
    sign = rng.integers(0, 2, shape).astype(np.uint16) << 15
    for lo, hi, pattern in ((0.00, 0.03, np.zeros(shape, np.uint16)),
                            (0.03, 0.07, rng.integers(1, 0x400, shape).astype(np.uint16)),
                            (0.07, 0.09, np.full(shape, 0x7c00, np.uint16)),
                            (0.09, 0.12, rng.integers(0x7c01, 0x8000, shape).astype(np.uint16))):
        pick = (r >= lo) & (r < hi)
        bits[pick] = pattern[pick] | sign[pick]
    return bits.view(np.float16)


def fp16_kinds(inputs):
    """How many NaNs, infinities, subnormals and negative zeros the fp16
    `inputs` (a case's list of arrays each) hold: a line the tests pin."""
    bits = np.concatenate([x.view(np.uint16).ravel() for xs in inputs for x in xs])
    e, m = (bits >> 10) & 0x1f, bits & 0x3ff
    return (f"inputs hold {int(((e == 31) & (m != 0)).sum())} NaNs, "
            f"{int(((e == 31) & (m == 0)).sum())} infinities, "
            f"{int(((e == 0) & (m != 0)).sum())} subnormals, {int((bits == 0x8000).sum())} "
            f"negative zeros of {bits.size} values")


def add_case_arguments(p, kinds=None, precisions=PRECISIONS, executions=True, configs=CONFIGS):
    """The options that choose the cases (shared with run_loadable.py,
    whose `kinds` add to KINDS, and run_bdma_trace.py: its own kinds and
    `precisions`, no --from-execution (`executions`), nv_full only (no
    `configs`: no --config))."""
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--kind", choices=sorted(kinds or KINDS), help="random layers of this kind")
    if executions:
        what.add_argument("--from-execution", choices=trace_exec_cases.KINDS,
                          help="the cases run_layers.py --kind KIND draws with the same "
                               "--count and --seed: the integer execution tests")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--build", required=True, help="the build directory (bin/, nvdla-cmod/)")
    p.add_argument("--keep", help="write the test directories here (default: a scratch dir)")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin", help="LLVM's bin (mlir-runner)")
    if configs:
        p.add_argument("--config", choices=configs, default=configs[0])
    p.add_argument("--precision", choices=precisions, default="int8",
                   help="the layers' feature data and weights" +
                        (" (int16, fp16: nv_full only)" if configs else ""))
    if configs and "fp16" in precisions:
        p.add_argument("--fp16-arithmetic", choices=["hardware", "ideal"], default="hardware",
                       help="--precision fp16: the CPU execution's (ideal: a plain copy that "
                            "keeps infinities, compared with numpy's plain copy; the negative "
                            "control on the model)")


def draw(a, rng, kinds=None):
    """(cases, unfit reasons, their inputs) of the parsed options `a`: the
    --kind's random cases (from `kinds`, default KINDS), or the integer
    execution cases that fit the configuration."""
    kinds = kinds or KINDS
    unfit = collections.Counter()
    if a.from_execution:
        cases, drawn = [], trace_exec_cases.draw(a.from_execution, rng, a.count)
        for c in drawn:
            reason = trace_exec_cases.why_not(c, PRECISION, CONFIG)
            if reason:
                unfit[reason] += 1
            else:
                cases.append(trace_exec_cases.to_trace(c, CONFIG, Case.of, PRECISION))
        kept = []
        for c, reason in zip(cases, verify(cases, a.build)):
            if reason:
                unfit[f"{CONFIG}: {reason}"] += 1
            else:
                kept.append(c)
        # Layers of another precision than the run's: the register plan's
        # refusal, before the CPU execution spends time on them.
        mixed = [c for c in kept if c.out_elt is not None]
        refusals = dict(zip((c.name for c in mixed), plan_refusals(mixed, a.build)))
        cases = []
        for c in kept:
            if refusals.get(c.name):
                unfit["refused: " + refusals[c.name]] += 1
            else:
                cases.append(c)
    else:
        cases = [kinds[a.kind](rng, n) for n in range(a.count)]
    inputs = [[draw_data(rng, sh, elt) if d is None else d
               for (_, sh, _), d, elt in zip(c.args, c.data, c.elts)] for c in cases]
    return cases, unfit, inputs


def spread_count(results, cases):
    """How many of the expected results take 8 or more distinct values: a
    random layer whose result is all saturated or zero checks little of its
    program (a test pins this beside its count of equal programs)."""
    def dtype(c):
        return {"i16": np.int16, "f16": np.float16}.get(c.out_elt or FELT, np.int8)
    return sum(len(np.unique(np.frombuffer(ys, dtype(c)))) >= 8
               for c, (_, ys) in zip(cases, results))


def write_program(c, xs, ys, root, translate):
    """Case `c`'s register program in root/NAME, written by dla-translate
    --dla-to-nvdla-trace with its argument bytes `xs` and the CRCs of its
    expected result bytes `ys` (root/NAME.data holds them): (the program's
    directory, dla-translate's completed process)."""
    data = os.path.join(root, c.name + ".data")
    os.makedirs(data, exist_ok=True)
    for i, x in enumerate(xs):
        with open(os.path.join(data, f"arg{i}.bin"), "wb") as f:
            f.write(x)
    with open(os.path.join(data, "result0.bin"), "wb") as f:
        f.write(ys)
    tdir = os.path.join(root, c.name)
    tr = subprocess.run([translate, "--dla-to-nvdla-trace", f"--nvdla-trace-dir={tdir}",
                         f"--nvdla-trace-data={data}", "-"], input=module([c.layer_func()]),
                        capture_output=True, text=True)
    return tdir, tr


def kind_option_error(kind, config, precision):
    """Why --kind `kind` cannot draw layers of `precision` on `config`, or
    None (run_trace.py and run_loadable.py)."""
    if precision == "int16" and kind and kind not in INT16_KINDS:
        return (f"--kind {kind} draws int8 layers only; with --precision int16: "
                f"{', '.join(INT16_KINDS)}")
    if precision == "fp16" and kind not in PASS_THROUGH_KINDS:
        return (f"--precision fp16 draws the SDP's pass-through kinds only "
                f"({', '.join(PASS_THROUGH_KINDS)}); the other fp16 layers: run_fp16_trace.py")
    if kind and kind.startswith("cvt16") and (config, precision) != ("nv_full", "int8"):
        return (f"--kind {kind} converts between int16 and int8: --config nv_full, "
                "--precision int8 (the int8 side's)")
    if kind and (kind == "image16" or kind.startswith("fp16out")) and \
            (config, precision) != ("nv_full", "int16"):
        return f"--kind {kind} draws int16 layers: --config nv_full --precision int16"
    return None


def line_stride_one_atom_more(tdir, name):
    """--negative: every SDP destination line stride of the program in
    `tdir` one atom (the configuration's memory atom) more."""
    atom = 32 if CONFIG != "nv_small" else 8
    cfg = os.path.join(tdir, name + ".cfg")
    text, n = re.subn(r"reg_write\((NVDLA_SDP\.D_DST_LINE_STRIDE_0), 0x([0-9a-f]+)\);",
                      lambda m: f"reg_write({m.group(1)}, {hex(int(m.group(2), 16) + atom)});",
                      open(cfg).read())
    if not n:
        sys.exit(f"{cfg}: no NVDLA_SDP.D_DST_LINE_STRIDE_0")
    with open(cfg, "w") as f:
        f.write(text)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_case_arguments(p)
    p.add_argument("--negative", action="store_true",
                   help="pass-through kinds: every SDP pass's destination line stride one "
                        "atom more in the written program (the negative control: no program "
                        "may match)")
    a = p.parse_args()
    if (error := kind_option_error(a.kind, a.config, a.precision)):
        p.error(error)
    if a.negative and a.kind not in PASS_THROUGH_KINDS:
        p.error(f"--negative shifts the pass-through kinds' passes "
                f"({', '.join(PASS_THROUGH_KINDS)}), not --kind {a.kind}'s")
    configure(a.config, a.precision, a.fp16_arithmetic)
    a.build = os.path.abspath(a.build)  # the player runs in each test directory
    translate = os.path.join(a.build, "bin", "dla-translate")
    player = player_path(a.build, CONFIG)

    rng = np.random.default_rng(a.seed)
    cases, unfit, inputs = draw(a, rng)
    results = cpu_run(cases, inputs, a.build, a.llvm_bin)
    if FELT == "f16":
        print(fp16_kinds(inputs))
    if a.kind in ("upsample", "upsample-wide", "upsample-border"):
        print(f"{check_upsample(cases, inputs, results)} of {len(cases)} CPU executions equal "
              f"{reference_name('ONNX Resize (nearest) in numpy')}")
    if a.kind in ("interleave", "interleave-wide"):
        print(f"{check_interleave(cases, inputs, results)} of {len(cases)} CPU executions equal "
              f"{reference_name('the pixel shuffle in numpy')}")

    root = a.keep or tempfile.mkdtemp(prefix="dla-trace-")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    good = refused = 0
    for c, (xs, ys) in zip(cases, results):
        tdir, tr = write_program(c, xs, ys, root, translate)
        if tr.returncode:
            refusal = re.search(r"error: (.*)", tr.stderr)
            if (a.from_execution or a.kind in REFUSALS_COUNTED) and refusal and \
                    "' op " in refusal.group(1):
                # The emitter's located refusals (invalid.mlir) of what it
                # does not program yet: the case does not fit.
                unfit["refused: " + refusal.group(1)] += 1
                refused += 1
                continue
            print(f"{c.name}: dla-translate failed: {tr.stderr.strip()}\n  {c.body}")
            continue
        if a.negative:
            line_stride_one_atom_more(tdir, c.name)
        run = subprocess.run([player, tdir], capture_output=True, text=True, cwd=tdir, env=env)
        if run.returncode:
            print(f"{c.name}: C model differs: {(run.stdout + run.stderr).strip()}\n  {c.body}")
            continue
        good += 1
    if a.from_execution or a.kind in REFUSALS_COUNTED:
        print(f"{a.from_execution or a.kind}: {len(cases) - refused} of {a.count} cases fit "
              f"{CONFIG}")
        for reason, n in sorted(unfit.items()):
            print(f"  does not fit ({n}): {reason}")
    print(f"{good} of {len(cases) - refused} programs match the CPU execution on {CONFIG}")
    print(f"{spread_count(results, cases)} of {len(cases)} expected results take 8 or more values")
    sys.exit(0 if good == len(cases) - refused else 1)


if __name__ == "__main__":
    main()
