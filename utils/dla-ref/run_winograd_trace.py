#!/usr/bin/env python3
"""Random int8 Winograd convolutions (nv_full: 3x3, stride 1, feature
input) run on NVIDIA's v1 C model from the register programs
dla-translate --dla-to-nvdla-trace writes, each compared bit for bit with
the project's CPU execution of the same layer (issue 47), as run_trace.py
does for direct convolutions.

    PYTHONPATH=BUILD_DIR/python_packages \
    run_winograd_trace.py [--kind conv|mem|big|extreme] --count N --seed S --build BUILD_DIR
                          [--keep DIR] [--batch]

The v1 model is the reference. Two numpy checks independent of the code
under test are made on the CPU execution's results as well:

- every case whose SDP is bypassed (the convolution's int32 result through
  CACC's clip to int8) equals winograd_ref.py's Winograd (the C model's
  PRA, products and output transform in numpy, with weight_ref.py's taps)
  followed by int_conv.cacc_clip and int8 saturation;
- the "exact" cases (inputs within +-31, so PRA never saturates; weights
  multiples of 4 within +-56, so every tap G g G^T is an integer within
  int8) of those equal numpy's direct convolution: int8 Winograd is exact.

Prints `N of M programs match the CPU execution on nv_full`, then the
numpy counts; exits 1 on any mismatch. fp16 Winograd layers run through
run_fp16_trace.py --layer winograd / wino-sdp (fp16_cases_wino.py), which
has the fp16 harness (fp_nvdla's expectations, the CPU execution's fp16
arithmetic modes).
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

import int_cases_sdp as sdp_cases
import int_conv
import nvdla_ref
import run_trace as rt
import winograd_ref
from int_arith import sat

CONFIG = "nv_full"
WGENC = f"#dla.weight<winograd, int8, config = {CONFIG}>"


def winograd_case(rng, n, kind):
    """(case, numpy facts): 3x3 stride 1, padding 0..2 a side, an output of
    whole 4x4 tiles, the CDMA's padding value sometimes, CACC's clip.
    `kind` "conv": outputs 4..16 a side, 1..70 channels, 1..40 kernels, an
    on-the-fly SDP of random register stages or none; "mem": the same with
    an SDP reading memory operands (run_trace.sdp_mem_stages: per-channel
    and per-element, through the SDP's read DMAs in Winograd order); "big":
    33..300 channels and 33..160 kernels (several input surfaces and kernel
    groups; the weights in their banks whole, or two / one kernel group at
    a time); "extreme": "conv" with inputs and weights of -128 and 127 only
    (PRA and the taps saturate; the CMAC's 22-bit sums of four products,
    then of the output transform, at their largest)."""
    pad = [int(rng.integers(0, 3)) for _ in range(4)]
    oh, ow = 4 * int(rng.integers(1, 5)), 4 * int(rng.integers(1, 5))
    h, w = oh + 2 - pad[0] - pad[1], ow + 2 - pad[2] - pad[3]
    if kind == "big":
        c, k = int(rng.integers(33, 301)), int(rng.integers(33, 161))
    else:
        c, k = int(rng.integers(1, 71)), int(rng.integers(1, 41))
    shape, wshape, out = (1, c, h, w), (k, c, 3, 3), (1, k, oh, ow)
    attrs = f" stride [1, 1] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]"
    # No input converter: the v1 model's Winograd path has none (the
    # register plan refuses one, DescribeWinograd.cpp).
    cvt = None
    clip = int(rng.integers(0, 13))
    attrs += f" clip_truncate {clip}"
    pad_value = 0
    if any(pad) and rng.random() < 0.4:
        pad_value = int(rng.integers(-128, 128))
        attrs += f" pad_value {pad_value}"
    bypass = kind != "mem" and rng.random() < 0.4
    exact = bypass and pad_value == 0 and rng.random() < 0.6 and kind != "extreme"
    xt, wt, ct = rt.ttype(shape), rt.ttype(wshape, WGENC), rt.ttype(out, None)
    conv = f"dla.conv winograd %x, %w{attrs} : {xt}, {wt} -> "
    operands = []
    if bypass:
        body = f"%y = {conv}{rt.ttype(out)}"
    elif kind == "mem":
        decl, text, ocvt, operands = rt.sdp_mem_stages(rng, out)
        body = (f"%c = {conv}{ct}\n  %y = dla.sdp on_the_fly %c {decl} {' '.join(text)}{ocvt} : "
                f"{ct} -> {rt.ttype(out)}")
    else:
        tame = rng.random() < 0.5
        text = [f"{st} {sdp_cases._x_stage(rng, None, tame)[0]}"
                for st in ("bs", "bn") if rng.random() < 0.6] or \
               [f"bs {sdp_cases._x_stage(rng, None, tame)[0]}"]
        ocvt = " out_cvt " + sdp_cases._cvt(rng, tame)[0] if rng.random() < 0.8 else ""
        body = (f"%c = {conv}{ct}\n  %y = dla.sdp on_the_fly %c {' '.join(text)}{ocvt} : "
                f"{ct} -> {rt.ttype(out)}")
    case = rt.Case(f"winograd_{kind}_{n}", shape, body, out, weight=wshape, operands=operands)
    case.args[1] = ("w", wshape, WGENC)
    if kind == "extreme":  # the CMAC's 22-bit Winograd sums at their largest
        case.data[0] = rng.choice(np.array([-128, 127], np.int8), size=shape)
        case.data[1] = rng.choice(np.array([-128, 127], np.int8), size=wshape)
    elif exact:
        case.data[0] = rng.integers(-31, 32, size=shape).astype(np.int8)
        case.data[1] = (4 * rng.integers(-14, 15, size=wshape)).astype(np.int8)
    facts = dict(pad=pad, cvt=cvt, clip=clip, pad_value=pad_value, bypass=bypass, exact=exact)
    return case, facts


def numpy_result(x, w, f):
    """The bypassed layer's int8 result (NCHW) in numpy: CDMA's converter,
    winograd_ref's Winograd in int64, CACC's clip, the int8 output."""
    if f["cvt"]:
        off, scale, shift = f["cvt"]
        x = int_conv.cdma_cvt_feature(x, cvt_en=1, cvt_offset=off, cvt_scale=scale,
                                      cvt_truncate=shift, in_precision="int8",
                                      proc_precision="int8")
    acc = winograd_ref.winograd_conv(x, w, WGENC, pad=f["pad"], pad_value=f["pad_value"],
                                     out="i32")
    return sat(int_conv.cacc_clip(acc, clip_truncate=f["clip"]), 8).astype(np.int8), acc


def direct_acc(x, w, pad):
    """numpy's direct convolution, int64 (stride 1, zero padding)."""
    xp = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh, ow = xp.shape[2] - 2, xp.shape[3] - 2
    y = np.zeros((x.shape[0], w.shape[0], oh, ow), np.int64)
    for r in range(3):
        for s in range(3):
            y += np.einsum("nchw,kc->nkhw", xp[:, :, r:r + oh, s:s + ow],
                           w[:, :, r, s].astype(np.int64))
    return y


def logical(storage, shape):
    """The int8 NCHW values of the result's storage bytes, at the offsets
    nvdla_ref.py derives from the format document."""
    data = np.frombuffer(storage, np.int8)
    y = np.zeros(shape, np.int8)
    for index, offset in nvdla_ref.element_offsets(rt.ENC, shape, "i8").items():
        y[index] = data[offset]
    return y


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", choices=("conv", "mem", "big", "extreme"), default="conv")
    p.add_argument("--count", type=int, default=20)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--build", required=True)
    p.add_argument("--keep")
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--batch", action="store_true",
                   help="each layer on a batch of 2 to 4 inputs (run_trace.batched_case): "
                        "one Winograd operation per input, NVDLA's batch mode being a direct "
                        "convolution's")
    a = p.parse_args()
    rt.configure(CONFIG)
    build = os.path.abspath(a.build)
    translate = os.path.join(build, "bin", "dla-translate")
    player = rt.player_path(build, CONFIG)

    rng = np.random.default_rng(a.seed)
    drawn = [winograd_case(rng, n, a.kind) for n in range(a.count)]
    if a.batch:
        drawn = [(rt.batched_case(lambda *_: c, rng, n), f) for n, (c, f) in enumerate(drawn)]
    cases = [c for c, _ in drawn]
    inputs = [[rng.integers(-128, 128, size=sh).astype(np.int8) if d is None else d
               for (_, sh, _), d in zip(c.args, c.data)] for c in cases]
    results = rt.cpu_run(cases, inputs, build, a.llvm_bin)

    root = a.keep or tempfile.mkdtemp(prefix="dla-winograd-")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    good = numpy_good = numpy_n = exact_good = exact_n = 0
    for (c, f), xs, (stored, ys) in zip(drawn, inputs, results):
        if f["bypass"]:
            want, acc = numpy_result(xs[0], xs[1], f)
            got = logical(ys, c.out_shape)
            numpy_n += 1
            if np.array_equal(want, got):
                numpy_good += 1
            else:
                print(f"{c.name}: CPU execution differs from numpy's Winograd in "
                      f"{int((want != got).sum())} of {want.size} elements\n  {c.body}")
            if f["exact"]:
                exact_n += 1
                if np.array_equal(acc, direct_acc(xs[0], xs[1], f["pad"])):
                    exact_good += 1
                else:
                    print(f"{c.name}: numpy's Winograd differs from the direct convolution")
        tdir, tr = rt.write_program(c, stored, ys, root, translate)
        if tr.returncode:
            print(f"{c.name}: dla-translate failed: {tr.stderr.strip()}\n  {c.body}")
            continue
        run = subprocess.run([player, tdir], capture_output=True, text=True, cwd=tdir, env=env)
        if run.returncode:
            print(f"{c.name}: C model differs: {(run.stdout + run.stderr).strip()}\n  {c.body}")
            continue
        good += 1
    print(f"{good} of {len(cases)} programs match the CPU execution on {CONFIG}")
    print(f"{numpy_good} of {numpy_n} bypassed CPU executions equal numpy's Winograd; "
          f"{exact_good} of {exact_n} exact ones equal numpy's direct convolution")
    ok = good == len(cases) and numpy_good == numpy_n and exact_good == exact_n
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
