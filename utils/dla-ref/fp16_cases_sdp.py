"""Random offline fp16 SDPs of the X stages (BS, BN) reading fp16 memory
operands, with their expected result from fp_nvdla (NVDLA's fp32 steps:
sdp_x_fp16 per stage, then the output converter's Fp32ToFp16).

Each case: data C x H x W (C 1..40, so one to three 16-channel fp16 atoms
on nv_full, H and W 1..8), one or two stages, each reading one operand:
`bias` per channel or per element, `eltwise`, `batchnorm` (ALU sum and MUL
from its two components) or `prelu` (MUL where the value is negative), or
a register operand (the register's fp16 pattern, as the int16 of its bits);
ALU max / min / sum or MUL (optionally PReLU-gated), optionally ReLU. With
`ew`, then the Y stage: its multiplier, ALU or both (sdp_y_fp16), register
operands fp32 bit patterns.
`draw_clamp`: a dla.clamp, whose bounds the SDP's X stages take as fp16
register operands (rounded to nearest even, saturated at 65504). The
operands are fp16 values over several binades with zeros of both signs,
denormals and infinities in the data (NaN is left out: its propagation
through the SDP's fp32 steps is not modelled by the CPU execution)."""

import numpy as np

import fp_nvdla as fp

F16 = "xf16"
OPERAND_ENC = {"bias_c": "#dla.bias<per_channel, fp16>", "bias_e": "#dla.bias<per_element, fp16>",
               "eltwise": "#dla.eltwise<fp16>", "batchnorm": "#dla.batchnorm<per_channel, fp16>",
               "prelu": "#dla.prelu<fp16>",
               # a layer's result read as the per-element operand (a residual
               # add, hard-swish's product): the feature format's own bytes
               "feature": "#dla.feature<fp16>"}
ORDER = ("bias", "batchnorm", "eltwise", "prelu")
ALU = {"max": fp.ALU_MAX, "min": fp.ALU_MIN, "sum": fp.ALU_SUM}


def values(rng, shape, inf=0.0):
    """fp16 bit patterns over several binades, zeros of both signs and a
    few denormals (and infinities with probability `inf`)."""
    v = (rng.standard_normal(shape) * 2.0 ** rng.integers(-8, 6, shape)).astype(np.float16)
    bits = v.view(np.uint16).copy()
    r = rng.random(shape)
    bits[r < 0.05] = 0
    bits[(r >= 0.05) & (r < 0.08)] = 0x8000
    den = (r >= 0.08) & (r < 0.1)
    bits[den] = rng.integers(1, 0x400, int(den.sum())) | (rng.integers(0, 2, int(den.sum())) << 15)
    big = (r >= 0.1) & (r < 0.1 + inf)
    bits[big] = np.where(rng.random(int(big.sum())) < 0.5, 0x7c00, 0xfc00)
    return bits.astype(np.uint16)


def ttype(shape, enc=None):
    return f"tensor<{'x'.join(map(str, shape))}{F16}{', ' + enc if enc else ''}>"


def _implicit(rng, c, h, w, y, conv=None, three=False, own_bias=False):
    """The implicit form (no stage attributes): up to two of bias (per
    channel or per element), batchnorm, eltwise and prelu, then relu when
    there is no prelu; the expected value step by step in the form's order,
    each step one X-stage operation (docs/NvdlaFp16.md). After a `conv`
    whose SDP reads no bias, the convolution may carry one (conv["bias"]:
    the register plan gives it to the SDP, its first step); `own_bias`:
    always (the SDP then takes at most one other operand, no bias)."""
    if three:  # three operands, no relu: BS, BN and the Y stage (Fp16SdpStages.cpp)
        drop = int(rng.integers(0, 4))
        names = [nm for i, nm in enumerate(ORDER) if i != drop]
    else:
        names = [nm for nm in ORDER if rng.random() < 0.4][:2]
    if own_bias:
        names = [nm for nm in names if nm != "bias"][:1]
    if conv is not None and "bias" not in names and len(names) < 2 and (
            own_bias or rng.random() < 0.5):
        conv["bias"] = values(rng, (c,))
        y = fp.sdp_x_fp16(y, alu_bypass=0, alu_algo=fp.ALU_SUM,
                          alu_op=conv["bias"][:, None, None])
    relu = not three and "prelu" not in names and (not names or rng.random() < 0.5)
    operands = {}
    for nm in names:
        if nm == "bias" and rng.random() < 0.5:
            operands[nm] = (values(rng, (c,)), "bias_c")
        elif nm in ("bias", "eltwise"):
            enc = "bias_e" if nm == "bias" else str(rng.choice(["eltwise", "feature"]))
            operands[nm] = (values(rng, (1, c, h, w)), enc)
        elif nm == "batchnorm":
            operands[nm] = (values(rng, (c, 2)), "batchnorm")
        else:
            operands[nm] = (values(rng, (c,)), "prelu")
    for nm in names:
        data, enc = operands[nm]
        op = data[0] if data.ndim == 4 else data[:, None, None] if data.ndim == 1 else None
        if nm in ("bias", "eltwise"):
            y = fp.sdp_x_fp16(y, alu_bypass=0, alu_algo=fp.ALU_SUM, alu_op=op)
        elif nm == "batchnorm":
            y = fp.sdp_x_fp16(y, alu_bypass=0, alu_algo=fp.ALU_SUM, alu_op=data[:, 0][:, None, None])
            y = fp.sdp_x_fp16(y, mul_bypass=0, mul_op=data[:, 1][:, None, None])
        else:
            y = fp.sdp_x_fp16(y, mul_bypass=0, mul_op=op, mul_prelu=1)
    if relu:
        y = fp.sdp_x_fp16(y, relu_bypass=0)
    return operands, "relu" if relu else "", y


def _register32(rng):
    """A Y-stage register operand: fp32 bits (EW_*_SRC_VALUE is 32 bits and
    the Y stage takes them as fp32), mostly values no fp16 holds, some
    beyond fp16's range or below its normals."""
    r = rng.random()
    if r < 0.1:
        v = np.float32(rng.choice([70000.0, -1e5, 3e-6, -2.5e-8, 0.0]))
    elif r < 0.3:  # an fp16 value
        v = np.float32(np.float16(rng.standard_normal() * 2.0 ** rng.integers(-6, 6)))
    else:
        v = np.float32(rng.standard_normal() * 2.0 ** rng.integers(-8, 8))
    return int(np.array(v, np.float32).view(np.int32))


def _y_operand(rng, kw, unit, name, mem, data, op):
    """The Y stage's `unit` (mul, alu) operand into sdp_y_fp16's `kw`: the
    memory operand `name` (`op`; batchnorm's column, the ALU's 0 and the
    multiplier's 1, of `data`) when `mem`, else a register drawn
    (_register32). Returns the attribute's value text."""
    if mem:
        if name == "batchnorm":
            op = data[:, int(unit == "mul")][:, None, None]
        kw.update({f"{unit}_src": fp.SRC_MEM, f"{unit}_op": op})
        return name
    reg = _register32(rng)
    kw.update({f"{unit}_src": fp.SRC_REG, f"{unit}_op": reg & 0xFFFFFFFF})
    return str(reg)


def _ew(rng, free, y, c, h, w, lut=False, rounded=False):
    """The Y stage (EW) after the X stages: its multiplier, its ALU or both
    (multiplier first), each reading a memory operand (fp16, widened) or a
    register (fp32 bits, as the int32 of its bits); PReLU-gated sometimes.
    With `lut`, then its LUT in float mode (a random plausible table,
    test_lut_float_ref.plausible) on the fp32 value they computed, and in a
    quarter of the cases the LUT without the multiplier and ALU (on the X
    stages' fp32); `rounded`: _lut's negative control. Returns (operands
    {name: (bits, enc key)}, stage text, y)."""
    if lut and rng.random() < 0.25:
        return {}, *_lut(rng, [], y, {}, rounded)
    name = free.pop() if free and rng.random() < 0.7 else "register"
    operands, data, op = {}, None, None
    if name == "bias":
        per_channel = rng.random() < 0.5
        data = values(rng, (c,) if per_channel else (1, c, h, w))
        operands[name] = (data, "bias_c" if per_channel else "bias_e")
        op = data[:, None, None] if per_channel else data[0]
    elif name == "eltwise":
        data = values(rng, (1, c, h, w))
        operands[name] = (data, str(rng.choice(["eltwise", "feature"])))
        op = data[0]
    elif name == "prelu":
        data = values(rng, (c,))
        operands[name] = (data, "prelu")
        op = data[:, None, None]
    elif name == "batchnorm":
        data = values(rng, (c, 2))
        operands[name] = (data, "batchnorm")
    kind = "both" if name == "batchnorm" else str(rng.choice(["mul", "alu", "both"]))
    kw, attrs = {}, []
    if kind in ("mul", "both"):
        mem = name == "batchnorm" or (name != "register" and (kind == "mul" or rng.random() < 0.5))
        text = _y_operand(rng, kw, "mul", name, mem, data, op)
        attrs.append(f"mul_operand = {text}")
        gate = rng.random() < 0.3
        if gate:
            attrs.append("prelu = true")
        kw.update(mul_bypass=0, mul_prelu=int(gate))
    if kind in ("alu", "both"):
        # With both from one single-component surface, the ALU's is a register.
        mem = name == "batchnorm" or (name != "register" and
                                      (kind == "alu" or "mul_operand = " + name not in attrs))
        alu = str(rng.choice(list(ALU)))
        text = _y_operand(rng, kw, "alu", name, mem, data, op)
        attrs += [f"alu = {alu}", f"alu_operand = {text}"]
        kw.update(alu_bypass=0, alu_algo=ALU[alu])
    if name != "register" and not any(a.endswith("= " + name) for a in attrs):
        del operands[name]  # drawn but not read (a register on both units)
        free.append(name)
    if lut:
        return operands, *_lut(rng, attrs, y, kw, rounded)
    return operands, f"ew <{', '.join(attrs)}>", fp.sdp_y_fp16(y, **kw)


def _lut(rng, attrs, y, kw, rounded=False):
    """The Y stage's `attrs` / sdp_y_fp16 `kw` with a random plausible
    float-mode LUT after them: (stage text, y). `rounded`: the negative
    control, the LUT on the stages' value rounded to fp16 and widened (what
    a table of the LUT per fp16 input would answer), not on their fp32."""
    import fp16_cases_lut
    import lut_float_ref
    from test_lut_float_ref import plausible
    le, lo, regs, _ = plausible(rng)
    attrs = attrs + [f"lut = {fp16_cases_lut.lut_text(le, lo, regs)}"]
    lut = dict(lut_le_table=le, lut_lo_table=lo, **regs)
    if rounded:
        v = fp.fp16_to_fp32(fp.fp32_to_fp16(fp.sdp_y_fp16(y, **kw)))
        return f"ew <{', '.join(attrs)}>", lut_float_ref.sdp_lut_float(v, **lut)
    return f"ew <{', '.join(attrs)}>", fp.sdp_y_fp16(y, lut=lut, **kw)


def draw(rng, n, on_the_fly=False, implicit=False, winograd=False, ew=False, three=False,
         own_bias=False, lut=False, lut_rounded=False):
    """One case: dict(name, x, operands [(name, bits, enc key)], stages (the
    op's stage text), want (fp16 bits of the result)); `three` (with
    `implicit`): three of the four operands and no relu; `ew`: X stages (none,
    one or two) then the Y stage's multiplier and ALU (_ew); `on_the_fly`: the
    SDP after a direct convolution drawn as run_fp16_trace.draw draws it
    (conv: its stride, pad, dilation and weights), its stages on CACC's
    fp32; with `winograd` after an fp16 Winograd convolution drawn as
    fp16_cases_wino.draw draws it (conv["mode"] "winograd"); `own_bias`
    (with `implicit`): the convolution always carries its own bias; `lut`
    (with `ew`): the Y stage's float LUT after them (_ew), expected on their
    value rounded to fp16 with `lut_rounded` (the negative control)."""
    if on_the_fly and winograd:
        import fp16_cases_wino
        conv = fp16_cases_wino.draw(rng, n)
        conv.update(mode="winograd", stride=(1, 1), dilation=(1, 1))
        y = fp16_cases_wino.expected(conv["x"].view(np.float16), conv["w"].view(np.float16),
                                     conv["pad"])[0]
        c, h, w = y.shape
        x = conv["x"]
    elif on_the_fly:
        import run_fp16_trace
        conv = run_fp16_trace.draw(rng, n)
        y = fp.conv_fp16(conv["x"], conv["w"], conv["stride"], conv["pad"], conv["dilation"])
        c, h, w = y.shape
        x = conv["x"]
    else:
        conv = None
        c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
        x = values(rng, (c, h, w), inf=0.01)
        y = fp.fp16_to_fp32(x)
    if implicit:
        operands, text, y = _implicit(rng, c, h, w, y, conv, three, own_bias)
        listed = [(nm, *operands[nm]) for nm in ORDER if nm in operands]
        return dict(name=f"{'conv_' if conv else ''}implicit{'3' if three else ''}_{n}", x=x,
                    conv=conv,
                    operands=listed, stages=text,
                    want=np.asarray(fp.sdp_cvt_fp16(y), np.uint16).reshape(c, h, w))
    stages = [s for s in ("bs", "bn") if rng.random() < (0.35 if ew else 0.7)]
    if not stages and not ew:
        stages = [str(rng.choice(["bs", "bn"]))]
    free = ["bias", "batchnorm", "eltwise", "prelu"]
    rng.shuffle(free)
    operands, text = {}, []
    for st in stages:
        name = free.pop() if rng.random() < 0.75 else "register"
        relu = rng.random() < 0.3
        if name == "register":
            op = values(rng, (1,))[0]
            # The attribute's int16 of the register's bits.
            operand = str(int(op.astype(np.uint16).view(np.int16)))
        elif name == "bias":
            per_channel = rng.random() < 0.5
            data = values(rng, (c,) if per_channel else (1, c, h, w))
            enc = "bias_c" if per_channel else "bias_e"
            op = data[:, None, None] if per_channel else data[0]
        elif name == "eltwise":
            data, enc = values(rng, (1, c, h, w)), str(rng.choice(["eltwise", "feature"]))
            op = data[0]
        elif name == "prelu":
            data, enc = values(rng, (c,)), "prelu"
            op = data[:, None, None]
        else:
            data, enc = values(rng, (c, 2)), "batchnorm"
            op = None
        if name != "register":
            operands[name], operand = (data, enc), name
        attrs, kw = [], dict(relu_bypass=0 if relu else 1)
        if name == "batchnorm":
            attrs = ["alu = sum", "alu_operand = batchnorm", "mul_operand = batchnorm"]
            kw.update(alu_bypass=0, alu_algo=fp.ALU_SUM, alu_op=data[:, 0][:, None, None],
                      mul_bypass=0, mul_op=data[:, 1][:, None, None])
        elif name == "prelu":
            attrs = ["mul_operand = prelu", "prelu = true"]
            kw.update(mul_bypass=0, mul_op=op, mul_prelu=1)
        elif rng.random() < 0.6:
            alu = str(rng.choice(list(ALU)))
            attrs = [f"alu = {alu}", f"alu_operand = {operand}"]
            kw.update(alu_bypass=0, alu_algo=ALU[alu], alu_op=op)
        else:
            gate = rng.random() < 0.3
            attrs = [f"mul_operand = {operand}"] + (["prelu = true"] if gate else [])
            kw.update(mul_bypass=0, mul_op=op, mul_prelu=int(gate))
        if relu:
            attrs.append("relu = true")
        text.append(f"{st} <{', '.join(attrs)}>")
        y = fp.sdp_x_fp16(y, **kw)
    if ew:
        more, stage, y = _ew(rng, free, y, c, h, w, lut, lut_rounded)
        operands.update(more)
        text.append(stage)
    want = fp.sdp_cvt_fp16(y)
    listed = [(nm, *operands[nm]) for nm in ORDER if nm in operands]
    kind = ("ew_lut" if lut else "ew") if ew else "sdp"
    return dict(name=f"{'conv_' + kind if conv else kind}_{n}", x=x, conv=conv, operands=listed,
                stages=" ".join(text), want=np.asarray(want, np.uint16).reshape(c, h, w))


def fp16_bound(v):
    """A clamp bound as the register's fp16 pattern: rounded to nearest
    even (numpy's float16), past fp16's range its largest finite value."""
    with np.errstate(over="ignore"):
        h = np.float16(v)
    if np.isinf(h):
        h = np.float16(np.copysign(65504.0, v))
    return np.array(h).view(np.uint16)


def draw_clamp(rng, n):
    """A dla.clamp of random fp16 data: bounds fp16 values, values between
    fp16's (rounded by the register), zero, or beyond fp16's range; the
    expected value the X stages BS MAX, BN MIN with the bounds' fp16
    patterns, then Fp32ToFp16."""
    c, h, w = int(rng.integers(1, 41)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    x = values(rng, (c, h, w), inf=0.02)

    def bound():
        r = rng.random()
        if r < 0.2:
            return 0.0
        if r < 0.3:
            return float(rng.choice([-1e6, 1e6, 70000.0, -65520.0]))
        v = float(np.float16(rng.standard_normal() * 2.0 ** rng.integers(-6, 6)))
        return v if r < 0.7 else v * (1 + 2.0 ** -13)  # between two fp16 values
    lo, hi = sorted((bound(), bound()))
    y = fp.sdp_x_fp16(fp.fp16_to_fp32(x), alu_bypass=0, alu_algo=fp.ALU_MAX, alu_op=fp16_bound(lo))
    y = fp.sdp_x_fp16(y, alu_bypass=0, alu_algo=fp.ALU_MIN, alu_op=fp16_bound(hi))
    return dict(name=f"clamp_{n}", x=x, conv=None, operands=[], clamp=(lo, hi), stages="",
                want=np.asarray(fp.sdp_cvt_fp16(y), np.uint16).reshape(c, h, w))


def offline_op(case, x, decl, xt, yt):
    """The op of a case without a convolution: its dla.clamp or dla.sdp."""
    if case.get("clamp"):
        lo, hi = case["clamp"]
        return f"dla.clamp {x} min {lo:.17e} max {hi:.17e} : {xt} -> {yt}"
    return f"dla.sdp offline {x} {decl} {case['stages']} : {xt} -> {yt}"


def to_int16(case, rounding=None):
    """run_fp16_trace --int16-out: `case` with its SDP writing int16 (sdp_c.cpp
    at PROC_PRECISION fp16, OUT_PRECISION int16: Fp32ToFp16, then
    Fp16ToInt16), expected fp_nvdla.fp16_to_int16 of its fp16 result (as
    uint16 bits). `rounding` "even" / "saturate-off": the negative controls'
    expectations (numpy's rint, half to even; or no saturation, int16 wrapping)."""
    h = case["want"]
    want = fp.fp16_to_int16(h)
    f = h.view(np.float16).astype(np.float64)
    if rounding == "even":
        want = np.where(np.isnan(f), -32768, np.clip(np.rint(np.nan_to_num(f)), -32768, 32767))
    elif rounding == "saturate-off":
        mag = np.floor(np.abs(np.nan_to_num(f, posinf=65504, neginf=-65504)) + 0.5)
        want = np.where(np.isnan(f), -32768, np.sign(f) * mag).astype(np.int64)
    return dict(case, want=np.asarray(want).astype(np.int64).astype(np.uint16), int16=True)


def nchw_shape(a):
    """The tensor shape of data `a`: N x C x H x W as it is (a batch),
    C x H x W one input (N = 1)."""
    return a.shape if a.ndim == 4 else (1,) + a.shape


def func(case, encoded=True):
    """The case as a function: feature data, weights and operands with
    their encodings (`encoded`), or plain tensors."""
    feature = "#dla.feature<fp16>" if encoded else None
    xt = ttype(nchw_shape(case["x"]), feature)
    yt = ttype(nchw_shape(case["want"]), feature)
    if case.get("int16"):
        # An fp16 pipeline's SDP writing int16 (to_int16).
        yt = yt.replace(F16, "xi16").replace("<fp16>", "<int16>")
    args = [f"%x: {xt}"]
    conv = case["conv"]
    mode = conv.get("mode", "direct") if conv else None
    if conv:
        wt = ttype(conv["w"].shape, f"#dla.weight<{mode}, fp16>" if encoded else None)
        args.append(f"%w: {wt}")
        if conv.get("bias") is not None:
            bt = ttype(conv["bias"].shape, OPERAND_ENC["bias_c"] if encoded else None)
            args.append(f"%cb: {bt}")
    decl = []
    for nm, data, enc in case["operands"]:
        t = ttype(data.shape, OPERAND_ENC[enc] if encoded else None)
        args.append(f"%{nm}: {t}")
        decl.append(f"{nm} %{nm} : {t}")
    if conv:
        (sy, sx), p, (dy, dx) = conv["stride"], conv["pad"], conv["dilation"]
        ct = ttype(nchw_shape(case["want"]))
        cb, cbt = ("", "") if conv.get("bias") is None else (", %cb", ", " + bt)
        body = (f"%c = dla.conv {mode} %x, %w{cb} stride [{sy}, {sx}] pad [{p[0]}, {p[1]}, {p[2]}, "
                f"{p[3]}] dilation [{dy}, {dx}] : {xt}, {wt}{cbt} -> {ct}\n"
                f"  %y = dla.sdp on_the_fly %c {' '.join(decl)} {case['stages']} : {ct} -> {yt}")
    else:
        body = f"%y = {offline_op(case, '%x', ' '.join(decl), xt, yt)}"
    return (f"func.func @{case['name']}({', '.join(args)}) -> {yt} {{\n  {body}\n"
            f"  return %y : {yt}\n}}\n")


def layer_cases(rng, count, Case, tensor_type, lut=False, lut_rounded=False):
    """run_layers.py --kind fp16-ew: `count` offline SDPs drawn as
    draw(ew=True) draws them (X stages, then the Y stage's multiplier and
    ALU), on plain tensors, expected fp_nvdla's bits; --kind fp16-ew-lut:
    with the float LUT after them (draw's `lut`, `lut_rounded`)."""
    cases = []
    for n in range(count):
        c = draw(rng, n, ew=True, lut=lut, lut_rounded=lut_rounded)
        args = [(c["x"].view(np.float16)[None], "f16")]
        args += [(d.view(np.float16), "f16") for _, d, _ in c["operands"]]
        decl = " ".join(f"{nm} %a{i + 1} : {tensor_type(d.shape, 'f16')}"
                        for i, (nm, d, _) in enumerate(c["operands"]))
        shape = (1,) + c["want"].shape
        t = tensor_type(shape, "f16")
        case = Case(c["name"], args, offline_op(c, "%a0", decl, t, t), shape, "f16",
                    c["want"].view(np.float16)[None])
        case.bits = True
        cases.append(case)
    return cases


def loadable_func(case, blobs, first):
    """An offline case as a loadable's function: the data its one argument,
    each memory operand `arith.constant dense_resource<...>` of its storage
    bytes (`blobs[f"arg{i + first}.bin"]`: a blob is its alignment, 4 bytes
    little endian, then the bytes). Returns (func text, resources text)."""
    xt = ttype((1,) + case["x"].shape, "#dla.feature<fp16>")
    yt = ttype((1,) + case["want"].shape, "#dla.feature<fp16>")
    lines, decl, res = [], [], []
    for i, (nm, data, enc) in enumerate(case["operands"]):
        t = ttype(data.shape, OPERAND_ENC[enc])
        key = f"{case['name']}_{nm}"
        lines.append(f"  %{nm} = arith.constant dense_resource<{key}> : {t}")
        decl.append(f"{nm} %{nm} : {t}")
        res.append(f'      {key}: "0x08000000{bytes(blobs[f"arg{i + first}.bin"]).hex().upper()}"')
    body = "\n".join(lines + [f"  %y = {offline_op(case, '%x', ' '.join(decl), xt, yt)}"])
    func = (f"func.func @{case['name']}(%x: {xt}) -> {yt} {{\n{body}\n"
            f"  return %y : {yt}\n}}\n")
    resources = ("{-#\n  dialect_resources: {\n    builtin: {\n" + ",\n".join(res) +
                 "\n    }\n  }\n#-}\n") if res else ""
    return func, resources
