"""Hand-worked values for int_cdp.py (CDP / LRN)."""

import numpy as np
import pytest

from int_cdp import cdp_icvt, cdp_lrn, cdp_lut, cdp_ocvt, cdp_square_sum


def icvt(x, off, scale, shift, prec="int8"):
    return cdp_icvt(np.array(x), input_data=prec, datin_offset=off, datin_scale=scale,
                    datin_shifter=shift).tolist()


def ocvt(v, off, scale, shift, prec="int8"):
    return cdp_ocvt(np.array(v), input_data=prec, datout_offset=off, datout_scale=scale,
                    datout_shifter=shift).tolist()


def test_input_converter():
    # int8 sees the offset's low 8 bits: 511 = 0x1FF -> -1; 10 - (-1) = 11
    assert icvt([10], 511, 1, 0) == [11]
    # (127 + 128) * 2 = 510 -> 9 bits 255; (-128 - 127) * 2 = -510 -> -256
    assert icvt([127], -128, 2, 0) == [255]
    assert icvt([-128], 127, 2, 0) == [-256]
    # 3 / 2 = 1.5 -> 2, -1.5 -> -2; shifter 31: 255 * 32767 / 2^31 -> 0
    assert icvt([3, -3], 0, 1, 1) == [2, -2]
    assert icvt([127], -128, 32767, 31) == [0]
    # int16: (-32768 - 32767) * 2 = -131070 -> 17 bits -65536
    assert icvt([-32768], 32767, 2, 0, "int16") == [-65536]
    with pytest.raises(ValueError):
        icvt([0], 0, 1, 32)  # DATIN_SHIFTER is 5 bits


def test_output_converter():
    # int8 lanes see the offset's low 25 bits: 2^25 + 8 -> 8; (1000 - 8) / 8 = 124
    assert ocvt([1000], 2**25 + 8, 1, 3) == [124]
    # -12 / 8 = -1.5 -> -2; 1000 with no shift saturates to 127
    assert ocvt([-12], 0, 1, 3) == [-2]
    assert ocvt([1000], 0, 1, 0) == [127]
    # int16: 100000 + 2^31 saturates to 32767
    assert ocvt([100000], -2**31, 1, 0, "int16") == [32767]
    # shifter 63 (the 6-bit field's max): (2^31 - 1 + 2^31) * 32767 / 2^63 -> 0
    assert ocvt([2**31 - 1], -2**31, 32767, 63, "int16") == [0]


def test_square_sum_windows():
    xc = np.array([1, 2, 3]).reshape(1, 3, 1, 1)
    # 3 channels: [0 + 1 + 4, 1 + 4 + 9, 4 + 9 + 0]; 5 channels: all 14
    assert cdp_square_sum(xc, normalz_len=3, sqsum_bypass=0).ravel().tolist() == [5, 14, 13]
    assert cdp_square_sum(xc, normalz_len=5, sqsum_bypass=0).ravel().tolist() == [14, 14, 14]
    assert cdp_square_sum(xc, normalz_len=5, sqsum_bypass=1).ravel().tolist() == [1, 2, 3]


def lut_regs(**kw):
    """LE far away (always underflows with value le[0]), LO linear from 0."""
    regs = dict(input_data="int8", lut_le_table=np.zeros(65, np.int64),
                lut_lo_table=np.zeros(257, np.int64), lut_le_function="linear",
                lut_le_index_offset=0, lut_le_index_select=0, lut_lo_index_select=0,
                lut_le_start=10**6, lut_le_end=10**6 + 64, lut_lo_start=0, lut_lo_end=256,
                lut_le_slope_uflow_scale=0, lut_le_slope_uflow_shift=0,
                lut_le_slope_oflow_scale=0, lut_le_slope_oflow_shift=0,
                lut_lo_slope_uflow_scale=0, lut_lo_slope_uflow_shift=0,
                lut_lo_slope_oflow_scale=0, lut_lo_slope_oflow_shift=0,
                lut_uflow_priority=0, lut_oflow_priority=0, lut_hybrid_priority=0)
    regs.update(kw)
    return regs


def lut(s, **kw):
    return cdp_lut(np.array(s), **lut_regs(**kw)).tolist()


def table(n, **entries):
    t = np.zeros(n, np.int64)
    for k, v in entries.items():
        t[int(k[1:])] = v
    return t


def test_lo_interpolation_and_ties():
    lo = table(257, e2=100, e3=200)
    # select 2 (entries every 4): s = 10 -> entry 2, fraction 2/4 = 32768/65536:
    # 100 + 100 * 0.5 = 150; s = 9 -> 1/4: 100 + 25 = 125
    assert lut([10, 9], lut_lo_table=lo, lut_lo_index_select=2) == [150, 125]
    # ties: 100 + 1 * 0.5 -> 100 + 1 = 101; 100 - 1 * 0.5 -> 100 - 1 = 99
    assert lut([10], lut_lo_table=table(257, e2=100, e3=101), lut_lo_index_select=2) == [101]
    assert lut([10], lut_lo_table=table(257, e2=100, e3=99), lut_lo_index_select=2) == [99]


def test_underflow_rule_and_priority():
    # LO: s - start = 1 - 5 = -4 <= 0: lo[0] + (-4 * 3) / 2 = 7 - 6 = 1.
    # LE also underflows (start 10^6): le[0] = -7 with slope 0.
    kw = dict(lut_lo_start=5, lut_lo_table=table(257, e0=7), lut_le_table=table(65, e0=-7),
              lut_lo_slope_uflow_scale=3, lut_lo_slope_uflow_shift=1)
    assert lut([1], lut_uflow_priority=1, **kw) == [1]
    assert lut([1], lut_uflow_priority=0, **kw) == [-7]
    # s == start is an underflow too (the offset is not > 0): value lo[0]
    assert lut([5], lut_uflow_priority=1, **kw) == [7]


def test_overflow_rule_saturation_and_negative_shift():
    # LO select 0: s = 300 >= 256: lo[256] + (300 - 256) * 1 / 4 = 1000 + 11.
    # LE underflows while LO overflows: neither both-under nor both-over nor a
    # single hit, so the hybrid priority decides (1 = LO; 0 gives le[0] = 0).
    kw = dict(lut_lo_slope_oflow_scale=1, lut_lo_slope_oflow_shift=2, lut_hybrid_priority=1)
    assert lut([300], lut_lo_table=table(257, e256=1000), **kw) == [1011]
    assert lut([300], lut_lo_table=table(257, e256=1000), **dict(kw, lut_hybrid_priority=0)) == [0]
    # 32767 + 44 saturates at 16 bits
    assert lut([300], lut_lo_table=table(257, e256=32767), lut_lo_slope_oflow_scale=1,
               lut_hybrid_priority=1) == [32767]
    # the 5-bit shift field 31 reads -1: multiply by 2: 1000 + 88
    assert lut([300], lut_lo_table=table(257, e256=1000), lut_lo_slope_oflow_scale=1,
               lut_lo_slope_oflow_shift=31, lut_hybrid_priority=1) == [1088]


def test_le_exponent_mode():
    le = table(65, e0=50, e1=1, e2=2, e3=10, e4=30, e64=5)
    base = dict(lut_le_function="exponent", lut_le_start=0, lut_le_table=le,
                lut_lo_start=10**6, lut_uflow_priority=0)
    # LO always underflows here, so an LE hit wins on its own.
    # s = 12: log2 = 3, entry 3, fraction (12 - 8) / 8 = 0.5: 10 + 20 * 0.5 = 20; s = 8: 10
    assert lut([12, 8], **base) == [20, 10]
    # index offset 2: s = 12 -> entry 1, same fraction: 1 + 0.5 -> 2 (tie away from zero)
    assert lut([12], lut_le_index_offset=2, **base) == [2]
    # s = 3 with offset 2: log 1 - 2 < 0: underflow, le[0] + (3 - 0 - 2^2) * 4 / 2 = 50 - 2
    assert lut([3], lut_le_index_offset=2, lut_le_slope_uflow_scale=4,
               lut_le_slope_uflow_shift=1, **base) == [48]
    # offset -62: s = 4 -> log 2 + 62 = 64: overflow, le[64] + (4 - 0) * 1 = 9
    assert lut([4], lut_le_index_offset=-62, lut_le_end=0, lut_le_slope_oflow_scale=1,
               **dict(base, lut_oflow_priority=0)) == [9]


def test_exponent_underflow_product_wraps_at_64_bits():
    # NV_NVDLA_cdp::lookup_lut_int8 forms (s - start - 2^offset) * slope in
    # int64_t, which wraps. Offset 53, slope 2048: 2048 * 2^53 = 2^64 wraps
    # to 0, leaving s * 2048 = 6144 for s = 3: 50 + RHA(6144, 7) = 50 + 48.
    le = table(65, e0=50)
    base = dict(lut_le_function="exponent", lut_le_start=0, lut_le_table=le,
                lut_lo_start=10**6, lut_uflow_priority=0, lut_le_index_offset=53,
                lut_le_slope_uflow_shift=7)
    assert lut([3], lut_le_slope_uflow_scale=2048, **base) == [98]
    # slope -23978 (run_trace.py --kind chain --seed 1, case 0, layer 4):
    # 23978 * 2^53 = (11 * 2048 + 1450) * 2^53 wraps to (1450 - 2048) * 2^53,
    # so (3 - 2^53) * -23978 wraps to -598 * 2^53 - 71934 < 0: -32768 (a
    # product saturated at +2^62 would give +32767).
    assert lut([3], lut_le_slope_uflow_scale=-23978, **base) == [-32768]


def test_hybrid_choice_when_both_hit():
    # LE linear from 0 (entries 1 apart) and LO both hit s = 2: LE 20, LO 200
    kw = dict(lut_le_start=0, lut_le_table=table(65, e2=20), lut_lo_table=table(257, e2=200))
    assert lut([2], lut_hybrid_priority=0, **kw) == [20]
    assert lut([2], lut_hybrid_priority=1, **kw) == [200]


def test_tables_are_checked():
    with pytest.raises(ValueError):
        lut([0], lut_lo_table=np.zeros(256, np.int64))
    with pytest.raises(ValueError):
        lut([0], lut_lo_table=table(257, e0=32768))


def test_lrn_end_to_end():
    # x = [1, 2, 3] converted unchanged, 3-channel sums [5, 14, 13]; LO entry i
    # = 10 i: [50, 140, 130]; times the input: [50, 280, 390]; / 4 rounded:
    # 12.5 -> 13, 70, 97.5 -> 98
    lo = np.arange(257) * 10
    x = np.array([1, 2, 3], np.int8).reshape(1, 3, 1, 1)
    got = cdp_lrn(x, normalz_len=3, sqsum_bypass=0, mul_bypass=0, datin_offset=0,
                  datin_scale=1, datin_shifter=0, datout_offset=0, datout_scale=1,
                  datout_shifter=2, **lut_regs(lut_lo_table=lo))
    assert got.ravel().tolist() == [13, 70, 98]
