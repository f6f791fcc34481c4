#!/usr/bin/env python3
"""NVIDIA's compiler's direct-convolution weight translation for f32 weights
and fp16 compute, written again from nvdla/sw (commit 79538ba1):
umd/core/src/compiler/include/priv/WeightTranslationUnit.h,
translateWtsForDC<NvF32, half_float::half> (ConvCoreNode.cpp's
PRECISION_SWITCH for a FLOAT model at FP16 compute precision):

- prepWtTrnsOpsForDC: kf = atomicK / 2 kernels per group for a 2-byte RT
  (full groups, then the partial one); in each, the full channel groups
  (atomicC channels each), then the partial one;
- execWtTrnsOpsForDC: per op, for cg, r, s, each kernel of the group, each
  channel of the group: `*dst++ = RT(src[s + S*(r + R*(c + C*k))])`, i.e.
  half_float::half(float), each f32 weight rounded once (half.h: round to
  nearest, ties away from zero: nvidia_winograd.float2half);
- the buffer is ROUNDUP_AND_ALIGN(size * sizeof(RT), cbufWidth), zeroed.

The image (execWtTrnsOpsForIMGPostCE) and deconvolution
(execWtTrnsOpsForDeconv) translations convert the same way, `RT(value)` of
the f32 weight after f32-only rearrangements (zeroPadWtsForIMG,
preChnlExtWtsForIMG keep IT = float). Nothing here comes from the
project's code or weight_ref.py.

Usage:
  nvidia_direct.py gen [TRUNCF_MODE] > cases.mlir
      # f32 constant -> arith.truncf [MODE] -> #dla.weight<direct, fp16>
  dla-opt cases.mlir --dla-pack-weights | nvidia_direct.py check
"""

import sys

import numpy as np

import nvidia_winograd as nw

sys.dont_write_bytecode = True

F32 = np.float32
# nv_full: atomic-K 32, atomic-C 64, CBUF entry 128 bytes.
ATOMIC_K, ATOMIC_C, CBUF_WIDTH = 32, 64, 128


def translate(w, to_half=nw.float2half):
    """translateWtsForDC<NvF32, half>(KCRS f32 weights): the stored bytes."""
    w = np.asarray(w, F32)
    K, C, R, S = w.shape
    kf, cf = ATOMIC_K // 2, ATOMIC_C
    ops = []                                     # (k0, kn, [(c0, cn), ...])
    for k0 in range(0, K, kf):
        kn = min(kf, K - k0)
        ops += [(k0, kn, c0, min(cf, C - c0)) for c0 in range(0, C, cf)]
    out = []
    for k0, kn, c0, cn in ops:
        for r in range(R):
            for s in range(S):
                for k in range(k0, k0 + kn):
                    out.append(w[k, c0:c0 + cn, r, s])
    halves = to_half(np.concatenate(out)) if out else np.zeros(0, np.uint16)
    raw = halves.astype("<u2").tobytes()
    return raw + bytes(-len(raw) % CBUF_WIDTH)


def cases():
    """[(name, KCRS f32 weights)], deterministic: a partial kernel group and
    a partial channel group, random f32 with fp16 ties planted."""
    rng = np.random.default_rng(20261127)
    w = rng.standard_normal((20, 70, 3, 3)).astype(F32)
    flat = w.reshape(-1)
    # fp16 ties: an fp16 value plus half its ulp (exact in f32).
    pos = rng.choice(flat.size, size=flat.size // 8, replace=False)
    h = flat[pos].astype(np.float16)
    ulp = np.spacing(np.abs(h)).astype(F32)
    flat[pos] = (h.astype(F32) + np.sign(h.astype(F32)) * ulp / 2).astype(F32)
    return [("dc_20x70x3x3", w), ("dc_33x5x1x2", rng.standard_normal((33, 5, 1, 2)).astype(F32))]


def gen(mode):
    lines = []
    sp = " " + mode if mode else ""
    for name, w in cases():
        shape = "x".join(map(str, w.shape))
        res = "tensor<%sxf16, #dla.weight<direct, fp16>>" % shape
        hexdata = np.ascontiguousarray(w, "<f4").tobytes().hex().upper()
        lines += [
            "func.func @%s() -> %s {" % (name, res),
            '  %%0 = arith.constant dense<"0x%s"> : tensor<%sxf32>' % (hexdata, shape),
            "  %%1 = arith.truncf %%0%s : tensor<%sxf32> to tensor<%sxf16>" % (sp, shape, shape),
            "  %%2 = dla.relayout %%1 : tensor<%sxf16> -> %s" % (shape, res),
            "  return %2 : " + res,
            "}",
        ]
    print("\n".join(lines))


def main(argv):
    if argv[1:2] == ["gen"] and len(argv) <= 3:
        gen(argv[2] if len(argv) == 3 else "")
        return 0
    if argv[1:] != ["check"]:
        print(__doc__, file=sys.stderr)
        return 2
    got = nw.packed_blobs(sys.stdin.read())
    status = 0
    for name, w in cases():
        expected = translate(w)
        even = translate(w, to_half=nw.float2half_even)
        ties = int(np.count_nonzero(np.frombuffer(even, "<u2") != np.frombuffer(expected, "<u2")))
        data = got.get(name)
        if data is None:
            print("error: @%s: no packed constant in the input" % name)
            status = 1
        elif data != expected:
            bad = int(np.count_nonzero(np.frombuffer(data[:len(expected)], "<u2") !=
                                       np.frombuffer(expected, "<u2"))) if len(data) >= len(expected) else -1
            print("error: @%s: %d bytes, NVIDIA's %d; %d values differ; %s" % (
                name, len(data), len(expected), bad,
                "NVIDIA's order rounded ties to even" if data == even else
                "not NVIDIA's order rounded ties to even either"))
            status = 1
        else:
            print("@%s: %d bytes as NVIDIA's compiler; ties to even would change %d values" % (
                name, len(data), ties))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
