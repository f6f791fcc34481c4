#!/usr/bin/env python3
"""--dla-assign-layouts time on a chain with residual adds of N and 10 N layers.

Usage: python3 bench/assign_layouts_scaling.py [build/bin/dla-opt] [N] [runs]

Each network is N layers: blocks of a 3x3 convolution (constant weights)
and an SDP that adds the block's input (a residual edge, so the graph of
values has a cycle per block). The pass's own wall time is read from
`-mlir-timing` (parsing, printing and verification excluded); the best of
`runs` runs per size. Prints both times and their ratio: linear scaling
gives 10, the target is <= 12.
"""
import re
import subprocess
import sys
import tempfile

T = "tensor<1x16x8x8xf16>"


def network(layers):
    out = [f"func.func @net(%x: {T}) -> {T} {{",
           "  %w = arith.constant dense<0.0625> : tensor<16x16x3x3xf16>"]
    prev = "%x"
    for i in range(layers // 2):
        out.append(f"  %c{i} = dla.conv direct {prev}, %w pad [1, 1, 1, 1] : {T}, "
                   f"tensor<16x16x3x3xf16> -> {T}")
        out.append(f"  %r{i} = dla.sdp offline %c{i} eltwise {prev} : {T} relu : {T} -> {T}")
        prev = f"%r{i}"
    out.append(f"  return {prev} : {T}")
    out.append("}")
    return "\n".join(out) + "\n"


def pass_seconds(dla_opt, path):
    r = subprocess.run([dla_opt, path, "--dla-assign-layouts", "-mlir-timing",
                        "-mlir-print-op-on-diagnostic=false", "-o", "/dev/null"],
                       capture_output=True, text=True, check=True)
    for line in r.stderr.splitlines():
        if "DLAAssignLayouts" in line or "dla-assign-layouts" in line:
            return float(re.search(r"([0-9.]+)\s*\(", line).group(1))
    raise SystemExit("no timing line for the pass:\n" + r.stderr[-2000:])


def main():
    dla_opt = sys.argv[1] if len(sys.argv) > 1 else "build/bin/dla-opt"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    times = {}
    for layers in (n, 10 * n):
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
            f.write(network(layers))
            f.flush()
            times[layers] = min(pass_seconds(dla_opt, f.name) for _ in range(runs))
        print(f"{layers:>7} layers: {times[layers] * 1e3:9.2f} ms")
    ratio = times[10 * n] / times[n]
    print(f"ratio {10 * n} / {n} layers: {ratio:.2f} (linear: 10, target <= 12)")


if __name__ == "__main__":
    main()
