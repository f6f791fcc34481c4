"""pytest suite for the NVDLA activation / auxiliary reference (nvdla_ref.py).

Pins the orderings of the figures of /work/shared/spec/nvdla/format.rst
(packed and unpacked feature data, every memory_mapping_of_* figure, case 1
and case 2), the pixel-format table, both data sizes with sign extension, an
interleaved, a semi-planar and the 10-bit packed pixel formats at bit level,
checks the brute-force and numpy packers against each other, and exercises
gen_module.py / fake_pack.py / check_packed.py end to end.

Run: cd utils/dla-ref && PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -m pytest -q -p no:cacheprovider
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True

import check_packed  # noqa: E402
import fake_pack  # noqa: E402
import gen_module  # noqa: E402
import nvdla_ref as nv  # noqa: E402

PY = sys.executable


def packed(a, enc, elt):
    """Pack with both implementations, check they agree, return bytes."""
    a = np.asarray(a)
    x = nv.pack(a, enc, elt)
    y = nv.pack_bruteforce(a, enc, elt)
    assert x == y
    assert len(x) == nv.storage_size(enc, a.shape, elt)
    return x


def rows(blob, width):
    assert len(blob) % width == 0
    return [blob[i:i + width] for i in range(0, len(blob), width)]


# ---------------------------------------------------------------------------
# Feature data: format_packed_feature_diagram / format_unpacked_feature_diagram
# ---------------------------------------------------------------------------
#
# The figures number the 1x1x32-byte atom cubes of a W=4, H=4 cube with two
# 32-byte channel groups: atom k is (surface k // 16, row (k % 16) // 4,
# column k % 4).  Packed: memory row k (32 bytes) holds atom k, 0..31.

def atom_numbers(C, H, W, epa):
    c, h, w = np.meshgrid(np.arange(C), np.arange(H), np.arange(W), indexing="ij")
    return (c // epa) * H * W + h * W + w


@pytest.mark.parametrize("prec,elt,epa", [("int8", "i8", 32), ("int16", "i16", 16),
                                          ("fp16", "f16", 16)])
def test_packed_feature_figure(prec, elt, epa):
    C, H, W = 2 * epa, 4, 4
    enc = f"#dla.feature<{prec}>"
    esize = 32 // epa
    g = nv.geometry(enc, (1, C, H, W), elt)
    assert (g.line, g.surface, g.batch, g.size) == (128, 512, 1024, 1024)
    # every atom k holds 32 bytes of the channels of one (h, w), in C' order
    a = atom_numbers(C, H, W, epa)[None].astype(nv.element_dtype(elt))
    blob = packed(a, enc, elt)
    for k, row in enumerate(rows(blob, 32)):
        assert np.all(np.frombuffer(row, dtype=nv.element_dtype(elt)) == k)
    # within the atom: channel c % epa at byte (c % epa) * esize
    c_in = (np.arange(C) % epa)[None, :, None, None] * np.ones((1, C, H, W))
    blob = packed(c_in.astype(nv.element_dtype(elt)), enc, elt)
    for row in rows(blob, 32):
        assert list(np.frombuffer(row, dtype=nv.element_dtype(elt))) == list(range(epa))
    assert nv.feature_offset(g, 0, epa + 3, 2, 1) == 32 * (16 + 2 * 4 + 1) + 3 * esize


def test_unpacked_feature_figure():
    # line stride 8 atoms (the figure's cube is 8 atoms wide), four blank atoms
    # after each line of 4, and one more blank atom before atom 16 starts the
    # second surface ("surface_stride" ends right before 16).
    C, H, W = 64, 4, 4
    enc = "#dla.feature<int8, line_stride = 256, surface_stride = 1056>"
    a = (atom_numbers(C, H, W, 32) + 1)[None].astype("i1")   # +1: blank = 0
    blob = packed(a, enc, "i8")
    assert len(blob) == 2 * 1056
    r = [row[0] for row in rows(blob, 32)]
    assert all(len(set(row)) == 1 for row in rows(blob, 32))
    assert r[0:4] == [1, 2, 3, 4]                 # atoms 0..3
    assert r[4:8] == [0, 0, 0, 0]                 # the blank rows of line 0
    assert r[8:12] == [5, 6, 7, 8]                # atoms 4..7 at line_stride
    assert r[24:28] == [13, 14, 15, 16]           # atoms 12..15
    assert r[28:33] == [0] * 5                    # line padding + surface gap
    assert r[33:35] == [17, 18]                   # atoms 16, 17 at surface_stride
    assert r[33 + 8:33 + 12] == [21, 22, 23, 24]  # atom 20 one line later


def test_feature_c_not_multiple_of_atom_and_batches():
    # int8, C = 40: two surfaces, the second holds channels 32..39 and 24 zero bytes
    a = nv.iota((2, 40, 2, 3), "i8")
    blob = packed(a, "#dla.feature<int8>", "i8")
    assert len(blob) == 2 * 2 * 2 * 3 * 32
    g = nv.geometry("#dla.feature<int8>", (2, 40, 2, 3), "i8")
    assert g.batch == 2 * 192
    for n, c, h, w in [(0, 0, 0, 0), (0, 33, 1, 2), (1, 39, 0, 1), (1, 31, 1, 0)]:
        off = n * 384 + (c // 32) * 192 + h * 96 + w * 32 + c % 32
        assert blob[off] == a[n, c, h, w].astype("u1")
    second = blob[192:384]
    for atom in rows(second, 32):
        assert atom[8:] == bytes(24)


def test_feature_fp16_explicit_strides():
    shape = (2, 20, 3, 2)
    enc = "#dla.feature<fp16, line_stride = 96, surface_stride = 320, batch_stride = 672>"
    a = nv.iota(shape, "f16")
    blob = packed(a, enc, "f16")
    assert len(blob) == 2 * 672
    for n, c, h, w in [(0, 0, 0, 0), (0, 17, 2, 1), (1, 19, 1, 1), (1, 3, 0, 1)]:
        off = n * 672 + (c // 16) * 320 + h * 96 + w * 32 + (c % 16) * 2
        assert np.frombuffer(blob[off:off + 2], "<f2")[0] == a[n, c, h, w]
    # everything not written is zero
    written = set()
    for p in nv.placements(enc, shape, "f16"):
        written.update(range(p.offset, p.offset + p.nbytes))
    assert not any(blob[i] for i in range(len(blob)) if i not in written)


@pytest.mark.parametrize("enc,shape,elt", [
    ("#dla.feature<int8, line_stride = 48>", (1, 8, 2, 1), "i8"),
    ("#dla.feature<int8, line_stride = 64>", (1, 8, 2, 4), "i8"),
    ("#dla.feature<int8, surface_stride = 128>", (1, 8, 2, 4), "i8"),
    ("#dla.feature<int8, batch_stride = 224>", (2, 8, 2, 4), "i8"),
    ("#dla.feature<int8>", (1, 8, 2, 4), "f16"),
    ("#dla.feature<int8>", (8, 2, 4), "i8"),
])
def test_feature_invalid(enc, shape, elt):
    with pytest.raises(ValueError):
        nv.geometry(enc, shape, elt)


def test_interleaved_surfaces_are_a_1x1_weight_stream():
    """Surfaces interleaved line by line (surface stride one line of
    atoms, line stride the surfaces' lines side by side) on nv_small: a map
    of C channels (a multiple of the 8-channel atom) over H x 8 positions
    is, byte for byte, the direct weight stream of H x 8 1x1 kernels
    (weight_ref: kernel groups of atomic-K = 8, channel blocks of
    atomic-C = 8), kernel k = 8 h + w. A layer that writes the map so is a
    convolution's weights (the attention's k and v: docs/WholeNetworks.md)."""
    import weight_ref
    rng = np.random.default_rng(7)
    for C, H in ((8, 1), (16, 5), (40, 2), (120, 5)):
        S = C // 8
        w = rng.integers(-128, 128, (H * 8, C, 1, 1)).astype(np.int8)
        want = weight_ref.pack(w, "#dla.weight<direct, int8, config = nv_small>", "i8")["weights"]
        fmap = w[:, :, 0, 0].T.reshape(1, C, H, 8)            # [c, h, w] = w[8 h + w, c]
        enc = "#dla.feature<int8, line_stride = %d, surface_stride = 64, config = nv_small>" % (S * 64)
        got = packed(fmap, enc, "i8")
        assert got == want, (C, H)
        g = nv.geometry(enc, fmap.shape, "i8")
        assert g.size == H * S * 64
    # Overlapping strides: a line too short for its surfaces side by side.
    with pytest.raises(ValueError, match="side by side"):
        nv.geometry("#dla.feature<int8, line_stride = 64, surface_stride = 64, config = nv_small>",
                    (1, 16, 2, 8), "i8")
    # A surface stride below one line of atoms overlaps too.
    with pytest.raises(ValueError, match="smaller than"):
        nv.geometry("#dla.feature<int8, line_stride = 128, surface_stride = 32, config = nv_small>",
                    (1, 16, 2, 8), "i8")


# ---------------------------------------------------------------------------
# Auxiliary data: the memory_mapping_of_* figures
# ---------------------------------------------------------------------------
#
# Per-channel figures (bias, PReLU: case 1 = 32-byte rows, case 2 = 64-byte
# rows; batch-norm: case 1 = 64-byte rows, case 2 = 128-byte rows): memory row
# k is atom k, which holds ElementPerAtom consecutive channels.

@pytest.mark.parametrize("kind,ds,row", [
    ("bias<per_channel, int8", "one_byte", 32),     # bias case 1
    ("bias<per_channel, int8", "two_byte", 64),     # bias case 2
    ("prelu<int8", "one_byte", 32),                 # prelu case 1
    ("prelu<int8", "two_byte", 64),                 # prelu case 2
])
def test_per_channel_figures(kind, ds, row):
    C = 32 * 8                                      # 8 atoms as in the figures
    a = (np.arange(C) // 32).astype("i1")           # atom number
    enc = f"#dla.{kind}, data_size = {ds}>"
    blob = packed(a, enc, "i8")
    assert nv.parse_encoding(enc).bytes_per_atom == row
    assert len(blob) == 8 * row
    for k, r in enumerate(rows(blob, row)):
        v = np.frombuffer(r, "<i1" if row == 32 else "<i2")
        assert np.all(v == k)


@pytest.mark.parametrize("ds,row,dt", [("one_byte", 64, "<i1"), ("two_byte", 128, "<i2")])
def test_batchnorm_figures(ds, row, dt):
    C = 32 * 8
    a = np.stack([np.arange(C) // 32, -(np.arange(C) // 32) - 1], axis=1).astype("i1")
    enc = f"#dla.batchnorm<per_channel, int8, data_size = {ds}>"
    blob = packed(a, enc, "i8")
    assert nv.parse_encoding(enc).bytes_per_atom == row
    for k, r in enumerate(rows(blob, row)):
        v = np.frombuffer(r, dt)
        assert np.all(v[0::2] == k) and np.all(v[1::2] == -k - 1)   # add, mul, add, mul


@pytest.mark.parametrize("enc,row", [
    ("#dla.bias<per_element, int8>", 32),                          # per-element bias case 1
    ("#dla.bias<per_element, int8, data_size = two_byte>", 64),    # per-element bias case 2
    ("#dla.eltwise<int8>", 32),                                    # element-wise case 1
    ("#dla.eltwise<int8, data_size = two_byte>", 64),              # element-wise case 2
    ("#dla.bias<per_element, int16>", 32),
    ("#dla.eltwise<fp16>", 32),
])
def test_per_element_figures(enc, row):
    e = nv.parse_encoding(enc)
    epa = nv.ELEMENTS_PER_ATOM[e.precision]
    elt = "f16" if e.precision == "fp16" else "i8"
    C, H, W = 2 * epa, 4, 4
    a = atom_numbers(C, H, W, epa).astype(nv.element_dtype(elt))
    blob = packed(a, enc, elt)
    assert len(blob) == 32 * row
    dt = "<f2" if elt == "f16" else ("<i1" if row // epa == 1 else "<i2")
    for k, r in enumerate(rows(blob, row)):
        assert np.all(np.frombuffer(r, dt) == k)
    # the channels of one atom are in order
    a = (np.arange(C) % epa)[:, None, None] * np.ones((C, H, W))
    blob = packed(a.astype(nv.element_dtype(elt)), enc, elt)
    for r in rows(blob, row):
        assert list(np.frombuffer(r, dt)) == list(range(epa))


def test_eltwise_two_components():
    # both ALU and MUL: components interleaved per element, 64-byte atoms (int8)
    C, H, W = 3, 2, 2
    a = np.zeros((C, H, W, 2), "i1")
    for c in range(C):
        for h in range(H):
            for w in range(W):
                a[c, h, w] = [10 * c + 4 * h + w, -(10 * c + 4 * h + w) - 1]
    enc = "#dla.eltwise<int8, components = 2>"
    blob = packed(a, enc, "i8")
    assert nv.parse_encoding(enc).bytes_per_atom == 64
    assert len(blob) == 2 * 2 * 64
    for h in range(H):
        for w in range(W):
            atom = blob[(h * W + w) * 64:(h * W + w + 1) * 64]
            v = np.frombuffer(atom, "<i1")
            for c in range(C):
                assert v[2 * c] == a[c, h, w, 0] and v[2 * c + 1] == a[c, h, w, 1]
            assert not any(atom[2 * C:])


def test_per_element_strides_and_batches():
    shape = (2, 20, 2, 3)
    enc = ("#dla.bias<per_element, int16, line_stride = 128, surface_stride = 288, "
           "batch_stride = 640>")
    a = nv.iota(shape, "i16")
    blob = packed(a, enc, "i16")
    assert len(blob) == 2 * 640
    for n, c, h, w in [(0, 0, 0, 0), (1, 19, 1, 2), (0, 16, 0, 1)]:
        off = n * 640 + (c // 16) * 288 + h * 128 + w * 32 + (c % 16) * 2
        assert int.from_bytes(blob[off:off + 2], "little", signed=True) == a[n, c, h, w]


def test_per_element_one_byte_int16_rounds_strides():
    # int16 with one_byte data: 16 elements x 1 byte = 16-byte atoms; the
    # line (3 atoms = 48 bytes) is rounded up to 64, surface H*64.
    g = nv.geometry("#dla.bias<per_element, int16, data_size = one_byte>", (20, 2, 3), "i8")
    assert (g.atom, g.line, g.surface, g.batch, g.size) == (16, 64, 128, 256, 256)
    a = nv.iota((20, 2, 3), "i8")
    blob = packed(a, g.enc, "i8")
    assert blob[0:16] == bytes(a[:16, 0, 0].astype("u1"))
    assert blob[16:32] == bytes(a[:16, 0, 1].astype("u1"))
    assert blob[48:64] == bytes(16)            # the rounding gap
    assert blob[128:132] == bytes(a[16:, 0, 0].astype("u1"))


def test_alignment_table_strides():
    # Feature data: line, surface and planar (batch) strides 32-byte aligned.
    for kw in ["line_stride = 72", "surface_stride = 264", "batch_stride = 520"]:
        with pytest.raises(ValueError):
            nv.geometry(f"#dla.feature<int8, {kw}>", (2, 40, 2, 2), "i8")
    # Bias: line and surface strides 32 bytes; no batch stride alignment.
    for kw in ["line_stride = 72", "surface_stride = 264"]:
        with pytest.raises(ValueError):
            nv.geometry(f"#dla.bias<per_element, int8, {kw}>", (2, 40, 2, 2), "i8")
    nv.geometry("#dla.bias<per_element, int8, batch_stride = 264>", (2, 40, 2, 2), "i8")
    # Element-wise: line stride 32 bytes; surface and batch strides "NA".
    with pytest.raises(ValueError):
        nv.geometry("#dla.eltwise<int8, line_stride = 72>", (2, 40, 2, 2), "i8")
    g = nv.geometry("#dla.eltwise<int8, surface_stride = 136, batch_stride = 280>",
                    (3, 40, 2, 2), "i8")
    assert g.size == roundup32(3 * 280) == 864
    # Pitch-linear pixels: line strides and the UV plane start 32 bytes.
    for kw in ["line_stride = 40", "uv_line_stride = 40", "uv_offset = 72"]:
        with pytest.raises(ValueError):
            nv.geometry(f"#dla.pixel<T_Y8___U8V8_N444, {kw}>", (1, 3, 2, 2), "ui8")


def roundup32(x):
    return -(-x // 32) * 32


def test_eltwise_size_rounded_to_32_bytes():
    # element-wise data size is 32-byte aligned; per-element bias is not
    assert nv.storage_size("#dla.eltwise<int8, batch_stride = 40>", (1, 4, 1, 1), "i8") == 64
    assert nv.storage_size("#dla.bias<per_element, int8, batch_stride = 40>",
                           (1, 4, 1, 1), "i8") == 40


# ---------------------------------------------------------------------------
# Data sizes, sign extension, per-layer register images
# ---------------------------------------------------------------------------

def test_data_size_one_byte_int8():
    blob = packed(np.array([-1, 5, -128, 127], "i1"), "#dla.bias<per_channel, int8>", "i8")
    assert blob == bytes([0xFF, 0x05, 0x80, 0x7F]) + bytes(28)


def test_data_size_two_byte_int8_sign_extends():
    blob = packed(np.array([-1, 5, -128, 127], "i1"),
                  "#dla.bias<per_channel, int8, data_size = two_byte>", "i8")
    assert blob == bytes([0xFF, 0xFF, 0x05, 0x00, 0x80, 0xFF, 0x7F, 0x00]) + bytes(56)
    blob = packed(np.array([-2], "i1"), "#dla.prelu<int8, data_size = two_byte>", "i8")
    assert blob == bytes([0xFE, 0xFF]) + bytes(62)


def test_data_size_two_byte_with_i16_elements():
    blob = packed(np.array([300, -300], "i2"),
                  "#dla.bias<per_channel, int8, data_size = two_byte>", "i16")
    assert blob[:4] == bytes([0x2C, 0x01, 0xD4, 0xFE]) and len(blob) == 64


def test_int16_precision_data_sizes():
    # two_byte (default): 16 channels x 2 bytes = 32-byte atom; i8 is sign-extended
    blob = packed(np.array([-1, 2, 3], "i1"), "#dla.bias<per_channel, int16>", "i8")
    assert blob == bytes([0xFF, 0xFF, 2, 0, 3, 0]) + bytes(26)
    # one_byte: 16-byte atom
    blob = packed(np.array([-1, 2, 3], "i1"),
                  "#dla.bias<per_channel, int16, data_size = one_byte>", "i8")
    assert blob == bytes([0xFF, 2, 3]) + bytes(13)


def test_fp16_per_channel():
    a = np.array([1.5, -2.0, 65504.0], "<f2")
    blob = packed(a, "#dla.prelu<fp16>", "f16")
    assert blob == a.tobytes() + bytes(32 - 6)


def test_per_layer_register_images():
    assert packed(np.array(-3, "i1"), "#dla.bias<per_layer, int8>", "i8") == b"\xfd"
    assert packed(np.array(-3, "i1"), "#dla.bias<per_layer, int8, data_size = two_byte>",
                  "i8") == b"\xfd\xff"
    assert packed(np.array([0x1234, -2], "i2"), "#dla.batchnorm<per_layer, int16>",
                  "i16") == bytes([0x34, 0x12, 0xFE, 0xFF])
    assert packed(np.array([7, -7], "i1"), "#dla.batchnorm<per_layer, int8>",
                  "i8") == bytes([7, 0xF9])


def test_batchnorm_interleaved_and_padded():
    a = np.array([[1, 2], [3, 4], [5, 6]], "i1")
    blob = packed(a, "#dla.batchnorm<per_channel, int8>", "i8")
    assert blob == bytes([1, 2, 3, 4, 5, 6]) + bytes(58)
    blob = packed(np.array([[1.0, 2.0]], "<f2"), "#dla.batchnorm<per_channel, fp16>", "f16")
    assert blob == np.array([1.0, 2.0], "<f2").tobytes() + bytes(60)


def test_bytes_per_atom_table():
    for prec, epa in nv.ELEMENTS_PER_ATOM.items():
        for kind, comps in [("bias<per_channel, ", 1), ("prelu<", 1),
                            ("batchnorm<per_channel, ", 2),
                            ("eltwise<", 1), ("eltwise<", 2)]:
            for ds, bpc in nv.DATA_SIZES.items():
                if prec == "fp16" and bpc == 1:
                    continue
                extra = f", components = {comps}" if kind == "eltwise<" else ""
                e = nv.parse_encoding(f"#dla.{kind}{prec}{extra}, data_size = {ds}>")
                assert e.bytes_per_atom == epa * comps * bpc


@pytest.mark.parametrize("enc,shape,elt", [
    ("#dla.bias<per_channel, fp16, data_size = one_byte>", (8,), "f16"),
    ("#dla.bias<per_channel, int8>", (8,), "i16"),       # 2-byte elements, one_byte
    ("#dla.bias<per_channel, int8>", (8, 2), "i8"),
    ("#dla.bias<per_layer, int8>", (1,), "i8"),
    ("#dla.bias<per_channel, int8, line_stride = 32>", (8,), "i8"),
    ("#dla.batchnorm<per_element, int8>", (8, 2), "i8"),
    ("#dla.eltwise<int8, components = 2>", (4, 2, 2), "i8"),
    ("#dla.eltwise<int8, components = 3>", (4, 2, 2, 3), "i8"),
    ("#dla.prelu<int8>", (8, 1), "i8"),
    ("#dla.bias<per_element, int8, line_stride = 16>", (1, 16, 2, 2), "i8"),
])
def test_aux_invalid(enc, shape, elt):
    with pytest.raises(ValueError):
        nv.geometry(enc, shape, elt)


# ---------------------------------------------------------------------------
# Pixel formats
# ---------------------------------------------------------------------------

def test_pixel_table():
    assert len(nv.PIXEL_TABLE) == 36 and len(nv.PIXEL_FORMATS) == 36
    for name, planes, channels, prec, xmax in nv.PIXEL_TABLE:
        f = nv.PIXEL_FORMATS[name]
        assert len(f.planes) == planes and f.channels == channels
        # The x offset counts the redundant pixels before the first one within
        # a 32-byte aligned start: the range is exactly one 32-byte unit.
        assert (xmax + 1) * f.planes[0].bytes_per_pixel == 32, name
        # every channel is stored exactly once
        chans = sorted(fl.channel for p in f.planes for fl in p.fields)
        assert chans == list(range(channels))
        assert f.precision == ("fp16" if name.endswith("_F") else prec)


def test_pixel_erratum5_r16_f_is_fp16():
    assert nv.PIXEL_FORMATS["T_R16_F"].precision == "fp16"
    assert nv.pixel_element_types(nv.PIXEL_FORMATS["T_R16_F"]) == ("f16",)
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_R16_F>", (1, 1, 2, 2), "ui16")
    a = np.array([1.0, -0.5], "<f2").reshape(1, 1, 1, 2)
    assert packed(a, "#dla.pixel<T_R16_F>", "f16")[:4] == a.tobytes()


def rgba(R, G, B, A, elt="ui8"):
    return np.array([R, G, B, A], nv.element_dtype(elt)).reshape(1, 4, 1, len(R))


@pytest.mark.parametrize("fmt,order", [
    ("T_A8B8G8R8", "RGBA"), ("T_X8B8G8R8", "RGBA"),
    ("T_A8R8G8B8", "BGRA"), ("T_X8R8G8B8", "BGRA"),
    ("T_B8G8R8A8", "ARGB"), ("T_B8G8R8X8", "ARGB"),
    ("T_R8G8B8A8", "ABGR"), ("T_R8G8B8X8", "ABGR"),
])
def test_pixel_interleaved_8bit_rgb(fmt, order):
    # names read MSB first in a little-endian 32-bit word: lowest address = last name
    R, G, B, A = [1, 2], [3, 4], [5, 6], [7, 8]
    val = dict(R=R, G=G, B=B, A=A)
    blob = packed(rgba(R, G, B, A), f"#dla.pixel<{fmt}>", "ui8")
    assert len(blob) == 32
    want = [val[ch][px] for px in range(2) for ch in order]
    assert list(blob[:8]) == want and not any(blob[8:])


@pytest.mark.parametrize("fmt,order", [("T_A8Y8U8V8", "VUYA"), ("T_V8U8Y8A8", "AYUV")])
def test_pixel_interleaved_8bit_yuv(fmt, order):
    Y, U, V, A = [1], [2], [3], [4]   # logical channels Y, U, V, A
    val = dict(Y=1, U=2, V=3, A=4)
    blob = packed(rgba(Y, U, V, A), f"#dla.pixel<{fmt}>", "ui8")
    assert list(blob[:4]) == [val[c] for c in order]


def test_pixel_interleaved_16bit():
    a = rgba([0x0102], [0x0304], [0x0506], [0x0708], "ui16")
    assert packed(a, "#dla.pixel<T_A16B16G16R16>", "ui16")[:8] == \
        bytes([2, 1, 4, 3, 6, 5, 8, 7])
    # YUV: A16Y16U16V16 stores V, U, Y, A; V16U16Y16A16 stores A, Y, U, V
    assert packed(a, "#dla.pixel<T_A16Y16U16V16>", "ui16")[:8] == \
        bytes([6, 5, 4, 3, 2, 1, 8, 7])
    assert packed(a, "#dla.pixel<T_V16U16Y16A16>", "ui16")[:8] == \
        bytes([8, 7, 2, 1, 4, 3, 6, 5])
    f = np.array([1.0, 2.0, 3.0, 4.0], "<f2").reshape(1, 4, 1, 1)
    assert packed(f, "#dla.pixel<T_A16B16G16R16_F>", "f16")[:8] == f.tobytes()


def test_pixel_x_offset_and_line_stride():
    # T_A8B8G8R8, W = 6, x offset 3: line = roundup(9*4, 32) = 64, pixel 0 at byte 12
    a = nv.iota((1, 4, 2, 6), "ui8")
    enc = "#dla.pixel<T_A8B8G8R8, x_offset = 3>"
    g = nv.geometry(enc, a.shape, "ui8")
    assert g.plane_line == (64,) and g.size == 128
    blob = packed(a, enc, "ui8")
    assert blob[:12] == bytes(12)
    for h in range(2):
        for w in range(6):
            base = h * 64 + (3 + w) * 4
            assert list(blob[base:base + 4]) == [a[0, c, h, w] for c in range(4)]
    assert blob[36:64] == bytes(28)    # beyond W + x offset = 9 pixels: line padding
    enc = "#dla.pixel<T_A8B8G8R8, line_stride = 96, x_offset = 7>"
    assert nv.geometry(enc, a.shape, "ui8").size == 192
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_A8B8G8R8, x_offset = 8>", a.shape, "ui8")
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_A8B8G8R8, line_stride = 40>", a.shape, "ui8")
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_A8B8G8R8, uv_offset = 128>", a.shape, "ui8")
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_A8B8G8R8>", (1, 3, 2, 6), "ui8")
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_A8B8G8R8>", (2, 4, 2, 6), "ui8")


@pytest.mark.parametrize("fmt,lo", [("T_Y8___U8V8_N444", "V"), ("T_Y8___V8U8_N444", "U")])
def test_pixel_semi_planar_8bit(fmt, lo):
    H, W, xo = 2, 3, 2
    a = nv.iota((1, 3, H, W), "ui8")           # Y = 0..5, U = 6..11, V = 12..17
    enc = f"#dla.pixel<{fmt}, x_offset = {xo}>"
    g = nv.geometry(enc, a.shape, "ui8")
    # Y plane line roundup(5*1, 32) = 32; UV line roundup(5*2, 32) = 32;
    # UV plane at roundup(2*32, 32) = 64; size = end of the UV plane's last line
    assert g.plane_start == (0, 64) and g.plane_line == (32, 32) and g.size == 128
    blob = packed(a, enc, "ui8")
    Y, U, V = a[0]
    for h in range(H):
        for w in range(W):
            assert blob[h * 32 + xo + w] == Y[h, w]
            uv = 64 + h * 32 + (xo + w) * 2
            first, second = (V, U) if lo == "V" else (U, V)
            assert blob[uv] == first[h, w] and blob[uv + 1] == second[h, w]
    nz = {i for i in range(len(blob)) if blob[i]}
    assert len(nz) <= H * W * 3


def test_pixel_semi_planar_16bit_explicit():
    H, W = 2, 2
    a = (np.arange(12, dtype="u2") * 0x0101 + 0x100).reshape(1, 3, H, W)
    enc = "#dla.pixel<T_Y16___U16V16_N444, line_stride = 64, uv_line_stride = 96, uv_offset = 160>"
    g = nv.geometry(enc, a.shape, "ui16")
    assert g.size == 160 + 2 * 96
    blob = packed(a, enc, "ui16")
    Y, U, V = a[0]
    assert int.from_bytes(blob[64 + 2:64 + 4], "little") == Y[1, 1]
    uv = 160 + 96 + 1 * 4
    assert int.from_bytes(blob[uv:uv + 2], "little") == V[1, 1]
    assert int.from_bytes(blob[uv + 2:uv + 4], "little") == U[1, 1]
    with pytest.raises(ValueError):
        nv.geometry("#dla.pixel<T_Y16___U16V16_N444, uv_offset = 32>", a.shape, "ui16")


def word(blob, i=0):
    return int.from_bytes(blob[4 * i:4 * i + 4], "little")


@pytest.mark.parametrize("fmt,fields", [
    # field positions (lo bit, width) of logical channels 0..3
    ("T_A2B10G10R10", [(0, 10), (10, 10), (20, 10), (30, 2)]),    # R G B A
    ("T_A2R10G10B10", [(20, 10), (10, 10), (0, 10), (30, 2)]),
    ("T_B10G10R10A2", [(2, 10), (12, 10), (22, 10), (0, 2)]),
    ("T_R10G10B10A2", [(22, 10), (12, 10), (2, 10), (0, 2)]),
    ("T_A2Y10U10V10", [(20, 10), (10, 10), (0, 10), (30, 2)]),    # Y U V A
    ("T_V10U10Y10A2", [(2, 10), (12, 10), (22, 10), (0, 2)]),
])
def test_pixel_10bit_packed_bits(fmt, fields):
    enc = f"#dla.pixel<{fmt}>"
    for ch, (lo, width) in enumerate(fields):
        for v in [1, (1 << width) - 1, 0x155 & ((1 << width) - 1)]:
            a = np.zeros((1, 4, 1, 1), "u2")
            a[0, ch, 0, 0] = v
            assert word(packed(a, enc, "ui16")) == v << lo, (fmt, ch, v)
    # all four at once, and values wider than the field are masked
    a = np.array([0x7FF, 0x402, 0x203, 0x7], "u2").reshape(1, 4, 1, 1)
    want = sum((int(a[0, c, 0, 0]) & ((1 << w) - 1)) << lo for c, (lo, w) in enumerate(fields))
    assert word(packed(a, enc, "ui16")) == want


def test_pixel_a2b10g10r10_example():
    a = np.array([[1023, 1024], [5, 2047], [7, 8], [3, 4]], "u2").reshape(1, 4, 1, 2)
    blob = packed(a, "#dla.pixel<T_A2B10G10R10>", "ui16")
    assert word(blob, 0) == 1023 | 5 << 10 | 7 << 20 | 3 << 30 == 0xC07017FF
    assert word(blob, 1) == 0 | 1023 << 10 | 8 << 20 | 0 << 30
    assert blob[:8] == bytes.fromhex("FF1770C000FC8F00")


def test_pixel_r10_container_is_16_bits():
    # T_R10 / T_R12 / Y10 semi-planar: a 16-bit container holding the element
    a = np.array([0xFFFF, 0x03FF], "u2").reshape(1, 1, 1, 2)
    assert packed(a, "#dla.pixel<T_R10>", "ui16")[:4] == bytes.fromhex("FFFFFF03")
    assert packed(a, "#dla.pixel<T_R12, x_offset = 15>", "ui16")[30:34] == \
        bytes.fromhex("FFFFFF03")


def test_pixel_signed_elements_store_bit_patterns():
    a = np.array([-1, -2, 3, 4], "i1").reshape(1, 4, 1, 1)
    assert packed(a, "#dla.pixel<T_A8B8G8R8>", "i8")[:4] == bytes([0xFF, 0xFE, 3, 4])
    a = np.array([-1, 0, 0, -1], "i2").reshape(1, 4, 1, 1)
    assert word(packed(a, "#dla.pixel<T_A2B10G10R10>", "i16")) == 0x3FF | 3 << 30


def test_every_pixel_format_roundtrips_through_placements():
    for name, f in nv.PIXEL_FORMATS.items():
        elt = nv.pixel_element_types(f)[0]
        shape = (1, f.channels, 3, 5)
        for xo in (0, f.x_offset_max):
            packed(nv.iota(shape, elt), f"#dla.pixel<{name}, x_offset = {xo}>", elt)


# ---------------------------------------------------------------------------
# Brute force vs numpy, parsing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_bruteforce_matches_numpy_random(seed):
    rng = np.random.default_rng(seed)
    for _ in range(60):
        enc, shape, elt = nv.random_case(rng, 16384)
        packed(nv.iota(shape, elt), enc, elt)


@pytest.mark.parametrize("text", [
    "#dla.feature<int8>",
    "#dla.feature<fp16, line_stride = 64, surface_stride = 128, batch_stride = 256>",
    "#dla.pixel<T_Y8___U8V8_N444, line_stride = 64, x_offset = 2, uv_line_stride = 64, uv_offset = 1024>",
    "#dla.bias<per_element, int8, data_size = two_byte, line_stride = 64>",
    "#dla.bias<per_layer, int8>",
    "#dla.prelu<int16, data_size = one_byte>",
    "#dla.batchnorm<per_channel, fp16>",
    "#dla.eltwise<int8, components = 2, data_size = two_byte>",
])
def test_parse_print_roundtrip(text):
    e = nv.parse_encoding(text)
    assert e.text() == text
    assert nv.parse_encoding(e.text(spaces=False)) == e
    assert nv.parse_encoding(text.replace(", ", " ,  ")) == e


@pytest.mark.parametrize("text", [
    "#dla.feature<int4>", "#dla.feature<int8, stride = 32>", "#dla.pixel<T_A8B8G8R9>",
    "#dla.bias<per_pixel, int8>", "#dla.bias<per_channel, int8, data_size = three_byte>",
    "#dla.bias<int8>", "#dla.chunked<crouton>", "#dla.feature<int8, line_stride = x>",
    "#dla.prelu<int8, line_stride = 32>",
])
def test_parse_errors(text):
    with pytest.raises(ValueError):
        nv.parse_encoding(text)


def test_iota_unsigned():
    assert list(nv.iota((300,), "ui8")[254:258]) == [254, 255, 0, 1]
    assert nv.iota((70000,), "ui16")[65537] == 1
    assert list(nv.iota((3,), "i8")) == [0, 1, 2]


# ---------------------------------------------------------------------------
# gen_module.py / fake_pack.py / check_packed.py
# ---------------------------------------------------------------------------

def run(args, stdin=None):
    return subprocess.run([PY] + args, input=stdin, capture_output=True, text=True)


def test_gen_module_encoding():
    enc = "#dla.feature<int8, line_stride = 96>"
    r = run([os.path.join(HERE, "gen_module.py"), "--encoding", enc, "--shape", "1x40x2x3"])
    assert r.returncode == 0, r.stderr
    t = f"tensor<1x40x2x3xi8, {enc}>"
    assert f"func.func @case0() -> {t} {{" in r.stdout
    assert f"%1 = dla.relayout %0 : tensor<1x40x2x3xi8> -> {t}" in r.stdout
    m = re.search(r'dense<"0x([0-9A-F]*)"> : tensor<1x40x2x3xi8>', r.stdout)
    assert bytes.fromhex(m.group(1)) == nv.to_le_bytes(nv.iota((1, 40, 2, 3), "i8"), "i8")
    # natural element types
    for enc, shape, elt in [("#dla.pixel<T_A2B10G10R10>", "1x4x2x2", "ui16"),
                            ("#dla.pixel<T_R16_F>", "1x1x2x2", "f16"),
                            ("#dla.bias<per_channel, int16>", "8", "i16"),
                            ("#dla.bias<per_channel, int8, data_size = two_byte>", "8", "i8"),
                            ("#dla.bias<per_layer, int8>", "", "i8")]:
        r = run([os.path.join(HERE, "gen_module.py"), "--encoding", enc, "--shape", shape])
        assert r.returncode == 0, r.stderr
        assert f"x{elt}, {enc}>" in r.stdout or f"tensor<{elt}, {enc}>" in r.stdout
    r = run([os.path.join(HERE, "gen_module.py"), "--encoding", "#dla.feature<int8>",
             "--shape", "8x2x2"])
    assert r.returncode != 0
    r = run([os.path.join(HERE, "gen_module.py"), "--encoding", "#dla.feature<int8>",
             "--shape", "1x8x2x2", "--random-nvdla", "3"])
    assert r.returncode != 0


def test_random_nvdla_cases_properties():
    cases = gen_module.random_nvdla_cases(1200, seed=5)
    kinds = {c.enc.kind for c in cases}
    assert kinds == set(nv.KINDS)
    pix = [c for c in cases if c.enc.kind == "pixel"]
    assert {c.enc.fmt for c in pix} == set(nv.PIXEL_FORMATS)
    assert any(c.enc.x_offset for c in pix)
    assert any(c.enc.x_offset == nv.PIXEL_FORMATS[c.enc.fmt].x_offset_max for c in pix)
    assert any(c.enc.uv_offset for c in pix) and any(c.enc.uv_line_stride for c in pix)
    feats = [c for c in cases if c.enc.kind == "feature"]
    assert {c.enc.precision for c in feats} == set(nv.PRECISIONS)
    unpacked = [c for c in feats if nv.geometry(c.enc, c.shape, c.elt).line > c.shape[3] * 32]
    assert unpacked
    assert any(c.shape[0] > 1 for c in feats)
    assert any(c.shape[1] % nv.ELEMENTS_PER_ATOM[c.enc.precision] for c in feats)
    assert {c.enc.kind for c in cases if c.enc.config == "nv_small"} >= {"feature", "pixel"}
    aux = [c for c in cases if c.enc.is_aux]
    assert {c.enc.aux_mode for c in aux} == set(nv.MODES)
    assert {c.enc.bytes_per_component for c in aux} == {1, 2}
    assert any(c.enc.ncomponents == 2 and c.enc.kind == "eltwise" for c in aux)
    assert any(c.elt == "i8" and c.enc.bytes_per_component == 2 for c in aux)
    assert all(c.storage_bytes() <= 65536 for c in cases)
    for c in cases:
        nv.geometry(nv.parse_encoding(c.encoding_text()), c.shape, c.elt)
    t = gen_module.module_text
    assert t(gen_module.random_nvdla_cases(8, 3), "hex") == \
        t(gen_module.random_nvdla_cases(8, 3), "hex")


def nv_fake(cases, **kw):
    return fake_pack.fake(gen_module.module_text(cases, "hex"), **kw)


def check(text, *args):
    return run([os.path.join(HERE, "check_packed.py")] + list(args), stdin=text)


@pytest.mark.parametrize("spelling", ["list", "alias", "mixed"])
def test_check_packed_accepts_nvdla(spelling):
    cases = gen_module.random_nvdla_cases(40, 21)
    r = check(nv_fake(cases, spelling=spelling, seed=2), "--expect-count", "40")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"checked 40 constants, {sum(c.storage_bytes() for c in cases)} bytes\n"


def test_check_packed_mixed_chunked_and_nvdla():
    cases = gen_module.random_cases(5, 1) + gen_module.random_nvdla_cases(5, 1)
    r = check(nv_fake(cases), "--expect-count", "10")
    assert r.returncode == 0, r.stderr


def one(enc, shape, elt=None):
    e = nv.parse_encoding(enc)
    return [gen_module.NvdlaCase(shape, elt or gen_module.natural_type(e), e, enc)]


def test_check_packed_reports_feature_mismatch():
    case = one("#dla.feature<int8>", (1, 40, 2, 3))
    # byte 32*4 + 5 = atom (h=1, w=1), channel 5 = iota 5*6 + 3 + 1 = 34
    r = check(nv_fake(case, corrupt=133))
    assert r.returncode == 1
    assert "error: dla_packed: packed bytes differ from the reference" in r.stderr
    assert "first differing byte: 133" in r.stderr
    assert "reference puts there: (0,5,1,1) byte 0" in r.stderr
    assert "expected element 34" in r.stderr
    # padding: the second surface's atom has 8 channels, byte 8 of it is padding
    r = check(nv_fake(case, corrupt=192 + 8))
    assert r.returncode == 1 and "reference puts there: padding" in r.stderr


def test_check_packed_reports_where_value_belongs():
    # swap two elements: the report says where the found value belongs
    case = one("#dla.bias<per_channel, int8, data_size = two_byte>", (10,))
    good = nv_fake(case)
    blob = bytearray(nv.pack(nv.iota((10,), "i8"), case[0].enc, "i8"))
    blob[2:4], blob[4:6] = blob[4:6], blob[2:4]
    bad = re.sub(r'dla_packed: "0x[0-9A-F]*"',
                 'dla_packed: "0x20000000' + bytes(blob).hex().upper() + '"', good)
    r = check(bad)
    assert r.returncode == 1
    assert "first differing byte: 2" in r.stderr
    assert "reference puts there: (1) byte 0" in r.stderr
    assert "(actual value is iota of (2) at byte 4)" in r.stderr


def test_check_packed_reports_bit_fields():
    case = one("#dla.pixel<T_A2B10G10R10>", (1, 4, 1, 2))
    r = check(nv_fake(case, corrupt=1))   # bits 8..15: R bits 8..9 and G bits 0..5
    assert r.returncode == 1
    assert "reference puts there: (0,0,0,0) bits 8..9, (0,1,0,0) bits 0..5" in r.stderr


def test_check_packed_every_byte_is_checked():
    cases = one("#dla.pixel<T_Y8___V8U8_N444, x_offset = 5>", (1, 3, 3, 7))
    size = cases[0].storage_bytes()
    for b in np.random.default_rng(1).integers(0, size, 15):
        r = check(nv_fake(cases, corrupt=int(b)))
        assert r.returncode == 1 and f"first differing byte: {int(b)}" in r.stderr
    assert check(nv_fake(cases)).returncode == 0


def test_check_packed_nvdla_size_and_unpacked():
    good = nv_fake(one("#dla.eltwise<int8>", (4, 2, 2)))
    short = re.sub(r'(dla_packed: "0x[0-9A-F]*)[0-9A-F]{4}"', r'\1"', good)
    r = check(short)
    assert r.returncode == 1 and "size mismatch" in r.stderr
    assert "the missing bytes are all zero" in r.stderr
    t = "tensor<4xi8, #dla.bias<per_channel, int8>>"
    unpacked = good.replace(
        "module {", f"module {{\n  func.func @x() -> {t} {{\n"
        f"    %cst = arith.constant dense<[0, 1, 2, 3]> : {t}\n    return %cst : {t}\n  }}")
    r = check(unpacked)
    assert r.returncode == 1 and "NVDLA constant not packed into a dense_resource" in r.stderr
    # a type the reference rejects is an error, not a skip
    bad = good.replace("#dla.eltwise<int8>", "#dla.eltwise<int8, components = 3>")
    assert check(bad).returncode == 1


DLA_OPT = os.environ.get("DLA_OPT") or os.path.join(HERE, "..", "..", "build", "bin", "dla-opt")


@pytest.mark.skipif(not os.path.exists(DLA_OPT), reason="dla-opt not built")
def test_dla_opt_agrees(tmp_path):
    p = tmp_path / "in.mlir"
    p.write_text(gen_module.module_text(gen_module.random_nvdla_cases(80, 77), "hex"))
    out = subprocess.run([DLA_OPT, str(p), "--dla-pack-weights"], capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    r = check(out.stdout, "--expect-count", "80")
    assert r.returncode == 0, r.stderr


# nv_small's 8-byte memory atom (spec/defs/nv_small.spec MEMORY_ATOMIC_SIZE_8;
# the C model's ELEMENT_PER_ATOM_INT8 = NVDLA_MEMORY_ATOMIC_SIZE), worked by
# hand from the feature-data formula with 8 in place of 32.
def test_nv_small_feature_atoms():
    enc = "#dla.feature<int8, config = nv_small>"
    g = nv.geometry(enc, (1, 20, 3, 5), "i8")
    assert (g.epa, g.line, g.surface, g.batch, g.size) == (8, 40, 120, 360, 360)
    # (n, c, h, w) = (0, 9, 2, 4): surface 1, line 2, atom 4, byte 1
    assert nv.feature_offset(g, 0, 9, 2, 4) == 120 + 80 + 32 + 1
    g16 = nv.geometry("#dla.feature<fp16, config = nv_small>", (1, 5, 1, 2), "f16")
    assert (g16.epa, g16.line, g16.size) == (4, 16, 32)
    with pytest.raises(ValueError, match="not a multiple of 8"):
        nv.geometry("#dla.feature<int8, line_stride = 44, config = nv_small>", (1, 8, 1, 5), "i8")
    # an 8-byte aligned stride nv_full refuses
    nv.geometry("#dla.feature<int8, line_stride = 48, config = nv_small>", (1, 8, 1, 5), "i8")
    with pytest.raises(ValueError, match="not a multiple of 32"):
        nv.geometry("#dla.feature<int8, line_stride = 200>", (1, 8, 1, 5), "i8")


def test_nv_small_aux_atoms():
    # per channel: 8 int8 biases per atom, 11 channels take two atoms
    g = nv.geometry("#dla.bias<per_channel, int8, config = nv_small>", (11,), "i8")
    assert (g.epa, g.size) == (8, 16)
    # batch-norm: 4 two-byte elements x 2 components per 16-byte atom
    g = nv.geometry("#dla.batchnorm<per_channel, int16, config = nv_small>", (5, 2), "i16")
    assert (g.atom, g.size) == (16, 32)
    # element-wise data size: a multiple of 8, not 32
    g = nv.geometry("#dla.eltwise<int8, config = nv_small>", (3, 1, 1), "i8")
    assert g.size == 8
    # pixel line strides round to 8: 5 RGBA pixels take 20 bytes -> 24
    g = nv.geometry("#dla.pixel<T_A8B8G8R8, config = nv_small>", (1, 4, 2, 5), "ui8")
    assert g.plane_line == (24,) and g.size == 48
