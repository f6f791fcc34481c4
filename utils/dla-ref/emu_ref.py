"""What NVIDIA's runtime emulator computes for int8 data, written from
umd/core/src/runtime/Emulator.cpp (executeSoftmax, executePower) and the
headers it uses, independently of the project's lowering: float32
arithmetic in the emulator's order, the C library's expf and powf (the
ones the runtime calls, through ctypes), fp16 rounding as NVIDIA's half.h
is configured (HALF_ROUND_STYLE 1: to nearest, HALF_ROUND_TIES_TO_EVEN 0:
ties away from zero), saturate<float, int8> (clamp, then a C cast:
truncation toward zero).

    softmax(x, input_scale, output_scale) -> int8 array of x's C values
    power(x, power, scale, shift, input_scale, output_scale) -> int8 array
"""

import ctypes
import ctypes.util

import numpy as np

_m = ctypes.CDLL(ctypes.util.find_library("m"))
_m.expf.restype = ctypes.c_float
_m.expf.argtypes = [ctypes.c_float]
_m.powf.restype = ctypes.c_float
_m.powf.argtypes = [ctypes.c_float, ctypes.c_float]

f32 = np.float32


def expf(v):
    return f32(_m.expf(float(v)))


def powf(a, b):
    return f32(_m.powf(float(a), float(b)))


def half(v):
    """float32 `v` rounded to fp16 (as a float32 value), ties away from
    zero; numpy's float16 rounds ties to even, so a tie is resolved here."""
    v = f32(v)
    h = np.float16(v)
    if not np.isfinite(v) or f32(h) == v:
        return f32(h)
    lo, hi = sorted([h, np.nextafter(h, np.float16(np.inf) if f32(h) < v else np.float16(-np.inf))],
                    key=float)
    d_lo, d_hi = float(v) - float(lo), float(hi) - float(v)
    if d_lo == d_hi:  # a tie: away from zero
        return f32(hi if v > 0 else lo)
    return f32(lo if d_lo < d_hi else hi)


def saturate_int8(y):
    """saturate<NvF32, NvS8>: std::max(std::min(y, 127), -128), then the
    cast (toward zero). NaN stays NaN through std::min/max; the cast of NaN
    is undefined, so the draws avoid it."""
    y = f32(y)
    if np.isnan(y):
        raise ValueError("NaN: the emulator's cast is undefined")
    y = min(max(float(y), -128.0), 127.0)
    return int(np.trunc(y))


def softmax(x, input_scale, output_scale):
    x = np.asarray(x, np.int8).ravel()
    si, so = f32(input_scale), f32(output_scale)
    h = [half(f32(int(v)) * si) for v in x]
    m = f32(-np.inf)
    for v in h:
        if v > m:
            m = v
    s = f32(0)
    for v in h:
        s = f32(s + expf(f32(v - m)))
    p = [half(f32(expf(f32(v - m)) / s)) for v in h]
    return np.array([saturate_int8(f32(v / so)) for v in p], np.int8)


def power(x, power_, scale, shift, input_scale, output_scale):
    x = np.asarray(x, np.int8)
    out = np.zeros(x.shape, np.int8)
    pw, sc, sh = f32(power_), f32(scale), f32(shift)
    si, so = f32(input_scale), f32(output_scale)
    for i, v in np.ndenumerate(x):
        xf = f32(f32(int(v)) * si)
        y = powf(f32(sh + f32(sc * xf)), pw)
        out[i] = saturate_int8(f32(y / so))
    return out


def _selftest():
    # Ties: 2049 lies halfway between fp16's 2048 and 2050: away from zero.
    assert half(2049.0) == 2050.0 and half(-2049.0) == -2050.0
    assert half(2051.0) == 2052.0  # numpy: to even, 2052 as well
    assert half(2048.5) == 2048.0
    # A uniform input: every probability 1/C.
    assert list(softmax([3, 3, 3, 3], 0.5, 1 / 128)) == [32] * 4
    assert list(power(np.array([2, -3]), 2.0, 1.0, 0.0, 1.0, 1.0)) == [4, 9]
    assert list(power(np.array([100]), 2.0, 1.0, 0.0, 1.0, 1.0)) == [127]


if __name__ == "__main__":
    _selftest()
    print("ok")
