"""Sigmoid and tanh programs for the SDP Y stage's LUT in float mode (fp16,
nv_full): register values for lut_float_ref.sdp_lut_float, and their error
over every finite fp16 input, computed with that reference.

Layout (both functions): LO, 257 entries, linear over [-lo_r, lo_r] where
the curve bends most; LE, 65 entries, linear over the wider [-le_r, le_r]
for the tails; both hit -> LO (hybrid priority), one hit -> that table,
beyond both -> LE's edge entries with slope 0 (the saturated value).
Entries are the function at the nodes rounded to fp16; steps are powers of
two because the index is d * 2^-select. `python3 lut_float_tables.py`
prints the errors. The compiler's programs are the format library's
(NvdlaLutFloat.cpp floatLutProgram); python/tests/test_lut_float.py
compares them with these register for register.
"""

import math

import numpy as np

import fp_nvdla as fp
from lut_float_ref import sdp_lut_float


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x))


FUNCS = {"sigmoid": _sigmoid, "tanh": np.tanh}
# (lo half-range, le half-range): steps lo_r / 128 and le_r / 32.
RANGES = {"sigmoid": (8, 32), "tanh": (4, 16)}


def _f32(v):
    return int(np.float32(v).view(np.uint32))


def _h16(values):
    return fp.fp32_to_fp16(np.asarray(values, np.float32).view(np.uint32)).view(np.int16)


def lut_program(name):
    """The sdp_lut_float registers approximating `name` ("sigmoid" / "tanh")."""
    f = FUNCS[name]
    lo_r, le_r = RANGES[name]
    lo_step, le_step = 2 * lo_r / 256, 2 * le_r / 64
    return dict(
        lut_le_table=_h16(f(-le_r + le_step * np.arange(65))),
        lut_lo_table=_h16(f(-lo_r + lo_step * np.arange(257))),
        lut_le_function="linear",
        lut_le_start=_f32(-le_r), lut_le_end=_f32(le_r),
        lut_lo_start=_f32(-lo_r), lut_lo_end=_f32(lo_r),
        lut_le_index_offset=0,
        lut_le_index_select=int(math.log2(le_step)),
        lut_lo_index_select=int(math.log2(lo_step)),
        lut_le_slope_uflow_scale=0, lut_le_slope_oflow_scale=0,
        lut_lo_slope_uflow_scale=0, lut_lo_slope_oflow_scale=0,
        lut_uflow_priority=0, lut_oflow_priority=0, lut_hybrid_priority=1)


def finite_fp16():
    h = np.arange(1 << 16, dtype=np.uint16)
    return h[((h >> 10) & 31) != 31]


def lut_fp16(name, h):
    """The program run on fp16 inputs h, rounded to fp16 as the output
    converter does (Fp32ToFp16)."""
    return fp.fp32_to_fp16(sdp_lut_float(fp.fp16_to_fp32(h), **lut_program(name)))


def errors(name):
    """Max absolute error and max error in fp16 ulps (of the exact value)
    of the fp16 result (Y stage's fp32 rounded by the output converter's
    Fp32ToFp16) over every finite fp16 input."""
    h = finite_fp16()
    x = fp.fp16_to_fp32(h)
    y = lut_fp16(name, h).view(np.float16).astype(np.float64)
    want = FUNCS[name](x.view(np.float32).astype(np.float64))
    err = np.abs(y - want)
    # fp16 ulp of the exact value (2^-24 below the normal range).
    ulp = np.exp2(np.maximum(np.floor(np.log2(np.maximum(np.abs(want), 2.0**-24))), -14) - 10)
    return float(err.max()), float((err / ulp).max()), float(x.view(np.float32)[err.argmax()])


if __name__ == "__main__":
    for n in FUNCS:
        a, u, at = errors(n)
        print(f"{n}: max abs error {a:.3g} (at x = {at}), max {u:.3g} fp16 ulps")
