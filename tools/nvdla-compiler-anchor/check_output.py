#!/usr/bin/env python3
"""Compares the anchor network's int8 output (the raw output buffer of
dla-run-loadable: nv_small feature data, 1x8x4x4) with the float network
of make_caffe_net.py, in units of the output's scale (one LSB = one int8
step). Fails when the output is all zero, saturated, or further than
--max-lsb from the float result anywhere.

usage: check_output.py OUTPUT0.bin REFERENCE.npz [--max-lsb 2]
"""
import argparse
import hashlib
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_caffe_net import from_feature_x8  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("output")
    ap.add_argument("reference")
    ap.add_argument("--max-lsb", type=float, default=2.0)
    a = ap.parse_args()
    raw = open(a.output, "rb").read()
    ref = np.load(a.reference)
    float_out = ref["conv2"]
    q = from_feature_x8(raw, float_out.shape).astype(np.int32)
    want = float_out / ref["scales"][4]
    err = np.abs(q - want)
    saturated = int(np.count_nonzero((q == 127) | (q == -128)))
    zeros = int(np.count_nonzero(q == 0))
    corr = float(np.corrcoef(q.ravel(), want.ravel())[0, 1])
    print("output md5 %s, %d bytes" % (hashlib.md5(raw).hexdigest(), len(raw)))
    print("int8 range [%d, %d], %d zero, %d saturated of %d" % (q.min(), q.max(), zeros, saturated, q.size))
    print("float reference range [%.2f, %.2f] LSB" % (want.min(), want.max()))
    print("error vs float: max %.2f LSB, mean %.3f LSB, correlation %.6f" % (err.max(), err.mean(), corr))
    bad = []
    if zeros == q.size:
        bad.append("all zero")
    if saturated > q.size // 10:
        bad.append("saturated")
    if err.max() > a.max_lsb:
        bad.append("max error %.2f LSB > %.2f" % (err.max(), a.max_lsb))
    print("FAIL: " + ", ".join(bad) if bad else "PASS: within %.1f LSB of the float network" % a.max_lsb)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
