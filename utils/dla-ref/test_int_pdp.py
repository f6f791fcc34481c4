"""Hand-worked values for int_pdp.py (PDP pooling)."""

import numpy as np

from int_pdp import pdp_pad_register, pdp_pad_values, pdp_pool, pdp_recip_kernel


def pool(x, method, kernel, pad=(0, 0, 0, 0), stride=(1, 1), input_data="int8", **kw):
    x = np.array(x).reshape(1, 1, len(x), len(x[0]))
    return pdp_pool(x, pooling_method=method, kernel=kernel, stride=stride, pad=pad,
                    input_data=input_data, **kw)[0, 0].tolist()


def recips(kh, kw):
    return dict(recip_kernel_height=pdp_recip_kernel(kh),
                recip_kernel_width=pdp_recip_kernel(kw))


def test_recip_table():
    # floor(65536 / k): 65536, 32768, 21845 (21845.3), 9362 (9362.3), 8192
    assert [pdp_recip_kernel(k) for k in (1, 2, 3, 7, 8)] == [65536, 32768, 21845, 9362, 8192]


def test_average_two_roundings():
    # S = 90: 90 * 21845 / 65536 = 29.9998 -> 30; 30 * 21845 / 65536 = 9.9997 -> 10
    assert pool([[10] * 3] * 3, "average", (3, 3), **recips(3, 3)) == [[10]]
    # S = 5 over 2x2: 5 / 2 = 2.5 -> 3, 3 / 2 = 1.5 -> 2 (one rounding would give 1)
    assert pool([[2, 1], [1, 1]], "average", (2, 2), **recips(2, 2)) == [[2]]
    assert pool([[-2, -1], [-1, -1]], "average", (2, 2), **recips(2, 2)) == [[-2]]


def test_average_final_cast_wraps():
    # 1x2 window with both reciprocals 65536: 127 + 127 = 254 -> wraps to -2
    assert pool([[127, 127]], "average", (1, 2), recip_kernel_width=65536,
                recip_kernel_height=65536) == [[-2]]


def test_average_padding_value():
    # 2x2 input of 9, 3x3 kernel, pad 1: every window has 4 valid, 1 padded
    # column and 1 padded row. Pad 0: S = 36 -> 36*21845/65536 = 11.9998 -> 12,
    # 12*21845/65536 = 3.9999 -> 4. Pad -1: S = 36 + 2 rows * (-1) + 3 * (-1) = 31
    # -> 10.33 -> 10 -> 3.33 -> 3.
    x = [[9, 9], [9, 9]]
    pad = (1, 1, 1, 1)
    assert pool(x, "average", (3, 3), pad, **recips(3, 3), **pdp_pad_values(0)) == [[4, 4], [4, 4]]
    assert pool(x, "average", (3, 3), pad, **recips(3, 3), **pdp_pad_values(-1)) == [[3, 3], [3, 3]]


def test_average_line_buffer_wraps_at_16_bits_for_int8():
    # PAD_VALUE_1X = 0x7F00 (bit 7 clear: read whole) = 32512. 2x2 kernel,
    # pad left 1, a 2x1 input [10; 20]: S = 30 + 2 * 32512 = 65054 -> int16
    # -482; -482 / 2 = -241; -241 / 2 = -120.5 -> -121.
    assert pool([[10], [20]], "average", (2, 2), (0, 0, 1, 0), **recips(2, 2),
                pad_value_1x=0x7F00) == [[-121]]


def test_pad_register_reading():
    # 8-bit sign bit for 1X: 128 = 0x80 reads -128; 0x100 (bit 7 clear) reads 256;
    # -256 (19-bit 0x7FF00) for 2X: bit 8 set -> -256; int16 1X 0x8000 -> -32768.
    assert pdp_pad_register(-128, 1, "int8") == -128
    assert pdp_pad_register(128, 1, "int8") == -128
    assert pdp_pad_register(0x100, 1, "int8") == 256
    assert pdp_pad_register(-256, 2, "int8") == -256
    assert pdp_pad_register(0x8000, 1, "int16") == -32768


def test_max_min_ignore_padding():
    # a single -5 with a padded column: padding does not take part (0 would win max)
    assert pool([[-5]], "max", (1, 2), (0, 0, 1, 0)) == [[-5]]
    assert pool([[5]], "min", (1, 2), (0, 0, 0, 1)) == [[5]]
    assert pool([[1, 7], [-3, 2]], "max", (2, 2)) == [[7]]
    assert pool([[1, 7], [-3, 2]], "min", (2, 2)) == [[-3]]
    # int16 extremes
    assert pool([[-32768, 32767]], "max", (1, 2), input_data="int16") == [[32767]]


def test_stride():
    # 1x4 row, 1x2 kernel, stride 2: windows [1, 3] and [5, 7]: averages
    # 4 / 2 = 2 and 12 / 2 = 6 (reciprocal 1/1 in height)
    assert pool([[1, 3, 5, 7]], "average", (1, 2), stride=(1, 2), **recips(1, 2)) == [[2, 6]]
