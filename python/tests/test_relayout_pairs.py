"""Every valid chain of two relayouts among the encoded tensor types of the
test inputs stays valid under -canonicalize (ComposeRelayouts must never
fold A -> B -> C into an A -> C the verifier rejects, e.g. NHWC crouton ->
row-major -> NCHW feature)."""

import glob
import itertools
import os
import re

import pytest

import dla

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TENSOR = re.compile(r"tensor<((?:\d+x)+)([a-z]+\d+), (#dla\.[a-z_]+<)")


def encoded_types():
    """(shape, element) -> the encoded tensor types the tests write."""
    groups = {}
    for path in glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True):
        text = open(path).read()
        for m in TENSOR.finditer(text):
            depth, j = 1, m.end()
            while depth and j < len(text):
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                j += 1
            if text[j:j + 1] != ">":
                continue
            key = (m.group(1), m.group(2))
            groups.setdefault(key, set()).add(text[m.start():j + 1])
    return groups


def chain(a, b, c):
    return ("func.func @f(%%x: %s) -> %s {\n"
            "  %%0 = dla.relayout %%x : %s -> %s\n"
            "  %%1 = dla.relayout %%0 : %s -> %s\n"
            "  return %%1 : %s\n}" % (a, c, a, b, b, c, c))


def test_canonicalized_relayout_chains_verify():
    ctx = dla.Context()
    valid = {}

    def is_valid(t):
        if t not in valid:
            try:
                ctx.parse_type(t)
                valid[t] = True
            except dla.DLAError:
                valid[t] = False
        return valid[t]

    checked = 0
    for (shape, element), types in sorted(encoded_types().items()):
        plain = "tensor<%s%s>" % (shape, element)
        types = sorted(t for t in types if is_valid(t))
        for a, b, c in itertools.product(types + [plain], repeat=3):
            if a == b or b == c:
                continue
            try:
                module = ctx.parse_module(chain(a, b, c))
            except dla.DLAError:
                continue  # not a valid chain to begin with
            module.run_pipeline("builtin.module(canonicalize)")
            assert module.verify(), chain(a, b, c)
            checked += 1
    # The test inputs hold NHWC and NCHW encodings of one shape, so the chain
    # through row-major that must not be folded is among them.
    assert checked > 1000, checked
