"""Image convolutions of an int16 pipeline on nv_full (run_trace.py --kind
image16 --precision int16): 8- or 16-bit integer pixels into int16 image
weights, the result int16 (erratum 4's image row, NvdlaConversion.h).

What v1 computes (docs/NvdlaCModelV1.md "Image input in int16"): CDMA
converts each pixel component to int16 (IN_PRECISION the pixels', the
converter on, saturating to 16 bits), CSC / CMAC / CACC run int16 as for
int16 feature data. The expectation is the CPU execution's; the draws
spread the converted pixels over int16 (and into its saturation) and the
sums near 2^14 after CACC's clip.
"""

import numpy as np

import trace_cvt16_cases


def _converter(rng, bits, signed):
    """CDMA's converter text (or "" for none: the identity, which saturates
    unsigned 16-bit pixels above 32767): an offset or per-component means
    near the pixels' middle, a scale / 2^shift bringing the differences to
    2^9..2^15 (now and then beyond: int16's saturation)."""
    if rng.random() < 0.2:
        return ""
    half = 1 << (bits - 1)
    middle = 0 if signed else half
    spread = half >> 2

    def centre():
        return int(np.clip(middle + rng.integers(-spread, spread + 1), -32768, 32767))

    target = int(rng.integers(9, 17))  # |x - mean| * scale / 2^shift ~ 2^target
    shift = int(rng.integers(0, 13))
    gain = target - (bits - 1) + shift  # scale ~ 2^gain
    scale = int(np.clip(round(2.0 ** gain * rng.uniform(0.5, 1.0)), 1, 32767))
    scale = scale if rng.random() < 0.8 else -scale
    if rng.random() < 0.5:
        mean = [centre() for _ in range(4)]
        return (f" input_cvt <offset = 0, scale = {scale}, shift = {shift}>"
                f" mean [{', '.join(map(str, mean))}]")
    return f" input_cvt <offset = {centre()}, scale = {scale}, shift = {shift}>"


def image16_case(rt, rng, n, bits=None, fp16=False):
    """An image convolution of 8- or 16-bit pixels (`bits`, drawn when None;
    unsigned, or signed through PIXEL_SIGN_OVERRIDE) of a format of P = 1, 3
    or 4 components, C <= P of them weighted, into int16 image weights of
    2^3..2^15, kernels up to 5 x 7, strides, padding (a padding value
    sometimes), x offsets, post-extension 2 sometimes, CACC's clip (at most
    16, so weights of fewer bits after deep kernels) bringing the sums near
    2^14; the convolution writing int16 alone or through an
    SDP on the fly (int16 to int16, stages and converter near +-1 mostly);
    output channels 1..24. `fp16` (--kind fp16out-image): the SDP on the fly
    always, writing fp16 (it processes in int16: its converter's 17-bit
    value to fp16, sdp_c.cpp Int17ToFp16)."""
    # The fp16 image runs' pixel formats (their 16-bit ones are integer).
    from run_fp16_trace import IMAGE_FORMATS, IMAGE_FORMATS_16
    bits = bits or int(rng.choice([8, 16]))
    P = int(rng.choice([1, 3, 4, 4]))
    fmt = str(rng.choice((IMAGE_FORMATS if bits == 8 else IMAGE_FORMATS_16)[P]))
    c = P if P == 1 else int(rng.integers(P - 1, P + 1))
    k = int(rng.integers(1, 25))
    r, s = int(rng.integers(1, 6)), int(rng.integers(1, 8))
    pad, h, w, sy, sx, oh, ow = rt.image_window(rng, r, s)
    signed = rng.random() < 0.3
    elt = ("i" if signed else "ui") + str(bits)
    raw = rng.integers(0, 1 << bits, (1, P, h, w))
    half = 1 << (bits - 1)
    x = (raw - 2 * half * (raw >= half) if signed else raw).astype(
        {"i8": np.int8, "ui8": np.uint8, "i16": np.int16, "ui16": np.uint16}[elt])
    cvt = _converter(rng, bits, signed)
    # The converted pixels' bits: the converter's target, or the pixels'.
    bx = 15 if (not cvt and bits == 16) else bits if not cvt else 14
    # Weights of 2^3..2^15 where CACC's clip (at most 16) keeps the sums
    # about 2^14: 2^(bx + bw) sqrt(c r s) at most 2^30.
    depth = int(np.log2(c * r * s) / 2)
    bw = int(rng.integers(3, max(4, min(16, 29 - bx - depth))))
    wt = rng.integers(-(1 << bw), 1 << bw, (k, c, r, s)).astype(np.int16)
    attrs = f" stride [{sy}, {sx}] pad [{pad[0]}, {pad[1]}, {pad[2]}, {pad[3]}]" + cvt
    clip = bx + bw + depth - 14 + int(rng.integers(-2, 3))
    attrs += f" clip_truncate {min(16, max(0, clip))}"
    if any(pad) and rng.random() < 0.3:
        attrs += f" pad_value {int(rng.integers(-32768, 32768))}"
    penc, wenc = trace_cvt16_cases.image_encodings(rng, fmt, P, r, s, (sy, sx), "int16")
    out = (1, k, oh, ow)
    xtype, wtype = f"tensor<1x{P}x{h}x{w}x{elt}, {penc}>", f"tensor<{k}x{c}x{r}x{s}xi16, {wenc}>"
    out_elt = "f16" if fp16 else "i16"
    out_enc = rt.ENC.replace("int16", "fp16") if fp16 else rt.ENC
    out16 = rt.ttype(out, out_enc, out_elt)
    if rng.random() < 0.4 and not fp16:
        body = f"%y = dla.conv image %x, %w{attrs} : {xtype}, {wtype} -> {out16}"
    else:
        conv_t = rt.ttype(out, None)
        stages = [st for st in ("bs", "bn") if rng.random() < 0.6] or ["bs"]
        text = " ".join(f"{st} {rt._spread_stage(rng)}" for st in stages)
        if rng.random() < 0.8:
            text += " out_cvt " + rt._spread_cvt(rng)
        body = (f"%c = dla.conv image %x, %w{attrs} : {xtype}, {wtype} -> {conv_t}\n"
                f"  %y = dla.sdp on_the_fly %c {text} : {conv_t} -> {out16}")
    case = rt.Case.of(f"{'fp16out_image' if fp16 else 'image16'}_{bits}_{n}",
                      [("x", x, penc, elt), ("w", wt, wenc, "i16")], body, out)
    case.out_elt, case.out_enc = out_elt, out_enc
    return case
