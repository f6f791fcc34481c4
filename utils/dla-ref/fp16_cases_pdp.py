"""Random offline fp16 pooling layers (the PDP) with their expected result
from fp_nvdla (pdp_fp16: fp16 FpMax / FpMin, fp17 sums rounded after every
addition, the firmware's fp17 reciprocals, Fp17ToFp16).

Each case: data C x H x W (C 1..40, so one to three 16-channel fp16 atoms
on nv_full; H and W up to 12), max, min or average over kernels of 1..8,
strides 1..3, padding 0..kernel-1 per side (padding value 0: the
only one dla.pool states in fp16). The data: fp16 values over several
binades, zeros of both signs, denormals, in some cases infinities and
NaNs."""

import numpy as np

import fp_nvdla as fp

METHODS = (fp.POOL_MAX, fp.POOL_MIN, fp.POOL_AVERAGE)


def values(rng, shape, special):
    """fp16 bit patterns: normal values over several binades (averages of
    close and far magnitudes), zeros of both signs, denormals; with
    `special`, a few infinities and NaNs."""
    v = (rng.standard_normal(shape) * 2.0 ** rng.integers(-10, 8, shape)).astype(np.float16)
    bits = v.view(np.uint16).copy()
    r = rng.random(shape)
    bits[r < 0.06] = 0
    bits[(r >= 0.06) & (r < 0.1)] = 0x8000
    den = (r >= 0.1) & (r < 0.14)
    bits[den] = rng.integers(1, 0x400, int(den.sum())) | (rng.integers(0, 2, int(den.sum())) << 15)
    if special:
        inf = (r >= 0.14) & (r < 0.15)
        bits[inf] = np.where(rng.random(int(inf.sum())) < 0.5, 0x7c00, 0xfc00)
        nan = (r >= 0.15) & (r < 0.155)
        bits[nan] = 0x7e00 | rng.integers(0, 0x200, int(nan.sum()))
    return bits.astype(np.uint16)


def ttype(shape):
    return f"tensor<{'x'.join(map(str, shape))}xf16, #dla.feature<fp16>>"


def draw(rng, n):
    """One case: dict(name, x (C x H x W fp16 bits), method, kernel, stride,
    pad, func (the MLIR function), want (fp16 bits, C x OH x OW))."""
    method = METHODS[int(rng.integers(0, 3))]
    kh = int(rng.choice([rng.integers(1, 4), rng.integers(1, 9)], p=[0.6, 0.4]))
    # Width 8 often: past the C model's table of widths in fp17 (pdp_h_step).
    kw = int(rng.choice([rng.integers(1, 4), rng.integers(1, 9), 8], p=[0.5, 0.35, 0.15]))
    sh, sw = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    pad = (int(rng.integers(0, kh)), int(rng.integers(0, kh)), int(rng.integers(0, kw)),
           int(rng.integers(0, kw)))
    if rng.random() < 0.3:
        pad = (0, 0, 0, 0)
    c = int(rng.integers(1, 41))
    h = int(rng.integers(max(1, kh - pad[0] - pad[1]), 13))
    w = int(rng.integers(max(1, kw - pad[2] - pad[3]), 13))
    x = values(rng, (c, h, w), special=rng.random() < 0.2)
    want = fp.pdp_fp16(x, method, (kh, kw), (sh, sw), pad).astype(np.uint16)
    name = f"pool_{n}"
    ti, to = ttype((1, c, h, w)), ttype((1,) + want.shape)
    func = (f"func.func @{name}(%x: {ti}) -> {to} {{\n  %y = dla.pool {method} %x kernel "
            f"[{kh}, {kw}] stride [{sh}, {sw}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}] : "
            f"{ti} -> {to}\n  return %y : {to}\n}}\n")
    return dict(name=name, x=x, method=method, kernel=(kh, kw), stride=(sh, sw), pad=pad,
                func=func, want=want)


def ideal(c):
    """IEEE: max / min of the window's positions (padding ignored), the
    average the exact sum over the whole kernel (padding 0) rounded once to
    fp16 (the ideal meaning of dla.pool rounds f32 steps: for the report
    only)."""
    xf = c["x"].view(np.float16).astype(np.float64)
    kh, kw = c["kernel"]
    sh, sw = c["stride"]
    pt, pb, pl, pr = c["pad"]
    fill = {fp.POOL_MAX: -np.inf, fp.POOL_MIN: np.inf, fp.POOL_AVERAGE: 0.0}[c["method"]]
    xp = np.pad(xf, ((0, 0), (pt, pb), (pl, pr)), constant_values=fill)
    oh, ow = c["want"].shape[1:]
    out = np.zeros(c["want"].shape)
    for i in range(oh):
        for j in range(ow):
            win = xp[:, i * sh:i * sh + kh, j * sw:j * sw + kw]
            out[:, i, j] = (win.max(axis=(1, 2)) if c["method"] == fp.POOL_MAX else
                            win.min(axis=(1, 2)) if c["method"] == fp.POOL_MIN else
                            win.sum(axis=(1, 2)) / (kh * kw))
    return out.astype(np.float16).view(np.uint16)


def layer_cases(rng, count, Case, tensor_type):
    """run_layers.py --kind fp16-pdp: `count` pooling layers drawn as
    draw() draws them (batches of 1 and 2), expected fp_nvdla.pdp_fp16 bit
    for bit."""
    cases = []
    for n in range(count):
        c = draw(rng, n)
        batch = int(rng.choice([1, 1, 2]))
        x = c["x"][None] if batch == 1 else np.stack(
            [c["x"], values(rng, c["x"].shape, special=False)])
        want = fp.pdp_fp16(x, c["method"], c["kernel"], c["stride"], c["pad"]).astype(np.uint16)
        (kh, kw), (sh, sw), p = c["kernel"], c["stride"], c["pad"]
        op = (f"dla.pool {c['method']} %a0 kernel [{kh}, {kw}] stride [{sh}, {sw}] pad [{p[0]}, "
              f"{p[1]}, {p[2]}, {p[3]}] : {tensor_type(x.shape, 'f16')} -> "
              f"{tensor_type(want.shape, 'f16')}")
        case = Case(f"fp16_pool_{c['method']}_{n}", [(x.view(np.float16), "f16")], op,
                    want.shape, "f16", want.view(np.float16))
        case.bits = True
        cases.append(case)
    return cases
