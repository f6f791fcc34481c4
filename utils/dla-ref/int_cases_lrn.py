"""Random integer LRN layers for run_layers.py --kind int-lrn: stated tables
and converters drawn across the CDP's register ranges (both LE functions,
negative and large index selects, ranges placed so that square sums under-
and overflow either table, every slope and priority), and derived tables
(lrn_tables.py). Expected outputs: int_cdp.cdp_lrn.
"""

import numpy as np

import int_cdp
import lrn_tables
from run_layers import Case, tensor_type

SIZES = (3, 5, 7, 9)


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _stated(rng, bits):
    """Converters and lut keywords of one random stated configuration."""
    top = 1 << (bits - 1)
    sel_half = 32 if bits == 8 else 64
    # Input converter: identity half of the time, else any register value
    # (saturating the 9 / 17 converted bits happens).
    if rng.random() < 0.5:
        cin = (0, 1, 0)
    else:
        off_half = 128 if bits == 8 else 32768
        cin = (int(rng.integers(-off_half, off_half)), int(rng.integers(-32768, 32768)),
               int(rng.integers(0, 32)))
        if rng.random() < 0.6:  # a moderate scale keeps outputs off the rails
            cin = (cin[0] // 8, int(rng.integers(-8, 9)), int(rng.integers(0, 4)))
    smax = 9 * (2 * top) ** 2  # square sums stay below this
    log_s = int(rng.integers(0, smax.bit_length() + 1))

    def start_end(depth_bits):
        start = int(rng.integers(-(1 << log_s), (1 << log_s) + 1)) if rng.random() < 0.8 else 0
        if rng.random() < 0.05:
            start = int(rng.integers(-(1 << 37), 1 << 37))
        end = start + int(rng.integers(0, 1 << min(log_s + 1, 37)))
        return start, min(end, (1 << 37) - 1)

    def select():
        if rng.random() < 0.15:
            return int(rng.integers(-sel_half, sel_half))
        return int(np.clip(log_s - 8 + int(rng.integers(-3, 4)), -sel_half, sel_half - 1))

    le_function = _pick(rng, ("exponent", "linear"))
    le_start, le_end = start_end(6)
    lo_start, lo_end = start_end(8)
    lut = dict(
        lut_le_table=rng.integers(-32768, 32768, 65), lut_lo_table=rng.integers(-32768, 32768, 257),
        lut_le_function=le_function,
        lut_le_index_offset=int(rng.integers(-128, 63)) if rng.random() < 0.2 else
        int(rng.integers(-4, 12)),
        lut_le_index_select=select(), lut_lo_index_select=select(),
        lut_le_start=le_start, lut_le_end=le_end, lut_lo_start=lo_start, lut_lo_end=lo_end,
        lut_uflow_priority=int(rng.integers(2)), lut_oflow_priority=int(rng.integers(2)),
        lut_hybrid_priority=int(rng.integers(2)))
    if rng.random() < 0.3:  # smooth tables: interpolation visible in outputs
        lut["lut_le_table"] = np.sort(lut["lut_le_table"])[::-1].copy()
        lut["lut_lo_table"] = np.sort(lut["lut_lo_table"])[::-1].copy()
    for t in ("le", "lo"):
        for side in ("uflow", "oflow"):
            on = rng.random() < 0.7
            lut[f"lut_{t}_slope_{side}_scale"] = int(rng.integers(-32768, 32768)) if on else 0
            lut[f"lut_{t}_slope_{side}_shift"] = int(rng.integers(-16, 16)) if on else 0
    # Output converter: r * xc reaches about 2^(15 + bits); a shift around
    # that brings it back, with ties and saturation both happening.
    out_half = (1 << 24) if bits == 8 else (1 << 31)
    shift = int(np.clip(15 + int(rng.integers(-6, 8)), 0, 63)) if rng.random() < 0.9 else \
        int(rng.integers(0, 64))
    cout = (int(rng.integers(-out_half, out_half)) if rng.random() < 0.2 else
            int(rng.integers(-300, 301)), int(rng.integers(-32768, 32768)) if rng.random() < 0.2
            else int(rng.integers(-4, 5)), shift)
    return cin, cout, lut


def wrap_underflow(rng, lut):
    """Move a stated configuration into the LE exponent underflow whose
    (s - start - 2^offset) * slope wraps int64 in the C model: offsets 49..62
    put every square sum below the first entry, slopes of any size; LO
    underflows too half of the time, and the underflow priority picks LE."""
    lut.update(lut_le_function="exponent", lut_le_index_offset=int(rng.integers(49, 63)),
               lut_le_slope_uflow_scale=int(rng.integers(-32768, 32768)),
               lut_le_slope_uflow_shift=int(rng.integers(-16, 16)), lut_uflow_priority=0)
    if rng.random() < 0.5:
        lut.update(lut_lo_start=(1 << 37) - 257, lut_lo_end=(1 << 37) - 1)
    return lut


def lut_text(lut):
    prio = lambda v: "lo" if v else "le"  # noqa: E731
    parts = [f"le_function = {lut['lut_le_function']}",
             "le = [" + ", ".join(str(int(v)) for v in lut["lut_le_table"]) + "]",
             "lo = [" + ", ".join(str(int(v)) for v in lut["lut_lo_table"]) + "]"]
    for key in ("le_start", "le_end", "lo_start", "lo_end"):
        parts.append(f"{key} = {lut['lut_' + key]}")
    if lut["lut_le_function"] == "exponent":
        parts.append(f"le_index_offset = {lut['lut_le_index_offset']}")
    else:
        parts.append(f"le_index_select = {lut['lut_le_index_select']}")
    parts.append(f"lo_index_select = {lut['lut_lo_index_select']}")
    for t in ("le", "lo"):
        for side in ("uflow", "oflow"):
            for f in ("scale", "shift"):
                parts.append(f"{t}_slope_{side}_{f} = {lut[f'lut_{t}_slope_{side}_{f}']}")
    for key in ("uflow", "oflow", "hybrid"):
        parts.append(f"{key}_priority = {prio(lut['lut_' + key + '_priority'])}")
    return "<" + ", ".join(parts) + ">"


def _cvt_text(c):
    return f"<offset = {c[0]}, scale = {c[1]}, shift = {c[2]}>"


def _input(rng, shape, bits):
    top = 1 << (bits - 1)
    # A random magnitude per case: small and large square sums both occur.
    mag = top >> int(rng.integers(0, bits - 1)) if rng.random() < 0.5 else top
    return rng.integers(-mag, mag, size=shape).astype(np.int8 if bits == 8 else np.int16)


def int_lrn_cases(rng, count, wrap=False):
    """wrap: every case stated and in the wrapping LE underflow
    (wrap_underflow)."""
    cases = []
    for n in range(count):
        bits = 8 if n % 2 == 0 else 16
        t = "i8" if bits == 8 else "i16"
        input_data = "int8" if bits == 8 else "int16"
        shape = (1, int(rng.integers(1, 12)), int(rng.integers(1, 3)), int(rng.integers(1, 4)))
        size = _pick(rng, SIZES)
        x = _input(rng, shape, bits)
        ty = tensor_type(shape, t)
        if n % 5 == 4 and not wrap:  # derived tables (int8 and int16): alpha, beta, k as f32
            alpha = float(np.float32(10.0 ** rng.uniform(-6, 1)))
            beta = float(np.float32(rng.uniform(0.3, 1.0)))
            k = float(np.float32(rng.uniform(0.5, 3.0)))
            e = lrn_tables.cdp_lrn_derived(x, size, alpha, beta, k)
            op = (f"dla.lrn %a0 size {size} {{alpha = {alpha!r} : f32, beta = {beta!r} : f32, "
                  f"k = {k!r} : f32}} : {ty} -> {ty}")
            cases.append(Case(f"int_lrn_derived_{t}_{n}", [(x, t)], op, e.shape, t, e))
            continue
        cin, cout, lut = _stated(rng, bits)
        if wrap:
            wrap_underflow(rng, lut)
        e = int_cdp.cdp_lrn(x, input_data=input_data, normalz_len=size, sqsum_bypass=0,
                            mul_bypass=0, datin_offset=cin[0], datin_scale=cin[1],
                            datin_shifter=cin[2], datout_offset=cout[0], datout_scale=cout[1],
                            datout_shifter=cout[2], **lut)
        op = (f"dla.lrn %a0 size {size} in_cvt {_cvt_text(cin)} out_cvt {_cvt_text(cout)} "
              f"lut {lut_text(lut)} : {ty} -> {ty}")
        cases.append(Case(f"int_lrn_{lut['lut_le_function']}_{t}_{n}", [(x, t)], op, e.shape, t,
                          e))
    return cases
