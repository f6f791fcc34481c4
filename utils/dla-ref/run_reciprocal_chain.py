#!/usr/bin/env python3
"""The CPU execution of the int8 softmax's reciprocal chain as the compiler
builds it (--dla-test-reciprocal-chains: TablePrograms.cpp's
emitAccumulatorChain over a convolution by ones, issue 45's design step 6)
against numpy.

    run_reciprocal_chain.py --opt BUILD_DIR/bin/dla-opt [--seed S] [--llvm-bin DIR]

e [1, 40 keys, 5, 8] (keys as channels, the 40 queries as positions): each
query's row has one key at 127 (its max) and the others drawn from rows
flat (all 127: S = 5080), peaked (all 0: S = 127) and in between, so S
covers 127..5080. The module convolves e by ones [16, 40, 1, 1] (S in all
16 output channels), marked dla.test_reciprocal_keys = 40; dla-opt builds
the chain, lowers it and mlir-runner runs it. numpy: r from
softmax_int8_model.chain_passes over S with the model's written-out plan
(the units' arithmetic, int_sdp), and from the function: |r - 127^2 / S|
<= 1.5, exact (rint) where 127^2 / S rounds below 16 less 1/2 ... as
recip_table states. Prints the counts; exits 1 on any difference.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

import run_layers
import softmax_int8_model as M

E = "tensor<1x40x5x8xi8>"
W = "tensor<16x40x1x1xi8>"
R_T = "tensor<1x16x5x8xi8>"


def rows(rng):
    """e [40 queries, 40 keys]: key q % 40 at 127 in row q, the rest
    varied from flat to peaked."""
    e = np.zeros((40, 40), dtype=np.int64)
    for q in range(40):
        kind = q % 4
        if kind == 0:
            e[q] = 127                                   # flat: S = 5080
        elif kind == 1:
            e[q] = 0                                     # peaked: S = 127
        elif kind == 2:
            e[q] = rng.integers(0, 128, 40)              # anywhere
        else:
            e[q] = rng.integers(0, int(rng.integers(1, 20)), 40)  # small e, r exact
        e[q, q] = 127
    return e


def literal(x):
    return "dense<" + str(x.astype(int).tolist()) + ">"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opt", required=True, help="dla-opt")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    a = p.parse_args()
    e = rows(np.random.default_rng(a.seed))                  # [query, key]
    emap = e.T.reshape(1, 40, 5, 8)                          # keys as channels
    module = (
        "module attributes {dla.target = #dla.target<nvdla, nv_small>} {\n"
        f"func.func @recip(%e: {E}) -> {R_T} {{\n"
        f"  %ones = arith.constant dense<1> : {W}\n"
        f"  %s = dla.conv direct %e, %ones {{dla.test_reciprocal_keys = 40 : i64}} : {E}, {W} -> {R_T}\n"
        f"  return %s : {R_T}\n}}\n"
        "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}\n"
        "func.func @main() {\n"
        f"  %e = arith.constant {literal(emap)} : tensor<1x40x5x8xi8>\n"
        f"  %r = call @recip(%e) : ({E}) -> {R_T}\n"
        f"  %f = tensor.collapse_shape %r [[0, 1, 2, 3]] : {R_T} into tensor<640xi8>\n"
        "  %x = arith.extsi %f : tensor<640xi8> to tensor<640xi32>\n"
        "  %m = bufferization.to_buffer %x : tensor<640xi32> to memref<640xi32>\n"
        "  %u = memref.cast %m : memref<640xi32> to memref<*xi32>\n"
        "  call @printMemrefI32(%u) : (memref<*xi32>) -> ()\n"
        "  return\n}\n}\n")
    built = subprocess.run([a.opt, "--dla-test-reciprocal-chains", "-"], input=module,
                           capture_output=True, text=True)
    if built.returncode:
        sys.exit("dla-opt failed:\n" + built.stderr)
    convs = len(re.findall(r"dla\.conv direct", built.stdout))
    sdps = len(re.findall(r"dla\.sdp on_the_fly", built.stdout))
    print(f"built: {convs} convolutions, {sdps} on-the-fly SDPs")
    llvm = subprocess.run([a.opt, "--dla-lower-to-llvm", "-"], input=built.stdout,
                          capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt failed:\n" + llvm.stderr)
    out = run_layers.run_main(llvm.stdout, a.llvm_bin)
    got = np.array([int(v) for v in re.findall(r"-?\d+", out.split("data =", 1)[1])])
    got = got.reshape(16, 40)                               # [channel, query]
    s = e.sum(1)                                            # S per query
    model = M.chain_passes(s, (M.RECIP_SEGMENTS, True))
    table = M.recip_table()[s - M.E_TOP]
    bad = 0
    same = int(np.sum(np.all(got == model[None, :], axis=0)))
    print(f"S from {s.min()} to {s.max()}; {same} of 40 queries' r (16 channels each) "
          f"equal softmax_int8_model's chain")
    bad += same != 40
    err = np.abs(got[0] - M.R / s)
    small = table < M.RECIP_EXACT_BELOW
    exact = bool(np.array_equal(got[0][small], table[small]))
    print(f"from 127^2 / S: max {err.max():.3f}; exact where r < {M.RECIP_EXACT_BELOW}: "
          f"{'yes' if exact else 'no'} ({int(small.sum())} queries)")
    bad += err.max() > 1.5 or not exact
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
