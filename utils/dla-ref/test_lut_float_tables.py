"""lut_float_tables.py: the fp16 sigmoid / tanh LUT programs, run through
lut_float_ref (the v1 C model's float-mode LUT, checked in
test_lut_float_ref.py) on every finite fp16 input, against numpy's
float64 sigmoid / tanh. The bounds are the errors docs/NvdlaFp16.md states."""

import numpy as np
import pytest

import lut_float_tables as T


@pytest.mark.parametrize("name,max_abs", [("sigmoid", 7.1e-4), ("tanh", 6.7e-4)])
def test_error_over_all_finite_fp16(name, max_abs):
    err, _ulps, _at = T.errors(name)
    assert err <= max_abs


def test_tanh_within_5_ulps_and_fixed_points():
    assert T.errors("tanh")[1] <= 5.0
    zero = np.array([0.0], np.float16).view(np.uint16)
    assert T.lut_fp16("sigmoid", zero).view(np.float16)[0] == 0.5
    assert T.lut_fp16("tanh", zero).view(np.float16)[0] == 0.0
    # Saturated far out: LE's edge entries, slope 0.
    big = np.array([-60000.0, 60000.0], np.float16).view(np.uint16)
    assert T.lut_fp16("sigmoid", big).view(np.float16).tolist() == [0.0, 1.0]
    assert T.lut_fp16("tanh", big).view(np.float16).tolist() == [-1.0, 1.0]
