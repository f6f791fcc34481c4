"""fp_nvdla.sdp_y_fp16 (the SDP's Y stage at precision FP16: multiplier,
ALU, register and memory operands, then the float LUT) against NVIDIA's v1
C model's own sdp_hls_wrapper::sdp_y (cmodel-check/lut_v1_glue.cpp's
v1_sdp_y_fp16, built by test_lut_float_ref.py's fixture) on random
configurations: 0 mismatches wanted. Skipped, saying why, where the v1
model is not built. Plus values worked by hand from the C model's code
(sdp_y_core.cpp, sdp_y_cvt.cpp), which need nothing."""

import ctypes

import numpy as np

import fp_nvdla as fp
from test_fp_nvdla import rand_fp16, rand_fp32
from test_lut_float_ref import cm, f32, h16, plausible  # noqa: F401 (cm: the fixture)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


LUT_KEYS = ("le_start", "le_end", "lo_start", "lo_end", "le_index_offset", "le_index_select",
            "lo_index_select", "le_slope_uflow_scale", "le_slope_oflow_scale",
            "lo_slope_uflow_scale", "lo_slope_oflow_scale", "uflow_priority", "oflow_priority",
            "hybrid_priority")


def cmodel_y(lib, x, alu_mem, mul_mem, cfg, lut):
    """The model's sdp_y on x (fp32 bits, a multiple of 16)."""
    x = np.ascontiguousarray(x, np.uint32)
    out = np.zeros_like(x)
    alu_op = cfg["alu_op"] if cfg["alu_src"] == fp.SRC_REG else 0
    mul_op = cfg["mul_op"] if cfg["mul_src"] == fp.SRC_REG else 0
    ew = np.array([cfg["alu_bypass"], cfg["alu_algo"], cfg["alu_src"], alu_op,
                   cfg["mul_bypass"], cfg["mul_src"], mul_op, cfg["mul_prelu"],
                   cfg["nan_to_zero"], int(lut is None)], np.int64).astype(np.uint32).view(np.int32)
    if lut is None:
        le, lo = np.zeros(65, np.int16), np.zeros(257, np.int16)
        r = np.zeros(15, np.int32)
    else:
        le, lo = lut["lut_le_table"], lut["lut_lo_table"]
        r = np.array([0 if lut["lut_le_function"] == "exponent" else 1] +
                     [lut["lut_" + k] for k in LUT_KEYS], np.int64).astype(np.uint32).view(np.int32)
    lib.v1_sdp_y_fp16(_p(x), _p(np.ascontiguousarray(alu_mem, np.uint16).view(np.int16)),
                      _p(np.ascontiguousarray(mul_mem, np.uint16).view(np.int16)), _p(out),
                      ctypes.c_int(len(x)), _p(np.ascontiguousarray(ew)),
                      _p(np.ascontiguousarray(le, np.int16)), _p(np.ascontiguousarray(lo, np.int16)),
                      _p(np.ascontiguousarray(r)))
    return out


def model_y(x, alu_mem, mul_mem, cfg, lut):
    kw = dict(cfg)
    if cfg["alu_src"] == fp.SRC_MEM:
        kw["alu_op"] = alu_mem
    if cfg["mul_src"] == fp.SRC_MEM:
        kw["mul_op"] = mul_mem
    return fp.sdp_y_fp16(x, lut=lut, **kw)


def rand_reg32(rng):
    """A register operand: mostly an fp16 value widened (what a compiler
    holding fp16 operands writes), else any fp32 bits (NaN, infinity,
    denormals, values beyond fp16)."""
    if rng.random() < 0.5:
        return int(fp.fp16_to_fp32(rand_fp16(rng, 1)[0]))
    return int(rand_fp32(rng, 1)[0]) if rng.random() < 0.8 else int(
        rng.choice([0x7FC00000, 0xFF800000, 0x7F800000, 0x00000001, 0x80000000, 0x7F7FFFFF]))


def rand_cfg(rng):
    return dict(alu_bypass=int(rng.random() < 0.3), alu_algo=int(rng.integers(0, 3)),
                alu_src=int(rng.integers(0, 2)), alu_op=rand_reg32(rng),
                mul_bypass=int(rng.random() < 0.3), mul_src=int(rng.integers(0, 2)),
                mul_op=rand_reg32(rng), mul_prelu=int(rng.random() < 0.3),
                nan_to_zero=int(rng.random() < 0.5))


def test_sdp_y_fp16_against_v1_cmodel(cm):  # noqa: F811
    rng = np.random.default_rng(1647)
    n = 16 * 16
    seen = np.zeros((2, 2, 2), int)  # [alu used][mul used][lut used]
    for case in range(240):
        cfg = rand_cfg(rng)
        x = rand_fp32(rng, n)
        if case % 5 == 0:  # the X stages' outputs of an fp16 layer: fp16 values
            x = fp.fp16_to_fp32(rand_fp16(rng, n))
        alu_mem, mul_mem = rand_fp16(rng, n), rand_fp16(rng, n)
        if case % 6 == 0:  # NaN / infinity operands, flushed or not
            alu_mem[::7] = 0x7E01
            mul_mem[3::7] = 0xFE00
            alu_mem[5::11] = 0x7C00
        if case % 4 == 0:  # cancellation: x + (-x * ...) near zero
            alu_mem[::3] = fp.fp32_to_fp16(x[::3] ^ np.uint32(0x80000000))
        lut = None
        if case % 3 == 0:
            le, lo, regs, _ = plausible(rng)
            lut = dict(regs, lut_le_table=le, lut_lo_table=lo)
        want = cmodel_y(cm, x, alu_mem, mul_mem, cfg, lut)
        got = model_y(x, alu_mem, mul_mem, cfg, lut)
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (case, cfg, [(hex(x[i]), hex(alu_mem[i]), hex(mul_mem[i]),
                                            hex(want[i]), hex(got[i])) for i in bad[:5]])
        seen[1 - cfg["alu_bypass"], 1 - cfg["mul_bypass"], int(lut is not None)] += 1
    assert seen.min() > 0, seen  # every combination of ALU, multiplier and LUT was run
    print("configurations (alu, mul, lut):", seen.tolist())


def y(x, **kw):
    x = np.array([f32(v) for v in x], np.uint32)
    return fp.sdp_y_fp16(x, **kw).view(np.float32).tolist()


def test_by_hand():
    # The multiplier comes before the ALU (sdp_y_core.cpp: Y_mul feeds Y_alu):
    # (3 * 2) + 1 = 7, not (3 + 1) * 2.
    assert y([3.0], mul_bypass=0, mul_op=f32(2.0), alu_bypass=0, alu_op=f32(1.0)) == [7.0]
    # A register operand is fp32 bits (EW_*_SRC_VALUE, 32 bits): 1 + 2^-20
    # is kept (no fp16 has it); a memory operand is fp16 bits.
    assert y([1.0], mul_bypass=0, mul_op=f32(1 + 2 ** -20)) == [1 + 2 ** -20]
    assert y([1.0], mul_bypass=0, mul_src=fp.SRC_MEM, mul_op=h16(0.5)) == [0.5]
    # NAN_TO_ZERO flushes a memory operand's NaN (the converter), not a register's.
    assert y([2.0], alu_bypass=0, alu_src=fp.SRC_MEM, alu_op=0x7E00, nan_to_zero=1) == [2.0]
    nan = fp.sdp_y_fp16(np.array([f32(2.0)], np.uint32), alu_bypass=0, alu_op=0x7FC00000,
                        nan_to_zero=1)
    assert int(nan[0]) == 0x7FC00000
    # PReLU: non-negative data pass, negative ones are multiplied; then max.
    assert y([2.0, -2.0], mul_bypass=0, mul_prelu=1, mul_op=f32(0.25), alu_bypass=0,
             alu_algo=fp.ALU_MAX, alu_op=f32(-0.25)) == [2.0, -0.25]
    # fp32 steps: the largest finite value on overflow, never infinity.
    assert y([3e38], mul_bypass=0, mul_op=f32(4.0)) == [float(np.float32(3.4028234663852886e38))]
