"""pytest suite for the chunked-layout reference (run: /usr/bin/python3 -m pytest -q).

Pins the worked memory-order listings of
/work/shared/spec/htp/chunked-memory-layout.txt (errata 1 and 2 of
/work/shared/spec/README.md applied), checks the brute-force and numpy
implementations against each other and against hand-written offset formulas,
and exercises gen_module.py / check_packed.py end to end.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # keep the source tree clean when run from lit

import chunked_ref as ref  # noqa: E402
import check_packed  # noqa: E402
import fake_pack  # noqa: E402
import gen_module  # noqa: E402

PY = sys.executable


# ---------------------------------------------------------------------------
# Listing checker
# ---------------------------------------------------------------------------
#
# A listing is transcribed line by line from the document.  Reading rules
# (the document: "Ellipses indicate non contiguous data. Newlines are still
# contiguous, only there for readability."):
#   * "A, B" inside a line: B is the element right after A in memory;
#   * "A ... B" inside a line: B comes later than A (elements are omitted);
#   * consecutive lines (blank lines ignored): the first tuple of a line is
#     the element right after the last tuple of the previous line;
#   * a line holding only "...": the next line comes later (omitted lines).
# Text after '>' on a line is an annotation and is ignored here.

_TUPLE = re.compile(r"\(([\d\s,]+)\)")


def parse_listing(text):
    """-> list of (kind, tuple) steps; kind is 'first', 'next' or 'later'."""
    steps = []
    pending_gap = False
    for line in text.strip("\n").splitlines():
        line = line.split(">")[0]
        if not line.strip():
            continue
        if line.strip() == "...":
            pending_gap = True
            continue
        pos = 0
        first_in_line = True
        for m in _TUPLE.finditer(line):
            tup = tuple(int(x) for x in m.group(1).split(","))
            sep = line[pos:m.start()]
            if not steps:
                kind = "first"
            elif first_in_line:
                kind = "later" if pending_gap else "next"
            else:
                kind = "later" if "..." in sep else "next"
                assert sep.strip() in (",", "...", ", ...", ",..."), repr(sep)
            steps.append((kind, tup))
            pos = m.end()
            first_in_line = False
        pending_gap = False
    return steps


def listing_violations(pairs, shape, text):
    """All places where the listing disagrees with the reference offsets."""
    bad = []
    steps = parse_listing(text)
    prev = None
    for kind, tup in steps:
        off = ref.offset(pairs, shape, tup)
        if kind == "first" and off != 0:
            bad.append(f"{tup} is at {off}, not 0")
        elif kind == "next" and off != prev[1] + 1:
            bad.append(f"{tup} at {off} does not follow {prev[0]} at {prev[1]}")
        elif kind == "later" and off <= prev[1]:
            bad.append(f"{tup} at {off} is not after {prev[0]} at {prev[1]}")
        prev = (tup, off)
    return bad


def box_range(pairs, shape, lo, hi):
    """Offsets of the index box lo..hi (inclusive) must fill [offset(lo), offset(hi)]."""
    offs = sorted(ref.offset(pairs, shape, idx) for idx in
                  itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi))))
    a, b = ref.offset(pairs, shape, lo), ref.offset(pairs, shape, hi)
    return offs == list(range(a, b + 1)), (a, b)


# ---------------------------------------------------------------------------
# Flat layout, 2x3x5x30 (erratum 1 fixed)
# ---------------------------------------------------------------------------

FLAT_LISTING = """
(0,0,0,0), (0,0,0,1) ... (0,0,0,29),
(0,0,1,0), (0,0,1,1) ... (0,0,1,29),
...
(0,0,4,0), (0,0,4,1), ... (0,0,4,29),
(0,1,0,0), (0,1,0,1), ... (0,1,0,29),
(0,1,1,0), (0,1,1,1), ... (0,1,1,29),
...
(0,2,1,0), (0,2,1,1), ... (0,2,1,29),
...
(0,2,4,0), (0,2,4,1), ... (0,2,4,29),
(1,0,0,0), (1,0,0,1), ... (1,0,0,29),
...
(1,2,4,0), (1,2,4,1), ... (1,2,4,29),
"""


def test_flat_listing():
    pairs, shape = ref.PRESETS["flat"], (2, 3, 5, 30)
    assert ref.PRESETS["flat"] == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert listing_violations(pairs, shape, FLAT_LISTING) == []
    assert ref.storage_size(pairs, shape) == 2 * 3 * 5 * 30
    assert ref.offset(pairs, shape, (1, 2, 4, 29)) == 899  # last element
    # flat is plain row-major
    a = np.arange(900).reshape(shape)
    assert np.array_equal(ref.pack(a, pairs), a.ravel())
    assert np.array_equal(ref.pack_bruteforce(a, pairs), a.ravel())


def test_flat_listing_erratum1_as_printed_is_inconsistent():
    printed = FLAT_LISTING.replace("(0,1,0,0), (0,1,0,1),", "(0,1,0,0), (0,0,0,1),")
    assert printed != FLAT_LISTING
    bad = listing_violations(ref.PRESETS["flat"], (2, 3, 5, 30), printed)
    assert len(bad) == 1 and "(0, 0, 0, 1)" in bad[0]


# ---------------------------------------------------------------------------
# Crouton, 1x3x5x30 padded to 1x8x8x32 (erratum 2 fixed)
# ---------------------------------------------------------------------------

CROUTON_SMALL_LISTING = """
(0,0,0,0), (0,0,0,1), ... (0,0,0,29),  (0,0,0,30), (0,0,0,31),

(0,0,1,0), (0,0,1,1), ... (0,0,1,29), (0,0,1,30), (0,0,1,31),
...
(0,0,4,0), (0,0,4,1), ... (0,0,4,29), (0,0,4,30 ),(0,0,4,31),

(0,0,5,0), (0,0,5,1), ... (0,0,5,31),
...
(0,0,7,0), (0,0,7,1), ... (0,0,7,31),
(0,1,0,0), (0,1,0,1), ... (0,1,0,31),
(0,1,1,0), (0,1,1,1), ... (0,1,1,31),
...
(0,2,1,0), (0,2,1,1), ... (0,2,1,31),
...
(0,2,4,0), (0,2,4,1), ... (0,2,4,29), (0,2,4,30), (0,2,4,31)
"""


def test_crouton_small_listing():
    pairs, shape = ref.PRESETS["crouton"], (1, 3, 5, 30)
    assert listing_violations(pairs, shape, CROUTON_SMALL_LISTING) == []
    # "the data gets padded to 1x8x8x32"
    assert ref.padded_shape(pairs, shape) == (1, 8, 8, 32)
    assert ref.storage_size(pairs, shape) == 1 * 8 * 8 * 32
    assert ref.offset(pairs, shape, (0, 7, 7, 31)) == 2047


def test_crouton_small_listing_erratum2_as_printed_is_inconsistent():
    printed = CROUTON_SMALL_LISTING.replace(
        "(0,0,1,29), (0,0,1,30), (0,0,1,31),", "(0,0,1,29), (0,0,0,30), (0,0,0,31),")
    assert printed != CROUTON_SMALL_LISTING
    bad = listing_violations(ref.PRESETS["crouton"], (1, 3, 5, 30), printed)
    # (0,0,0,30) at 30 cannot follow (0,0,1,29) at 61 (the printed (0,0,0,31)
    # then does follow the printed (0,0,0,30), so one violation is reported)
    assert len(bad) == 1 and "(0, 0, 0, 30)" in bad[0]


@pytest.mark.parametrize("valid,pad", [
    # "(0,0,0,0) to (0,0,0,29) is valid data, (0,0,0,30) (0,0,0,31) is pad"
    (((0, 0, 0, 0), (0, 0, 0, 29)), ((0, 0, 0, 30), (0, 0, 0, 31))),
    # "(0,0,4,0) to (0,0,4,29) is valid data, (0,0,4,30), (0,0,4,31),
    #  (0,0,5,0)...(0,0,7,31) is pad"
    (((0, 0, 4, 0), (0, 0, 4, 29)), ((0, 0, 4, 30), (0, 0, 7, 31))),
    # "(0,2,4,0) to (0,2,4,29) is valid data, (0,2,4,30) ...(0,2,7,31),
    #  (0,3,0,0)...(0,7,7,31) is pad"
    (((0, 2, 4, 0), (0, 2, 4, 29)), ((0, 2, 4, 30), (0, 7, 7, 31))),
])
def test_crouton_small_padding_claims(valid, pad):
    pairs, shape = ref.PRESETS["crouton"], (1, 3, 5, 30)
    packed = ref.pack(np.ones(shape, dtype=np.int8), pairs)
    a, b = (ref.offset(pairs, shape, t) for t in valid)
    assert b - a == 29
    assert all(packed[a:b + 1] == 1)
    assert all(ref.index_at(pairs, shape, o) is not None for o in range(a, b + 1))
    a, b = (ref.offset(pairs, shape, t) for t in pad)
    assert a == (ref.offset(pairs, shape, valid[1]) + 1)   # pad follows the data
    assert all(packed[a:b + 1] == 0)
    assert all(ref.index_at(pairs, shape, o) is None for o in range(a, b + 1))


# ---------------------------------------------------------------------------
# Crouton, 2x9x20x50 padded to 2x16x24x64
# ---------------------------------------------------------------------------

# Lines 1..(0,7,16,32)...(0,7,23,63) of the document's listing, verbatim
# (the "}" typo after "dimension 3" dropped; it is after '>' anyway).
CROUTON_BIG_LISTING = """
(0,0,0,0) ... (0,0,0,31)
(0,0,1,0) ... (0,0,1,31)
...
(0,0,7,0) ... (0,0,7,31)
(0,1,0,0) ... (0,1,7,31)
...
(0,7,7,0) ... (0,7,7,31) > end of chunk


(0,0,0,32) ... (0,0,0,63) > start of chunk
(0,0,1,32) ... (0,0,1,63)
...
(0,0,7,32) ... (0,0,7,63)
(0,1,0,32) ... (0,1,7,63)
...
(0,7,7,32) ... (0,7,7,63) > end of chunk, finished traversing all 64 in dimension 3

(0,0,8,0) ...  (0,0,8,31)
(0,0,9,0) ...  (0,0,9,31)
...
(0,0,15,0) ... (0,0,15,31)
(0,1,8,0) ...  (0,1,15,31)
...
(0,7,8,0) ...  (0,7,15,31)

(0,0,8,32) ... (0,0,15,63)
...
(0,7,8,32) ... (0,7,15,63)
(0,0,16,0) ... (0,0,23,63)
...
(0,7,16,32) ... (0,7,23,63) > finished traversing all 24 in dimension 2
"""

BIG = (2, 9, 20, 50)
CHUNK = 8 * 8 * 32


def test_crouton_big_padding():
    pairs = ref.PRESETS["crouton"]
    assert ref.padded_shape(pairs, BIG) == (2, 16, 24, 64)
    assert ref.storage_size(pairs, BIG) == 2 * 16 * 24 * 64
    assert ref.storage_shape(pairs, BIG) == (2, 2, 3, 2, 8, 8, 32)


def test_crouton_big_listing():
    assert listing_violations(ref.PRESETS["crouton"], BIG, CROUTON_BIG_LISTING) == []


def test_crouton_big_line_runs():
    # Lines "A ... B" whose A..B is a row of one chunk are contiguous runs.
    pairs = ref.PRESETS["crouton"]
    for a, b, n in [((0, 0, 0, 0), (0, 0, 0, 31), 32), ((0, 1, 0, 0), (0, 1, 7, 31), 256),
                    ((0, 0, 8, 32), (0, 0, 15, 63), 256), ((0, 7, 8, 0), (0, 7, 15, 31), 256)]:
        assert ref.offset(pairs, BIG, b) - ref.offset(pairs, BIG, a) == n - 1


@pytest.mark.parametrize("lo,hi,start,end", [
    # first chunk; "> end of chunk"
    ((0, 0, 0, 0), (0, 7, 7, 31), 0, CHUNK - 1),
    # "> start of chunk" ... "> end of chunk, finished traversing all 64 in dimension 3"
    ((0, 0, 0, 32), (0, 7, 7, 63), CHUNK, 2 * CHUNK - 1),
    ((0, 0, 8, 0), (0, 7, 15, 31), 2 * CHUNK, 3 * CHUNK - 1),
    ((0, 0, 8, 32), (0, 7, 15, 63), 3 * CHUNK, 4 * CHUNK - 1),
    # "> finished traversing all 24 in dimension 2"
    ((0, 0, 0, 0), (0, 7, 23, 63), 0, 6 * CHUNK - 1),
    # "(0,8,0,0) ... (0,8,23,63) (0,15,0,0) ... (0,15,23,63)
    #  > finished traversing all 16 in dimension 1"
    ((0, 8, 0, 0), (0, 15, 23, 63), 6 * CHUNK, 12 * CHUNK - 1),
    ((0, 0, 0, 0), (0, 15, 23, 63), 0, 12 * CHUNK - 1),
    # "(1,0,0,0) ... (1,8,23,63) (1,15,0,0) ... (1,15,23,63) > end of memory layout"
    ((1, 0, 0, 0), (1, 15, 23, 63), 12 * CHUNK, 24 * CHUNK - 1),
])
def test_crouton_big_chunk_boundaries(lo, hi, start, end):
    pairs = ref.PRESETS["crouton"]
    ok, (a, b) = box_range(pairs, BIG, lo, hi)
    assert ok and (a, b) == (start, end)


def test_crouton_big_end_of_layout():
    pairs = ref.PRESETS["crouton"]
    assert ref.offset(pairs, BIG, (1, 15, 23, 63)) == ref.storage_size(pairs, BIG) - 1
    # the row-8 sub-run named in the "dimension 1" line starts the second
    # half of batch 0
    assert ref.offset(pairs, BIG, (0, 8, 0, 0)) == 6 * CHUNK
    assert ref.offset(pairs, BIG, (1, 0, 0, 0)) == 12 * CHUNK


# ---------------------------------------------------------------------------
# Convolution weights
# ---------------------------------------------------------------------------

CONV_LISTING = """
(0,0,0,0), (0,0,1,0), (0,0,2,0), (0,0,3,0),
(0,0,0,1), (0,0,1,1), (0,0,2,1), (0,0,3,1),
(0,0,0,2) ...                    (0,0,3,31),
(0,0,4,0), (0,0,5,0), (0,0,6,0), (0,0,7,0),
(0,0,4,1), (0,0,5,1), (0,0,6,1), (0,0,7,1),
(0,0,4,2) ... (0,0,7,31), ...   (0,0,31,31),
(0,1,0,0), (0,1,1,0), ...       (0,1,31,31),
...
(0,2,0,0), ...                  (0,2,31,31),
(1,0,0,0), ...                  (1,0,31,31)
"""


def test_conv_weight_listing():
    pairs, shape = ref.PRESETS["conv_weight"], (3, 3, 32, 32)
    assert pairs == ((3, 0), (2, 0), (0, 0), (1, 0), (2, 8), (3, 32), (2, 4))
    assert listing_violations(pairs, shape, CONV_LISTING) == []
    assert ref.storage_size(pairs, shape) == 3 * 3 * 32 * 32
    # each (h, w) tap is one contiguous 32x32 block
    for h, w in itertools.product(range(3), range(3)):
        ok, (a, b) = box_range(pairs, shape, (h, w, 0, 0), (h, w, 31, 31))
        assert ok and a == (h * 3 + w) * 1024


def test_conv_weight_32x50():
    # "a 3x3x32x50 tensor ... will get padded into 3x3x32x64. But the format
    #  says do (0,0,0,0)...(2,2,31,31) and then do (0,0,0,32)...(2,2,31,63)"
    pairs, shape = ref.PRESETS["conv_weight"], (3, 3, 32, 50)
    assert ref.padded_shape(pairs, shape) == (3, 3, 32, 64)
    ok, (a, b) = box_range(pairs, shape, (0, 0, 0, 0), (2, 2, 31, 31))
    assert ok and (a, b) == (0, 9215)
    ok, (a, b) = box_range(pairs, shape, (0, 0, 0, 32), (2, 2, 31, 63))
    assert ok and (a, b) == (9216, 18431) and b == ref.storage_size(pairs, shape) - 1


CONV_BIG_BLOCKS = [
    ((0, 0, 0, 0), (2, 2, 31, 31)),
    ((0, 0, 32, 0), (2, 2, 63, 31)),
    ((0, 0, 0, 32), (2, 2, 31, 63)),
    ((0, 0, 32, 32), (2, 2, 63, 63)),
    ((0, 0, 0, 64), (2, 2, 31, 95)),
    ((0, 0, 32, 64), (2, 2, 63, 95)),
]


def test_conv_weight_64x96_block_order():
    pairs, shape = ref.PRESETS["conv_weight"], (3, 3, 64, 96)
    assert ref.storage_size(pairs, shape) == 3 * 3 * 64 * 96
    block = 3 * 3 * 32 * 32
    for i, (lo, hi) in enumerate(CONV_BIG_BLOCKS):
        ok, (a, b) = box_range(pairs, shape, lo, hi)
        assert ok, (lo, hi)
        assert (a, b) == (i * block, (i + 1) * block - 1)


# ---------------------------------------------------------------------------
# Hand-written offset formulas for the presets (a third, independent check)
# ---------------------------------------------------------------------------

def cdiv(a, b):
    return -(-a // b)


def formula_offset(name, shape, idx):
    N, H, W, C = shape
    n, h, w, c = idx
    if name == "flat":
        return ((n * H + h) * W + w) * C + c
    if name == "nchw":
        return ((n * C + c) * H + h) * W + w
    if name == "depth32":
        Cc, Wc = cdiv(C, 32), cdiv(W, 4)
        return ((((n * H + h) * Cc + c // 32) * Wc + w // 4) * 4 + w % 4) * 32 + c % 32
    Hc8, Wc8, Cc = cdiv(H, 8), cdiv(W, 8), cdiv(C, 32)
    if name == "crouton":
        return ((((((n * Hc8 + h // 8) * Wc8 + w // 8) * Cc + c // 32) * 8 + h % 8) * 8
                 + w % 8) * 32 + c % 32)
    if name == "crouton4x1":
        return (((((((n * Hc8 + h // 8) * Wc8 + w // 8) * Cc + c // 32) * 8 + h % 8) * 2
                  + (w // 4) % 2) * 32 + c % 32) * 4 + w % 4)
    if name == "crouton2x2":
        return (((((((((n * Hc8 + h // 8) * Wc8 + w // 8) * Cc + c // 32) * 4 + (h // 2) % 4)
                    * 4 + (w // 2) % 4) * 32 + c % 32) * 2 + h % 2) * 2 + w % 2))
    if name == "crouton2":
        Wc4 = cdiv(W, 4)
        return (((((((n * Hc8 + h // 8) * Wc4 + w // 4) * Cc + c // 32) * 8 + h % 8) * 2
                  + (w // 2) % 2) * 32 + c % 32) * 2 + w % 2)
    if name == "conv_weight":
        R, S, Ci, Co = shape
        r, s, ci, co = idx
        return ((((((co // 32) * cdiv(Ci, 32) + ci // 32) * R + r) * S + s) * 8
                 + (ci // 4) % 8) * 32 + co % 32) * 4 + ci % 4
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(ref.PRESETS))
def test_preset_formulas(name):
    rng = np.random.default_rng(hash(name) % 1000)
    pairs = ref.PRESETS[name]
    shapes = [(1, 1, 1, 1), (1, 3, 5, 30), (2, 9, 20, 50), (3, 3, 32, 32), (3, 3, 64, 96)]
    shapes += [tuple(int(x) for x in rng.integers(1, 40, 4)) for _ in range(5)]
    shapes += [tuple(int(rng.integers(1, hi)) for hi in (4, 70, 70, 100)) for _ in range(3)]
    for shape in shapes:
        a = np.arange(1, math.prod(shape) + 1, dtype=np.int64).reshape(shape)
        expect = np.zeros(ref.storage_size(pairs, shape), dtype=np.int64)
        # formula_offset is written with + * // % only, so it vectorizes
        offs = formula_offset(name, shape, tuple(np.indices(shape)))
        expect[offs.ravel()] = a.ravel()
        assert len(set(offs.ravel().tolist())) == a.size
        assert np.array_equal(ref.pack(a, pairs), expect), (name, shape)
    # and the scalar formula on a few brute-force offsets
    for shape in shapes[:4]:
        for idx in [(0, 0, 0, 0), tuple(e - 1 for e in shape), tuple(e // 2 for e in shape)]:
            assert ref.offset(pairs, shape, idx) == formula_offset(name, shape, idx)


def test_nchw_is_a_transpose():
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    assert np.array_equal(ref.pack(a, "nchw"), a.transpose(0, 3, 1, 2).ravel())


def test_tile_left_of_rest_pair():
    # dim 1 tile (1,2) is left of its rest pair (1,0): right to left, (1,0)
    # takes w mod 3 (rest = ceil(5/2) = 3), (0,0) takes n, (1,2) takes w // 3.
    pairs, shape = ((1, 2), (0, 0), (1, 0)), (2, 5)
    assert ref.storage_shape(pairs, shape) == (2, 2, 3)
    assert ref.padded_shape(pairs, shape) == (2, 6)
    a = np.array([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
    expect = [1, 2, 3, 6, 7, 8, 4, 5, 0, 9, 10, 0]
    assert list(ref.pack(a, pairs)) == expect
    assert list(ref.pack_bruteforce(a, pairs)) == expect
    # single dim: tile more significant than the rest pair
    assert list(ref.pack(np.arange(1, 11), ((0, 4), (0, 0)))) == list(range(1, 11)) + [0, 0]
    assert list(ref.pack(np.arange(1, 11), ((0, 0), (0, 4)))) == list(range(1, 11)) + [0, 0]
    # rest-then-tile vs tile-then-rest on the same dim differ in 2-D
    b = np.arange(1, 7).reshape(1, 6)
    assert list(ref.pack(b, ((0, 0), (1, 0), (1, 4)))) == [1, 2, 3, 4, 5, 6, 0, 0]
    assert list(ref.pack(b, ((1, 4), (0, 0), (1, 0)))) == [1, 2, 3, 4, 5, 6, 0, 0]
    assert list(ref.pack(b, ((1, 0), (0, 0), (1, 4)))) == [1, 2, 3, 4, 5, 6, 0, 0]
    c = np.arange(1, 13).reshape(2, 6)
    assert list(ref.pack(c, ((1, 4), (0, 0), (1, 0)))) == \
        [1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12, 0, 0, 0, 0]


# ---------------------------------------------------------------------------
# (a) vs (b), bijection, round trip
# ---------------------------------------------------------------------------

def random_case(rng, max_elems=3000):
    while True:
        rank = int(rng.integers(1, 6))
        pairs = ref.random_pairs(rng, rank)
        t = ref.tile_products(pairs, rank)
        if math.prod(t) > max_elems:
            continue
        shape = tuple(int(rng.integers(1, 12)) if rng.random() < 0.7
                      else int(rng.integers(1, 2 * t[d] + 2)) for d in range(rank))
        if ref.storage_size(pairs, shape) <= max_elems:
            return pairs, shape


@pytest.mark.parametrize("seed", range(40))
def test_bruteforce_matches_numpy_random(seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        pairs, shape = random_case(rng)
        a = rng.integers(1, 1 << 30, size=shape, dtype=np.int64)
        p1 = ref.pack_bruteforce(a, pairs)
        p2 = ref.pack_numpy(a, pairs)
        assert p1.shape == (ref.storage_size(pairs, shape),)
        assert np.array_equal(p1, p2), (pairs, shape)
        assert np.array_equal(ref.unpack(p2, pairs, shape), a)
        # padding is zero and is exactly storage - logical elements
        assert int((p2 == 0).sum()) == ref.storage_size(pairs, shape) - a.size


@pytest.mark.parametrize("name", sorted(ref.PRESETS))
def test_bruteforce_matches_numpy_presets(name):
    rng = np.random.default_rng(len(name))
    for _ in range(4):
        shape = tuple(int(x) for x in rng.integers(1, 12, 4))
        a = rng.integers(1, 100, size=shape, dtype=np.int32)
        assert np.array_equal(ref.pack_bruteforce(a, name), ref.pack_numpy(a, name))


@pytest.mark.parametrize("seed", range(25))
def test_offset_is_bijection(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(6):
        pairs, shape = random_case(rng)
        size = ref.storage_size(pairs, shape)
        padded = ref.padded_shape(pairs, shape)
        assert math.prod(padded) == size
        # over the padded box the offset map is a bijection onto [0, size)
        offs = [ref.offset(pairs, shape, idx)
                for idx in itertools.product(*(range(e) for e in padded))]
        assert sorted(offs) == list(range(size))
        # logical indices map injectively; index_at inverts offset
        seen = set()
        for idx in itertools.product(*(range(e) for e in shape)):
            o = ref.offset(pairs, shape, idx)
            assert 0 <= o < size and o not in seen
            seen.add(o)
            assert ref.index_at(pairs, shape, o) == idx
        for o in set(range(size)) - seen:
            assert ref.index_at(pairs, shape, o) is None
        lm = ref.logical_map(pairs, shape)
        assert sorted(lm[lm >= 0].tolist()) == list(range(math.prod(shape)))


def test_offset_rejects_out_of_padded_range():
    with pytest.raises(ValueError):
        ref.offset("crouton", (1, 3, 5, 30), (0, 8, 0, 0))
    with pytest.raises(ValueError):
        ref.index_at("crouton", (1, 3, 5, 30), 2048)


# ---------------------------------------------------------------------------
# Validation and parsing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("pairs,rank", [
    (((0, 0), (1, 8)), 2),             # dim 1 has no rest pair
    (((0, 0), (0, 0)), 1),             # dim 0 twice with size 0
    (((0, 0), (2, 0)), 2),             # dim 2 outside rank 2
    (((0, 0), (0, -1)), 1),            # negative size
    ((), 1),                           # empty
])
def test_invalid_layouts(pairs, rank):
    with pytest.raises(ValueError):
        ref.validate(pairs, rank)


def test_preset_rank_mismatch():
    with pytest.raises(ValueError):
        ref.pack(np.zeros((2, 3)), "crouton")


@pytest.mark.parametrize("text,expect", [
    ("crouton", ref.PRESETS["crouton"]),
    ("#dla.chunked<nchw>", ref.PRESETS["nchw"]),
    ("[(0,0),(1,0),(1,8)]", ((0, 0), (1, 0), (1, 8))),
    ("[(0, 0), (1, 0), (1, 8)]", ((0, 0), (1, 0), (1, 8))),
    ("#dla.chunked<[(0, 0), (1, 0), (1, 8)]>", ((0, 0), (1, 0), (1, 8))),
    ("0,0, 1,0, 2,0, 3,0", ref.PRESETS["flat"]),
])
def test_parse_layout(text, expect):
    assert ref.parse_layout(text) == expect


def test_parse_layout_errors():
    for bad in ["croutonx", "[(0,0),(1)]", "[(0,0) junk]", "0,0,1"]:
        with pytest.raises(ValueError):
            ref.parse_layout(bad)


def test_summary_table_nchw_differs_from_prose():
    # The summary table's ChunkedMemoryLayout<4, 0,0, 3,0, 2,0, 1,0> stores
    # N,C,W,H; the prose (which we follow) says 0,0, 3,0, 1,0, 2,0 = N,C,H,W.
    a = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    table = ((0, 0), (3, 0), (2, 0), (1, 0))
    assert np.array_equal(ref.pack(a, table), a.transpose(0, 3, 2, 1).ravel())
    assert not np.array_equal(ref.pack(a, table), ref.pack(a, "nchw"))


# ---------------------------------------------------------------------------
# iota and element types
# ---------------------------------------------------------------------------

def test_iota_wraps():
    assert ref.iota((300,), "i8")[[0, 127, 128, 255, 256, 299]].tolist() == \
        [0, 127, -128, -1, 0, 43]
    assert ref.iota((70000,), "i16")[65537] == 1
    assert ref.iota((70000,), "i16")[40000] == 40000 - 65536
    assert ref.iota((5,), "i64").tolist() == [0, 1, 2, 3, 4]
    f = ref.iota((5000,), "f16")
    assert f[2047] == 2047.0 and f[2048] == 0.0 and f[4100] == 4.0
    assert all(float(v) == k % 2048 for k, v in enumerate(f))
    assert ref.to_le_bytes(ref.iota((2,), "i32"), "i32") == bytes([0, 0, 0, 0, 1, 0, 0, 0])


# ---------------------------------------------------------------------------
# gen_module.py / check_packed.py
# ---------------------------------------------------------------------------

def run(args, stdin=None):
    return subprocess.run([PY] + args, input=stdin, capture_output=True, text=True)


def test_gen_module_single():
    r = run([os.path.join(HERE, "gen_module.py"), "--layout", "crouton",
             "--shape", "1x3x5x30", "--type", "i8"])
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "func.func @case0() -> tensor<1x3x5x30xi8, #dla.chunked<crouton>> {" in out
    assert ("%1 = dla.relayout %0 : tensor<1x3x5x30xi8> -> "
            "tensor<1x3x5x30xi8, #dla.chunked<crouton>>") in out
    assert "return %1 : tensor<1x3x5x30xi8, #dla.chunked<crouton>>" in out
    m = re.search(r'dense<"0x([0-9A-F]*)"> : tensor<1x3x5x30xi8>', out)
    assert bytes.fromhex(m.group(1)) == ref.to_le_bytes(ref.iota((1, 3, 5, 30), "i8"), "i8")


def test_gen_module_explicit_list_and_nested():
    r = run([os.path.join(HERE, "gen_module.py"), "--layout", "[(0,0),(1,0),(1,8)]",
             "--shape", "2x3", "--type", "f16", "--literal", "nested"])
    assert r.returncode == 0, r.stderr
    assert "#dla.chunked<[(0,0),(1,0),(1,8)]>" in r.stdout
    assert "dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf16>" in r.stdout


def test_gen_module_rejects_bad_layout():
    r = run([os.path.join(HERE, "gen_module.py"), "--layout", "crouton",
             "--shape", "2x3", "--type", "i8"])
    assert r.returncode != 0


def test_random_cases_properties():
    cases = gen_module.random_cases(200, seed=5)
    assert len(cases) == 200
    assert {c.elt for c in cases} == set(ref.ELEMENT_TYPES)
    assert {len(c.shape) for c in cases} == {1, 2, 3, 4, 5}
    assert any(c.preset for c in cases)
    assert all(c.storage_bytes() <= 65536 for c in cases)
    for c in cases:
        ref.validate(c.pairs, len(c.shape))
        if c.preset is None:
            per_dim = [sum(1 for d, s in c.pairs if d == k and s > 0)
                       for k in range(len(c.shape))]
            assert ref.preset_name(c.pairs) or max(per_dim) <= 3
    # deterministic for a seed
    assert gen_module.module_text(gen_module.random_cases(5, 9), "hex") == \
        gen_module.module_text(gen_module.random_cases(5, 9), "hex")


def _nested_values(lit):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", lit)]


def test_nested_literal_matches_hex():
    for elt in ref.ELEMENT_TYPES:
        a = ref.iota((2, 3, 130), elt)
        nested = gen_module.dense_literal(a, elt, "nested")
        assert nested.count("[") == 1 + 2 + 2 * 3
        assert _nested_values(nested) == [float(v) for v in a.ravel()]


MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt") or \
    next((p for p in ["/usr/lib/llvm-22/bin/mlir-opt"] if os.path.exists(p)), None)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt not found")
def test_literals_parse_in_mlir(tmp_path):
    # Hex and nested spellings must denote the same attribute.
    outs = {}
    for style in ["hex", "nested"]:
        funcs = []
        for i, elt in enumerate(ref.ELEMENT_TYPES):
            for j, shape in enumerate([(1,), (3,), (2, 3, 130), (1, 1, 2, 1, 3)]):
                t = "tensor<" + "".join(f"{e}x" for e in shape) + elt + ">"
                lit = gen_module.dense_literal(ref.iota(shape, elt), elt, style)
                funcs.append(f"func.func @f{i}_{j}() -> {t} {{\n"
                             f"  %0 = arith.constant {lit} : {t}\n  return %0 : {t}\n}}")
        p = tmp_path / f"{style}.mlir"
        p.write_text("\n".join(funcs) + "\n")
        r = subprocess.run([MLIR_OPT, str(p), "--mlir-print-elementsattrs-with-hex-if-larger=0"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        outs[style] = r.stdout
    assert outs["hex"] == outs["nested"]


def gen_and_fake(n, case_seed, **kw):
    text = gen_module.module_text(gen_module.random_cases(n, case_seed), "hex")
    return fake_pack.fake(text, **kw)


def check(text, *args):
    return run([os.path.join(HERE, "check_packed.py")] + list(args), stdin=text)


@pytest.mark.parametrize("spelling", ["list", "preset", "alias", "mixed"])
def test_check_packed_accepts_correct(spelling):
    out = gen_and_fake(25, 11, spelling=spelling, seed=3)
    r = check(out, "--expect-count", "25")
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r"checked 25 constants, \d+ bytes\n", r.stdout)
    total = sum(c.storage_bytes() for c in gen_module.random_cases(25, 11))
    assert r.stdout == f"checked 25 constants, {total} bytes\n"


def test_check_packed_reads_file(tmp_path):
    p = tmp_path / "out.mlir"
    p.write_text(gen_and_fake(3, 1))
    r = run([os.path.join(HERE, "check_packed.py"), str(p)])
    assert r.returncode == 0 and r.stdout.startswith("checked 3 constants")


def crouton_fake(**kw):
    text = gen_module.module_text(
        [gen_module.Case((1, 3, 5, 30), "i16", ref.PRESETS["crouton"], "crouton")], "hex")
    return fake_pack.fake(text, **kw)


def test_check_packed_reports_data_mismatch():
    # byte 100 = element 50 = (0,0,1,18)
    r = check(crouton_fake(corrupt=100))
    assert r.returncode == 1
    assert "first differing byte: 100" in r.stderr
    assert "reference puts there: (0,0,1,18)" in r.stderr
    assert "expected element 48" in r.stderr


def test_check_packed_reports_padding_mismatch():
    # byte 61 = high byte of element 30 = pad (0,0,0,30)
    r = check(crouton_fake(corrupt=61))
    assert r.returncode == 1
    assert "first differing byte: 61" in r.stderr
    assert "reference puts there: padding" in r.stderr


def test_check_packed_every_byte_is_checked():
    good = crouton_fake()
    rng = np.random.default_rng(0)
    for b in rng.integers(0, 4096, 20):
        r = check(crouton_fake(corrupt=int(b)))
        assert r.returncode == 1 and f"first differing byte: {int(b)}" in r.stderr
    assert check(good).returncode == 0


def test_check_packed_size_mismatch():
    good = crouton_fake()
    short = re.sub(r'(dla_packed: "0x[0-9A-F]*)[0-9A-F]{4}"', r'\1"', good)
    assert short != good
    r = check(short)
    assert r.returncode == 1 and "size mismatch" in r.stderr


def test_check_packed_wrong_layout_order():
    # blob packed flat but typed crouton -> mismatch
    good = crouton_fake()
    flat = ref.pack(ref.iota((1, 3, 5, 30), "i16"), "flat").astype("<i2").tobytes()
    flat = flat + bytes(4096 - len(flat))
    bad = re.sub(r'dla_packed: "0x[0-9A-F]*"',
                 'dla_packed: "0x02000000' + flat.hex().upper() + '"', good)
    r = check(bad)
    assert r.returncode == 1 and "first differing byte: 60" in r.stderr


def test_check_packed_failures():
    assert check("module {\n}\n").returncode == 1
    r = check(crouton_fake(keep_relayout=True))
    assert r.returncode == 1 and "dla.relayout remains" in r.stderr
    r = check(crouton_fake(), "--expect-count", "2")
    assert r.returncode == 1 and "expected 2 packed constants, found 1" in r.stderr
    # missing blob
    nob = re.sub(r"\{-#.*#-\}", "", crouton_fake(), flags=re.S)
    r = check(nob)
    assert r.returncode == 1 and "has no blob" in r.stderr
    # a chunked constant left as plain dense<...>
    t = "tensor<4xi8, #dla.chunked<[(0, 0)]>>"
    unpacked = crouton_fake().replace(
        "module {", f"module {{\n  func.func @x() -> {t} {{\n"
        f"    %cst = arith.constant dense<[0, 1, 2, 3]> : {t}\n    return %cst : {t}\n  }}")
    r = check(unpacked)
    assert r.returncode == 1 and "not packed into a dense_resource" in r.stderr


def test_check_packed_quoted_resource_names_and_alignment():
    good = crouton_fake(spelling="list")
    quoted = good.replace("dense_resource<dla_packed>", 'dense_resource<"dla packed">') \
                 .replace("      dla_packed:", '      "dla packed":')
    assert check(quoted).returncode == 0
    bad_align = good.replace('dla_packed: "0x02000000', 'dla_packed: "0x03000000')
    r = check(bad_align)
    assert r.returncode == 1 and "not a power of two" in r.stderr


def test_pipeline_with_clis(tmp_path):
    mod = tmp_path / "in.mlir"
    r = run([os.path.join(HERE, "gen_module.py"), "--random", "12", "--seed", "4"])
    assert r.returncode == 0
    mod.write_text(r.stdout)
    f = run([os.path.join(HERE, "fake_pack.py"), str(mod)])
    assert f.returncode == 0
    c = check(f.stdout, "--expect-count", "12")
    assert c.returncode == 0, c.stderr
