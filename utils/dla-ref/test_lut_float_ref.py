"""lut_float_ref.py (the SDP Y stage's LUT at precision FP16) against NVIDIA's
v1 C model's own sdp_hls_wrapper::sdp_y (cmodel-check/lut_v1_glue.cpp, built
here against scripts/build-nvdla-cmod-v1.sh's library and loaded with
ctypes) on random tables, registers and inputs: 0 mismatches wanted. Skipped,
saying why, where the v1 model is not built. Plus values worked by hand from
the C model's code, which need nothing."""

import ctypes
import os
import subprocess
import tempfile

import numpy as np
import pytest

import fp_nvdla as fp
import lut_float_ref as L
from test_fp_nvdla import _glue_paths

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def cm():
    cmod, ac, lib = _glue_paths()
    for path, what in ((os.path.join(lib, "libnvdla_cmod.so"), "the v1 C model's library"),
                       (os.path.join(cmod, "hls_wrapper", "sdp_hls_wrapper.h"), "the v1 sources"),
                       (os.path.join(ac, "ac_int.h"), "master's ac_types 3.9 headers")):
        if not os.path.exists(path):
            pytest.skip(f"no {what} ({path}): scripts/build-nvdla-cmod-v1.sh builds it")
    out = os.path.join(tempfile.mkdtemp(prefix="lut-v1-glue-"), "glue.so")
    inc = [ac] + [os.path.join(cmod, d) for d in
                  ("hls/sdp", "hls/vlibs", "include", "include/nvdla_ness_header", "hls_wrapper")]
    cmd = (["g++", "-std=c++17", "-O1", "-w", "-fPIC", "-shared",
            "-DSC_INCLUDE_DYNAMIC_PROCESSES"] + [f"-I{d}" for d in inc] +
           [os.path.join(HERE, "cmodel-check", "lut_v1_glue.cpp"), "-o", out, f"-L{lib}",
            f"-Wl,-rpath,{lib}", "-lnvdla_cmod", "-lsystemc"])
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return ctypes.CDLL(out)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def cmodel(lib, x, le, lo, regs):
    x = np.ascontiguousarray(x, np.uint32)
    out = np.zeros_like(x)
    r = np.array([0 if regs["lut_le_function"] == "exponent" else 1] +
                 [regs["lut_" + k] for k in (
                     "le_start", "le_end", "lo_start", "lo_end", "le_index_offset",
                     "le_index_select", "lo_index_select", "le_slope_uflow_scale",
                     "le_slope_oflow_scale", "lo_slope_uflow_scale", "lo_slope_oflow_scale",
                     "uflow_priority", "oflow_priority", "hybrid_priority")], np.int64)
    r = r.astype(np.uint32).view(np.int32)
    lib.v1_sdp_y_lut_fp16(_p(x), _p(out), ctypes.c_int(len(x)),
                          _p(np.ascontiguousarray(le, np.int16)),
                          _p(np.ascontiguousarray(lo, np.int16)), _p(np.ascontiguousarray(r)))
    return out


def f32(v):
    return int(np.float32(v).view(np.uint32))


def h16(v):
    return int(fp.fp32_to_fp16(np.float32(v).view(np.uint32)))


def plausible(rng):
    """Tables a compiler could program: fp16 entries, finite float edges
    near the data, small selects / offsets."""
    le = fp.fp32_to_fp16(rng.normal(0, 2, 65).astype(np.float32).view(np.uint32))
    lo = fp.fp32_to_fp16(rng.normal(0, 2, 257).astype(np.float32).view(np.uint32))
    ls, los = rng.uniform(-8, 2), rng.uniform(-8, 2)
    regs = dict(lut_le_function=str(rng.choice(["exponent", "linear"])),
                lut_le_start=f32(ls), lut_le_end=f32(ls + rng.uniform(1, 20)),
                lut_lo_start=f32(los), lut_lo_end=f32(los + rng.uniform(1, 20)),
                lut_le_index_offset=int(rng.integers(-10, 5)),
                lut_le_index_select=int(rng.integers(-8, 4)),
                lut_lo_index_select=int(rng.integers(-8, 4)))
    for k in ("le_slope_uflow", "le_slope_oflow", "lo_slope_uflow", "lo_slope_oflow"):
        regs[f"lut_{k}_scale"] = h16(rng.normal())
    for k in ("uflow", "oflow", "hybrid"):
        regs[f"lut_{k}_priority"] = int(rng.integers(2))
    x = fp.fp16_to_fp32(rng.integers(0, 1 << 16, 8192).astype(np.uint16))
    return le.view(np.int16), lo.view(np.int16), regs, x


def wild(rng):
    """Every register and entry random bits (NaN / infinity patterns, full
    select and offset ranges), fp32 inputs of any bits."""
    le = rng.integers(-(1 << 15), 1 << 15, 65).astype(np.int16)
    lo = rng.integers(-(1 << 15), 1 << 15, 257).astype(np.int16)
    regs = dict(lut_le_function=str(rng.choice(["exponent", "linear"])))
    for k in ("le_start", "le_end", "lo_start", "lo_end"):
        regs[f"lut_{k}"] = int(rng.integers(0, 1 << 32))
    for k in ("le_index_offset", "le_index_select", "lo_index_select"):
        regs[f"lut_{k}"] = int(rng.integers(-128, 128))
    for k in ("le_slope_uflow", "le_slope_oflow", "lo_slope_uflow", "lo_slope_oflow"):
        regs[f"lut_{k}_scale"] = int(rng.integers(0, 1 << 16))
    for k in ("uflow", "oflow", "hybrid"):
        regs[f"lut_{k}_priority"] = int(rng.integers(2))
    x = rng.integers(0, 1 << 32, 4096).astype(np.uint32)
    return le, lo, regs, x


@pytest.mark.parametrize("gen,tables", [(plausible, 16), (wild, 16)])
def test_against_v1_cmodel(cm, gen, tables):
    rng = np.random.default_rng(47 + tables + (gen is wild))
    total = 0
    kinds = np.zeros(3, int)  # hits, underflows, overflows (of the chosen table)
    for _ in range(tables):
        le, lo, regs, x = gen(rng)
        want = cmodel(cm, x, le, lo, regs)
        got = L.sdp_lut_float(x, lut_le_table=le, lut_lo_table=lo, **regs)
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (regs, [(hex(x[i]), hex(want[i]), hex(got[i])) for i in bad[:5]])
        total += x.size
        kinds += L.lut_kinds(x, **regs)
    assert total >= 65536
    assert kinds.min() > 0, kinds  # every path was exercised
    print(f"{gen.__name__}: {total} inputs, hits / underflows / overflows {kinds.tolist()}")


SPECIAL = [0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800200, 0x7F800000, 0xFF800000, 0x7F7FFFFF,
           0xFF7FFFFF, 0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x477FE000,
           0xC77FE000, 0x33800000]  # NaNs (payload low bits 0 or not), inf, max, 0, denormals


def test_special_inputs_against_v1_cmodel(cm):
    """NaN / infinity / extreme fp32 inputs on plausible tables. A NaN whose
    low 10 payload bits are 0 becomes fp17's infinity pattern and comes out
    saturated (docs/NvdlaFp16.md)."""
    rng = np.random.default_rng(4747)
    for _ in range(8):
        le, lo, regs, _x = plausible(rng)
        x = np.array(SPECIAL * 4, np.uint32)
        want = cmodel(cm, x, le, lo, regs)
        got = L.sdp_lut_float(x, lut_le_table=le, lut_lo_table=lo, **regs)
        assert np.array_equal(want, got), (regs, [hex(v) for v in want], [hex(v) for v in got])


def base_regs(**kw):
    regs = dict(lut_le_table=np.zeros(65, np.int64), lut_lo_table=np.zeros(257, np.int64),
                lut_le_function="linear", lut_le_start=f32(1000.0), lut_le_end=f32(2000.0),
                lut_lo_start=f32(0.0), lut_lo_end=f32(256.0), lut_le_index_offset=0,
                lut_le_index_select=0, lut_lo_index_select=0,
                lut_le_slope_uflow_scale=0, lut_le_slope_oflow_scale=0,
                lut_lo_slope_uflow_scale=0, lut_lo_slope_oflow_scale=0,
                lut_uflow_priority=1, lut_oflow_priority=1, lut_hybrid_priority=1)
    regs.update(kw)
    return regs


def out(x, **kw):
    x = np.array([f32(v) for v in x], np.uint32)
    return L.sdp_lut_float(x, **base_regs(**kw)).view(np.float32).tolist()


def test_interpolation_in_fp17():
    lo = np.zeros(257, np.int64)
    lo[2], lo[3] = h16(1.0), h16(2.0)
    # LO from 0, select 0: x = 2.25 -> entry 2, fraction 1/4: 0.75 + 0.5.
    assert out([2.25], lut_lo_table=lo) == [1.25]
    # select -2 (4 entries per unit): x = 0.5 -> entry 2 exactly.
    assert out([0.5], lut_lo_table=lo, lut_lo_index_select=-2) == [1.0]
    # The products and the sum are rounded to fp17 (11 bits): 1/3 of the
    # way from 1 to 2 is 1.3330078125, not 4/3.
    lo[3] = h16(2.0)
    assert out([2 + 1 / 3], lut_lo_table=lo) == [1.3330078125]


def test_underflow_slope_from_start_and_exponent_bias():
    lo = np.zeros(257, np.int64)
    lo[0] = h16(0.5)
    # x <= lo_start (0): T[0] + (x - 0) * scale = 0.5 + (-3) * 0.25.
    assert out([-3.0], lut_lo_table=lo, lut_lo_slope_uflow_scale=h16(0.25)) == [-0.25]
    # LE exponent from 0, offset -2: x = 0.125 has exponent -3 < -2: under,
    # measured from start + 2^-2: 1 + (0.125 - 0.25) * 2 = 0.75 (LO, from
    # 1000, underflows too; uflow_priority 0 picks LE).
    le = np.zeros(65, np.int64)
    le[0] = h16(1.0)
    assert out([0.125], lut_le_table=le, lut_le_function="exponent", lut_le_start=f32(0.0),
               lut_lo_start=f32(1000.0), lut_le_index_offset=-2, lut_le_slope_uflow_scale=h16(2.0),
               lut_hybrid_priority=0, lut_uflow_priority=0) == [0.75]


def test_overflow_slope_from_end():
    lo = np.zeros(257, np.int64)
    lo[256] = h16(3.0)
    # x = 300: index 300 >= 256: T[256] + (300 - lo_end 256) * 0.5 = 25.
    assert out([300.0], lut_lo_table=lo, lut_lo_slope_oflow_scale=h16(0.5)) == [25.0]
