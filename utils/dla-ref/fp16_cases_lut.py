"""Random fp16 SDP layers whose Y stage's LUT runs in float mode (dla.sdp
offline ... ew <lut = ...> on f16, nv_full), with their expected results
from lut_float_ref.py (the numpy model checked against NVIDIA's v1 C model)
and fp_nvdla.py's converters: the input widened exactly (Fp16ToFp32), the
LUT, the output converter (Fp32ToFp16). Shared by run_layers.py --kind
fp16-lut (the CPU execution) and run_fp16_trace.py --layer lut (the v1
model).

The sigmoid and tanh programs (lut_float_tables.lut_program) over every
finite fp16 input, then `count` random plausible tables
(test_lut_float_ref.plausible: fp16 entries, edges near the data, small
selects and offsets, both LE functions, every priority) on random finite
fp16 inputs, infinities included."""

import numpy as np

import fp_nvdla as fp
import lut_float_ref as L
import lut_float_tables as T
from test_lut_float_ref import plausible


def _i32(v):
    return int(np.uint32(v).view(np.int32))


def _i16(v):
    return int(np.uint16(v).view(np.int16))


def lut_text(le, lo, regs):
    """#dla.lut<...> of lut_float_ref's registers (entries and slopes as the
    signed 16-bit values, edges as the signed 32-bit values the attribute
    holds)."""
    exponent = regs["lut_le_function"] == "exponent"
    idx = (f"le_index_offset = {regs['lut_le_index_offset']}" if exponent else
           f"le_index_select = {regs['lut_le_index_select']}")
    slopes = "".join(f", {k}_scale = {_i16(regs['lut_' + k + '_scale'])}"
                     for k in ("le_slope_uflow", "le_slope_oflow", "lo_slope_uflow",
                               "lo_slope_oflow"))
    prio = ", ".join(f"{k}_priority = {'lo' if regs['lut_' + k + '_priority'] else 'le'}"
                     for k in ("uflow", "oflow", "hybrid"))
    table = lambda t: ", ".join(str(_i16(v)) for v in np.asarray(t).astype(np.uint16))
    return (f"#dla.lut<le_function = {regs['lut_le_function']}, le = [{table(le)}], "
            f"lo = [{table(lo)}], le_start = {_i32(regs['lut_le_start'])}, "
            f"le_end = {_i32(regs['lut_le_end'])}, lo_start = {_i32(regs['lut_lo_start'])}, "
            f"lo_end = {_i32(regs['lut_lo_end'])}, {idx}, "
            f"lo_index_select = {regs['lut_lo_index_select']}{slopes}, {prio}>")


def expected(x16, le, lo, regs):
    """The layer's fp16 result bits for fp16 input bits x16."""
    y = L.sdp_lut_float(fp.fp16_to_fp32(x16), lut_le_table=le, lut_lo_table=lo, **regs)
    return fp.fp32_to_fp16(y)


def finite_fp16(rng, shape):
    """Random fp16 bit patterns, NaNs replaced by random finite ones
    (infinities kept: the LUT reads them as the largest fp32)."""
    h = rng.integers(0, 1 << 16, shape).astype(np.uint16)
    nan = ((h >> 10) & 31 == 31) & (h & 0x3FF != 0)
    h[nan] = rng.integers(0, 0x7800, int(nan.sum())).astype(np.uint16)
    return h


def cases(rng, count):
    """(name, x16 of shape 1xCxHxW, le, lo, regs, expected bits)."""
    out = []
    every = T.finite_fp16().reshape(1, 62, 32, 32)
    for name in ("sigmoid", "tanh"):
        p = T.lut_program(name)
        le, lo = p.pop("lut_le_table"), p.pop("lut_lo_table")
        out.append((f"lut_{name}", every, le, lo, p, expected(every, le, lo, p)))
    while len(out) < count + 2:
        le, lo, regs, _ = plausible(rng)
        shape = (1, int(rng.integers(1, 40)), int(rng.integers(1, 9)), int(rng.integers(1, 9)))
        x = finite_fp16(rng, shape)
        out.append((f"lut_{regs['lut_le_function']}_{len(out)}", x, le, lo, regs,
                    expected(x, le, lo, regs)))
    return out


def layer_cases(rng, count, Case, tensor_type):
    """run_layers.py's cases: one offline fp16 SDP per case."""
    result = []
    for name, x, le, lo, regs, want in cases(rng, count):
        t = tensor_type(x.shape, "f16")
        op = f"dla.sdp offline %a0 ew <lut = {lut_text(le, lo, regs)}> : {t} -> {t}"
        result.append(Case(name, [(x.view(np.float16), "f16")], op, x.shape, "f16",
                           want.view(np.float16)))
    return result
