"""NVIDIA's runtime emulator on int8 data, in numpy, from its code.

umd/core/src/runtime/Emulator.cpp (executeSoftmax / executePower, the int8
branches): float arithmetic in the code's order; the fp16 steps round as
NVIDIA's umd/external/include/half.h is configured (HALF_ROUND_STYLE 1: to
nearest; HALF_ROUND_TIES_TO_EVEN 0: ties away from zero); expf and powf
are libm's, called through ctypes (the functions the emulator calls);
saturate<float, int8> (common/include/priv/Type.h) clamps with std::min /
std::max and casts, truncating toward zero (NaN passes the clamp; x86's
cvttss2si makes it 0x80000000, whose low byte is 0).

Written independently of the compiler's lowering (ReferenceEmulator.cpp):
the tie rule here is found by comparing neighbours, not from the bits.
"""

import ctypes
import ctypes.util

import numpy as np

_libm = ctypes.CDLL(ctypes.util.find_library("m"))
for _name, _args in (("expf", 1), ("powf", 2)):
    getattr(_libm, _name).restype = ctypes.c_float
    getattr(_libm, _name).argtypes = [ctypes.c_float] * _args

F32 = np.float32


def expf(v):
    return F32(_libm.expf(float(v)))


def powf(x, y):
    return F32(_libm.powf(float(x), float(y)))


def half_ties_away(values):
    """float32 values rounded to fp16 to nearest, ties away from zero, as
    float32. numpy rounds ties to even; where a value lies exactly midway
    between its fp16 rounding and the next fp16 away from zero, take that
    one."""
    f = np.asarray(values, dtype=np.float32).astype(np.float64)
    with np.errstate(over="ignore"):
        r = f.astype(np.float16)
        away = np.nextafter(r, np.copysign(np.float16(np.inf), r).astype(np.float16))
    rf, af = r.astype(np.float64), away.astype(np.float64)
    with np.errstate(invalid="ignore"):
        tie = np.isfinite(rf) & np.isfinite(af) & (np.abs(rf) < np.abs(f)) & \
            (af - f == f - rf)
    return np.where(tie, af, rf).astype(np.float32)


def saturate_int8(y):
    y = np.asarray(y, dtype=np.float32)
    y = np.where(np.isnan(y), F32(0), y)
    return np.trunc(np.clip(y, -128, 127)).astype(np.int8)


def softmax(x, input_scale, output_scale):
    """executeSoftmax on the C int8 values `x` (one cube, in order)."""
    x = np.asarray(x, dtype=np.int8).ravel()
    h = half_ties_away(x.astype(np.float32) * F32(input_scale))
    maxval = F32(-np.inf)
    for v in h:
        if v > maxval:
            maxval = v
    sumexp = F32(0)
    for v in h:
        sumexp = F32(sumexp + expf(F32(v - maxval)))
    p = half_ties_away(np.array([expf(F32(v - maxval)) / sumexp for v in h], dtype=np.float32))
    return saturate_int8(p / F32(output_scale))


def power(x, power_, scale, shift, input_scale, output_scale):
    """executePower on int8 `x`, element by element."""
    x = np.asarray(x, dtype=np.int8)
    v = x.astype(np.float32) * F32(input_scale)
    base = F32(shift) + F32(scale) * v
    y = np.array([powf(b, power_) for b in base.ravel()], dtype=np.float32).reshape(x.shape)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        return saturate_int8(y / F32(output_scale))
