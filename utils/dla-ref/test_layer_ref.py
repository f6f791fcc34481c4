"""Hand-worked values for layer_ref.py, the numpy reference of layer ops."""

import numpy as np

import layer_ref as ref


def test_to_output_rounds_half_away_and_saturates():
    got = ref.to_output([2.5, -2.5, 0.49, 300.0, -300.0, np.nan], "i8")
    assert got.tolist() == [3, -3, 0, 127, -128, 0]


def test_to_output_clips_fp16_overflow():
    got = ref.to_output([70000.0, -1e9, 1.0 + 2**-11], "f16")
    assert got.tolist() == [65504.0, -65504.0, 1.0]  # ties to even


def test_conv_by_hand():
    # 1x1x3x3 iota input, one 2x2 kernel [[1, 0], [0, -1]], stride 1, no pad:
    # out[y, x] = in[y, x] - in[y+1, x+1] = -4 everywhere.
    x = np.arange(9, dtype=np.int8).reshape(1, 1, 3, 3)
    w = np.array([[[[1, 0], [0, -1]]]], dtype=np.int8)
    assert ref.conv(x, w, out="i8").tolist() == [[[[-4, -4], [-4, -4]]]]


def test_conv_image_uses_weight_channels_and_padding():
    x = np.ones((1, 4, 2, 2), dtype=np.uint8) * 10
    x[:, 3] = 200  # the fourth channel meets no weight
    w = np.ones((1, 3, 1, 1), dtype=np.int8)
    got = ref.conv(x, w, pad=(1, 0, 0, 0), out="i16")
    assert got.tolist() == [[[[0, 0], [30, 30], [30, 30]]]]


def test_sdp_order():
    x = np.array([1, -2], dtype=np.float16).reshape(1, 2, 1, 1)
    bn = np.array([[1, 2], [1, 3]], dtype=np.float16)  # (x + add) * mul
    prelu = np.array([0.5, 0.5], dtype=np.float16)
    got = ref.sdp(x, bias=np.array([1, 0], dtype=np.float16), bn=bn, prelu=prelu)
    assert got.ravel().tolist() == [6.0, -1.5]


def test_pool_average_counts_padding():
    x = np.full((1, 1, 2, 2), 4, dtype=np.int8)
    # Padded to 4x4: each 2x2 window holds one real element.
    assert ref.pool(x, "average", (2, 2), (2, 2), (1, 1, 1, 1)).tolist() == [[[[1, 1], [1, 1]]]]
    assert ref.pool(-x, "max", (2, 2), (2, 2), (1, 1, 1, 1)).tolist() == [[[[-4, -4], [-4, -4]]]]


def test_lrn_window_is_clipped():
    x = np.array([1, 2, 3], dtype=np.float16).reshape(1, 3, 1, 1)
    # size 3, alpha 3, beta 1, k 0: y = x / sum of squares of neighbours
    got = ref.lrn(x, 3, alpha=3.0, beta=1.0, k=0.0).ravel()
    expected = np.array([1 / 5, 2 / 14, 3 / 13], dtype=np.float16)
    assert got.tolist() == expected.tolist()
