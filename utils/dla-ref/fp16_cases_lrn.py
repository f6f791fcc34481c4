"""Random fp16 LRN layers (the CDP on nv_full) with their expected result
from fp_nvdla.cdp_fp16 on the tables lrn_tables.derive_lrn_float_tables
derives (the register plan's, restated).

Each case: data C x H x W (C 1..40: one to three 16-channel fp16 atoms on
nv_full; H, W up to 6), window 3 / 5 / 7 / 9, alpha, beta, k drawn around
the usual ones (f32 values, as the op holds them). The data: fp16 values
over many binades (square sums on both tables and past LO's end), zeros
of both signs, denormals, in some cases infinities and NaNs.

With drawn tables (`tables=True`) the op states a random float-mode table
(`lut <...>`, test_fp_nvdla.rand_cdp_lut: LE exponent or linear, small or
large LO ranges, edges at 0 or elsewhere, fp16 slopes, every priority), so
that square sums fall under, on and past both tables and the LE / LO
choice, the out-of-range slopes and the float-mode index select decide
the result; expected fp_nvdla.cdp_fp16 on those registers."""

import numpy as np

import fp_nvdla as fp
from fp16_cases_lut import lut_text
from fp16_cases_pdp import values
from lrn_tables import derive_lrn_float_tables
from test_fp_nvdla import rand_cdp_lut


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


def drawn_tables(rng):
    """Random float-mode CDP tables as a dla.lrn states them: rand_cdp_lut's
    registers, the index fields signed, each table's start at most its end
    as floats (the verifier's rule; redrawn otherwise)."""
    while True:
        lut = rand_cdp_lut(rng)
        f = lambda key: float(np.uint32(lut[key]).view(np.float32))  # noqa: E731
        if f("lut_le_start") <= f("lut_le_end") and f("lut_lo_start") <= f("lut_lo_end"):
            break
    for key in ("lut_le_index_offset", "lut_le_index_select", "lut_lo_index_select"):
        lut[key] = int(np.uint8(lut[key]).view(np.int8))
    return lut


def swapped(lut):
    """The negative control's registers: every priority the other table."""
    return dict(lut, **{f"lut_{k}_priority": 1 - int(lut[f"lut_{k}_priority"])
                        for k in ("uflow", "oflow", "hybrid")})


def tables_of(c):
    """Case c's float-mode registers: its stated table, or the derived one."""
    return c.get("lut") or derive_lrn_float_tables(c["alpha"], c["beta"], c["k"], c["size"])


def expected(x, alpha, beta, k, size, lut=None):
    lut = lut or derive_lrn_float_tables(alpha, beta, k, size)
    return fp.cdp_fp16(x, size, lut).astype(np.uint16)


def op_text(c, arg, t):
    """dla.lrn on `arg` of type t with case c's window, alpha, beta, k and,
    where drawn, its table."""
    stated = ""
    if c.get("lut"):
        text = lut_text(c["lut"]["lut_le_table"], c["lut"]["lut_lo_table"], c["lut"])
        stated = " lut " + text[len("#dla.lut"):]
    return (f"dla.lrn {arg} size {c['size']}{stated} {{alpha = {c['alpha']!r} : f32, "
            f"beta = {c['beta']!r} : f32, k = {c['k']!r} : f32}} : {t} -> {t}")


def table_paths(cases):
    """How the cases' square sums meet their tables (the unpadded
    channels): counts of LE and LO under / hit / over and of outputs taken
    from LO, as fp_nvdla.cdp_fp16 computes them."""
    counts = dict(le_under=0, le_hit=0, le_over=0, lo_under=0, lo_hit=0, lo_over=0, lo_used=0)
    for c in cases:
        lut = tables_of(c)
        x = np.moveaxis(c["x"].astype(np.int64), -3, -1)
        C = x.shape[-1]
        pad = np.zeros(x.shape[:-1] + (C + 8,), np.int64)
        pad[..., 4:4 + C] = x
        x32 = fp.fp17_to_fp32(fp.fp16_to_fp17(pad))
        sq = fp.fp32_mul(x32, x32)
        s = fp.cdp_square_sum_fp16(np.stack([sq[..., i:i + 9] for i in range(C)], -2),
                                   c["size"])
        sel = lambda key: fp._sext(int(lut[key]) & 0xFF, 8)  # noqa: E731
        _, le_u, le_o = fp.cdp_lookup_fp16(
            s, 64, lut["lut_le_function"] == "exponent", lut["lut_le_table"],
            lut["lut_le_start"], lut["lut_le_end"], 0, 0, sel("lut_le_index_offset"),
            sel("lut_le_index_select"))
        _, lo_u, lo_o = fp.cdp_lookup_fp16(s, 256, False, lut["lut_lo_table"],
                                           lut["lut_lo_start"], lut["lut_lo_end"], 0, 0, 0,
                                           sel("lut_lo_index_select"))
        le_hit, lo_hit = ~(le_u | le_o), ~(lo_u | lo_o)
        use_lo = np.where(le_u & lo_u, bool(lut["lut_uflow_priority"]),
                          np.where(le_o & lo_o, bool(lut["lut_oflow_priority"]),
                                   np.where(le_hit ^ lo_hit, lo_hit,
                                            bool(lut["lut_hybrid_priority"]))))
        for key, v in (("le_under", le_u), ("le_hit", le_hit), ("le_over", le_o),
                       ("lo_under", lo_u), ("lo_hit", lo_hit), ("lo_over", lo_o),
                       ("lo_used", use_lo)):
            counts[key] += int(v.sum())
    return counts


def layer_cases(rng, count, Case, tensor_type, tables=False):
    """run_layers.py --kind fp16-lrn: `count` LRN layers (batches of 1 and
    2), expected fp_nvdla.cdp_fp16 bit for bit; fp16-lrn-tables (`tables`):
    each stating a drawn float-mode table."""
    cases = []
    for n in range(count):
        alpha, beta, k, size = params(rng)
        c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
        batch = int(rng.choice([1, 1, 2]))
        x = data(rng, (batch, c, h, w), special=rng.random() < 0.2)
        lut = drawn_tables(rng) if tables else None
        want = expected(x, alpha, beta, k, size, lut)
        op = op_text(dict(size=size, alpha=alpha, beta=beta, k=k, lut=lut), "%a0",
                     tensor_type(x.shape, "f16"))
        case = Case(f"fp16_lrn_{n}", [(x.view(np.float16), "f16")], op, want.shape, "f16",
                    want.view(np.float16))
        case.bits = True
        cases.append(case)
    return cases


def draw(rng, n, tables=False):
    """One case for the v1 model (run_fp16_trace.py --layer cdp): dict(name,
    x (C x H x W fp16 bits), size, alpha, beta, k, lut (drawn tables, or
    None), func (the MLIR function, feature data in fp16), want (fp16 bits,
    C x H x W))."""
    alpha, beta, k, size = params(rng)
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 7)), int(rng.integers(1, 7))
    x = data(rng, (c, h, w), special=rng.random() < 0.2)
    lut = drawn_tables(rng) if tables else None
    want = expected(x, alpha, beta, k, size, lut)
    case = dict(name=f"lrn_{n}", x=x, size=size, alpha=alpha, beta=beta, k=k, lut=lut, want=want)
    t = f"tensor<1x{c}x{h}x{w}xf16, #dla.feature<fp16>>"
    case["func"] = (f"func.func @{case['name']}(%x: {t}) -> {t} {{\n"
                    f"  %y = {op_text(case, '%x', t)}\n  return %y : {t}\n}}\n")
    return case


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
