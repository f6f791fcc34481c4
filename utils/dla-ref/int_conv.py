"""The convolution pipeline's integer units: the CDMA input converter and
the CACC accumulator with its clip truncate.

C model: cmod/hls/cdma_libs/cdma_cvt.cpp NV_NVDLA_CDMA_CVT_cell (called via
cmod/hls_wrapper/cdma_hls_wrapper.cpp cdma_cvt_hls and
cmod/cdma/NV_NVDLA_cdma.cpp hls_convertor / process_one_element_8 / _16);
cmod/cacc/NV_NVDLA_cacc.cpp (accumulation in mac2accu_b_transport, the
clip truncate in the delivery loop of the int8/int16 case).
"""

import numpy as np

from int_arith import (as_i64, check_field, check_signed, check_unsigned, out_type,
                       precision_bits, rha, sat, shr, wrap)

MEAN_REGISTERS = ("mean_ry", "mean_gu", "mean_bv", "mean_ax")


def _cvt_core(x17, alu16, cvt_scale, cvt_truncate, out_bits):
    # (x - alu) is exact in 18 bits, * scale exact in 34 bits, then
    # IntShiftRight<34, 6, 17> and IntSaturation<17, 8 or 16>.
    t17 = shr((as_i64(x17) - alu16) * cvt_scale, cvt_truncate, 17)
    return sat(t17, out_bits).astype(out_type(out_bits))


def cdma_cvt_feature(x, *, cvt_en, cvt_offset, cvt_scale, cvt_truncate, in_precision,
                     proc_precision):
    """Feature data (direct / Winograd mode): x holds signed int8 or int16
    values (in_precision). cvt_en = 0 passes the data through unchanged
    (the C model then requires in_precision == proc_precision)."""
    in_bits = precision_bits("in_precision", in_precision)
    out_bits = precision_bits("proc_precision", proc_precision)
    x = check_signed("x", np.asarray(x), in_bits)
    if not cvt_en:
        if in_bits != out_bits:
            raise ValueError("cvt_en = 0 needs in_precision == proc_precision")
        return np.asarray(x).astype(out_type(out_bits))
    cvt_offset = check_signed("cvt_offset", cvt_offset, 16)
    cvt_scale = check_signed("cvt_scale", cvt_scale, 16)
    cvt_truncate = check_unsigned("cvt_truncate", cvt_truncate, 6)
    return _cvt_core(x, cvt_offset, cvt_scale, cvt_truncate, out_bits)


def cdma_cvt_image(pixels, *, cvt_en, cvt_offset, cvt_scale, cvt_truncate, in_precision,
                   proc_precision, pixel_sign_override, mean_format, mean_ry=0, mean_gu=0,
                   mean_bv=0, mean_ax=0):
    """Image input mode. pixels: (..., components) raw pixel components, the
    last axis in memory order (component i is the i-th 8- or 16-bit element
    of a pixel; in_precision 'int8' = 8-bit components, 'int16' = 16-bit).
    The raw bits read unsigned unless pixel_sign_override = 1. With
    mean_format = 1 component i subtracts mean_ry / mean_gu / mean_bv /
    mean_ax (i = 0..3) in place of cvt_offset. cvt_en = 0 keeps the raw
    bits (an unsigned 8-bit 200 reads as int8 -56). Padding pixels are the
    raw PAD_VALUE and never pass the converter (not modelled here)."""
    in_bits = precision_bits("in_precision", in_precision)
    out_bits = precision_bits("proc_precision", proc_precision)
    raw = np.asarray(pixels)
    check_field("pixels", raw, -(1 << (in_bits - 1)), (1 << in_bits) - 1)
    raw = as_i64(raw) & ((1 << in_bits) - 1)
    if not cvt_en:
        if in_bits != out_bits:
            raise ValueError("cvt_en = 0 needs in_precision == proc_precision")
        # The pixel's bits go on unchanged.
        return wrap(raw, out_bits).astype(out_type(out_bits))
    x17 = wrap(raw, in_bits) if pixel_sign_override else raw
    cvt_scale = check_signed("cvt_scale", cvt_scale, 16)
    cvt_truncate = check_unsigned("cvt_truncate", cvt_truncate, 6)
    if mean_format:
        means = [check_signed(n, v, 16) for n, v in
                 zip(MEAN_REGISTERS, (mean_ry, mean_gu, mean_bv, mean_ax))]
        comps = raw.shape[-1]
        if comps > 4:
            raise ValueError("at most 4 components per pixel")
        alu = np.array(means[:comps], dtype=np.int64)
    else:
        alu = check_signed("cvt_offset", cvt_offset, 16)
    return _cvt_core(x17, alu, cvt_scale, cvt_truncate, out_bits)


def csc_pad_value(pad_value, *, proc_precision):
    """What a padded position feeds the MAC: D_ZERO_PADDING_VALUE's low 8
    bits as int8 on an int8 pipeline (cmod/csc pad_value.range(7,0)), all
    16 bits as int16 otherwise."""
    bits = 8 if proc_precision == "int8" else 16
    v = check_field("pad_value", pad_value, -32768, 65535) & ((1 << bits) - 1)
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


ACC_BITS = 48


def cacc_accumulate(partials):
    """Accumulate partial sums (axis 0: CMAC deliveries in order) the way
    the assembly SRAM does: the first stored as is, each later one added
    with saturation at 48 bits (MAX_INT_48BITS / MIN_INT_48BITS)."""
    partials = as_i64(partials)
    acc = partials[0].copy()
    for p in partials[1:]:
        acc = sat(acc + p, ACC_BITS)
    return acc


def cacc_clip(acc, *, clip_truncate):
    """Delivery: round half away from zero by clip_truncate bits
    ((int64)(x / 2^t +- 0.5) in double, exact for 48-bit x), then saturate
    to int32. The field is 5 bits but the C model FAILs above 16
    (clip_truncate + 32 must not exceed the 48-bit assembly width)."""
    clip_truncate = check_field("clip_truncate", clip_truncate, 0, 16)
    acc = check_signed("acc", np.asarray(acc), ACC_BITS)
    return sat(rha(acc, clip_truncate), 32).astype(np.int32)
