"""Independent numpy reference of what NVDLA layer ops compute.

Written from docs/ReferenceSemantics.md and the NVDLA precision documents,
not from the C++ lowering: explicit loops over windows, float64 sums (exact
for every f16 product sum these tests use, so the only difference to an f32
accumulator is its rounding order), numpy's own f16 rounding.

Precisions: 'f16' (fp16 feature data, pipeline fp32), 'i8', 'i16'; images
may also be 'ui8'. Integer outputs saturate; float -> integer rounds half
away from zero; results beyond +-65504 clip to it before f16 rounding.
"""

import numpy as np

F16_MAX = 65504.0
INT_RANGE = {"i8": (-128, 127), "i16": (-32768, 32767), "i32": (-2**31, 2**31 - 1)}
NP_TYPE = {"f16": np.float16, "i8": np.int8, "i16": np.int16, "ui8": np.uint8,
           "i32": np.int32, "f32": np.float32}


def to_output(values, out):
    """Exact (float64 or int) values -> the output precision."""
    values = np.asarray(values, dtype=np.float64)
    if out == "f16":
        return np.clip(values, -F16_MAX, F16_MAX).astype(np.float16)
    lo, hi = INT_RANGE[out]
    rounded = np.sign(values) * np.floor(np.abs(values) + 0.5)
    rounded = np.nan_to_num(rounded, nan=0.0)
    return np.clip(rounded, lo, hi).astype(NP_TYPE[out])


def cdma_input(x, pipeline, input_cvt=None, mean=None):
    """CDMA's input converter of an integer pipeline ('i8' / 'i16'):
    int_conv.cdma_cvt_image on NHWC pixel components (read unsigned for an
    unsigned type, PIXEL_SIGN_OVERRIDE otherwise), `input_cvt` an (offset,
    scale, shift), absent the identity converter; `mean` per component."""
    import int_conv
    offset, scale, shift = input_cvt or (0, 1, 0)
    bits = 8 if x.dtype.itemsize == 1 else 16
    means = dict(zip(int_conv.MEAN_REGISTERS, mean or (0, 0, 0, 0)))
    y = int_conv.cdma_cvt_image(
        np.moveaxis(x, 1, -1), cvt_en=1, cvt_offset=offset, cvt_scale=scale,
        cvt_truncate=shift, in_precision="int%d" % bits,
        proc_precision={"i8": "int8", "i16": "int16"}[pipeline],
        pixel_sign_override=int(x.dtype.kind == "i"), mean_format=int(mean is not None), **means)
    return np.moveaxis(y, -1, 1)


def conv(x, w, bias=None, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), out="f16",
         clip_truncate=None, input_cvt=None, mean=None):
    """Convolution sum in exact arithmetic; image inputs with more channels
    than the weight use only the weight's channels. Integer pipelines read
    the input through CDMA's converter (cdma_input; the padding is not
    converted). With `clip_truncate`, the sum is delivered as CACC does
    (int_conv.cacc_clip) before the bias."""
    if w.dtype != np.float16:
        x = cdma_input(x, dtype_name(w), input_cvt, mean)
    n, _, h, wd = x.shape
    k, c, r, s = w.shape
    xs = x[:, :c].astype(np.float64)
    xs = np.pad(xs, ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh = (h + pad[0] + pad[1] - (r - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (wd + pad[2] + pad[3] - (s - 1) * dilation[1] - 1) // stride[1] + 1
    wf = w.astype(np.float64)
    acc = np.zeros((n, k, oh, ow))
    for i in range(r):
        for j in range(s):
            rows = xs[:, :, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                      j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
            acc += np.einsum("nchw,kc->nkhw", rows, wf[:, :, i, j])
    if clip_truncate is not None:
        import int_conv
        acc = int_conv.cacc_clip(acc.astype(np.int64), clip_truncate=clip_truncate)
        acc = acc.astype(np.float64)
    if bias is not None:
        acc += broadcast_aux(bias, acc.shape)
    return to_output(acc, out)


def conv_f32_in_order(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1)):
    """An fp16 convolution as docs/ReferenceSemantics.md states its order:
    each output element adds its products (exact in f32) in (c, r, s) order
    into an f32 accumulator starting at +0, each addition rounded to f32;
    then the output rounding. Bit for bit what the CPU lowering computes."""
    n, _, h, wd = x.shape
    k, c, r, s = w.shape
    xs = np.pad(x[:, :c].astype(np.float32), ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])))
    oh = (h + pad[0] + pad[1] - (r - 1) * dilation[0] - 1) // stride[0] + 1
    ow = (wd + pad[2] + pad[3] - (s - 1) * dilation[1] - 1) // stride[1] + 1
    wf = w.astype(np.float32)
    acc = np.zeros((n, k, oh, ow), dtype=np.float32)
    for ci in range(c):
        for i in range(r):
            for j in range(s):
                rows = xs[:, ci, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                          j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
                acc += rows[:, None] * wf[None, :, ci, i, j, None, None]
    return to_output(acc, "f16")


def broadcast_aux(a, shape):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim == 1:
        return a.reshape(1, -1, 1, 1)
    return a


def output_converter(v, out_cvt, out):
    """The SDP's output converter (offset, scale, shift) on exact integer
    results: saturated to 32 bits, then int_sdp.sdp_cvt (the numpy model of
    the C model's converter)."""
    import int_sdp
    offset, scale, shift = out_cvt
    v32 = np.clip(np.asarray(v, dtype=np.float64), -2.0**31, 2.0**31 - 1).astype(np.int64)
    return int_sdp.sdp_cvt(v32, cvt_offset=offset, cvt_scale=scale, cvt_shift=shift,
                           out_precision={"i8": "int8", "i16": "int16"}[out])


def sdp(x, bias=None, bn=None, eltwise=None, prelu=None, relu=False, out="f16", out_cvt=None):
    """bias, batch-norm (add then multiply), element-wise add, ReLU / PReLU,
    one rounding at the output (through `out_cvt`, an (offset, scale,
    shift), when given)."""
    v = x.astype(np.float64)
    if bias is not None:
        v = v + broadcast_aux(bias, v.shape)
    if bn is not None:
        bn = bn.astype(np.float64)
        v = (v + bn[:, 0].reshape(1, -1, 1, 1)) * bn[:, 1].reshape(1, -1, 1, 1)
    if eltwise is not None:
        v = v + eltwise.astype(np.float64)
    if relu:
        v = np.maximum(v, 0)
    if prelu is not None:
        v = np.where(v < 0, v * prelu.astype(np.float64).reshape(1, -1, 1, 1), v)
    if out_cvt is not None:
        return output_converter(v, out_cvt, out)
    return to_output(v, out)


def clamp(x, lo, hi, out="f16", out_cvt=None):
    """The SDP ALU's MAX against lo, then MIN against hi, one rounding at the
    output (through `out_cvt` when given)."""
    v = np.minimum(np.maximum(x.astype(np.float64), lo), hi)
    return output_converter(v, out_cvt, out) if out_cvt is not None else to_output(v, out)


def pool(x, kind, kernel, stride=(1, 1), pad=(0, 0, 0, 0), recip=None, pad_values=None):
    """Max / min ignore padding. fp16 average divides by the whole window
    with padding counted as zero; integer average is PDP's
    (int_pdp.pdp_pool): the wrapped window sum plus the padding registers
    (`pad_values`, 7 entries, default 0), times the reciprocals (`recip` =
    (width, height), default floor(2^16 / k)) with two roundings, wrapped."""
    if kind == "average" and x.dtype != np.float16:
        import int_pdp
        rw, rh = recip or (int_pdp.pdp_recip_kernel(kernel[1]),
                           int_pdp.pdp_recip_kernel(kernel[0]))
        regs = {"pad_value_%dx" % (i + 1): v for i, v in enumerate(pad_values or [0] * 7)}
        return int_pdp.pdp_pool(x, pooling_method="average", kernel=kernel, stride=stride,
                                pad=pad, input_data={np.dtype(np.int8): "int8",
                                                     np.dtype(np.int16): "int16"}[x.dtype],
                                recip_kernel_width=rw, recip_kernel_height=rh, **regs)
    n, c, h, w = x.shape
    oh = (h + pad[0] + pad[1] - kernel[0]) // stride[0] + 1
    ow = (w + pad[2] + pad[3] - kernel[1]) // stride[1] + 1
    fill = {"max": -np.inf, "min": np.inf, "average": 0.0}[kind]
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])),
                constant_values=fill)
    res = np.empty((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * stride[0]:i * stride[0] + kernel[0],
                     j * stride[1]:j * stride[1] + kernel[1]]
            if kind == "max":
                res[:, :, i, j] = win.max(axis=(2, 3))
            elif kind == "min":
                res[:, :, i, j] = win.min(axis=(2, 3))
            else:
                res[:, :, i, j] = win.sum(axis=(2, 3)) / (kernel[0] * kernel[1])
    return to_output(res, dtype_name(x))


def lrn(x, size, alpha=1e-4, beta=0.75, k=1.0):
    """ONNX LRN: channels [c - (size-1)//2, c + size//2 ... ] clipped.
    Integer LRN is the CDP's arithmetic (int_cdp.cdp_lrn) on the tables
    derived from alpha, beta, k (lrn_tables.py); alpha, beta and k are read
    as f32, as the op's attributes hold them."""
    if x.dtype in (np.int8, np.int16):
        import lrn_tables
        f32 = lambda v: float(np.float32(v))  # noqa: E731
        return lrn_tables.cdp_lrn_derived(x, size, f32(alpha), f32(beta), f32(k))
    xf = x.astype(np.float64)
    c = x.shape[1]
    before = (size - 1) // 2
    after = size - 1 - before
    sq = np.zeros_like(xf)
    for ch in range(c):
        lo, hi = max(0, ch - before), min(c - 1, ch + after)
        sq[:, ch] = (xf[:, lo:hi + 1] ** 2).sum(axis=1)
    return to_output(xf / (k + alpha / size * sq) ** beta, dtype_name(x))


def dtype_name(a):
    return {np.dtype(np.float16): "f16", np.dtype(np.int8): "i8",
            np.dtype(np.int16): "i16"}[a.dtype]
