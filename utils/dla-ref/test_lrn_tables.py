"""lrn_tables.py's derived tables: within the register ranges, accurate
against the real-valued LRN, and the figure --dla-check-precision pins in
test/Dialect/DLA/lrn-check-precision.mlir, measured here with numpy."""

import math

import numpy as np

import int_cdp
import lrn_tables


def _attainable(count, top_value):
    """Every sum of `count` squares of 0..top_value."""
    top = count * top_value * top_value
    reach = np.zeros(top + 1, bool)
    reach[0] = True
    for _ in range(count):
        new = np.zeros_like(reach)
        for v in range(top_value + 1):
            q = v * v
            new[q:] |= reach[:top + 1 - q]
        reach = new
    return np.nonzero(reach)[0]


def _int8_error(alpha, beta, k, size):
    lut, cin, cout = lrn_tables.derive_lrn_tables(alpha, beta, k, size, "int8")
    assert cin == (0, 1, 0)
    sums = _attainable(size - 1, 128)
    s_all = np.arange(128 * 128 + int(sums.max()) + 1)
    r = int_cdp.cdp_lut(s_all, input_data="int8", **lut).astype(np.int64)
    f = np.array([math.pow(k + alpha / size * s, -beta) for s in s_all])
    worst = (0.0, 0, 0)
    for x in range(-128, 128):
        s = x * x + sums
        out = int_cdp.cdp_ocvt(r[s] * x, input_data="int8", datout_offset=cout[0],
                               datout_scale=cout[1], datout_shifter=cout[2])
        err = np.abs(out.astype(np.float64) - np.clip(x * f[s], -128, 127))
        i = int(err.argmax())
        if err[i] > worst[0]:
            worst = (float(err[i]), x, int(s[i]))
    return worst


def test_int8_error_is_the_pinned_one():
    err, x, s = _int8_error(float(np.float32(1e-4)), 0.75, 1.0, 5)
    assert (round(err, 3), x, s) == (0.507, -128, 21882)


def test_int8_tables_stay_near_half_an_lsb():
    for alpha, beta, k, size in ((1.0, 0.75, 1.0, 3), (0.5, 0.5, 2.0, 9)):
        assert _int8_error(alpha, beta, k, size)[0] < 0.7


def test_registers_in_range():
    for data, sel_half in (("int8", 32), ("int16", 64)):
        lut, _, cout = lrn_tables.derive_lrn_tables(2e-3, 0.75, 1.0, 7, data)
        assert lut["lut_lo_table"].min() >= -32768 and lut["lut_lo_table"].max() <= 32767
        assert lut["lut_le_table"].min() >= -32768 and lut["lut_le_table"].max() <= 32767
        assert -sel_half <= lut["lut_lo_index_select"] < sel_half
        assert 0 <= cout[2] <= 63 and -32768 <= cout[1] <= 32767
        # lo[0] answers S = 0 (both tables underflow, LO has priority).
        assert lut["lut_lo_table"][0] == math.floor(math.ldexp(1.0, cout[2]) + 0.5)
