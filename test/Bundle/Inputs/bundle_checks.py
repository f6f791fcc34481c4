"""What the bundle checks share: one line per checked fact for FileCheck,
the manifest validated against docs/bundle-manifest.schema.json, and exit 1
when any fact failed."""

import json
import sys

import jsonschema

import dla.bundle

failures = []


def check(ok, what):
    print("%s: %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failures.append(what)


def load_valid(out, schema_path):
    """The bundle in OUT, after checking its manifest against the schema."""
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    bundle = dla.bundle.load(out)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(bundle.manifest))
    check(not errors, "manifest valid against the schema%s" % (
        "" if not errors else ": " + "; ".join(e.message for e in errors[:3])))
    return bundle


def finish():
    sys.exit(1 if failures else 0)
