"""The SDP Y stage's lookup table in floating-point mode (proc precision
FP16, nv_full) as NVIDIA's v1 C model computes it, bit for bit.

C model (../shared/nvdla-hw-v1/cmod): hls/sdp/sdp_y_idx.cpp
NV_NVDLA_SDP_CORE_Y_idx (index and 35-bit fraction from an fp32
subtraction), hls_wrapper/sdp_hls_wrapper.cpp sdp_y (the entries read, the
slope registers and edge of the chosen table, the exponent-underflow bias
2^LUT_LE_INDEX_OFFSET as an fp32), hls/sdp/sdp_y_inp.cpp
NV_NVDLA_SDP_CORE_Y_inp (fp17 interpolation / slope). The arithmetic
helpers are fp_nvdla.py's (nvdla_float.h). docs/NvdlaFp16.md, "The Y
stage's LUT in float mode", says what each step does.

The registers are the integer path's (int_sdp_lut.sdp_lut, #dla.lut) read
as float bit patterns: table entries and slope scales are fp16 bits,
starts / ends fp32 bits; the slope shifts are not used.
"""

import numpy as np

from fp_nvdla import (_split, fp16_to_fp17, fp17_to_fp32, fp32_add, fp32_to_fp17, fp_add,
                      fp_mul, fp_sub)
from int_arith import LE_ENTRIES, LO_ENTRIES

FRAC_BITS = 35   # yLutFracSize
INDEX_MAX = 511  # FpFloatToIntFrac's 9-bit integer saturates
ONE_FP17 = 0x7C00


def _signed(v, bits):
    v = int(v) & ((1 << bits) - 1)
    return v - (1 << bits) if v >> (bits - 1) else v


def _bits(name, v, bits):
    """A register or entry as an unsigned bit pattern (signed input allowed)."""
    v = np.asarray(v).astype(np.int64)
    if np.any(v < -(1 << (bits - 1))) or np.any(v >= (1 << bits)):
        raise ValueError("%s does not fit %d bits" % (name, bits))
    return v & ((1 << bits) - 1)


def _start_diff(x, start):
    """FpSub<8,23>(x, start) and whether it underflows the table: negative,
    zero (either sign) or NaN."""
    d = fp_sub(x, start, 8, 23)
    s, e, m = _split(d, 8, 23)
    under = (s == 1) | ((e == 0) & (m == 0)) | ((e == 255) & (m != 0))
    return d, e, m, under


def _float_to_int_frac(e, m, sel):
    """FpFloatToIntFrac<8,23,8,9,35>: d * 2^-sel as a 9-bit integer
    (saturated) and the 35 bits below its point. The exponent is read as a
    signed 8-bit e - 127 (an infinity's 255 wraps to -128)."""
    mp1 = m | (1 << 23)
    abs_expo = ((e - 127 + 128) & 255) - 128
    lshift = abs_expo - sel - 23  # -278 .. 232: fits the 10-bit type
    # mp1 >= 2^23: any lshift >= -14 already exceeds 511.
    whole = np.where(lshift >= -14, INDEX_MAX, mp1 >> np.clip(-lshift, 0, 63))
    whole = np.minimum(whole, INDEX_MAX)
    k = FRAC_BITS + lshift  # the 35-bit (fraType)mp1 << k; negative: >> -k
    frac = np.where(k >= 0, (mp1 << np.clip(k, 0, 34)) & ((1 << FRAC_BITS) - 1),
                    mp1 >> np.clip(-k, 0, 63))
    frac = np.where(lshift >= 0, 0, frac)
    return whole, frac


def _linear(x, start, sel, depth):
    _, e, m, under = _start_diff(x, start)
    whole, frac = _float_to_int_frac(e, m, sel)
    over = ~under & (whole >= depth - 1)
    idx = np.where(under, 0, np.where(over, depth - 1, whole))
    return idx, np.where(under | over, 0, frac), under, over


def _exponent(x, start, offset, depth):
    _, e, m, under = _start_diff(x, start)
    under = under | (e - 127 < offset)  # the 9-bit signed exponent
    idx_s = e - 127 - offset
    over = ~under & (idx_s >= depth - 1)
    idx = np.where(under, 0, np.where(over, depth - 1, idx_s))
    frac = np.where(under | over, 0, m << (FRAC_BITS - 23))
    return idx, frac, under, over


def _fraction_to_fp17(f, width=FRAC_BITS):
    """FpFractionToFloat<width,6,10>: f / 2^width as fp17, RNE to 11 bits;
    zero when the exponent would reach 0 (f < 2^4 or so at width 35). The
    SDP's index fraction is 35 bits wide, the CDP's (HLS_uint16_to_fp17) 16."""
    f = np.asarray(f).astype(np.int64)
    bl = np.zeros_like(f)
    for b in range(width):
        bl = np.where(f >> b != 0, b + 1, bl)
    zc = width - bl  # leading zeros in `width` bits
    # shifted_frac_p1: the (width + 1)-bit (f << (zc + 1)), the top 1 at bit width.
    sh = (f << np.clip(zc + 1, 0, width + 1)) & ((1 << (width + 1)) - 1)
    g = width - 10  # bits below the 11 kept: FpMantRNE<width+1,11>
    top = sh >> g
    guard, sticky = (sh >> (g - 1)) & 1, (sh & ((1 << (g - 1)) - 1)) != 0
    c = guard & (sticky | (top & 1))
    ovf = (c == 1) & (top == (1 << 11) - 1)
    top = (top + c) & ((1 << 11) - 1)
    # Overflow: exponent 31 - zc, mantissa (top >> 1) (zero); otherwise
    # 31 - zc - 1 unless that is <= 0.
    e_ovf = 31 - zc
    e_no = 31 - zc - 1
    out = np.where(ovf, (e_ovf << 10) | ((top >> 1) & 0x3FF), (e_no << 10) | (top & 0x3FF))
    zero = (f == 0) | (~ovf & (31 <= zc + 1))
    return np.where(zero, 0, out)


def sdp_lut_float(x, *, lut_le_table, lut_lo_table, lut_le_function, lut_le_index_offset,
                  lut_le_index_select, lut_lo_index_select, lut_le_start, lut_le_end,
                  lut_lo_start, lut_lo_end, lut_le_slope_uflow_scale, lut_le_slope_oflow_scale,
                  lut_lo_slope_uflow_scale, lut_lo_slope_oflow_scale, lut_uflow_priority,
                  lut_oflow_priority, lut_hybrid_priority, **unused_shifts):
    """The LUT on the Y stage's fp32 output x (uint32 bit patterns; an fp16
    input is fp_nvdla.fp16_to_fp32 of it); returns the fp32 bits the Y stage
    hands to the output converter.

    Index: d = FpSub(x, start) in fp32; d negative, zero or NaN underflows.
    LE exponent: index = exponent(d) - offset (under if below), fraction =
    d's 23-bit mantissa; linear: d * 2^-select split into a 9-bit integer
    (saturated) and a 35-bit fraction. index >= 64 / 256 overflows. The
    priorities choose as in the integer path.
    Hit: fp17(1 - f) * fp17(T[i]) + fp17(f) * fp17(T[i+1]) in fp17 (each
    product and the sum rounded), widened to fp32.
    Under / overflow: fp17(x - (edge + bias)) * fp17(scale) + fp17(T[edge
    entry]), edge = start or end (fp32), bias = 2^offset (fp32) for an LE
    exponent underflow, else 0; the difference is fp32, then rounded to
    fp17."""
    for name in unused_shifts:
        if not name.endswith("_shift"):
            raise TypeError("unexpected register %s" % name)
    le = _bits("lut_le_table", lut_le_table, 16)
    lo = _bits("lut_lo_table", lut_lo_table, 16)
    if le.shape != (LE_ENTRIES,) or lo.shape != (LO_ENTRIES,):
        raise ValueError("LE needs 65 entries, LO 257")
    if lut_le_function not in ("exponent", "linear"):
        raise ValueError("lut_le_function = %r: 'exponent' or 'linear'" % lut_le_function)
    le_off = _signed(lut_le_index_offset, 8)
    le_sel = _signed(lut_le_index_select, 8)
    lo_sel = _signed(lut_lo_index_select, 8)
    le_start, le_end, lo_start, lo_end = (
        int(_bits(n, v, 32)) for n, v in
        (("lut_le_start", lut_le_start), ("lut_le_end", lut_le_end),
         ("lut_lo_start", lut_lo_start), ("lut_lo_end", lut_lo_end)))
    scales = {n: int(_bits(n, v, 16)) for n, v in
              (("le_u", lut_le_slope_uflow_scale), ("le_o", lut_le_slope_oflow_scale),
               ("lo_u", lut_lo_slope_uflow_scale), ("lo_o", lut_lo_slope_oflow_scale))}
    x = _bits("x", x, 32)
    if lut_le_function == "exponent":
        le_r = _exponent(x, le_start, le_off, LE_ENTRIES)
    else:
        le_r = _linear(x, le_start, le_sel, LE_ENTRIES)
    lo_r = _linear(x, lo_start, lo_sel, LO_ENTRIES)
    le_u, le_o, lo_u, lo_o = le_r[2], le_r[3], lo_r[2], lo_r[3]
    le_hit, lo_hit = ~(le_u | le_o), ~(lo_u | lo_o)
    use_lo = np.where(le_u & lo_u, bool(lut_uflow_priority),
                      np.where(le_o & lo_o, bool(lut_oflow_priority),
                               np.where(le_hit ^ lo_hit, lo_hit, bool(lut_hybrid_priority))))
    idx = np.where(use_lo, lo_r[0], le_r[0])
    frac = np.where(use_lo, lo_r[1], le_r[1])
    under = np.where(use_lo, lo_u, le_u)
    over = np.where(use_lo, lo_o, le_o)
    y0 = np.where(use_lo, lo[np.minimum(idx, LO_ENTRIES - 1)], le[np.minimum(idx, LE_ENTRIES - 1)])
    y1 = np.where(use_lo, lo[np.minimum(idx + 1, LO_ENTRIES - 1)],
                  le[np.minimum(idx + 1, LE_ENTRIES - 1)])

    # Hit (sdp_y_inp.cpp, FP16, !flow).
    a0 = np.where(frac == 0, ONE_FP17, _fraction_to_fp17((1 << FRAC_BITS) - frac))
    a1 = _fraction_to_fp17(frac)
    b0 = fp_mul(a0, fp16_to_fp17(y0), 6, 10)
    b1 = fp_mul(a1, fp16_to_fp17(y1), 6, 10)
    hit = fp_add(b0, b1, 6, 10)

    # Under / overflow (sdp_hls_wrapper.cpp's operands, sdp_y_inp.cpp, flow).
    # Fp32Add(edge, bias) even with bias 0 (a denormal edge is not kept).
    bias = 0
    if lut_le_function == "exponent":
        bias = int(np.float32(2.0 ** le_off).view(np.uint32))  # pow(2.0, offset) as a float
    edge_le_u = int(fp32_add(le_start, bias))
    edge_le_o = int(fp32_add(le_end, 0))
    edge_lo_u = int(fp32_add(lo_start, 0))
    edge_lo_o = int(fp32_add(lo_end, 0))
    ob = np.where(use_lo, np.where(over, edge_lo_o, edge_lo_u),
                  np.where(over, edge_le_o, edge_le_u))
    scale = np.where(use_lo, np.where(over, scales["lo_o"], scales["lo_u"]),
                     np.where(over, scales["le_o"], scales["le_u"]))
    a = fp32_to_fp17(fp_sub(x, ob, 8, 23))
    flow = fp_add(fp16_to_fp17(y0), fp_mul(a, fp16_to_fp17(scale), 6, 10), 6, 10)
    return fp17_to_fp32(np.where(under | over, flow, hit))


def lut_kinds(x, *, lut_le_function, lut_le_start, lut_lo_start, lut_le_index_offset,
              lut_le_index_select, lut_lo_index_select, lut_uflow_priority, lut_oflow_priority,
              lut_hybrid_priority, **_):
    """How many inputs the chosen table hits, underflows, overflows (for
    tests to show every path ran)."""
    x = _bits("x", x, 32)
    le_start, lo_start = int(_bits("le", lut_le_start, 32)), int(_bits("lo", lut_lo_start, 32))
    if lut_le_function == "exponent":
        le_r = _exponent(x, le_start, _signed(lut_le_index_offset, 8), LE_ENTRIES)
    else:
        le_r = _linear(x, le_start, _signed(lut_le_index_select, 8), LE_ENTRIES)
    lo_r = _linear(x, lo_start, _signed(lut_lo_index_select, 8), LO_ENTRIES)
    le_u, le_o, lo_u, lo_o = le_r[2], le_r[3], lo_r[2], lo_r[3]
    le_hit, lo_hit = ~(le_u | le_o), ~(lo_u | lo_o)
    use_lo = np.where(le_u & lo_u, bool(lut_uflow_priority),
                      np.where(le_o & lo_o, bool(lut_oflow_priority),
                               np.where(le_hit ^ lo_hit, lo_hit, bool(lut_hybrid_priority))))
    under, over = np.where(use_lo, lo_u, le_u), np.where(use_lo, lo_o, le_o)
    return np.array([(~under & ~over).sum(), under.sum(), over.sum()])
