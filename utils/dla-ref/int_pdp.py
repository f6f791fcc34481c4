"""PDP integer pooling: max, min and average with padding values and the
hardware's reciprocals.

C model: cmod/pdp/NV_NVDLA_pdp.cpp LineOperation (width pass, adds the
left / right padding value), PoolingStage0Calc (height pass, adds the top /
bottom padding value times the kernel width), PoolingStage1Calc (average:
two roundings, final cast), int_sign_extend (how PAD_VALUE_nX is read).
Line buffers are int16 for int8 data and int32 for int16 data; every sum
wraps there (C integer stores), so the window sum is the exact sum wrapped.
"""

import numpy as np

from int_arith import as_i64, check_signed, check_unsigned, precision_bits, rha, wrap

METHODS = ("average", "max", "min")
# int_sign_extend's sign bit per padding count n = 1..7 (NV_NVDLA_pdp.cpp).
PAD_SIGN_BIT = {8: (7, 8, 9, 9, 10, 10, 10), 16: (15, 16, 17, 17, 18, 18, 18)}
PAD_VALUE_BITS = 19


def pdp_recip_kernel(k):
    """RECIP_KERNEL_WIDTH / _HEIGHT as NVIDIA's firmware writes them for
    int8 / int16 (recip_kernel_size in dla_pdp.c): floor(2^16 / k)."""
    if not 1 <= k <= 8:
        raise ValueError("kernel size %d outside 1..8" % k)
    return (1 << 16) // k


def pdp_pad_values(pad):
    """PAD_VALUE_1X..7X that make each padded position count as `pad`."""
    return {"pad_value_%dx" % n: n * pad for n in range(1, 8)}


def pdp_pad_register(value, n, input_data):
    """How the C model reads PAD_VALUE_<n>X: int_sign_extend from the bit
    PAD_SIGN_BIT gives (sign-fills above it only when that bit is set; a
    clear bit keeps every bit of the 19-bit field), stored in the line
    buffer's type (int16 for int8 data, int32 for int16)."""
    bits = precision_bits("input_data", input_data)
    field = check_signed("pad_value_%dx" % n, value, PAD_VALUE_BITS) \
        if value < 0 else check_unsigned("pad_value_%dx" % n, value, PAD_VALUE_BITS)
    field &= (1 << PAD_VALUE_BITS) - 1
    idx = PAD_SIGN_BIT[bits][n - 1]
    if field >> idx & 1:
        field |= ~((1 << (idx + 1)) - 1)
    return int(wrap(field, 2 * bits))


def pdp_pool(x, *, pooling_method, kernel, stride, pad, input_data, recip_kernel_width=None,
             recip_kernel_height=None, pad_value_1x=0, pad_value_2x=0, pad_value_3x=0,
             pad_value_4x=0, pad_value_5x=0, pad_value_6x=0, pad_value_7x=0):
    """x: (N, C, H, W) int8 / int16 values. kernel = (kh, kw) 1..8,
    stride = (sh, sw) 1..16, pad = (top, bottom, left, right) 0..7.

    max / min: over the window's valid positions only (padding ignored).
    average: S = wrapped sum of the valid positions + PAD_nX for a row with
    n padded columns (each valid row) + kw * PAD_mX for m padded rows;
    avg = WRAP(RHA(RHA(S * recip_kernel_width, 16) * recip_kernel_height,
    16)) to 8 / 16 bits (no saturation; the divisor is always the whole
    kernel, whatever the padding)."""
    _check_method(pooling_method)
    bits = precision_bits("input_data", input_data)
    x = as_i64(check_signed("x", np.asarray(x), bits))
    kh, kw = kernel
    sh, sw = stride
    top, bottom, left, right = pad
    if not (1 <= kh <= 8 and 1 <= kw <= 8 and 1 <= sh <= 16 and 1 <= sw <= 16):
        raise ValueError("kernel 1..8, stride 1..16")
    if max(top, bottom) >= kh or max(left, right) >= kw:
        raise ValueError("padding must be smaller than the kernel")
    regs = (pad_value_1x, pad_value_2x, pad_value_3x, pad_value_4x, pad_value_5x,
            pad_value_6x, pad_value_7x)
    padv = [0] + [pdp_pad_register(v, n + 1, input_data) for n, v in enumerate(regs)]
    if pooling_method == "average":
        rw = check_unsigned("recip_kernel_width", recip_kernel_width, 17)
        rh = check_unsigned("recip_kernel_height", recip_kernel_height, 17)
    n, c, h, w = x.shape
    oh = (h + top + bottom - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    out = np.zeros((n, c, oh, ow), dtype=np.int64)
    for i in range(oh):
        y0 = i * sh - top
        r0, r1 = max(y0, 0), min(y0 + kh, h)
        for j in range(ow):
            x0 = j * sw - left
            c0, c1 = max(x0, 0), min(x0 + kw, w)
            win = x[:, :, r0:r1, c0:c1]
            if pooling_method == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            elif pooling_method == "min":
                out[:, :, i, j] = win.min(axis=(2, 3))
            else:
                pad_cols = kw - (c1 - c0)
                pad_rows = kh - (r1 - r0)
                s = win.sum(axis=(2, 3)) + (r1 - r0) * padv[pad_cols] + kw * padv[pad_rows]
                out[:, :, i, j] = wrap(s, 2 * bits)
    if pooling_method == "average":
        out = wrap(rha(rha(out * rw, 16) * rh, 16), bits)
    return out.astype(np.int8 if bits == 8 else np.int16)


def _check_method(m):
    if m not in METHODS:
        raise ValueError("pooling_method = %r: expected one of %s" % (m, ", ".join(METHODS)))
