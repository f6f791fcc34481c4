#!/usr/bin/env python3
"""The CPU execution of the int8 softmax's exp chain as the compiler builds
it (--dla-test-softmax-chains: TablePrograms.cpp's emitTableProgram with
SoftmaxTables.cpp's plan, issue 45's design step 4) against numpy.

    run_exp_chain.py --opt BUILD_DIR/bin/dla-opt --scale S [S ...] [--llvm-bin DIR]

Per scale: d = every int8 level, -128..127, as a [1, 16, 4, 4] map (an
offline SDP without stages, marked dla.test_exp_scale = S, writes it);
dla-opt builds the chain over it, lowers it and mlir-runner runs it.
numpy: e from softmax_int8_model.chain_passes with the model's own plan
(chain_plan of exp_table: the units' arithmetic), and from the function
127 exp(-S (d + 128)): within 1.5 (the table within 1, the table within
1/2 + 1/2 of the function: centred), exactly the table where it is below 8.
Prints a line per scale; exits 1 on any difference.
"""

import argparse
import re
import subprocess
import sys

import numpy as np

import run_layers
import softmax_int8_model as M

T = "tensor<1x16x4x4xi8>"
LEVELS = np.arange(-128, 128)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--opt", required=True, help="dla-opt")
    p.add_argument("--scale", type=float, nargs="+", required=True)
    p.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    a = p.parse_args()
    funcs, calls = [], []
    d = "dense<" + str(LEVELS.reshape(1, 16, 4, 4).tolist()) + ">"
    for n, s in enumerate(a.scale):
        funcs.append(f"func.func @exp{n}(%x: {T}) -> {T} {{\n"
                     f"  %d = dla.sdp offline %x {{dla.test_exp_scale = {s!r} : f64}} : {T} -> {T}\n"
                     f"  return %d : {T}\n}}\n")
        calls.append(f"  %e{n} = call @exp{n}(%d) : ({T}) -> {T}\n"
                     f"  %f{n} = tensor.collapse_shape %e{n} [[0, 1, 2, 3]] : {T} into tensor<256xi8>\n"
                     f"  %x{n} = arith.extsi %f{n} : tensor<256xi8> to tensor<256xi32>\n"
                     f"  %m{n} = bufferization.to_buffer %x{n} : tensor<256xi32> to memref<256xi32>\n"
                     f"  %u{n} = memref.cast %m{n} : memref<256xi32> to memref<*xi32>\n"
                     f"  call @printMemrefI32(%u{n}) : (memref<*xi32>) -> ()\n")
    module = ("module attributes {dla.target = #dla.target<nvdla, nv_small>} {\n" + "".join(funcs) +
              "func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}\n"
              f"func.func @main() {{\n  %d = arith.constant {d} : {T}\n" + "".join(calls) +
              "  return\n}\n}\n")
    built = subprocess.run([a.opt, "--dla-test-softmax-chains", "-"], input=module,
                           capture_output=True, text=True)
    if built.returncode:
        sys.exit("dla-opt failed:\n" + built.stderr)
    llvm = subprocess.run([a.opt, "--dla-lower-to-llvm", "-"], input=built.stdout,
                          capture_output=True, text=True)
    if llvm.returncode:
        sys.exit("dla-opt failed:\n" + llvm.stderr)
    chunks = run_layers.run_main(llvm.stdout, a.llvm_bin).split("Unranked Memref")[1:]
    passes = [len(re.findall(r"dla\.sdp offline", f)) - 1
              for f in built.stdout.split("func.func")[1:1 + len(a.scale)]]
    bad = 0
    for s, ch, k in zip(a.scale, chunks, passes):
        got = np.array([int(v) for v in re.findall(r"-?\d+", ch.split("data =", 1)[1])])
        table = M.exp_table(s)
        model = M.chain_passes(LEVELS, M.chain_plan(table, -128, M.EXACT_BELOW))
        e = 127 * np.exp(-s * (LEVELS + 128.0))
        small = table < M.EXACT_BELOW
        same = bool(np.array_equal(got, model))
        err = float(np.abs(got - e).max())
        exact = bool(np.array_equal(got[small], table[small]))
        print(f"scale {s}: {k} passes; {'equal to' if same else 'differs from'} "
              f"softmax_int8_model's chain at all 256 levels; from the function max {err:.3f}; "
              f"exact where e < {M.EXACT_BELOW}: {'yes' if exact else 'no'}")
        bad += not same or err > 1.5 or not exact
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
