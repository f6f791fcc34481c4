#!/usr/bin/env python3
"""A module with many relayouts of constants for --dla-pack-weights: every
encoding family (chunked presets, NVDLA feature, weights direct / image /
Winograd / deconvolution, compressed, fp32 sources rounded to fp16, bias,
batch-norm, pixel), non-splat data, so the pass's parallel phase runs many
packers at once on the context thread pool (scripts/tsan-pack-weights.sh).

Usage: many_constants.py [--copies N] > module.mlir
"""
import argparse
import random

ENCODINGS = [
    ("1x8x5x30", "i8", "#dla.chunked<crouton>"),
    ("1x8x5x30", "f16", "#dla.chunked<depth32>"),
    ("2x3x4x5", "i32", "#dla.chunked<[(0,0),(1,0),(2,0),(3,0),(3,4)]>"),
    ("1x40x6x9", "i8", "#dla.feature<int8>"),
    ("1x40x6x9", "f16", "#dla.feature<fp16>"),
    ("24x16x3x3", "i8", "#dla.weight<direct, int8>"),
    ("24x16x3x3", "i8", "#dla.weight<direct, int8, compressed>"),
    ("24x16x3x3", "f16", "#dla.weight<direct, fp16, compressed>"),
    ("16x3x3x3", "i8", "#dla.weight<image, int8, channels = 4>"),
    ("16x16x3x3", "f16", "#dla.weight<winograd, fp16>"),
    ("8x8x3x3", "i8", "#dla.weight<deconv, int8, stride = [2, 2]>"),
    ("16", "i16", "#dla.bias<per_channel, int16>"),
    ("17x2", "f16", "#dla.batchnorm<per_channel, fp16>"),
    ("1x4x6x10", "ui8", "#dla.pixel<T_A8B8G8R8>"),
]


def values(r, n, elem):
    if elem.startswith("f"):
        return [f"{r.randint(-512, 512) / 64:.4f}" for _ in range(n)]
    if elem == "ui8":
        return [str(r.randint(0, 255)) for _ in range(n)]
    bits = {"i8": 8, "i16": 16, "i32": 32}[elem]
    return [str(r.randint(-2 ** (bits - 1), 2 ** (bits - 1) - 1)) for _ in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    r = random.Random(args.seed)
    body, rets, types = [], [], []
    for copy in range(args.copies):
        for i, (shape, elem, enc) in enumerate(ENCODINGS):
            dims = [int(d) for d in shape.split("x")]
            n = 1
            for d in dims:
                n *= d
            plain = f"tensor<{shape}x{elem}>"
            encoded = f"tensor<{shape}x{elem}, {enc}>"
            c, v = f"%c{copy}_{i}", f"%r{copy}_{i}"
            # Flat data reshaped by the constant's type: dense<[...]> needs nesting,
            # so spell it through a rank-1 constant and tensor.reshape-free form:
            # MLIR accepts a flat list for a hex string only, hence nesting here.
            def nest(vals, ds):
                if not ds:
                    return vals.pop()
                return "[" + ", ".join(nest(vals, ds[1:]) for _ in range(ds[0])) + "]"
            vals = values(r, n, "f32" if elem == "f16" and copy % 2 else elem)
            if elem == "f16" and copy % 2:
                # fp32 source, rounded to fp16 while packing.
                body.append(f"  {c}w = arith.constant dense<{nest(vals, dims)}> : tensor<{shape}xf32>")
                body.append(f"  {c} = arith.truncf {c}w : tensor<{shape}xf32> to {plain}")
            else:
                body.append(f"  {c} = arith.constant dense<{nest(vals, dims)}> : {plain}")
            body.append(f"  {v} = dla.relayout {c} : {plain} -> {encoded}")
            rets.append(v)
            types.append(encoded)
    print(f"func.func @many() -> ({', '.join(types)}) {{")
    print("\n".join(body))
    print(f"  return {', '.join(rets)} : {', '.join(types)}")
    print("}")


if __name__ == "__main__":
    main()
