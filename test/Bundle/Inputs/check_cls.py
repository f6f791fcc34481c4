"""The classifier's bundle (demo.test): schema, weights against a fresh
compile's packed constants, the host layers that have a reason.

    check_cls.py OUT_DIR SCHEMA MODEL.onnx
"""
import json
import sys

import jsonschema

import dla
import dla.bundle

out, schema_path = sys.argv[1:3]
bundle = dla.bundle.load(out)
with open(schema_path) as f:
    errors = list(jsonschema.Draft202012Validator(json.load(f)).iter_errors(bundle.manifest))
print("%s: manifest valid against the schema" % ("ok" if not errors else "FAIL"))
import onnx  # noqa: E402
from dla_onnx import import_model  # noqa: E402 (beside dla in python_packages)

with dla.Context() as ctx:
    module = ctx.parse_module(import_model(onnx.load(sys.argv[3]), {"x": [1, 3, 48, 192]}))
    module.run_pipeline("builtin.module(dla-compile{convert-tosa=true target=nv_full "
                        "precision=fp16 layouts=true compression=true})")
    blobs = module.resource_blobs()
same = sorted(blobs) == sorted(bundle.weights) and all(
    bytes(bundle.weights[k]) == v for k, v in blobs.items())
print("%s: %d weight files, the packed constants byte for byte" % ("ok" if same else "FAIL", len(blobs)))
host = sorted(l["op"].split(".")[1] for l in bundle.manifest["layers"]
              if l["placement"] == "host" and not l["reason"].startswith("not a layer"))
print("host layers: %s" % " ".join(host))
