"""Checks a dla-compile bundle of Inputs/net.mlir (nv_full fp16):

    check_bundle.py OUT_DIR SCHEMA NET.mlir

- the manifest validates against docs/bundle-manifest.schema.json;
- dla.bundle.load's weights are the packed constants byte for byte (the
  module compiled again here, in process, by the same --dla-compile);
- every manifest storage entry is the format library's storage
  description of the entry's type;
- the weights and the feature data have the bytes and strides NVIDIA's
  in-memory format document gives (numpy written from it, below).
Prints one line per checked fact for FileCheck; exits 1 on a mismatch.
"""

import json
import sys

import numpy as np

import dla
from bundle_checks import check, finish, load_valid
from dla import pipelines

out, schema_path, net = sys.argv[1:4]
bundle = load_valid(out, schema_path)

with dla.Context() as ctx:
    module = ctx.parse_module(open(net).read())
    module.run_pipeline(pipelines.module(pipelines.compile(
        convert_tosa=True, target="nv_full", precision="fp16", layouts=True, compression=True)))
    blobs = module.resource_blobs()
    check(sorted(blobs) == sorted(bundle.weights),
          "weight names %s are the packed constants' keys" % sorted(bundle.weights))
    for name, blob in sorted(blobs.items()):
        check(bytes(bundle.weights.get(name, b"")) == blob,
              "%s: %d bytes, equal to the packed constant" % (name, len(blob)))
    for entry in bundle.manifest["weights"] + bundle.manifest["tensors"]:
        layout = ctx.parse_type(entry["type"]).layout()
        check(entry["storage"] == json.loads(json.dumps(layout.storage()))
              and entry["bytes"] == layout.storage_bytes,
              "%s: the storage description of %s" % (entry["name"], entry["type"]))

# NVDLA direct weights (fp16): K = 4 and C = 3 are below nv_full's atomic
# sizes, so one kernel group and one channel block; in it r, then s, then
# k, then c; zero to a multiple of 128 bytes.
# net.mlir's constant is TOSA's OHWI (k, r, s, c).
w = np.array([(i % 7 - 3) * 0.25 for i in range(108)], np.float16).reshape(4, 3, 3, 3)
expected = np.zeros(128, np.float16)
expected[:108] = w.transpose(1, 2, 0, 3).ravel()  # K R S C -> R S K C
weights = bundle.manifest["weights"]
conv_w = [e for e in weights if e["shape"] == [4, 3, 3, 3]][0]
check(np.array_equal(bundle.array(conv_w["name"]), expected) and conv_w["bytes"] == 256,
      "direct weights: 256 bytes, r s k c order, zero padded")
# Bias data, per channel fp16: the 4 values, zero to the 32-byte atom.
bias = [e for e in weights if e["shape"] == [4]][0]
expected = np.zeros(16, np.float16)
expected[:4] = [0.5, -0.25, 0.125, 1.0]
check(np.array_equal(bundle.array(bias["name"]), expected) and bias["alignment"] == 32,
      "bias: 32 bytes, 32-byte aligned")

# Feature data fp16 (nv_full atom: 32 bytes = 16 channels): W x H atoms per
# surface of 16 channels, line stride 32 * W bytes, surface stride
# line stride * H bytes.
for t in bundle.manifest["tensors"]:
    if t["encoding"] != "#dla.feature<fp16>":
        continue
    n, c, h, wd = t["shape"]
    view = t["storage"]["views"][0]
    eb = view["element_bytes"]
    strides = {(d["logical_dim"], d["weight"]): d["stride"] * eb for d in view["dims"]}
    surfaces = -(-c // 16)
    check(t["bytes"] == surfaces * h * wd * 32 and strides[(2, 1)] == 32 * wd
          and strides[(3, 1)] == 32 and strides[(1, 16)] == 32 * wd * h and t["alignment"] == 32,
          "%s %s: %d bytes, line stride %d, surface stride %d" % (
              t["name"], t["role"], t["bytes"], strides[(2, 1)], strides[(1, 16)]))

finish()
