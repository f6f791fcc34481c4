"""Prints a dla-compile bundle's crossings for FileCheck, after checking its
manifest against the schema:

    print_crossings.py OUT_DIR SCHEMA

one line of the summary's transition keys, then per relayout its name, what
runs it, its crossings and its bytes read / written."""

import sys

from bundle_checks import finish, load_valid

bundle = load_valid(sys.argv[1], sys.argv[2])
s = bundle.manifest["summary"]
print("summary: " + " ".join("%s %d" % (k, s[k]) for k in (
    "transitions", "to_accelerator", "to_host", "host_relayouts", "transition_bytes",
    "host_relayout_bytes")))
for r in bundle.manifest["relayouts"]:
    print("%s: %s, crossings %d, %d read, %d written"
          % (r["name"], r["unit"], r["crossings"], r["read_bytes"], r["written_bytes"]))
finish()
