"""Hand-worked values for int_conv.py (CDMA input converter, CACC)."""

import numpy as np
import pytest

from int_conv import cacc_accumulate, cacc_clip, cdma_cvt_feature, cdma_cvt_image

I8 = dict(in_precision="int8", proc_precision="int8")


def feat(x, off, scale, trunc, **prec):
    return cdma_cvt_feature(np.array(x), cvt_en=1, cvt_offset=off, cvt_scale=scale,
                            cvt_truncate=trunc, **(prec or I8)).tolist()


def test_feature_identity_and_rounding():
    assert feat([-128, 0, 127], 0, 1, 0) == [-128, 0, 127]
    # (10 - 3) * 5 = 35, / 4 = 8.75 -> 9
    assert feat([10], 3, 5, 2) == [9]
    # 1 * 5 / 2 = 2.5 -> 3; -2.5 -> -3 (ties away from zero)
    assert feat([1, -1], 0, 5, 1) == [3, -3]


def test_feature_saturation_and_shift_63():
    # (127 + 128) * 32767 = 8355585: 17 bits -> 65535, then int8 127 / int16 32767
    assert feat([127], -128, 32767, 0) == [127]
    assert feat([127], -128, 32767, 0, in_precision="int8", proc_precision="int16") == [32767]
    # (-128 - 127) * 32767 = -8355585 -> -128 / -32768
    assert feat([-128], 127, 32767, 0) == [-128]
    # 255 * -32768 / 2^63 rounds to 0
    assert feat([127], -128, -32768, 63) == [0]


def test_feature_int16_to_int8():
    # 1000 / 8 = 125; 1004 / 8 = 125.5 -> 126; -125.5 -> -126
    assert feat([1000, 1004, -1004], 0, 1, 3, in_precision="int16",
                proc_precision="int8") == [125, 126, -126]


def test_feature_disabled_passes_through():
    got = cdma_cvt_feature(np.array([-7]), cvt_en=0, cvt_offset=5, cvt_scale=9,
                           cvt_truncate=1, **I8)
    assert got.tolist() == [-7]
    with pytest.raises(ValueError):
        cdma_cvt_feature(np.array([1]), cvt_en=0, cvt_offset=0, cvt_scale=1, cvt_truncate=0,
                         in_precision="int8", proc_precision="int16")


def image(px, **kw):
    base = dict(cvt_en=1, cvt_offset=0, cvt_scale=1, cvt_truncate=0, in_precision="int8",
                proc_precision="int8", pixel_sign_override=0, mean_format=0)
    base.update(kw)
    return cdma_cvt_image(np.array(px), **base).tolist()


def test_image_unsigned_and_sign_override():
    # 200 unsigned - 128 = 72; with the override 200 reads -56, -56 - 128 = -184 -> -128
    assert image([[200]], cvt_offset=128) == [[72]]
    assert image([[200]], cvt_offset=128, pixel_sign_override=1) == [[-128]]
    # 16-bit 65535 + 32768 = 98303 -> 17 bits 65535 -> int16 32767
    assert image([[65535]], cvt_offset=-32768, in_precision="int16",
                 proc_precision="int16") == [[32767]]


def test_image_mean_per_component():
    # (10 - 1) * 2 / 2 = 9, (20 - 2) = 18, (30 - 3) = 27, (40 - 4) = 36; cvt_offset unused
    assert image([[10, 20, 30, 40]], cvt_offset=99, cvt_scale=2, cvt_truncate=1,
                 mean_format=1, mean_ry=1, mean_gu=2, mean_bv=3, mean_ax=4) == [[9, 18, 27, 36]]


def test_image_disabled_keeps_bits():
    assert image([[200]], cvt_en=0) == [[-56]]  # 0xC8 as int8


def test_cacc_saturates_each_addition():
    top = 2**47 - 1
    assert cacc_accumulate(np.array([top, 1])).tolist() == top
    assert cacc_accumulate(np.array([-2**47, -1])).tolist() == -2**47
    # saturation is sticky: (top + 1 -> top) - 1 = top - 1, not the exact top
    assert cacc_accumulate(np.array([top, 1, -1])).tolist() == top - 1


def test_cacc_clip_truncate():
    # t = 0: only the int32 saturation
    assert cacc_clip(np.array([2**31, -2**31 - 1]), clip_truncate=0).tolist() == [2**31 - 1, -2**31]
    # 1.5 -> 2, -1.5 -> -2, 0.5 -> 1, -0.5 -> -1
    assert cacc_clip(np.array([3, -3, 1, -1]), clip_truncate=1).tolist() == [2, -2, 1, -1]
    # (2^47 - 1) / 2^16 = 2^31 - 2^-16 -> 2^31 -> 2^31 - 1; -2^47 / 2^16 = -2^31 fits;
    # 98304 / 65536 = 1.5 -> 2
    got = cacc_clip(np.array([2**47 - 1, -2**47, 98304]), clip_truncate=16).tolist()
    assert got == [2**31 - 1, -2**31, 2]
    with pytest.raises(ValueError):
        cacc_clip(np.array([0]), clip_truncate=17)
