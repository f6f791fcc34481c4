"""winograd_ref.py against the mathematics it must agree with where nothing
rounds, and its fp17 rounding against numpy's fp16 (the same 10 fraction
bits)."""

import numpy as np

import layer_ref as ref
import winograd_ref as wr

BT = np.array([[1, 0, -1, 0], [0, 1, 1, 0], [0, -1, 1, 0], [0, 1, 0, -1]])


def test_round_fp17_is_fp16_rounding_in_fp16_range():
    v = np.random.default_rng(1).uniform(-60000, 60000, 10000)
    v = v[np.abs(v) > 2.0 ** -14]
    assert np.array_equal(wr.round_fp17(v), v.astype(np.float16).astype(np.float64))


def test_round_fp17_beyond_fp16_range_keeps_ten_bits():
    # 2^20 * (1 + 3 * 2^-11) is a tie between 2^20 (1 + 2^-10) and
    # 2^20 (1 + 2^-9): to even.
    assert wr.round_fp17(2.0 ** 20 * (1 + 3 * 2.0 ** -11)) == 2.0 ** 20 * (1 + 2.0 ** -9)


def test_integer_input_transform_is_bt_d_b_saturated():
    d = np.random.default_rng(2).integers(-128, 128, (50, 4, 4))
    want = np.clip(BT @ d @ BT.T, -128, 127)
    assert np.array_equal(wr.input_transform(d.astype(np.int8), "i8"), want)


def test_exact_integer_winograd_is_the_direct_convolution():
    rng = np.random.default_rng(3)
    x = rng.integers(-31, 32, (1, 7, 6, 5)).astype(np.int8)
    w = (4 * rng.integers(-7, 8, (9, 7, 3, 3))).astype(np.int8)
    b = rng.integers(-5, 6, (9,)).astype(np.int8)
    got = wr.winograd_conv(x, w, "#dla.weight<winograd, int8>", b, 1, (1, 1, 1, 1), 0, "i8")
    assert np.array_equal(got, ref.conv(x, w, b, (1, 1), (1, 1, 1, 1), out="i8"))


def test_stride_two_is_the_direct_convolution_when_exact():
    rng = np.random.default_rng(4)
    x = rng.integers(-31, 32, (1, 3, 9, 8)).astype(np.int16)
    w = (4 * rng.integers(-7, 8, (5, 3, 5, 5))).astype(np.int16)
    got = wr.winograd_conv(x, w, "#dla.weight<winograd, int16, stride = 2>", None, 2,
                           (2, 2, 2, 2), 0, "i16")
    assert np.array_equal(got, ref.conv(x, w, None, (2, 2), (2, 2, 2, 2), out="i16"))
