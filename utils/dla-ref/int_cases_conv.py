"""Random integer convolutions for `run_layers.py --kind int-conv`.

CDMA's input converter with registers across their whole ranges (offset and
scale -32768..32767, truncate 0..63, the edges included), absent (the
identity converter) or stated; feature data (int8, int16) and images (ui8,
i8, i16 pixels into an int8 or int16 pipeline, with or without the four
mean registers); random padding, strides, dilation, bias and CACC's clip
truncate, and the padding value (PAD_VALUE) of padded convolutions. Expected values come from the numpy model of NVIDIA's C model:
int_conv.cdma_cvt_feature / cdma_cvt_image, the exact sum (never near the
48-bit saturation here), int_conv.cacc_clip, then the bias and the
saturation to the output (docs/IntegerAttributes.md section 3).
"""

import numpy as np

import int_conv
from int_arith import sat

NP = {"i8": np.int8, "i16": np.int16, "ui8": np.uint8}
BITS = {"i8": 8, "i16": 16, "ui8": 8}
PRECISION = {"i8": "int8", "i16": "int16"}


def _reg16(rng):
    if rng.random() < 0.3:
        return int(rng.choice([-32768, 32767, 0, 1, -1, 2, -2]))
    return int(rng.integers(-32768, 32768))


def _cvt(rng):
    """(offset, scale, shift) or None; scales and shifts that keep some
    values unsaturated as well as ones that saturate everything."""
    if rng.random() < 0.2:
        return None
    offset = _reg16(rng)
    r = rng.random()
    if r < 0.4:
        scale = int(rng.integers(1, 1 << 15))
        shift = int(np.clip(int(scale).bit_length() + rng.integers(-2, 3), 0, 63))
    else:
        scale = _reg16(rng)
        shift = int(rng.choice([0, 1, 15, 16, 17, 31, 32, 33, 62, 63])) if rng.random() < 0.4 \
            else int(rng.integers(0, 64))
    if rng.random() < 0.3:
        scale = -scale if scale > -32768 else scale
    return offset, scale, shift


def _data(rng, shape, t):
    bits = BITS[t]
    lo, hi = (0, (1 << bits) - 1) if t.startswith("u") else (-(1 << (bits - 1)),
                                                            (1 << (bits - 1)) - 1)
    if rng.random() < 0.2:
        return rng.choice([lo, hi, lo + 1, hi - 1, 0, 1], size=shape).astype(NP[t])
    return rng.integers(lo, hi + 1, size=shape).astype(NP[t])


def _convert(x, mode, xt, pipeline, cvt, mean):
    offset, scale, shift = cvt or (0, 1, 0)
    common = dict(cvt_en=1, cvt_offset=offset, cvt_scale=scale, cvt_truncate=shift,
                  in_precision="int%d" % BITS[xt], proc_precision=PRECISION[pipeline])
    if mode == "direct":
        return int_conv.cdma_cvt_feature(x, **common)
    means = dict(zip(int_conv.MEAN_REGISTERS, mean or (0, 0, 0, 0)))
    y = int_conv.cdma_cvt_image(np.moveaxis(x, 1, -1), pixel_sign_override=int(xt != "ui8"),
                                mean_format=int(mean is not None), **common, **means)
    return np.moveaxis(y, -1, 1)


def _conv_sum(x, w, stride, pad, dil, pad_value=0):
    n, _, h, wd = x.shape
    k, c, r, s = w.shape
    xp = np.pad(x[:, :c].astype(np.int64), ((0, 0), (0, 0), (pad[0], pad[1]), (pad[2], pad[3])),
                constant_values=pad_value)
    oh = (h + pad[0] + pad[1] - (r - 1) * dil[0] - 1) // stride[0] + 1
    ow = (wd + pad[2] + pad[3] - (s - 1) * dil[1] - 1) // stride[1] + 1
    acc = np.zeros((n, k, oh, ow), dtype=np.int64)
    for i in range(r):
        for j in range(s):
            rows = xp[:, :, i * dil[0]:i * dil[0] + stride[0] * (oh - 1) + 1:stride[0],
                      j * dil[1]:j * dil[1] + stride[1] * (ow - 1) + 1:stride[1]]
            acc += np.einsum("nchw,kc->nkhw", rows, w[:, :, i, j].astype(np.int64))
    assert np.abs(acc).max(initial=0) < 1 << 47  # CACC's 48-bit saturation is not reached
    return acc


def _layer(rng, index, make_case, tensor_type):
    mode = "image" if rng.random() < 0.45 else "direct"
    pipeline = "i8" if rng.random() < 0.5 else "i16"
    if mode == "image":
        xt = str(rng.choice(["ui8", "ui8", "i8", "i16"]))
        channels = int(rng.integers(1, 5))
        wc = int(rng.integers(1, channels + 1))
        dil = (1, 1)
    else:
        xt = pipeline
        channels = wc = int(rng.integers(1, 7))
        dil = (1, 1) if rng.random() < 0.8 else tuple(int(d) for d in rng.integers(1, 3, size=2))
    k = int(rng.integers(1, 5))
    r, s = (int(v) for v in rng.integers(1, 4, size=2))
    stride = tuple(int(v) for v in rng.integers(1, 3, size=2))
    pad = [int(v) for v in rng.integers(0, 3, size=4)] if rng.random() < 0.7 else [0, 0, 0, 0]
    er, es = (r - 1) * dil[0] + 1, (s - 1) * dil[1] + 1
    h = int(rng.integers(max(1, er - pad[0] - pad[1]), 8))
    wd = int(rng.integers(max(1, es - pad[2] - pad[3]), 8))
    x = _data(rng, (1, channels, h, wd), xt)
    w = _data(rng, (k, wc, r, s), pipeline)
    bias = _data(rng, (k,), pipeline) if rng.random() < 0.4 else None

    cvt = _cvt(rng)
    mean = None
    if mode == "image" and cvt is not None and rng.random() < 0.5:
        mean = [_reg16(rng) if rng.random() < 0.5 else int(rng.integers(0, 256))
                for _ in range(4)]
        cvt = (0, cvt[1], cvt[2])
    clip = int(rng.integers(0, 17)) if rng.random() < 0.5 else None
    lim = 1 << (BITS[pipeline] - 1)
    pad_value = int(rng.integers(-lim, lim)) if any(pad) and rng.random() < 0.5 else None

    xc = _convert(x, mode, xt, pipeline, cvt, mean)
    fed = int_conv.csc_pad_value(pad_value or 0, proc_precision=PRECISION[pipeline])
    acc = int_conv.cacc_clip(_conv_sum(xc, w, stride, pad, dil, fed), clip_truncate=clip or 0)
    v = acc.astype(np.int64) + (bias.astype(np.int64).reshape(1, -1, 1, 1)
                                if bias is not None else 0)
    expected = sat(v, BITS[pipeline]).astype(NP[pipeline])

    args = [(x, xt), (w, pipeline)] + ([(bias, pipeline)] if bias is not None else [])
    names = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(tensor_type(a.shape, t) for a, t in args)
    attrs = ""
    if cvt is not None:
        attrs += " input_cvt <offset = %d, scale = %d, shift = %d>" % cvt
    if mean is not None:
        attrs += " mean [" + ", ".join(map(str, mean)) + "]"
    if clip is not None:
        attrs += f" clip_truncate {clip}"
    if pad_value is not None:
        attrs += f" pad_value {pad_value}"
    op = (f"dla.conv {mode} {names} stride [{stride[0]}, {stride[1]}] "
          f"pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}] dilation [{dil[0]}, {dil[1]}]{attrs} "
          f": {types} -> {tensor_type(expected.shape, pipeline)}")
    return make_case(f"int_conv_{mode}_{xt}_{pipeline}_{index}", args, op, expected.shape,
                     pipeline, expected)


def int_conv_cases(rng, count, make_case, tensor_type):
    """`count` random layers, each made by make_case(name, args, op, shape,
    out_t, expected) (run_layers.Case, passed in as int_cases_sdp takes it)."""
    return [_layer(rng, i, make_case, tensor_type) for i in range(count)]
