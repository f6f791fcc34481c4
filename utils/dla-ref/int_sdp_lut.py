"""The SDP Y stage's lookup table (nv_full / nv_large), integer path: LE
(65 entries, exponent or linear index) and LO (257 entries, linear) tables
with interpolation and the under / overflow slopes.

C model: cmod/hls/sdp/sdp_y_idx.cpp NV_NVDLA_SDP_CORE_Y_idx (index,
35-bit fraction, table choice), cmod/hls_wrapper/sdp_hls_wrapper.cpp (the
two entries read, the slope registers of the chosen table, the exponent
underflow bias 2^LUT_LE_INDEX_OFFSET), cmod/hls/sdp/sdp_y_inp.cpp
NV_NVDLA_SDP_CORE_Y_inp (interpolation / slope arithmetic). The
sdp_y_lut.cpp file of the C model is an unused older variant.
"""

import numpy as np

from int_arith import (LE_ENTRIES, LO_ENTRIES, as_i64, check_field, check_luts, check_signed,
                       rha, sat, shl)

FRAC_BITS = 35   # yLutFracSize
INDEX_MAX = 511  # the 9-bit unsigned index saturates


def _signed_field(name, value, bits):
    v = check_field(name, value, -(1 << (bits - 1)), (1 << bits) - 1)
    return v - (1 << bits) if v >= (1 << (bits - 1)) else v


def _linear(x, start, sel, depth, signed_rest):
    """Index (saturated at 511), 35-bit fraction, under, over for a linear
    table. Under is x <= start (equality included)."""
    under = x <= start
    u = np.where(under, 1, x - start)  # in 1 .. 2^32 - 1
    if sel >= 0:
        idx = np.minimum(u >> min(sel, 40), INDEX_MAX)
    else:
        big = u > (INDEX_MAX >> -sel) if -sel < 40 else u > 0
        idx = np.where(big, INDEX_MAX, np.where(big, 0, u) << min(-sel, 40))
    # (1ull << sel) - 1 in ac_int arithmetic: a negative select shifts 1
    # right to 0, and 0 - 1 masks nothing out; >= 64 shifts it out as well.
    mask = (1 << sel) - 1 if 0 <= sel < 64 else -1
    data_f = u & mask
    # LE keeps these bits in a signed 32-bit yLutInType (LO: unsigned): its
    # bit 31 sign-extends into the 35-bit unsigned fraction type.
    if signed_rest:
        data_f = np.where(data_f >= (1 << 31), data_f + (1 << 35) - (1 << 32), data_f)
    if sel > FRAC_BITS:
        frac = data_f >> (sel - FRAC_BITS)
    else:
        frac = (data_f << (FRAC_BITS - sel)) & ((1 << FRAC_BITS) - 1) \
            if FRAC_BITS - sel < 63 else np.zeros_like(data_f)
    over = ~under & (idx >= depth - 1)
    return idx, frac, under, over


def _exponent(x, start, offset, depth):
    under = x <= start
    u = np.where(under, 1, x - start)
    log = np.zeros_like(u)
    for b in range(32):  # floor(log2 u): IntLog2's leading-zero count
        log = np.where(u >> b >= 1, b, log)
    rest = u - (np.int64(1) << log)
    under = under | (log < offset)
    idx = log - offset
    over = ~under & (idx >= depth - 1)
    frac = rest << (FRAC_BITS - log)
    return idx, frac, under, over


def sdp_lut(x, *, lut_le_table, lut_lo_table, lut_le_function, lut_le_index_offset,
            lut_le_index_select, lut_lo_index_select, lut_le_start, lut_le_end, lut_lo_start,
            lut_lo_end, lut_le_slope_uflow_scale, lut_le_slope_uflow_shift,
            lut_le_slope_oflow_scale, lut_le_slope_oflow_shift, lut_lo_slope_uflow_scale,
            lut_lo_slope_uflow_shift, lut_lo_slope_oflow_scale, lut_lo_slope_oflow_shift,
            lut_uflow_priority, lut_oflow_priority, lut_hybrid_priority):
    """The LUT on the Y stage's 32-bit output x; returns int32.

    Index: LE exponent: floor(log2(x - start)) - lut_le_index_offset;
    linear (LE, LO): (x - start) >> index_select (a negative select shifts
    left), saturated to 511. x <= start or (exponent) log2 below the
    offset is an underflow, index >= 64 / 256 an overflow. Choice: both
    under -> lut_uflow_priority (1 = LO), both over -> lut_oflow_priority,
    otherwise (both hit, or one under and one over) lut_hybrid_priority,
    except that a single hit wins.
    Hit: RHA(T[i] * (2^35 - f) + T[i+1] * f, 35), saturated to 32 bits,
    f the 35-bit fraction. Under / overflow of the chosen table:
    SAT32(T[edge] + SAT32(RHA((x - (start or end) - bias) * slope_scale,
    slope_shift))) with the 5-bit shifts read signed (negative: left
    shift) and bias = 2^lut_le_index_offset for an LE underflow in
    exponent mode when the offset is > 0 (the wrapper's uint32 shift)."""
    le, lo = check_luts(lut_le_table, lut_lo_table, lut_le_function)
    le_off = _signed_field("lut_le_index_offset", lut_le_index_offset, 8)
    le_sel = _signed_field("lut_le_index_select", lut_le_index_select, 8)
    lo_sel = _signed_field("lut_lo_index_select", lut_lo_index_select, 8)
    le_start, le_end, lo_start, lo_end = (
        check_signed(n, v, 32) for n, v in
        (("lut_le_start", lut_le_start), ("lut_le_end", lut_le_end),
         ("lut_lo_start", lut_lo_start), ("lut_lo_end", lut_lo_end)))
    slope = {}
    for name, scale, shift in (
            ("le_u", lut_le_slope_uflow_scale, lut_le_slope_uflow_shift),
            ("le_o", lut_le_slope_oflow_scale, lut_le_slope_oflow_shift),
            ("lo_u", lut_lo_slope_uflow_scale, lut_lo_slope_uflow_shift),
            ("lo_o", lut_lo_slope_oflow_scale, lut_lo_slope_oflow_shift)):
        slope[name] = (check_signed("lut_%s_scale" % name, scale, 16),
                       _signed_field("lut_%s_shift" % name, shift, 5))
    x = as_i64(check_signed("x", np.asarray(x), 32))
    if lut_le_function == "exponent":
        le_i, le_f, le_u, le_o = _exponent(x, le_start, le_off, LE_ENTRIES)
    else:
        le_i, le_f, le_u, le_o = _linear(x, le_start, le_sel, LE_ENTRIES, True)
    lo_i, lo_f, lo_u, lo_o = _linear(x, lo_start, lo_sel, LO_ENTRIES, False)
    le_hit, lo_hit = ~(le_u | le_o), ~(lo_u | lo_o)
    use_lo = np.where(le_u & lo_u, bool(lut_uflow_priority),
                      np.where(le_o & lo_o, bool(lut_oflow_priority),
                               np.where(le_hit ^ lo_hit, lo_hit, bool(lut_hybrid_priority))))

    def table_value(table, idx, frac, under, over, start, end, su, so, bias):
        n = len(table) - 1
        i = np.clip(np.where(under, 0, np.where(over, n, idx)), 0, n)
        y0 = table[i]
        y1 = table[np.minimum(i + 1, n)]
        hit = (1 << FRAC_BITS) - frac
        interp = sat(rha(_mul(y0, hit) + _mul(y1, frac), FRAC_BITS), 32)
        scale = np.where(over, so[0], su[0])
        edge = np.where(over, end, start + bias)
        a = x - edge
        b = a * scale  # 34 x 16 bits: below 2^50
        c = np.where(over, _slope_shift(b, so[1]), _slope_shift(b, su[1]))
        flow = sat(y0 + c, 32)
        return np.where(under | over, flow, interp)

    le_bias = (1 << (le_off & 31)) if (lut_le_function == "exponent" and le_off > 0) else 0
    le_v = table_value(le, le_i, le_f, le_u, le_o, le_start, le_end, slope["le_u"],
                       slope["le_o"], le_bias)
    lo_v = table_value(lo, lo_i, lo_f, lo_u, lo_o, lo_start, lo_end, slope["lo_u"],
                       slope["lo_o"], 0)
    return np.where(use_lo, lo_v, le_v).astype(np.int32)


def _mul(a, b):
    # 16-bit entry times a 36-bit weight: below 2^52, exact in int64.
    return as_i64(a) * as_i64(b)


def _slope_shift(b, shift):
    # IntSignedShiftRight<50, 5, 32>: a negative shift multiplies.
    return sat(rha(b, shift), 32) if shift >= 0 else shl(b, -shift, 32)
