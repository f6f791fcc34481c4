"""Hand-worked values for int_sdp.py (SDP X, Y, output converter)."""

import numpy as np

from int_sdp import sdp_cvt, sdp_x, sdp_y, sdp_y_cvt

MAX32, MIN32 = 2**31 - 1, -2**31


def x_stage(x, **kw):
    base = dict(alu_bypass=1, mul_bypass=1, mul_shift_value=0, relu_bypass=1)
    base.update(kw)
    return sdp_x(np.array(x), **base).tolist()


def alu(algo, op, shift, **kw):
    return dict(alu_bypass=0, alu_algo=algo, alu_operand=op, alu_shift_value=shift, **kw)


def test_x_alu_operand_shift():
    # 100 + (3 << 4) = 148
    assert x_stage([100], **alu("sum", 3, 4)) == [148]
    # per-element operands from memory: [1 + 10, 2 + 20]
    assert x_stage([1, 2], **alu("sum", np.array([10, 20]), 0)) == [11, 22]
    # max(5, 7) = 7, min = 5; -1 << 3 = -8: max(5, -8) = 5, min = -8
    assert x_stage([5], **alu("max", 7, 0)) == [7]
    assert x_stage([5], **alu("min", 7, 0)) == [5]
    assert x_stage([5], **alu("max", -1, 3)) == [5]
    assert x_stage([5], **alu("min", -1, 3)) == [-8]


def test_x_alu_sum_keeps_33_bits():
    # 1 << 63 saturates to 2^31 - 1; (2^31 - 1) * 2 = 2^32 - 2 is kept, then the
    # MUL stage's shift (bypassed MUL) rounds and saturates:
    #   shift 0: 2^32 - 2 -> 2^31 - 1; shift 1: 2^31 - 1 exactly;
    #   shift 2: 1073741823.5 -> 1073741824.
    assert x_stage([MAX32], **alu("sum", 1, 63)) == [MAX32]
    assert x_stage([MAX32], **alu("sum", 1, 63), mul_shift_value=1) == [MAX32]
    assert x_stage([MAX32], **alu("sum", 1, 63), mul_shift_value=2) == [1073741824]
    # -2^31 + (-1 << 63 -> -2^31) = -2^32; / 2 = -2^31 fits
    assert x_stage([MIN32], **alu("sum", -1, 63), mul_shift_value=1) == [MIN32]
    assert x_stage([MIN32], **alu("sum", -1, 63)) == [MIN32]


def test_x_mul_shift_applies_even_when_bypassed():
    # 5 / 2 = 2.5 -> 3, -2.5 -> -3
    assert x_stage([5, -5], mul_shift_value=1) == [3, -3]
    # the 8-bit field keeps its low 6 bits: 64 -> 0 (no shift), 65 -> 1
    assert x_stage([5], mul_shift_value=64) == [5]
    assert x_stage([5], mul_shift_value=65) == [3]


def test_x_mul_rounding_and_saturation():
    mul = dict(mul_bypass=0, mul_operand=3, mul_shift_value=1)
    # 7 * 3 = 21, / 2 = 10.5 -> 11; -10.5 -> -11
    assert x_stage([7, -7], **mul) == [11, -11]
    # (2^31 - 1) * 32767 and -2^31 * 32767 saturate at 32 bits with shift 0
    sat = dict(mul_bypass=0, mul_operand=32767, mul_shift_value=0)
    assert x_stage([MAX32, MIN32], **sat) == [MAX32, MIN32]
    # shift 63: (2^31 - 1) * -32768 = -(2^46 - 2^15), / 2^63 -> 0
    assert x_stage([MAX32], mul_bypass=0, mul_operand=-32768, mul_shift_value=63) == [0]


def test_x_prelu_positive_path_wraps():
    prelu = dict(mul_bypass=0, mul_prelu=1, mul_operand=3, mul_shift_value=1)
    # -10 * 3 / 2 = -15; 10 and 0 pass unmultiplied and unshifted
    assert x_stage([-10, 10, 0], **prelu) == [-15, 10, 0]
    # (2^31 - 1) + 1 = 2^31 in 33 bits, passed positive, wraps to -2^31
    assert x_stage([MAX32], **alu("sum", 1, 0), **prelu) == [MIN32]
    # ... and ReLU then makes it 0
    assert x_stage([MAX32], **alu("sum", 1, 0), **dict(prelu, relu_bypass=0)) == [0]


def test_x_relu():
    assert x_stage([-5, 5], relu_bypass=0) == [0, 5]


def test_y_converter():
    # (100 + 28) * 3 / 4 = 96; 1 * 3 / 2 = 1.5 -> 2, -1.5 -> -2
    assert sdp_y_cvt(np.array([100]), cvt_bypass=0, cvt_offset=-28, cvt_scale=3,
                     cvt_truncate=2).tolist() == [96]
    assert sdp_y_cvt(np.array([1, -1]), cvt_bypass=0, cvt_offset=0, cvt_scale=3,
                     cvt_truncate=1).tolist() == [2, -2]
    # (32767 + 2^31) * 32767 saturates to 2^31 - 1; bypass sign-extends
    assert sdp_y_cvt(np.array([32767]), cvt_bypass=0, cvt_offset=MIN32, cvt_scale=32767,
                     cvt_truncate=0).tolist() == [MAX32]
    assert sdp_y_cvt(np.array([-5]), cvt_bypass=1).tolist() == [-5]
    # truncate 63: (32767 + 2^31) * 32767 / 2^63 -> 0
    assert sdp_y_cvt(np.array([32767]), cvt_bypass=0, cvt_offset=MIN32, cvt_scale=32767,
                     cvt_truncate=63).tolist() == [0]


def y_stage(x, **kw):
    base = dict(mul_bypass=1, alu_bypass=1)
    base.update(kw)
    return sdp_y(np.array(x), **base).tolist()


def test_y_mul():
    # the 32-bit register operand: 3 * (2^31 - 1) saturates; truncate 1023 -> 0
    assert y_stage([3], mul_bypass=0, mul_operand=MAX32, truncate=0) == [MAX32]
    assert y_stage([3], mul_bypass=0, mul_operand=MAX32, truncate=1023) == [0]
    # -3 * 5 / 2 = -7.5 -> -8
    assert y_stage([-3], mul_bypass=0, mul_operand=5, truncate=1) == [-8]
    # a bypassed Y MUL does not shift (unlike X)
    assert y_stage([5], truncate=5) == [5]
    # PReLU: 7 passes; -7 * 3 / 2 = -10.5 -> -11
    assert y_stage([7, -7], mul_bypass=0, mul_prelu=1, mul_operand=3, truncate=1) == [7, -11]


def test_y_alu_saturates_and_eql():
    # (2^31 - 1) + 1 saturates in Y (X would keep it)
    assert y_stage([MAX32], alu_bypass=0, alu_algo="sum", alu_operand=1) == [MAX32]
    assert y_stage([5, 6], alu_bypass=0, alu_algo="eql", alu_operand=5) == [0, 1]
    # memory operand through its converter: (10 - 2) * 3 / 2 = 12; 1 + 12 = 13
    assert y_stage([1], alu_bypass=0, alu_algo="sum", alu_src="mem", alu_operand=10,
                   alu_cvt_bypass=0, alu_cvt_offset=2, alu_cvt_scale=3,
                   alu_cvt_truncate=1) == [13]


def out(y, off, scale, shift, prec="int8"):
    return sdp_cvt(np.array(y), cvt_offset=off, cvt_scale=scale, cvt_shift=shift,
                   out_precision=prec).tolist()


def test_output_converter():
    # (300 - 44) / 2 = 128: int8 127, int16 128
    assert out([300], 44, 1, 1) == [127]
    assert out([300], 44, 1, 1, "int16") == [128]
    # -3 / 2 = -1.5 -> -2 (negative tie)
    assert out([-3], 0, 1, 1) == [-2]
    # (2^31 - 1 + 2^31) * -32768 saturates: -128 / -32768
    assert out([MAX32], MIN32, -32768, 0) == [-128]
    assert out([MAX32], MIN32, -32768, 0, "int16") == [-32768]
    # shift 63: -(2^32 - 1) * 2^15 / 2^63 -> 0
    assert out([MAX32], MIN32, -32768, 63) == [0]
    # 131071 / 2 = 65535.5 -> 65536 -> 17 bits 65535 -> int16 32767
    assert out([131071], 0, 1, 1, "int16") == [32767]
