"""The derived tables of an integer dla.lrn without `lut`: the same
derivation as the format library's deriveLrnTables (dla/Format/NvdlaLrn.h),
written again here from its description so that the executed LRN can be
checked against int_cdp.cdp_lrn on tables chosen independently of the C++.

f(S) = (k + alpha / size * S)^-beta. Identity input converter; LE exponent
from S = 0 (offset 0, every octave up to 2^64); LO linear from S = 0 with
step 2^sel; entries floor(f(S) 2^e + 0.5) clamped to int16, e the largest
keeping f's maximum (at S = 0 or at the top) in int16, clamped to -15..63;
the output converter undoes 2^e (shift e, or scale 2^-e). sel is the one of
smallest error max over S of x_max(S) |r(S) scale / 2^shift - f(S)| with
x_max(S) = min(floor(sqrt(S)), 2^(bits-1)), over every S (int8) or a grid
(int16), the first one on ties. Floating point: the same libm calls
(math.pow, math.log2, math.sqrt, math.ldexp) and the same operation order
as the C++, so both choose the same tables.
"""

import math

import numpy as np

import int_cdp

LE_ENTRIES, LO_ENTRIES = 65, 257


def _factor(alpha, beta, k, size, s):
    return math.pow(k + alpha / size * s, -beta)


def derive_lrn_tables(alpha, beta, k, size, input_data):
    """Returns (lut keywords of int_cdp.cdp_lut, in converter, out converter),
    the converters as (offset, scale, shift)."""
    bits = 8 if input_data == "int8" else 16
    xmax = 1 << (bits - 1)
    smax = size * xmax * xmax
    f = lambda s: _factor(alpha, beta, k, size, float(s))  # noqa: E731
    fmax = max(f(0), f(smax))
    e = math.floor(math.log2(32767.0 / fmax)) if math.isfinite(fmax) and fmax > 0 else 0
    e = min(max(e, -15), 63)
    out = (0, 1, e) if e >= 0 else (0, 1 << -e, 0)

    def entry(s):
        v = math.floor(math.ldexp(f(s), e) + 0.5)
        return int(min(max(v, -32768.0), 32767.0))

    le_top = 0
    while (1 << le_top) < smax:
        le_top += 1
    lut = dict(lut_le_table=np.array([entry(math.ldexp(1.0, i)) for i in range(LE_ENTRIES)]),
               lut_le_function="exponent", lut_le_index_offset=0, lut_le_index_select=0,
               lut_le_start=0, lut_le_end=1 << le_top, lut_lo_start=0,
               lut_le_slope_uflow_scale=0, lut_le_slope_uflow_shift=0,
               lut_le_slope_oflow_scale=0, lut_le_slope_oflow_shift=0,
               lut_lo_slope_uflow_scale=0, lut_lo_slope_uflow_shift=0,
               lut_lo_slope_oflow_scale=0, lut_lo_slope_oflow_shift=0,
               lut_uflow_priority=1, lut_oflow_priority=0, lut_hybrid_priority=1)
    if bits == 8:
        points = list(range(smax + 1))
    else:
        points = list(range(65537)) + [
            65536 + int(float(smax - 65536) * (i / 20000.0) * (i / 20000.0))
            for i in range(20001)]
    pts = np.array(points, dtype=np.int64)
    fs = np.array([f(s) for s in points])
    xm = np.minimum(np.sqrt(pts.astype(np.float64)).astype(np.int64), xmax).astype(np.float64)
    sel_max = 0
    while (256 << sel_max) < smax:
        sel_max += 1
    sel_max = min(sel_max, 31 if bits == 8 else 63)
    best, best_lut = math.inf, None
    for sel in range(sel_max + 1):
        cand = dict(lut, lut_lo_index_select=sel, lut_lo_end=256 << sel,
                    lut_lo_table=np.array([entry(math.ldexp(float(j), sel))
                                           for j in range(LO_ENTRIES)]))
        r = int_cdp.cdp_lut(pts, input_data=input_data, **cand).astype(np.int64) * out[1]
        err = xm * np.abs(np.ldexp(r.astype(np.float64), -out[2]) - fs)
        worst = float(err.max())
        if worst < best:
            best, best_lut = worst, cand
    return best_lut, (0, 1, 0), out


def cdp_lrn_derived(x, size, alpha, beta, k):
    """Integer LRN of x (int8 / int16 NCHW) on the derived tables."""
    input_data = "int8" if x.dtype == np.int8 else "int16"
    lut, cin, cout = derive_lrn_tables(alpha, beta, k, size, input_data)
    return int_cdp.cdp_lrn(x, input_data=input_data, normalz_len=size, sqsum_bypass=0,
                           mul_bypass=0, datin_offset=cin[0], datin_scale=cin[1],
                           datin_shifter=cin[2], datout_offset=cout[0], datout_scale=cout[1],
                           datout_shifter=cout[2], **lut)


def derive_lrn_float_tables(alpha, beta, k, size):
    """The float-mode tables of an fp16 dla.lrn on nv_full (the format
    library's lrnFloatTables, written again from its description): LE
    exponent from S = 0 with index offset 4 (octaves 2^4 .. 2^68), entries
    f(2^(4+i)); LO linear from 0 over [0, 2^e), e the smallest of 4..68
    with 2^e >= 16 k / (alpha / size), step 2^(e-8), entries f(j 2^(e-8));
    entries double -> float -> fp16 (Fp32ToFp16); slopes 0; LO wins where
    both hit or both underflow, LE where both overflow. alpha, beta, k as
    the op's f32 attributes hold them. Returns fp_nvdla.cdp_fp16's lut
    keywords."""
    import fp_nvdla as fp

    def f(s):
        return math.pow(k + alpha / size * s, -beta)

    def h16(v):
        return int(fp.fp32_to_fp16(np.float32(v).view(np.uint32)))

    def f32(v):
        return int(np.float32(v).view(np.uint32))

    a = alpha / size
    bend = 16.0 * k / a if a > 0 else math.inf
    e = 4
    while e < 68 and math.ldexp(1.0, e) < bend:
        e += 1
    return dict(lut_le_table=np.array([h16(f(math.ldexp(1.0, 4 + i))) for i in range(LE_ENTRIES)]),
                lut_lo_table=np.array([h16(f(math.ldexp(float(j), e - 8)))
                                       for j in range(LO_ENTRIES)]),
                lut_le_function="exponent", lut_le_index_offset=4, lut_le_index_select=0,
                lut_lo_index_select=(e - 8) & 0xFF,
                lut_le_start=0, lut_le_end=f32(2.0 ** 68), lut_lo_start=0,
                lut_lo_end=f32(2.0 ** e),
                lut_le_slope_uflow_scale=0, lut_le_slope_oflow_scale=0,
                lut_lo_slope_uflow_scale=0, lut_lo_slope_oflow_scale=0,
                lut_uflow_priority=1, lut_oflow_priority=0, lut_hybrid_priority=1)
