#!/usr/bin/env python3
"""End-to-end weight packing on VGG-16's 13 convolution weight tensors.

Builds a module whose constants are VGG-16's conv weights (KCRS, 14.7M
parameters, fp16, random data, given as dense_resource blobs), each wrapped
in a dla.relayout to the weight encoding, then runs in alternation:

  baseline: dla-opt MODULE                       (parse + print)
  packing:  dla-opt MODULE --dla-pack-weights    (parse + pack + print)

and prints medians of wall time and peak RSS per run, with the ratio
packing / baseline (time) and peak RSS / weight bytes. Whole processes, one
script, same machine state: the ratios are what to quote.

Usage: vgg16_pack.py DLA_OPT [--runs N] [--copies N] [--bytecode] [--encoding '#dla.weight<direct, fp16>']
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

# (K, C, R, S) of VGG-16's convolutions.
VGG16 = [(64, 3), (64, 64), (128, 64), (128, 128), (256, 128), (256, 256), (256, 256),
         (512, 256), (512, 512), (512, 512), (512, 512), (512, 512), (512, 512)]


def write_module(path, encoding, copies=1, seed=16):
    rng = np.random.default_rng(seed)
    funcs, blobs = [], []
    for i, (k, c) in enumerate(VGG16 * copies):
        shape = f"{k}x{c}x3x3xf16"
        plain, packed = f"tensor<{shape}>", f"tensor<{shape}, {encoding}>"
        funcs.append(
            f"  func.func @conv{i}() -> {packed} {{\n"
            f"    %w = arith.constant dense_resource<vgg_conv{i}> : {plain}\n"
            f"    %p = dla.relayout %w : {plain} -> {packed}\n"
            f"    return %p : {packed}\n  }}\n")
        data = rng.standard_normal(k * c * 9).astype(np.float16)
        blobs.append((f"vgg_conv{i}", data.tobytes()))
    with open(path, "w") as f:
        f.write("module {\n" + "".join(funcs) + "}\n{-#\n  dialect_resources: {\n    builtin: {\n")
        for j, (name, raw) in enumerate(blobs):
            sep = "," if j + 1 < len(blobs) else ""
            f.write(f'      {name}: "0x02000000{raw.hex().upper()}"{sep}\n')
        f.write("    }\n  }\n#-}\n")
    return sum(len(raw) for _, raw in blobs)


LAUNCHER = None  # dla-maxrss, next to dla-opt


def run(cmd):
    """Wall seconds and peak RSS (bytes) of one whole process. The peak
    comes from dla-maxrss, which forks the command itself: ru_maxrss of a
    child of this python process would include python's RSS at fork."""
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        proc = subprocess.run([LAUNCHER, rss.name] + cmd, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"command failed: {' '.join(cmd)}\n{proc.stderr.decode()}")
        return wall, int(rss.read())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dla_opt")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--encoding", default="#dla.weight<direct, fp16>")
    ap.add_argument("--maxrss", help="the dla-maxrss launcher (default: next to DLA_OPT)")
    ap.add_argument("--copies", type=int, default=1,
                    help="the 13 tensors this many times (5: 147 MB, issue 13's 150 MB case)")
    ap.add_argument("--bytecode", action="store_true",
                    help="give and take the module as MLIR bytecode (raw resource bytes)")
    args = ap.parse_args()
    global LAUNCHER
    LAUNCHER = args.maxrss or os.path.join(os.path.dirname(os.path.abspath(args.dla_opt)),
                                           "dla-maxrss")
    if not os.path.isfile(LAUNCHER):
        sys.exit(f"{LAUNCHER} not found: build it (ninja dla-maxrss)")
    with tempfile.TemporaryDirectory() as tmp:
        module = os.path.join(tmp, "vgg16.mlir")
        weight_bytes = write_module(module, args.encoding, args.copies)
        out = ["-o", os.path.join(tmp, "out")]
        if args.bytecode:
            bc = module + "bc"
            subprocess.run([args.dla_opt, module, "--emit-bytecode", "-o", bc], check=True)
            module, out = bc, out + ["--emit-bytecode"]
        empty = os.path.join(tmp, "empty.mlir")
        with open(empty, "w") as f:
            f.write("module {}\n")
        floor = run([args.dla_opt, empty])[1]
        base_cmd = [args.dla_opt, module] + out
        pack_cmd = [args.dla_opt, module, "--dla-pack-weights"] + out
        run(base_cmd), run(pack_cmd)  # warm-up: page cache, dynamic loader
        base, pack = [], []
        for _ in range(args.runs):
            base.append(run(base_cmd))
            pack.append(run(pack_cmd))
    med = lambda xs, i: statistics.median(x[i] for x in xs)
    ratios = [p[0] / b[0] for p, b in zip(pack, base)]
    print(f"VGG-16 conv weights x{args.copies}: "
          f"{args.copies * sum(k * c * 9 for k, c in VGG16)} parameters, "
          f"{weight_bytes / 1e6:.1f} MB fp16, encoding {args.encoding}, {args.runs} runs each")
    print(f"parse+print:      wall {med(base, 0):.3f} s  peak RSS {med(base, 1) / 1e6:.0f} MB")
    print(f"parse+pack+print: wall {med(pack, 0):.3f} s  peak RSS {med(pack, 1) / 1e6:.0f} MB")
    print(f"packing adds {100 * (statistics.median(ratios) - 1):.1f}% to parse+print "
          f"(median of paired ratios {statistics.median(ratios):.3f}; target <= 1.25, issue 13)")
    print(f"peak RSS / weight bytes: {med(pack, 1) / weight_bytes:.2f} (target <= 2.50); "
          f"above the {floor / 1e6:.1f} MB of dla-opt on an empty module: "
          f"{(med(pack, 1) - floor) / weight_bytes:.2f} (bytecode target <= 2.05; "
          f"parse+print alone: {(med(base, 1) - floor) / weight_bytes:.2f})")


if __name__ == "__main__":
    main()
