"""The format library's fp16 convolution arithmetic (NvdlaConvFp16.cpp through
the C API: dla.nvdla_cmac_fp16, nvdla_cacc_add, nvdla_cacc_to_fp32,
nvdla_conv_fp16, nvdla_sdp_x_fp16) against utils/dla-ref/fp_nvdla.py, the
numpy model checked bit for bit against NVIDIA's v1 C model
(test_fp_nvdla.py): random inputs biased to zeros of both signs, denormals,
cancellation, large exponent spreads and NaN; 0 mismatches wanted."""

import numpy as np
import pytest

import dla
import fp_nvdla as fp
from test_fp_nvdla import rand_fp16, rand_fp32


def _cancelling_atoms(rng, n):
    """Atoms whose products cancel: each channel's weight paired with the
    negated weight on another channel, data equal or nearly so."""
    d = rand_fp16(rng, (n, 64), zeros=0.0)
    w = rand_fp16(rng, (n, 64), zeros=0.0)
    d[:, 32:] = d[:, :32] + rng.integers(0, 2, (n, 32)).astype(np.uint16)
    w[:, 32:] = w[:, :32] ^ np.uint16(0x8000)
    return d, w


def test_cmac_cacc_chains():
    """Chains of 12 random atoms through CMAC and CACC (as test_fp_nvdla's
    against the C model): every CMAC word, accumulator and fp32."""
    rng = np.random.default_rng(47)
    n, steps = 4000, 12
    ae, am = np.zeros(n, np.int64), np.zeros(n, np.int64)
    for step in range(steps):
        used = rng.integers(0, 65, n)
        if step % 4 == 2:
            d, w = _cancelling_atoms(rng, n)
        else:
            d = rand_fp16(rng, (n, 64), zeros=rng.choice([0.0, 0.3]))
            w = rand_fp16(rng, (n, 64), zeros=0.1)
        d[np.arange(64)[None, :] >= used[:, None]] = 0
        if step == 3:
            w[::97, 5] = 0x7E55  # NaN weights
            d[::89, 7] = 0xFE01  # NaN data
            d[::13, 9] = 0x8000  # -0
        want_e, want_m = fp.cmac_fp16(d, w)
        got_e, got_m = dla.nvdla_cmac_fp16(d, w)
        np.testing.assert_array_equal(want_e, got_e, err_msg=f"step {step}")
        np.testing.assert_array_equal(want_m, got_m, err_msg=f"step {step}")
        new_e, new_m = fp.cacc_add(ae, am, want_e, want_m)
        got_e, got_m = dla.nvdla_cacc_add(ae, am, want_e, want_m)
        np.testing.assert_array_equal(new_e, got_e, err_msg=f"step {step}")
        np.testing.assert_array_equal(new_m, got_m, err_msg=f"step {step}")
        ae, am = new_e, new_m
        np.testing.assert_array_equal(fp.cacc_to_fp32(ae, am), dla.nvdla_cacc_to_fp32(ae, am),
                                      err_msg=f"step {step}")


def test_cacc_random_words():
    """CACC on accumulators and words of random bits (every exponent,
    mantissas of every size and sign, NaN exponents)."""
    rng = np.random.default_rng(48)
    n = 100000
    ae = rng.integers(0, 256, n)
    am = fp._sext(rng.integers(0, 1 << 40, n) >> rng.integers(0, 40, n), 40)
    me = rng.integers(0, 64, n)
    mm = fp._sext(rng.integers(0, 1 << 38, n) >> rng.integers(0, 38, n), 38)
    mm[::50] = 0
    am[::70] = 0
    want = fp.cacc_add(ae, am, me, mm)
    got = dla.nvdla_cacc_add(ae, am, me, mm)
    np.testing.assert_array_equal(want[0], got[0])
    np.testing.assert_array_equal(want[1], got[1])
    np.testing.assert_array_equal(fp.cacc_to_fp32(ae, am), dla.nvdla_cacc_to_fp32(ae, am))


def _case(rng):
    C = int(rng.choice([1, 3, 16, 64, 70, 130]))
    K = int(rng.integers(1, 5))
    R, S = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    stride = tuple(int(v) for v in rng.integers(1, 3, 2))
    dil = tuple(int(v) for v in rng.integers(1, 3, 2))
    pad = tuple(int(v) for v in rng.integers(0, 2, 4))
    H = int(rng.integers((R - 1) * dil[0] + 1, 11))
    W = int(rng.integers((S - 1) * dil[1] + 1, 11))
    x = rand_fp16(rng, (C, H, W), zeros=0.2)
    w = rand_fp16(rng, (K, C, R, S), zeros=0.1)
    # Denormals and values whose products cancel.
    x[rng.random(x.shape) < 0.05] = rng.integers(1, 1024, 1)[0]
    h = C // 2
    if h and rng.random() < 0.4:  # the second half of the channels cancels the first
        w[:, h:2 * h] = w[:, :h] ^ np.uint16(0x8000)
        x[h:2 * h] = x[:h]
    return x, w, stride, pad, dil


def test_conv_fp16():
    rng = np.random.default_rng(4747)
    total = 0
    for _ in range(60):
        x, w, stride, pad, dil = _case(rng)
        want = fp.conv_fp16(x, w, stride=stride, pad=pad, dilation=dil)
        got = dla.nvdla_conv_fp16(x, w, stride=stride, pad=pad, dilation=dil)
        assert want.shape == got.shape
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (x.shape, w.shape, stride, pad, dil, bad[:5])
        total += want.size
    assert total > 2000


def test_conv_fp16_nan():
    """NaN weights and data (convFp16 looks NaN up per atom beforehand):
    NaN in channels whose weight is zero, in padding's reach, in one atom
    of two."""
    rng = np.random.default_rng(4748)
    for case in range(30):
        x, w, stride, pad, dil = _case(rng)
        if case % 3 != 1:
            x.reshape(-1)[rng.integers(0, x.size, 2)] = rng.choice([0x7E01, 0xFD55, 0x7C01])
        if case % 3 != 0:
            w.reshape(-1)[rng.integers(0, w.size, 1)] = rng.choice([0x7E77, 0xFC02])
        w[:, ::3] = 0  # zero weights: a NaN datum there still decides its atom
        want = fp.conv_fp16(x, w, stride=stride, pad=pad, dilation=dil)
        got = dla.nvdla_conv_fp16(x, w, stride=stride, pad=pad, dilation=dil)
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (case, x.shape, w.shape, bad[:5], want.ravel()[bad[:3]],
                               got.ravel()[bad[:3]])


def test_sdp_x_fp16():
    rng = np.random.default_rng(49)
    for case in range(200):
        n = 256
        x = rand_fp32(rng, n)
        alu, mul = rand_fp16(rng, n), rand_fp16(rng, n)
        if case % 7 == 0:
            alu[::5] = 0x7E01
        # x + (-x): the operand the negation of x's fp16 value.
        alu[::3] = fp.fp32_to_fp16(x[::3]) ^ np.uint16(0x8000)
        cfg = dict(alu_bypass=int(rng.random() < 0.3), alu_algo=int(rng.integers(0, 3)),
                   mul_bypass=int(rng.random() < 0.3), mul_prelu=int(rng.random() < 0.3),
                   relu_bypass=int(rng.random() < 0.5), nan_to_zero=int(rng.random() < 0.5))
        want = fp.sdp_x_fp16(x, alu_op=alu, mul_op=mul, **cfg)
        got = dla.nvdla_sdp_x_fp16(x, alu_op=alu, mul_op=mul, **cfg)
        np.testing.assert_array_equal(want, got, err_msg=str(cfg))


def test_bad_arguments():
    with pytest.raises(dla.DLAError, match="kernel does not fit"):
        dla.nvdla_conv_fp16(np.zeros((1, 2, 2), np.uint16), np.zeros((1, 1, 3, 3), np.uint16))
    with pytest.raises(dla.DLAValueError, match=r"\[\.\.\., 64\]"):
        dla.nvdla_cmac_fp16(np.zeros(32, np.uint16), np.zeros(32, np.uint16))
    with pytest.raises(dla.DLAError, match="alu_algo 3"):
        dla.nvdla_sdp_x_fp16(np.zeros(1, np.uint32), alu_bypass=0, alu_algo=3)


def _wino_case(rng):
    C, K = int(rng.integers(1, 14)), int(rng.integers(1, 6))
    H, W = int(rng.integers(1, 10)), int(rng.integers(1, 10))
    pad = [int(v) for v in rng.integers(0, 3, 4)]
    while H + pad[0] + pad[1] < 3:
        pad[0] += 1
    while W + pad[2] + pad[3] < 3:
        pad[3] += 1
    x = rand_fp16(rng, (C, H, W), zeros=rng.choice([0.0, 0.2]))
    taps = rand_fp16(rng, (K, C + int(rng.integers(0, 4)), 4, 4), zeros=0.1)
    if rng.random() < 0.5:  # near exponents: the PRA's fp17 steps cancel and round
        x = (x & 0x83FF) | (np.uint16(15 << 10))
    return x, taps, tuple(pad)


def test_conv_wino_fp16():
    """convWinoFp16 (the PRA, the Winograd MAC cell, CACC, the layer's
    order) against fp_nvdla.conv_wino_fp16, itself checked against the v1
    model's compiled PRA and MAC cell; padding values, NaN in a few."""
    rng = np.random.default_rng(4749)
    total = 0
    for case in range(40):
        x, taps, pad = _wino_case(rng)
        pv = int(rand_fp16(rng, (1,))[0]) if case % 4 == 1 else 0
        if case % 10 == 7:
            x.reshape(-1)[rng.integers(0, x.size, 1)] = 0x7E01
        if case % 10 == 8:
            taps.reshape(-1)[rng.integers(0, taps.size, 1)] = 0xFC02
        want = fp.conv_wino_fp16(x, taps, pad, pv)
        got = dla.nvdla_conv_wino_fp16(x, taps, pad, pv)
        assert want.shape == got.shape
        bad = np.flatnonzero(want != got)
        assert bad.size == 0, (case, x.shape, taps.shape, pad, bad[:5])
        total += want.size
    assert total > 1000


def test_bad_wino_arguments():
    with pytest.raises(dla.DLAError, match="3x3 kernel fit"):
        dla.nvdla_conv_wino_fp16(np.zeros((1, 2, 2), np.uint16), np.zeros((1, 1, 4, 4), np.uint16))
    with pytest.raises(dla.DLAValueError, match=r"taps \[K, C' >= C, 4, 4\]"):
        dla.nvdla_conv_wino_fp16(np.zeros((2, 4, 4), np.uint16), np.zeros((1, 1, 4, 4), np.uint16))
    with pytest.raises(dla.DLAError, match="shape entry 0 is 0, not positive"):
        dla.nvdla_conv_wino_fp16(np.zeros((0, 4, 4), np.uint16), np.zeros((1, 1, 4, 4), np.uint16))
