"""The SDP's integer stages: X1 (BS) / X2 (BN), the Y (EW) stage with its
operand converters, and the output converter.

C model: cmod/hls/sdp/sdp_x.cpp (X_alu, X_mul, X_trt, X_relu),
sdp_y_cvt.cpp (cvt), sdp_y_core.cpp (Y_mul, Y_alu), sdp_y.cpp (which
operands pass a converter), sdp_c.cpp (NV_NVDLA_SDP_CORE_c); register
casts in cmod/hls_wrapper/sdp_hls_wrapper.cpp. Widths in sdp/sdp.h.

Operands are scalars (from a register) or arrays broadcast against the
data (from memory: per channel, per element). The Y stage's LUT, applied
after sdp_y when not bypassed, is int_sdp_lut.sdp_lut.
"""

import numpy as np

from int_arith import (as_i64, check_signed, check_unsigned, out_type,
                       precision_bits, sat, shl, shr, wrap)

X_ALGOS = ("max", "min", "sum")
Y_ALGOS = ("max", "min", "sum", "eql")
SOURCES = ("reg", "mem")


def _choice(name, value, allowed):
    if value not in allowed:
        raise ValueError("%s = %r: expected one of %s" % (name, value, ", ".join(allowed)))
    return value


def _alu(algo, a, b):
    if algo == "max":
        return np.maximum(a, b)
    if algo == "min":
        return np.minimum(a, b)
    if algo == "eql":
        return np.where(a == b, 0, 1)
    return a + b


def sdp_x(x, *, alu_bypass, alu_algo=None, alu_operand=None, alu_shift_value=0,
          mul_bypass, mul_prelu=0, mul_operand=None, mul_shift_value=0, relu_bypass):
    """One X stage (BS or BN) on 32-bit data x: ALU -> MUL -> shift -> ReLU.

    ALU: op(x, SAT32(alu_operand << alu_shift_value)), kept exact in 33 bits
    (two 32-bit values cannot leave 33 bits: no saturation, no wrap here).
    MUL: a * mul_operand exact in 49 bits, then round half away from zero
    by mul_shift_value and saturate to 32 bits. That shift also applies
    when MUL is bypassed (X_trt sees bypass_trt = 0). PReLU (mul_prelu = 1)
    passes a >= 0 unmultiplied AND unshifted, wrapped to 32 bits (a 33-bit
    positive sum above 2**31 - 1 wraps negative); a < 0 is multiplied.
    mul_shift_value is an 8-bit field of which the C model keeps 6 bits."""
    x = check_signed("x", np.asarray(x), 32)
    if alu_bypass:
        a = as_i64(x)
    else:
        _choice("alu_algo", alu_algo, X_ALGOS)
        if alu_operand is None:
            raise ValueError("alu_operand needed unless alu_bypass")
        op = check_signed("alu_operand", alu_operand, 16)
        shift = check_unsigned("alu_shift_value", alu_shift_value, 6)
        a = _alu(alu_algo, as_i64(x), shl(op, shift, 32))
    shift = check_unsigned("mul_shift_value", mul_shift_value, 8) & 63
    if mul_bypass:
        t = shr(a, shift, 32)
    else:
        if mul_operand is None:
            raise ValueError("mul_operand needed unless mul_bypass")
        op = check_signed("mul_operand", mul_operand, 16)
        shifted = shr(a * op, shift, 32)
        t = np.where(a >= 0, wrap(a, 32), shifted) if mul_prelu else shifted
    if not relu_bypass:
        t = np.maximum(t, 0)
    return as_i64(t).astype(np.int32)


def sdp_y_cvt(op, *, cvt_bypass, cvt_offset=0, cvt_scale=1, cvt_truncate=0):
    """A Y operand converter (EW_ALU_CVT_* / EW_MUL_CVT_*) on a 16-bit memory
    operand: SAT32(RHA((op - cvt_offset) * cvt_scale, cvt_truncate));
    bypassed: op sign-extended to 32 bits."""
    op = check_signed("op", np.asarray(op), 16)
    if cvt_bypass:
        return as_i64(op)
    cvt_offset = check_signed("cvt_offset", cvt_offset, 32)
    cvt_scale = check_signed("cvt_scale", cvt_scale, 16)
    cvt_truncate = check_unsigned("cvt_truncate", cvt_truncate, 6)
    return shr((as_i64(op) - cvt_offset) * cvt_scale, cvt_truncate, 32)


def _y_operand(prefix, src, operand, cvt):
    if operand is None:
        raise ValueError("%s_operand needed" % prefix)
    if _choice(prefix + "_src", src, SOURCES) == "reg":
        # EW_*_OPERAND is a 32-bit register and meets no converter.
        return check_signed(prefix + "_operand", operand, 32)
    return sdp_y_cvt(operand, **cvt)


def sdp_y(x, *, mul_bypass, mul_src="reg", mul_operand=None, mul_prelu=0,
          mul_cvt_bypass=1, mul_cvt_offset=0, mul_cvt_scale=1, mul_cvt_truncate=0,
          truncate=0, alu_bypass, alu_src="reg", alu_algo=None, alu_operand=None,
          alu_cvt_bypass=1, alu_cvt_offset=0, alu_cvt_scale=1, alu_cvt_truncate=0):
    """The Y (EW) stage on 32-bit data: MUL -> ALU (nv_full / nv_large).
    MUL: SAT32(RHA(x * op, truncate)) with the 64-bit product and the 10-bit
    EW_TRUNCATE; bypassed MUL passes x untouched (no shift, unlike X);
    PReLU passes x >= 0 untouched. ALU: op(m, operand) in 33 bits, then
    saturated to 32 ('eql' gives 0 where equal, else 1)."""
    x = check_signed("x", np.asarray(x), 32)
    m = as_i64(x)
    if not mul_bypass:
        op = _y_operand("mul", mul_src, mul_operand,
                        dict(cvt_bypass=mul_cvt_bypass, cvt_offset=mul_cvt_offset,
                             cvt_scale=mul_cvt_scale, cvt_truncate=mul_cvt_truncate))
        truncate = check_unsigned("truncate", truncate, 10)
        prod = shr(m * op, truncate, 32)
        m = np.where(m >= 0, m, prod) if mul_prelu else prod
    if not alu_bypass:
        _choice("alu_algo", alu_algo, Y_ALGOS)
        op = _y_operand("alu", alu_src, alu_operand,
                        dict(cvt_bypass=alu_cvt_bypass, cvt_offset=alu_cvt_offset,
                             cvt_scale=alu_cvt_scale, cvt_truncate=alu_cvt_truncate))
        m = sat(_alu(alu_algo, as_i64(m), op), 32)
    return as_i64(m).astype(np.int32)


def sdp_cvt(y, *, cvt_offset, cvt_scale, cvt_shift, out_precision):
    """Output converter: (y - cvt_offset) exact in 33 bits, * cvt_scale exact
    in 49, IntShiftRightSat to 17 bits (round half away from zero), then
    saturate to int8 / int16."""
    bits = precision_bits("out_precision", out_precision)
    y = check_signed("y", np.asarray(y), 32)
    cvt_offset = check_signed("cvt_offset", cvt_offset, 32)
    cvt_scale = check_signed("cvt_scale", cvt_scale, 16)
    cvt_shift = check_unsigned("cvt_shift", cvt_shift, 6)
    t17 = shr((as_i64(y) - cvt_offset) * cvt_scale, cvt_shift, 17)
    return sat(t17, bits).astype(out_type(bits))
