#!/usr/bin/env python3
"""The CPU execution of a convolution whose weights are a layer's result
(dla.as_weights, issue 45: attention's q k^T) against numpy.

    PYTHONPATH=BUILD_DIR/python_packages \\
    run_as_weights.py --opt BUILD_DIR/bin/dla-opt [--count N] [--seed S] [--llvm-bin DIR]

Each case: q [1, C, Hq, Wq] and kin [1, C, H, 8] (C = 8 .. 32, small
values: no sum saturates), k = an offline SDP adding a constant a to kin
(its BS stage's ALU), the weights dla.as_weights(k), the scores a direct
convolution of q by them (SDP bypassed). numpy, from the ops' definitions
(docs/ReferenceSemantics.md): w[8 h + x, c] = k[c, h, x], y[o] = sum over
c of q[c] w[o, c]. The function runs twice on the CPU: as written (no
encodings: the view is a transpose) and after --dla-assign-layouts on
nv_small (k in the weight stream's interleaved encoding, the view its
bytes; the encoding checked in the assigned IR). Prints, per path, how
many cases equal numpy; exits 1 on any difference.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

import run_layers


def case_text(n, q, kin, a):
    _, c, h, _ = kin.shape
    qt = f"tensor<1x{c}x{q.shape[2]}x{q.shape[3]}xi8>"
    kt = f"tensor<1x{c}x{h}x8xi8>"
    wt = f"tensor<{8 * h}x{c}x1x1xi8>"
    yt = f"tensor<1x{8 * h}x{q.shape[2]}x{q.shape[3]}xi8>"
    return (f"func.func @scores_{n}(%q: {qt}, %kin: {kt}) -> {yt} {{\n"
            f"  %k = dla.sdp offline %kin bs <alu = sum, alu_operand = {a}> : {kt} -> {kt}\n"
            f"  %w = dla.as_weights %k : {kt} -> {wt}\n"
            f"  %y = dla.conv direct %q, %w : {qt}, {wt} -> {yt}\n"
            f"  return %y : {yt}\n}}\n"), (qt, kt, yt)


def literal(x):
    return 'dense<"0x' + np.ascontiguousarray(x).tobytes().hex().upper() + '">'


def expected(q, kin, a):
    k = kin.astype(np.int64) + a
    _, c, h, w = k.shape
    weights = k[0].reshape(c, h * w).T  # [8 h + x, c]
    y = np.einsum("oc,cij->oij", weights, q[0].astype(np.int64))
    return np.clip(y, -128, 127)[None].astype(np.int8)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opt", required=True, help="dla-opt")
    p.add_argument("--count", type=int, default=6)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    a = p.parse_args()
    rng = np.random.default_rng(a.seed)
    funcs, main_lines, cases = [], [], []
    for n in range(a.count):
        c, h = 8 * int(rng.integers(1, 5)), int(rng.integers(1, 6))
        q = rng.integers(-2, 3, (1, c, int(rng.integers(1, 7)), int(rng.integers(1, 9)))).astype(np.int8)
        kin = rng.integers(-2, 2, (1, c, h, 8)).astype(np.int8)
        add = int(rng.integers(-1, 2))
        text, (qt, kt, yt) = case_text(n, q, kin, add)
        funcs.append(text)
        size = int(np.prod(expected(q, kin, add).shape))
        main_lines.append(
            f"  %q{n} = arith.constant {literal(q)} : {qt}\n"
            f"  %k{n} = arith.constant {literal(kin)} : {kt}\n"
            f"  %y{n} = call @scores_{n}(%q{n}, %k{n}) : ({qt}, {kt}) -> {yt}\n"
            f"  %f{n} = tensor.collapse_shape %y{n} [[0, 1, 2, 3]] : {yt} into tensor<{size}xi8>\n"
            f"  %e{n} = arith.extsi %f{n} : tensor<{size}xi8> to tensor<{size}xi32>\n"
            f"  %m{n} = bufferization.to_buffer %e{n} : tensor<{size}xi32> to memref<{size}xi32>\n"
            f"  %u{n} = memref.cast %m{n} : memref<{size}xi32> to memref<*xi32>\n"
            f"  call @printMemrefI32(%u{n}) : (memref<*xi32>) -> ()\n")
        cases.append((q, kin, add))
    module = ("module attributes {dla.target = #dla.target<nvdla, nv_small>} {\n" + "".join(funcs) +
              "func.func private @printMemrefI32(memref<*xi32>) attributes "
              "{llvm.emit_c_interface}\n"
              "func.func @main() {\n" + "".join(main_lines) + "  return\n}\n}\n")
    dla_opt = a.opt
    bad = 0
    for path, passes in (("as written", []), ("layouts assigned", ["--dla-assign-layouts"])):
        if passes:
            assigned = subprocess.run([dla_opt, *passes, "-"], input=module, capture_output=True,
                                      text=True)
            if assigned.returncode:
                sys.exit("dla-opt failed:\n" + assigned.stderr)
            found = re.findall(r"dla\.as_weights %\S+ : (tensor<[^>]*>>)", assigned.stdout)
            print(f"{path}: k as " + ", ".join(sorted(set(found))))
        llvm = subprocess.run([dla_opt, *passes, "--dla-lower-to-llvm", "-"], input=module,
                              capture_output=True, text=True)
        if llvm.returncode:
            sys.exit("dla-opt failed:\n" + llvm.stderr)
        chunks = run_layers.run_main(llvm.stdout, a.llvm_bin).split("Unranked Memref")[1:]
        same = 0
        for n, ((q, kin, add), ch) in enumerate(zip(cases, chunks)):
            got = np.array([int(v) for v in re.findall(r"-?\d+", ch.split("data =", 1)[1])])
            want = expected(q, kin, add).reshape(-1)
            if got.shape == want.shape and np.array_equal(got, want):
                same += 1
            else:
                print(f"case {n} ({path}): differs from numpy")
        bad += same != len(cases)
        print(f"{path}: {same} of {len(cases)} CPU executions equal numpy")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
