#!/usr/bin/env python3
"""The dla Python package's packing against the C API it wraps, in one
process: crouton / depth32 int8 activations and direct fp16 weights.

  C API:            dlaBoundLayoutPack on the numpy buffers, called directly
  pack(x, out=buf): the package, into a preallocated numpy buffer (no copy)
  pack(x):          the package returning bytes (one copy into bytes)
  memcpy:           np.copyto of the larger side
  numpy:            pad + reshape + transpose (chunked layouts only)

Medians of alternating runs; ratios against the C API call.

Usage: PYTHONPATH=build/python_packages python3 bench/python_pack.py [--runs N]
"""
import argparse
import ctypes
import statistics
import time

import numpy as np

import dla
from dla import _capi

CASES = [
    ("tensor<1x224x224x256xi8, #dla.chunked<crouton>>", "crouton"),
    ("tensor<1x112x112x128xi8, #dla.chunked<depth32>>", "depth32"),
    ("tensor<1024x1024x3x3xf16, #dla.weight<direct, fp16>>", None),
]


def numpy_pack(x, preset):
    up = lambda v, m: -(-v // m) * m
    n, h, w, c = x.shape
    if preset == "crouton":
        H, W, C = up(h, 8), up(w, 8), up(c, 32)
        p = np.pad(x, ((0, 0), (0, H - h), (0, W - w), (0, C - c)))
        return np.ascontiguousarray(p.reshape(n, H // 8, 8, W // 8, 8, C // 32, 32)
                                    .transpose(0, 1, 3, 5, 2, 4, 6))
    W, C = up(w, 4), up(c, 32)
    p = np.pad(x, ((0, 0), (0, 0), (0, W - w), (0, C - c)))
    return np.ascontiguousarray(p.reshape(n, h, W // 4, 4, C // 32, 32).transpose(0, 1, 4, 2, 3, 5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    rng = np.random.default_rng(4)
    print(f"dla Python package vs C API, medians of {args.runs} alternating runs")
    for tensor, preset in CASES:
        layout = dla.layout(tensor)
        x = rng.integers(-128, 128, layout.shape).astype(layout.dtype)
        out = np.empty(layout.storage_bytes, np.uint8)
        larger = max(layout.storage_bytes, layout.logical_bytes)
        a, b = np.ones(larger, np.uint8), np.empty(larger, np.uint8)
        src_ptr = x.ctypes.data_as(ctypes.c_void_p)
        dst_ptr = out.ctypes.data_as(ctypes.c_void_p)

        def capi():
            _capi.dlaBoundLayoutPack(layout._bound, src_ptr, x.nbytes, dst_ptr, out.nbytes)

        fns = {"C API": capi,
               "pack(x, out=buf)": lambda: layout.pack(x, out=out),
               "pack(x) -> bytes": lambda: layout.pack(x),
               "memcpy": lambda: np.copyto(b, a)}
        if preset:
            fns["numpy"] = lambda: numpy_pack(x, preset)
        times = {k: [] for k in fns}
        for f in fns.values():
            f()
        for _ in range(args.runs):
            for k, f in fns.items():
                t = time.perf_counter()
                f()
                times[k].append(time.perf_counter() - t)
        med = {k: statistics.median(v) for k, v in times.items()}
        same = layout.pack(x) == out.tobytes() and (
            not preset or numpy_pack(x, preset).tobytes() == out.tobytes())
        print(f"  {tensor} ({larger / 1e6:.1f} MB): bytes {'identical' if same else 'DIFFER'}")
        for k, v in med.items():
            print(f"    {k:18s} {v * 1e3:8.3f} ms  {v / med['C API']:6.2f}x the C API")


if __name__ == "__main__":
    main()
