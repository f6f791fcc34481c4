"""No use-after-free, no silent wrap, no truncated string, no raw pointers:
every misuse the ctypes layer would pass through raises instead."""

import gc

import numpy as np
import pytest

import dla

CROUTON = "tensor<1x3x5x30xi8, #dla.chunked<crouton>>"
INT64_MAX = 2**63 - 1


def test_objects_outlive_their_with_block_safely():
    with dla.Context() as ctx:
        t = ctx.parse_type(CROUTON)
        a = t.encoding
        plain = ctx.parse_attribute("#dla.feature<int8>")
        assert str(a) == "#dla.chunked<crouton>"
    # The context is closed: the handles point into freed storage.
    for use in (lambda: str(t), lambda: t == t, lambda: t.encoding, lambda: t.layout(),
                lambda: str(a), lambda: a.pairs, lambda: a.rank, lambda: a.preset,
                lambda: str(plain), lambda: plain.is_layout_encoding):
        with pytest.raises(dla.DLAError, match="used after its context was closed"):
            use()


def test_objects_keep_an_unclosed_context_alive():
    # Dropping every reference to the Context object must not free what the
    # type points into.
    t = dla.Context().parse_type(CROUTON)
    gc.collect()
    assert str(t.encoding) == "#dla.chunked<crouton>"
    assert t.layout().storage_bytes == 2048


def test_tensor_without_element_type_is_a_diagnostic():
    # Once a segfault in #dla.chunked's verifyEncoding.
    with pytest.raises(dla.DLAError, match="has no element type"):
        dla.layout("tensor<, #dla.chunked<[]>>")
    with pytest.raises(dla.DLAError, match="has no element type"):
        dla.layout("tensor<1x2x3x4x, #dla.pixel<T_A8B8G8R8>>")


@pytest.mark.parametrize("index", [(2**64 + 1, 0, 0, 0), (0, 0, 0, -2**63 - 1),
                                   (0, 0, 2**64, 0)])
def test_indices_beyond_int64_raise(index):
    layout = dla.layout(CROUTON)
    with pytest.raises(OverflowError, match="index .* does not fit in a 64-bit signed integer"):
        layout.byte_offset(index)


def test_in_range_index_still_answers():
    layout = dla.layout(CROUTON)
    assert layout.byte_offset((0, 0, 1, 0)) == 32
    assert layout.byte_offset((np.int64(0), 0, np.uint8(1), 0)) == 32


def test_locate_beyond_int64_raises():
    layout = dla.layout(CROUTON)
    with pytest.raises(OverflowError, match="byte offset"):
        layout.locate(2**64 + 3)
    with pytest.raises(TypeError, match="byte offset must be an integer"):
        layout.locate(3.0)
    # 2**64 + 3 once wrapped to 3: element (0, 0, 0, 3).
    assert layout.locate(3) == ((0, 0, 0, 3), 0)


def test_shapes_and_pairs_beyond_int64_raise():
    with pytest.raises(OverflowError, match="shape dimension"):
        dla.chunked_layout("flat", (1, 1, 1, 2**64 + 2))
    with pytest.raises(OverflowError, match="pair size"):
        dla.chunked_layout([(0, 0), (0, 2**64 + 4)], (8,))
    with pytest.raises(OverflowError, match="element_bytes"):
        dla.chunked_layout("flat", (1, 1, 1, 2), element_bytes=2**64 + 1)
    with dla.Context() as ctx:
        with pytest.raises(OverflowError, match="pair dimension"):
            ctx.chunked(pairs=[(2**64, 0)])


def test_int64_max_pair_dimension_is_a_diagnostic():
    # dimension + 1 once wrapped in the C API's implied rank.
    with pytest.raises(dla.DLAError, match="leaves no room for the rank"):
        dla.chunked_layout([(0, 0), (1, 0), (INT64_MAX, 2)], (1, 1))
    with dla.Context() as ctx:
        with pytest.raises(dla.DLAError, match="leaves no room for the rank"):
            ctx.chunked(pairs=[(0, 0), (1, 0), (INT64_MAX, 2)])


@pytest.mark.parametrize("call", [
    lambda: dla.chunked_layout("flat\x00junk", (1, 1, 1, 4)),
    lambda: dla.Context().chunked("flat\x00junk"),
    lambda: dla.layout("tensor<4xi8, #dla.chunked<flat>>\x00junk"),
    lambda: dla.Context().parse_module("module {}\x00 garbage"),
    lambda: dla.Context().parse_module("module {}").run_pipeline("builtin.module(\x00)"),
])
def test_strings_with_nul_are_rejected(call):
    with pytest.raises(ValueError, match="contains a NUL character"):
        call()


def test_non_numeric_arrays_are_rejected():
    layout = dla.chunked_layout("flat", (1, 1, 1, 2), element_bytes=8)
    # An object array's 8-byte elements are pointers, not values.
    objects = np.array([[[[1, "x"]]]], dtype=object)
    with pytest.raises(dla.DLAError, match="dtype object is not numeric"):
        layout.pack(objects)
    with pytest.raises(dla.DLAError, match="is not numeric"):
        layout.unpack(bytes(16), dtype=object)
    text = dla.chunked_layout("flat", (1, 1, 1, 2), element_bytes=4)
    with pytest.raises(dla.DLAError, match="is not numeric"):
        text.pack(np.array([[[["ab", "cd"]]]], dtype="U1"))
    # Numeric arrays of the same width still pack, bit-exact.
    values = np.array([[[[0x0102030405060708, -1]]]], dtype=np.int64)
    assert layout.pack(values) == values.tobytes()
