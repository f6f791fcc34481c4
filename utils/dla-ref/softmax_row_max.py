#!/usr/bin/env python3
"""Steps 2 and 3 of the softmax over 40 keys on nv_small
(softmax_int8_model.py; docs/WholeNetworks.md): the row max by the PDP
and d = m - s - 128 by one SDP pass, with operand kinds dla.sdp has today.

    softmax_row_max.py gen DIR [--seed S]     DIR/difference.mlir, s.npy
    softmax_row_max.py check DIR KEEP          KEEP: run_network_trace.py --keep

The scores s^T [1, 40 queries, 5, 8 keys] (int8 levels); the pass reads a
constant map of -1s (packed at compile time) as its input, X1 multiplies it by m per channel (`prelu`: the
pool's 1x40x1x1 result read in place, as the squeeze-excitation's gate),
X2 adds s per element (`eltwise`), the output converter's offset -128 and
scale -1: -(s - m + 128) = m - s - 128, exact (m - s is 0..255).

`check` compares the CPU execution's bytes of both layers (which
run_network_trace.py has found equal to NVIDIA's C model's) with numpy's
max and m - s - 128 packed by nvdla_ref.py (the format document's layout).
"""

import argparse
import os
import sys

import numpy as np

import nvdla_ref

MODULE = """module attributes {dla.target = #dla.target<nvdla, nv_small>} {
func.func @main(%s: tensor<1x40x5x8xi8>) -> tensor<1x40x5x8xi8> {
  %neg = arith.constant dense<-1> : tensor<1x40x5x8xi8>
  %m = dla.pool max %s kernel [5, 8] : tensor<1x40x5x8xi8> -> tensor<1x40x1x1xi8>
  %d = dla.sdp offline %neg eltwise %s : tensor<1x40x5x8xi8> prelu %m : tensor<1x40x1x1xi8>
    bs <mul_operand = prelu> bn <alu = sum, alu_operand = eltwise>
    out_cvt <offset = -128, scale = -1, shift = 0> : tensor<1x40x5x8xi8> -> tensor<1x40x5x8xi8>
  return %d : tensor<1x40x5x8xi8>
}
}
"""
FEATURE = "#dla.feature<int8, config = nv_small>"


def scores(seed):
    """Rows of every kind: random, far below the top, maxima at 127, a
    constant row at -128 (m - s = 0), spans of 255 levels, ties."""
    rng = np.random.default_rng(seed)
    s = rng.integers(-128, 128, (40, 40))
    s[0:4] = rng.integers(-128, -100, (4, 40))
    s[4:8, 11] = 127
    s[8] = -128
    s[9] = 127
    s[10:14] = rng.choice([-128, 127], (4, 40))
    s[14:18] = rng.integers(-3, 3, (4, 40))
    return s.astype(np.int8).reshape(1, 40, 5, 8)


def gen(a):
    os.makedirs(a.dir, exist_ok=True)
    with open(os.path.join(a.dir, "difference.mlir"), "w") as f:
        f.write(MODULE)
    np.save(os.path.join(a.dir, "s.npy"), scores(a.seed))


def check(a):
    s = np.load(os.path.join(a.dir, "s.npy")).astype(np.int64)
    m = s.max(axis=(2, 3), keepdims=True)
    d = m - s - 128
    assert d.min() >= -128 and d.max() <= 127
    enc = nvdla_ref.parse_encoding(FEATURE)
    bad = 0
    for layer, want in (("layer_000", m), ("layer_001", d)):
        with open(os.path.join(a.keep, layer + ".data", "result0.bin"), "rb") as f:
            got = f.read()
        exp = nvdla_ref.pack(want.astype(np.int8), enc, "i8")
        same = got[:len(exp)] == exp
        bad += not same
        print("%s: %s numpy's %s (%d bytes)" % (layer, "equals" if same else "differs from",
                                                "row max" if layer == "layer_000"
                                                else "m - s - 128", len(exp)))
    print("rows: max %d..%d, m - s - 128 over %d..%d" % (m.min(), m.max(), d.min(), d.max()))
    sys.exit(1 if bad else 0)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen")
    g.add_argument("dir")
    g.add_argument("--seed", type=int, default=0)
    c = sub.add_parser("check")
    c.add_argument("dir")
    c.add_argument("keep")
    a = p.parse_args()
    gen(a) if a.cmd == "gen" else check(a)


if __name__ == "__main__":
    main()
