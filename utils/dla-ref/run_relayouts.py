#!/usr/bin/env python3
"""Execute lowered relayouts and compare their bytes with the constant folder.

For random cases of every encoding family (chunked presets and random pair
lists, NVDLA feature / pixel / bias / PReLU / batch-norm / element-wise,
uncompressed weights direct / image / deconvolution), one module computes
non-splat data at run time (tensor.generate), relayouts it into the encoding
(code from --dla-lower-to-llvm), prints the storage bytes (dla.to_storage),
relayouts back and prints the logical values. A second module holds the same
data as constants and is folded by --dla-pack-weights. The script checks the
executed bytes against the folder's blob byte for byte, and the round trip
against the data (computed here with numpy from the same formula).

Usage: run_relayouts.py --opt build/bin/dla-opt [--cases 240] [--seed 1] [--fast-paths]
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True

import numpy as np  # noqa: E402

import gen_module as gm  # noqa: E402

SIGNLESS = {"ui8": "i8", "ui16": "i16", "si8": "i8", "si16": "i16"}
VIA = {}         # case -> the encoding its data passes through first
BIT_MASKS = {}   # case -> {channel: mask} for bit-packed pixel formats
SUPPORTED = ("i8", "i16", "i32", "i64", "f16", "f32", "f64")


def data(shape, elt):
    """Element k (row-major) = (37 k + 11) wrapped to the type; floats:
    (37 k + 11) mod 2048 - 1024, exact in f16."""
    k = np.arange(math.prod(shape), dtype=np.int64)
    v = k * 37 + 11
    if elt.startswith("f"):
        return ((v % 2048) - 1024).astype({"f16": np.float16, "f32": np.float32,
                                           "f64": np.float64}[elt]).reshape(shape)
    bits = int(elt[1:])
    v = v % (1 << bits) if bits < 64 else v
    return v.astype(np.uint64).astype({8: np.int8, 16: np.int16, 32: np.int32,
                                       64: np.int64}[bits] if bits < 64 else np.int64,
                                      casting="unsafe").reshape(shape)


def tensor(shape, elt, enc=None):
    return "tensor<" + "".join(f"{e}x" for e in shape) + elt + (f", {enc}" if enc else "") + ">"


def generate(name, shape, elt):
    """tensor.generate of data(shape, elt)."""
    rank = len(shape)
    args = ", ".join(f"%{name}i{d}: index" for d in range(rank))
    lines = [f"  %{name}d = tensor.generate {{"] + ([f"  ^bb0({args}):"] if rank else [])
    lin = "%c0" if rank == 0 else f"%{name}i0"
    for d in range(1, rank):
        lines.append(f"    %{name}m{d} = arith.muli {lin}, %c{shape[d]} : index")
        lines.append(f"    %{name}l{d} = arith.addi %{name}m{d}, %{name}i{d} : index")
        lin = f"%{name}l{d}"
    lines += [f"    %{name}k = arith.index_cast {lin} : index to i64",
              f"    %{name}a = arith.muli %{name}k, %c37_i64 : i64",
              f"    %{name}b = arith.addi %{name}a, %c11_i64 : i64"]
    if elt.startswith("f"):
        lines += [f"    %{name}r = arith.remsi %{name}b, %c2048_i64 : i64",
                  f"    %{name}s = arith.subi %{name}r, %c1024_i64 : i64",
                  f"    %{name}v = arith.sitofp %{name}s : i64 to {elt}"]
    elif elt == "i64":
        lines.append(f"    %{name}v = arith.addi %{name}b, %c0_i64 : i64")
    else:
        lines.append(f"    %{name}v = arith.trunci %{name}b : i64 to {elt}")
    lines += [f"    tensor.yield %{name}v : {elt}", f"  }} : {tensor(shape, elt)}"]
    return lines, sorted(set(shape[1:]))


def print_i32(name, value, n, elt):
    """Lines printing a 1-D tensor<n x elt> widened to i32 (i64: low and high words)."""
    lines = []
    if elt.startswith("f"):
        bits = int(elt[1:])
        lines.append(f"  %{name}bc = arith.bitcast {value} : tensor<{n}x{elt}> to tensor<{n}xi{bits}>")
        value, elt = f"%{name}bc", f"i{bits}"
    if elt == "i64":
        lines.append(f"  %{name}w = arith.trunci {value} : tensor<{n}xi64> to tensor<{n}xi32>")
    elif elt == "i32":
        lines.append(f"  %{name}w = arith.addi {value}, {value} : tensor<{n}xi32>")
        lines[-1] = f"  %{name}w = tensor.cast {value} : tensor<{n}xi32> to tensor<{n}xi32>"
    else:
        lines.append(f"  %{name}w = arith.extsi {value} : tensor<{n}x{elt}> to tensor<{n}xi32>")
    lines += [f"  %{name}m = bufferization.to_buffer %{name}w : tensor<{n}xi32> to memref<{n}xi32>",
              f"  %{name}u = memref.cast %{name}m : memref<{n}xi32> to memref<*xi32>",
              f"  call @printMemrefI32(%{name}u) : (memref<*xi32>) -> ()"]
    return lines


def collect_cases(n, seed):
    """(name, shape, elt, encoding text) for about n cases over all families."""
    per = max(1, n // 3)
    out = []
    for i, c in enumerate(gm.random_cases(per, seed, max_bytes=8192)):
        out.append((f"chunked{i}", c.shape, c.elt, f"#dla.chunked<{c.layout_text()}>"))
    for i, c in enumerate(gm.random_nvdla_cases(per, seed + 1, max_bytes=8192)):
        out.append((f"nvdla{i}", c.shape, SIGNLESS.get(c.elt, c.elt), c.encoding_text()))
        if c.enc.kind == "pixel":
            plane = gm.nv.PIXEL_FORMATS[c.enc.fmt].planes[0]
            if plane.bit_packed:   # 10-bit: storage keeps `width` bits of each channel
                BIT_MASKS[f"nvdla{i}"] = {f.channel: (1 << f.width) - 1 for f in plane.fields}
    i = 0
    rng_seed = seed + 2
    while sum(1 for o in out if o[0].startswith("weight")) < n - 2 * per:
        for c in gm.random_weight_cases(40, rng_seed, max_bytes=8192):
            if c.enc.compressed or c.enc.format == "winograd":
                continue   # only constants pack into these (diagnosed)
            out.append((f"weight{i}", c.shape, c.elt, c.encoding_text()))
            i += 1
            if sum(1 for o in out if o[0].startswith("weight")) >= n - 2 * per:
                break
        rng_seed += 1
    out = [o for o in out if o[2] in SUPPORTED]
    # Encoding -> encoding: every rank-4 NVDLA feature case is also relayouted
    # from its feature encoding straight into packed feature data of its
    # precision (same NCHW reading order: a relayout into an NHWC encoding
    # such as crouton needs a transpose and is rejected).
    for name, shape, elt, enc in list(out):
        if enc.startswith("#dla.feature") and len(shape) == 4:
            VIA[f"{name}x"] = enc
            precision = enc[len("#dla.feature<"):].split(",")[0].split(">")[0].strip()
            out.append((f"{name}x", shape, elt, f"#dla.feature<{precision}>"))
    return out


# Shapes that exercise every fast path of the copy loops (StorageCopy.cpp):
# contiguous runs (vectors, runs longer than a vector, ragged last runs),
# channel-innermost tiles (n x n shuffle blocks of 16-byte vectors for 1, 2,
# 4 and 8-byte elements, the overlapping last tile when the tile width does
# not divide W, ragged channel groups read as zeros, vector.transpose tiles
# when W is narrower than a block or the atom is no power of two, scalar
# columns when W is narrower than the tile), with and without strides.
FAST_CASES = [
    ((1, 55, 55, 60), "i8", "#dla.chunked<crouton>"),
    ((1, 9, 10, 40), "f16", "#dla.chunked<crouton>"),
    ((1, 13, 17, 45), "i8", "#dla.chunked<depth32>"),
    ((1, 7, 9, 33), "i8", "#dla.chunked<crouton2x2>"),
    ((5, 290), "i16", "#dla.chunked<[(0,0),(1,0),(1,100)]>"),
    ((3, 7, 45), "f32", "#dla.chunked<[(0,0),(2,0),(1,0),(2,16)]>"),
    ((3, 7, 45), "f64", "#dla.chunked<[(0,0),(2,0),(1,0),(2,8)]>"),
    ((1, 60, 7, 55), "f16", "#dla.feature<fp16, line_stride = 1792, surface_stride = 12608>"),
    ((1, 60, 7, 55), "f16", "#dla.feature<fp16>"),
    ((1, 32, 4, 56), "f16", "#dla.feature<fp16>"),
    ((1, 70, 4, 37), "i8", "#dla.feature<int8>"),
    ((1, 70, 4, 37), "i8", "#dla.feature<int8, line_stride = 1216, surface_stride = 4896>"),
    ((1, 20, 5, 6), "f16", "#dla.feature<fp16>"),
    ((1, 40, 3, 9), "i8", "#dla.feature<int8>"),
    ((1, 8, 2, 3), "i8", "#dla.feature<int8>"),
    ((3, 3, 13, 70), "f16", "#dla.chunked<conv_weight>"),
    ((3, 3, 13, 70), "i8", "#dla.chunked<conv_weight>"),
    ((1, 9, 13, 70), "i8", "#dla.chunked<crouton4x1>"),
    ((1, 19, 6, 21), "f32", "#dla.chunked<[(0,0),(2,0),(3,0),(1,0),(3,4),(1,4)]>"),
    ((1, 19, 6, 21), "f64", "#dla.chunked<[(0,0),(2,0),(3,0),(1,0),(3,2),(1,2)]>"),
    ((1, 19, 6, 21), "i16", "#dla.chunked<[(0,0),(2,0),(3,0),(1,0),(3,8),(1,12)]>"),
    ((1, 19, 6, 21), "i32", "#dla.chunked<[(0,0),(2,0),(3,0),(1,0),(3,4),(1,4)]>"),
]
# Encoding -> encoding (through the first, then into the second).
FAST_VIA = [
    ((1, 60, 7, 55), "f16", "#dla.feature<fp16, line_stride = 1792, surface_stride = 12608>",
     "#dla.feature<fp16>"),
    ((1, 13, 17, 45), "i8", "#dla.chunked<crouton>", "#dla.chunked<depth32>"),
    ((1, 70, 4, 37), "i8", "#dla.feature<int8>",
     "#dla.feature<int8, line_stride = 1216, surface_stride = 4896>"),
]


def fast_cases():
    out = [(f"fast{i}", shape, elt, enc) for i, (shape, elt, enc) in enumerate(FAST_CASES)]
    for i, (shape, elt, via, enc) in enumerate(FAST_VIA):
        VIA[f"fastvia{i}"] = via
        out.append((f"fastvia{i}", shape, elt, enc))
    return out


def runtime_module(cases):
    consts = {"c0": "arith.constant 0 : index", "c37_i64": "arith.constant 37 : i64",
              "c11_i64": "arith.constant 11 : i64", "c2048_i64": "arith.constant 2048 : i64",
              "c1024_i64": "arith.constant 1024 : i64", "c0_i64": "arith.constant 0 : i64"}
    body = []
    for name, shape, elt, enc in cases:
        gen, dims = generate(name, shape, elt)
        for d in dims:
            consts[f"c{d}"] = f"arith.constant {d} : index"
        body += gen
        plain, coded = tensor(shape, elt), tensor(shape, elt, enc)
        if name in VIA:
            via = tensor(shape, elt, VIA[name])
            body.append(f"  %{name}v = dla.relayout %{name}d : {plain} -> {via}")
            body.append(f"  %{name}e = dla.relayout %{name}v : {via} -> {coded}")
        else:
            body.append(f"  %{name}e = dla.relayout %{name}d : {plain} -> {coded}")
        nbytes = f"%{name}nb"
        body.append(f"  %{name}s = dla.to_storage %{name}e : {coded} -> tensor<NB_{name}_NBxi8>")
        body += print_i32(name + "p", f"%{name}s", f"NB_{name}_NB", "i8")
        body.append(f"  %{name}r = dla.relayout %{name}e : {coded} -> {plain}")
        n = math.prod(shape)
        flat = tensor((n,), elt)
        if len(shape) == 1:
            body.append(f"  %{name}f = tensor.cast %{name}r : {plain} to {flat}")
        else:
            assoc = "[" + ", ".join(str(d) for d in range(len(shape))) + "]"
            body.append(f"  %{name}f = tensor.collapse_shape %{name}r [{assoc}] : {plain} into {flat}"
                        if shape else
                        f"  %{name}f = tensor.expand_shape %{name}r [] output_shape [1] : {plain} into {flat}")
        body += print_i32(name + "q", f"%{name}f", n, elt)
        del nbytes
    head = ["func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}",
            "func.func @main() {"]
    head += [f"  %{k} = {v}" for k, v in consts.items()]
    return "\n".join(head + body + ["  return", "}"]) + "\n"


def folder_module(cases):
    parts = []
    for name, shape, elt, enc in cases:
        d = data(shape, elt)
        lit = 'dense<"0x' + d.astype(d.dtype.newbyteorder("<")).tobytes().hex().upper() + '">'
        plain, coded = tensor(shape, elt), tensor(shape, elt, enc)
        parts.append(f"func.func @{name}() -> {coded} {{\n  %0 = arith.constant {lit} : {plain}\n"
                     f"  %1 = dla.relayout %0 : {plain} -> {coded}\n  return %1 : {coded}\n}}")
    return "\n".join(parts) + "\n"


def folded_blobs(opt, cases):
    out = subprocess.run([opt, "--dla-pack-weights", "-"], input=folder_module(cases),
                         capture_output=True, text=True)
    if out.returncode:
        sys.exit("dla-pack-weights failed:\n" + out.stderr[:4000])
    keys = dict(re.findall(r"func\.func @(\w+)\(\)[^{]*\{\s*%\S+ = arith\.constant "
                           r"dense_resource<([^>]+)>", out.stdout))
    blobs = dict(re.findall(r'^\s*"?([\w.$-]+)"?: "0x([0-9A-Fa-f]*)"', out.stdout, re.M))
    result = {}
    for name, *_ in cases:
        if name not in keys or keys[name] not in blobs:
            sys.exit(f"no folded blob for {name}")
        result[name] = bytes.fromhex(blobs[keys[name]])[4:]  # 4-byte alignment header
    return result


def run(opt, bin_dir, cases, blobs):
    text = runtime_module(cases)
    for name, *_ in cases:
        text = text.replace(f"NB_{name}_NB", str(len(blobs[name])))
    llvm = subprocess.run([opt, "--dla-lower-to-llvm", "-"], input=text, capture_output=True,
                          text=True)
    if llvm.returncode:
        sys.exit("dla-opt --dla-lower-to-llvm failed:\n" + llvm.stderr[:4000])
    libs = ",".join(os.path.join(os.path.dirname(bin_dir), "lib", lib)
                    for lib in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))
    ran = subprocess.run([os.path.join(bin_dir, "mlir-runner"), "-e", "main",
                          "-entry-point-result=void", f"-shared-libs={libs}"],
                         input=llvm.stdout, capture_output=True, text=True)
    if ran.returncode:
        sys.exit("mlir-runner failed:\n" + ran.stderr[:4000])
    chunks = ran.stdout.split("Unranked Memref")[1:]
    if len(chunks) != 2 * len(cases):
        sys.exit(f"expected {2 * len(cases)} printed memrefs, got {len(chunks)}")
    return [np.array([int(v) for v in re.findall(r"-?\d+", ch.split("data =", 1)[1])],
                     dtype=np.int64) for ch in chunks]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opt", required=True)
    p.add_argument("--bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--cases", type=int, default=240)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--batch", type=int, default=60)
    p.add_argument("--print-module", action="store_true")
    p.add_argument("--fast-paths", action="store_true",
                   help="the hand-picked cases of FAST_CASES / FAST_VIA instead of random ones")
    a = p.parse_args()
    cases = fast_cases() if a.fast_paths else collect_cases(a.cases, a.seed)
    if a.print_module:
        print(runtime_module(cases))
        return 0
    bad = checked = 0
    families = {}
    for start in range(0, len(cases), a.batch):
        batch = cases[start:start + a.batch]
        blobs = folded_blobs(a.opt, batch)
        printed = run(a.opt, a.bin, batch, blobs)
        for j, (name, shape, elt, enc) in enumerate(batch):
            got = (printed[2 * j] & 0xFF).astype(np.uint8).tobytes()
            want = blobs[name]
            d = data(shape, elt)
            if elt.startswith("f"):
                d = d.view({"f16": np.int16, "f32": np.int32, "f64": np.int64}[elt])
            if name in BIT_MASKS:
                d = d.astype(np.int64).copy()
                for ch, mask in BIT_MASKS[name].items():
                    d[:, ch] &= mask
            expect_back = d.astype(np.int64).ravel()
            if elt == "i64" or elt == "f64":
                expect_back = (expect_back.astype(np.int64) << 32) >> 32  # low word, signed
            back = printed[2 * j + 1]
            ok = got == want and back.size == expect_back.size and bool(np.all(back == expect_back))
            fam = name.rstrip("0123456789")
            if name in VIA:
                fam = "encoding->encoding" if name.startswith("fastvia") else "feature->feature"
            families[fam] = families.get(fam, 0) + 1
            checked += 1
            if not ok:
                bad += 1
                diff = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                            min(len(got), len(want)))
                print(f"FAIL {name}: {tensor(shape, elt, enc)}: {len(got)} bytes vs folder "
                      f"{len(want)}, first difference at byte {diff}; round trip "
                      f"{'ok' if np.array_equal(back, expect_back) else 'WRONG'}")
    fam = ", ".join(f"{k} {v}" for k, v in sorted(families.items()))
    print(f"{checked - bad} of {checked} relayouts byte-identical to the folder and restored "
          f"({fam})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
