"""Hand-worked values for int_arith.py (the C model's integer primitives)."""

import numpy as np
import pytest

import int_arith as ia


def test_rha_ties_go_away_from_zero():
    # 5/2 = 2.5 -> 3, -5/2 -> -3, 3/2 = 1.5 -> 2, 1/2 = 0.5 -> 1,
    # 6/4 = 1.5 -> 2, 5/4 = 1.25 -> 1, 7/4 = 1.75 -> 2.
    assert ia.rha([5, -5, 3, -3, 1, -1], 1).tolist() == [3, -3, 2, -2, 1, -1]
    assert ia.rha([6, -6, 5, -5, 7, -7], 2).tolist() == [2, -2, 1, -1, 2, -2]


def test_rha_shift_zero_and_wide_shifts():
    assert ia.rha([-7, 0, 7], 0).tolist() == [-7, 0, 7]
    # 2^62 / 2^63 = 0.5 -> 1; (2^62 - 1) / 2^63 < 0.5 -> 0; any value / 2^64 -> 0.
    assert ia.rha([2**62, -2**62, 2**62 - 1], 63).tolist() == [1, -1, 0]
    assert ia.rha([2**62, -2**62], 64).tolist() == [0, 0]
    assert ia.rha([2**62], 1023).tolist() == [0]


def test_sat_edges():
    assert ia.sat([127, 128, -128, -129], 8).tolist() == [127, 127, -128, -128]
    assert ia.sat([2**31, -2**31 - 1], 32).tolist() == [2**31 - 1, -2**31]


def test_wrap_points():
    # 128 = 0x80 -> -128; 255 -> -1; 256 -> 0; -129 = ...7F -> 127.
    assert ia.wrap([128, 255, 256, -129], 8).tolist() == [-128, -1, 0, 127]
    assert ia.wrap([2**31, 2**32 - 1], 32).tolist() == [-2**31, -1]


def test_shl_saturates_at_32_bits():
    # 1 << 31 = 2^31 -> 2^31 - 1; -1 << 31 = -2^31 fits; -1 << 32 -> -2^31;
    # 32767 << 16 = 2147418112 fits; -32768 << 16 = -2^31 fits, << 17 does not.
    got = [int(ia.shl(v, s, 32)) for v, s in
           [(1, 31), (-1, 31), (-1, 32), (32767, 16), (-32768, 16), (-32768, 17)]]
    assert got == [2**31 - 1, -2**31, -2**31, 2147418112, -2**31, -2**31]
    assert [int(ia.shl(v, 63, 32)) for v in (5, -5, 0)] == [2**31 - 1, -2**31, 0]


def test_shr_rounds_then_saturates():
    # 65535.5 rounds to 65536, then saturates to 17 bits: 65535.
    assert int(ia.shr(131071, 1, 17)) == 65535
    assert int(ia.shr(-131073, 1, 17)) == -65536  # -65536.5 -> -65537 -> -65536


def test_fields_are_checked_not_clamped():
    with pytest.raises(ValueError):
        ia.check_unsigned("cvt_shift", 64, 6)
    with pytest.raises(ValueError):
        ia.check_signed("cvt_scale", 32768, 16)
    with pytest.raises(TypeError):
        ia.rha(np.array([1.5]), 1)


def test_int_units_exports_every_unit():
    import int_units
    assert all(callable(getattr(int_units, name)) for name in int_units.__all__)
    assert len(int_units.__all__) == 23
