"""NVDLA's Winograd convolution F(2x2, 3x3), numpy, written from the C model
(cmod/csc NV_NVDLA_csc.cpp + hls/csc_libs/csc_cvt.cpp: the input transform
"PRA"; cmod/cmac NV_NVDLA_cmac.h: products and output transform) and the
format document (weights: weight_ref.winograd_values, G g G^T rounded once).

Steps, for an input already through CDMA's converter (layer_ref.cdma_input):
  1. pad with PAD_VALUE (also beyond the bottom / right edge up to whole
     2x2 output tiles), channels to Cp with zeros; channel-extend for
     stride s: c' = (dy*s + dx)*Cp + c holds x[c][Y*s + dy][X*s + dx];
  2. each 4x4 tile d (tiles every 2 positions): C^T d C, rows
     (d0-d2, d1+d2, d2-d1, d1-d3) then columns the same way. Integers exact,
     then PRA_TRUNCATE (0) and saturation to 8 / 16 bits; fp16 each add
     rounded to fp17 (10 fraction bits, nearest-even, 6-bit exponent), then
     Fp17ToFp16;
  3. sum over extended channels (ascending, from +0) of data x stored tap:
     integers exact, fp16 in float32;
  4. A^T M A: rows (m0+m1)+m2, (m1-m2)-m3, then the columns the same way;
  5. bias, then the output precision (layer_ref.to_output).
"""

import numpy as np

import layer_ref as ref
import weight_ref


def round_fp17(v):
    """float64 -> nearest-even with 10 fraction bits (no exponent limit
    reached here: sums of fp16 values)."""
    v = np.asarray(v, np.float64)
    m, e = np.frexp(v)                      # v = m * 2^e, 0.5 <= |m| < 1
    return np.ldexp(np.round(m * 2.0 ** 11), e - 11)   # np.round: half to even


def _rows(d, fp):
    """C^T applied along axis -2 (4 rows)."""
    step = (lambda a: round_fp17(a)) if fp else (lambda a: a)
    d0, d1, d2, d3 = (d[..., i, :] for i in range(4))
    return np.stack([step(d0 - d2), step(d1 + d2), step(d2 - d1), step(d1 - d3)], axis=-2)


def input_transform(tiles, pipeline):
    """tiles (..., 4, 4) of the pipeline's values -> C^T d C as the PRA
    delivers it: float16 values for 'f16', int64 saturated otherwise."""
    fp = pipeline == "f16"
    t = tiles.astype(np.float64) if fp else tiles.astype(np.int64)
    t = _rows(t, fp)
    t = np.swapaxes(_rows(np.swapaxes(t, -1, -2), fp), -1, -2)
    if fp:
        return t.astype(np.float16)         # Fp17ToFp16: nearest-even
    lo, hi = ref.INT_RANGE[pipeline]
    return np.clip(t, lo, hi)


def _a_t(m, axis):
    m0, m1, m2, m3 = (np.take(m, i, axis=axis) for i in range(4))
    return np.stack([(m0 + m1) + m2, (m1 - m2) - m3], axis=axis)


def winograd_conv(x, w, enc, bias=None, stride=1, pad=(0, 0, 0, 0), pad_value=0, out="f16",
                  elt=None):
    """The hardware's Winograd convolution of NCHW `x` with KCRS weights `w`
    packed as `enc` ('#dla.weight<winograd, ...>'). Returns the output in
    `out`'s precision. `elt`: the weights' element type when `w` is f32
    relayouted straight into them (int8 / int16 with a scale: the taps are
    round(G w G^T / scale), weight_ref.convert_winograd)."""
    pipeline = elt or ("f16" if w.dtype == np.float16 else ref.dtype_name(w))
    if pipeline != "f16":
        x = ref.cdma_input(x, pipeline)
    p = weight_ref.plan(enc, w.shape, pipeline)
    taps = weight_ref.winograd_values(w, p)             # K x Cx x 4 x 4
    n, c, h, wd = x.shape
    k, cx = taps.shape[:2]
    s = stride
    cp = cx // (s * s)
    r, sw = w.shape[2:]
    oh = (h + pad[0] + pad[1] - r) // s + 1
    ow = (wd + pad[2] + pad[3] - sw) // s + 1
    th, tw = -(-oh // 2), -(-ow // 2)
    hy, wx = 2 * th + 2, 2 * tw + 2
    dt = np.float64 if pipeline == "f16" else np.int64
    xp = np.full((n, cp, hy * s, wx * s), pad_value, dt)
    xp[:, c:] = 0
    keep_h, keep_w = min(h, hy * s - pad[0]), min(wd, wx * s - pad[2])
    xp[:, :c, pad[0]:pad[0] + keep_h, pad[2]:pad[2] + keep_w] = x[:, :, :keep_h, :keep_w]
    # Channel extension: xe[n, (dy*s + dx)*cp + c, Y, X] = xp[n, c, Y*s + dy, X*s + dx].
    xe = xp.reshape(n, cp, hy, s, wx, s).transpose(0, 3, 5, 1, 2, 4).reshape(n, cx, hy, wx)
    # 4x4 tiles every 2 positions: (n, cx, th, tw, 4, 4).
    iy = 2 * np.arange(th)[:, None] + np.arange(4)[None, :]
    ix = 2 * np.arange(tw)[:, None] + np.arange(4)[None, :]
    tiles = xe[:, :, iy[:, None, :, None], ix[None, :, None, :]]
    v = input_transform(tiles, pipeline)
    if pipeline == "f16":
        v32, t32 = v.astype(np.float32), taps.astype(np.float32)
        m = np.zeros((n, k, th, tw, 4, 4), np.float32)
        for ci in range(cx):                 # ascending, each add rounded to f32
            m = (m + v32[:, None, ci] * t32[None, :, ci, None, None]).astype(np.float32)
    else:
        m = np.einsum("nctwij,kcij->nktwij", v.astype(np.int64), taps.astype(np.int64))
    y = _a_t(_a_t(m, 4), 5)                  # (n, k, th, tw, 2, 2)
    y = y.transpose(0, 1, 2, 4, 3, 5).reshape(n, k, 2 * th, 2 * tw)[:, :, :oh, :ow]
    if bias is not None:
        if pipeline == "f16":
            y = (y + ref.broadcast_aux(bias, y.shape).astype(np.float32)).astype(np.float32)
        else:
            y = y + ref.broadcast_aux(bias, y.shape).astype(np.int64)
    return ref.to_output(y, out)
