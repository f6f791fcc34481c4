"""Random fp16 LRN layers (the CDP on nv_full) with their expected result
from fp_nvdla.cdp_fp16 on the tables lrn_tables.derive_lrn_float_tables
derives (the register plan's, restated).

Each case: data C x H x W (C 1..40: one to three 16-channel fp16 atoms on
nv_full; H, W up to 6), window 3 / 5 / 7 / 9, alpha, beta, k drawn around
the usual ones (f32 values, as the op holds them). The data: fp16 values
over many binades (square sums on both tables and past LO's end), zeros
of both signs, denormals, in some cases infinities and NaNs."""

import numpy as np

import fp_nvdla as fp
from fp16_cases_pdp import values
from lrn_tables import derive_lrn_float_tables


def params(rng):
    alpha = float(np.float32(rng.choice([1e-4, 1e-3, 0.01, 0.1, 1.0]) * rng.uniform(0.5, 2)))
    beta = float(np.float32(rng.choice([0.75, rng.uniform(0.3, 1.2)])))
    k = float(np.float32(rng.choice([1.0, 2.0, rng.uniform(0.5, 3)])))
    return alpha, beta, k, int(rng.choice([3, 5, 7, 9]))


def data(rng, shape, special):
    """values() scaled by 2^0..2^7 so that square sums reach past LO."""
    v = values(rng, shape, special)
    scaled = (v.view(np.float16).astype(np.float32) * 2.0 ** int(rng.integers(0, 8)))
    bits = scaled.astype(np.float16).view(np.uint16)
    keep = (((v >> 10) & 31) == 31) | ((v & 0x7FFF) == 0)
    return np.where(keep, v, bits).astype(np.uint16)


def expected(x, alpha, beta, k, size):
    return fp.cdp_fp16(x, size, derive_lrn_float_tables(alpha, beta, k, size)).astype(np.uint16)


def layer_cases(rng, count, Case, tensor_type):
    """run_layers.py --kind fp16-lrn: `count` LRN layers (batches of 1 and
    2), expected fp_nvdla.cdp_fp16 bit for bit."""
    cases = []
    for n in range(count):
        alpha, beta, k, size = params(rng)
        c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
        batch = int(rng.choice([1, 1, 2]))
        x = data(rng, (batch, c, h, w), special=rng.random() < 0.2)
        want = expected(x, alpha, beta, k, size)
        op = (f"dla.lrn %a0 size {size} {{alpha = {alpha!r} : f32, beta = {beta!r} : f32, "
              f"k = {k!r} : f32}} : {tensor_type(x.shape, 'f16')} -> "
              f"{tensor_type(want.shape, 'f16')}")
        case = Case(f"fp16_lrn_{n}", [(x.view(np.float16), "f16")], op, want.shape, "f16",
                    want.view(np.float16))
        case.bits = True
        cases.append(case)
    return cases


def draw(rng, n):
    """One case for the v1 model (run_fp16_trace.py --layer cdp): dict(name,
    x (C x H x W fp16 bits), size, alpha, beta, k, func (the MLIR function,
    feature data in fp16), want (fp16 bits, C x H x W))."""
    alpha, beta, k, size = params(rng)
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
    x = data(rng, (c, h, w), special=rng.random() < 0.2)
    want = expected(x, alpha, beta, k, size)
    name = f"lrn_{n}"
    t = f"tensor<1x{c}x{h}x{w}xf16, #dla.feature<fp16>>"
    func = (f"func.func @{name}(%x: {t}) -> {t} {{\n  %y = dla.lrn %x size {size} "
            f"{{alpha = {alpha!r} : f32, beta = {beta!r} : f32, k = {k!r} : f32}} : {t} -> {t}\n"
            f"  return %y : {t}\n}}\n")
    return dict(name=name, x=x, size=size, alpha=alpha, beta=beta, k=k, func=func, want=want)


def ideal(c):
    """IEEE: x (k + alpha / size * S)^-beta in float64 over the window
    clipped to the channels (ONNX's LRN), rounded once to fp16."""
    xf = c["x"].view(np.float16).astype(np.float64)
    C = xf.shape[0]
    half = (c["size"] - 1) // 2
    sq = np.pad(xf * xf, ((half, half), (0, 0), (0, 0)))
    s = sum(sq[j:j + C] for j in range(c["size"]))
    with np.errstate(all="ignore"):
        y = xf * np.power(c["k"] + c["alpha"] / c["size"] * s, -c["beta"])
    return y.astype(np.float16).view(np.uint16)
