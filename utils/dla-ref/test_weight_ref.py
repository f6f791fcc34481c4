"""pytest suite for the NVDLA weight reference (weight_ref.py).

Pins the orderings of the weight figures of /work/shared/spec/nvdla/format.rst
(direct mapping of a 3x3x192-byte group, image pre-extension of a 5x5x3
kernel, post-extension 2 with C = 28, Winograd channel extension and 4x4x4
cubes), partial kernel groups and channel blocks (K = 33, C = 130) on every
config and precision, deconvolution sets, the Winograd transform against a
direct fp32 G g G^T, sparse compression (bit order, WGS, round trip),
fp32 -> fp16 rounding on halfway cases, the per-position and loop-nest
implementations against each other, and gen_module.py / fake_pack.py /
check_packed.py end to end.

Run: cd utils/dla-ref && PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True

import check_packed  # noqa: E402
import fake_pack  # noqa: E402
import gen_module  # noqa: E402
import weight_ref as wr  # noqa: E402

PY = sys.executable
ELT = wr.PRECISION_ELT


def packed(w, enc, elt):
    """Pack with both implementations, check they agree, return the surfaces."""
    a = wr.pack(w, enc, elt)
    b = wr.pack_loops(w, enc, elt)
    assert a == b
    return a


def blob(w, enc, elt):
    return packed(w, enc, elt)["weights"]


def values(b: bytes, elt: str) -> np.ndarray:
    """Blob bytes as elements of MLIR type elt (or a numpy dtype such as 'u1')."""
    dt = wr.nv.element_dtype(elt) if elt in wr.nv.ELEMENT_TYPES else np.dtype(elt)
    return np.frombuffer(b, dtype=dt)


def kcrs_iota(shape, elt):
    """iota: element (k, c, r, s) holds its row-major number."""
    return wr.iota(shape, elt)


def decode(v, shape):
    """Row-major number -> (k, c, r, s) tuples."""
    return [tuple(int(x) for x in np.unravel_index(int(e), shape)) for e in v]


# ---------------------------------------------------------------------------
# Configs and groups
# ---------------------------------------------------------------------------

def test_config_table():
    assert {n: (c.atomic_c, c.atomic_k, c.entry) for n, c in wr.CONFIGS.items()} == {
        "nv_full": (64, 32, 128), "nv_large": (64, 32, 64), "nv_small": (8, 8, 8)}
    for cfg, k8, k16 in [("nv_full", 32, 16), ("nv_large", 32, 16), ("nv_small", 8, 4)]:
        for prec, kpg in [("int8", k8), ("int16", k16), ("fp16", k16)]:
            p = wr.plan(f"#dla.weight<direct, {prec}, config = {cfg}>", (1, 1, 1, 1),
                        ELT[prec])
            assert p.kpg == kpg
    assert wr.plan("#dla.weight<direct, int8>", (1, 1, 1, 1), "i8").cfg.name == "nv_full"


# ---------------------------------------------------------------------------
# format_dc_weight_mapping: one group of 3x3x192-byte kernels
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("prec", ["int16", "fp16"])
def test_dc_weight_mapping_figure(prec):
    # 16 kernels (int16/fp16), C = 192 bytes = 96 channels: small cubes 00..08
    # (channels 0..63, 128 bytes) and 09..17 (channels 64..95, 64 bytes).
    # Memory: K0_00, K1_00, ..., K15_00, K0_01, ..., K15_08, K0_09, ..., K15_17.
    shape = (16, 96, 3, 3)
    elt = ELT[prec]
    dt = wr.nv.element_dtype(elt)
    k, c, r, s = np.meshgrid(*map(np.arange, shape), indexing="ij")
    label = ((c // 64) * 9 + r * 3 + s) * 16 + k         # cube n of kernel k: n*16 + k
    enc = f"#dla.weight<direct, {prec}>"
    lab = values(blob(label.astype(dt), enc, elt), elt).astype(np.int64)
    chan = values(blob(c.astype(dt), enc, elt), elt).astype(np.int64)
    n = 16 * 96 * 9
    assert len(lab) * 2 == wr.roundup(n * 2, 128)
    runs = []
    for i in range(n):
        if not runs or runs[-1][0] != lab[i]:
            runs.append([lab[i], []])
        runs[-1][1].append(chan[i])
    assert [f"K{x % 16}_{x // 16:02d}" for x, _ in runs] == \
        [f"K{kk}_{nn:02d}" for nn in range(18) for kk in range(16)]
    for x, chans in runs:
        lo = 0 if x // 16 < 9 else 64
        assert chans == list(range(lo, lo + (64 if lo == 0 else 32)))


def test_dc_weight_mapping_figure_int8():
    # The same 3x3x192-byte kernels in int8: 32 kernels per group, 192
    # channels = three 64-byte cubes per (r, s): cubes 00..26.
    shape = (32, 192, 3, 3)
    v = values(blob(kcrs_iota(shape, "i8"), "#dla.weight<direct, int8>", "i8"), "u1")
    assert len(v) == 32 * 192 * 9
    # the run of kernel k for cube n: 64 bytes starting at (n*32 + k)*64
    w = kcrs_iota(shape, "i8")
    for n in (0, 1, 8, 9, 17, 18, 26):
        b, rs = divmod(n, 9)
        r, s = divmod(rs, 3)
        for k in (0, 1, 31):
            off = (n * 32 + k) * 64
            assert list(v[off:off + 64]) == list(w[k, b * 64:b * 64 + 64, r, s].view(np.uint8))


def test_direct_no_zeros_inside_stream():
    # erratum 6: no padding between groups or blocks, zeros only at the end
    shape = (33, 130, 1, 1)
    w = np.ones(shape, np.int8)
    b = blob(w, "#dla.weight<direct, int8>", "i8")
    n = 33 * 130
    assert b[:n] == b"\x01" * n and b[n:] == bytes(len(b) - n)
    assert len(b) == wr.roundup(n, 128)


# ---------------------------------------------------------------------------
# Partial groups and blocks: K = 33, C = 130, every config and precision
# ---------------------------------------------------------------------------

def direct_offset_formula(k, c, r, s, K, C, R, S, kpg, atc):
    """Closed form, written from the rules: groups before g are full, blocks
    before b are full."""
    g, kk = divmod(k, kpg)
    b, cc = divmod(c, atc)
    kg = np.minimum(kpg, K - g * kpg)
    cb = np.minimum(atc, C - b * atc)
    return (g * kpg * C * R * S + kg * b * atc * R * S + (r * S + s) * kg * cb +
            kk * cb + cc)


@pytest.mark.parametrize("cfg", list(wr.CONFIGS))
@pytest.mark.parametrize("prec", wr.PRECISIONS)
def test_partial_groups_and_blocks(cfg, prec):
    shape = K, C, R, S = (33, 130, 2, 3)
    elt = ELT[prec]
    enc = f"#dla.weight<direct, {prec}, config = {cfg}>"
    p = wr.plan(enc, shape, elt)
    c = wr.CONFIGS[cfg]
    n = K * C * R * S
    assert p.size == wr.roundup(n * p.esize, c.entry)
    kpg = p.kpg
    assert [cnt for _, cnt in p.segments[0].groups] == \
        [min(kpg, K - g) * C * R * S for g in range(0, K, kpg)]
    # the per-position map is the inverse of the closed form
    src = wr.positions(p, 0)
    q = np.arange(n)
    assert np.array_equal(direct_offset_formula(src.k, src.c, src.r, src.s, K, C, R, S,
                                                kpg, c.atomic_c), q)
    # and the packed bytes put iota element (k, c, r, s) at the formula
    w = kcrs_iota(shape, elt)
    v = values(blob(w, enc, elt), elt)
    kk, cc, rr, ss = np.meshgrid(*map(np.arange, shape), indexing="ij")
    offs = direct_offset_formula(kk, cc, rr, ss, K, C, R, S, kpg, c.atomic_c)
    assert np.array_equal(v[offs], w)
    assert not np.any(v[n:])
    # last group: 1 kernel; last block: 130 mod atomic-C channels
    last_block = C % c.atomic_c or c.atomic_c
    k, ch, r, s = (int(x[-1]) for x in (src.k, src.c, src.r, src.s))
    assert (k, ch, r, s) == (32, 129, R - 1, S - 1)
    k, ch = int(src.k[-last_block]), int(src.c[-last_block])
    assert (k, ch) == (32, C - last_block)


# ---------------------------------------------------------------------------
# Image input: format_dc_channel_extension_for_image_for_weight
# ---------------------------------------------------------------------------

def test_image_pre_extension_figure():
    # A 5x5x3 int16 kernel becomes 1x5x15: channel c' = s*3 + c; the figure
    # numbers positions r*5 + s: column c'-block s of row r holds (r, s).
    shape = (1, 3, 5, 5)
    w = kcrs_iota(shape, "i16")
    v = values(blob(w, "#dla.weight<image, int16>", "i16"), "i16")
    assert len(v) * 2 == wr.roundup(75 * 2, 128)
    got = decode(v[:75], shape)
    want = [(0, cp % 3, r, cp // 3) for r in range(5) for cp in range(15)]
    assert got == want
    # the figure's position numbers along row 0 of the extended kernel
    assert [r * 5 + s for _, c, r, s in got[:15] if c == 0] == [0, 1, 2, 3, 4]
    assert [r * 5 + s for _, c, r, s in got if c == 0 and s == 0] == [0, 5, 10, 15, 20]


def test_image_channels_zero_padded_before_pre_extension():
    shape = (2, 3, 2, 2)
    w = kcrs_iota(shape, "i8") + 1
    v = values(blob(w, "#dla.weight<image, int8, channels = 4>", "i8"), "i1")
    # K x (S*4) x R x 1: c' = s*4 + c, channel 3 of every column is zero
    want = []
    for r in range(2):
        for k in range(2):
            for cp in range(8):
                s, c = divmod(cp, 4)
                want.append(0 if c == 3 else int(w[k, c, r, s]))
    assert list(v[:32]) == want and not np.any(v[32:])


def test_image_channel_blocks_after_extension():
    # C' = S*Cp = 7*4 = 28 > atomic-C 8 on nv_small: blocks of 8 extended channels
    shape = (3, 4, 2, 7)
    enc = "#dla.weight<image, int8, config = nv_small>"
    w = kcrs_iota(shape, "i8")
    v = values(blob(w, enc, "i8"), "i1")
    x = wr.pre_extend(w, 4)             # K x 28 x R x 1
    want = []
    for b0 in range(0, 28, 8):
        for r in range(2):
            for k in range(3):
                want += list(x[k, b0:b0 + 8, r, 0])
    assert list(v[:len(want)]) == want


# ---------------------------------------------------------------------------
# Post-extension: format_weight_channel_post_extension_2
# ---------------------------------------------------------------------------

def test_post_extension_figure_order():
    # The figure: 16 kernels 3x3xC (C = 28), cubes numbered r*3 + s; memory
    # K0_00 K0_03 K1_00 K1_03 ... K15_00 K15_03 K0_01 K0_04 ... K15_02 K15_05
    # K0_06 K1_06 ... K14_08 K15_08 (the last row group holds one row).
    K, C, R, S = 16, 28, 3, 3
    q = np.arange(K * C * R * S)
    k, c, r, s = wr.post_extension_positions(q, K, C, R, S, 16, 2)
    seq = []
    for kk, cc, rr, ssx in zip(k, c, r, s):
        key = (int(kk), int(rr) * 3 + int(ssx))
        if not seq or seq[-1][0] != key:
            seq.append([key, []])
        seq[-1][1].append(int(cc))
    labels = [f"K{kk}_{n:02d}" for (kk, n), _ in seq]
    assert labels[:4] == ["K0_00", "K0_03", "K1_00", "K1_03"]
    assert labels[30:34] == ["K15_00", "K15_03", "K0_01", "K0_04"]
    assert labels[94:98] == ["K15_02", "K15_05", "K0_06", "K1_06"]
    assert labels[-2:] == ["K14_08", "K15_08"]
    assert len(labels) == 16 * 6 + 16 * 3
    assert all(chans == list(range(C)) for _, chans in seq)
    # the loop nest agrees
    cube = wr.iota((K, C, R, S), "i16")
    loops = np.concatenate(wr._loops_post_extension(cube, 16, 2))
    assert np.array_equal(loops, cube[k, c, r, s])


@pytest.mark.parametrize("prec", ["int16", "fp16"])
def test_post_extension_2_image_c28(prec):
    # An image weight already one column wide, C' = 28: the figure with W = 1.
    shape = (16, 28, 3, 1)
    elt = ELT[prec]
    w = kcrs_iota(shape, elt)
    enc = f"#dla.weight<image, {prec}, post_extension = 2>"
    v = values(blob(w, enc, elt), elt).astype(np.int64)
    got = decode(v[:16 * 28 * 3], shape)
    want = [(k, c, r, 0) for k in range(16) for r in (0, 1) for c in range(28)] + \
           [(k, c, 2, 0) for k in range(16) for c in range(28)]
    assert got == want
    # without post-extension: for r, for k
    v = values(blob(w, f"#dla.weight<image, {prec}>", elt), elt).astype(np.int64)
    assert decode(v[:16 * 28 * 3], shape) == \
        [(k, c, r, 0) for r in range(3) for k in range(16) for c in range(28)]


def test_post_extension_4_short_last_group_and_groups():
    # 6 rows with factor 4: a group of 4 rows then one of 2 (not zero-filled);
    # 20 int8 kernels on nv_small (8 per group): groups of 8, 8, 4.
    shape = (20, 1, 6, 2)           # C' = 2*1 = 2, 2*4 = 8 <= atomic-C 8
    w = kcrs_iota(shape, "i8")
    enc = "#dla.weight<image, int8, post_extension = 4, config = nv_small>"
    v = values(blob(w, enc, "i8"), "i1")
    want = []
    for g0 in (0, 8, 16):
        for rows in ((0, 1, 2, 3), (4, 5)):
            for k in range(g0, min(20, g0 + 8)):
                for r in rows:
                    want += [int(w[k, 0, r, s]) for s in range(2)]   # c' = s
    assert list(v[:240]) == want and len(v) == 240


def test_post_extension_explicit_needs_super_atom_to_fit():
    with pytest.raises(ValueError, match="atomic-C"):
        wr.plan("#dla.weight<image, int8, post_extension = 2>", (1, 3, 3, 11), "i8")
    wr.plan("#dla.weight<image, int8, post_extension = 2>", (1, 4, 3, 8), "i8")
    with pytest.raises(ValueError):
        wr.plan("#dla.weight<image, int8, post_extension = 4, config = nv_small>",
                (1, 1, 3, 3), "i8")


# C, channels, S, stride, config -> factor, computed by hand from the rule:
# 4 if Cp*sx*3 + C' <= atomic-C and C' <= atomic-C/4, else 2 if Cp*sx + C' <=
# atomic-C and C' <= atomic-C/2, else none; none if sx > S.  C' = S*Cp.
@pytest.mark.parametrize("C,channels,S,stride,cfg,factor", [
    (3, None, 3, None, "nv_full", 4),      # C' = 9: 9 + 9 <= 64, 9 <= 16
    (3, 4, 3, None, "nv_full", 4),         # C' = 12: 12 + 12 <= 64, 12 <= 16
    (3, 4, 4, None, "nv_full", 4),         # C' = 16: 12 + 16 <= 64, 16 <= 16
    (3, 4, 5, None, "nv_full", 2),         # C' = 20 > 16; 4 + 20 <= 64, 20 <= 32
    (3, 4, 7, None, "nv_full", 2),         # C' = 28
    (3, 4, 8, None, "nv_full", 2),         # C' = 32: 4 + 32 <= 64, 32 <= 32
    (4, None, 9, None, "nv_full", 0),      # C' = 36 > 32
    (4, None, 3, 4, "nv_full", 0),         # stride 4 > S = 3
    (4, None, 3, 3, "nv_full", 4),         # 4*3*3 + 12 = 48 <= 64, 12 <= 16
    (1, None, 3, None, "nv_small", 2),     # C' = 3 > 2; 1 + 3 <= 8, 3 <= 4
    (1, None, 2, None, "nv_small", 4),     # C' = 2: 3 + 2 <= 8, 2 <= 2
    (1, None, 2, 2, "nv_small", 4),        # 1*2*3 + 2 = 8 <= 8
    (3, None, 1, None, "nv_small", 2),     # C' = 3: 9 + 3 > 8; 3 + 3 <= 8, 3 <= 4
    (3, None, 2, None, "nv_small", 0),     # C' = 6 > 4
    (1, 3, 2, None, "nv_small", 0),        # Cp = 3: C' = 6 > 4
])
def test_post_extension_auto_rule(C, channels, S, stride, cfg, factor):
    extra = [f"channels = {channels}"] if channels else []
    extra += [f"stride = {stride}"] if stride else []
    enc = ", ".join(["#dla.weight<image", "int8", "post_extension = auto"] + extra +
                    [f"config = {cfg}"]) + ">"
    assert wr.plan(enc, (2, C, 3, S), "i8").factor == factor
    # auto with the resolved factor packs like the explicit factor
    w = kcrs_iota((2, C, 3, S), "i8")
    plain = enc.replace("post_extension = auto", f"post_extension = {factor}") if factor \
        else enc.replace(", post_extension = auto", "")
    assert blob(w, enc, "i8") == blob(w, plain, "i8")


def test_post_extension_auto_uses_stride_x():
    base = "#dla.weight<image, int8, channels = 4, post_extension = auto"
    # C' = 12: stride_x 4 -> 4*4*3 + 12 = 60 <= 64 -> 4; stride_x 5 -> 2
    assert wr.plan(base + ", stride = [1, 4]>", (1, 3, 3, 3), "i8").factor == 0  # 4 > S
    assert wr.plan(base + ", stride = [5, 3]>", (1, 3, 3, 3), "i8").factor == 4
    assert wr.plan(base + ", stride = 2>", (1, 3, 3, 3), "i8").factor == 4
    assert wr.plan(base + ">", (1, 3, 3, 4), "i8").factor == 4   # C' = 16
    # with sx <= S the stride never changes the factor (Cp*sx <= C'), only sx > S
    assert wr.plan(base + ", stride = 4>", (1, 3, 3, 4), "i8").factor == 4  # 48 + 16 <= 64
    assert wr.plan(base + ", stride = 5>", (1, 3, 3, 4), "i8").factor == 0


# ---------------------------------------------------------------------------
# Winograd
# ---------------------------------------------------------------------------

def test_winograd_transform_against_direct_fp32():
    rng = np.random.default_rng(1)
    for elt in ("i8", "i16", "f16"):
        shape = (5, 7, 3, 3)
        w = wr.random_sparse(shape, elt, rng)
        p = wr.plan(f"#dla.weight<winograd, {[k for k, v in ELT.items() if v == elt][0]}>",
                    shape, elt)
        e = wr.winograd_extend(w, p)
        t = wr.winograd_fp32(e)
        direct = (G64 := wr.G.astype(np.float64)) @ e.astype(np.float64) @ G64.T
        assert np.array_equal(t.astype(np.float64), direct)        # exact data
        mm = np.matmul(np.matmul(wr.G, e), wr.G.T)                   # numpy fp32
        assert mm.dtype == np.float32 and np.array_equal(mm, t)


def test_winograd_transform_formula():
    g = np.arange(9, dtype=np.float32).reshape(3, 3) - 4
    t = wr.winograd_fp32(g)
    G = [[1, 0, 0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0, 0, 1]]
    for i in range(4):
        for j in range(4):
            v = sum(Fraction(G[i][a]) * Fraction(G[j][b]) * int(g[a, b])
                    for a in range(3) for b in range(3))
            assert Fraction(float(t[i, j])) == v


def test_winograd_int_rounding_and_saturation():
    w = np.zeros((1, 1, 3, 3), np.int8)
    w[0, 0, 0, :] = [1, 2, 2]      # row 1 of G g: 0.5*[1,2,2] per column
    # T[1][1] = 0.25 * (1 + 2 + 2) = 1.25 -> 1; T[1][2] = 0.25*(1 - 2 + 2) = 0.25 -> 0
    # T[0][1] = 0.5 * 5 = 2.5 -> 3 (half away from zero)
    p = wr.plan("#dla.weight<winograd, int8>", w.shape, "i8")
    t = wr.winograd_values(w, p)[0, 0]
    assert t[0, 1] == 3 and t[1, 1] == 1 and t[1, 2] == 0 and t[0, 0] == 1
    w[0, 0, 0, :] = [-1, -2, -2]
    t = wr.winograd_values(w, p)[0, 0]
    assert t[0, 1] == -3
    w[0, 0] = 127
    t = wr.winograd_values(w, p)[0, 0]   # 2.25*127 = 285.75 -> saturates
    assert t[1, 1] == 127 and t[0, 0] == 127
    w[0, 0] = -128
    assert wr.winograd_values(w, p)[0, 0][1, 1] == -128
    w16 = np.full((1, 1, 3, 3), 32767, np.int16)
    p16 = wr.plan("#dla.weight<winograd, int16>", w16.shape, "i16")
    assert wr.winograd_values(w16, p16)[0, 0][1, 1] == 32767
    assert list(wr.f32_to_int(np.float32([0.5, -0.5, 1.5, -1.5, 2.49, -2.51]), 8)) == \
        [1, -1, 2, -2, 2, -3]


def test_winograd_fp16_rounding_modes():
    # T[1][1] = (2048 + 2048 + 2048 + 2052) / 4 = 2049: halfway between the
    # fp16 values 2048 and 2050
    w = np.zeros((1, 1, 3, 3), np.float16)
    w[0, 0, 0, :] = 2048
    w[0, 0, 1, 0] = 2052
    even = wr.winograd_values(w, wr.plan(
        "#dla.weight<winograd, fp16, rounding = to_nearest_even>", w.shape, "f16"))
    away = wr.winograd_values(w, wr.plan(
        "#dla.weight<winograd, fp16, rounding = to_nearest_away>", w.shape, "f16"))
    default = wr.winograd_values(w, wr.plan("#dla.weight<winograd, fp16>", w.shape, "f16"))
    assert float(even[0, 0, 1, 1]) == 2048 and float(away[0, 0, 1, 1]) == 2050
    # no rounding stated: NVIDIA's, ties away from zero
    assert float(default[0, 0, 1, 1]) == 2050
    b1 = blob(w, "#dla.weight<winograd, fp16>", "f16")
    b2 = blob(w, "#dla.weight<winograd, fp16, rounding = to_nearest_away>", "f16")
    b3 = blob(w, "#dla.weight<winograd, fp16, rounding = to_nearest_even>", "f16")
    assert b1 == b2 and b1 != b3


def test_winograd_extension_figure():
    # A 5x5x48-byte fp16 kernel (24 channels), stride 2: channels padded to
    # 64 bytes (32), extended to 3x3x256 bytes (128 channels): block (dy, dx)
    # = (0, 0) holds positions 0 2 4 / 10 12 14 / 20 22 24 of channel block 0.
    shape = (16, 24, 5, 5)
    w = np.zeros(shape, np.float16)
    pos = np.arange(25).reshape(5, 5).astype(np.float16)
    w[:, :] = pos                                   # value = r*5 + s
    w[:, 16:] += 25                                 # second 32-byte cube: 25..49
    p = wr.plan("#dla.weight<winograd, fp16, stride = 2>", shape, "f16")
    assert (p.cp, p.cx) == (32, 128)
    e = wr.winograd_extend(w, p)
    assert e.shape == (16, 128, 3, 3)
    assert e[0, 0].tolist() == [[0, 2, 4], [10, 12, 14], [20, 22, 24]]
    assert e[0, 16].tolist() == [[25, 27, 29], [35, 37, 39], [45, 47, 49]]
    assert e[0, 32].tolist() == [[1, 3, 0], [11, 13, 0], [21, 23, 0]]    # (0, 1)
    assert e[0, 64].tolist() == [[5, 7, 9], [15, 17, 19], [0, 0, 0]]     # (1, 0)
    assert e[0, 96].tolist() == [[6, 8, 0], [16, 18, 0], [0, 0, 0]]      # (1, 1)
    assert not np.any(e[0, 24:32]) and not np.any(e[0, 56:64])           # padding
    # the stream: K0_00, K1_00, ..., K15_00, K0_01, ..., K15_31 (4x4x4 cubes)
    p2, (st,) = wr.streams(w, "#dla.weight<winograd, fp16, stride = 2>", "f16")
    src = wr.positions(p2, 0)
    cubes = src.c.reshape(-1, 64) // 4
    kern = src.k.reshape(-1, 64)
    assert [(int(kern[i, 0]), int(cubes[i, 0])) for i in range(len(kern))] == \
        [(k, n) for n in range(32) for k in range(16)]
    assert np.all(cubes == cubes[:, :1]) and np.all(kern == kern[:, :1])
    # inside a cube: r, s, c with c fastest
    assert [(int(src.r[i]), int(src.s[i]), int(src.c[i])) for i in range(6)] == \
        [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3), (0, 1, 0), (0, 1, 1)]
    assert len(blob(w, "#dla.weight<winograd, fp16, stride = 2>", "f16")) == \
        16 * 128 * 16 * 2


@pytest.mark.parametrize("prec", wr.PRECISIONS)
@pytest.mark.parametrize("cfg", list(wr.CONFIGS))
def test_winograd_groups_and_padding(prec, cfg):
    # 32 int8 / 16 kernels per group whatever the config; 128-byte end padding
    elt = ELT[prec]
    shape = (33, 5, 3, 3)
    enc = f"#dla.weight<winograd, {prec}, config = {cfg}>"
    p = wr.plan(enc, shape, elt)
    kpg = 32 if prec == "int8" else 16
    cp = 32 if prec == "int8" else 16
    assert p.kpg == kpg and p.cp == cp
    n = 33 * cp * 16
    assert p.size == wr.roundup(n * p.esize, 128)
    w = wr.random_sparse(shape, elt, np.random.default_rng(3))
    b = blob(w, enc, elt)
    assert len(b) == p.size


def test_winograd_invalid():
    for enc, shape in [("#dla.weight<winograd, int8>", (1, 1, 5, 5)),
                       ("#dla.weight<winograd, int8, stride = 2>", (1, 1, 3, 3)),
                       ("#dla.weight<winograd, int8, stride = [2, 1]>", (1, 1, 5, 3)),
                       ("#dla.weight<winograd, int8, rounding = to_nearest_even>",
                        (1, 1, 3, 3)), ("#dla.weight<winograd, int8>", (1, 1, 2, 2)),
                       ("#dla.weight<winograd, int8, stride = 2>", (1, 1, 4, 4))]:
        with pytest.raises(ValueError):
            wr.plan(enc, shape, "i8")
    wr.plan("#dla.weight<winograd, int8, stride = 2>", (1, 1, 6, 5), "i8")
    wr.plan("#dla.weight<winograd, int8, stride = 3>", (1, 1, 7, 9), "i8")
    # the default rounding spelled out is every precision's default
    wr.plan("#dla.weight<winograd, int8, rounding = to_nearest_away>", (1, 1, 3, 3), "i8")


# ---------------------------------------------------------------------------
# Deconvolution
# ---------------------------------------------------------------------------

def test_deconv_sets():
    shape = K, C, R, S = (3, 5, 5, 4)
    enc = "#dla.weight<deconv, int16, stride = [2, 3]>"
    w = kcrs_iota(shape, "i16") + 1
    p = wr.plan(enc, shape, "i16")
    assert p.sets == (3, 2)
    assert [g.set_yx for g in p.segments] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1),
                                              (1, 2)]
    b = blob(w, enc, "i16")
    off = 0
    for g in p.segments:
        off = wr.roundup(off, 256)
        assert g.offset == off
        y, x = g.set_yx
        st = np.zeros((K, C, 3, 2), np.int16)
        for r in range(3):
            for s in range(2):
                if y + 2 * r < R and x + 3 * s < S:
                    st[:, :, r, s] = w[:, :, y + 2 * r, x + 3 * s]
        rot = st[:, :, ::-1, ::-1]
        # direct layout of the rotated set: one group, one block: r, s, k, c
        want = rot.transpose(2, 3, 0, 1).reshape(-1)
        n = want.size
        assert np.array_equal(values(b[off:off + 2 * n], "i16"), want)
        end = off + wr.roundup(2 * n, 128)
        assert not any(b[off + 2 * n:end])
        nxt = wr.roundup(end, 256)
        assert not any(b[end:nxt])
        off = end
    assert len(b) == off


def test_rounding_does_not_change_non_winograd_weights():
    w = wr.random_sparse((5, 7, 3, 3), "f16", np.random.default_rng(8), False)
    for f in ("direct", "deconv"):
        b = blob(w, f"#dla.weight<{f}, fp16>", "f16")
        assert b == blob(w, f"#dla.weight<{f}, fp16, rounding = to_nearest_even>", "f16")


def test_deconv_set_outside_kernel_is_zero():
    # stride 3 over 2 rows: set y = 2 holds no tap at all
    shape = (2, 3, 2, 2)
    w = kcrs_iota(shape, "i8") + 1
    p = wr.plan("#dla.weight<deconv, int8, stride = [3, 1]>", shape, "i8")
    b = blob(w, "#dla.weight<deconv, int8, stride = [3, 1]>", "i8")
    assert [g.offset for g in p.segments] == [0, 256, 512]
    assert any(b[:256]) and any(b[256:512]) and not any(b[512:])
    s = packed(w, "#dla.weight<deconv, int8, compressed, stride = [3, 1]>", "i8")
    c = wr.compress(w, "#dla.weight<deconv, int8, compressed, stride = [3, 1]>", "i8")
    assert c.offsets["data"] == [0, 256, 512] and len(s["data"]) == 512
    assert s["wgs"][512:516] == bytes(4)


def test_deconv_stride_one_is_rotated_direct():
    shape = (40, 70, 3, 2)
    w = kcrs_iota(shape, "i8")
    a = blob(w, "#dla.weight<deconv, int8>", "i8")
    d = blob(np.ascontiguousarray(w[:, :, ::-1, ::-1]), "#dla.weight<direct, int8>", "i8")
    assert a == d


# ---------------------------------------------------------------------------
# Compression
# ---------------------------------------------------------------------------

def test_compression_small_example():
    # int16 direct, 1 kernel, 10 channels: elements 0 and 5..9 zero; 256 has
    # a zero low byte but is not zero; bits LSB first
    w = np.array([0, 1, 256, -1, 3, 0, 0, 0, 0, 0], np.int16).reshape(1, 10, 1, 1)
    s = packed(w, "#dla.weight<direct, int16, compressed>", "i16")
    assert s["wmb"][:2] == bytes([0b00011110, 0]) and len(s["wmb"]) == 128
    assert s["data"][:8] == np.array([1, 256, -1, 3], "<i2").tobytes()
    assert not any(s["data"][8:]) and len(s["data"]) == 128
    assert s["wgs"][:4] == (8).to_bytes(4, "little") and len(s["wgs"]) == 128


def test_compression_negative_zero_is_not_zero():
    w = np.array([0.0, -0.0, 1.0], np.float16).reshape(1, 3, 1, 1)
    s = packed(w, "#dla.weight<direct, fp16, compressed>", "f16")
    assert s["wmb"][0] == 0b110
    assert s["data"][:4] == bytes([0x00, 0x80, 0x00, 0x3C])


def test_compression_wmb_continuous_across_groups_and_wgs():
    # 33 int8 kernels of 3 channels on nv_full: group 0 = 96 elements, group 1 = 3
    w = np.zeros((33, 3, 1, 1), np.int8)
    w[0, 0] = 1
    w[31, 2] = 2
    w[32, 1] = 3
    s = packed(w, "#dla.weight<direct, int8, compressed>", "i8")
    bits = np.unpackbits(np.frombuffer(s["wmb"], np.uint8), bitorder="little")
    assert list(np.nonzero(bits)[0]) == [0, 95, 97]   # element 96 + 1: no byte gap
    assert s["data"][:3] == bytes([1, 2, 3])
    assert np.frombuffer(s["wgs"][:8], "<u4").tolist() == [2, 1]


def test_compression_empty_groups():
    w = np.zeros((40, 3, 1, 1), np.int16)
    w[20, 1] = 7                      # only group 1 (kernels 16..31) non-zero
    s = packed(w, "#dla.weight<direct, int16, compressed>", "i16")
    assert np.frombuffer(s["wgs"][:12], "<u4").tolist() == [0, 2, 0]


@pytest.mark.parametrize("seed", range(12))
def test_compression_round_trip(seed):
    rng = np.random.default_rng(seed)
    for _ in range(6):
        enc, shape = wr.random_case(rng, 20000)
        enc = dataclasses.replace(enc, compressed=True)
        elt = enc.elt
        w = wr.random_sparse(shape, elt, rng, enc.format == "winograd")
        s = packed(w, enc, elt)
        u = wr.pack(w, dataclasses.replace(enc, compressed=False), elt)["weights"]
        assert wr.decompress(s, enc, shape, elt) == u
        p = wr.plan(enc, shape, elt)
        for name in wr.SURFACES:
            assert len(s[name]) % 128 == 0
        # per set: regions 256-byte aligned, WGS sums to the data bytes
        c = wr.compress(w, enc, elt)
        for name in wr.SURFACES:
            assert all(o % 256 == 0 for o in c.offsets[name])
        for t, seg in enumerate(p.segments):
            wgs = np.frombuffer(c.parts[t]["wgs"], "<u4")[:len(seg.groups)]
            eb = wr.element_bytes(c.streams[t], elt)
            assert int(wgs.sum()) == int(eb.any(axis=1).sum()) * p.esize


def test_deconv_compressed_regions():
    shape = (3, 70, 4, 4)
    enc = "#dla.weight<deconv, int8, compressed, stride = [2, 2]>"
    w = wr.random_sparse(shape, "i8", np.random.default_rng(5))
    c = wr.compress(w, enc, "i8")
    assert c.offsets["wgs"] == [0, 256, 512, 768]
    assert c.offsets["wmb"] == [0, 256, 512, 768]      # 3*70*4 bits = 105 bytes
    assert len(c.surfaces["wgs"]) == 768 + 128
    for t in range(4):
        o = c.offsets["data"][t]
        part = c.parts[t]["data"]
        assert c.surfaces["data"][o:o + len(part)] == part
    assert c.surfaces == wr.pack_loops(w, enc, "i8")


# ---------------------------------------------------------------------------
# fp32 -> fp16
# ---------------------------------------------------------------------------

def f16_bits(v, mode):
    return int(wr.f32_to_f16_bits(np.float32(v), mode))


@pytest.mark.parametrize("value,even,away", [
    (1 + 2 ** -11, 0x3C00, 0x3C01),            # tie, even neighbour below
    (1 + 3 * 2 ** -11, 0x3C02, 0x3C02),        # tie, even neighbour above
    (-(1 + 2 ** -11), 0xBC00, 0xBC01),         # negative tie: away = larger magnitude
    (2049.0, 0x6800, 0x6801),                  # 2048 | 2050
    (2051.0, 0x6802, 0x6802),
    (4606.0, 0x6C80, 0x6C80),                  # 4604 | 4608: mantissa 127.5
    (4602.0, 0x6C7E, 0x6C7F),                  # mantissa 126.5
    (2.0 ** -25, 0x0000, 0x0001),              # tie between 0 and the smallest subnormal
    (-(2.0 ** -25), 0x8000, 0x8001),
    (3 * 2.0 ** -25, 0x0002, 0x0002),          # 1.5 ulp: tie, even above
    (5 * 2.0 ** -25, 0x0002, 0x0003),          # 2.5 ulp
    (2.0 ** -14 - 2.0 ** -25, 0x0400, 0x0400),  # rounds up into the smallest normal
    (65504.0, 0x7BFF, 0x7BFF),
    (65519.0, 0x7BFF, 0x7BFF),
    (65520.0, 0x7C00, 0x7C00),                 # tie at the top: both overflow
    (1e6, 0x7C00, 0x7C00),
    (2.0 ** -26, 0x0000, 0x0000),              # below half the smallest subnormal
    (float(np.nextafter(np.float32(2.0 ** -25), np.float32(1))), 0x0001, 0x0001),
    (-0.0, 0x8000, 0x8000),
    (float("inf"), 0x7C00, 0x7C00),
])
def test_f32_to_f16_halfway(value, even, away):
    assert f16_bits(value, "to_nearest_even") == even
    assert f16_bits(value, "to_nearest_away") == away


def test_f32_to_f16_nan():
    b = f16_bits(float("nan"), "to_nearest_even")
    assert b & 0x7C00 == 0x7C00 and b & 0x3FF


def test_f32_to_f16_even_matches_numpy():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 1 << 32, 400000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    x = x[~np.isnan(x)]
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    assert np.array_equal(wr.f32_to_f16_bits(x), want)


_F16 = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)


def exact_f16(v: float, mode: str) -> float:
    """Exact rounding with fractions over the list of finite fp16 values."""
    a = abs(v)
    if a >= 65520:
        r = float("inf")
    else:
        i = bisect.bisect_left(_F16, a)
        if i < len(_F16) and _F16[i] == a:
            r = a
        else:
            lo, hi = _F16[i - 1], (_F16[i] if i < len(_F16) else 65536.0)
            d = Fraction(a) - Fraction(lo) - (Fraction(hi) - Fraction(a))
            if d < 0:
                r = lo
            elif d > 0:
                r = hi
            elif mode == "to_nearest_away":
                r = hi
            else:
                r = lo if int(np.float16(lo).view(np.uint16)) % 2 == 0 else hi
            if r == 65536.0:
                r = float("inf")
    return -r if np.signbit(v) else r


@pytest.mark.parametrize("mode", wr.ROUNDINGS)
def test_f32_to_f16_against_exact_rounding(mode):
    rng = np.random.default_rng(7)
    x = wr._f32_tie_values(rng, 3000, winograd_safe=False)
    x = np.concatenate([x, rng.integers(0, 1 << 32, 1000, dtype=np.uint64)
                        .astype(np.uint32).view(np.float32)])
    x = x[np.isfinite(x)]
    got = wr.f32_to_f16(x, mode).astype(np.float64)
    want = np.array([exact_f16(float(v), mode) for v in x])
    assert np.array_equal(got, want)
    ties = sum(1 for v in x if exact_f16(float(v), "to_nearest_away") !=
               exact_f16(float(v), "to_nearest_even"))
    assert ties > 100          # the data really holds ties


def test_truncf_modes():
    x = np.float32([1 + 2 ** -11, 2049, -2049])
    assert wr.truncf(x, None).tolist() == [1.0, 2048.0, -2048.0]
    assert wr.truncf(x, "").tolist() == [1.0, 2048.0, -2048.0]
    assert wr.truncf(x, "to_nearest_away").tolist() == [1.0009765625, 2050.0, -2050.0]


# ---------------------------------------------------------------------------
# Both implementations, parsing, sizes
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_per_position_matches_loops_random(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(15):
        enc, shape = wr.random_case(rng, 30000)
        for kind in ("iota", "random-sparse"):
            w = wr.make_data(kind, shape, enc.elt, seed, enc.format == "winograd")
            s = packed(w, enc, enc.elt)
            assert sum(map(len, s.values())) > 0


def test_per_position_is_a_bijection():
    for enc, shape in [("#dla.weight<direct, fp16, config = nv_small>", (9, 17, 2, 3)),
                       ("#dla.weight<image, int8, channels = 4, post_extension = 4>",
                        (37, 3, 7, 2)),
                       ("#dla.weight<image, int16, config = nv_large>", (17, 3, 4, 7))]:
        p = wr.plan(enc, shape, wr.parse_encoding(enc).elt)
        src = wr.positions(p, 0)
        K, C, R, S = shape
        keys = ((src.k * C + src.c) * R + src.r) * S + src.s
        keys = keys[src.valid]
        assert len(np.unique(keys)) == len(keys) == K * C * R * S


@pytest.mark.parametrize("text", [
    "#dla.weight<direct, int8>",
    "#dla.weight<image, fp16, compressed, channels = 4, post_extension = auto, "
    "stride = [2, 1], config = nv_small>",
    "#dla.weight<winograd, fp16, stride = 2, rounding = to_nearest_away>",
    "#dla.weight<deconv, int16, compressed, stride = [3, 2], config = nv_large>",
])
def test_parse_print_roundtrip(text):
    e = wr.parse_encoding(text)
    assert e.text() == text
    assert wr.parse_encoding(e.text(spaces=False)) == e


def test_parse_variants():
    e = wr.parse_encoding("#dla.weight<image,int8,post_extension=2,compressed,stride=[1,3]>")
    assert e.compressed and e.post_extension == 2 and e.stride_yx == (1, 3)
    assert wr.parse_encoding("#dla.weight<direct, int8, compressed = true>").compressed


@pytest.mark.parametrize("text", [
    "#dla.weight<direct>", "#dla.weight<conv, int8>", "#dla.weight<direct, int4>",
    "#dla.weight<direct, int8, foo = 1>", "#dla.weight<direct, int8, config = nv_tiny>",
    "#dla.weight<image, int8, post_extension = 3>", "#dla.weight<deconv, int8, stride = 0>",
    "#dla.weight<direct, int8, compressed, compressed>", "#dla.weight<direct, int8, zipped>",
    "#dla.weight<deconv, int8, stride = [1, 2, 3]>",
])
def test_parse_errors(text):
    with pytest.raises(ValueError):
        wr.parse_encoding(text)


@pytest.mark.parametrize("enc,shape,elt", [
    ("#dla.weight<direct, int8>", (2, 2, 1, 1), "i16"),
    ("#dla.weight<direct, fp16>", (2, 2, 1, 1), "i16"),
    ("#dla.weight<direct, int8>", (2, 2, 1), "i8"),
    ("#dla.weight<direct, int8>", (0, 2, 1, 1), "i8"),
    ("#dla.weight<direct, int8, stride = 2>", (2, 2, 1, 1), "i8"),
    ("#dla.weight<direct, int8, channels = 4>", (2, 2, 1, 1), "i8"),
    ("#dla.weight<deconv, int8, post_extension = 2>", (2, 2, 1, 1), "i8"),
    ("#dla.weight<image, int8, channels = 3>", (2, 4, 1, 1), "i8"),
    ("#dla.weight<winograd, int8, rounding = to_nearest_even>", (2, 2, 3, 3), "i8"),
])
def test_plan_errors(enc, shape, elt):
    with pytest.raises(ValueError):
        wr.plan(enc, shape, elt)


def test_random_cases_cover_everything():
    rng = np.random.default_rng(11)
    cases = [wr.random_case(rng) for _ in range(600)]
    encs = [e for e, _ in cases]
    assert {e.format for e in encs} == set(wr.FORMATS)
    assert {e.precision for e in encs} == set(wr.PRECISIONS)
    assert {e.config for e in encs} == set(wr.CONFIGS) | {None}
    assert any(e.compressed for e in encs) and not all(e.compressed for e in encs)
    assert {e.post_extension for e in encs if e.format == "image"} == {None, 2, 4, "auto"}
    assert {e.rounding for e in encs if e.format == "winograd"} == set(wr.ROUNDINGS) | {None}
    assert any(e.stride_yx[0] > 1 for e in encs if e.format == "winograd")
    assert any(e.stride_yx[0] != e.stride_yx[1] for e in encs if e.format == "deconv")
    assert any(e.channels for e in encs)
    factors = set()
    for e, s in cases:
        p = wr.plan(e, s, e.elt)
        assert p.size <= 65536
        if e.format == "image":
            factors.add(p.factor)
        if e.format == "direct":
            pass
    assert factors == {0, 2, 4}
    # partial groups and blocks happen
    assert any(s[0] % wr.plan(e, s, e.elt).kpg for e, s in cases)
    assert any(s[1] % e.cfg.atomic_c for e, s in cases if e.format == "direct")
    assert any(s[1] > e.cfg.atomic_c for e, s in cases if e.format == "direct")


def test_random_sparse_data():
    rng = np.random.default_rng(2)
    for elt in ("i8", "i16", "f16", "f32"):
        w = wr.random_sparse((40, 30, 3, 3), elt, rng)
        z = np.count_nonzero(w.reshape(-1).view(np.uint8 if elt == "i8" else
                                                  np.uint16 if elt != "f32" else np.uint32))
        assert 0 < z < w.size
    # Winograd-safe fp16 data keeps G g G^T exact in fp32
    w = wr.random_sparse((16, 32, 3, 3), "f16", rng, winograd_safe=True)
    t = wr.winograd_fp32(w.astype(np.float32))
    G64 = wr.G.astype(np.float64)
    assert np.array_equal(t.astype(np.float64), G64 @ w.astype(np.float64) @ G64.T)


# ---------------------------------------------------------------------------
# gen_module.py / fake_pack.py / check_packed.py
# ---------------------------------------------------------------------------

def run(args, stdin=None):
    return subprocess.run([PY] + args, input=stdin, capture_output=True, text=True)


def gen(*args):
    r = run([os.path.join(HERE, "gen_module.py")] + list(args))
    assert r.returncode == 0, r.stderr
    return r.stdout


def check(text, *args):
    return run([os.path.join(HERE, "check_packed.py")] + list(args), stdin=text)


def check_with_source(out, src, tmp_path, *args):
    p = tmp_path / "src.mlir"
    p.write_text(src)
    return check(out, "--source", str(p), *args)


def test_gen_module_weight_iota():
    enc = "#dla.weight<direct, int8, compressed>"
    t = gen("--encoding", enc, "--shape", "33x130x3x3")
    ty = f"tensor<33x130x3x3xi8, {enc}>"
    assert f"func.func @case0() -> {ty} {{" in t
    assert f"%1 = dla.relayout %0 : tensor<33x130x3x3xi8> -> {ty}" in t
    m = re.search(r'dense<"0x([0-9A-F]*)"> : tensor<33x130x3x3xi8>', t)
    assert bytes.fromhex(m.group(1)) == wr.iota((33, 130, 3, 3), "i8").tobytes()
    t = gen("--encoding", "#dla.weight<winograd, fp16>", "--shape", "2x3x3x3")
    assert "xf16, #dla.weight<winograd, fp16>>" in t


def test_gen_module_truncf():
    t = gen("--encoding", "#dla.weight<direct, fp16>", "--shape", "2x3x1x1", "--truncf")
    assert "%0 = arith.constant dense<" in t and ": tensor<2x3x1x1xf32>" in t
    assert "%1 = arith.truncf %0 : tensor<2x3x1x1xf32> to tensor<2x3x1x1xf16>" in t
    assert ("%2 = dla.relayout %1 : tensor<2x3x1x1xf16> -> "
            "tensor<2x3x1x1xf16, #dla.weight<direct, fp16>>") in t
    t = gen("--encoding", "#dla.weight<direct, fp16>", "--shape", "2x3x1x1", "--truncf",
            "to_nearest_away", "--data", "random-sparse", "--seed", "3")
    assert "%1 = arith.truncf %0 to_nearest_away : tensor<2x3x1x1xf32>" in t
    src = check_packed.parse_source_module(t)
    assert src["case0"].truncf == "to_nearest_away"
    assert src["case0"].values.dtype == np.float32
    for bad in (["--encoding", "#dla.weight<direct, int8>", "--shape", "2x3x1x1",
                 "--truncf"],
                ["--encoding", "#dla.feature<int8>", "--shape", "1x3x1x1", "--data",
                 "random-sparse"],
                ["--encoding", "#dla.weight<winograd, int8>", "--shape", "2x3x1x1"],
                ["--encoding", "#dla.weight<direct, int8>", "--shape", "2x3x1x1",
                 "--data", "random-sparse", "--literal", "nested"]):
        assert run([os.path.join(HERE, "gen_module.py")] + bad).returncode != 0


def test_gen_module_random_weights_properties():
    cases = gen_module.random_weight_cases(400, seed=5)
    assert {c.enc.format for c in cases} == set(wr.FORMATS)
    assert {c.truncf for c in cases} == {None, "", "to_nearest_even", "to_nearest_away"}
    assert {c.data for c in cases} == set(wr.DATA_KINDS)
    assert all(c.truncf is None or c.elt == "f16" for c in cases)
    for c in cases:
        assert wr.parse_encoding(c.encoding_text()) == c.enc
        wr.plan(c.enc, c.shape, c.elt)
    t = gen_module.module_text
    assert t(gen_module.random_weight_cases(10, 3), "hex") == \
        t(gen_module.random_weight_cases(10, 3), "hex")


def w_fake(cases, **kw):
    text = gen_module.module_text(cases, "hex")
    return text, fake_pack.fake(text, **kw)


@pytest.mark.parametrize("spelling", ["list", "alias", "mixed"])
def test_check_packed_accepts_weights(spelling, tmp_path):
    cases = gen_module.random_weight_cases(40, 21)
    src, out = w_fake(cases, spelling=spelling, seed=2)
    r = check_with_source(out, src, tmp_path, "--expect-count", "40")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"checked 40 constants, {sum(c.storage_bytes() for c in cases)} bytes\n"
    assert "dla.weight_constant" in out


def test_check_packed_iota_without_source():
    cases = [gen_module.WeightCase((33, 130, 3, 3), "i8",
                                   wr.parse_encoding("#dla.weight<direct, int8>")),
             gen_module.WeightCase((5, 3, 3, 3), "f16",
                                   wr.parse_encoding("#dla.weight<winograd, fp16, "
                                                     "compressed>"))]
    _, out = w_fake(cases)
    r = check(out, "--expect-count", "2")
    assert r.returncode == 0, r.stderr


def test_check_packed_mixed_families(tmp_path):
    cases = gen_module.random_cases(4, 1) + gen_module.random_nvdla_cases(4, 1) + \
        gen_module.random_weight_cases(4, 1)
    src, out = w_fake(cases)
    r = check_with_source(out, src, tmp_path, "--expect-count", "12")
    assert r.returncode == 0, r.stderr


def one(enc, shape, data="iota", truncf=None, seed=0):
    e = wr.parse_encoding(enc)
    return [gen_module.WeightCase(tuple(shape), e.elt, e, enc, data, seed, truncf)]


def test_check_packed_reports_direct_mismatch(tmp_path):
    case = one("#dla.weight<direct, int8>", (33, 130, 3, 3))
    src, out = w_fake(case, corrupt=65)
    r = check_with_source(out, src, tmp_path)
    assert r.returncode == 1
    assert "error: dla_packed: packed bytes differ from the reference" in r.stderr
    assert "first differing byte: 65" in r.stderr
    # byte 65: r = s = 0, kernel 1, channel 1 -> iota 1*1170 + 1*9 = 1179 -> 0x9b
    assert "reference puts there: stream element 65: (1,1,0,0) byte 0" in r.stderr
    assert "expected byte 0x9b, actual 0xc1" in r.stderr
    # padding at the end
    n = 33 * 130 * 9
    src, out = w_fake(case, corrupt=n + 3)
    r = check(out)
    assert r.returncode == 1 and "reference puts there: padding (end of stream)" in r.stderr


def test_check_packed_reports_where_actual_belongs(tmp_path):
    case = one("#dla.weight<direct, int16>", (4, 5, 1, 1))
    src, out = w_fake(case)
    good = wr.pack(wr.iota((4, 5, 1, 1), "i16"), case[0].enc, "i16")["weights"]
    bad = bytearray(good)
    bad[2:4], bad[4:6] = bad[4:6], bad[2:4]
    out = re.sub(r'dla_packed: "0x[0-9A-F]*"',
                 'dla_packed: "0x00010000' + bytes(bad).hex().upper() + '"', out)
    r = check_with_source(out, src, tmp_path)
    assert r.returncode == 1
    assert "reference puts there: stream element 1: (0,1,0,0) byte 0" in r.stderr
    assert "(actual element is what the reference puts at stream element 2: (0,2,0,0) " \
           "at byte 4)" in r.stderr


@pytest.mark.parametrize("surface", wr.SURFACES)
def test_check_packed_reports_compressed_surfaces(surface, tmp_path):
    case = one("#dla.weight<deconv, int8, compressed, stride = [2, 2]>", (40, 10, 3, 3),
               "random-sparse", seed=4)
    src, out = w_fake(case, corrupt=0, corrupt_surface=surface)
    r = check_with_source(out, src, tmp_path)
    assert r.returncode == 1
    assert (f"error: dla_packed_{surface} ({surface} of the dla.weight_constant in @case0): "
            "packed bytes differ from the reference") in r.stderr
    assert "first differing byte: 0" in r.stderr
    want = {"wgs": "WGS of kernel group 0 (kernels 0..31)",
            "wmb": "WMB byte 0 holds stream elements 0..7; bit 1 = deconv set (0, 0) "
                   "stream element 1:",
            "data": "non-zero element 0 = deconv set (0, 0) stream element"}[surface]
    assert want in r.stderr
    # a byte of the second set's region
    o = wr.compress(case[0].weights(), case[0].enc, "i8").offsets[surface][1]
    assert o % 256 == 0 and o > 0
    src, out = w_fake(case, corrupt=o + 1, corrupt_surface=surface)
    r = check_with_source(out, src, tmp_path)
    assert r.returncode == 1 and f"deconv set (0, 1) region at byte {o}" in r.stderr


def test_check_packed_every_weight_byte_is_checked(tmp_path):
    case = one("#dla.weight<image, fp16, channels = 4, post_extension = auto, stride = 2>",
               (20, 3, 5, 5), "random-sparse", seed=9)
    size = case[0].storage_bytes()
    for b in np.random.default_rng(1).integers(0, size, 12):
        src, out = w_fake(case, corrupt=int(b))
        r = check_with_source(out, src, tmp_path)
        assert r.returncode == 1 and f"first differing byte: {int(b)}" in r.stderr


def test_check_packed_truncf_rounding_matters(tmp_path):
    case = one("#dla.weight<direct, fp16>", (8, 40, 3, 3), "random-sparse", "to_nearest_away",
               seed=1)
    src, out = w_fake(case)
    assert check_with_source(out, src, tmp_path).returncode == 0
    # the same output checked against a source without the rounding mode fails
    src2 = src.replace("arith.truncf %0 to_nearest_away :", "arith.truncf %0 :")
    r = check_with_source(out, src2, tmp_path)
    assert r.returncode == 1 and "through arith.truncf" in r.stderr
    # and without --source (iota) it fails too
    assert check(out).returncode == 1


def test_check_packed_weight_structure_errors(tmp_path):
    case = one("#dla.weight<direct, int8, compressed>", (4, 5, 2, 2), "random-sparse")
    src, out = w_fake(case)
    assert check_with_source(out, src, tmp_path).returncode == 0
    # declared surface size wrong
    bad = re.sub(r"tensor<(\d+)xi8>, wmb", lambda m: f"tensor<{int(m.group(1)) + 1}xi8>, wmb",
                 out)
    r = check_with_source(bad, src, tmp_path)
    assert r.returncode == 1 and "does not match its" in r.stderr
    # a missing surface blob
    bad = out.replace("dla_packed_wmb: ", "other: ")
    r = check_with_source(bad, src, tmp_path)
    assert r.returncode == 1 and "has no blob" in r.stderr
    # alignment header not a multiple of 256
    bad = re.sub(r'dla_packed_data: "0x00010000', 'dla_packed_data: "0x20000000', out)
    r = check_with_source(bad, src, tmp_path)
    assert r.returncode == 1 and "not a multiple of 256" in r.stderr
    # a leftover relayout
    src3, out3 = w_fake(case, keep_relayout=True)
    r = check_with_source(out3, src3, tmp_path)
    assert r.returncode == 1 and "a dla.relayout remains" in r.stderr
    # a function missing from the source
    r = check_with_source(out, src.replace("@case0", "@other"), tmp_path)
    assert r.returncode == 1 and "not found in the --source module" in r.stderr
    # wrong count
    r = check_with_source(out, src, tmp_path, "--expect-count", "2")
    assert r.returncode == 1 and "expected 2 packed constants, found 1" in r.stderr
    # a compressed type as a plain arith.constant dense_resource
    ucase = one("#dla.weight<direct, int8>", (4, 5, 2, 2))
    _, uout = w_fake(ucase)
    bad = uout.replace("#dla.weight<direct, int8>", "#dla.weight<direct, int8, compressed>")
    r = check(bad)
    assert r.returncode == 1 and "must be a dla.weight_constant" in r.stderr
    # an unpacked weight constant
    t = "tensor<2x1x1x1xi8, #dla.weight<direct, int8>>"
    bad = uout.replace("module {", f"module {{\n  func.func @x() -> {t} {{\n"
                       f"    %cst = arith.constant dense<[[[[0]]], [[[1]]]]> : {t}\n"
                       f"    return %cst : {t}\n  }}")
    r = check(bad)
    assert r.returncode == 1 and "#dla.weight constant not packed" in r.stderr
    # size mismatch
    short = re.sub(r'(dla_packed: "0x[0-9A-F]*)[0-9A-F]{4}"', r'\1"', uout)
    r = check(short)
    assert r.returncode == 1 and "size mismatch" in r.stderr


def test_check_packed_generic_weight_constant_form(tmp_path):
    case = one("#dla.weight<winograd, int16, compressed>", (3, 2, 3, 3))
    src, out = w_fake(case)
    m = re.search(r"%w = dla\.weight_constant (.*) : (tensor<.*>)\n", out)
    keys = dict(re.findall(r"(\w+) = (dense_resource<\w+> : tensor<\d+xi8>)", m.group(1)))
    generic = (f'%w = "dla.weight_constant"() <{{data = {keys["data"]}, '
               f'wgs = {keys["wgs"]}, wmb = {keys["wmb"]}}}> : () -> {m.group(2)}\n')
    out2 = out[:m.start()] + generic + out[m.end():]
    r = check_with_source(out2, src, tmp_path, "--expect-count", "1")
    assert r.returncode == 0, r.stderr
    # keys without their own types, on several lines
    terse = (f"%w = dla.weight_constant wgs = {keys['wgs'].split(' :')[0]},\n"
             f"        wmb = {keys['wmb'].split(' :')[0]},\n"
             f"        data = {keys['data'].split(' :')[0]} : {m.group(2)}\n")
    out3 = out[:m.start()] + terse + out[m.end():]
    r = check_with_source(out3, src, tmp_path, "--expect-count", "1")
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------------------
# dla-opt, once it knows #dla.weight
# ---------------------------------------------------------------------------

DLA_OPT = os.environ.get("DLA_OPT") or os.path.join(HERE, "..", "..", "build", "bin", "dla-opt")


def dla_opt_knows_weights() -> bool:
    if not os.path.exists(DLA_OPT):
        return False
    r = subprocess.run([DLA_OPT], input="func.func @f(%a: tensor<4x4x1x1xi8, "
                       "#dla.weight<direct, int8>>) { return }", capture_output=True, text=True)
    return r.returncode == 0


@pytest.mark.skipif(not dla_opt_knows_weights(), reason="dla-opt does not know #dla.weight")
def test_dla_opt_agrees_weights(tmp_path):
    p = tmp_path / "in.mlir"
    p.write_text(gen_module.module_text(gen_module.random_weight_cases(60, 77), "hex"))
    out = subprocess.run([DLA_OPT, str(p), "--dla-pack-weights"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    r = check(out.stdout, "--source", str(p), "--expect-count", "60")
    assert r.returncode == 0, r.stderr
