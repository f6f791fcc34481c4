"""Random integer SDP layers in stage form (bs, bn, ew, out_cvt) for
run_layers.py --kind int-sdp, with the values the numpy model of NVIDIA's C
model gives (int_sdp.sdp_x, sdp_y, sdp_y_cvt, sdp_cvt; int_conv.cacc_clip for
an on-the-fly SDP's accumulator).

Every stage combination (each of bs, bn, ew present or not; ew's lookup
table in the SDP's ranges), every operand source (register, per-channel or per-element memory, the two-component
batch-norm surface, memory through the Y converters), offline and
on-the-fly inputs, int8 / int16 / fp16 results. Registers are drawn across
their whole ranges with their edges, half of the cases with shifts chosen to
keep values unsaturated.
"""

import numpy as np

import fp_nvdla
import int_conv
import int_sdp
import int_sdp_lut
from int_cases_lrn import lut_text
from int_arith import sat, shr

NP = {"i8": np.int8, "i16": np.int16}
SDP_OPERANDS = ("bias", "batchnorm", "eltwise", "prelu")


def _pick(rng, values):
    return values[int(rng.integers(len(values)))]


def _int(rng, lo, hi, edges=True):
    """A register value in lo..hi: an edge sometimes, else small or anywhere."""
    r = rng.random()
    if edges and r < 0.1:
        return int(_pick(rng, [lo, hi, 0, 1, -1 if lo < 0 else 0]))
    if r < 0.6:
        return int(rng.integers(max(lo, -300), min(hi, 300) + 1))
    return int(rng.integers(lo, hi + 1))


def _shift(rng, hi, tame):
    if tame:
        return int(rng.integers(0, min(hi, 24) + 1))
    return int(_pick(rng, [0, hi, int(rng.integers(0, hi + 1)), int(rng.integers(0, 8))]))


class Operand:
    """A memory surface: its data and how the op declares it."""

    def __init__(self, name, data, t):
        self.name, self.data, self.t = name, data, t

    def component(self, unit):
        """The per-element operand array broadcast over NCHW."""
        d = self.data.astype(np.int64)
        if self.name == "batchnorm":
            d = d[:, 0 if unit == "alu" else 1]
        if d.ndim == 1:
            d = d.reshape(1, -1, 1, 1)
        return d


def _operand_data(rng, name, shape, t, per_element):
    c = shape[1]
    lo, hi = (-128, 127) if t == "i8" else (-32768, 32767)
    small = rng.random() < 0.7
    if small:
        lo, hi = max(lo, -200), min(hi, 200)
    if name == "batchnorm":
        dshape = (c, 2)
    elif name == "eltwise" or (name == "bias" and per_element):
        dshape = shape
    else:
        dshape = (c,)
    return rng.integers(lo, hi + 1, size=dshape).astype(NP[t])


def _x_stage(rng, mem, tame):
    """A random #dla.sdp_x: (text fields, numpy kwargs, memory operand read)."""
    while True:
        f, kw = [], dict(alu_bypass=1, mul_bypass=1, relu_bypass=1)
        alu = _pick(rng, [None, "max", "min", "sum"])
        mul = rng.random() < 0.6
        use_mem = mem is not None
        mem_units = set()
        if use_mem:
            mem_units = {"alu", "mul"} if mem.name == "batchnorm" else {_pick(rng, ["alu", "mul"])}
            if "alu" in mem_units and alu is None:
                alu = _pick(rng, ["max", "min", "sum"])
            mul = mul or "mul" in mem_units
        if alu:
            f.append(f"alu = {alu}")
            kw.update(alu_bypass=0, alu_algo=alu)
            if "alu" in mem_units:
                f.append(f"alu_operand = {mem.name}")
                kw["alu_operand"] = mem.component("alu")
            else:
                v = _int(rng, -32768, 32767)
                f.append(f"alu_operand = {v}")
                kw["alu_operand"] = v
            s = _shift(rng, 63, tame) if rng.random() < 0.7 else 0
            if s:
                f.append(f"alu_shift = {s}")
            kw["alu_shift_value"] = s
        if mul:
            if "mul" in mem_units:
                f.append(f"mul_operand = {mem.name}")
                kw["mul_operand"] = mem.component("mul")
            else:
                v = _int(rng, -32768, 32767)
                f.append(f"mul_operand = {v}")
                kw["mul_operand"] = v
            kw["mul_bypass"] = 0
        s = _shift(rng, 63, tame) if (mul or rng.random() < 0.5) else 0
        if s:
            f.append(f"mul_shift = {s}")
        kw["mul_shift_value"] = s
        if mul and rng.random() < 0.3:
            f.append("prelu = true")
            kw["mul_prelu"] = 1
        if rng.random() < 0.3:
            f.append("relu = true")
            kw["relu_bypass"] = 0
        if f:
            # Fields in declaration order (the printer's), for the round trip.
            order = ["alu =", "alu_operand", "alu_shift", "mul_operand", "mul_shift", "prelu",
                     "relu"]
            f.sort(key=lambda x: next(i for i, k in enumerate(order) if x.startswith(k)))
            return "<" + ", ".join(f) + ">", kw


def _cvt(rng, tame):
    off = _int(rng, -(1 << 31), (1 << 31) - 1)
    scale = _int(rng, -32768, 32767)
    shift = _shift(rng, 63, tame)
    if tame:
        off, scale = int(rng.integers(-50, 51)), int(rng.integers(-2000, 2001))
        shift = int(rng.integers(0, 12))
    return (f"<offset = {off}, scale = {scale}, shift = {shift}>",
            dict(cvt_offset=off, cvt_scale=scale, cvt_truncate=shift))


def _y_operand(rng, unit, mem, tame, f, kw):
    """The Y stage unit's operand: the memory surface (through a converter
    or not) or a 32-bit register value."""
    if mem is not None:
        f.append(f"{unit}_operand = {mem.name}")
        kw.update({f"{unit}_src": "mem", f"{unit}_operand": mem.component(unit)})
        if rng.random() < 0.6:
            text, c = _cvt(rng, tame)
            f.append(f"{unit}_cvt = {text}")
            kw.update({f"{unit}_cvt_bypass": 0, f"{unit}_cvt_offset": c["cvt_offset"],
                       f"{unit}_cvt_scale": c["cvt_scale"],
                       f"{unit}_cvt_truncate": c["cvt_truncate"]})
    else:
        v = _int(rng, -(1 << 31), (1 << 31) - 1)
        if tame and unit == "mul":
            v = int(rng.integers(-3000, 3001))
        f.append(f"{unit}_operand = {v}")
        kw.update({f"{unit}_src": "reg", f"{unit}_operand": v})


def _sdp_lut(rng):
    """A random #dla.lut in the SDP's ranges (32-bit starts and ends, 8-bit
    index registers), placed where the Y stage's values fall so that hits,
    interpolation, under- and overflow all occur."""
    log_v = int(rng.integers(0, 32))

    def start_end():
        start = int(rng.integers(-(1 << log_v), (1 << log_v) + 1))
        if rng.random() < 0.05:
            start = int(rng.integers(-(1 << 31), 1 << 31))
        end = min(start + int(rng.integers(0, 1 << min(log_v + 1, 32))), (1 << 31) - 1)
        return start, end

    def select(entries_log):
        if rng.random() < 0.15:
            return int(rng.integers(-128, 128))
        return int(np.clip(log_v - entries_log + int(rng.integers(-3, 4)), -128, 127))

    le_start, le_end = start_end()
    lo_start, lo_end = start_end()
    lut = dict(
        lut_le_table=rng.integers(-32768, 32768, 65), lut_lo_table=rng.integers(-32768, 32768, 257),
        lut_le_function=_pick(rng, ["exponent", "linear"]),
        lut_le_index_offset=int(rng.integers(-128, 128)) if rng.random() < 0.2 else
        int(rng.integers(-4, 12)),
        lut_le_index_select=select(6), lut_lo_index_select=select(8),
        lut_le_start=le_start, lut_le_end=le_end, lut_lo_start=lo_start, lut_lo_end=lo_end,
        lut_uflow_priority=int(rng.integers(2)), lut_oflow_priority=int(rng.integers(2)),
        lut_hybrid_priority=int(rng.integers(2)))
    if rng.random() < 0.3:  # smooth tables: interpolation visible
        lut["lut_le_table"] = np.sort(lut["lut_le_table"]).copy()
        lut["lut_lo_table"] = np.sort(lut["lut_lo_table"]).copy()
    for t in ("le", "lo"):
        for side in ("uflow", "oflow"):
            on = rng.random() < 0.7
            lut[f"lut_{t}_slope_{side}_scale"] = int(rng.integers(-32768, 32768)) if on else 0
            lut[f"lut_{t}_slope_{side}_shift"] = int(rng.integers(-16, 16)) if on else 0
    return lut


def _y_stage(rng, mem, tame):
    while True:
        f, kw = [], dict(mul_bypass=1, alu_bypass=1)
        mem_unit = _pick(rng, ["alu", "mul"]) if mem is not None else None
        if mem is not None and mem.name == "batchnorm":
            mem_unit = "both"
        mul = rng.random() < 0.5 or mem_unit in ("mul", "both")
        alu = _pick(rng, [None, "max", "min", "sum", "eql"])
        if mem_unit in ("alu", "both") and alu is None:
            alu = _pick(rng, ["max", "min", "sum", "eql"])
        if mul:
            kw["mul_bypass"] = 0
            _y_operand(rng, "mul", mem if mem_unit in ("mul", "both") else None, tame, f, kw)
            if rng.random() < 0.3:
                f.append("prelu = true")
                kw["mul_prelu"] = 1
            t = int(_pick(rng, [0, 1023, int(rng.integers(0, 64)), int(rng.integers(0, 1024))]))
            if tame:
                t = int(rng.integers(0, 16))
            if t:
                f.append(f"truncate = {t}")
            kw["truncate"] = t
        if alu:
            kw.update(alu_bypass=0, alu_algo=alu)
            f.append(f"alu = {alu}")
            _y_operand(rng, "alu", mem if mem_unit in ("alu", "both") else None, tame, f, kw)
        lut = _sdp_lut(rng) if rng.random() < 0.3 else None
        if lut:
            f.append("lut = " + lut_text(lut))
        if f:
            order = ["mul_operand", "mul_cvt", "prelu", "truncate", "alu =", "alu_operand",
                     "alu_cvt", "lut"]
            f.sort(key=lambda x: next(i for i, k in enumerate(order) if x.startswith(k)))
            return "<" + ", ".join(f) + ">", kw, lut


def _conv_sum(x, w, pad):
    """The exact convolution sum (stride 1), int64."""
    x = np.pad(x.astype(np.int64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k, c, r, s = w.shape
    n, _, h, wd = x.shape
    out = np.zeros((n, k, h - r + 1, wd - s + 1), np.int64)
    for i in range(r):
        for j in range(s):
            out += np.einsum("nchw,kc->nkhw", x[:, :, i:i + out.shape[2], j:j + out.shape[3]],
                             w[:, :, i, j].astype(np.int64))
    return out


def cases(rng, count, make_case, tensor_type):
    """`count` random cases, each made by make_case(name, args, op, shape,
    out_t, expected) (run_layers.Case); an on-the-fly case's convolution is
    its `prelude`."""
    out = []
    while len(out) < count:
        n = len(out)
        tame = rng.random() < 0.5
        on_the_fly = rng.random() < 0.4
        in_t = _pick(rng, ["i8", "i16"])
        # The precision tables: on the fly keeps the bit depth (int16 may
        # end in fp16); offline int8 gives int8 / int16, int16 any.
        outs = {(True, "i8"): ["i8"], (True, "i16"): ["i16", "f16"],
                (False, "i8"): ["i8", "i16"], (False, "i16"): ["i8", "i16", "f16"]}
        out_t = _pick(rng, outs[(on_the_fly, in_t)])
        # On the fly int8 widens to int16 too (v1's int8-to-int16 SDP path,
        # NvdlaConversion.h): 30% of those cases, decided by a generator of
        # the case's own (seeded by its index) so that every other draw of
        # the seeds stays as it was.
        if on_the_fly and in_t == "i8" and np.random.default_rng(3000 + n).random() < 0.3:
            out_t = "i16"
        c, h, w = int(rng.integers(1, 6)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
        shape = (1, c, h, w)
        args, pre = [], ""
        if on_the_fly:
            cin, pad = int(rng.integers(1, 4)), int(rng.integers(0, 2))
            lo, hi = (-128, 127) if in_t == "i8" else (-32768, 32767)
            xin = rng.integers(lo, hi + 1, size=(1, cin, h, w)).astype(NP[in_t])
            kr = 1 + 2 * pad
            wt = rng.integers(lo, hi + 1, size=(c, cin, kr, kr)).astype(NP[in_t])
            clip = int(_pick(rng, [0, 16, int(rng.integers(0, 17))]))
            x = int_conv.cacc_clip(_conv_sum(xin, wt, pad), clip_truncate=clip).astype(np.int64)
            args += [(xin, in_t), (wt, in_t)]
            clip_text = f" clip_truncate {clip}" if clip else ""
            pre = (f"%p = dla.conv direct %a0, %a1 pad [{pad}, {pad}, {pad}, {pad}]{clip_text} : "
                   f"{tensor_type(xin.shape, in_t)}, {tensor_type(wt.shape, in_t)} -> "
                   f"{tensor_type(shape, in_t)}")
            src = "%p"
        else:
            lo, hi = (-128, 127) if in_t == "i8" else (-32768, 32767)
            xin = rng.integers(lo, hi + 1, size=shape).astype(NP[in_t])
            x = xin.astype(np.int64)
            args.append((xin, in_t))
            src = "%a0"
        stages = [s for s in ("bs", "bn", "ew") if rng.random() < 0.55] or ["bs"]
        names = list(SDP_OPERANDS)
        rng.shuffle(names)
        mems, decl = {}, []
        for s in stages:
            if rng.random() < 0.6 and names:
                name = names.pop()
                t = _pick(rng, ["i8", "i16"])
                data = _operand_data(rng, name, shape, t, per_element=rng.random() < 0.5)
                mems[s] = Operand(name, data, t)
        for name in SDP_OPERANDS:
            for m in mems.values():
                if m.name == name:
                    idx = len(args)
                    args.append((m.data, m.t))
                    decl.append(f"{name} %a{idx} : {tensor_type(m.data.shape, m.t)}")
        text = []
        v = x
        for s in stages:
            if s in ("bs", "bn"):
                t, kw = _x_stage(rng, mems.get(s), tame)
                v = int_sdp.sdp_x(v, **kw).astype(np.int64)
            else:
                t, kw, lut = _y_stage(rng, mems.get(s), tame)
                v = int_sdp.sdp_y(v, **kw).astype(np.int64)
                if lut:
                    v = int_sdp_lut.sdp_lut(v, **lut).astype(np.int64)
            text.append(f"{s} {t}")
        cvt_text = ""
        off, scale, shift = 0, 1, 0
        if rng.random() < 0.8:
            off = _int(rng, -(1 << 31), (1 << 31) - 1)
            scale = _int(rng, -32768, 32767)
            shift = _shift(rng, 63, tame)
            if tame:
                off, scale = int(rng.integers(-100, 101)), int(rng.integers(-4000, 4001))
                shift = int(rng.integers(0, 20))
            cvt_text = f" out_cvt <offset = {off}, scale = {scale}, shift = {shift}>"
        if out_t == "f16":
            t17 = shr((v - off) * scale, shift, 17)
            # Int17ToFp16 (sdp_c.cpp): nearest-even, saturating at 65504.
            expected = fp_nvdla.int17_to_fp16(t17).view(np.float16)
        else:
            expected = int_sdp.sdp_cvt(v, cvt_offset=off, cvt_scale=scale, cvt_shift=shift,
                                       out_precision={"i8": "int8", "i16": "int16"}[out_t])
        mode = "on_the_fly" if on_the_fly else "offline"
        op = (f"dla.sdp {mode} {src} " + " ".join(decl) + (" " if decl else "") +
              " ".join(text) + cvt_text + f" : {tensor_type(shape, in_t)} -> "
              f"{tensor_type(shape, out_t)}")
        case = make_case(f"int_sdp_{n}", args, op, shape, out_t, expected)
        case.prelude = pre
        out.append(case)
    return out
