"""NVDLA scale / shift helpers through the Python package; the values are
worked by hand (see unittests/Format/NvdlaScaleTest.cpp for the rule)."""

import math

import pytest

import dla


def test_scales_share_the_largest_factors_shift():
    # 0.5 = 0.5 * 2^0: shift 15; 0.25 -> 8192; -0.1 * 32768 = -3276.8
    scales, shift, bound = dla.nvdla_scales([0.5, 0.25, -0.1])
    assert (scales.tolist(), shift, bound) == ([16384, 8192, -3276], 15, 2.0**-15)
    scales, shift, bound = dla.nvdla_scales([0.5, 0.25, -0.1], "nearest")
    assert (scales.tolist(), shift, bound) == ([16384, 8192, -3277], 15, 2.0**-16)
    assert str(scales.dtype) == "int16"


def test_one_factor_and_its_bound():
    # 0.3 = 0.6 * 2^-1: shift 16, 0.3 * 65536 = 19660.8 -> 19660 / 19661
    assert dla.nvdla_scale(0.3) == (19660, 16, 2.0**-16)
    scale, shift, bound = dla.nvdla_scale(0.3, "nearest")
    assert (scale, shift) == (19661, 16)
    assert abs(scale * 2.0**-shift - 0.3) <= bound


def test_scale_errors():
    with pytest.raises(dla.DLAError, match="beyond the int16 range"):
        dla.nvdla_scale(32768)
    with pytest.raises(dla.DLAError, match="not finite"):
        dla.nvdla_scale(math.nan)
    with pytest.raises(dla.DLAError, match="needs a shift of 64"):
        dla.nvdla_scale(2.0**-50)
    with pytest.raises(ValueError):
        dla.nvdla_scale(1.0, "up")


def test_bias_to_int16():
    # 65535, -3: floor at shift 1 -> 32767, -2; nearest: 32767.5 -> 32768 does
    # not fit, so shift 2 -> 16384, -1
    values, shift, bound = dla.nvdla_bias_to_int16([65535, -3])
    assert (values.tolist(), shift, bound) == ([32767, -2], 1, 1)
    values, shift, bound = dla.nvdla_bias_to_int16([65535, -3], "nearest")
    assert (values.tolist(), shift, bound) == ([16384, -1], 2, 2)
    with pytest.raises(OverflowError):
        dla.nvdla_bias_to_int16([2**31])
