"""A numpy model of the proposed int8 LayerNorm program over channels
(nv_small: no LUT, no int16; docs/WholeNetworks.md, "The recognizer's
neck"), against the float LayerNorm, with scales as calibration sets them
(each intermediate's range over calibration tokens). Not the compiler's:
the program is not built; this states its error before building it.

    python3 utils/dla-ref/layernorm_int8_model.py

Steps (each an existing NVDLA program): d = x - mean as a 1x1 conv with
the centering matrix C I - 1 (exact in int32), requantized at zero point
0; d^2 the per-element product; var + eps a ones 1x1 conv with eps in
its bias; r = rsqrt a tosa.table (the X-stage chain on nv_small); d r
the product (r broadcast over channels by a ones 1x1 conv); gamma, beta
one per-channel affine SDP. `split` models a second table for r's
remainder (r to ~14 bits).
"""
import numpy as np

def rnd(v):  # round half away from zero (SDP / TOSA rescale style)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)

def program(x, gamma, beta, eps, cal, split=False):
    T, C = x.shape
    sx, zx = cal["x"]
    x8 = np.clip(np.rint(x / sx) + zx, -128, 127)
    xi = x8 - zx
    acc_d = C * xi - xi.sum(1, keepdims=True)           # conv (C I - 1): exact
    sd = cal["d"]
    d8 = np.clip(rnd(acc_d * sx / (C * sd)), -127, 127)  # zero point 0
    ssq = cal["sq"]
    sq8 = np.clip(rnd(d8 * d8 * sd * sd / ssq) - 128, -128, 127)  # product, zp -128
    sv = cal["v"]
    acc_v = (sq8 + 128).sum(1, keepdims=True)            # ones conv: exact
    v8 = np.clip(rnd((acc_v * ssq / C + eps) / sv) - 128, -128, 127)
    sr = cal["r"]
    lv = np.maximum(v8 + 128, 0.5)                       # level 0: var + eps < sv / 2
    r = 1 / np.sqrt(lv * sv) / sr
    r8 = np.clip(rnd(r), 0, 127)                         # the table, zp 0
    sn = cal["n"]
    if split:
        # a second table: the remainder at 1/128 of r8's step (|.| <= 64),
        # its product with d added to the first's (int32 exact) before the
        # one rounding: r to ~14 bits
        lo = np.clip(rnd((r - r8) * 128), -127, 127)
        n8 = np.clip(rnd(d8 * (r8 * 128 + lo) * sd * sr / (128 * sn)), -127, 127)
    else:
        n8 = np.clip(rnd(d8 * r8 * sd * sr / sn), -127, 127) # product, zp 0
    sy, zy = cal["y"]
    y8 = np.clip(rnd((gamma * n8 * sn + beta) / sy) + zy, -128, 127)
    return (y8 - zy) * sy, (x8 - zx) * sx

def layernorm(x, gamma, beta, eps):
    m = x.mean(1, keepdims=True)
    v = ((x - m) ** 2).mean(1, keepdims=True)
    return gamma * (x - m) / np.sqrt(v + eps) + beta

def calibrate(xs, gamma, beta, eps):
    x = np.concatenate(xs)
    m = x.mean(1, keepdims=True); d = x - m; v = (d * d).mean(1, keepdims=True) + eps
    n = d / np.sqrt(v); y = gamma * n + beta
    lo, hi = min(x.min(), 0), max(x.max(), 0)
    sx = (hi - lo) / 255; zx = -128 + round(-lo / sx)
    ylo, yhi = min(y.min(), 0), max(y.max(), 0)
    sy = (yhi - ylo) / 255; zy = -128 + round(-ylo / sy)
    return {"x": (sx, zx), "d": np.abs(d).max() / 127, "sq": (d * d).max() / 255,
            "v": v.max() / 255, "r": (1 / np.sqrt(v.min())) / 127, "n": np.abs(n).max() / 127,
            "y": (sy, zy)}

def sample(rng, T, C, spread):
    scale = np.exp(rng.uniform(-spread, spread, (T, 1)))       # per-token spread
    chan = np.exp(rng.normal(0, 0.5, (1, C)))                  # per-channel ranges
    return rng.normal(0, 1, (T, C)) * scale * chan + rng.normal(0, 0.3, (1, C))

if __name__ == "__main__":
    import sys
    rng = np.random.default_rng(0)
    C, T, eps = 120, 40, 1e-6
    for spread in (0.0, 0.5, 1.0):
        gamma = rng.uniform(0.5, 1.5, (1, C)); beta = rng.normal(0, 0.1, (1, C))
        cal_x = [sample(rng, T, C, spread) for _ in range(8)]
        cal = calibrate(cal_x, gamma, beta, eps)
        errs, qerrs, ysteps = [], [], []
        for _ in range(16):
            x = sample(rng, T, C, spread)
            y, xq = program(x, gamma, beta, eps, cal)
            ref = layernorm(x, gamma, beta, eps)
            refq = layernorm(xq, gamma, beta, eps)       # the input's own quantization aside
            errs.append(np.abs(y - ref).max() / cal["y"][0])
            qerrs.append(np.abs(y - refq) / cal["y"][0])
        q = np.concatenate([e.reshape(-1) for e in qerrs])
        print("token std spread e^+-%.1f: max %.2f output steps from the float LayerNorm of the"
              " quantized input (mean %.3f, 99.9%% %.2f); max %.2f from the float input's"
              % (spread, q.max(), q.mean(), np.quantile(q, 0.999), max(errs)))
