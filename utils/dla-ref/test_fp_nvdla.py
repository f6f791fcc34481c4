"""fp_nvdla.py (NVDLA's fp16 arithmetic in numpy) against NVIDIA's v1 C
model's own compiled functions on random inputs: cmodel-check/fp_v1_glue.cpp
built here against the model's library (scripts/build-nvdla-cmod-v1.sh) and
its sources (../shared/nvdla-hw-v1), loaded with ctypes. Skipped, saying
why, where the v1 model is not built. Plus values worked by hand, which
need nothing."""

import ctypes
import os
import subprocess
import tempfile

import numpy as np
import pytest

import fp_nvdla as fp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _glue_paths():
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    v1 = os.environ.get("NVDLA_HW_V1_DIR") or os.path.join(shared, "nvdla-hw-v1")
    master = os.environ.get("NVDLA_HW_DIR") or os.path.join(shared, "nvdla-hw")
    build = os.environ.get("DLA_BUILD") or os.path.join(ROOT, "build")
    lib = os.path.join(build, "nvdla-cmod-v1", "lib", "nv_full")
    return os.path.join(v1, "cmod"), os.path.join(master, "cmod", "hls", "include"), lib


@pytest.fixture(scope="module")
def cm():
    cmod, ac, lib = _glue_paths()
    for path, what in ((os.path.join(lib, "libnvdla_cmod.so"), "the v1 C model's library"),
                       (os.path.join(cmod, "cmac", "NV_NVDLA_cmac.h"), "the v1 sources"),
                       (os.path.join(ac, "ac_int.h"), "master's ac_types 3.9 headers")):
        if not os.path.exists(path):
            pytest.skip(f"no {what} ({path}): scripts/build-nvdla-cmod-v1.sh builds it")
    out = os.path.join(tempfile.mkdtemp(prefix="fp-v1-glue-"), "glue.so")
    # ac_types 3.9 first (v1's 3.7 does not compile with g++ 12; its
    # nvdla_float.h is master's), as the library was built.
    inc = [ac] + [os.path.join(cmod, d) for d in
                  ("hls/sdp", "hls/csc_libs", "hls/vlibs", "hls_wrapper", "include", "include/nvdla_ness_header", "cacc",
                   "cacc/gen", "cmac", "cmac/gen")]
    cmd = (["g++", "-std=c++17", "-O1", "-w", "-fPIC", "-shared",
            "-DSC_INCLUDE_DYNAMIC_PROCESSES"] + [f"-I{d}" for d in inc] +
           [os.path.join(HERE, "cmodel-check", "fp_v1_glue.cpp"), "-o", out, f"-L{lib}",
            f"-Wl,-rpath,{lib}", "-lnvdla_cmod", "-lsystemc"])
    run = subprocess.run(cmd, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    return ctypes.CDLL(out)


def _p(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _call(fn, *arrays_and_ints):
    args = [_p(v) if isinstance(v, np.ndarray) else ctypes.c_int(v) for v in arrays_and_ints]
    fn(*args)


# Random fp32 / fp16 bit patterns biased to the interesting places: equal
# and near exponents, zeros of both signs, denormals, the largest values,
# ties.

def rand_fp32(rng, n):
    s = rng.integers(0, 2, n).astype(np.uint64) << 31
    e = rng.choice([rng.integers(100, 156, n), rng.integers(1, 255, n), np.zeros(n, int),
                    np.full(n, 254), rng.integers(120, 135, n)], p=[.4, .2, .05, .05, .3])
    m = rng.integers(0, 1 << 23, n)
    m = np.where(rng.random(n) < 0.1, m & ~0xFFF | 0x1000, m)  # fp16 ties
    m = np.where(rng.random(n) < 0.05, 0, m)
    return (s | (e.astype(np.uint64) << 23) | m.astype(np.uint64)).astype(np.uint32)


def rand_fp16(rng, shape, zeros=0.1):
    n = int(np.prod(shape))
    s = rng.integers(0, 2, n) << 15
    e = rng.choice([rng.integers(1, 31, n), rng.integers(10, 20, n), np.zeros(n, int)],
                   p=[.45, .45, .1])
    m = rng.integers(0, 1 << 10, n)
    v = (s | (e << 10) | m).astype(np.uint16)
    v = np.where(rng.random(n) < zeros, (s & 0x8000).astype(np.uint16), v)
    return v.reshape(shape).astype(np.uint16)


def test_conversions(cm):
    rng = np.random.default_rng(1)
    f = rand_fp32(rng, 50000)
    f = np.concatenate([f, np.array([0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800400,
                                     0x477FF000, 0x477FEFFF, 0x33000000, 0x33000001,
                                     0x387FE000, 0x387FF000], np.uint32)])
    got = np.zeros(len(f), np.uint16)
    _call(cm.v1_fp32_to_fp16, f, got, len(f))
    np.testing.assert_array_equal(fp.fp32_to_fp16(f), got)
    h = np.arange(1 << 16, dtype=np.uint16)
    got32 = np.zeros(len(h), np.uint32)
    _call(cm.v1_fp16_to_fp32, h, got32, len(h))
    np.testing.assert_array_equal(fp.fp16_to_fp32(h), got32)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_fp32_ops(cm, op):
    rng = np.random.default_rng(2 if op == "add" else 3)
    n = 100000
    a, b = rand_fp32(rng, n), rand_fp32(rng, n)
    # Same and near magnitudes (cancellation), and x + (-x).
    b[:n // 4] = (a[:n // 4] ^ np.uint32(0x80000000)) + rng.integers(-3, 4, n // 4).astype(np.uint32)
    got = np.zeros(n, np.uint32)
    _call(getattr(cm, f"v1_fp32_{op}"), a, b, got, n)
    want = getattr(fp, f"fp32_{op}")(a, b)
    bad = np.nonzero(want != got)[0]
    assert len(bad) == 0, [(hex(a[i]), hex(b[i]), hex(want[i]), hex(got[i])) for i in bad[:5]]


def test_sdp_x_fp16(cm):
    rng = np.random.default_rng(4)
    for case in range(200):
        n = 16 * 8
        x = rand_fp32(rng, n)
        alu, mul = rand_fp16(rng, n), rand_fp16(rng, n)
        if case % 7 == 0:  # NaN operands, flushed or not
            alu[::5] = 0x7E01
        cfg = dict(alu_bypass=int(rng.random() < 0.3), alu_algo=int(rng.integers(0, 3)),
                   mul_bypass=int(rng.random() < 0.3), mul_prelu=int(rng.random() < 0.3),
                   relu_bypass=int(rng.random() < 0.5), nan_to_zero=int(rng.random() < 0.5))
        got = np.zeros(n, np.uint32)
        _call(cm.v1_sdp_x_fp16, x, alu, mul, n, cfg["alu_bypass"], cfg["alu_algo"],
              cfg["mul_bypass"], cfg["mul_prelu"], cfg["relu_bypass"], cfg["nan_to_zero"], got)
        want = fp.sdp_x_fp16(x, alu_op=alu, mul_op=mul, **cfg)
        np.testing.assert_array_equal(want, got, err_msg=str(cfg))
    h = np.zeros(n, np.uint16)
    _call(cm.v1_sdp_cvt_fp16, x, n, h, 0)
    np.testing.assert_array_equal(fp.sdp_cvt_fp16(x), h)


def test_sdp_pass_through_fp16(cm):
    """An fp16 SDP with every stage bypassed (the passes of dla.upsample and
    dla.interleave) on all 65,536 fp16 patterns: the model writes each
    unchanged (NaN payloads, subnormals, -0) but the infinities, which
    become +-65504 (SetToInf: NVDLA's infinity is the largest finite
    value); fp_nvdla's Fp16ToFp32 then sdp_cvt_fp16 says the same."""
    h = np.arange(1 << 16, dtype=np.uint16)
    got = np.zeros_like(h)
    _call(cm.v1_sdp_pass_fp16, h, h.size, got)
    np.testing.assert_array_equal(fp.sdp_cvt_fp16(fp.fp16_to_fp32(h)), got)
    assert np.flatnonzero(got != h).tolist() == [0x7c00, 0xfc00]
    assert (got[0x7c00], got[0xfc00]) == (0x7bff, 0xfbff)


def test_sdp_pass_through_fp16_by_hand():
    """fp_nvdla's pass through the fp16 SDP (what run_trace.py expects of
    the pass-through kinds): a quiet and a signalling NaN keep their
    payloads and sign, the smallest subnormal and -0 stay, infinities
    saturate."""
    h = np.array([0x7e00, 0xfd55, 0x7c01, 0x0001, 0x83ff, 0x8000, 0x7bff, 0x7c00, 0xfc00],
                 np.uint16)
    want = [0x7e00, 0xfd55, 0x7c01, 0x0001, 0x83ff, 0x8000, 0x7bff, 0x7bff, 0xfbff]
    assert fp.sdp_cvt_fp16(fp.fp16_to_fp32(h)).tolist() == want


def test_cmac_cacc_chains(cm):
    """Random atoms through CMAC, accumulated by CACC in chains of up to 12,
    each step's accumulator and its fp32 compared."""
    rng = np.random.default_rng(5)
    n, steps = 4000, 12
    ae = np.zeros(n, np.int64)
    am = np.zeros(n, np.int64)
    ge, gm = ae.copy(), am.copy()
    for step in range(steps):
        # Channels used: all, a few, none; some atoms with large exponent spread.
        used = rng.integers(0, 65, n)
        d = rand_fp16(rng, (n, 64), zeros=rng.choice([0.0, 0.3]))
        w = rand_fp16(rng, (n, 64), zeros=0.1)
        d[np.arange(64)[None, :] >= used[:, None]] = 0
        if step == 3:
            w[::97, 5] = 0x7E55  # NaN weights
        me, mm = fp.cmac_fp16(d, w)
        ce, cmm = np.zeros(n, np.int64), np.zeros(n, np.int64)
        _call(cm.v1_cmac_fp16, d.copy(), w.copy(), n, ce, cmm)
        np.testing.assert_array_equal(me, ce)
        np.testing.assert_array_equal(mm, cmm)
        ae, am = fp.cacc_add(ae, am, me, mm)
        _call(cm.v1_cacc_add, ge, gm, ce, cmm, n)
        np.testing.assert_array_equal(ae, ge, err_msg=f"step {step}")
        np.testing.assert_array_equal(am, gm, err_msg=f"step {step}")
        got = np.zeros(n, np.uint32)
        _call(cm.v1_cacc_to_fp32, ge, gm, n, got)
        np.testing.assert_array_equal(fp.cacc_to_fp32(ae, am), got, err_msg=f"step {step}")


def _special_fp16(rng, shape, p=0.02):
    """rand_fp16 with a few infinities, NaNs and largest finite values."""
    v = rand_fp16(rng, shape)
    pick = rng.random(shape)
    sgn = (rng.integers(0, 2, shape) << 15).astype(np.uint16)
    v = np.where(pick < p, sgn | 0x7C00, v)
    v = np.where((pick >= p) & (pick < 2 * p), sgn | 0x7E00 | rng.integers(0, 0x200, shape), v)
    v = np.where((pick >= 2 * p) & (pick < 3 * p), sgn | 0x7BFF, v)
    return v.astype(np.uint16)


def test_csc_pra_fp16(cm):
    """Winograd's input transform: random tiles (near exponents, so the
    fp17 steps cancel and round; zeros; denormals; a few infinities, NaNs,
    largest values) against NV_NVDLA_CSC_pra_cell at FP16."""
    rng = np.random.default_rng(47)
    n = 20000
    t = rand_fp16(rng, (n, 16))
    t[n // 2:] = _special_fp16(rng, (n - n // 2, 16))
    # Equal magnitudes (exact cancellation) and ties at fp17's last bit.
    t[:2000, 8:12] = t[:2000, 0:4]
    t[2000:4000, 4:8] = t[2000:4000, 8:12] ^ 0x8000
    got = np.zeros((n, 16), np.uint16)
    _call(cm.v1_csc_pra_fp16, t.copy(), n, got)
    want = fp.csc_pra_fp16(t)
    bad = np.nonzero((want != got).any(axis=1))[0]
    assert len(bad) == 0, [(t[i], want[i], got[i]) for i in bad[:3]]


def test_cmac_wino_cacc_chains(cm):
    """Random cells in Winograd mode (16 positions x 4 channels) through
    CMAC, the four words accumulated by CACC in chains of up to 10, each
    step's accumulators and fp32 compared with the compiled functions."""
    rng = np.random.default_rng(48)
    n, steps = 3000, 10
    ae = np.zeros((n, 4), np.int64)
    am = np.zeros((n, 4), np.int64)
    ge, gm = ae.copy(), am.copy()
    for step in range(steps):
        used = rng.integers(0, 5, n)  # channels of the group present
        d = rand_fp16(rng, (n, 16, 4), zeros=rng.choice([0.0, 0.3]))
        w = rand_fp16(rng, (n, 16, 4), zeros=0.1)
        d[np.broadcast_to(np.arange(4)[None, None, :] >= used[:, None, None], d.shape)] = 0
        d, w = d.reshape(n, 64), w.reshape(n, 64)
        if step == 4:
            w[::89, 7] = 0x7E55  # NaN weights
            d[5::101, 20] = 0xFD01  # NaN data
        me, mm = fp.cmac_wino_fp16(d, w)
        ce, cmm = np.zeros((n, 4), np.int64), np.zeros((n, 4), np.int64)
        _call(cm.v1_cmac_wino_fp16, d.copy(), w.copy(), n, ce, cmm)
        np.testing.assert_array_equal(me, ce, err_msg=f"step {step}")
        np.testing.assert_array_equal(mm, cmm, err_msg=f"step {step}")
        ae, am = fp.cacc_add(ae, am, me, mm)
        _call(cm.v1_cacc_add, ge, gm, ce, cmm, 4 * n)
        np.testing.assert_array_equal(ae, ge, err_msg=f"step {step}")
        np.testing.assert_array_equal(am, gm, err_msg=f"step {step}")
        got = np.zeros((n, 4), np.uint32)
        _call(cm.v1_cacc_to_fp32, ge, gm, 4 * n, got)
        np.testing.assert_array_equal(fp.cacc_to_fp32(ae, am), got, err_msg=f"step {step}")


BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]], np.float64)
AT = np.array([[1, 1, 1, 0], [0, 1, -1, -1]], np.float64)


def _wino_f64(x, taps, pad, pad_value):
    """F(2x2, 3x3) in float64 from the same taps: A^T (sum_c (B^T d B) T) A."""
    C, H, W = x.shape
    K = taps.shape[0]
    pt, pb, pl, pr = pad
    OH, OW = H + pt + pb - 2, W + pl + pr - 2
    th, tw = -(-OH // 2), -(-OW // 2)
    xp = np.full((C, 2 * th + 2, 2 * tw + 2), pad_value, np.float64)
    kh, kw = min(H, 2 * th + 2 - pt), min(W, 2 * tw + 2 - pl)
    xp[:, pt:pt + kh, pl:pl + kw] = x[:, :kh, :kw]
    y = np.zeros((K, 2 * th, 2 * tw))
    for ty in range(th):
        for tx in range(tw):
            d = xp[:, 2 * ty:2 * ty + 4, 2 * tx:2 * tx + 4]
            v = BT @ d @ BT.T                                  # [C, 4, 4]
            m = (v[None] * taps[:, :C]).sum(axis=1)          # [K, 4, 4]
            y[:, 2 * ty:2 * ty + 2, 2 * tx:2 * tx + 2] = AT @ m @ AT.T
    return y[:, :OH, :OW]


def test_conv_wino_fp16_exact_and_close():
    """conv_wino_fp16 where nothing rounds (small integers: the PRA's fp17
    sums, the aligned products and CACC exact) equals float64 Winograd from
    the same taps; on random normal data it is within fp16's precision of
    it (the layer's composition: tile positions, channel groups, the
    output tile's order)."""
    rng = np.random.default_rng(49)
    for case in range(6):
        C, K = int(rng.integers(1, 11)), int(rng.integers(1, 6))
        H, W = int(rng.integers(2, 9)), int(rng.integers(2, 9))
        pad = tuple(int(v) for v in rng.integers(0, 3, 4))
        x = rng.integers(-8, 9, (C, H, W)).astype(np.float16)
        taps = rng.integers(-8, 9, (K, C + int(rng.integers(0, 4)), 4, 4)).astype(np.float16)
        pv = float(rng.integers(-3, 4))
        got = fp.conv_wino_fp16(x.view(np.uint16), taps.view(np.uint16), pad,
                                np.float16(pv).view(np.uint16)).view(np.float32)
        want = _wino_f64(x.astype(np.float64), taps.astype(np.float64), pad, pv)
        np.testing.assert_array_equal(got, want, err_msg=f"case {case}")
        xr = rng.standard_normal((C, H, W)).astype(np.float16)
        tr = rng.standard_normal(taps.shape).astype(np.float16)
        got = fp.conv_wino_fp16(xr.view(np.uint16), tr.view(np.uint16), pad).view(np.float32)
        want = _wino_f64(xr.astype(np.float64), tr.astype(np.float64), pad, 0.0)
        scale = np.abs(want).max() + 1
        assert np.abs(got - want).max() <= 2.0 ** -8 * scale * 4, case


# Values worked by hand from the C model's code (no C model needed).

def rand_fp17(rng, n):
    """fp17 patterns (6-bit exponent) biased to near exponents, zeros and
    the largest values."""
    s = rng.integers(0, 2, n) << 16
    e = rng.choice([rng.integers(25, 38, n), rng.integers(0, 64, n), np.zeros(n, int),
                    np.full(n, 62)], p=[.5, .35, .05, .1])
    m = np.where(rng.random(n) < 0.05, 0, rng.integers(0, 1 << 10, n))
    return (s | (e << 10) | m).astype(np.uint32)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_fp17_ops(cm, op):
    rng = np.random.default_rng(17 + (op == "mul"))
    n = 100_000
    a, b = rand_fp17(rng, n), rand_fp17(rng, n)
    b = np.where(rng.random(n) < 0.25, a ^ (1 << 16) ^ rng.integers(0, 4, n), b).astype(np.uint32)
    want = np.zeros(n, np.uint32)
    _call(cm.v1_fp17_binary, 0 if op == "add" else 1, a, b, want, n)
    got = (fp.fp_add if op == "add" else fp.fp_mul)(a, b, 6, 10)
    bad = np.flatnonzero(want != got)
    assert bad.size == 0, [(hex(a[i]), hex(b[i]), hex(want[i]), hex(got[i])) for i in bad[:5]]


def test_fp17_conversions(cm):
    rng = np.random.default_rng(1717)
    for op, src, fn in ((0, np.arange(1 << 16, dtype=np.uint32), fp.fp16_to_fp17),
                        (1, rand_fp32(rng, 100_000), fp.fp32_to_fp17),
                        (2, np.arange(1 << 17, dtype=np.uint32), fp.fp17_to_fp32)):
        want = np.zeros(src.size, np.uint32)
        _call(cm.v1_fp17_convert, op, src, want, src.size)
        got = fn(src)
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (op, [(hex(src[i]), hex(want[i]), hex(got[i])) for i in bad[:5]])


def test_fp17_to_fp16(cm):
    """Every fp17 pattern through HLS_fp17_to_fp16 (the PDP's average out)."""
    src = np.arange(1 << 17, dtype=np.uint32)
    want = np.zeros(src.size, np.uint32)
    _call(cm.v1_fp17_convert, 3, src, want, src.size)
    got = fp.fp17_to_fp16(src)
    bad = np.flatnonzero(want != got)
    assert bad.size == 0, [(hex(src[i]), hex(want[i]), hex(got[i])) for i in bad[:5]]


def _pdp_operands(rng, n, method):
    """Line-buffer words (fp17 for average, fp16 otherwise, with junk above
    the pattern as the C model's sign-extending stores leave), fp16 inputs
    with NaNs and infinities, first flags, padding registers (mostly 0)."""
    x = rand_fp16(rng, n, zeros=0.15)
    x[rng.random(n) < 0.02] = 0x7E13
    x[rng.random(n) < 0.02] = 0xFC00
    if method == 0:
        line = rand_fp17(rng, n)
        line = np.where(line >> 16, line | 0xFFFE0000, line).astype(np.uint32)
    else:
        line = rand_fp16(rng, n).astype(np.uint32)
        line = np.where(line >> 15, line | 0xFFFF0000, line).astype(np.uint32)
    first = (rng.random(n) < 0.3).astype(np.uint8)
    pads = [np.where(rng.random(n) < 0.6, 0, rand_fp17(rng, n)).astype(np.uint32) for _ in range(2)]
    return x, line, first, pads


@pytest.mark.parametrize("method", [0, 1, 2])
def test_pdp_fp16_steps(cm, method):
    """The PDP's three fp16 steps (HLS_PDP_PoolingStage0Calc_FP16_W / _H,
    HLS_PDP_PoolingStage1Calc_FP16) against pdp_w_step, pdp_h_step and
    pdp_stage1 on random line buffers, inputs and registers (kernel widths
    1..8: at 8 with padding values 0, what the model reads past its table of
    widths is multiplied by 0)."""
    name = (fp.POOL_AVERAGE, fp.POOL_MAX, fp.POOL_MIN)[method]
    keep = 0x1FFFF if method == 0 else 0xFFFF
    rng = np.random.default_rng(470 + method)
    n = 50_000
    x, line, first, (pl, pr) = _pdp_operands(rng, n, method)
    got = line.copy()
    _call(cm.v1_pdp_w, method, first, pl, pr, got, x, n)
    want = fp.pdp_w_step(first.astype(bool), pl, pr, name, line, x)
    bad = np.flatnonzero((got & keep) != (want & keep))
    assert bad.size == 0, [(hex(line[i]), hex(x[i]), first[i], hex(pl[i]), hex(pr[i]),
                            hex(got[i]), hex(want[i])) for i in bad[:5]]
    for kw in range(1, 9):
        _, line, first, (pt, pb) = _pdp_operands(rng, n // 7, method)
        if kw == 8:  # past kernel_width_map: only with padding values 0
            pt, pb = np.zeros_like(pt), np.zeros_like(pb)
        row, _, _, _ = _pdp_operands(rng, n // 7, method)
        row = rand_fp17(rng, n // 7) if method == 0 else row.astype(np.uint32)
        got = line.copy()
        _call(cm.v1_pdp_h, method, first, pt, pb, kw, got, row, n // 7)
        want = fp.pdp_h_step(first.astype(bool), pt, pb, kw, name, line, row)
        bad = np.flatnonzero((got & keep) != (want & keep))
        assert bad.size == 0, (kw, [(hex(line[i]), hex(row[i]), first[i], hex(pt[i]), hex(pb[i]),
                                     hex(got[i]), hex(want[i])) for i in bad[:5]])
    sums = rand_fp17(rng, n) if method == 0 else rand_fp16(rng, n).astype(np.uint32)
    table = np.array(fp.PDP_RECIP_FP17, np.uint32)
    rw = np.where(rng.random(n) < 0.7, table[rng.integers(0, 8, n)], rand_fp17(rng, n)).astype(np.uint32)
    rh = np.where(rng.random(n) < 0.7, table[rng.integers(0, 8, n)], rand_fp17(rng, n)).astype(np.uint32)
    got = np.zeros(n, np.uint16)
    _call(cm.v1_pdp_stage1, method, rw, rh, sums, got, n)
    want = fp.pdp_stage1(name, rw, rh, sums)
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(hex(sums[i]), hex(rw[i]), hex(rh[i]), hex(got[i]), hex(want[i]))
                           for i in bad[:5]]


def test_fp16_cmp(cm):
    rng = np.random.default_rng(4716)
    n = 100_000
    a, b = rand_fp16(rng, n, zeros=0.2), rand_fp16(rng, n, zeros=0.2)
    b = np.where(rng.random(n) < 0.2, a ^ 0x8000, b).astype(np.uint16)
    a[rng.random(n) < 0.03] = 0x7C01
    b[rng.random(n) < 0.03] = 0xFE00
    for op, fn in ((0, fp.fp16_max), (1, fp.fp16_min)):
        got = np.zeros(n, np.uint16)
        _call(cm.v1_fp16_cmp, op, a, b, got, n)
        np.testing.assert_array_equal(fn(a, b), got)


def _f32(v):
    return int(np.float32(v).view(np.uint32))


def rand_cdp_lut(rng):
    """Random float-mode CDP LUT registers: LE exponent or linear, LO
    linear, starts at 0 or elsewhere (fp32), ends where the tables end or
    not, fp16 entries and slopes of either sign, every priority."""
    exp_mode = rng.random() < 0.6
    off = int(rng.integers(-30, 10))
    le_sel, lo_sel = int(rng.integers(-12, 20)), int(rng.integers(-16, 16))
    le_start = 0.0 if rng.random() < 0.5 else float(rng.choice([-1, 1]) * 2.0 ** rng.integers(-20, 10))
    lo_start = 0.0 if rng.random() < 0.5 else float(rng.choice([-1, 1]) * 2.0 ** rng.integers(-20, 10))
    le_end = le_start + (2.0 ** (off + 64) if exp_mode else 64 * 2.0 ** le_sel)
    lo_end = lo_start + 256 * 2.0 ** lo_sel
    if rng.random() < 0.2:
        le_end, lo_end = le_end * 0.75, lo_end * 1.5

    def slope():
        return int(rng.choice([0, 0, int(rand_fp16(rng, 1)[0])]))

    return dict(lut_le_table=rand_fp16(rng, 65, zeros=0.05),
                lut_lo_table=rand_fp16(rng, 257, zeros=0.05),
                lut_le_function="exponent" if exp_mode else "linear",
                lut_le_index_offset=off & 0xFF, lut_le_index_select=le_sel & 0xFF,
                lut_lo_index_select=lo_sel & 0xFF,
                lut_le_start=_f32(le_start), lut_le_end=_f32(le_end),
                lut_lo_start=_f32(lo_start), lut_lo_end=_f32(lo_end),
                lut_le_slope_uflow_scale=slope(), lut_le_slope_oflow_scale=slope(),
                lut_lo_slope_uflow_scale=slope(), lut_lo_slope_oflow_scale=slope(),
                lut_uflow_priority=int(rng.integers(0, 2)),
                lut_oflow_priority=int(rng.integers(0, 2)),
                lut_hybrid_priority=int(rng.integers(0, 2)))


def _cdp_windows(rng, n):
    """n windows of 12 fp16 values, magnitudes of one window alike (so sums
    land in the tables), zeros of both signs, denormals, infinities, NaNs."""
    e = rng.integers(0, 31, (n, 1)) + rng.integers(-3, 4, (n, 12))
    e = np.clip(e, 0, 30)
    m = rng.integers(0, 1 << 10, (n, 12))
    s = rng.integers(0, 2, (n, 12))
    w = (s << 15) | (e << 10) | m
    w = np.where(rng.random((n, 12)) < 0.08, s << 15, w)
    w = np.where(rng.random((n, 12)) < 0.01, 0x7C00 | (s << 15), w)
    w = np.where(rng.random((n, 12)) < 0.01, 0x7E13, w)
    return w.astype(np.uint16)


def _cdp_model(cm, win, size, lut):
    regs = np.array([CDP_LEN[size], lut["lut_le_function"] == "linear", lut["lut_uflow_priority"],
                     lut["lut_oflow_priority"], lut["lut_hybrid_priority"],
                     lut["lut_le_index_offset"], lut["lut_le_index_select"],
                     lut["lut_lo_index_select"], lut["lut_le_slope_uflow_scale"],
                     lut["lut_le_slope_oflow_scale"], lut["lut_lo_slope_uflow_scale"],
                     lut["lut_lo_slope_oflow_scale"]], np.int32)
    edges = np.array([lut["lut_le_start"], lut["lut_le_end"], lut["lut_lo_start"],
                      lut["lut_lo_end"]], np.uint32)
    out = np.zeros((len(win), 4), np.uint16)
    _call(cm.v1_cdp_lookup_fp16, np.ascontiguousarray(win), len(win), regs, edges,
          np.asarray(lut["lut_le_table"], np.uint16), np.asarray(lut["lut_lo_table"], np.uint16),
          out)
    return out


CDP_LEN = {3: 0, 5: 1, 7: 2, 9: 3}


def test_cdp_lookup_fp16(cm):
    """HLS_CDP_lookup_fp16 (the CDP's fp16 datapath: input converter, fp32
    squares and square sum, the LE / LO lookups in float mode, the product,
    the output converter) against fp_nvdla.cdp_window_fp16 on random
    registers and windows; every table path taken."""
    rng = np.random.default_rng(4747)
    paths = np.zeros(3, int)
    for case in range(120):
        lut = rand_cdp_lut(rng)
        size = (3, 5, 7, 9)[case % 4]
        win = _cdp_windows(rng, 400)
        got = _cdp_model(cm, win, size, lut)
        want = fp.cdp_window_fp16(win, size, lut)
        bad = np.flatnonzero((got != want).any(-1))
        assert bad.size == 0, (case, size, {k: v for k, v in lut.items() if "table" not in k},
                               [([hex(v) for v in win[i]], [hex(v) for v in got[i]],
                                 [hex(v) for v in want[i]]) for i in bad[:3]])
        x32 = fp.fp16_to_fp32(win)
        s = fp.cdp_square_sum_fp16(fp.fp32_mul(x32, x32)[:, 0:9], size)
        r = fp.cdp_lookup_fp16(s, 256, False, lut["lut_lo_table"], lut["lut_lo_start"],
                               lut["lut_lo_end"], 0, 0, 0,
                               fp._sext(lut["lut_lo_index_select"], 8))
        paths += [(~r[1] & ~r[2]).sum(), r[1].sum(), r[2].sum()]
    assert (paths > 1000).all(), paths


def test_cdp_fp16_cube(cm):
    """fp_nvdla.cdp_fp16 on whole cubes (channels padded with +0 as the C
    model pads them, NaN flush) against the model's windows built the same
    way NV_NVDLA_cdp.cpp feeds them: channels c-4 .. c+7 for outputs c..c+3."""
    rng = np.random.default_rng(4748)
    for case in range(12):
        C = int(rng.integers(1, 20))
        w = np.concatenate([_cdp_windows(rng, 6), _cdp_windows(rng, 6)], 1)  # [6, 24]
        x = np.ascontiguousarray(w[:, :C].T).reshape(C, 2, 3)
        lut = rand_cdp_lut(rng)
        size = (3, 5, 7, 9)[case % 4]
        nan0 = bool(case % 3 == 0)
        want = fp.cdp_fp16(x, size, lut, nan_to_zero=nan0)
        xin = np.where(fp._fp16_nan(x), 0, x) if nan0 else x
        groups = -(-C // 4)
        pad = np.zeros((groups * 4 + 8, 2, 3), np.uint16)
        pad[4:4 + C] = xin
        wins = np.stack([np.moveaxis(pad[4 * g:4 * g + 12], 0, -1) for g in range(groups)])
        got = _cdp_model(cm, wins.reshape(-1, 12), size, lut).reshape(groups, 2, 3, 4)
        got = np.moveaxis(got, -1, 1).reshape(groups * 4, 2, 3)[:C]
        np.testing.assert_array_equal(want, got, err_msg=str((case, C, size)))

@pytest.mark.parametrize("pixel", ["u8", "s8", "u16", "s16"])
def test_cdma_cvt_image_fp16(cm, pixel):
    """CDMA's converter of integer pixels into an fp16 pipeline against the
    model's cdma_cvt_hls (what hls_convertor calls per component): every
    8-bit component, random 16-bit ones, means / offsets, scales and
    truncates over their fields, biased to results near fp16's range end
    and to rounding ties."""
    rng = np.random.default_rng({"u8": 41, "s8": 42, "u16": 43, "s16": 44}[pixel])
    n = 60000
    bits = 8 if pixel.endswith("8") else 16
    signed = pixel.startswith("s")
    raw = rng.integers(0, 1 << bits, n)
    if bits == 8:
        raw[:256] = np.arange(256)
    sx = np.where(signed & (raw >= 1 << (bits - 1)), raw - (1 << bits), raw)
    alu = np.where(rng.random(n) < 0.5, rng.integers(-300, 301, n), rng.integers(-32768, 32768, n))
    scale = int(rng.integers(-32768, 32768))
    for _ in range(6):
        scales = rng.choice([1, -1, scale, int(rng.integers(1, 4096)), int(rng.integers(-32768, 32768))])
        truncate = int(rng.integers(0, 64))
        # The 16-bit bits as the model holds them (an int16_t).
        raw16 = np.where(raw >= 1 << 15, raw - (1 << 16), raw).astype(np.int32)
        got = np.zeros(n, np.int32)
        kind = {"u8": 0, "s8": 1, "u16": 2, "s16": 3}[pixel]
        _call(cm.v1_cdma_cvt, raw16, alu.astype(np.int32), n, kind, int(scales), 0 if bits == 8 else 1,
              2, truncate, got)
        want = fp.cdma_cvt_image_fp16(sx, signed=signed, alu=alu, scale=int(scales),
                                      truncate=truncate)
        np.testing.assert_array_equal(want, got.astype(np.uint16))


def test_sdp_cvt_fp16_to_int16(cm):
    """The output converter at precision FP16 writing INT16 (sdp_c.cpp:
    Fp32ToFp16, then Fp16ToInt16) on every fp16 value (widened, so that
    Fp32ToFp16 keeps it: halves, denormals, +-65504, infinity, NaN) and on
    random fp32 values."""
    every = fp.fp16_to_fp32(np.arange(1 << 16, dtype=np.uint32).astype(np.uint16))
    x = np.concatenate([every.astype(np.uint32),
                        np.random.default_rng(47).integers(0, 1 << 32, 1 << 16, dtype=np.uint64)
                        .astype(np.uint32)])
    got = np.zeros(x.size, np.uint16)
    _call(cm.v1_sdp_cvt_fp16, x, x.size, got, 1)
    np.testing.assert_array_equal(fp.sdp_cvt_fp16(x, out_int16=True), got.view(np.int16))


def test_fp16_to_int16_by_hand():
    """Halves away from zero, saturation by the sign, NaN -32768."""
    h = np.array([0.5, -0.5, 1.5, 2.5, -2.5, 0.49951171875, 32767.0, 32768.0, -32768.0, 65504.0,
                  -65504.0, np.inf, -np.inf, np.nan, 6e-8, -0.0], np.float16).view(np.uint16)
    want = [1, -1, 2, 3, -3, 0, 32767, 32767, -32768, 32767, -32768, 32767, -32768, -32768, 0, 0]
    np.testing.assert_array_equal(fp.fp16_to_int16(h), want)


def test_int17_to_fp16_every_value():
    """Int17ToFp16 by hand on all 2^17 values: exact up to 2048, then round
    to nearest even, saturating at 65504 (numpy's float16 rounds the same
    way but overflows to infinity)."""
    t = np.arange(-(1 << 16), 1 << 16)
    with np.errstate(over="ignore"):
        want = np.clip(t.astype(np.float16).astype(np.float64), -65504, 65504).astype(np.float16)
    np.testing.assert_array_equal(fp.int17_to_fp16(t), want.view(np.uint16))



def test_by_hand():
    # Overflow saturates to the largest finite value, not infinity.
    assert fp.fp32_to_fp16(np.uint32(0x47800000)) == 0x7BFF  # 65536
    assert fp.fp32_to_fp16(np.uint32(0x477FF000)) == 0x7BFF  # 65520 rounds up: saturates
    assert fp.fp16_to_fp32(np.uint16(0x7C00)) == 0x7F7FFFFF  # inf -> FLT_MAX
    # Ties to even in fp16, and the smallest denormal's tie rounds to 0.
    assert fp.fp32_to_fp16(np.uint32(0x3F801000)) == 0x3C00  # 1 + 2^-11
    assert fp.fp32_to_fp16(np.uint32(0x3F803000)) == 0x3C02
    assert fp.fp32_to_fp16(np.uint32(0x33000000)) == 0x0000  # 2^-25
    assert fp.fp32_to_fp16(np.uint32(0x33000001)) == 0x0001
    # FpAdd: 1 + 2^-26 (1 ulp is 2^-23) is 1.
    one = np.uint32(0x3F800000)
    assert fp.fp32_add(one, np.uint32(0x32800000)) == one
    # x + (-x) is +0 or -0 by the larger operand's sign (a >= b: a's).
    assert fp.fp32_add(np.uint32(0xBF800000), one) == 0x80000000
    assert fp.fp32_add(one, np.uint32(0xBF800000)) == 0x00000000
    # CMAC: 1.0 * 1.0: exponents 15 -> groups 3 + 3 = 6, max exponent 24,
    # mantissas 1024 << 3 each: 2^26, value 2^26 * 2^(24 - 50) = 1.
    d = np.zeros(64, np.uint16)
    w = np.zeros(64, np.uint16)
    d[0] = w[0] = 0x3C00
    e, m = fp.cmac_fp16(d, w)
    assert (int(e), int(m)) == (24, 1 << 26)
    ae, am = fp.cacc_add(0, 0, e, m)
    assert fp.cacc_to_fp32(ae, am) == 0x3F800000
    # PDP average of a 3x3 window of ones: 9 (fp17 0x8880) times 1/3 in
    # fp17 (0x7555, 0.333251953125) is 2.99927, 1.49963 * 2, whose 10-bit
    # mantissa 511.6 rounds to 3.0; 3 * 0x7555 = 0.99976 is 1.99951 / 2,
    # mantissa 1023.5: a tie, to even, 1.0.
    ones = np.full((1, 3, 3), 0x3C00, np.uint16)
    assert fp.pdp_fp16(ones, "average", (3, 3))[0, 0, 0] == 0x3C00
    assert fp.fp17_mul(0x8880, 0x7555) == 0x8200
    assert fp.fp17_mul(0x8200, 0x7555) == 0x7C00
    # fp17 -> fp16: 2^-25 * 1.5 rounds to the smallest denormal, 2^-25 to 0.
    assert fp.fp17_to_fp16((6 << 10) | 0x200) == 0x0001
    assert fp.fp17_to_fp16(6 << 10) == 0x0000
    # Max / min ignore padding; +0 > -0; a NaN in the line buffer wins.
    assert fp.fp16_max(0x8000, 0x0000) == 0x0000 and fp.fp16_min(0x0000, 0x8000) == 0x8000
    assert fp.pdp_w_step(False, 0, 0, "max", 0x7E01, 0x3C00) == 0x7E01
