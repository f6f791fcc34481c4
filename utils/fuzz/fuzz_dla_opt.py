#!/usr/bin/env python3
"""Random, mostly-malformed inputs for dla-opt: every run must end in success
or in located diagnostics, never in a crash, an abort or a hang.

Each case is a small module mixing encodings (chunked, NVDLA), layer ops and
relayouts of constants, with random (often invalid or extreme) parameters,
shapes, element types, modes and precisions. Cases run in batches through
`dla-opt -split-input-file --dla-check-precision --dla-pack-weights`; a batch
that does not exit with 0 or 1 is re-run case by case to name the culprit.

Usage: fuzz_dla_opt.py DLA_OPT [--seed S] [--count N]
Prints "N passed, 0 failed" when no case crashed.
"""
import argparse
import random
import subprocess
import sys

ELEMS = ["i8", "i16", "f16", "ui8", "ui16", "i32", "f32", "bf16", "i1", "index", "si8"]
PRESETS = ["flat", "nchw", "depth32", "crouton", "crouton4x1", "crouton2x2", "crouton2",
           "conv_weight", "bogus"]
PIXELS = ["T_R8", "T_R10", "T_R16_F", "T_R16_I", "T_A8B8G8R8", "T_A2B10G10R10",
          "T_Y8___U8V8_N444", "T_Y16___V16U16_N444", "T_A16B16G16R16_F", "T_X8R8G8B8"]
PRECS = ["int8", "int16", "fp16", "int4"]
EXTREME = [0, 1, 2, 3, 7, 31, 32, 33, 64, 4096, -1, -32, 2**31, 2**40, 2**62, 2**63 - 1]


def num(r, lo=0, hi=9):
    return r.choice(EXTREME) if r.random() < 0.15 else r.randint(lo, hi)


def shape(r, rank):
    return [num(r, 1, 9) if r.random() > 0.05 else "?" for _ in range(rank)]


def tensor(dims, elem, enc=None):
    s = "x".join(str(d) for d in dims)
    body = f"{s}x{elem}" if dims else elem
    return f"tensor<{body}, {enc}>" if enc else f"tensor<{body}>"


def chunked(r):
    if r.random() < 0.4:
        return f"#dla.chunked<{r.choice(PRESETS)}>", 4
    rank = r.randint(0, 4)
    pairs = [(d, 0) for d in range(rank)]
    for _ in range(r.randint(0, 4)):
        pairs.append((r.randint(-1, rank), num(r, 1, 8)))
    r.shuffle(pairs)
    if r.random() < 0.2 and pairs:
        pairs.pop()
    return "#dla.chunked<[" + ",".join(f"({d},{s})" for d, s in pairs) + "]>", rank


def opt_kv(r, keys):
    kv = [f"{k} = {num(r, 0, 4096)}" for k in keys if r.random() < 0.3]
    return (", " + ", ".join(kv)) if kv else ""


def weight(r):
    fmt = r.choice(["direct", "image", "winograd", "deconv", "conv"])
    items = []
    if r.random() < 0.4:
        items.append("compressed")
    if fmt == "image" or r.random() < 0.1:
        items.append(f"channels = {num(r, 1, 5)}")
    if r.random() < 0.3:
        items.append(f"post_extension = {r.choice(['2', '4', 'auto', 'none', '3'])}")
    if r.random() < 0.4:
        items.append(r.choice([f"stride = {num(r, 1, 3)}", f"stride = [{num(r, 1, 3)}, {num(r, 1, 3)}]"]))
    if r.random() < 0.3:
        items.append(f"config = {r.choice(['nv_full', 'nv_large', 'nv_small', 'nv_tiny'])}")
    if r.random() < 0.2:
        items.append(f"rounding = {r.choice(['to_nearest_even', 'to_nearest_away'])}")
    extra = "".join(", " + i for i in items)
    return f"#dla.weight<{fmt}, {r.choice(PRECS)}{extra}>", 4


def nvdla(r):
    kind = r.choice(["feature", "pixel", "bias", "prelu", "batchnorm", "eltwise", "weight"])
    if kind == "weight":
        return weight(r)
    p = r.choice(PRECS)
    ds = r.choice(["", ", data_size = one_byte", ", data_size = two_byte"])
    if kind == "feature":
        return f"#dla.feature<{p}{opt_kv(r, ['line_stride', 'surface_stride', 'batch_stride'])}>", 4
    if kind == "pixel":
        return (f"#dla.pixel<{r.choice(PIXELS)}"
                f"{opt_kv(r, ['line_stride', 'x_offset', 'uv_line_stride', 'uv_offset'])}>"), 4
    if kind == "bias":
        m = r.choice(["per_layer", "per_channel", "per_element"])
        rank = {"per_layer": 0, "per_channel": 1, "per_element": r.choice([3, 4])}[m]
        return f"#dla.bias<{m}, {p}{ds}{opt_kv(r, ['line_stride'])}>", rank
    if kind == "prelu":
        return f"#dla.prelu<{p}{ds}>", 1
    if kind == "batchnorm":
        m = r.choice(["per_layer", "per_channel", "per_element"])
        return f"#dla.batchnorm<{m}, {p}{ds}>", {"per_layer": 1, "per_channel": 2,
                                                  "per_element": 4}[m]
    comps = r.choice(["", ", components = 1", ", components = 2", ", components = 3"])
    return f"#dla.eltwise<{p}{comps}{ds}>", r.choice([3, 4, 5])


PREC_ELEM = {"int8": "i8", "int16": "i16", "fp16": "f16"}


def relayout_case(r, name):
    enc, rank = chunked(r) if r.random() < 0.5 else nvdla(r)
    rank = rank if r.random() > 0.1 else r.randint(0, 5)
    dims = [num(r, 1, 6) for _ in range(rank)]
    if any(d <= 0 or d > 64 for d in dims):
        dims = [min(max(d, 1), 6) if r.random() < 0.7 else d for d in dims]
    # Mostly the element type the encoding's precision wants, to get past
    # the verifiers into the packer.
    elem = r.choice(ELEMS[:6])
    for prec, e in PREC_ELEM.items():
        if prec in enc and r.random() < 0.8:
            elem = e
    if "pixel" in enc and r.random() < 0.8:
        elem = "f16" if "_F" in enc else ("ui8" if "8" in enc and "16" not in enc else "ui16")
        if len(dims) == 4:
            dims[0] = 1
            dims[1] = r.choice([1, 3, 4])
    src, dst = tensor(dims, elem), tensor(dims, elem, enc)
    value = "dense<1>" if r.random() < 0.8 else f'dense<"0x{"AB" * 3}">'
    if "weight" in enc and elem == "f16" and r.random() < 0.5:
        # A fused truncf of an f32 constant.
        f32 = tensor(dims, "f32")
        mode = r.choice(["", " to_nearest_away", " downward"])
        return (f"func.func @{name}() -> {dst} {{\n"
                f"  %0 = arith.constant dense<1.5> : {f32}\n"
                f"  %t = arith.truncf %0{mode} : {f32} to {src}\n"
                f"  %1 = dla.relayout %t : {src} -> {dst}\n"
                f"  return %1 : {dst}\n}}\n")
    return (f"func.func @{name}() -> {dst} {{\n"
            f"  %0 = arith.constant {value} : {src}\n"
            f"  %1 = dla.relayout %0 : {src} -> {dst}\n"
            f"  return %1 : {dst}\n}}\n")


def layer_case(r, name):
    e = lambda: r.choice(ELEMS) if r.random() < 0.2 else r.choice(["i8", "i16", "f16"])
    n, c, h, w = (num(r, 1, 8) if r.random() > 0.1 else "?" for _ in range(4))
    k, kr, ks = num(r, 1, 8), num(r, 1, 5), num(r, 1, 5)
    x = tensor([n, c, h, w], e(), r.choice([None, None, "#dla.pixel<T_R16_F>",
                                             "#dla.feature<int8>"]))
    wt = tensor([k, c if r.random() > 0.2 else num(r), kr, ks], e())
    y = tensor([n, k, num(r, 1, 8), num(r, 1, 8)], e())
    arr = lambda m: "[" + ", ".join(str(num(r, 0, 3)) for _ in range(m)) + "]"
    op = r.choice(["conv", "sdp", "pool", "lrn"])
    if op == "conv":
        mode = r.choice(["direct", "winograd", "image"])
        extra = "".join(f" {kw} {arr(m)}" for kw, m in
                        [("stride", r.choice([2, 1, 3])), ("pad", r.choice([4, 2])),
                         ("dilation", 2)] if r.random() < 0.5)
        body = f"  %y = dla.conv {mode} %x, %w{extra} : {x}, {wt} -> {y}\n"
        y2 = tensor([n, k, num(r, 1, 8), num(r, 1, 8)], e())
        if r.random() < 0.5:
            body += f"  %z = dla.sdp on_the_fly %y relu : {y} -> {y2}\n"
    elif op == "sdp":
        mode = r.choice(["offline", "on_the_fly"])
        body = f"  %y = dla.sdp {mode} %x : {x} -> {tensor([n, c, h, w], e())}\n"
    elif op == "pool":
        body = (f"  %y = dla.pool {r.choice(['max', 'min', 'average'])} %x kernel {arr(2)}"
                f" stride {arr(2)} : {x} -> {y}\n")
    else:
        body = f"  %y = dla.lrn %x size {num(r, 0, 9)} : {x} -> {tensor([n, c, h, w], e())}\n"
    return f"func.func @{name}(%x: {x}, %w: {wt}) {{\n{body}  return\n}}\n"


def make_case(r, i):
    return (relayout_case if r.random() < 0.5 else layer_case)(r, f"case{i}")


def run(dla_opt, text):
    p = subprocess.run([dla_opt, "-split-input-file", "--dla-check-precision",
                        "--dla-pack-weights=max-bytes=67108864", "-o", "/dev/null", "-"],
                       input=text, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dla_opt")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--batch", type=int, default=50)
    args = ap.parse_args()
    r = random.Random(args.seed)
    cases = [make_case(r, i) for i in range(args.count)]
    bad = []
    for b in range(0, len(cases), args.batch):
        batch = cases[b:b + args.batch]
        code, err = run(args.dla_opt, "\n// -----\n".join(batch))
        if code in (0, 1) and (code == 0 or "error:" in err):
            continue
        for c in batch:
            code, err = run(args.dla_opt, c)
            if code not in (0, 1) or (code == 1 and "error:" not in err):
                bad.append((c, code, err[-2000:]))
    for c, code, err in bad:
        print(f"--- crash (exit {code}) on:\n{c}\n{err}", file=sys.stderr)
    print(f"{len(cases) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
