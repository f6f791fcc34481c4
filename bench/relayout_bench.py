#!/usr/bin/env python3
"""Executed relayouts (--dla-lower-to-llvm, mlir-runner) vs memcpy vs the
format library's packer, ratios from one run.

Cases: NHWC 1x224x224x256 i8 into crouton, NCHW 1x256x56x56 f16 into
#dla.feature<fp16>. In the runner, each case times the lowered relayout
(a call through the function-boundary ABI: logical buffer in, storage bytes
out, zero-fill included) and a memref.copy of the storage bytes between two
buffers (an llvm.memcpy), and the same copy into a freshly allocated buffer
(the relayout allocates its result: page faults included), alternately,
median of --runs. In Python, the
format library's pack (C API, through the dla package) is timed against a
numpy copy of the same bytes. Target: relayout <= 3x memcpy.

The runner runs twice per case. First with glibc's malloc told to keep
freed memory (GLIBC_TUNABLES: no trimming, mmap only above 32 MB), as a
runtime reusing its buffers would: the relayout's result then lands in pages
already mapped, and the ratio measures the copy code. Then with the default
malloc, which maps every multi-megabyte result afresh and page-faults it in:
on this machine a fault costs ~15-20 us per 4 KiB page, so that line measures
the allocator and the relayout's ratio against a memcpy into a fresh
allocation (the same faults) is the meaningful one there.

Usage: relayout_bench.py --opt build/bin/dla-opt [--runs 9]
  (PYTHONPATH=build/python for the packer column)
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

CASES = [
    ("NHWC 1x224x224x256 i8 -> crouton", (1, 224, 224, 256), "i8", "#dla.chunked<crouton>"),
    ("NCHW 1x256x56x56 f16 -> #dla.feature<fp16>", (1, 256, 56, 56), "f16",
     "#dla.feature<fp16>"),
]


def ttype(shape, elt, enc=None):
    return "tensor<" + "x".join(map(str, shape)) + "x" + elt + (", " + enc if enc else "") + ">"


def module(shape, elt, enc, nbytes, runs):
    plain, coded = ttype(shape, elt), ttype(shape, elt, enc)
    rank = len(shape)
    idx = ", ".join(f"%i{d}: index" for d in range(rank))
    val = ("%v = arith.sitofp %k : i64 to f16" if elt == "f16"
           else "%v = arith.trunci %k : i64 to i8")
    return f"""
func.func private @rtclock() -> f64
func.func private @printF64(f64)
func.func private @printNewline()
func.func @relayout(%x: {plain}) -> {coded} attributes {{no_inline}} {{
  %y = dla.relayout %x : {plain} -> {coded}
  return %y : {coded}
}}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %runs = arith.constant {runs} : index
  %x = tensor.generate {{
  ^bb0({idx}):
    %s = arith.addi %i{rank - 1}, %i{rank - 2} : index
    %t = arith.muli %s, %i1 : index
    %k0 = arith.index_cast %t : index to i64
    %c97 = arith.constant 97 : i64
    %k = arith.remsi %k0, %c97 : i64
    {val}
    tensor.yield %v : {elt}
  }} : {plain}
  %a = memref.alloc() {{alignment = 64}} : memref<{nbytes}xi8>
  %b = memref.alloc() {{alignment = 64}} : memref<{nbytes}xi8>
  %z = arith.constant 1 : i8
  linalg.fill ins(%z : i8) outs(%a : memref<{nbytes}xi8>)
  linalg.fill ins(%z : i8) outs(%b : memref<{nbytes}xi8>)
  scf.for %i = %c0 to %runs step %c1 {{
    %t0 = func.call @rtclock() : () -> f64
    %y = func.call @relayout(%x) : ({plain}) -> {coded}
    %t1 = func.call @rtclock() : () -> f64
    %s = dla.to_storage %y : {coded} -> tensor<{nbytes}xi8>
    %e = tensor.extract %s[%c0] : tensor<{nbytes}xi8>
    memref.store %e, %b[%c1] : memref<{nbytes}xi8>
    memref.copy %a, %b : memref<{nbytes}xi8> to memref<{nbytes}xi8>
    %t2 = func.call @rtclock() : () -> f64
    %n = memref.alloc() {{alignment = 64}} : memref<{nbytes}xi8>
    memref.copy %a, %n : memref<{nbytes}xi8> to memref<{nbytes}xi8>
    %t3 = func.call @rtclock() : () -> f64
    %d1 = arith.subf %t1, %t0 : f64
    %d2 = arith.subf %t2, %t1 : f64
    %d3 = arith.subf %t3, %t2 : f64
    func.call @printF64(%d1) : (f64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printF64(%d2) : (f64) -> ()
    func.call @printNewline() : () -> ()
    func.call @printF64(%d3) : (f64) -> ()
    func.call @printNewline() : () -> ()
  }}
  return
}}
"""


def storage_bytes(opt, shape, elt, enc):
    text = f"func.func @f(%x: {ttype(shape, elt, enc)}) {{ return }}"
    out = subprocess.run([opt, "--dla-encodings-to-memref", "-"], input=text, capture_output=True,
                         text=True, check=True).stdout
    return int(re.search(r"memref<(\d+)xi8>", out).group(1))


# glibc malloc keeping freed memory mapped (trim threshold 4 GB, mmap only
# above 32 MB, the largest mmap threshold glibc accepts).
KEEP_FREED = "glibc.malloc.trim_threshold=4000000000:glibc.malloc.mmap_threshold=33554432"


def run_runner(opt, bin_dir, text, mem_bytes, keep_freed):
    llvm = subprocess.run([opt, "--dla-lower-to-llvm", "-"], input=text, capture_output=True,
                          text=True)
    if llvm.returncode:
        sys.exit(llvm.stderr[:3000])
    libs = ",".join(os.path.join(os.path.dirname(bin_dir), "lib", n)
                    for n in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))
    ran = subprocess.run([os.path.join(bin_dir, "mlir-runner"), "-e", "main", "-O3",
                          "-entry-point-result=void", f"-shared-libs={libs}"],
                         input=llvm.stdout, capture_output=True, text=True,
                         env=dict(os.environ, GLIBC_TUNABLES=KEEP_FREED) if keep_freed
                         else {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"})
    if ran.returncode:
        sys.exit(ran.stderr[:3000])
    vals = [float(v) for v in ran.stdout.split()]
    rel, cpy, fresh = vals[0::3][1:], vals[1::3][1:], vals[2::3][1:]   # first run: warm-up
    return statistics.median(rel), statistics.median(cpy), statistics.median(fresh)


def packer_times(shape, elt, enc, runs):
    try:
        import dla
    except ImportError:
        return None
    with dla.Context() as ctx:
        layout = ctx.layout(ttype(shape, elt, enc))
        x = (np.arange(np.prod(shape)) % 97).astype(np.float16 if elt == "f16" else np.int8)
        x = x.reshape(shape)
        src = np.frombuffer(layout.pack(x), dtype=np.uint8).copy()
        dst = np.empty_like(src)
        tp, tc = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            layout.pack(x)
            t1 = time.perf_counter()
            np.copyto(dst, src)
            t2 = time.perf_counter()
            tp.append(t1 - t0)
            tc.append(t2 - t1)
        return statistics.median(tp[1:]), statistics.median(tc[1:])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--opt", required=True)
    p.add_argument("--bin", default="/usr/lib/llvm-22/bin")
    p.add_argument("--runs", type=int, default=9)
    a = p.parse_args()
    for what, shape, elt, enc in CASES:
        n = storage_bytes(a.opt, shape, elt, enc)
        print(f"{what}: {n} storage bytes (load average {os.getloadavg()[0]:.2f})")
        for keep, how in ((True, "malloc keeps freed memory"),
                          (False, "default malloc (fresh pages)")):
            rel, cpy, fresh = run_runner(a.opt, a.bin, module(shape, elt, enc, n, a.runs), n, keep)
            print(f"  {how:28s}: executed relayout {rel * 1e3:8.3f} ms, memcpy "
                  f"{cpy * 1e3:6.3f} ms: {rel / cpy:5.2f}x memcpy into a reused buffer; "
                  f"memcpy into a fresh allocation {fresh * 1e3:6.3f} ms: {rel / fresh:5.2f}x")
            if keep:
                kept = rel / cpy
        pk = packer_times(shape, elt, enc, a.runs)
        if pk:
            print(f"  library packer    {pk[0] * 1e3:8.2f} ms, memcpy {pk[1] * 1e3:6.2f} ms: "
                  f"{pk[0] / pk[1]:5.2f}x memcpy; executed relayout / packer: "
                  f"{kept / (pk[0] / pk[1]):5.2f} (each against its own memcpy)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
