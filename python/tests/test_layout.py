"""Layout queries through the Python package, checked against storage orders
written out here as plain loop nests (independent of the library)."""

import numpy as np
import pytest

import dla

CROUTON = "tensor<1x3x5x30xi8, #dla.chunked<crouton>>"


def iota(shape, dtype):
    """Non-splat, non-periodic-by-256 data: i % 251."""
    n = int(np.prod(shape))
    return (np.arange(n) % 251).astype(dtype).reshape(shape)


def ceil_to(x, m):
    return (x + m - 1) // m * m


def crouton_reference(x):
    """1xHxWxC -> padded [h/8][w/8][c/32][h%8][w%8][c%32], zero padding."""
    _, H, W, C = x.shape
    HP, WP, CP = ceil_to(H, 8), ceil_to(W, 8), ceil_to(C, 32)
    out = np.zeros(HP * WP * CP, dtype=x.dtype)
    o = 0
    for hb in range(HP // 8):
        for wb in range(WP // 8):
            for cb in range(CP // 32):
                for hi in range(8):
                    for wi in range(8):
                        for ci in range(32):
                            h, w, c = hb * 8 + hi, wb * 8 + wi, cb * 32 + ci
                            if h < H and w < W and c < C:
                                out[o] = x[0, h, w, c]
                            o += 1
    return out.astype(x.dtype.newbyteorder("<")).tobytes()


def crouton_offset(index, W, C, element_bytes):
    _, h, w, c = index
    WP, CP = ceil_to(W, 8), ceil_to(C, 32)
    block = ((h // 8) * (WP // 8) + w // 8) * (CP // 32) + c // 32
    return ((block * 8 + h % 8) * 8 + w % 8) * 32 * element_bytes + (c % 32) * element_bytes


def depth32_reference(x):
    """NHWC, pairs (0,0),(1,0),(3,0),(2,0),(2,4),(3,32):
    [n][h][c/32][w/4][w%4][c%32]."""
    N, H, W, C = x.shape
    WP, CP = ceil_to(W, 4), ceil_to(C, 32)
    out = []
    for n in range(N):
        for h in range(H):
            for cb in range(CP // 32):
                for wb in range(WP // 4):
                    for wi in range(4):
                        for ci in range(32):
                            w, c = wb * 4 + wi, cb * 32 + ci
                            out.append(x[n, h, w, c] if w < W and c < C else 0)
    return np.array(out, dtype=x.dtype).tobytes()


def conv_weight_reference(x):
    """(H, W, Cin, Cout), pairs (3,0),(2,0),(0,0),(1,0),(2,8),(3,32),(2,4):
    [cout/32][cin/32][h][w][(cin/4)%8][cout%32][cin%4]."""
    H, W, CI, CO = x.shape
    CIP, COP = ceil_to(CI, 32), ceil_to(CO, 32)
    out = []
    for ob in range(COP // 32):
        for ib in range(CIP // 32):
            for h in range(H):
                for w in range(W):
                    for i8 in range(8):
                        for oi in range(32):
                            for i4 in range(4):
                                ci, co = ib * 32 + i8 * 4 + i4, ob * 32 + oi
                                out.append(x[h, w, ci, co] if ci < CI and co < CO else 0)
    return np.array(out, dtype=x.dtype).tobytes()


def test_crouton_storage_size_and_offsets():
    layout = dla.layout(CROUTON)
    assert layout.shape == (1, 3, 5, 30)
    assert layout.element_bytes == 1
    assert layout.num_elements == 450
    assert layout.storage_bytes == 2048  # padded to 1x8x8x32
    assert dla.storage_bytes(CROUTON) == 2048
    assert layout.byte_offset((0, 0, 1, 0)) == 32
    assert dla.byte_offset(CROUTON, (0, 2, 4, 29)) == 669
    for index in np.ndindex(layout.shape):
        assert layout.byte_offset(index) == crouton_offset(index, 5, 30, 1), index


def test_crouton_pack_iota_exact_bytes():
    x = iota((1, 3, 5, 30), np.int8)
    expected = crouton_reference(x)
    assert len(expected) == 2048
    packed = dla.pack(CROUTON, x)
    assert isinstance(packed, bytes)
    assert packed == expected
    # The README's picture: channels 30 and 31 are zero, then the next column.
    assert packed[28:36] == bytes([28, 29, 0, 0, 30, 31, 32, 33])


def test_crouton_unpack_round_trip():
    layout = dla.layout(CROUTON)
    x = iota((1, 3, 5, 30), np.int8)
    back = layout.unpack(layout.pack(x))
    assert back.dtype == np.int8
    assert back.shape == (1, 3, 5, 30)
    np.testing.assert_array_equal(back, x)
    # Raw bytes in, raw bytes of the logical tensor back.
    assert layout.pack(x.tobytes()) == layout.pack(x)
    assert dla.unpack(CROUTON, bytearray(layout.pack(x)), dtype=np.uint8).tobytes() == x.tobytes()


def test_crouton_f16_is_two_bytes_little_endian():
    t = "tensor<1x3x5x30xf16, #dla.chunked<crouton>>"
    layout = dla.layout(t)
    assert layout.element_bytes == 2
    assert layout.storage_bytes == 4096
    assert layout.dtype == np.float16
    x = np.arange(450, dtype=np.float16).reshape(1, 3, 5, 30)
    assert layout.pack(x) == crouton_reference(x)
    for index in [(0, 0, 0, 0), (0, 0, 1, 0), (0, 2, 4, 29)]:
        assert layout.byte_offset(index) == crouton_offset(index, 5, 30, 2)
    np.testing.assert_array_equal(layout.unpack(layout.pack(x)), x)
    # Big-endian input means the same values.
    assert layout.pack(x.astype(">f2")) == layout.pack(x)


def test_crouton_spanning_several_blocks():
    # 1x9x17x33: every dimension spills into a second (or third) block.
    t = "tensor<1x9x17x33xui8, #dla.chunked<crouton>>"
    x = iota((1, 9, 17, 33), np.uint8)
    layout = dla.layout(t)
    assert layout.dtype == np.uint8
    assert layout.storage_bytes == 16 * 24 * 64
    assert layout.pack(x) == crouton_reference(x)
    for index in [(0, 8, 16, 32), (0, 0, 8, 0), (0, 8, 0, 31)]:
        assert layout.byte_offset(index) == crouton_offset(index, 17, 33, 1)


def test_depth32():
    x = iota((2, 3, 6, 40), np.int8)
    layout = dla.layout("tensor<2x3x6x40xi8, #dla.chunked<depth32>>")
    assert layout.storage_bytes == 2 * 3 * 64 * 8
    assert layout.pack(x) == depth32_reference(x)


def test_conv_weight():
    x = iota((3, 3, 40, 36), np.int8)
    layout = dla.layout("tensor<3x3x40x36xi8, #dla.chunked<conv_weight>>")
    assert layout.storage_bytes == 3 * 3 * 64 * 64
    assert layout.pack(x) == conv_weight_reference(x)
    np.testing.assert_array_equal(layout.unpack(layout.pack(x)), x)


def test_explicit_pairs_equal_the_preset():
    spelled = "tensor<1x3x5x30xi8, #dla.chunked<[(0,0),(1,0),(2,0),(3,0),(1,8),(2,8),(3,32)]>>"
    x = iota((1, 3, 5, 30), np.int8)
    assert dla.pack(spelled, x) == dla.pack(CROUTON, x)


def test_row_major_without_encoding():
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    layout = dla.layout("tensor<2x3xf32>")
    assert layout.storage_bytes == 24
    assert layout.byte_offset((1, 2)) == 20
    assert layout.pack(x) == x.astype("<f4").tobytes()


def test_locate_inverts_byte_offset():
    layout = dla.layout(CROUTON)
    assert layout.locate(669) == ((0, 2, 4, 29), 0)
    assert layout.locate(30) is None  # channel 30 is padding
    with pytest.raises(dla.DLAError, match="outside the storage"):
        layout.locate(2048)


def test_format_only_layout_matches_the_type():
    bound = dla.chunked_layout("crouton", (1, 3, 5, 30), element_bytes=1)
    assert bound.storage_bytes == 2048
    x = iota((1, 3, 5, 30), np.uint8)
    assert bound.pack(x) == crouton_reference(x)
    pairs = dla.chunked_layout([(0, 0), (1, 0), (0, 4)], (2, 3), element_bytes=1)
    assert pairs.storage_bytes == 12
    assert pairs.pack(np.arange(6, dtype=np.uint8).reshape(2, 3)) == bytes(
        [0, 3, 0, 0, 1, 4, 0, 0, 2, 5, 0, 0])
    assert "conv_weight" in dla.chunked_presets()


@pytest.mark.parametrize("tensor_type, message", [
    ("tensor<4xindex>", "has no storage width"),
    ("tensor<?x4xi8>", "dynamic shape"),
    ('tensor<4xi8, "foo">', "is not a DLA layout encoding"),
    ("i32", "expected a ranked tensor type"),
    ("tensor<1x3x5xi8, #dla.chunked<crouton>>", "has rank 4 but the tensor has rank 3"),
    ("tensor<1x3x5x30xi8, #dla.chunked<croutonx>>", "unknown chunked layout preset 'croutonx'"),
])
def test_layout_errors(tensor_type, message):
    with pytest.raises(dla.DLAError, match=message):
        dla.layout(tensor_type)


def test_buffer_errors():
    layout = dla.layout(CROUTON)
    with pytest.raises(dla.DLAError, match=r"shape \(3, 5, 30\)"):
        layout.pack(np.zeros((3, 5, 30), np.int8))
    with pytest.raises(dla.DLAError, match=r"astype\(np.int8\)"):
        layout.pack(np.zeros((1, 3, 5, 30), np.int64))
    with pytest.raises(dla.DLAError, match="449 logical bytes"):
        layout.pack(bytes(449))
    with pytest.raises(dla.DLAError, match="2047 storage bytes"):
        layout.unpack(bytes(2047))
    with pytest.raises(dla.DLAError, match="out of bounds"):
        layout.byte_offset((0, 3, 0, 0))
    with pytest.raises(dla.DLAError, match="rank"):
        layout.byte_offset((0, 0))
    with pytest.raises(dla.DLAError, match="invalid chunked layout"):
        dla.chunked_layout([(0, 0), (1, 4)], (2, 8))


# --- packing in place and packing every surface (issue 13) ------------------

def test_pack_into_and_unpack_into_numpy_buffers_in_place():
    layout = dla.layout(CROUTON)
    x = np.arange(np.prod(layout.shape), dtype=np.int64).astype(np.int8).reshape(layout.shape)
    out = np.full(layout.storage_bytes, 0x5A, np.uint8)
    assert layout.pack(x, out=out) is out
    assert out.tobytes() == layout.pack(x) == crouton_reference(x)
    raw = bytearray(layout.storage_bytes)
    assert layout.pack(x, out=raw) is raw and bytes(raw) == out.tobytes()
    back = np.empty(layout.shape, np.int8)
    assert layout.unpack(out, out=back) is back
    np.testing.assert_array_equal(back, x)
    with pytest.raises(dla.DLAError, match="bytes, %d needed" % layout.storage_bytes):
        layout.pack(x, out=np.empty(layout.storage_bytes - 1, np.uint8))
    with pytest.raises(dla.DLAError, match="read-only"):
        layout.pack(x, out=bytes(layout.storage_bytes))
    with pytest.raises(dla.DLAError, match="not C-contiguous"):
        layout.pack(x, out=np.empty(2 * layout.storage_bytes, np.uint8)[::2])
    with pytest.raises(dla.DLAError, match="shape"):
        layout.unpack(out, out=np.empty(7, np.int8))


def _weight_ref():
    import weight_ref  # utils/dla-ref (pytest.ini)
    return weight_ref


@pytest.mark.parametrize("encoding, elt, shape", [
    ("#dla.weight<direct, int8, compressed>", "i8", (40, 21, 3, 3)),
    ("#dla.weight<direct, fp16, compressed>", "f16", (17, 33, 1, 2)),
    ("#dla.weight<deconv, int8, compressed, stride = [2, 2]>", "i8", (5, 9, 4, 3)),
    ("#dla.weight<winograd, fp16>", "f16", (20, 7, 3, 3)),
    ("#dla.weight<direct, fp16>", "f16", (19, 40, 3, 3)),
])
def test_pack_surfaces_matches_the_numpy_reference(encoding, elt, shape):
    ref = _weight_ref()
    rng = np.random.default_rng(13)
    w = ref.random_sparse(shape, elt, rng)
    tensor = "tensor<%sx%s, %s>" % ("x".join(map(str, shape)), elt, encoding)
    surfaces = dla.pack_surfaces(tensor, w)
    expected = ref.pack(w, encoding, elt)
    if "compressed" in encoding:
        assert sorted(surfaces) == sorted(expected) == ["data", "wgs", "wmb"]
        for name in expected:
            assert surfaces[name].tobytes() == expected[name], name
    else:
        assert list(surfaces) == ["storage"]
        assert surfaces["storage"].tobytes() == expected["weights"]
def test_storage_description_feature_strides():
    """NVDLA feature data, fp16, 20 channels x 5 x 6 with line stride 224 B and
    surface stride 1344 B (the document's rule: strides in bytes / 2 per
    element, 16 fp16 channels per 32-byte atom)."""
    with dla.Context() as ctx:
        layout = ctx.layout("tensor<1x20x5x6xf16, #dla.feature<fp16, line_stride = 224, "
                            "surface_stride = 1344>>")
        d = layout.storage()
    assert d["buffers"] == [{"name": "storage", "bytes": 2688, "alignment": 32}]
    (view,) = d["views"]
    assert view["element_bytes"] == 2 and view["offset"] == 0
    assert [(x["extent"], x["stride"], x["logical_dim"], x["weight"]) for x in view["dims"]] == [
        (1, 1344, 0, 1), (2, 672, 1, 16), (5, 112, 2, 1), (6, 16, 3, 1), (16, 1, 1, 1)]


def test_storage_description_semi_planar_planes():
    with dla.Context() as ctx:
        layout = ctx.layout("tensor<1x3x2x5xi8, #dla.pixel<T_Y8___U8V8_N444>>")
        d = layout.storage()
    assert [v["name"] for v in d["views"]] == ["Y", "U", "V"]
    # UV plane after two 32-byte Y lines; U8V8 names the little-endian word
    # from its most significant byte: V at the lower address.
    assert [v["offset"] for v in d["views"]] == [0, 65, 64]
    assert d["views"][2]["logical_base"] == (0, 2, 0, 0)
    assert d["views"][1]["dims"][1]["stride"] == 2


def test_type_storage_of_compressed_weights():
    """Compressed weights have no bound layout; their type still describes
    the storage: WGS, WMB and data surfaces (sizes depend on the values),
    each 256-byte aligned (the format document's start-address column), no
    strided views. Layout types describe the same as their bound layout."""
    with dla.Context() as ctx:
        t = ctx.parse_type("tensor<16x16x3x3xf16, #dla.weight<direct, fp16, compressed>>")
        assert t.shape == (16, 16, 3, 3)
        assert t.storage() == {"views": [], "buffers": [
            {"name": n, "bytes": -1, "alignment": 256} for n in ("wgs", "wmb", "data")]}
        with pytest.raises(dla.DLAError, match="data-dependent storage"):
            t.layout()
        f = ctx.parse_type("tensor<1x20x5x6xf16, #dla.feature<fp16>>")
        assert f.storage() == f.layout().storage()
        with pytest.raises(dla.DLAError, match="dynamic shape"):
            ctx.parse_type("tensor<?x4xf16>").storage()
