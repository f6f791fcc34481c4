"""Integer primitives of the NVDLA C model, on numpy int64 arrays.

Written from cmod/hls/include/nvdla_int.h and nvdla_common.h: every
ACFIXT(...) in the C model is ac_fixed<..., AC_RND_INF, AC_SAT>, so a right
shift into a narrower type rounds half away from zero (AC_RND_INF) and then
saturates (AC_SAT); an ac_int assignment into a narrower ac_int wraps.

Values stay within |v| <= 2**62 (the widest product the units form is the
SDP Y multiplier, 32 x 32 bits), so int64 never overflows here.
"""

import numpy as np

I64 = np.int64
LIMIT = 1 << 62


def as_i64(v):
    a = np.asarray(v)
    if a.dtype == object or a.dtype.kind == "f":
        raise TypeError("integer values expected, got %s" % a.dtype)
    a = a.astype(I64)
    if a.size and (a.max() > LIMIT or a.min() < -LIMIT):
        raise OverflowError("value beyond +-2**62")
    return a


def rha(v, shift):
    """Shift right by `shift` bits rounding half away from zero (AC_RND_INF).
    shift may be any integer >= 0 (the SDP Y multiplier's goes to 1023)."""
    v = as_i64(v)
    if shift < 0:
        raise ValueError("negative shift %d" % shift)
    if shift == 0:
        return v
    a = np.abs(v)
    if shift >= 63:
        # |v| <= 2**62: only |v| == 2**62 with shift 63 reaches one half.
        q = np.where((a >= (1 << 62)) & (shift == 63), 1, 0).astype(I64)
    else:
        q = (a + (1 << (shift - 1))) >> shift
    return np.where(v < 0, -q, q)


def sat(v, bits):
    """Clamp to a signed `bits`-bit range (AC_SAT, IntSaturation)."""
    v = as_i64(v)
    return np.clip(v, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def wrap(v, bits):
    """Two's-complement truncation to `bits` bits (ac_int / C integer cast)."""
    v = as_i64(v)
    m = 1 << bits
    return ((v + (m >> 1)) & (m - 1)) - (m >> 1)


def shr(v, shift, bits):
    """IntShiftRight<i, s, bits>: round half away from zero, then saturate."""
    return sat(rha(v, shift), bits)


def shl(v, shift, bits):
    """IntShiftLeft<i, s, bits>: exact left shift, then saturate."""
    v = as_i64(v)
    if shift < 0:
        raise ValueError("negative shift %d" % shift)
    big = np.abs(v) > (LIMIT >> min(shift, 62))  # would pass 2**62: saturates anyway
    safe = np.where(big, 0, v) << min(shift, 62)
    return sat(np.where(big, np.sign(v) * LIMIT, safe), bits)


def check_field(name, value, lo, hi):
    """A register value must fit its field: raise, never clamp silently."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iub":
        raise TypeError("%s: integer expected" % name)
    if arr.size and (arr.min() < lo or arr.max() > hi):
        raise ValueError("%s = %s outside %d..%d" % (name, value if arr.ndim == 0 else
                                                     "array", lo, hi))
    return arr.astype(I64) if arr.ndim else int(arr)


def check_signed(name, value, bits):
    return check_field(name, value, -(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def check_unsigned(name, value, bits):
    return check_field(name, value, 0, (1 << bits) - 1)


PRECISIONS = {"int8": 8, "int16": 16}


def precision_bits(name, value):
    if value not in PRECISIONS:
        raise ValueError("%s = %r: expected 'int8' or 'int16'" % (name, value))
    return PRECISIONS[value]


def out_type(bits):
    return {8: np.int8, 16: np.int16, 32: np.int32}.get(bits, np.int64)


# The two lookup tables of the SDP Y stage and the CDP: 65 LE (linear or
# exponent index) and 257 LO (linear) signed 16-bit entries.
LE_ENTRIES = 65
LO_ENTRIES = 257


def check_luts(lut_le_table, lut_lo_table, lut_le_function):
    """The tables as int64 arrays, after checking their sizes, entry widths
    and the LE index mode."""
    le = as_i64(check_signed("lut_le_table", np.asarray(lut_le_table), 16))
    lo = as_i64(check_signed("lut_lo_table", np.asarray(lut_lo_table), 16))
    if le.shape != (LE_ENTRIES,) or lo.shape != (LO_ENTRIES,):
        raise ValueError("LE needs 65 entries, LO 257")
    if lut_le_function not in ("exponent", "linear"):
        raise ValueError("lut_le_function = %r: 'exponent' or 'linear'" % lut_le_function)
    return le, lo
