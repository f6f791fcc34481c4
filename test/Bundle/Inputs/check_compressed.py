"""Checks the bundle of Inputs/sparse-net.mlir (nv_full fp16, weights stored
compressed):

    check_compressed.py OUT_DIR SCHEMA      (utils/dla-ref on PYTHONPATH)

- the manifest validates against docs/bundle-manifest.schema.json;
- the weight's WGS, WMB and data files are, byte for byte, what the
  independent numpy reference (utils/dla-ref/weight_ref.py, written from
  NVIDIA's in-memory format document) compresses the weights to, with the
  weights recomputed here from sparse-net.mlir's formula;
- each surface's manifest entry gives its file's size and the format
  library's alignment, and the summary's dense / compressed bytes are the
  reference's.
Prints one line per checked fact for FileCheck; exits 1 on a mismatch.
"""

import sys

import numpy as np

from bundle_checks import check, finish, load_valid

import weight_ref

out, schema_path = sys.argv[1:3]

bundle = load_valid(out, schema_path)

K, C, R, S = 16, 16, 3, 3
w = np.zeros((K, C, R, S), np.float16)
for k in range(K):
    for c in range(C):
        for r in range(R):
            for s in range(S):
                if (k + c + r) % 4 == 0:
                    w[k, c, r, s] = ((7 * k + 5 * r + 3 * s + c) % 11 - 5) * 0.125
encoding = "#dla.weight<direct, fp16, compressed>"
expected = weight_ref.pack(w, encoding, "f16")
surfaces = {e["surface"]: e for e in bundle.manifest["weights"] if e["encoding"] == encoding}
check(sorted(surfaces) == ["data", "wgs", "wmb"], "surfaces %s" % sorted(surfaces))
for name in ("wgs", "wmb", "data"):
    e = surfaces.get(name)
    got = bytes(bundle.weights[e["name"]]) if e else b""
    check(got == expected[name] and e["bytes"] == len(got) and e["alignment"] == 256
          and e["shape"] == [K, C, R, S],
          "%s: %d bytes, 256-byte aligned, the reference's compression" % (name, len(got)))
summary = bundle.manifest["summary"]
dense = weight_ref.plan(weight_ref.resolve("#dla.weight<direct, fp16>"), w.shape, "f16").size
stored = sum(len(expected[n]) for n in ("wgs", "wmb", "data"))
check(summary["compressed_weights"] == 1 and summary["compressible_weight_bytes"] == dense
      and summary["compressed_weight_bytes"] == stored,
      "summary: %d bytes dense, %d compressed" % (dense, stored))
finish()
