"""run_trace.py's layers converting between int16 and int8 on nv_full
(kind cvt16-sdp): an offline SDP from int16 to int8 or from int8 to int16,
which processes in int8 (sdp.c map_proc_precision; NVIDIA's v1 C model,
NV_NVDLA_sdp.cpp: SDP_RDMA's int16-to-int8 buffer, the WDMA's int8-to-int16
path). X stages (register operands, or memory operands as an int8 SDP reads
them: per channel int8 / int16 data in one or two bytes, per element in
int8 atoms), sometimes a Y stage (its table too), an output converter. 70%
drawn to keep results spread (stages near +-1, a bias well below the data,
the converter scaling by about 2^-8 or 2^7 into the result's range, the
input's whole range), the rest as int_cases_sdp draws them. Channels 1..80,
so that int16 cubes of an odd number of surfaces (which the SDP reads or
writes with one more) come often.

kind cvt16-conv: a direct convolution of an int8 pipeline whose SDP on the
fly writes int16 (v1's same WDMA path: CACC in int8, the SDP processing in
int8; the precision rules allow it, NvdlaConversion.h), run_trace's int8
`conv` draws with the result widened.

The functions take the run_trace module (`rt`, configured for nv_full
int8) for its Case and types.
"""

import numpy as np

import int_cases_sdp as sdp_cases

FEATURE16 = "#dla.feature<int16, config = nv_full>"


def _scaled_cvt(rt, rng, up):
    """An output converter scaling by about 2^7 (`up`, int8 to int16) or
    2^-8 (int16 to int8), a small offset."""
    scale, shift = rt._near_one(rng, 13)
    if up:
        # |scale| / 2^shift near 2^7: the shift gives up 7 bits, or the
        # multiplier grows by what the shift cannot give.
        if shift >= 7:
            shift -= 7
        else:
            scale = int(np.clip(scale << (7 - shift), -32767, 32767))
            shift = 0
    else:
        shift += 8
    top = 60 if up else 2000
    return f"<offset = {int(rng.integers(-top, top + 1))}, scale = {scale}, shift = {shift}>"


def _spread_bias(rt, rng, shape, in_t):
    """A bias memory operand of values well below the data's (an X stage's
    ALU sum): per channel int8 or int16 data (int8 in one or two bytes), or
    per element int8 data in the int8 SDP's atoms (one or two bytes):
    (operand (name, data, encoding), its stage's text)."""
    per_element = rng.random() < 0.4
    t = "i8" if per_element else str(rng.choice(["i8", "i16"]))
    top = 1 << (12 if in_t == "i16" and t == "i16" else 6)
    dshape = shape if per_element else (shape[1],)
    data = rng.integers(-top, top, size=dshape).astype(np.int8 if t == "i8" else np.int16)
    enc = rt._operand_encoding(rng, "bias", t, per_element)
    m, sh = rt._near_one(rng, 12)
    mul = f", mul_operand = {m}" + (f", mul_shift = {sh}" if sh else "")
    return ("bias", data, enc), f"<alu = sum, alu_operand = bias{mul}>"


def _spread_y(rt, rng):
    """A Y stage near +-1: an ALU sum of a small register operand, a
    multiplier m / 2^s."""
    m, sh = rt._near_one(rng, 12)
    return (f"<alu = sum, alu_operand = {int(rng.integers(-100, 101))}, mul_operand = {m}, "
            f"truncate = {sh}>")


def sdp_case(rt, rng, n):
    """An offline SDP between int16 and int8 (either way)."""
    down = rng.random() < 0.5  # int16 to int8
    in_t, out_t = ("i16", "i8") if down else ("i8", "i16")
    c, h, w = int(rng.integers(1, 81)), int(rng.integers(1, 9)), int(rng.integers(1, 9))
    shape = (1, c, h, w)
    spread = rng.random() < 0.7
    tame = rng.random() < 0.5
    operands, decl, text = [], "", []
    if spread:
        stages = [st for st in ("bs", "bn") if rng.random() < 0.6] or ["bs"]
        text = [f"{st} {rt._spread_stage(rng)}" for st in stages]
        if rng.random() < 0.5:
            operand, stage = _spread_bias(rt, rng, shape, in_t)
            operands = [operand]
            text[0] = f"{stages[0]} {stage}"
            decl = f"bias %bias : {rt.ttype(operand[1].shape, operand[2], rt.ELT[operand[1].dtype])} "
        if rng.random() < 0.25:
            text.append(f"ew {_spread_y(rt, rng)}")
        cvt = " out_cvt " + _scaled_cvt(rt, rng, up=not down)
    else:
        if rng.random() < 0.5:
            # Memory operands as an int8 SDP reads them (its processing
            # precision: per-element data in int8 atoms).
            decl, text, _, operands = rt.sdp_mem_stages(rng, shape)
            decl += " "
        else:
            stages = [st for st in ("bs", "bn") if rng.random() < 0.6] or ["bs"]
            text = [f"{st} {rt._x_stage_text(rng, tame, False)}" for st in stages]
        if rng.random() < 0.3:
            while True:  # eql writes no output (the emitter refuses it)
                y, _, _ = sdp_cases._y_stage(rng, None, tame)
                if "alu = eql" not in y:
                    break
            text.append(f"ew {y}")
        cvt = " out_cvt " + sdp_cases._cvt(rng, tame)[0] if rng.random() < 0.8 else ""
    in_enc = FEATURE16 if down else rt.ENC
    out_enc = rt.ENC if down else FEATURE16
    in_type, out_type = rt.ttype(shape, in_enc, in_t), rt.ttype(shape, out_enc, out_t)
    body = f"%y = dla.sdp offline %x {decl}{' '.join(text)}{cvt} : {in_type} -> {out_type}"
    case = rt.Case(f"cvt16_sdp_{n}", shape, body, shape, operands=operands)
    case.args[0] = ("x", shape, in_enc)
    case.elts[0] = in_t
    if spread:  # the whole range: the converter scales it into the result's
        lo, hi = (-32768, 32768) if down else (-128, 128)
        case.data[0] = rng.integers(lo, hi, size=shape).astype(np.int16 if down else np.int8)
    case.out_elt, case.out_enc = out_t, out_enc
    return case


def conv_case(rt, rng, n):
    """A direct int8 convolution whose SDP on the fly writes int16:
    run_trace's conv_case (its spread draws 70% of the time) with the
    result int16, an SDP adding 0 where conv_case has none.
    Spread draws bring the sums near 2^14 (the clip 8 bits lower than
    conv_case's int8 one; its stages and converter near +-1 keep them
    there); output channels 1..20, so that one int16 surface (an odd count,
    written with one more) comes often."""
    spread = rng.random() < 0.7
    c = rt.conv_case(rng, n, spread_int8=spread)
    out16 = rt.ttype(c.out_shape, FEATURE16, "i16")
    out8 = rt.ttype(c.out_shape)
    body = c.body
    if spread:
        clip = int(body.split("clip_truncate ")[1].split()[0])
        body = body.replace(f"clip_truncate {clip}", f"clip_truncate {max(0, clip - 8)}")
    conv_t = rt.ttype(c.out_shape, None)
    if "dla.sdp" not in body:  # the convolution alone: an SDP adding 0 (the
        # plan programs the stage form only)
        body = (body.replace("%y = dla.conv", "%c = dla.conv").replace(f"-> {out8}", f"-> {conv_t}") +
                f"\n  %y = dla.sdp on_the_fly %c bs <alu = sum, alu_operand = 0> : {conv_t} -> {out16}")
    else:
        assert body.endswith(f"-> {out8}")
        body = body[: -len(out8)] + out16
    c.body, c.name = body, f"cvt16_conv_{n}"
    c.out_elt, c.out_enc = "i16", FEATURE16
    return c


# 8-bit pixel formats by component count (NvdlaPixel.h's table).
IMAGE_FORMATS = {1: ["T_R8"], 3: ["T_Y8___U8V8_N444", "T_Y8___V8U8_N444"],
                 4: ["T_A8B8G8R8", "T_A8R8G8B8", "T_B8G8R8A8", "T_X8R8G8B8", "T_A8Y8U8V8"]}


def image_encodings(rng, fmt, P, r, s, stride, precision):
    """The pixel encoding (an x offset of 0..3 pixels, half of them 0) and
    the image weights' (`precision`; post-extension 2 on a third of the
    kernels of more than one row whose S * P allows it) of an image
    convolution on nv_full."""
    x_offset = int(rng.choice([0, 0, 1, 2, 3]))
    penc = f"#dla.pixel<{fmt}{f', x_offset = {x_offset}' if x_offset else ''}, config = nv_full>"
    post = int(rng.choice([1, 1, 2]))
    if r == 1 or post * s * P > 32:
        post = 1
    wenc = f"#dla.weight<image, {precision}, channels = {P}" + (
        f", post_extension = {post}, stride = [{stride[0]}, {stride[1]}]" if post > 1 else "") + \
        ", config = nv_full>"
    return penc, wenc


def image_case(rt, rng, n):
    """An image convolution of 8-bit unsigned pixels into int8 image weights
    (an int8 pipeline) whose SDP on the fly writes int16: a format of P = 1,
    3 or 4 components, C <= P of them weighted, CDMA's converter (an offset
    or per-component means near the pixels' middle, a multiplier near +-1:
    its int8 saturation seldom reached) or none, kernels up to 5 x 7,
    strides, padding, x offsets, post-extension 2 sometimes; 70% of the
    SDPs' stages and converters near +-1, the sums clipped to about 2^14;
    output channels 1..24."""
    P = int(rng.choice([1, 3, 4, 4]))
    fmt = str(rng.choice(IMAGE_FORMATS[P]))
    c = P if P == 1 else int(rng.integers(P - 1, P + 1))
    k = int(rng.integers(1, 25))
    r, s = int(rng.integers(1, 6)), int(rng.integers(1, 8))
    pad, h, w, sy, sx, oh, ow = rt.image_window(rng, r, s)
    x = rng.integers(0, 256, (1, P, h, w)).astype(np.uint8)
    bw = int(rng.integers(3, 8))
    wt = rng.integers(-(1 << bw), 1 << bw, (k, c, r, s)).astype(np.int8)
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]"
    bx = 8
    if rng.random() < 0.7:
        m, sh = rt._near_one(rng, 6)
        bx = 7
        if rng.random() < 0.5:
            mean = [int(rng.integers(96, 161)) for _ in range(4)]
            attrs += f" input_cvt <offset = 0, scale = {m}, shift = {sh}> mean [{', '.join(map(str, mean))}]"
        else:
            attrs += f" input_cvt <offset = {int(rng.integers(96, 161))}, scale = {m}, shift = {sh}>"
    clip = bx + bw + int(np.log2(c * r * s) / 2) - 14 + int(rng.integers(-2, 3))
    attrs += f" clip_truncate {min(16, max(0, clip))}"
    penc, wenc = image_encodings(rng, fmt, P, r, s, (sy, sx), "int8")
    out = (1, k, oh, ow)
    xtype, wtype = f"tensor<1x{P}x{h}x{w}xui8, {penc}>", f"tensor<{k}x{c}x{r}x{s}xi8, {wenc}>"
    conv_t, out16 = rt.ttype(out, None), rt.ttype(out, FEATURE16, "i16")
    if rng.random() < 0.7:
        stages = [st for st in ("bs", "bn") if rng.random() < 0.6] or ["bs"]
        text = " ".join(f"{st} {rt._spread_stage(rng)}" for st in stages)
        if rng.random() < 0.8:
            text += " out_cvt " + rt._spread_cvt(rng)
    else:
        tame = rng.random() < 0.5
        text = f"bs {rt._x_stage_text(rng, tame, False)}"
        if rng.random() < 0.8:
            text += " out_cvt " + rt._cvt_text(rng, tame, False)
    body = (f"%c = dla.conv image %x, %w{attrs} : {xtype}, {wtype} -> {conv_t}\n"
            f"  %y = dla.sdp on_the_fly %c {text} : {conv_t} -> {out16}")
    case = rt.Case.of(f"cvt16_image_{n}", [("x", x, penc, "ui8"), ("w", wt, wenc, "i8")], body, out)
    case.out_elt, case.out_enc = "i16", FEATURE16
    return case
