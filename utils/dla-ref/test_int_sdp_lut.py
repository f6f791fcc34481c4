"""Hand-worked values for int_sdp_lut.py (the SDP Y stage's LUT)."""

import numpy as np
import pytest

from int_sdp_lut import sdp_lut

MAX32 = 2**31 - 1


def table(n, **entries):
    t = np.zeros(n, np.int64)
    for k, v in entries.items():
        t[int(k[1:])] = v
    return t


def lut(x, **kw):
    """Defaults: LE linear from 1000 (so x < 1000 underflows it), LO linear
    from 0 with one entry per unit, all slopes 0."""
    regs = dict(lut_le_table=table(65), lut_lo_table=table(257), lut_le_function="linear",
                lut_le_index_offset=0, lut_le_index_select=0, lut_lo_index_select=0,
                lut_le_start=1000, lut_le_end=1064, lut_lo_start=0, lut_lo_end=256,
                lut_le_slope_uflow_scale=0, lut_le_slope_uflow_shift=0,
                lut_le_slope_oflow_scale=0, lut_le_slope_oflow_shift=0,
                lut_lo_slope_uflow_scale=0, lut_lo_slope_uflow_shift=0,
                lut_lo_slope_oflow_scale=0, lut_lo_slope_oflow_shift=0,
                lut_uflow_priority=0, lut_oflow_priority=0, lut_hybrid_priority=0)
    regs.update(kw)
    return sdp_lut(np.array(x), **regs).tolist()


def test_interpolation_with_35_bit_fraction():
    # LO select 2: x = 10 -> entry 2, fraction 2/4 = 2^34 / 2^35.
    # (100 * 2^34 + 201 * 2^34) / 2^35 = 150.5 -> 151; negated -> -151.
    assert lut([10], lut_lo_index_select=2, lut_lo_table=table(257, e2=100, e3=201)) == [151]
    assert lut([10], lut_lo_index_select=2, lut_lo_table=table(257, e2=-100, e3=-201)) == [-151]
    # x = 9: fraction 1/4: 100 * 3/4 + 200 * 1/4 = 125
    assert lut([9], lut_lo_index_select=2, lut_lo_table=table(257, e2=100, e3=200)) == [125]


def test_underflow_slope_and_priority():
    lo = table(257, e0=7)
    le = table(65, e0=5)
    kw = dict(lut_lo_table=lo, lut_le_table=le, lut_lo_slope_uflow_scale=3,
              lut_lo_slope_uflow_shift=1, lut_le_slope_uflow_scale=1)
    # x == start is an underflow: lo[0] + 0
    assert lut([0], lut_uflow_priority=1, **kw) == [7]
    # LO: 7 + (-10 - 0) * 3 / 2 = 7 - 15 = -8; LE: 5 + (-10 - 1000) * 1 = -1005
    assert lut([-10], lut_uflow_priority=1, **kw) == [-8]
    assert lut([-10], lut_uflow_priority=0, **kw) == [-1005]


def test_overflow_slope_shift_and_saturation():
    # LO index 300 >= 256: overflow; LE (start 1000) underflows: the mixed
    # case takes the hybrid priority (1 = LO). 1000 + (300 - 256) / 4 = 1011.
    kw = dict(lut_lo_table=table(257, e256=1000), lut_hybrid_priority=1,
              lut_lo_slope_oflow_scale=1)
    assert lut([300], lut_lo_slope_oflow_shift=2, **kw) == [1011]
    # shift field 31 reads -1: 1000 + 44 * 2 = 1088
    assert lut([300], lut_lo_slope_oflow_shift=31, **kw) == [1088]
    # 44 * 32767 << 16 passes 2^31: saturates, and so does the sum
    assert lut([300], **dict(kw, lut_lo_slope_oflow_scale=32767),
               lut_lo_slope_oflow_shift=16) == [MAX32]


def test_exponent_mode():
    le = table(65, e0=50, e3=10, e4=30)
    kw = dict(lut_le_function="exponent", lut_le_start=0, lut_le_table=le,
              lut_lo_start=10**6)
    # LO underflows, so LE's hit wins. x = 12: log2 3, fraction (12 - 8) / 8:
    # (10 + 30) / 2 = 20; x = 8: 10
    assert lut([12, 8], **kw) == [20, 10]
    # offset 2: x = 3 has log2 1 < 2: underflow, biased by 2^2:
    # 50 + (3 - 0 - 4) * 4 / 2 = 48 (both under, priority 0: LE)
    assert lut([3], lut_le_index_offset=2, lut_le_slope_uflow_scale=4,
               lut_le_slope_uflow_shift=1, **kw) == [48]


def test_negative_index_select_shifts_left():
    # select field 255 reads -1: x = 100 -> entry 200, fraction shifted out
    assert lut([100], lut_lo_index_select=255, lut_lo_table=table(257, e200=42)) == [42]


def test_both_hit_takes_the_hybrid_priority():
    kw = dict(lut_le_start=0, lut_le_table=table(65, e2=20), lut_lo_table=table(257, e2=200))
    assert lut([2], lut_hybrid_priority=0, **kw) == [20]
    assert lut([2], lut_hybrid_priority=1, **kw) == [200]


def test_registers_are_checked():
    with pytest.raises(ValueError):
        lut([0], lut_le_table=table(64))
    with pytest.raises(ValueError):
        lut([0], lut_lo_slope_oflow_shift=32)
