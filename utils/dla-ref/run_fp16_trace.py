#!/usr/bin/env python3
"""Random fp16 direct convolutions on NVIDIA's v1 C model (nv_full), each
compared bit for bit with the numpy model of NVDLA's fp16 arithmetic
(fp_nvdla.py: CMAC, CACC, the SDP's converter), or with the project's CPU
execution (`--expect cpu`).

    run_fp16_trace.py --count N --seed S --build BUILD_DIR [--keep DIR]
                      [--expect nvdla|ideal|cpu] [--fp16-arithmetic hardware|ideal]
                      [--layer conv|lut|sdp|conv-sdp|implicit|conv-implicit|clamp|pdp|cdp|
                               winograd|wino-sdp|ew|conv-ew|implicit3|conv-implicit3|
                               wino-ew|wino-implicit|ew-lut|conv-ew-lut|wino-ew-lut]

Each case: a convolution of random fp16 data (C 1..100 channels, so one or
two 64-channel atoms; kernels 1..3 with strides, padding and dilation) whose
result is fp16 feature data (the SDP bypassed: its converter rounds CACC's
fp32 to fp16); the inputs packed by the format references (nvdla_ref.py,
weight_ref.py), the expected output computed by fp_nvdla.conv_fp16 and
fp32_to_fp16 and packed likewise; the register program written by
dla-translate --dla-to-nvdla-trace with those bytes and run on the v1 model
by the trace player linked with it (the CRCs of the expected bytes are its
checks). Prints one line per failing case, how many output elements the
hardware's arithmetic puts elsewhere than IEEE's (the exact sum rounded once
to fp16), and `N of M fp16 convolutions on the v1 model equal fp_nvdla`;
exits 1 on any mismatch. `--expect ideal` checks the model against IEEE's
result instead (the negative control: it fails where the two differ).
`--expect cpu`: the expected bytes are the project's CPU execution of the
same layers (dla-opt --dla-lower-to-reference with `--fp16-arithmetic`,
then mlir-runner with libDLARuntime.so), so the model's output is compared
with it directly; with `--fp16-arithmetic ideal` that is a negative control.

`--layer sdp`: offline fp16 SDPs of the X stages reading fp16 memory
operands (fp16_cases_sdp.py), expected from fp_nvdla (sdp_x_fp16 per
stage, Fp32ToFp16) or the CPU execution (`--expect cpu`); prints `N of M
fp16 SDPs on the v1 model equal ...`. `--layer conv-sdp`: the same SDPs on
the fly after a direct convolution drawn as the conv layer's (the stages
on CACC's fp32). `--layer implicit` / `conv-implicit`: SDPs in the implicit
form (bias, batchnorm, eltwise, prelu, relu; the register plan states their
X stages), expected step by step. `--layer clamp`: dla.clamp (the register
plan states it as BS MAX and BN MIN with its bounds' fp16 patterns as
register operands), expected from those stages in fp_nvdla.

`--layer ew` / `conv-ew`: fp16 SDPs (offline / on the fly after a direct
convolution) of none, one or two X stages, then the Y stage's multiplier,
ALU or both (memory operands fp16, register operands fp32 patterns),
expected from fp_nvdla.sdp_y_fp16 or the CPU execution; `wino-ew` the
same on the fly after an fp16 Winograd convolution. `--layer ew
--loadable`: as loadables (the memory operands constants) on NVIDIA's
runtime and firmware (`... SDP loadables ...`). `--layer ew-lut` /
`conv-ew-lut` / `wino-ew-lut`: the same with the Y stage's LUT in float mode after them
(a random plausible table; a quarter of the cases the LUT right after the
X stages), expected from sdp_y_fp16 with its `lut` (lut_float_ref on the
fp32 value) or the CPU execution; `--lut-on-fp16` expects the LUT on that
value rounded to fp16 instead (the negative control: what tabulating the
LUT per fp16 input computes).

`--layer implicit3` / `conv-implicit3`: implicit SDPs of three of bias,
batchnorm, eltwise and prelu, without relu: the register plan states the
third on the Y stage (Fp16SdpStages.cpp).

`--layer pdp`: offline fp16 pooling on the PDP (fp16_cases_pdp.py: max,
min and average, kernels 1..8, strides, padding, 1 to 40 channels; zeros
of both signs, denormals, some infinities and NaNs), expected from
fp_nvdla.pdp_fp16 or the CPU execution (`--expect cpu`); prints how many
output elements NVDLA's arithmetic puts elsewhere than IEEE's and `N of M
fp16 pooling layers on the v1 model equal ...`.

`--layer cdp`: fp16 LRN on the CDP (fp16_cases_lrn.py: windows 3..9,
alpha / beta / k around the usual ones, 1 to 40 channels; zeros of both
signs, denormals, some infinities and NaNs; the register plan's float-mode
tables), expected from fp_nvdla.cdp_fp16 on those tables derived again in
Python, or the CPU execution (`--expect cpu`); prints how many output
elements NVDLA's arithmetic puts elsewhere than IEEE's and `N of M fp16
LRN layers on the v1 model equal ...`. With `--loadable` each layer is
written by dla-translate --dla-to-nvdla-loadable instead and run by
NVIDIA's runtime and firmware for nv_full on the model (dla-run-loadable),
every element of the result compared (`... LRN loadables ...`). With
`--drawn-tables` each LRN states a random float-mode table instead (square
sums under, on and past LE and LO; prints how many took each path), and
`--swap-priorities` is its negative control (expected with every LE / LO
priority the other table).

`--layer winograd`: fp16 Winograd convolutions (fp16_cases_wino.py: 3x3,
stride 1, outputs of whole 4x4 tiles, padding, 1 to 100 channels), expected
from fp_nvdla.conv_wino_fp16 (the PRA, CMAC's Winograd cell, CACC), IEEE's
direct convolution rounded once (`--expect ideal`, the negative control) or
the CPU execution (`--expect cpu`); prints `N of M fp16 Winograd
convolutions on the v1 model equal ...`. `--layer wino-sdp`: the same
convolutions with fp16_cases_sdp's SDPs on the fly; `--layer
wino-implicit`: each with its own bias operand (`dla.conv winograd %x, %w,
%bias`: the register plan gives it to the SDP on the fly, whose BS reads
it from memory) and an implicit SDP of at most one more operand.

`--layer lut`: offline fp16 SDPs whose Y stage's LUT runs in float mode
(fp16_cases_lut.py: the sigmoid and tanh programs over every finite fp16
input, then N - 2 random tables), expected from lut_float_ref.py; prints
`N of M fp16 LUT layers on the v1 model equal lut_float_ref`. With
`--expect ideal` the expected bytes are the float64 function (sigmoid /
tanh) rounded to fp16, for the two programs (the negative control).
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import fp16_cases_lrn
import fp16_cases_lut
import fp16_cases_pdp
import fp16_cases_sdp
import fp16_cases_wino
import fp_nvdla as fp
import lut_float_tables as T
import nvdla_ref
import run_trace
import weight_ref

ENC = "#dla.feature<fp16>"
ENC16 = "#dla.feature<int16>"
WENC = "#dla.weight<direct, fp16>"
WENC_COMPRESSED = "#dla.weight<direct, fp16, compressed>"


def ttype(shape, enc):
    return f"tensor<{'x'.join(map(str, shape))}xf16, {enc}>"


def fp16_data(rng, shape, zeros):
    """fp16 bit patterns: normal values over several binades (so that an
    atom's products spread over exponent groups), zeros of both signs, a
    few denormals."""
    v = (rng.standard_normal(shape) * 2.0 ** rng.integers(-6, 4, shape)).astype(np.float16)
    bits = v.view(np.uint16).copy()
    r = rng.random(shape)
    bits[r < zeros] = 0
    bits[(r >= zeros) & (r < zeros + 0.03)] = 0x8000
    den = (r >= zeros + 0.03) & (r < zeros + 0.05)
    bits[den] = rng.integers(1, 0x400, int(den.sum())) | (rng.integers(0, 2, int(den.sum())) << 15)
    return bits.astype(np.uint16)


def weight_constant(name, w, enc, elt, wtype, swap=False):
    """`%NAME = dla.weight_constant` of `w` compressed by the reference
    packer (weight_ref.py, from the format document): the program holds
    the weights itself. `swap` (the negative control): the first two
    different non-zero fp16 elements of the data surface trade places, so
    WGS and WMB still agree but the weights are wrong."""
    parts = weight_ref.pack(w, enc, elt)
    if swap:
        data = np.frombuffer(parts["data"], np.uint16).copy()
        nz = np.flatnonzero(data)
        other = nz[data[nz] != data[nz[0]]] if nz.size else nz
        if other.size:
            data[[nz[0], other[0]]] = data[[other[0], nz[0]]]
        parts = dict(parts, data=data.tobytes())
    attr = ", ".join(f'{k} = dense<"0x{parts[k].hex().upper()}"> : tensor<{len(parts[k])}xi8>'
                     for k in ("wgs", "wmb", "data"))
    return f"%{name} = dla.weight_constant {attr} : {wtype}"


def draw(rng, n, compressed=False, swap=False):
    c = int(rng.choice([rng.integers(1, 65), rng.integers(65, 101)], p=[0.7, 0.3]))
    k = int(rng.integers(1, 25))
    r, s = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    dy, dx = (int(rng.choice([1, 1, 1, 2])) for _ in range(2))
    er, es = (r - 1) * dy + 1, (s - 1) * dx + 1
    pad = [int(rng.integers(0, r)), int(rng.integers(0, r)), int(rng.integers(0, s)),
           int(rng.integers(0, s))]
    h = int(rng.integers(max(1, er - pad[0] - pad[1]), 9))
    w = int(rng.integers(max(1, es - pad[2] - pad[3]), 9))
    sy, sx = (int(rng.choice([1, 1, 2])) for _ in range(2))
    oh = (h + pad[0] + pad[1] - er) // sy + 1
    ow = (w + pad[2] + pad[3] - es) // sx + 1
    x = fp16_data(rng, (c, h, w), zeros=float(rng.choice([0.0, 0.2])))
    # Compressed: sparse weights, some kernels all zero, some dense.
    wt = fp16_data(rng, (k, c, r, s), zeros=float(rng.choice([0.3, 0.6, 0.9])) if compressed
                   else 0.1)
    if compressed:
        wt[rng.random(k) < 0.15] = 0
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]"
    if (dy, dx) != (1, 1):
        attrs += f" dilation [{dy}, {dx}]"
    # All-zero weights stay uncompressed (the CDMA reads at least one entry).
    compressed = compressed and bool(np.any(wt))
    wenc = WENC_COMPRESSED if compressed else WENC
    body = (f"%y = dla.conv direct %x, %w{attrs} : {ttype((1, c, h, w), ENC)}, "
            f"{ttype((k, c, r, s), wenc)} -> {ttype((1, k, oh, ow), ENC)}")
    if compressed:
        const = weight_constant("w", wt.view(np.float16), wenc, "f16", ttype((k, c, r, s), wenc),
                                swap)
        func = (f"func.func @conv_{n}(%x: {ttype((1, c, h, w), ENC)})"
                f" -> {ttype((1, k, oh, ow), ENC)} {{\n  {const}\n  {body}\n  return %y : "
                f"{ttype((1, k, oh, ow), ENC)}\n}}\n")
    else:
        func = (f"func.func @conv_{n}(%x: {ttype((1, c, h, w), ENC)}, "
                f"%w: {ttype((k, c, r, s), WENC)}) -> {ttype((1, k, oh, ow), ENC)} {{\n  {body}\n"
                f"  return %y : {ttype((1, k, oh, ow), ENC)}\n}}\n")
    return dict(name=f"conv_{n}", x=x, w=wt, stride=(sy, sx), pad=tuple(pad), dilation=(dy, dx),
                func=func, compressed=compressed)


def ideal(x, w, stride, pad, dilation):
    """IEEE: the exact sum (float64 holds fp16 products and their sums here
    exactly enough) rounded once to fp16, for the report only."""
    xf = x.view(np.float16).astype(np.float64)
    wf = w.view(np.float16).astype(np.float64)
    C, H, W = xf.shape
    K, _, R, S = wf.shape
    xp = np.pad(xf, ((0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh = (H + pad[0] + pad[1] - ((R - 1) * dilation[0] + 1)) // stride[0] + 1
    ow = (W + pad[2] + pad[3] - ((S - 1) * dilation[1] + 1)) // stride[1] + 1
    out = np.zeros((K, oh, ow))
    for r in range(R):
        for s in range(S):
            win = xp[:, r * dilation[0]:r * dilation[0] + (oh - 1) * stride[0] + 1:stride[0],
                     s * dilation[1]:s * dilation[1] + (ow - 1) * stride[1] + 1:stride[1]]
            out += np.einsum("chw,kc->khw", win, wf[:, :, r, s])
    return out.astype(np.float16).view(np.uint16)


def cpu_outputs(drawn, build, arithmetic):
    """The project's CPU execution of each drawn convolution (plain tensors,
    --dla-lower-to-reference with `arithmetic`, mlir-runner): fp16 bits
    [K, OH, OW] per case."""
    import run_layers
    cases = []
    for c in drawn:
        x, w = c["x"].view(np.float16)[None], c["w"].view(np.float16)
        y = fp.conv_fp16(c["x"], c["w"], c["stride"], c["pad"], c["dilation"])[None]
        (sy, sx), pad, (dy, dx) = c["stride"], c["pad"], c["dilation"]
        op = (f"dla.conv direct %a0, %a1 stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, "
              f"{pad[3]}] dilation [{dy}, {dx}] : {run_layers.tensor_type(x.shape, 'f16')}, "
              f"{run_layers.tensor_type(w.shape, 'f16')} -> "
              f"{run_layers.tensor_type(y.shape, 'f16')}")
        case = run_layers.Case(c["name"], [(x, "f16"), (w, "f16")], op, y.shape, "f16",
                               np.zeros(y.shape, np.float16))
        case.bits = True
        cases.append(case)
    results = run_layers.run(cases, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c.out_shape[1:]) for r, c in zip(results, cases)]


def setup(a, prefix):
    """The v1 model's harness: (build, dla-translate, the player, the
    directory the cases go to, the player's environment)."""
    build = os.path.abspath(a.build)
    run_trace.configure("nv_full")
    return (build, os.path.join(build, "bin", "dla-translate"),
            run_trace.player_path(build, "nv_full"), a.keep or tempfile.mkdtemp(prefix=prefix),
            dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))


def run_case(name, func, blobs, root, translate, player, env, expected):
    """Writes the data, translates `func` and runs the trace on the v1
    model; the failure's message (`expected` names what the result bytes
    hold), or None."""
    data = os.path.join(root, name + ".data")
    os.makedirs(data, exist_ok=True)
    for fname, b in blobs.items():
        with open(os.path.join(data, fname), "wb") as f:
            f.write(bytes(b))
    tdir = os.path.join(root, name)
    tr = subprocess.run([translate, "--dla-to-nvdla-trace", f"--nvdla-trace-dir={tdir}",
                         f"--nvdla-trace-data={data}", "-"],
                        input=run_trace.module([func]), capture_output=True, text=True)
    if tr.returncode:
        return f"dla-translate failed: {tr.stderr.strip()}"
    run = subprocess.run([player, tdir], capture_output=True, text=True, cwd=tdir, env=env)
    if run.returncode:
        return f"the v1 model differs from {expected}: {(run.stdout + run.stderr).strip()[:400]}"
    return None


def expected_name(a):
    """What the expected bytes are (--expect), as the reports name them."""
    return {"ideal": "IEEE", "nvdla": "fp_nvdla"}.get(a.expect) or \
        f"the CPU execution ({a.fp16_arithmetic})"


def run_all(a, cases, cpu, expect, run, noun, ieee=None, notes=(), name=None, refusals=False,
            first_only=False):
    """The case / report loop every --layer shares. `expect(c)`: case c's
    fp_nvdla fp16 bits and IEEE's (None: not compared); the expected bytes
    are fp_nvdla's, IEEE's (--expect ideal) or the CPU execution's
    (`cpu[n]`, counted against fp_nvdla's). `run(c, want, name)` runs c
    expecting `want` (named `name`): its failure or None; with `refusals`,
    a loadable writer's located refusal counts the case as not fitting.
    Prints the failures, the IEEE comparison (`ieee`: its label), the CPU
    execution's, the `notes`, the refusals and "good of fit `noun` equal
    name". `first_only`: fp_nvdla's bits are a batch's input 0's, the CPU
    execution counted against them there. Returns the exit status."""
    name = name or expected_name(a)
    good = elements = differ = cpu_differ = 0
    unfit = collections.Counter()
    for n, c in enumerate(cases):
        nvdla, ideal_bits = expect(c)
        elements += nvdla[0].size if first_only else nvdla.size
        if ideal_bits is not None:
            differ += int((nvdla != ideal_bits).sum())
        want = ideal_bits if a.expect == "ideal" else nvdla
        if cpu is not None:
            cpu_differ += int((cpu[n][0] != nvdla[0] if first_only else cpu[n] != nvdla).sum())
            want = cpu[n]
        why = run(c, want, name)
        refusal = re.search(r"error: '[a-z.]+' op (.*)", why or "")
        if refusals and refusal and why.startswith("dla-translate failed"):
            # The writer's located refusal (what the firmware's descriptors lack).
            unfit[re.sub(r"-?[0-9]+", "N", refusal.group(1))] += 1
            continue
        if why:
            print(f"{c['name']}: {why}")
            continue
        good += 1
    if ieee is not None:
        print(f"hardware arithmetic vs IEEE{ieee}: {differ} of {elements} output elements differ")
    if cpu is not None:
        print(f"CPU execution ({a.fp16_arithmetic}) vs fp_nvdla: {cpu_differ} of {elements} "
              "output elements differ")
    for line in notes:
        print(line)
    for reason, k in sorted(unfit.items()):
        print(f"  refused by the loadable writer ({k}): {reason}")
    fit = len(cases) - sum(unfit.values())
    print(f"{good} of {fit} {noun} equal {name}")
    return 0 if good == fit else 1


def main_lut(a):
    build, translate, player, root, env = setup(a, "dla-fp16-lut-")
    rng = np.random.default_rng(a.seed)
    cases = fp16_cases_lut.cases(rng, max(a.count - 2, 0))
    if a.expect == "ideal":
        cases = cases[:2]
    good = 0
    for name, x, le, lo, regs, want in cases:
        if a.expect == "ideal":
            f = T.FUNCS[name[len("lut_"):]]
            want = fp.fp32_to_fp16(
                f(x.view(np.float16).astype(np.float64)).astype(np.float32).view(np.uint32))
        t = ttype(x.shape, ENC)
        func = (f"func.func @{name}(%x: {t}) -> {t} {{\n  %y = dla.sdp offline %x ew <lut = "
                f"{fp16_cases_lut.lut_text(le, lo, regs)}> : {t} -> {t}\n  return %y : {t}\n}}\n")
        blobs = {"arg0.bin": nvdla_ref.pack(x.view(np.float16), ENC, "f16"),
                 "result0.bin": nvdla_ref.pack(want.view(np.float16), ENC, "f16")}
        why = run_case(name, func, blobs, root, translate, player, env,
                       "the function" if a.expect == "ideal" else "lut_float_ref")
        if why:
            print(f"{name}: {why}")
            continue
        good += 1
    print(f"{good} of {len(cases)} fp16 LUT layers on the v1 model equal "
          f"{'the function rounded to fp16' if a.expect == 'ideal' else 'lut_float_ref'}")
    return 0 if good == len(cases) else 1


def sdp_cpu_outputs(cases, build, arithmetic):
    """The project's CPU execution of each SDP case on plain tensors
    (--dla-lower-to-reference with `arithmetic`, mlir-runner): fp16 bits."""
    import run_layers
    built = []
    winograd = False
    for c in cases:
        conv = c["conv"]
        wino = conv is not None and conv.get("mode") == "winograd"
        winograd |= wino
        args = [(nchw(c["x"]), "f16")]
        # Winograd weights: a constant relayouted to their encoding (the
        # lowering reads the stored taps), the placeholder %a1 its result.
        args += [(conv["w"].view(np.float16), "f16")] if conv and not wino else []
        bias = conv is not None and conv.get("bias") is not None
        args += [(conv["bias"].view(np.float16), "f16")] if bias else []
        first = len(args)
        args += [(d.view(np.float16), "f16") for _, d, _ in c["operands"]]
        decl = " ".join(f"{nm} %a{i + first} : {run_layers.tensor_type(d.shape, 'f16')}"
                        for i, (nm, d, _) in enumerate(c["operands"]))
        out_shape = fp16_cases_sdp.nchw_shape(c["want"])
        t = run_layers.tensor_type(out_shape, "f16")
        out = "i16" if c.get("int16") else "f16"
        yt = run_layers.tensor_type(out_shape, out)
        prelude = ""
        if wino:
            w = conv["w"].view(np.float16)
            plain = run_layers.tensor_type(w.shape, "f16")
            wt = run_layers.tensor_type(w.shape, "f16", "#dla.weight<winograd, fp16>")
            p = conv["pad"]
            # Its own bias (the register plan gives it to the SDP's BS).
            cb = ", %a1" if bias else ""
            cbt = f", {run_layers.tensor_type(args[1][0].shape, 'f16')}" if bias else ""
            prelude = (f"%wc = arith.constant {run_layers.literal(w)} : {plain}\n"
                       f"  %w = dla.relayout %wc : {plain} -> {wt}\n"
                       f"  %c = dla.conv winograd %a0, %w{cb} pad [{p[0]}, {p[1]}, {p[2]}, {p[3]}] : "
                       f"{run_layers.tensor_type(args[0][0].shape, 'f16')}, {wt}{cbt} -> {t}")
            op = f"dla.sdp on_the_fly %c {decl} {c['stages']} : {t} -> {yt}"
        elif conv:
            (sy, sx), p, (dy, dx) = conv["stride"], conv["pad"], conv["dilation"]
            cb = ", %a2" if bias else ""
            cbt = f", {run_layers.tensor_type(args[2][0].shape, 'f16')}" if bias else ""
            prelude = (f"%c = dla.conv direct %a0, %a1{cb} stride [{sy}, {sx}] pad [{p[0]}, {p[1]}, "
                       f"{p[2]}, {p[3]}] dilation [{dy}, {dx}] : "
                       f"{run_layers.tensor_type(args[0][0].shape, 'f16')}, "
                       f"{run_layers.tensor_type(args[1][0].shape, 'f16')}{cbt} -> {t}")
            op = f"dla.sdp on_the_fly %c {decl} {c['stages']} : {t} -> {yt}"
        else:
            op = fp16_cases_sdp.offline_op(c, "%a0", decl, t, yt)
        case = run_layers.Case(c["name"], args, op, out_shape, out,
                               np.zeros(out_shape, np.int16 if c.get("int16") else np.float16))
        case.prelude = prelude
        case.bits = True
        built.append(case)
    results = run_layers.run(built, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, path="llvm" if winograd else "reference",
                             fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c["want"].shape) for r, c in zip(results, cases)]


# --batch's SDP layers (expected from the CPU execution, input 0 also from
# fp_nvdla).
BATCH_SDP_LAYERS = ("sdp", "ew", "implicit", "ew-lut", "conv-ew-lut")


def sdp_on_batch(rng, c):
    """--batch: the SDP case `c` (offline, or on the fly after its
    convolution, whose weights every input shares) on a batch of 2 to 4: input 0 and
    its per-element operands as drawn, each further input a permutation of
    their values; per-channel and per-layer operands shared. `want` holds
    fp_nvdla's result of input 0 for every input (only input 0's is
    compared): the expected bytes are the CPU execution's (--expect cpu),
    which must equal it there."""
    b = int(rng.integers(2, 5))

    def batch(d):
        return np.stack([d] + [rng.permutation(d.ravel()).reshape(d.shape) for _ in range(b - 1)])
    operands = [(nm, np.concatenate([batch(d[0])[i][None] for i in range(b)]) if d.ndim == 4
                 else d, enc) for nm, d, enc in c["operands"]]
    return dict(c, x=batch(c["x"]), operands=operands, want=np.stack([c["want"]] * b))


def main_sdp(a):
    if a.expect == "ideal":
        print(f"run_fp16_trace.py: --layer {a.layer} compares with fp_nvdla or the CPU execution "
              "(--expect nvdla|cpu), not with IEEE", file=sys.stderr)
        return 2
    build, translate, player, root, env = setup(a, "dla-fp16-sdp-")
    rng = np.random.default_rng(a.seed)
    if a.layer == "clamp":
        cases = [fp16_cases_sdp.draw_clamp(rng, n) for n in range(a.count)]
    else:
        cases = [fp16_cases_sdp.draw(rng, n, on_the_fly=a.layer.startswith(("conv-", "wino-")),
                                     implicit=a.layer.endswith(("implicit", "implicit3")),
                                     winograd=a.layer.startswith("wino-"),
                                     ew=a.layer.endswith(("ew", "ew-lut")),
                                     three=a.layer.endswith("3"),
                                     own_bias=a.layer == "wino-implicit",
                                     lut=a.layer.endswith("ew-lut"),
                                     lut_rounded=a.lut_on_fp16)
                 for n in range(a.count)]
    if a.batch:
        cases = [sdp_on_batch(rng, c) for c in cases]
    if a.int16_out:
        cases = [fp16_cases_sdp.to_int16(c, a.int16_control) for c in cases]
    cpu = sdp_cpu_outputs(cases, build, a.fp16_arithmetic) if a.expect == "cpu" else None

    def run(c, want, name):
        result = (nvdla_ref.pack(nchw(want).view(np.int16), ENC16, "i16") if c.get("int16")
                  else nvdla_ref.pack(nchw(want), ENC, "f16"))
        blobs = {"arg0.bin": nvdla_ref.pack(nchw(c["x"]), ENC, "f16"), "result0.bin": result}
        first = 1
        if c["conv"]:
            wenc = f"#dla.weight<{c['conv'].get('mode', 'direct')}, fp16>"
            blobs["arg1.bin"] = weight_ref.pack(c["conv"]["w"].view(np.float16), wenc,
                                                "f16")["weights"]
            first = 2
            if c["conv"].get("bias") is not None:
                blobs["arg2.bin"] = nvdla_ref.pack(c["conv"]["bias"].view(np.float16),
                                                   fp16_cases_sdp.OPERAND_ENC["bias_c"], "f16")
                first = 3
        for i, (_, data, enc) in enumerate(c["operands"]):
            blobs[f"arg{i + first}.bin"] = nvdla_ref.pack(data.view(np.float16),
                                                          fp16_cases_sdp.OPERAND_ENC[enc], "f16")
        if a.loadable:
            # The memory operands constants of their storage bytes (the
            # loadable's one input is the data).
            lfunc, res = fp16_cases_sdp.loadable_func(c, blobs, first)
            return run_loadable_case(c["name"], lfunc, c["x"].view(np.float16)[None],
                                     want[None], root, build, env, name, res)
        return run_case(c["name"], fp16_cases_sdp.func(c), blobs, root, translate, player, env,
                        name)

    what = "SDP loadables on NVIDIA's firmware" if a.loadable else "SDPs on the v1 model"
    notes = []
    if a.layer in ("conv-implicit", "wino-implicit"):
        own = sum(c["conv"].get("bias") is not None for c in cases)
        notes.append(f"{own} of {len(cases)} convolutions carry their own bias (the SDP's BS reads it)")
    # On a batch fp_nvdla's bits are input 0's (sdp_on_batch).
    return run_all(a, cases, cpu, lambda c: (c["want"], None), run, f"fp16 {what}",
                   notes=notes, refusals=True, first_only=a.batch)


def pdp_cpu_outputs(cases, build, arithmetic):
    """The project's CPU execution of each pooling case on plain tensors
    (--dla-lower-to-reference with `arithmetic`, mlir-runner): fp16 bits."""
    import run_layers
    built = []
    for c in cases:
        x = c["x"].view(np.float16)[None]
        out_shape = (1,) + c["want"].shape
        (kh, kw), (sh, sw), p = c["kernel"], c["stride"], c["pad"]
        op = (f"dla.pool {c['method']} %a0 kernel [{kh}, {kw}] stride [{sh}, {sw}] pad [{p[0]}, "
              f"{p[1]}, {p[2]}, {p[3]}] : {run_layers.tensor_type(x.shape, 'f16')} -> "
              f"{run_layers.tensor_type(out_shape, 'f16')}")
        case = run_layers.Case(c["name"], [(x, "f16")], op, out_shape, "f16",
                               np.zeros(out_shape, np.float16))
        case.bits = True
        built.append(case)
    results = run_layers.run(built, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c["want"].shape) for r, c in zip(results, cases)]


def on_batch(rng, c, draw_input, expect):
    """--batch: case `c` (one input, C x H x W) on a batch of 2 to 4; each
    further input drawn by draw_input(shape), its result expect(x) (the
    inputs are independent: outside NVDLA's batch mode the layer is one
    operation per input). x and want become N x C x H x W, the function's
    tensors N = b."""
    b = int(rng.integers(2, 5))
    xs = [c["x"]] + [draw_input(c["x"].shape) for _ in range(b - 1)]
    wants = [c["want"]] + [expect(x) for x in xs[1:]]
    return dict(c, x=np.stack(xs), want=np.stack(wants),
                func=c["func"].replace("tensor<1x", f"tensor<{b}x"))


def nchw(x):
    """fp16 bits as N x C x H x W (a single input's C x H x W gets N = 1)."""
    return x.view(np.float16) if x.ndim == 4 else x.view(np.float16)[None]


def main_pdp(a):
    build, translate, player, root, env = setup(a, "dla-fp16-pdp-")
    rng = np.random.default_rng(a.seed)
    cases = [fp16_cases_pdp.draw(rng, n) for n in range(a.count)]
    if a.batch:
        cases = [on_batch(rng, c, lambda sh: fp16_cases_pdp.values(rng, sh, special=False),
                          lambda x, c=c: fp.pdp_fp16(x, c["method"], c["kernel"], c["stride"],
                                                     c["pad"]).astype(np.uint16))
                 for c in cases]
    cpu = pdp_cpu_outputs(cases, build, a.fp16_arithmetic) if a.expect == "cpu" else None

    def run(c, want, name):
        blobs = {"arg0.bin": nvdla_ref.pack(nchw(c["x"]), ENC, "f16"),
                 "result0.bin": nvdla_ref.pack(nchw(want), ENC, "f16")}
        return run_case(c["name"], c["func"], blobs, root, translate, player, env, name)

    # NaNs compare by bits: the IEEE reference has no payload to keep (and
    # takes one input: none on a batch).
    return run_all(a, cases, cpu,
                   lambda c: (c["want"], None if a.batch else fp16_cases_pdp.ideal(c)), run,
                   "fp16 pooling layers on the v1 model", ieee=None if a.batch else "")


def lrn_cpu_outputs(cases, build, arithmetic):
    """The project's CPU execution of each LRN case on plain tensors: fp16 bits."""
    import run_layers
    built = []
    for c in cases:
        x = c["x"].view(np.float16)
        x = x if x.ndim == 4 else x[None]
        op = fp16_cases_lrn.op_text(c, "%a0", run_layers.tensor_type(x.shape, "f16"))
        case = run_layers.Case(c["name"], [(x, "f16")], op, x.shape, "f16",
                               np.zeros(x.shape, np.float16))
        case.bits = True
        built.append(case)
    results = run_layers.run(built, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c["want"].shape) for r, c in zip(results, cases)]


def run_loadable_case(name, func, x, want, root, build, env, expected, resources=""):
    """Writes `func` as a loadable, runs it on NVIDIA's runtime and firmware
    (nv_full, the v1 model) with x's bytes as its input and compares every
    element of its output with `want` (fp16 bits): the failure's message,
    or None. `resources`: the module's dense_resource blobs (constants)."""
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    model, inp, out = (os.path.join(d, f) for f in ("model.nvdla", "input.bin", "out"))
    tr = subprocess.run([os.path.join(build, "bin", "dla-translate"), "--dla-to-nvdla-loadable",
                         "-", "-o", model], input=run_trace.module([func]) + resources,
                        capture_output=True,
                        text=True)
    if tr.returncode:
        return f"dla-translate failed: {tr.stderr.strip()}"
    with open(inp, "wb") as f:
        # fp16 feature data, or the input's bytes themselves (an image's).
        f.write(x if isinstance(x, bytes) else bytes(nvdla_ref.pack(x.view(np.float16), ENC, "f16")))
    run = subprocess.run([os.path.join(build, "nvdla-runtime", "dla-run-loadable"), model,
                          "--input", inp, "--config", "nv_full", "-o", out],
                         capture_output=True, text=True, env=env)
    if run.returncode:
        return f"dla-run-loadable failed: {(run.stdout + run.stderr).strip()[-400:]}"
    with open(os.path.join(out, "output0.bin"), "rb") as f:
        data = f.read()
    got = np.zeros(want.shape, np.uint16)
    for idx, off in nvdla_ref.element_offsets(ENC, want.shape, "f16").items():
        got[idx] = int.from_bytes(data[off:off + 2], "little")
    bad = int((got != want).sum())
    return f"{bad} of {want.size} elements differ from {expected}" if bad else None


def main_cdp(a):
    build, translate, player, root, env = setup(a, "dla-fp16-cdp-")
    rng = np.random.default_rng(a.seed)
    cases = [fp16_cases_lrn.draw(rng, n, a.drawn_tables) for n in range(a.count)]
    if a.batch:
        cases = [on_batch(rng, c, lambda sh: fp16_cases_lrn.data(rng, sh, special=False),
                          lambda x, c=c: fp16_cases_lrn.expected(x, c["alpha"], c["beta"], c["k"],
                                                                 c["size"], c["lut"]))
                 for c in cases]
    if a.swap_priorities:
        # The negative control: fp_nvdla's result had every priority (which
        # table where both under- or overflow, or both hit) been the other.
        cases = [dict(c, want=fp.cdp_fp16(c["x"], c["size"], fp16_cases_lrn.swapped(c["lut"]))
                      .astype(np.uint16)) for c in cases]
    paths = fp16_cases_lrn.table_paths(cases)
    notes = ["square sums: LE under {le_under}, hit {le_hit}, over {le_over}; LO under "
             "{lo_under}, hit {lo_hit}, over {lo_over}; {lo_used} outputs from LO".format(**paths)]
    cpu = lrn_cpu_outputs(cases, build, a.fp16_arithmetic) if a.expect == "cpu" else None

    def run(c, want, name):
        if a.loadable:
            return run_loadable_case(c["name"], c["func"], c["x"][None], want[None], root, build,
                                     env, name)
        blobs = {"arg0.bin": nvdla_ref.pack(nchw(c["x"]), ENC, "f16"),
                 "result0.bin": nvdla_ref.pack(nchw(want), ENC, "f16")}
        return run_case(c["name"], c["func"], blobs, root, translate, player, env, name)

    what = "loadables on NVIDIA's firmware" if a.loadable else "layers"
    # IEEE's x (k + alpha / size S)^-beta is no reference for stated tables.
    ieee = not (a.batch or a.drawn_tables)
    return run_all(a, cases, cpu,
                   lambda c: (c["want"], fp16_cases_lrn.ideal(c) if ieee else None), run,
                   f"fp16 LRN {what} on the v1 model", ieee="" if ieee else None, notes=notes)


def wino_cpu_outputs(drawn, build, arithmetic):
    """The project's CPU execution of each fp16 Winograd layer (the weights
    a constant relayouted to `#dla.weight<winograd, fp16>`, whose stored
    taps the lowering reads; --dla-lower-to-reference with `arithmetic`):
    fp16 bits [K, OH, OW] per case."""
    import run_layers
    cases = []
    for c in drawn:
        x, w = c["x"].view(np.float16)[None], c["w"].view(np.float16)
        out = (1,) + c["out"]
        wenc = fp16_cases_wino.wenc()
        case = run_layers.Case(c["name"], [(x, "f16")], None, out, "f16",
                               np.zeros(out, np.float16))
        wt = run_layers.tensor_type(w.shape, "f16", wenc)
        case.prelude = (f"%wc = arith.constant {run_layers.literal(w)} : "
                        f"{run_layers.tensor_type(w.shape, 'f16')}\n"
                        f"  %w = dla.relayout %wc : {run_layers.tensor_type(w.shape, 'f16')} -> {wt}")
        pad = ", ".join(map(str, c["pad"]))
        case.op = (f"dla.conv winograd %a0, %w pad [{pad}] : {case.arg_type(0)}, {wt} -> "
                   f"{case.result_type()}")
        case.bits = True
        cases.append(case)
    # path llvm: dla-opt's own lowering relayouts the constant weights.
    results = run_layers.run(cases, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, path="llvm", fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c.out_shape[1:]) for r, c in zip(results, cases)]


def ideal_wino(c):
    """IEEE: the exact direct convolution (float64) rounded once to fp16."""
    return ideal(c["x"], c["w"], (1, 1), c["pad"], (1, 1))


def main_wino(a):
    """fp16 Winograd convolutions (fp16_cases_wino.py) on the v1 model,
    expected from fp_nvdla (fp16_cases_wino.expected) or the CPU execution."""
    build, translate, player, root, env = setup(a, "dla-fp16-wino-")
    rng = np.random.default_rng(a.seed)
    drawn = [fp16_cases_wino.draw(rng, n) for n in range(a.count)]
    cpu = wino_cpu_outputs(drawn, build, a.fp16_arithmetic) if a.expect == "cpu" else None
    wenc = fp16_cases_wino.wenc()

    def expect(c):
        x, w = c["x"].view(np.float16), c["w"].view(np.float16)
        return fp16_cases_wino.expected(x, w, c["pad"])[1], ideal_wino(c)

    def run(c, want, name):
        x, w = c["x"].view(np.float16), c["w"].view(np.float16)
        (C, H, W), (K, OH, OW), pad = c["shape"], c["out"], c["pad"]
        xt, wt, ot = ttype((1, C, H, W), ENC), ttype((K, C, 3, 3), wenc), ttype((1, K, OH, OW), ENC)
        wbytes = weight_ref.pack(w, wenc, "f16")["weights"]
        if a.loadable:
            # The weights a constant of their storage bytes (a dense_resource
            # blob: its alignment, 4 bytes little endian, then the bytes).
            key = f"{c['name']}_w"
            lfunc = (f"func.func @{c['name']}(%x: {xt}) -> {ot} {{\n"
                     f"  %w = arith.constant dense_resource<{key}> : {wt}\n"
                     f"  %y = dla.conv winograd %x, %w pad [{', '.join(map(str, pad))}] : {xt}, "
                     f"{wt} -> {ot}\n  return %y : {ot}\n}}\n")
            res = ("{-#\n  dialect_resources: {\n    builtin: {\n"
                   f'      {key}: "0x08000000{bytes(wbytes).hex().upper()}"'
                   "\n    }\n  }\n#-}\n")
            return run_loadable_case(c["name"], lfunc, x[None], want[None], root, build, env,
                                     name, res)
        func = (f"func.func @{c['name']}(%x: {xt}, %w: {wt}) -> {ot} {{\n"
                f"  %y = dla.conv winograd %x, %w pad [{', '.join(map(str, pad))}] : {xt}, {wt} "
                f"-> {ot}\n  return %y : {ot}\n}}\n")
        blobs = {"arg0.bin": nvdla_ref.pack(x[None], ENC, "f16"),
                 "arg1.bin": wbytes,
                 "result0.bin": nvdla_ref.pack(want.view(np.float16)[None], ENC, "f16")}
        return run_case(c["name"], func, blobs, root, translate, player, env, name)

    what = "loadables on NVIDIA's firmware" if a.loadable else "convolutions on the v1 model"
    return run_all(a, drawn, cpu, expect, run, f"fp16 Winograd {what}",
                   ieee=" (the direct convolution, one rounding)")


# 8-bit pixel formats by their components P (NvdlaPixel.h's table; the
# semi-planar ones read Y and UV from two planes).
IMAGE_FORMATS = {1: ["T_R8"], 3: ["T_Y8___U8V8_N444", "T_Y8___V8U8_N444"],
                 4: ["T_A8B8G8R8", "T_A8R8G8B8", "T_B8G8R8A8", "T_R8G8B8A8", "T_X8B8G8R8",
                     "T_X8R8G8B8", "T_B8G8R8X8", "T_R8G8B8X8", "T_A8Y8U8V8", "T_V8U8Y8A8"]}


IMAGE_FORMATS_16 = {1: ["T_R16", "T_R16_I"], 3: ["T_Y16___U16V16_N444"],
                    4: ["T_A16B16G16R16", "T_X16B16G16R16", "T_A16Y16U16V16"]}

# fp16 pixel formats (NvdlaPixel.h: input precision fp16; no semi-planar
# one). T_A16Y16U16V16_F's components lie V, U, Y, A in memory: CDMA
# reorders them (NV_NVDLA_cdma.cpp rgba_idx 2, 1, 0, 3).
IMAGE_FORMATS_F16 = {1: ["T_R16_F"], 4: ["T_A16B16G16R16_F", "T_A16Y16U16V16_F"]}


def fp16_pixels(rng, shape, specials):
    """fp16 pixel components: fp16_data's spread, and with `specials` a
    few NaNs (random payloads and signs) and infinities, which CDMA passes
    unchanged (NAN_TO_ZERO 0)."""
    bits = fp16_data(rng, shape, zeros=0.05)
    if specials:
        r = rng.random(shape)
        sign = rng.integers(0, 2, shape).astype(np.uint16) << 15
        nan = r < 0.03
        bits[nan] = (0x7C00 | rng.integers(1, 0x400, int(nan.sum()))).astype(np.uint16) | sign[nan]
        inf = (r >= 0.03) & (r < 0.04)
        bits[inf] = 0x7C00 | sign[inf]
        # At least one NaN, in the first component (weighted in every layer).
        at = (0,) + tuple(int(rng.integers(0, d)) for d in shape[1:])
        bits[at] = 0x7E00 | int(rng.integers(0, 0x200)) | int(sign[at])
    return bits


def flush_nan16(bits):
    """fp16 bits with NaNs made +0 (what CDMA's NAN_TO_ZERO would do: the
    negative control's expectation)."""
    nan = ((bits >> 10) & 0x1F == 0x1F) & (bits & 0x3FF != 0)
    return np.where(nan, np.uint16(0), bits).astype(np.uint16)


def draw_image(rng, n, mean_step=0, x_offsets=True, bits=8, dense=False, nan_flushed=False,
               memory_order=False):
    """An fp16 image convolution: 8-bit pixels (ui8, or i8 read signed
    through PIXEL_SIGN_OVERRIDE) of a format of P = 1, 3 or 4 components,
    C <= P of them weighted (the others meet zero weights), CDMA's converter
    (offset or per-component means, scale and truncate drawn so that the
    converted values spread over fp16's binades, its rounding and its
    saturation at 65504), kernels up to 7 wide (S * P up to 28; a few 17..20
    wide with P = 4: two 64-element super channels), strides, padding, x
    offsets. `mean_step` (the negative control) adds that to the first mean
    (or the offset) in the expectation only. `x_offsets` False: none (a
    loadable's descriptor has no field for it). `dense`: the negative
    controls' set, many products per atom (4 components, kernels 9 to 20
    wide: S * P 36 to 80, all 4 weighted), images up to 24 columns wider
    than the kernel, and a converter whose step survives its truncate
    (|scale| >= 2^(shift - 1)), so that the controls change most layers.
    `bits` "fp16": fp16 pixels (T_R16_F, T_A16B16G16R16_F,
    T_A16Y16U16V16_F), no converter, half the layers with NaNs and
    infinities; `nan_flushed` (a negative control) flushes their NaNs to
    +0 in the expectation only; `memory_order` (another) expects
    T_A16Y16U16V16_F's components in memory order, not reordered."""
    fp16 = bits == "fp16"
    P = 4 if dense else int(rng.choice([1, 4, 4] if fp16 else [1, 3, 4, 4]))
    fmt = str(rng.choice({8: IMAGE_FORMATS, 16: IMAGE_FORMATS_16, "fp16": IMAGE_FORMATS_F16}[bits][P]))
    c = P if P == 1 or dense else int(rng.integers(P - 1, P + 1))
    wide = P == 4 and rng.random() < (0.4 if dense else 0.1)
    k = int(rng.integers(1, 25))
    r = int(rng.integers(1, 4))
    s = int(rng.integers(17, 21)) if wide else int(rng.integers(9, 17) if dense else rng.integers(1, 8))
    pad, h, w, sy, sx, oh, ow = run_trace.image_window(rng, r, s, wider=25 if dense else 9)
    signed = rng.random() < 0.3
    if fp16:
        # fp16 components: no converter (IN_PRECISION fp16 passes them
        # unchanged; the verifier refuses input_cvt and mean on them).
        elt, specials = "f16", rng.random() < 0.5
        xc = fp16_pixels(rng, (P, h, 1 if dense else w), specials)
        if dense:
            xc = np.repeat(xc, w, axis=2)
        x = xc.view(np.float16)
        if nan_flushed:
            xc = flush_nan16(xc)
        if memory_order and fmt == "T_A16Y16U16V16_F":
            xc = xc[[2, 1, 0, 3]]  # V, U, Y, A: as they lie in memory
        return image_case(rng, n, P, fmt, x, elt, xc, k, c, r, s, pad, sy, sx, oh, ow, dense,
                          x_offsets, None, specials=specials)
    elt = ("i" if signed else "ui") + str(bits)
    raw = rng.integers(0, 1 << bits, (P, h, 1 if dense else w))
    if dense:  # constant along the line: paired weights' products cancel
        raw = np.repeat(raw, w, axis=2)
    half = 1 << (bits - 1)
    x = (raw - 2 * half * (raw >= half) if signed else raw).astype(
        {"i8": np.int8, "ui8": np.uint8, "i16": np.int16, "ui16": np.uint16}[elt])
    xbits = raw.astype(np.int64)
    sx_val = np.where(signed & (xbits >= half), xbits - 2 * half, xbits)
    # The converter: values of 2^-4..2^16 after the shift.
    shift = int(rng.integers(0, 13)) + (int(rng.integers(0, 9)) if bits == 16 else 0)
    scale = int(rng.choice([1, int(rng.integers(1, 1 << 15)), -int(rng.integers(1, 1 << 15))]))
    if dense:  # the mean's step survives the truncate and fp16, unsaturated
        scale = int(rng.choice([-1, 1])) * int(rng.integers(max(1, 1 << shift >> 1),
                                                            min(1 << 15, 64 << shift)))
    if rng.random() < 0.5:
        mean = [int(rng.integers(-128, 256)) if bits == 8 else int(rng.integers(-32768, 32768))
                for _ in range(4)]
        offset = 0
    else:
        mean, offset = None, int(rng.integers(-300, 301))
    alu = (np.array(mean[:P]) if mean else np.full(P, offset))[:, None, None].copy()
    alu[0] += mean_step
    xc = fp.cdma_cvt_image_fp16(sx_val, signed=signed, alu=alu, scale=scale, truncate=shift)
    attrs = f" input_cvt <offset = {offset}, scale = {scale}, shift = {shift}>"
    if mean:
        attrs += " mean [" + ", ".join(map(str, mean)) + "]"
    return image_case(rng, n, P, fmt, x, elt, xc, k, c, r, s, pad, sy, sx, oh, ow, dense,
                      x_offsets, attrs)


def image_case(rng, n, P, fmt, x, elt, xc, k, c, r, s, pad, sy, sx, oh, ow, dense, x_offsets,
               cvt_attrs, specials=False):
    """draw_image's weights, x offset, post-extension and function around
    the drawn pixels `x` (`elt`) and their fp16 values after CDMA's
    converter `xc` (fp16 bits, [P, H, W]); `cvt_attrs`: the converter's
    attributes (None: fp16 pixels, none)."""
    h, w = x.shape[1:]
    # Weights over 2^-14..2^5: products of one atom many binades apart, so
    # that CMAC's alignment to the atom's largest exponent truncates.
    wt = fp16_data(rng, (k, c, r, s), zeros=0.1)
    spread = (rng.standard_normal((k, c, r, s)) * 2.0 ** rng.integers(-14, 6, (k, c, r, s)))
    wt = np.where(wt & 0x7FFF == 0, wt, spread.astype(np.float16).view(np.uint16))
    if dense:
        # Small weights (2^-14..2^-10), and pairs of kernel columns of large
        # ones (2^0..2^5) of opposite signs, whose products cancel on the
        # constant lines: the result is the small products', which an image
        # atom truncates at its large products' exponent group and a direct
        # convolution's atom (one kernel column) of small ones only does not.
        small = rng.standard_normal((k, c, r, s)) * 2.0 ** rng.integers(-14, -10, (k, c, r, s))
        cols = rng.permutation(s)[:2 * (s // 4)].reshape(-1, 2)
        for j, jj in cols:
            big = rng.standard_normal((k, c, r)) * 2.0 ** rng.integers(0, 5, (k, c, r))
            small[..., j], small[..., jj] = big, -big
        wt = small.astype(np.float16).view(np.uint16)
    x_offset = int(rng.choice([0, 0, 1, 2, 3])) if x_offsets else 0
    penc = f"#dla.pixel<{fmt}{f', x_offset = {x_offset}' if x_offset else ''}>"
    # Post-extension (E kernel rows in one 64-element atom, E * S * P <=
    # 32 here), sometimes.
    post = int(rng.choice([1, 1, 2, 4]))
    if r == 1 or post * s * P > 32:
        post = 1
    wenc = f"#dla.weight<image, fp16, channels = {P}" + (
        f", post_extension = {post}, stride = [{sy}, {sx}]>" if post > 1 else ">")
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]" + (cvt_attrs or "")
    xtype = f"tensor<1x{P}x{h}x{w}x{elt}, {penc}>"
    wtype = f"tensor<{k}x{c}x{r}x{s}xf16, {wenc}>"
    otype = ttype((1, k, oh, ow), ENC)
    func = (f"func.func @image_{n}(%x: {xtype}, %w: {wtype}) -> {otype} {{\n"
            f"  %y = dla.conv image %x, %w{attrs} : {xtype}, {wtype} -> {otype}\n"
            f"  return %y : {otype}\n}}\n")
    op = f"dla.conv image %a0, %a1{attrs}"
    return dict(name=f"image_{n}", x=x, elt=elt, penc=penc, xc=xc, w=wt, wenc=wenc, post=post,
                stride=(sy, sx), pad=tuple(pad), func=func, op=op, out=(1, k, oh, ow),
                specials=specials)


def image_cpu_outputs(drawn, build, arithmetic):
    """The project's CPU execution of each drawn image convolution (plain
    tensors): fp16 bits [K, OH, OW] per case."""
    import run_layers
    cases = []
    for c in drawn:
        x, w = c["x"][None], c["w"].view(np.float16)
        y = np.zeros(c["out"], np.float16)
        # The weights encoded: their post-extension decides CSC's atoms.
        case = run_layers.Case(c["name"], [(x, c["elt"]), (w, "f16")], "", y.shape, "f16", y,
                               encodings={1: c["wenc"]})
        case.op = (f"{c['op']} : {case.arg_type(0)}, {case.arg_type(1)} -> "
                   f"{run_layers.tensor_type(y.shape, 'f16')}")
        case.bits = True
        cases.append(case)
    results = run_layers.run(cases, os.path.join(build, "bin", "dla-opt"),
                             run_layers.DEFAULT_LLVM_BIN, fp16=arithmetic)
    return [r.astype(np.uint16).reshape(c.out_shape[1:]) for r, c in zip(results, cases)]


def main_image(a):
    """--layer image: fp16 image convolutions on the v1 model against
    fp_nvdla (cdma_cvt_image_fp16, image_conv_fp16, the SDP's converter) or
    the CPU execution."""
    build, translate, player, root, env = setup(a, "dla-fp16-image-")
    rng = np.random.default_rng(a.seed)
    drawn = [draw_image(rng, n, a.mean_step, x_offsets=not a.loadable, bits=a.pixel_bits,
                        dense=a.dense_atoms, nan_flushed=a.nan_flushed,
                        memory_order=a.memory_order)
             for n in range(a.count)]
    cpu = image_cpu_outputs(drawn, build, a.fp16_arithmetic) if a.expect == "cpu" else None
    name = expected_name(a)
    if a.mean_step:
        name += f" with the first mean {a.mean_step:+d}"
    if a.direct_atoms:
        name += " with a direct convolution's atoms"
    if a.nan_flushed:
        name += " with NaN pixels flushed to +0"
    if a.memory_order:
        name += " with T_A16Y16U16V16_F in memory order"

    def expect(c):
        if a.direct_atoms:
            # The negative control: CMAC atoms of one kernel position each
            # (a direct convolution's), the weighted components only.
            y32 = fp.conv_fp16(c["xc"][:c["w"].shape[1]], c["w"], c["stride"], c["pad"])
        else:
            y32 = fp.image_conv_fp16(c["xc"], c["w"], c["stride"], c["pad"], c["post"])
        return fp.fp32_to_fp16(y32), None

    def run(c, want, name):
        pixels = nvdla_ref.pack(c["x"][None], c["penc"], c["elt"])
        wbytes = weight_ref.pack(c["w"].view(np.float16), c["wenc"], "f16")["weights"]
        if a.loadable:
            # The weights a constant of their storage bytes, the image the input.
            wtype = c["func"].split("%w: ", 1)[1].split(") -> ", 1)[0]
            func = c["func"].replace(f", %w: {wtype}", "").replace(
                "{\n", f"{{\n  %w = arith.constant {run_trace.resource(c['name'] + '_w', wbytes)}"
                [:-len(f"tensor<{len(wbytes)}xi8>")] + f"{wtype}\n", 1)
            return run_loadable_case(c["name"], func, bytes(pixels), want[None], root, build, env,
                                     name)
        blobs = {"arg0.bin": pixels, "arg1.bin": wbytes,
                 "result0.bin": nvdla_ref.pack(want.view(np.float16)[None], ENC, "f16")}
        return run_case(c["name"], c["func"], blobs, root, translate, player, env, name)

    wide = sum(c["w"].shape[3] * c["x"].shape[0] > 64 for c in drawn)
    posted = sum(c["post"] > 1 for c in drawn)
    what = "image loadables on NVIDIA's firmware" if a.loadable else "image convolutions"
    notes = [f"{wide} of {a.count} with two super channels (S * P > 64), {posted} "
             "with post-extension"]
    if a.pixel_bits == "fp16":
        notes.append(f"{sum(c['specials'] for c in drawn)} of {a.count} with NaN and infinite "
                     f"pixels, {sum('T_A16Y16U16V16_F' in c['penc'] for c in drawn)} of "
                     "T_A16Y16U16V16_F")
    return run_all(a, drawn, cpu, expect, run, f"fp16 {what} on the v1 model", name=name,
                   notes=notes, refusals=True)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])

    def flag(name, help):
        p.add_argument(name, action="store_true", help=help)

    p.add_argument("--count", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--build", required=True)
    p.add_argument("--keep")
    p.add_argument("--expect", choices=["nvdla", "ideal", "cpu"], default="nvdla",
                   help="the expected bytes: fp_nvdla's (default), IEEE's, or the project's "
                        "CPU execution's (--dla-lower-to-reference and mlir-runner)")
    p.add_argument("--fp16-arithmetic", choices=["hardware", "ideal"], default="hardware",
                   help="with --expect cpu: the CPU execution's fp16 arithmetic")
    p.add_argument("--layer", choices=["conv", "lut", "sdp", "conv-sdp", "implicit", "conv-implicit",
                                       "clamp", "pdp", "cdp", "winograd", "wino-sdp", "image", "ew",
                                       "conv-ew", "implicit3", "conv-implicit3", "wino-ew",
                                       "wino-implicit", "ew-lut", "conv-ew-lut", "wino-ew-lut"],
                   default="conv")
    flag("--lut-on-fp16", "--layer ew-lut / conv-ew-lut, the negative control: fp_nvdla's LUT on "
         "the stages' value rounded to fp16 (a table per fp16 input), not on their fp32")
    p.add_argument("--pixel-bits", type=lambda v: v if v == "fp16" else int(v),
                   choices=[8, 16, "fp16"], default=8,
                   help="--layer image: 8-bit integer pixel components (default), 16-bit ones "
                        "or fp16 ones (T_R16_F, T_A16B16G16R16_F, T_A16Y16U16V16_F)")
    flag("--memory-order", "--layer image --pixel-bits fp16, the negative control: expected with "
         "T_A16Y16U16V16_F's components in memory order (V, U, Y, A), not as CDMA reorders them")
    flag("--nan-flushed", "--layer image --pixel-bits fp16, the negative control: expected with "
         "NaN pixels flushed to +0 (the program leaves NAN_TO_ZERO 0)")
    flag("--direct-atoms", "--layer image, the negative control: expected with CMAC atoms of one "
         "kernel position each (fp_nvdla.conv_fp16), not CSC's image atoms")
    flag("--dense-atoms", "--layer image: the negative controls' case set, many products per atom "
         "(4 components, kernels 9 to 20 wide, wider images) and converters whose step survives "
         "their truncate")
    p.add_argument("--mean-step", type=int, default=0,
                   help="--layer image, the negative control: the expectation's first mean "
                        "(or offset) this much off the program's")
    flag("--loadable", "--layer cdp, winograd, image, ew: as loadables on NVIDIA's runtime and "
         "firmware")
    flag("--compressed", "conv: sparse weights compressed by the reference packer, held by the "
         "program as a dla.weight_constant (WGS, WMB and data surfaces)")
    flag("--swap-compressed", "with --compressed, the negative control: two weights of each "
         "compressed data surface trade places")
    flag("--drawn-tables", "--layer cdp: each LRN states a random float-mode table (lut <...>: "
         "small or large ranges, every priority, slopes), so that square sums fall under, on and "
         "past both tables")
    flag("--swap-priorities", "with --drawn-tables, the negative control: expected with every "
         "LE / LO priority the other table")
    flag("--int16-out", "--layer sdp, conv-sdp, clamp, ew, conv-ew (after Winograd the precision "
         "rules keep fp16): the SDP writes int16 (an fp16 pipeline's: sdp_c.cpp Fp32ToFp16, then "
         "Fp16ToInt16), expected fp_nvdla.fp16_to_int16 of its fp16 result or the CPU execution")
    p.add_argument("--int16-control", choices=["even", "saturate-off"],
                   help="with --int16-out --expect nvdla, the negative controls: expected "
                        "rounded half to even, or without saturation")
    flag("--batch", "--layer pdp, cdp: each layer on a batch of 2 to 4 inputs (one operation per "
         "input), expected from fp_nvdla per input; offline --layer sdp, ew, implicit, ew-lut and "
         "on the fly conv-ew-lut (a direct convolution and its LUT SDP in NVIDIA's batch mode "
         "where the plan runs it so): expected from the CPU execution, its input 0 compared with "
         "fp_nvdla")
    a = p.parse_args()
    if a.batch and not ((a.layer in ("pdp", "cdp") and a.expect == "nvdla") or
                        (a.layer in BATCH_SDP_LAYERS and a.expect == "cpu")) or \
            a.batch and a.loadable:
        p.error("--batch draws --layer pdp or cdp expected from fp_nvdla (--expect nvdla), or "
                "--layer " + ", ".join(BATCH_SDP_LAYERS) + " expected from the CPU execution "
                "(--expect cpu), as register programs")
    if a.int16_out and (a.loadable or a.batch or a.layer not in (
            "sdp", "conv-sdp", "clamp", "ew", "conv-ew")):
        p.error("--int16-out draws --layer sdp, conv-sdp, clamp, ew or conv-ew as register "
                "programs, one input each")
    if a.int16_control and (not a.int16_out or a.expect != "nvdla"):
        p.error("--int16-control changes --int16-out's fp_nvdla expectation")
    if a.swap_compressed and not a.compressed:
        p.error("--swap-compressed changes --compressed weights")
    if a.compressed and a.layer != "conv":
        p.error("--compressed draws convolutions (--layer conv)")
    if a.layer == "pdp":
        sys.exit(main_pdp(a))
    if a.dense_atoms and a.layer != "image":
        p.error("--dense-atoms draws --layer image's cases")
    if (a.direct_atoms or a.mean_step or a.nan_flushed or a.memory_order) and \
            (a.layer != "image" or a.expect != "nvdla"):
        p.error("--direct-atoms, --mean-step, --nan-flushed and --memory-order change --layer "
                "image's fp_nvdla expectation")
    if a.pixel_bits == "fp16" and (a.mean_step or a.dense_atoms):
        p.error("--pixel-bits fp16 draws no converter and no dense atoms")
    if (a.nan_flushed or a.memory_order) and a.pixel_bits != "fp16":
        p.error("--nan-flushed and --memory-order change --pixel-bits fp16's expectation")
    if a.layer == "image":
        if a.expect == "ideal":
            p.error("--layer image compares with fp_nvdla or the CPU execution")
        sys.exit(main_image(a))
    if a.layer == "winograd":
        sys.exit(main_wino(a))
    if a.loadable and a.layer not in ("cdp", "winograd", "image", "ew", "ew-lut"):
        p.error("--loadable runs --layer cdp, winograd, image, ew or ew-lut")
    if a.drawn_tables and (a.layer != "cdp" or a.expect == "ideal"):
        p.error("--drawn-tables draws --layer cdp, expected from fp_nvdla or the CPU execution")
    if a.swap_priorities and (not a.drawn_tables or a.expect != "nvdla"):
        p.error("--swap-priorities changes --drawn-tables' fp_nvdla expectation")
    if a.layer == "cdp":
        sys.exit(main_cdp(a))
    if a.layer == "lut":
        sys.exit(main_lut(a))
    if a.layer in ("sdp", "conv-sdp", "implicit", "conv-implicit", "clamp", "wino-sdp", "ew",
                   "conv-ew", "implicit3", "conv-implicit3", "wino-ew", "wino-implicit", "ew-lut",
                   "conv-ew-lut", "wino-ew-lut"):
        sys.exit(main_sdp(a))
    build, translate, player, root, env = setup(a, "dla-fp16-")
    rng = np.random.default_rng(a.seed)
    drawn = [draw(rng, n, a.compressed, a.swap_compressed) for n in range(a.count)]
    cpu = cpu_outputs(drawn, build, a.fp16_arithmetic) if a.expect == "cpu" else None

    def expect(c):
        y32 = fp.conv_fp16(c["x"], c["w"], c["stride"], c["pad"], c["dilation"])
        return fp.fp32_to_fp16(y32), ideal(c["x"], c["w"], c["stride"], c["pad"], c["dilation"])

    def run(c, want, name):
        blobs = {"arg0.bin": nvdla_ref.pack(c["x"].view(np.float16)[None], ENC, "f16"),
                 "result0.bin": nvdla_ref.pack(want.view(np.float16)[None], ENC, "f16")}
        if not c["compressed"]:
            blobs["arg1.bin"] = weight_ref.pack(c["w"].view(np.float16), WENC, "f16")["weights"]
        return run_case(c["name"], c["func"], blobs, root, translate, player, env, name)

    notes = [f"{sum(c['compressed'] for c in drawn)} of {a.count} with compressed weights"] \
        if a.compressed else []
    sys.exit(run_all(a, drawn, cpu, expect, run, "fp16 convolutions on the v1 model",
                     ieee=" (exact, one rounding)", notes=notes))


if __name__ == "__main__":
    main()
