"""The format library's float-mode LUT (dla.nvdla_lut_float: NvdlaLutFloat.cpp
through the C API) against utils/dla-ref/lut_float_ref.py, the numpy model
checked bit for bit against NVIDIA's v1 C model (test_lut_float_ref.py):
the same random tables and inputs (plausible ones, every-bit-random ones,
NaN / infinity / extreme inputs), 0 mismatches wanted. And the sigmoid /
tanh programs the compiler runs (floatLutProgram) against
lut_float_tables.py's design, register for register, with its errors."""

import numpy as np
import pytest

import dla
import fp_nvdla as fp
import lut_float_ref as L
import lut_float_tables as T
from test_lut_float_ref import SPECIAL, plausible, wild


def _capi_regs(le, lo, regs):
    scalars = dict(le_linear=int(regs["lut_le_function"] == "linear"),
                   uflow_lo=regs["lut_uflow_priority"], oflow_lo=regs["lut_oflow_priority"],
                   hybrid_lo=regs["lut_hybrid_priority"])
    for k in dla.LUT_SCALARS:
        if k not in scalars:
            scalars[k] = regs.get("lut_" + k, 0)
    return dict(le=np.asarray(le, np.int64), lo=np.asarray(lo, np.int64), **scalars)


@pytest.mark.parametrize("gen", [plausible, wild])
def test_against_numpy_reference(gen):
    rng = np.random.default_rng(4545 + (gen is wild))
    total, kinds = 0, np.zeros(3, int)
    for _ in range(24):
        le, lo, regs, x = gen(rng)
        x = np.concatenate([x, np.array(SPECIAL, np.uint32)])
        want = L.sdp_lut_float(x, lut_le_table=le, lut_lo_table=lo, **regs)
        got = dla.nvdla_lut_float(x, **_capi_regs(le, lo, regs))
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (regs, [(hex(x[i]), hex(want[i]), hex(got[i])) for i in bad[:5]])
        total += x.size
        kinds += L.lut_kinds(x, **regs)
    assert kinds.min() > 0, kinds  # hits, underflows and overflows all ran
    assert total >= 98304


def test_slope_shifts_are_not_read():
    """Float mode uses no slope shift: any value gives the same result."""
    rng = np.random.default_rng(7)
    le, lo, regs, x = plausible(rng)
    r = _capi_regs(le, lo, regs)
    shifted = dict(r, le_slope_uflow_shift=5, lo_slope_oflow_shift=-3)
    assert np.array_equal(dla.nvdla_lut_float(x, **r), dla.nvdla_lut_float(x, **shifted))


@pytest.mark.parametrize("name", ["sigmoid", "tanh"])
def test_programs_match_the_design(name):
    regs, err, at = dla.nvdla_lut_float_program(name)
    want = T.lut_program(name)
    assert np.array_equal(regs["le"], want["lut_le_table"].astype(np.int64))
    assert np.array_equal(regs["lo"], want["lut_lo_table"].astype(np.int64))
    assert regs["le_linear"] == 1 and want["lut_le_function"] == "linear"
    for k in ("le_start", "le_end", "lo_start", "lo_end"):  # fp32 bits as int32
        assert regs[k] & 0xFFFFFFFF == want["lut_" + k], k
    for k in ("le_index_select", "lo_index_select", "le_slope_uflow_scale",
              "le_slope_oflow_scale", "lo_slope_uflow_scale", "lo_slope_oflow_scale"):
        assert regs[k] == want["lut_" + k], k
    assert (regs["uflow_lo"], regs["oflow_lo"], regs["hybrid_lo"]) == (
        want["lut_uflow_priority"], want["lut_oflow_priority"], want["lut_hybrid_priority"])
    # The error the format library measures is the numpy design's.
    want_err, _ulps, want_at = T.errors(name)
    assert err == pytest.approx(want_err, rel=1e-12) and at == want_at
    # Every finite fp16 input through the C++ LUT equals the numpy layer.
    h = T.finite_fp16()
    got = fp.fp32_to_fp16(dla.nvdla_lut_float(fp.fp16_to_fp32(h), **regs))
    assert np.array_equal(got, T.lut_fp16(name, h))


def test_errors():
    with pytest.raises(dla.DLAError, match="no float LUT program for 'relu': sigmoid or tanh"):
        dla.nvdla_lut_float_program("relu")
    with pytest.raises(dla.DLAValueError, match="the LUT's scalars are le_linear, le_start"):
        dla.nvdla_lut_float([0], le=[0] * 65, lo=[0] * 257)


def test_capi_argument_errors():
    """The C API's own checks (the Python wrapper always passes 341)."""
    import ctypes
    from dla import _capi
    regs = _capi.int64_array([0] * 340)
    x = (ctypes.c_uint32 * 1)(0)
    with pytest.raises(dla.DLAError, match="a LUT takes 341 registers, not 340"):
        dla._check(_capi.dlaNvdlaLutFloat(340, regs, 1, x, x))
    with pytest.raises(dla.DLAError, match="a LUT takes 341 registers, not 340"):
        dla._check(_capi.dlaNvdlaLutFloatProgram(b"tanh", 340, regs, None, None))
    with pytest.raises(dla.DLAError, match="a LUT takes 341 registers, not 340"):
        dla._check(_capi.dlaNvdlaLrnFloatTables(1e-4, 0.75, 1.0, 5, 340, regs))
    with pytest.raises(dla.DLAError, match="null or negative value array"):
        dla._check(_capi.dlaNvdlaLutFloat(341, _capi.int64_array([0] * 341), 1, None, None))


@pytest.mark.parametrize("seed", range(4))
def test_lrn_float_tables(seed):
    """The CDP's fp16 LRN tables the register plan programs
    (lrnFloatTables) against lrn_tables.derive_lrn_float_tables (the same
    design restated in Python), register for register, for f32 alpha /
    beta / k as fp16_cases_lrn draws them and the usual ones."""
    import fp16_cases_lrn
    from lrn_tables import derive_lrn_float_tables
    rng = np.random.default_rng(4700 + seed)
    draws = [fp16_cases_lrn.params(rng) for _ in range(25)]
    draws += [(float(np.float32(1e-4)), 0.75, 1.0, 5), (float(np.float32(1e-4)), 0.75, 2.0, 5),
              (0.0, 0.5, 4.0, 3), (1.0, 0.75, 1.0, 9)]
    for alpha, beta, k, size in draws:
        got = dla.nvdla_lrn_float_tables(alpha, beta, k, size)
        want = derive_lrn_float_tables(alpha, beta, k, size)
        np.testing.assert_array_equal(got["le"] & 0xFFFF, want["lut_le_table"] & 0xFFFF)
        np.testing.assert_array_equal(got["lo"] & 0xFFFF, want["lut_lo_table"] & 0xFFFF)
        assert (got["le_linear"], got["le_index_offset"], got["lo_index_select"] & 0xFF) == (
            0, want["lut_le_index_offset"], want["lut_lo_index_select"])
        for key in ("le_start", "le_end", "lo_start", "lo_end"):
            assert got[key] & 0xFFFFFFFF == want["lut_" + key], key
        assert (got["uflow_lo"], got["oflow_lo"], got["hybrid_lo"]) == (1, 0, 1)
