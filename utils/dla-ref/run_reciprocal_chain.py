#!/usr/bin/env python3
"""The CPU execution of the int8 softmax's reciprocal chain as the compiler
builds it (--dla-test-softmax-chains: TablePrograms.cpp's
emitAccumulatorChain over a convolution by ones, issue 45's design step 6)
against numpy.

    run_reciprocal_chain.py --opt BUILD_DIR/bin/dla-opt [--seed S] [--llvm-bin DIR]
    run_reciprocal_chain.py --emit DIR [--seed S]

--emit writes DIR/recip.mlir (@main: the marked convolution of e [1, 40,
5, 8] by ones) and DIR/e.npy (40 rows, S spread over 127..5080) for the C
model (test/NvdlaCModel/trace-reciprocal-chain.test), and exits.

e [1, 40 keys, 62, 80] (keys as channels, queries as positions): each
query's row has one key at 127 (its max) and the rest split over the
other keys so that every S in 127..5080 occurs (4954 queries, from peaked
rows, S = 127, to flat ones, S = 5080), and 6 random rows. The module convolves e by ones [16, 40, 1, 1] (S in all
16 output channels), marked dla.test_reciprocal_keys = 40; dla-opt builds
the chain, lowers it and mlir-runner runs it. numpy: r from
softmax_int8_model.chain_passes over S with the model's written-out plan
(the units' arithmetic, int_sdp), and from the function: |r - 127^2 / S|
<= 1.5, exactly recip_table where that is below 16. Prints the counts; exits 1 on any difference.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

import run_layers
import softmax_int8_model as M

SUMS = 40 * 127 - 127 + 1   # S = 127 .. 5080
H, W_ = 62, 80              # the queries as positions: every S once, 6 more
QUERIES = H * W_
E = f"tensor<1x40x{H}x{W_}xi8>"
W = "tensor<16x40x1x1xi8>"
R_T = f"tensor<1x16x{H}x{W_}xi8>"
SIZE = 16 * QUERIES


def rows(rng):
    """e [QUERIES, 40 keys]: query i's row sums to S = 127 + i for every S
    in 127..5080 (one key at 127, its max; the rest of S split over the
    other 39 keys at random), the remaining queries random rows."""
    e = np.zeros((QUERIES, 40), dtype=np.int64)
    for q in range(QUERIES):
        top = int(rng.integers(0, 40))
        rest = q if q < SUMS else int(rng.integers(0, 39 * 127 + 1))
        others = np.full(39, rest // 39)
        others[rng.permutation(39)[: rest % 39]] += 1   # each at most 127
        e[q, np.arange(40) != top] = others
        e[q, top] = 127
    return e


def spread_rows(rng, queries=40):
    """e [queries, 40 keys], row i summing to S spread over 127..5080."""
    e = np.zeros((queries, 40), dtype=np.int64)
    for q, total in enumerate(np.linspace(127, 40 * 127, queries).astype(int)):
        top = int(rng.integers(0, 40))
        rest = int(total) - 127
        others = np.full(39, rest // 39)
        others[rng.permutation(39)[: rest % 39]] += 1
        e[q, np.arange(40) != top] = others
        e[q, top] = 127
    return e


def emit(directory, rng):
    import os
    os.makedirs(directory, exist_ok=True)
    e = spread_rows(rng)
    np.save(os.path.join(directory, "e.npy"), e.T.reshape(1, 40, 5, 8).astype(np.int8))
    t, r = "tensor<1x40x5x8xi8>", "tensor<1x16x5x8xi8>"
    with open(os.path.join(directory, "recip.mlir"), "w") as f:
        f.write("module attributes {dla.target = #dla.target<nvdla, nv_small>} {\n"
                f"func.func @main(%e: {t}) -> {r} {{\n"
                f"  %ones = arith.constant dense<1> : {W}\n"
                f"  %s = dla.conv direct %e, %ones {{dla.test_reciprocal_keys = 40 : i64}} : "
                f"{t}, {W} -> {r}\n"
                f"  return %s : {r}\n}}\n}}\n")
    print(f"S from {e.sum(1).min()} to {e.sum(1).max()} over 40 rows")


def literal(x):
    return "dense<" + str(x.astype(int).tolist()) + ">"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opt", help="dla-opt")
    p.add_argument("--emit", help="write recip.mlir and e.npy here instead")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    a = p.parse_args()
    if a.emit:
        return emit(a.emit, np.random.default_rng(a.seed))
    if not a.opt:
        p.error("--opt or --emit")
    e = rows(np.random.default_rng(a.seed))                  # [query, key]
    emap = e.T.reshape(1, 40, H, W_)                          # keys as channels
    module = (
        "module attributes {dla.target = #dla.target<nvdla, nv_small>} {\n"
        f"func.func @recip(%e: {E}) -> {R_T} {{\n"
        f"  %ones = arith.constant dense<1> : {W}\n"
        f"  %s = dla.conv direct %e, %ones {{dla.test_reciprocal_keys = 40 : i64}} : {E}, {W} -> {R_T}\n"
        f"  return %s : {R_T}\n}}\n"
        "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}\n"
        "func.func @main() {\n"
        f"  %e = arith.constant {literal(emap)} : {E}\n"
        f"  %r = call @recip(%e) : ({E}) -> {R_T}\n"
        f"  %f = tensor.collapse_shape %r [[0, 1, 2, 3]] : {R_T} into tensor<{SIZE}xi8>\n"
        f"  %x = arith.extsi %f : tensor<{SIZE}xi8> to tensor<{SIZE}xi32>\n"
        f"  %m = bufferization.to_buffer %x : tensor<{SIZE}xi32> to memref<{SIZE}xi32>\n"
        f"  %u = memref.cast %m : memref<{SIZE}xi32> to memref<*xi32>\n"
        "  call @printMemrefI32(%u) : (memref<*xi32>) -> ()\n"
        "  return\n}\n}\n")
    built = subprocess.run([a.opt, "--dla-test-softmax-chains", "-"], input=module,
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
    got = got.reshape(16, QUERIES)                               # [channel, query]
    s = e.sum(1)                                            # S per query
    model = M.chain_passes(s, (M.RECIP_SEGMENTS, True))
    table = M.recip_table()[s - M.E_TOP]
    bad = 0
    same = int(np.sum(np.all(got == model[None, :], axis=0)))
    print(f"S from {s.min()} to {s.max()} ({len(np.unique(s))} sums); {same} of {QUERIES} "
          f"queries' r (16 channels each) equal softmax_int8_model's chain")
    bad += same != QUERIES
    err = np.abs(got[0] - M.R / s)
    small = table < M.RECIP_EXACT_BELOW
    exact = bool(np.array_equal(got[0][small], table[small]))
    print(f"from 127^2 / S: max {err.max():.3f}; exact where r < {M.RECIP_EXACT_BELOW}: "
          f"{'yes' if exact else 'no'} ({int(small.sum())} queries)")
    bad += err.max() > 1.5 or not exact
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
