"""The classifier's bundle (demo.test): schema, weights against a fresh
compile's packed constants, the host layers that have a reason.

    check_cls.py OUT_DIR SCHEMA MODEL.onnx
"""
import sys

import onnx

import dla
from bundle_checks import check, finish, load_valid
from dla import pipelines
from dla.onnx import import_model

out, schema_path = sys.argv[1:3]
bundle = load_valid(out, schema_path)

with dla.Context() as ctx:
    module = ctx.parse_module(import_model(onnx.load(sys.argv[3]), {"x": [1, 3, 48, 192]}))
    module.run_pipeline(pipelines.module(pipelines.compile(
        convert_tosa=True, target="nv_full", precision="fp16", layouts=True, compression=True)))
    blobs = module.resource_blobs()
same = sorted(blobs) == sorted(bundle.weights) and all(
    bytes(bundle.weights[k]) == v for k, v in blobs.items())
check(same, "%d weight files, the packed constants byte for byte" % len(blobs))
host = sorted(l["op"].split(".")[1] for l in bundle.manifest["layers"]
              if l["placement"] == "host" and not l["reason"].startswith("not a layer"))
print("host layers: %s" % " ".join(host))
finish()
