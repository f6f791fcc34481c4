"""CDP (LRN) integer arithmetic: input converter, square sum, the LE and LO
lookup tables with their index modes, interpolation and under / overflow
rules, the optional multiply by the input, output converter.

C model: cmod/hls/cdp_libs/cdp_icvt.cpp HLS_cdp_icvt, cdp_sq.cpp HLS_cdp_sq,
cdp_ocvt.cpp HLS_cdp_ocvt; cmod/cdp/NV_NVDLA_cdp.cpp lookup_lut_int8 (int8)
and lookup_lut (int16), whose table arithmetic is identical, and convert
(round half away from zero in double, then saturate); channels outside the
cube are filled with DATIN_OFFSET (CdpDataPathSequence) so they convert to
0 and add nothing to the square sum (for int8; see cdp_lrn).
"""

import numpy as np

from int_arith import (LIMIT, as_i64, check_field, check_luts,
                       check_signed, check_unsigned, precision_bits, rha, sat, shl, wrap)

INTERP_BITS = 56  # INTERP_INTERMIDIATE_BITS(_INT8)
NORMALZ_LENS = (3, 5, 7, 9)
LUT_START_BITS = 38  # LUT_*_START/END_LOW (32) + _HIGH (6)


def cdp_icvt(x, *, input_data, datin_offset, datin_scale, datin_shifter):
    """int8: SAT9(RHA((x - WRAP8(datin_offset)) * datin_scale, datin_shifter))
    (the 16-bit offset meets an 8-bit port); int16: the same at 16 / 17 bits.
    DATIN_SHIFTER is a 5-bit field."""
    bits = precision_bits("input_data", input_data)
    x = as_i64(check_signed("x", np.asarray(x), bits))
    off = check_signed("datin_offset", datin_offset, 16)
    scale = check_signed("datin_scale", datin_scale, 16)
    shift = check_unsigned("datin_shifter", datin_shifter, 5)
    off = int(wrap(off, 8)) if bits == 8 else off
    return sat(rha((x - off) * scale, shift), bits + 1)


def cdp_ocvt(v, *, input_data, datout_offset, datout_scale, datout_shifter):
    """int8: SAT8(RHA((v - WRAP25(datout_offset)) * datout_scale,
    datout_shifter)) (25-bit lanes); int16: the 32-bit offset, SAT16."""
    bits = precision_bits("input_data", input_data)
    off = check_signed("datout_offset", datout_offset, 32)
    scale = check_signed("datout_scale", datout_scale, 16)
    shift = check_unsigned("datout_shifter", datout_shifter, 6)
    off = int(wrap(off, 25)) if bits == 8 else off
    out = sat(rha((as_i64(v) - off) * scale, shift), bits)
    return out.astype(np.int8 if bits == 8 else np.int16)


def cdp_square_sum(xc, *, normalz_len, sqsum_bypass):
    """xc: converted data (N, C, H, W). Sum of squares over normalz_len
    (3, 5, 7 or 9) channels centred on each channel, missing channels
    adding 0; sqsum_bypass = 1 passes the converted value itself."""
    xc = as_i64(xc)
    if sqsum_bypass:
        return xc
    if normalz_len not in NORMALZ_LENS:
        raise ValueError("normalz_len = %r: expected 3, 5, 7 or 9" % normalz_len)
    half = normalz_len // 2
    sq = np.pad(xc * xc, ((0, 0), (half, half), (0, 0), (0, 0)))
    c = xc.shape[1]
    return sum(sq[:, k:k + c] for k in range(normalz_len))


def _convert(v, shift):
    # NV_NVDLA_cdp::convert(v, shift, 56, true): a negative shift multiplies.
    return sat(rha(v, shift), INTERP_BITS) if shift >= 0 else shl(v, -shift, INTERP_BITS)


def _mul(a, b):
    # The C model's int64 product, which wraps: the exponent underflow's
    # 2^offset bias times a 16-bit slope passes 2^63 for offsets above about
    # 48. The wrapped value is then kept within +-2**62: from 2**53 on, its
    # 5-bit slope shift leaves more than 16 bits and the result saturates by
    # sign whatever its magnitude (convert's double rounding included).
    a = np.asarray(a, dtype=np.int64)
    w = (a.astype(np.uint64) * np.uint64(b % (1 << 64))).astype(np.int64)
    return np.clip(w, -LIMIT, LIMIT)


def _edge(table_value, v, scale, shift):
    return sat(table_value + _convert(_mul(v, scale), shift), 16)


def _interp(table, idx, frac16):
    r0 = table[idx]
    r1 = table[np.minimum(idx + 1, len(table) - 1)]
    return sat(r0 + _convert((r1 - r0) * frac16, 16), 16)


def _to16(frac, bits):
    # The RTL keeps 16 fraction bits of the offset inside the entry.
    return frac >> (bits - 16) if bits > 16 else frac << (16 - bits)


def _linear(s, table, start, end, select, uflow, oflow):
    """LE linear mode or LO. Returns (value, underflow, overflow, hit)."""
    n = len(table) - 1
    d = s - start
    if select >= 0:
        idx = d >> select
        # The C model takes `d % (1 << select)` with a 32-bit int 1: on x86
        # the shift count is taken mod 32 (reachable with int16's 7-bit select).
        frac = _to16(d & ((1 << (select & 31)) - 1), select)
    else:
        # int64 `d << -select` wraps (x86: count mod 64); a wrapped index
        # can fall back into the table or below it, as the C model's does.
        idx = np.left_shift(d, (-select) & 63)
        frac = np.zeros_like(d)
    under = (idx < 0) | (d <= 0)
    over = ~under & (idx >= n)
    hit = ~under & ~over
    safe = np.where(hit, idx, 0)
    val = np.where(under, _edge(table[0], s - start, *uflow),
                   np.where(over, _edge(table[n], s - end, *oflow),
                            _interp(table, safe, np.where(hit, frac, 0))))
    return val, under, over, hit


def _exponent(s, table, start, end, offset, uflow, oflow):
    """LE exponent mode: index = floor(log2(s - start)) - offset."""
    d = s - start
    pos = np.where(d > 0, d, 1)
    log = np.floor(np.log2(pos.astype(np.float64))).astype(np.int64)
    # float log2 of an integer below 2**53 is exact at powers of two; correct
    # the rare floor error next to them with the integer test.
    log = np.where((1 << log) > pos, log - 1, log)
    log = np.where(((1 << (log + 1)) <= pos) & (log < 62), log + 1, log)
    log = np.where(d > 0, log, 0)
    idx = log - offset
    under = (idx < 0) | (d <= 0)
    over = ~under & (idx >= len(table) - 1)
    hit = ~under & ~over
    uoff = 0 if offset < 0 else 1 << offset
    rest = np.where(hit, d - (1 << log), 0)  # the bits below the leading one
    frac = np.where(log > 16, rest >> np.maximum(log - 16, 0),
                    rest << np.maximum(16 - log, 0))
    safe = np.where(hit, idx, 0)
    val = np.where(under, _edge(table[0], s - start - uoff, *uflow),
                   np.where(over, _edge(table[len(table) - 1], s - end, *oflow),
                            _interp(table, safe, frac)))
    return val, under, over, hit


def _signed_field(name, value, bits):
    # A field of `bits` bits read as two's complement (sc_int<bits> or the
    # C model's manual sign extension); negative values are accepted as such.
    v = check_field(name, value, -(1 << (bits - 1)), (1 << bits) - 1)
    return v - (1 << bits) if v >= (1 << (bits - 1)) else v


def cdp_lut(s, *, input_data, lut_le_table, lut_lo_table, lut_le_function,
            lut_le_index_offset, lut_le_index_select, lut_lo_index_select, lut_le_start,
            lut_le_end, lut_lo_start, lut_lo_end, lut_le_slope_uflow_scale,
            lut_le_slope_uflow_shift, lut_le_slope_oflow_scale, lut_le_slope_oflow_shift,
            lut_lo_slope_uflow_scale, lut_lo_slope_uflow_shift, lut_lo_slope_oflow_scale,
            lut_lo_slope_oflow_shift, lut_uflow_priority, lut_oflow_priority,
            lut_hybrid_priority):
    """The LUT result (int16) for square sums s.

    Each table gives one of: underflow (s - start <= 0 or index < 0):
    SAT16(T[0] + SAT56(RHA((s - start [- 2^offset in exponent mode when
    offset >= 0]) * uflow_scale, uflow_shift))); overflow (index >= 64 / 256):
    SAT16(T[last] + SAT56(RHA((s - end) * oflow_scale, oflow_shift)));
    hit: SAT16(T[i] + RHA((T[i+1] - T[i]) * f, 16)) with f the 16-bit
    fraction of the position between entries i and i + 1. The slope shifts
    are 5-bit fields read signed (-16..15; negative multiplies). Choice:
    both under -> lut_uflow_priority (1 = LO), both over ->
    lut_oflow_priority, exactly one hit -> that one, else
    lut_hybrid_priority (1 = LO)."""
    bits = precision_bits("input_data", input_data)
    le, lo = check_luts(lut_le_table, lut_lo_table, lut_le_function)
    # int8 reads the 8-bit INDEX_SELECT fields sign-extended from bit 5,
    # int16 from bit 6 (lookup_lut_int8 / lookup_lut).
    sel_bits = 6 if bits == 8 else 7
    le_sel = _signed_field("lut_le_index_select", lut_le_index_select, sel_bits)
    lo_sel = _signed_field("lut_lo_index_select", lut_lo_index_select, sel_bits)
    le_off = check_signed("lut_le_index_offset", lut_le_index_offset, 8)
    if lut_le_function == "exponent" and le_off > 62:
        raise ValueError("lut_le_index_offset above 62 shifts past int64 in the C model")
    starts = [check_signed(n, v, LUT_START_BITS) for n, v in
              (("lut_le_start", lut_le_start), ("lut_le_end", lut_le_end),
               ("lut_lo_start", lut_lo_start), ("lut_lo_end", lut_lo_end))]
    slopes = {}
    for name, v in (("le_slope_uflow", (lut_le_slope_uflow_scale, lut_le_slope_uflow_shift)),
                    ("le_slope_oflow", (lut_le_slope_oflow_scale, lut_le_slope_oflow_shift)),
                    ("lo_slope_uflow", (lut_lo_slope_uflow_scale, lut_lo_slope_uflow_shift)),
                    ("lo_slope_oflow", (lut_lo_slope_oflow_scale, lut_lo_slope_oflow_shift))):
        slopes[name] = (check_signed("lut_%s_scale" % name, v[0], 16),
                        _signed_field("lut_%s_shift" % name, v[1], 5))
    s = as_i64(s)
    if lut_le_function == "exponent":
        le_r = _exponent(s, le, starts[0], starts[1], le_off, slopes["le_slope_uflow"],
                         slopes["le_slope_oflow"])
    else:
        le_r = _linear(s, le, starts[0], starts[1], le_sel, slopes["le_slope_uflow"],
                       slopes["le_slope_oflow"])
    lo_r = _linear(s, lo, starts[2], starts[3], lo_sel, slopes["lo_slope_uflow"],
                   slopes["lo_slope_oflow"])
    le_v, le_u, le_o, le_h = le_r
    lo_v, lo_u, lo_o, lo_h = lo_r
    pick = lambda flag: lo_v if flag else le_v  # noqa: E731
    return np.where(le_u & lo_u, pick(lut_uflow_priority),
                    np.where(le_o & lo_o, pick(lut_oflow_priority),
                             np.where(le_h ^ lo_h, np.where(le_h, le_v, lo_v),
                                      pick(lut_hybrid_priority)))).astype(np.int16)


def cdp_lrn(x, *, input_data, normalz_len, sqsum_bypass, mul_bypass, datin_offset,
            datin_scale, datin_shifter, datout_offset, datout_scale, datout_shifter, **lut):
    """The whole CDP on x (N, C, H, W): icvt -> square sum -> LUT ->
    (times the converted centre value unless mul_bypass) -> ocvt. `lut`
    takes cdp_lut's keywords. Channels outside the cube add 0 to the sum;
    that is what the int8 C model does (it fills them with DATIN_OFFSET,
    which the input converter takes to 0), and what v1's int16 path does
    (cmod/cdp/NV_NVDLA_cdp.cpp of nvdla/hw nvdlav1 fills the int16
    elements data_to_hls[] with DATIN_OFFSET): the only int16 configuration,
    nv_full, runs on v1. Master's int16 path fills bytes with
    (int8)DATIN_OFFSET instead, which is not a neutral value: that quirk of
    a model no int16 configuration uses is not modelled."""
    xc = cdp_icvt(x, input_data=input_data, datin_offset=datin_offset,
                  datin_scale=datin_scale, datin_shifter=datin_shifter)
    s = cdp_square_sum(xc, normalz_len=normalz_len, sqsum_bypass=sqsum_bypass)
    r = as_i64(cdp_lut(s, input_data=input_data, **lut))
    v = r if mul_bypass else r * xc
    return cdp_ocvt(v, input_data=input_data, datout_offset=datout_offset,
                    datout_scale=datout_scale, datout_shifter=datout_shifter)
