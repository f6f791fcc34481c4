"""NVDLA's fp16 arithmetic as the v1 C model computes it (nv_full), in numpy.

Written from NVIDIA's v1 C model (nvdla/hw branch nvdlav1, ../shared/nvdla-hw-v1/
cmod), not from the project's C++; every function works on bit patterns
(np.uint16 fp16, np.uint32 fp32, the CMAC's and CACC's integer formats) and
is vectorized over numpy arrays. test_fp_nvdla.py checks each against the
C model's own compiled functions (cmodel-check/fp_v1_glue.cpp, loaded with
ctypes) on random inputs. docs/NvdlaFp16.md says what each unit computes
and where it differs from IEEE single rounding.

| function | C model |
|---|---|
| `fp16_to_fp32`, `fp32_to_fp16` | `hls/include/nvdla_float.h` `Fp16ToFp32` (`FpWidthInc`), `Fp32ToFp16` (`FpWidthDec`) |
| `fp32_add`, `fp32_mul`, `fp32_max`, `fp32_min`, `fp32_relu` | `FpAdd<8,23>`, `FpMul<8,23>`, `FpCmp`, `FpRelu` |
| `cmac_fp16` | `cmac/NV_NVDLA_cmac.h` `NvdlaMacCell::calculation_fp16` (direct mode): one atom of 64 channels of one kernel |
| `cacc_add` | `cacc/NV_NVDLA_cacc.cpp` `cacc_fp16_add` (the 48-bit accumulator, FP16_ALEN 48) |
| `cacc_to_fp32` | `cacc_fp48_to_fp32` (what CACC delivers to the SDP) |
| `sdp_x_fp16` | `hls/sdp/sdp_x.cpp` `NV_NVDLA_SDP_CORE_x` at precision FP16 |
| `sdp_y_fp16`, `sdp_y_operand_fp16` | `hls/sdp/sdp_y.cpp` `NV_NVDLA_SDP_CORE_Y_top` at precision FP16 (`sdp_y_core.cpp` `Y_mul` then `Y_alu`, `sdp_y_cvt.cpp` for memory operands; the LUT through `lut_float_ref.sdp_lut_float`) |
| `sdp_cvt_fp16`, `fp16_to_int16` | `hls/sdp/sdp_c.cpp` `NV_NVDLA_SDP_CORE_c` at precision FP16 (output fp16, or int16 through `Fp16ToInt16`: `FpFloatToInt<16,5,10>`) |
| `fp17_to_fp16`, `fp17_add`, `fp17_mul`, `fp16_max`, `fp16_min` | `Fp17ToFp16` (`FpExpoWidthDec`), `FpAdd<6,10>`, `FpMul<6,10>`, `FpMax` / `FpMin<5,10>` (`hls/vlibs`) |
| `pdp_w_step`, `pdp_h_step`, `pdp_stage1`, `pdp_fp16` | `hls_wrapper/pdp_hls_wrapper.cpp` `HLS_PDP_PoolingStage0Calc_FP16_W` / `_H`, `HLS_PDP_PoolingStage1Calc_FP16`, in `pdp/NV_NVDLA_pdp.cpp`'s order (`PoolingStage0SequenceCommon`, `LineOperation`, `PoolingStage0Calc`) |
| `csc_pra_fp16` | `hls/csc_libs/csc_cvt.cpp` `NV_NVDLA_CSC_pra_cell` at FP16 (Winograd's input transform, fp17 steps) |
| `cmac_wino_fp16` | `NvdlaMacCell::calculation_fp16` with `winograd_op_` (16 positions x 4 channels, output transform on the aligned integers) |
| `conv_wino_fp16` | CSC's Winograd order (`SendDataToMacSequencerWinoConvCommon`): per 2x2 output tile, super channels of 4 ascending, each cell's four words added by CACC |
| `int17_to_fp16`, `cdma_cvt_image_fp16` | `FpIntToFloat<17,5,10>` (`Int17ToFp16`); `hls_wrapper/cdma_hls_wrapper.cpp` `cdma_cvt_hls` / `hls/cdma_libs/cdma_cvt.cpp` with out_precision FP16 (integer pixels into an fp16 pipeline) |
| `image_conv_fp16` | CSC's image order (`SendImageDataToMacSequencerConvCommon`, `csc_read_one_image_entry`): atoms of 64 elements of the pre-extended line, per output super channels outer, kernel-row groups inner (the v1 model's runs check it: `run_fp16_trace.py --layer image`) |
| `conv_fp16` | CSC's direct-convolution order (`csc/NV_NVDLA_csc.cpp` `SendDataToMacSequencerDirectConvCommon`): per output, channel atoms outer, kernel rows, kernel columns, each atom's CMAC result added by CACC |
"""

import numpy as np

U32 = np.uint32
M32 = 0xFFFFFFFF


def _u(a, dtype=np.int64):
    return np.asarray(a).astype(dtype)


# ---------------------------------------------------------------------------
# fp32 <-> fp16 (nvdla_float.h)
# ---------------------------------------------------------------------------

def _inf32(sign):
    """SetToInf<8,23>: the largest finite value (NVDLA saturates)."""
    return (sign << 31) | (254 << 23) | 0x7FFFFF


def fp16_to_fp32(h):
    """Fp16ToFp32 (FpWidthInc<5,10,8,23,DENORM_YES>): exact for finite values;
    infinity becomes the largest fp32 (SetToInf); a NaN keeps its 10-bit
    payload in the low mantissa bits."""
    h = _u(h)
    s, e, m = h >> 15, (h >> 10) & 31, h & 0x3FF
    out = (s << 31) | ((e + 112) << 23) | (m << 13)
    # Denormals: normalized into the wider exponent.
    lz = 10 - _bitlen(m)  # leading zeros of m in 10 bits
    den = (s << 31) | ((113 - 1 - lz) << 23) | (((m << (lz + 1)) & 0x3FF) << 13)
    out = np.where((e == 0) & (m != 0), den, out)
    out = np.where((e == 0) & (m == 0), s << 31, out)
    out = np.where((e == 31) & (m == 0), _inf32(s), out)
    out = np.where((e == 31) & (m != 0), (s << 31) | (255 << 23) | m, out)
    return out.astype(np.uint32)


def _bitlen(x):
    """Bit length of each non-negative int64 (0 for 0)."""
    x = _u(x)
    n = np.zeros_like(x)
    for b in (32, 16, 8, 4, 2, 1):
        big = (x >> b) != 0
        n = np.where(big, n + b, n)
        x = np.where(big, x >> b, x)
    return n + (x != 0)


def fp32_to_fp16(f):
    """Fp32ToFp16 (FpWidthDec<8,23,5,10,DENORM_YES>): round to nearest even,
    fp16 denormals produced (rounded the same way), overflow saturates to
    65504 (SetToInf is the largest finite value), fp32 denormals are zero,
    a NaN keeps the low 10 bits of its payload (0x7c00 if they are zero)."""
    f = _u(f)
    s, e, m = f >> 31, (f >> 23) & 255, f & 0x7FFFFF
    p1 = m | (1 << 23)
    # Norm: RNE of 24 bits to 11.
    lsb, guard, sticky = (p1 >> 13) & 1, (p1 >> 12) & 1, (p1 & 0xFFF) != 0
    o = (p1 >> 13) + (guard & (sticky | lsb))
    ovf = o >> 11
    oe = e - 112 + ovf
    norm = (s << 15) | (oe << 10) | (o & 0x3FF)
    norm = np.where(oe >= 31, (s << 15) | 0x7BFF, norm)
    # Denorm (102 <= e <= 112): FpMantDecShiftRight, shift 1..11.
    sh = np.clip(113 - e, 1, 40)
    g = (p1 >> (12 + sh)) & 1
    st = (p1 & ((1 << (12 + sh)) - 1)) != 0
    lb = (p1 >> (13 + sh)) & 1
    od = ((p1 >> sh) >> 13) + (g & (st | lb))
    den = (s << 15) | np.where(od >> 10 != 0, 1 << 10, od & 0x3FF)
    out = np.where(e >= 143, (s << 15) | 0x7BFF,
                   np.where(e < 102, s << 15, np.where(e <= 112, den, norm)))
    out = np.where((e == 255) & (m != 0), (s << 15) | (31 << 10) | (m & 0x3FF), out)
    return out.astype(np.uint16)


def fp16_to_fp17(h):
    """Fp16ToFp17 (FpExpoWidthInc<5,6,10,DENORM_YES>): exponent rebiased
    (+16), fp16 denormals normalized, infinity saturates to the largest fp17
    (exponent 62, mantissa 1023), a NaN keeps its payload (exponent 63)."""
    h = _u(h)
    s, e, m = h >> 15, (h >> 10) & 31, h & 0x3FF
    out = (s << 16) | ((e + 16) << 10) | m
    lz = 10 - _bitlen(m)
    den = (s << 16) | ((16 - lz) << 10) | ((m << (lz + 1)) & 0x3FF)
    out = np.where((e == 0) & (m != 0), den, out)
    out = np.where((e == 0) & (m == 0), s << 16, out)
    out = np.where((e == 31) & (m == 0), _inf(s, 6, 10), out)
    out = np.where((e == 31) & (m != 0), (s << 16) | (63 << 10) | m, out)
    return out


def fp32_to_fp17(f):
    """Fp32ToFp17 (FpWidthDec<8,23,6,10,DENORM_NO>): RNE to 11 bits; what
    would be an fp17 denormal is zero unless it rounds up to the smallest
    normal; overflow saturates (exponent 62, mantissa 1023); a NaN keeps the
    low 10 bits of its payload."""
    f = _u(f)
    s, e, m = f >> 31, (f >> 23) & 255, f & 0x7FFFFF
    p1 = m | (1 << 23)
    lsb, guard, sticky = (p1 >> 13) & 1, (p1 >> 12) & 1, (p1 & 0xFFF) != 0
    o = (p1 >> 13) + (guard & (sticky | lsb))
    oe = e - 96 + (o >> 11)
    norm = np.where(oe >= 63, _inf(s, 6, 10), (s << 16) | (oe << 10) | (o & 0x3FF))
    # 86 <= e <= 96: FpMantDecShiftRight by 97 - e (the masks are 24 bits wide).
    sh = np.clip(97 - e, 1, 40)
    g = (p1 >> (12 + sh)) & 1
    st = (p1 & ((1 << (12 + sh)) - 1)) != 0
    lb = (p1 >> (13 + sh)) & 1
    od = ((p1 >> sh) >> 13) + (g & (st | lb))
    den = np.where(od >> 10 != 0, (s << 16) | (1 << 10) | (od & 0x3FF), s << 16)
    out = np.where(e >= 159, _inf(s, 6, 10),
                   np.where(e < 86, s << 16, np.where(e <= 96, den, norm)))
    out = np.where((e == 255) & (m != 0), (s << 16) | (63 << 10) | (m & 0x3FF), out)
    return out


def fp17_to_fp32(a):
    """Fp17ToFp32 (FpWidthInc<6,10,8,23,DENORM_NO>): exact for normal values
    (exponent +96); an fp17 denormal (none arises in the LUT) is read as
    if normal; infinity saturates to the largest fp32; NaN kept (exponent
    255)."""
    a = _u(a)
    s, e, m = a >> 16, (a >> 10) & 63, a & 0x3FF
    out = (s << 31) | ((e + 96) << 23) | (m << 13)
    out = np.where((e == 0) & (m == 0), s << 31, out)
    out = np.where((e == 63) & (m == 0), _inf(s, 8, 23), out)
    # FpMantWidthInc keeps a NaN's mantissa unshifted: the payload stays low.
    out = np.where((e == 63) & (m != 0), (s << 31) | (255 << 23) | m, out)
    return out.astype(np.uint32)


def fp17_to_fp16(a):
    """Fp17ToFp16 (FpExpoWidthDec<6,5,10,DENORM_YES>): exponent rebiased
    (-16); below fp16's normal range an fp16 denormal rounded to nearest
    even (FpMantDecShiftRight, 11-bit masks: at the largest shift the
    lsb reads 0), zero below 2^-24's half; overflow saturates to 65504
    (0x7bff), also fp17's infinity pattern; a NaN keeps its payload."""
    a = _u(a)
    s, e, m = a >> 16, (a >> 10) & 63, a & 0x3FF
    out = (s << 15) | (np.clip(e - 16, 0, 31) << 10) | m
    sh = np.clip(17 - e, 1, 11)
    p1 = m | (1 << 10)
    guard = (p1 >> (sh - 1)) & 1
    sticky = (p1 & ((1 << (sh - 1)) - 1)) != 0
    least = np.where(sh >= 11, 0, (p1 >> sh) & 1)
    od = (p1 >> sh) + (guard & (sticky | least))
    den = (s << 15) | np.where(od >> 10 != 0, 1 << 10, od & 0x3FF)
    out = np.where(e <= 16, den, out)
    out = np.where(e < 6, s << 15, out)
    out = np.where(e >= 47, _inf(s, 5, 10), out)
    out = np.where((e == 63) & (m != 0), (s << 15) | (31 << 10) | m, out)
    return out


def fp17_add(a, b):
    """FpAdd<6,10> (HLS_fp17_add)."""
    return fp_add(a, b, 6, 10)


def fp17_mul(a, b):
    """FpMul<6,10> (HLS_fp17_mul)."""
    return fp_mul(a, b, 6, 10)


# ---------------------------------------------------------------------------
# fp32 arithmetic (FpAdd, FpMul, FpCmp, FpRelu)
# ---------------------------------------------------------------------------

def _split32(a):
    return _split(a, 8, 23)


def _split(a, E, M):
    a = _u(a)
    return a >> (E + M), (a >> M) & ((1 << E) - 1), a & ((1 << M) - 1)


def _nan32(e, m):
    return (e == 255) & (m != 0)


def _inf(sign, E, M):
    """SetToInf<E,M>: the largest finite value (NVDLA saturates)."""
    return (sign << (E + M)) | (((1 << E) - 2) << M) | ((1 << M) - 1)


def _lz(x, width):
    """Leading zeros of x in `width` bits."""
    return width - _bitlen(x)


def fp32_add(a, b):
    """FpAdd<8,23>: the smaller addend aligned in a 49-bit internal mantissa
    (25 guard bits; what shifts out beyond them is dropped, not kept as a
    sticky bit), one RNE to 24 bits; a result below the normal range is zero
    (signed as the larger operand, also for x + (-x)), overflow saturates to
    the largest finite value; NaN: a's, else b's."""
    return fp_add(a, b, 8, 23).astype(np.uint32)


def fp_add(a, b, E, M):
    """FpAdd<E,M> on bit patterns (int64): fp32_add's arithmetic at any
    width (M + 2 guard bits, a 2M + 3-bit internal mantissa)."""
    a, b = _u(a), _u(b)
    sa, ea, ma = _split(a, E, M)
    sb, eb, mb = _split(b, E, M)
    emax1 = (1 << E) - 2
    pa = np.where((ea == 0) & (ma == 0), ma, ma | (1 << M))
    pb = np.where((eb == 0) & (mb == 0), mb, mb | (1 << M))
    a_gt = (ea > eb) | ((ea == eb) & (ma >= mb))
    oe = np.where(a_gt, ea, eb)
    ra = np.where(a_gt, 0, eb - ea)
    rb = np.where(a_gt, ea - eb, 0)
    G = M + 2
    W = 2 * M + 3
    mask = (1 << W) - 1

    def place(p, r):
        ls = G - r  # ac_int shift by a signed amount: negative shifts right
        left = (p << np.clip(ls, 0, G)) & mask
        right = p >> np.clip(-ls, 0, 63)
        return np.where(ls >= 0, left, np.where(-ls >= 63, 0, right))

    ia, ib = place(pa, ra), place(pb, rb)
    osgn = np.where(a_gt, sa, sb)
    big, small = np.where(a_gt, ia, ib), np.where(a_gt, ib, ia)
    s = np.where(sa == sb, big + small, big - small)
    carry = (s >> W) & 1
    inf = np.zeros(s.shape, bool)
    inf |= (carry == 1) & (oe >= emax1)
    im = np.where(carry == 1, s >> 1, s & mask)
    oe = np.where((carry == 1) & (oe < emax1), oe + 1, oe)
    # FpNormalize (no carry): zero when the exponent cannot hold the shift.
    zc = _lz(im, W)
    zero = (carry == 0) & ((oe <= zc) | (im == 0))
    im = np.where((carry == 0) & ~zero, (im << np.where(zero, 0, zc)) & mask, im)
    oe = np.where((carry == 0) & ~zero, oe - zc, oe)
    # FpMantRNE<2M+3, M+1>
    top = im >> G
    guard, sticky, lsb = (im >> (G - 1)) & 1, (im & ((1 << (G - 1)) - 1)) != 0, top & 1
    c = guard & (sticky | lsb)
    ovf = (c == 1) & (top == (1 << (M + 1)) - 1)
    top = (top + c) & ((1 << (M + 1)) - 1)
    inf |= ovf & (oe >= emax1)
    oe = np.where(ovf & (oe < emax1), oe + 1, oe)
    om = top & ((1 << M) - 1)
    out = (osgn << (E + M)) | (oe << M) | om
    out = np.where(zero, osgn << (E + M), out)
    out = np.where(inf, _inf(osgn, E, M), out)
    emax = (1 << E) - 1
    out = np.where((eb == emax) & (mb != 0), b, out)
    out = np.where((ea == emax) & (ma != 0), a, out)
    return out


def fp_sub(a, b, E, M):
    """FpSub<E,M>: b's sign bit flipped (also a NaN's), then FpAdd."""
    return fp_add(a, _u(b) ^ (1 << (E + M)), E, M)


def fp32_mul(a, b):
    """FpMul<8,23>: the exact 48-bit product rounded once (RNE) to 24 bits;
    zero when either operand is zero or the biased exponents sum below 127,
    and when the result's exponent field is 0 (denormals flushed, signed);
    overflow saturates to the largest finite value."""
    return fp_mul(a, b, 8, 23).astype(np.uint32)


def fp_mul(a, b, E, M):
    """FpMul<E,M> on bit patterns (int64): fp32_mul's arithmetic at any width."""
    a, b = _u(a), _u(b)
    sa, ea, ma = _split(a, E, M)
    sb, eb, mb = _split(b, E, M)
    bias, emax = (1 << (E - 1)) - 1, (1 << E) - 1
    P = 2 * M + 1  # product mantissa width below its top bit
    za, zb = (ea == 0) & (ma == 0), (eb == 0) & (mb == 0)
    pa = np.where(za, ma, ma | (1 << M))
    pb = np.where(zb, mb, mb | (1 << M))
    p = pa * pb  # 2M + 2 bits
    ps = sa ^ sb
    esum = ea + eb
    zero = za | zb | (esum < bias)
    inf = ~zero & (esum >= emax + bias)
    pe = np.where(zero | inf, 0, esum - bias)
    hi = (p >> P) & 1
    inf |= ~zero & ~inf & (hi == 1) & (pe >= emax - 1)
    pm = np.where(hi == 1, p & ((1 << P) - 1), (p << 1) & ((1 << P) - 1))
    pe = np.where((hi == 1) & (pe < emax - 1), pe + 1, pe)
    # FpMantWidthDec<E,2M+1,M,DENORM_NO>: RNE of (1.pm) to M + 1 bits.
    p1 = pm | (1 << P)
    top = p1 >> (M + 1)
    guard, sticky, lsb = (p1 >> M) & 1, (p1 & ((1 << M) - 1)) != 0, top & 1
    c = guard & (sticky | lsb)
    ovf = (c == 1) & (top == (1 << (M + 1)) - 1)
    top = (top + c) & ((1 << (M + 1)) - 1)
    oe = (pe + ovf) & emax
    out = (ps << (E + M)) | (oe << M) | (top & ((1 << M) - 1))
    inf |= ovf & (oe == emax)
    out = np.where(inf, _inf(ps, E, M), out)
    # Zero (SetToZero) last, on the exponent after SetToInf (emax - 1 there).
    out = np.where(zero | ((oe == 0) & ~inf), ps << (E + M), out)
    out = np.where((eb == emax) & (mb != 0), b, out)
    out = np.where((ea == emax) & (ma != 0), a, out)
    return out


def _cmp(a, b, want_max, E=8, M=23):
    a, b = _u(a), _u(b)
    sa, ea, ma = _split(a, E, M)
    sb, eb, mb = _split(b, E, M)
    emax = (1 << E) - 1
    abs_a_gt = (ea > eb) | ((ea == eb) & (ma > mb))
    a_gt = np.where(sa == 0, np.where(sb == 0, abs_a_gt, True),
                    np.where(sb == 0, False, ~abs_a_gt))
    out = np.where(a_gt, a, b) if want_max else np.where(a_gt, b, a)
    out = np.where((eb == emax) & (mb != 0), b, out)
    out = np.where((ea == emax) & (ma != 0), a, out)
    return out


def fp32_max(a, b):
    """FpMax<8,23> (FpCmp): by sign, exponent and mantissa; +0 > -0."""
    return _cmp(a, b, True).astype(np.uint32)


def fp32_min(a, b):
    """FpMin<8,23>."""
    return _cmp(a, b, False).astype(np.uint32)


def fp16_max(a, b):
    """FpMax<5,10> (HLS_fp16_max): fp32_max's comparison on fp16 bits (a
    NaN operand is returned, a's first; infinities compare as numbers)."""
    return _cmp(a, b, True, 5, 10)


def fp16_min(a, b):
    """FpMin<5,10> (HLS_fp16_min)."""
    return _cmp(a, b, False, 5, 10)


def fp32_relu(a):
    """FpRelu<8,23>: negative values (and -0) become +0; NaN kept."""
    a = _u(a)
    s, e, m = _split32(a)
    return np.where((s == 0) | _nan32(e, m), a, 0).astype(np.uint32)


# ---------------------------------------------------------------------------
# CMAC (one MAC cell, direct convolution, fp16)
# ---------------------------------------------------------------------------

_SIGN_COMP = {0: 0xAAAB0000, 4: 0xFAAAB000, 8: 0xFFAAAB00, 12: 0xFFFAAAB0, 16: 0xFFFFAAAB,
              20: 0xFFFFFAAB, 24: 0xFFFFFFAB, 28: 0xFFFFFFFB}


def _booth(sign, wt, dat, shift):
    """cal_fp16_booth: the radix-4 Booth partial products of wt * dat, reduced
    by carry-save adders to two vectors, each shifted right by `shift`
    (truncated: the two truncations are why this differs from
    floor(wt * dat >> shift) by up to one), plus the sign compensation.
    int64 arrays; result int32 values."""
    sign, wt, dat, shift = (_u(v) for v in (sign, wt, dat, shift))
    code_rev = np.where(sign != 0, 7, 0)
    w = wt << 1
    pp, inv = [], []
    for _ in range(8):
        code = (w & 7) ^ code_rev
        w = w >> 2
        p = np.select([(code == 0) | (code == 7), (code == 1) | (code == 2), code == 3,
                       code == 4], [0x10000, dat | 0x10000, (dat << 1) | 0x10000,
                                    ~(dat << 1) & 0xFFFF], ~dat & 0xFFFF)
        pp.append(p)
        inv.append(((code >= 4) & (code <= 6)).astype(np.int64))
    c = [pp[0], (pp[1] << 2) | inv[0], (pp[2] << 4) | (inv[1] << 2),
         (pp[3] << 6) | (inv[2] << 4), inv[3] << 6, pp[4] << 8,
         (pp[5] << 10) | (inv[4] << 8), (pp[6] << 12) | (inv[5] << 10),
         (pp[7] << 14) | (inv[6] << 12), inv[7] << 14]
    c = [v & M32 for v in c]
    for i in range(3):
        if i == 0:
            cur, st = 5, 0
        elif i == 1:
            cur, st = 5, 5
        else:
            c[2], c[3] = c[5], c[6]
            cur, st = 4, 0
        while cur >= 3:
            groups = cur // 3
            for j in range(groups):
                x, y, z = c[st + j * 3], c[st + j * 3 + 1], c[st + j * 3 + 2]
                s = x ^ y ^ z
                cy = ((x & y) | (y & z) | (x & z)) << 1
                c[st + j * 2], c[st + j * 2 + 1] = s & M32, cy & M32
            for j in range(groups * 3, cur):
                c[st + j - groups] = c[st + j]
            cur -= groups
    sh = np.minimum(shift, 31)
    comp = np.zeros_like(shift)
    for k, v in _SIGN_COMP.items():
        comp = np.where(shift == k, v, comp)
    total = ((c[0] >> sh) + (c[1] >> sh) + comp) & M32
    total = np.where(total >= 0x80000000, total - (1 << 32), total)
    return np.where(shift >= 32, 0, total)


def _cmac_products(data, weight):
    """cal_fp16_exp / cal_fp16_mul / cal_fp16_nan over one cell's 64 value
    pairs: the Booth products aligned to the cell's largest exponent group
    (int64 [..., 64]), that exponent (max_exp << 2, [...]), and the NaN
    word's flag and mantissa ([...])."""
    d, w = _u(data), _u(weight)
    act = ((d & 0x7FFF) != 0) & ((w & 0x7FFF) != 0)
    de, we = (d >> 10) & 31, (w >> 10) & 31
    dsh = np.where(de == 0, 1, de & 3)
    wsh = np.where(we == 0, 1, we & 3)
    sexp = np.where(act, (de >> 2) + (we >> 2), 0)
    mx = sexp.max(axis=-1)
    shift = np.where(act, (mx[..., None] - sexp) << 2, 0)
    dm = ((d & 0x3FF) | np.where(de != 0, 1 << 10, 0)) << dsh
    wm = ((w & 0x3FF) | np.where(we != 0, 1 << 10, 0)) << wsh
    sign = ((d >> 15) ^ (w >> 15)) & 1
    prod = np.where(act, _booth(sign, wm, dm, shift), 0)
    exp = (mx << 2) & 63
    # NaN: the first NaN weight, else the first NaN data value.
    def first_nan(v, e):
        isn = (e == 31) & ((v & 0x3FF) != 0)
        idx = np.argmax(isn, axis=-1)
        hit = isn.any(axis=-1)
        val = np.take_along_axis(v, idx[..., None], axis=-1)[..., 0]
        return hit, val
    wn, wv = first_nan(w, we)
    dn, dv = first_nan(d, de)
    nv = np.where(wn, wv, dv)
    nan = wn | dn
    nan_m = (((nv >> 15) & 1) << 37) | ((nv & 0x3FF) << 27)
    nan_m = np.where(nan_m >= 1 << 37, nan_m - (1 << 38), nan_m)
    return prod, exp, nan, nan_m


def cmac_fp16(data, weight):
    """One MAC cell's result for one atom (NvdlaMacCell::calculation_fp16,
    direct mode): `data` and `weight` are uint16 arrays [..., 64] (channels
    of the atom; absent channels 0). Returns (exponent, mantissa) int64 arrays
    [...]: the 44-bit word CACC receives, value mantissa * 2^(exponent - 50)
    (mantissa a 38-bit two's complement integer). Products are aligned to
    the largest exponent group (fp16 exponents taken 4 at a time, the two low
    bits shifting the mantissa) and truncated there. A channel takes part
    only where both values are nonzero (CSC's masks: +0 and -0 are zero).
    A NaN weight (the first), else a NaN data value, gives exponent 63 and
    the NaN's sign and fraction in mantissa bits 37 and 36..27."""
    prod, exp, nan, nan_m = _cmac_products(data, weight)
    mant = prod.sum(axis=-1)
    return np.where(nan, 63, exp), np.where(nan, nan_m, mant)


def cmac_wino_fp16(data, weight):
    """One MAC cell in Winograd mode (calculation_fp16 with winograd_op_):
    `data` and `weight` uint16 [..., 64], value 4 * p + c the transformed
    position p = 4 * row + column of a 4x4 tile and channel c of a group of
    four (CSC's PRA output and the transformed weights). The 64 products are
    aligned to one exponent, the largest of the cell (cmac_fp16's), summed
    over the four channels of each position (pp_phase1), then A^T M A on
    those integers: rows (m0 + m1) + m2 and (m1 - m2) - m3 (pp_phase2), then
    the columns the same way (pp_phase3), each a 38-bit register. Returns
    (exponent, mantissa) [..., 4] for the outputs (0,0), (0,1), (1,0), (1,1)
    of the 2x2 tile, all four with the cell's exponent; a NaN (cmac_fp16's
    choice) gives its word in all four."""
    prod, exp, nan, nan_m = _cmac_products(data, weight)
    p1 = _sext(prod.reshape(prod.shape[:-1] + (4, 4, 4)).sum(axis=-1), 38)  # [..., row, col]
    p2 = np.stack([_sext(p1[..., 0, :] + p1[..., 1, :] + p1[..., 2, :], 38),
                   _sext(p1[..., 1, :] - p1[..., 2, :] - p1[..., 3, :], 38)], axis=-2)
    p3 = np.stack([_sext(p2[..., 0] + p2[..., 1] + p2[..., 2], 38),
                   _sext(p2[..., 1] - p2[..., 2] - p2[..., 3], 38)], axis=-1)
    mant = p3.reshape(p3.shape[:-2] + (4,))
    return (np.where(nan[..., None], 63, exp[..., None]) + 0 * mant,
            np.where(nan[..., None], nan_m[..., None], mant))


def csc_pra_fp16(tile):
    """CSC's input transform in fp16 (hls/csc_libs/csc_cvt.cpp
    NV_NVDLA_CSC_pra_cell at ENUM_FP16): `tile` uint16 [..., 16], a 4x4
    tile of one channel, value 4 * y + x. Each value widened to fp17
    (Fp16ToFp17), C^T d by rows (d0 - d2, d1 + d2, d2 - d1, d1 - d3), then
    by columns the same way, each add or subtract FpAdd / FpSub<6,10>
    (rounded to 10 fraction bits), the result narrowed by Fp17ToFp16.
    Returns uint16 [..., 16]."""
    f = fp16_to_fp17(tile)
    r = [f[..., i] for i in range(16)]
    add = lambda a, b: fp_add(a, b, 6, 10)
    sub = lambda a, b: fp_sub(a, b, 6, 10)
    m = ([sub(r[i], r[i + 8]) for i in range(4)] + [add(r[i], r[i + 4]) for i in range(4, 8)] +
         [sub(r[i], r[i - 4]) for i in range(8, 12)] + [sub(r[i - 8], r[i]) for i in range(12, 16)])
    o = [None] * 16
    for i in range(4):
        o[4 * i] = sub(m[4 * i], m[4 * i + 2])
        o[4 * i + 1] = add(m[4 * i + 1], m[4 * i + 2])
        o[4 * i + 2] = sub(m[4 * i + 2], m[4 * i + 1])
        o[4 * i + 3] = sub(m[4 * i + 1], m[4 * i + 3])
    return fp17_to_fp16(np.stack(o, axis=-1)).astype(np.uint16)


# ---------------------------------------------------------------------------
# CACC: the 48-bit accumulator (8-bit exponent, 40-bit mantissa)
# ---------------------------------------------------------------------------

def _sext(x, bits):
    x = x & ((1 << bits) - 1)
    return np.where(x >= 1 << (bits - 1), x - (1 << bits), x)


def _bit(x, i):
    return (x >> i) & 1


def _top_run(x, top, start):
    """For cacc's normalizations: the highest i in [0, start] whose bit of
    `x` differs from bit `top`, else -1."""
    ref = _bit(x, top)
    idx = np.full(x.shape, -1, np.int64)
    for i in range(0, start + 1):
        idx = np.where(_bit(x, i) != ref, i, idx)
    return idx


def cacc_add(acc_exp, acc_mant, mac_exp, mac_mant):
    """cacc_fp16_add: accumulator (exponent 0..255, 40-bit signed mantissa,
    value mantissa * 2^(exponent - 101)) plus a CMAC word (cmac_fp16's
    exponent and mantissa). The CMAC word is normalized, the operand with
    the smaller exponent shifted right (its bits kept for rounding up to 40
    positions), the 40-bit sum normalized and rounded once: positive values
    round half up, negative ones only when the dropped bits are above half
    (ties toward zero). Returns the new (exponent, mantissa)."""
    ae, am = _u(acc_exp), _sext(_u(acc_mant), 40)
    me, mm = _u(mac_exp), _sext(_u(mac_mant), 38)
    ae, am, me, mm = np.broadcast_arrays(ae, am, me, mm)
    # Normalize the CMAC word left (38 bits).
    i = np.where(_bit(mm, 37) == _bit(mm, 36), _top_run(mm, 37, 36), 36)
    n0 = 36 - i
    mreg = _sext(mm << n0, 38)
    mext = mreg * 4  # 40 bits, two zero bits below
    mexp = (me - n0 + 49) & 255
    ae2 = np.where(am == 0, 0, ae)
    aext = am
    M40 = (1 << 40) - 1
    diff_m = mexp - ae2
    out_bits = np.zeros_like(aext)

    def shift_out(v, d):
        dd = np.clip(d, 1, 40)
        low = v & ((1 << dd) - 1)
        return np.where((d >= 1) & (d <= 40), (low << (40 - dd)) & M40, 0)

    def ashr(v, d):
        return np.where(d <= 40, v >> np.clip(d, 0, 63), 0)

    out_bits = np.where(diff_m > 0, shift_out(aext, diff_m), out_bits)
    out_bits = np.where(diff_m < 0, shift_out(mext, -diff_m), out_bits)
    aext = np.where(diff_m > 0, ashr(aext, diff_m), aext)
    mext = np.where(diff_m < 0, ashr(mext, -diff_m), mext)
    bigger = np.maximum(mexp, ae2)
    tmp = _sext(aext + mext, 40)
    ovf = (_bit(mext, 39) == _bit(aext, 39)) & (_bit(mext, 39) != _bit(tmp, 39))
    high1 = _bit(tmp, 0)
    # overflow: shift right one, the sign kept
    s_ovf = _sext((_bit(mext, 39) << 39) | ((tmp & M40) >> 1), 40)
    # left normalization, the shifted-out bits shifted back in
    j = _top_run(tmp, 39, 38)
    n1 = 38 - j
    n1c = np.clip(n1, 0, 40)
    s_left = _sext(((tmp << n1c) & M40) | (out_bits >> np.clip(40 - n1c, 0, 40)), 40)
    left = ~ovf & (_bit(tmp, 38) == _bit(tmp, 39))
    s = np.where(ovf, s_ovf, np.where(left, s_left, tmp))
    out_bits = np.where(left, (out_bits << n1c) & M40, out_bits)
    rexp = np.where(ovf, bigger + 1, np.where(left, bigger - n1, bigger))
    guard0, sticky0 = _bit(out_bits, 39), (out_bits & ((1 << 39) - 1)) != 0
    sticky1 = out_bits != 0
    neg = _bit(s, 39) == 1
    rnd = np.where(ovf, np.where(neg, (high1 == 1) & sticky1, high1 == 1),
                   np.where(neg, (guard0 == 1) & sticky0, guard0 == 1))
    r = _sext(s + rnd, 40)
    fix = _bit(r, 39) != _bit(s, 39)
    final = np.where(fix, _sext((_bit(s, 39) << 39) | ((r & M40) >> 1), 40), r)
    rexp = np.where(fix, rexp + 1, rexp) & 255
    rexp = np.where(final == 0, 0, rexp)
    # Early outs: a zero CMAC word leaves the accumulator; NaNs.
    keep = mm == 0
    e_out = np.where(keep, ae, rexp)
    m_out = np.where(keep, am, final)
    acc_nan, mac_nan = (ae == 255) & ~keep, (me == 63) & ~keep & (ae != 255)
    e_out = np.where(acc_nan | mac_nan, 255, e_out)
    m_out = np.where(acc_nan, _sext(am & (0x7FF << 29), 40), m_out)
    m_out = np.where(mac_nan, _sext(((mm >> 27) & 0x7FF) << 29, 40), m_out)
    return e_out, m_out


def cacc_to_fp32(acc_exp, acc_mant):
    """cacc_fp48_to_fp32: the accumulator as the fp32 CACC delivers to the
    SDP: sign and magnitude, the magnitude's 24 bits below its leading one
    rounded half up (away from zero) on the next bit alone; exponent
    acc_exp + 64 (wrapping in 8 bits). NaN keeps 10 fraction bits."""
    e, m = _u(acc_exp), _sext(_u(acc_mant), 40)
    mu = m & ((1 << 40) - 1)
    neg = _bit(mu, 39)
    mag = np.where(neg == 1, ((~mu) + 1) & ((1 << 39) - 1), mu & ((1 << 39) - 1))
    mo = (neg << 39) | mag
    et = np.where(mu == 0, 0, (e + 64) & 255)
    guard = _bit(mo, 14)
    t = (mo >> 15) & ((1 << 25) - 1)
    t1 = (t + 1) & ((1 << 25) - 1)
    ov = _bit(t1, 24) != neg
    frac_r = np.where(ov, ((neg << 24) | (t1 >> 1)) & 0x7FFFFF, t1 & 0x7FFFFF)
    et_r = np.where(ov, (et + 1) & 255, et)
    frac = np.where(guard == 1, frac_r, (mo >> 15) & 0x7FFFFF)
    ex = np.where(guard == 1, et_r, et)
    out = (neg << 31) | (ex << 23) | frac
    out = np.where((neg == 1) & ((mu & ((1 << 39) - 1)) == 0),
                   (1 << 31) | (((e + 65) & 255) << 23), out)
    out = np.where(e == 255, (neg << 31) | (255 << 23) | ((mu >> 29) & 0x3FF), out)
    return out.astype(np.uint32)


# ---------------------------------------------------------------------------
# SDP in fp16 (proc precision FP16: the data path is fp32)
# ---------------------------------------------------------------------------

ALU_MAX, ALU_MIN, ALU_SUM = 0, 1, 2


def _flush_nan16(op, nan_to_zero):
    op = _u(op)
    isn = (((op >> 10) & 31) == 31) & ((op & 0x3FF) != 0)
    return np.where(isn & bool(nan_to_zero), 0, op)


def sdp_x_fp16(x, alu_bypass=1, alu_algo=ALU_SUM, alu_op=0, mul_bypass=1, mul_op=0,
               mul_prelu=0, relu_bypass=1, nan_to_zero=0):
    """One X stage (BS or BN) of the SDP at precision FP16
    (NV_NVDLA_SDP_CORE_x): x is fp32 bits; the ALU operand and the
    multiplier are fp16 bits (per element or broadcast), widened exactly to
    fp32; ALU max / min / sum (FpAdd) in fp32, then FpMul in fp32 (PReLU:
    non-negative values pass), then ReLU. The shift fields are not used in
    fp16. Returns fp32 bits."""
    y = _u(x)
    if not alu_bypass:
        op = fp16_to_fp32(_flush_nan16(alu_op, nan_to_zero))
        y = {ALU_MAX: fp32_max, ALU_MIN: fp32_min, ALU_SUM: fp32_add}[alu_algo](y, op)
    if not mul_bypass:
        op = fp16_to_fp32(_flush_nan16(mul_op, nan_to_zero))
        prod = fp32_mul(y, op)
        y = np.where(bool(mul_prelu) & ((_u(y) >> 31) == 0), y, prod)
    if not relu_bypass:
        y = fp32_relu(y)
    return _u(y).astype(np.uint32)


SRC_REG, SRC_MEM = 0, 1


def sdp_y_operand_fp16(op, src, nan_to_zero=0):
    """The Y stage's ALU or multiplier operand at precision FP16 as fp32
    bits. From memory (src SRC_MEM: fp16 bits per element) it passes
    NV_NVDLA_SDP_CORE_Y_cvt (sdp_y_cvt.cpp): a NaN becomes +0 with
    NAN_TO_ZERO, then Fp16ToFp32 (exact; infinity the largest fp32); the
    converter's offset, scale and truncate are not used in fp16. From the
    register (SRC_REG) the 32 bits of EW_ALU_SRC_VALUE / EW_MUL_SRC_VALUE
    are taken as fp32 bits as they are (Y_alu / Y_mul read
    `.slc<32>(0)`; no converter, no NaN flush): unlike the X stages, whose
    register operands are fp16."""
    if src == SRC_MEM:
        return fp16_to_fp32(_flush_nan16(op, nan_to_zero))
    if src != SRC_REG:
        raise ValueError("src %r: SRC_REG or SRC_MEM" % (src,))
    return (_u(op) & M32).astype(np.uint32)


def sdp_y_fp16(x, alu_bypass=1, alu_algo=ALU_SUM, alu_src=SRC_REG, alu_op=0, mul_bypass=1,
               mul_src=SRC_REG, mul_op=0, mul_prelu=0, nan_to_zero=0, lut=None):
    """The SDP's Y stage (EW) at precision FP16 (hls/sdp/sdp_y.cpp
    NV_NVDLA_SDP_CORE_Y_top, sdp_y_core.cpp): x is fp32 bits (the X stages'
    output). The multiplier comes first (Y_mul: FpMul<8,23>, PReLU passes
    non-negative values: x's sign bit 0), then the ALU (Y_alu: FpAlu<8,23>
    max / min / sum with the data first), each operand as
    sdp_y_operand_fp16 gives it; the Y stage has no ReLU. lut: None (LUT
    bypassed) or lut_float_ref.sdp_lut_float's keyword registers and tables,
    applied to the ALU's output (NV_NVDLA_SDP_CORE_Y_idx, then the
    wrapper's Y_inp: the LUT's value replaces the data). Returns fp32 bits.
    The ALU's EQL mode (a 0 / 1 integer, not a float) is not modelled."""
    y = _u(x) & M32
    if not mul_bypass:
        op = sdp_y_operand_fp16(mul_op, mul_src, nan_to_zero)
        prod = fp32_mul(y, op)
        y = np.where(bool(mul_prelu) & ((y >> 31) == 0), y, prod)
    if not alu_bypass:
        if alu_algo not in (ALU_MAX, ALU_MIN, ALU_SUM):
            raise NotImplementedError("the Y ALU's EQL mode in fp16 is not modelled")
        op = sdp_y_operand_fp16(alu_op, alu_src, nan_to_zero)
        y = {ALU_MAX: fp32_max, ALU_MIN: fp32_min, ALU_SUM: fp32_add}[alu_algo](y, op)
    y = _u(y).astype(np.uint32)
    if lut is not None:
        import lut_float_ref  # it imports this module
        y = lut_float_ref.sdp_lut_float(y, **lut).astype(np.uint32)
    return y


def fp16_to_int16(h):
    """Fp16ToInt16 (nvdla_float.h FpFloatToInt<16,5,10>) on fp16 bits: the
    mantissa with its implicit bit set whatever the exponent (i_mant_p1, so
    a denormal reads 1.m * 2^-15), shifted right by 10 - (e - 15) through
    IntSignedShiftRight into ac_fixed<26,26> (AC_RND_INF: a half rounds up,
    the magnitude away from zero; a negative shift a left shift); above
    32767 the sign's bound (-32768 or 32767), else the magnitude signed; a
    NaN -32768. Returns np.int16 values."""
    h = _u(h) & 0xFFFF
    s, e, m = h >> 15, (h >> 10) & 31, h & 0x3FF
    p = m | (1 << 10)
    sh = 10 - (e - 15)
    right = np.maximum(sh, 0)
    # Exact while right <= 12 (the shifted-out bits below the half bit
    # cannot make a tie rounding differ: p < 2^11, right > 12 gives 0).
    half = np.where(right > 0, (p >> np.maximum(right - 1, 0)) & 1, 0)
    mag = np.where(sh < 0, p << np.maximum(-sh, 0), (p >> right) + half)
    mag = np.where(right > 11, 0, mag)
    out = np.where(mag > 32767, np.where(s == 1, -32768, 32767), np.where(s == 1, -mag, mag))
    nan = (e == 31) & (m != 0)
    return np.where(nan, -32768, out).astype(np.int16)


def sdp_cvt_fp16(x, out_int16=False):
    """The SDP's output converter at precision FP16 (NV_NVDLA_SDP_CORE_c):
    Fp32ToFp16 (offset, scale and shift are not used), then with
    OUT_PRECISION int16 Fp16ToInt16 (np.int16 values)."""
    h = fp32_to_fp16(x)
    return fp16_to_int16(h) if out_int16 else h


# ---------------------------------------------------------------------------
# A direct fp16 convolution through CMAC and CACC
# ---------------------------------------------------------------------------

def conv_fp16(x, w, stride=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1)):
    """A direct convolution in fp16 as NVDLA computes it (CDMA's converter
    off, zero padding): x uint16 [C, H, W] (fp16 bits), w uint16 [K, C, R, S];
    returns the fp32 bits CACC delivers, [K, OH, OW]. Per output element the
    CMAC results of each channel atom (64 channels) and kernel position are
    added by CACC in CSC's order: atoms outer, kernel rows, kernel columns."""
    x, w = np.asarray(x, np.uint16), np.asarray(w, np.uint16)
    C, H, W = x.shape
    K, _, R, S = w.shape
    pt, pb, pl, pr = pad
    sy, sx = stride
    dy, dx = dilation
    OH = (H + pt + pb - ((R - 1) * dy + 1)) // sy + 1
    OW = (W + pl + pr - ((S - 1) * dx + 1)) // sx + 1
    atoms = -(-C // 64)
    xp = np.zeros((atoms * 64, H + pt + pb, W + pl + pr), np.uint16)
    xp[:C, pt:pt + H, pl:pl + W] = x
    wp = np.zeros((K, atoms * 64, R, S), np.uint16)
    wp[:, :C] = w
    ae = np.zeros((K, OH, OW), np.int64)
    am = np.zeros((K, OH, OW), np.int64)
    oy = np.arange(OH) * sy
    ox = np.arange(OW) * sx
    for a in range(atoms):
        cs = slice(a * 64, a * 64 + 64)
        for r in range(R):
            for s in range(S):
                win = xp[cs][:, oy[:, None] + r * dy, ox[None, :] + s * dx]  # [64, OH, OW]
                d = np.broadcast_to(np.moveaxis(win, 0, -1)[None], (K, OH, OW, 64))
                wt = np.broadcast_to(wp[:, cs, r, s][:, None, None, :], (K, OH, OW, 64))
                me, mm = cmac_fp16(d, wt)
                ae, am = cacc_add(ae, am, me, mm)
    return cacc_to_fp32(ae, am)


def conv_wino_fp16(x, taps, pad=(0, 0, 0, 0), pad_value=0):
    """A 3x3 stride-1 Winograd convolution F(2x2, 3x3) in fp16 as NVDLA
    computes it: x uint16 [C, H, W] (fp16 bits, CDMA's converter off),
    taps uint16 [K, C', 4, 4] the transformed weights as stored (G g G^T
    in fp16, weight_ref.winograd_values), C' >= C; padding with the fp16
    bits `pad_value` (also beyond the bottom / right edge up to whole 2x2
    tiles), channels beyond C zero. Per 2x2 output tile and kernel: each
    group of 4 channels (CSC's super channel, ascending) through the PRA
    (csc_pra_fp16) and one MAC cell (cmac_wino_fp16), its four words added
    by CACC (cacc_add) into the four outputs' accumulators. Returns the fp32
    bits CACC delivers, [K, OH, OW]."""
    x, taps = np.asarray(x, np.uint16), np.asarray(taps, np.uint16)
    C, H, W = x.shape
    K, CX = taps.shape[:2]
    pt, pb, pl, pr = pad
    OH, OW = H + pt + pb - 2, W + pl + pr - 2
    th, tw = -(-OH // 2), -(-OW // 2)
    groups = -(-max(C, CX) // 4)
    hy, wx = 2 * th + 2, 2 * tw + 2
    xp = np.full((groups * 4, hy, wx), pad_value, np.uint16)
    xp[C:] = 0
    kh, kw = min(H, hy - pt), min(W, wx - pl)
    xp[:C, pt:pt + kh, pl:pl + kw] = x[:, :kh, :kw]
    tp = np.zeros((K, groups * 4, 16), np.uint16)
    tp[:, :CX] = taps.reshape(K, CX, 16)
    iy = 2 * np.arange(th)[:, None] + np.arange(4)[None, :]
    ix = 2 * np.arange(tw)[:, None] + np.arange(4)[None, :]
    tiles = xp[:, iy[:, None, :, None], ix[None, :, None, :]]      # [C4, th, tw, 4, 4]
    v = csc_pra_fp16(tiles.reshape(groups * 4, th, tw, 16))        # [C4, th, tw, 16]
    ae = np.zeros((K, th, tw, 4), np.int64)
    am = np.zeros((K, th, tw, 4), np.int64)
    for g in range(groups):
        cs = slice(4 * g, 4 * g + 4)
        # cell value 4 * p + c: position-major, the group's channels inner.
        d = np.moveaxis(v[cs], 0, -1).reshape(1, th, tw, 64)
        wt = np.moveaxis(tp[:, cs], 1, -1).reshape(K, 1, 1, 64)
        d, wt = np.broadcast_arrays(d, wt)
        me, mm = cmac_wino_fp16(d, wt)
        ae, am = cacc_add(ae, am, me, mm)
    y = cacc_to_fp32(ae, am).reshape(K, th, tw, 2, 2).transpose(0, 1, 3, 2, 4)
    return y.reshape(K, 2 * th, 2 * tw)[:, :OH, :OW]


# ---------------------------------------------------------------------------
# PDP in fp16 (cmod/pdp/NV_NVDLA_pdp.cpp, hls_wrapper/pdp_hls_wrapper.cpp)
# ---------------------------------------------------------------------------

POOL_AVERAGE, POOL_MAX, POOL_MIN = "average", "max", "min"

# HLS_PDP_PoolingStage0Calc_FP16_H's kernel_width_map: the kernel width in
# fp17, indexed by the width itself, 0..7. A width of 8 reads past the table
# (in the library built here, zero bytes of .bss): its only use is to
# multiply the padding registers, so with padding values 0 (all dla.pool
# states in fp16) the product is +0 whatever finite value it reads; with
# others the model refuses a width of 8.
PDP_KERNEL_WIDTH_FP17 = (0x0000, 0x7C00, 0x8000, 0x8200, 0x8400, 0x8500, 0x8600, 0x8700)

# RECIP_KERNEL_WIDTH / _HEIGHT for fp16 as NVIDIA's firmware writes them
# (recip_kernel_size[1] in kmd/firmware/pdp.c): 1/k in fp17, k = 1..8.
PDP_RECIP_FP17 = (0x7C00, 0x7800, 0x7555, 0x7400, 0x7266, 0x7155, 0x7092, 0x7000)


def _fp16_nan(h):
    h = _u(h)
    return (((h >> 10) & 31) == 31) & ((h & 0x3FF) != 0)


def pdp_w_step(is_first, pad_left, pad_right, method, line, x):
    """HLS_PDP_PoolingStage0Calc_FP16_W: one input element `x` (fp16 bits)
    into the line-operation buffer `line` (fp16 bits for max / min, fp17
    for average). Max / min: the first element is taken as it is, later
    ones FpMax / FpMin(line, x) in fp16; padding is not used. Average: x
    widened to fp17 (Fp16ToFp17), FpAdd<6,10>(line, x) (the first
    element: x alone), then + pad_left, then + pad_right (the registers'
    low 17 bits as fp17 bits, 0 where no padding is added: each add is
    done all the same)."""
    line, x = _u(line), _u(x)
    if method != POOL_AVERAGE:
        cmp = fp16_max if method == POOL_MAX else fp16_min
        return np.where(is_first, x, cmp(line & 0xFFFF, x))
    b = fp16_to_fp17(x)
    o = np.where(is_first, b, fp17_add(line & 0x1FFFF, b))
    o = fp17_add(o, _u(pad_left) & 0x1FFFF)
    return fp17_add(o, _u(pad_right) & 0x1FFFF)


def pdp_h_step(is_first, pad_top, pad_bottom, kernel_width, method, line, row):
    """HLS_PDP_PoolingStage0Calc_FP16_H: one row's line-operation result
    `row` into the line buffer `line`. Max / min: the first row as it is,
    later ones FpMax / FpMin(row, line) (the row first: a NaN in it wins).
    Average: FpAdd<6,10>(row, line) (the first: row alone), then + the top
    and then + the bottom padding value, each FpMul<6,10>(register, the
    kernel width in fp17; a width of 8 only with padding values 0)."""
    line, row = _u(line), _u(row)
    if method != POOL_AVERAGE:
        cmp = fp16_max if method == POOL_MAX else fp16_min
        return np.where(is_first, row, cmp(row & 0xFFFF, line & 0xFFFF))
    pad_top, pad_bottom = _u(pad_top) & 0x1FFFF, _u(pad_bottom) & 0x1FFFF
    if kernel_width == 8:
        if np.any(pad_top) or np.any(pad_bottom):
            raise ValueError("fp16 average pooling 8 wide with padding values: the v1 C "
                             "model's kernel_width_map holds the widths 0..7")
        pt = pb = np.zeros_like(pad_top)  # +0 times any finite width
    else:
        kw = PDP_KERNEL_WIDTH_FP17[kernel_width]
        pt = fp17_mul(pad_top, kw)
        pb = fp17_mul(pad_bottom, kw)
    o = np.where(is_first, row & 0x1FFFF, fp17_add(row & 0x1FFFF, line & 0x1FFFF))
    return fp17_add(fp17_add(o, pt), pb)


def pdp_stage1(method, recip_width, recip_height, line):
    """HLS_PDP_PoolingStage1Calc_FP16: max / min the line buffer's fp16;
    average FpMul<6,10>(FpMul<6,10>(sum, recip_width), recip_height) (the
    registers as fp17 bits), rounded to fp16 by Fp17ToFp16."""
    line = _u(line)
    if method != POOL_AVERAGE:
        return (line & 0xFFFF).astype(np.uint16)
    o = fp17_mul(fp17_mul(line & 0x1FFFF, _u(recip_width) & 0x1FFFF), _u(recip_height) & 0x1FFFF)
    return fp17_to_fp16(o).astype(np.uint16)


def _pdp_steps(o, stride, before, after, extent, kernel):
    """The (input index, kernel index) pairs of output `o` in the order the
    C model visits them (input index increasing), with is_first and the
    padding counts PoolingStage0SequenceCommon / LineOperation /
    PoolingStage0Calc compute: (i, k, is_first, n_before, n_after)."""
    steps = []
    for i in range(extent):
        k = before + i - o * stride
        if not 0 <= k < kernel:
            continue
        assert before + i + (kernel - k) <= before + extent + after
        is_first = i == 0 or k == 0
        add_before = i + 1 < kernel and (k + 1 == kernel or (i + 1 == extent and i < k))
        add_after = not add_before and i + kernel - k > extent and i + 1 == extent
        steps.append((i, k, is_first, kernel - (i + 1) if add_before else 0,
                      kernel - (k + 1) if add_after else 0))
    return steps


def pdp_fp16(x, method, kernel, stride=(1, 1), pad=(0, 0, 0, 0), pad_values=(0,) * 7,
             recip_kernel_width=None, recip_kernel_height=None, nan_to_zero=False):
    """fp16 pooling as the PDP computes it (offline: nan_to_zero flushes
    input NaNs to +0 first). x: uint16 [..., H, W] fp16 bits; kernel =
    (kh, kw) 1..8, stride (sh, sw), pad (top, bottom, left, right) each
    smaller than the kernel; pad_values: PAD_VALUE_1X..7X (fp17 bits: n
    padded positions of a row add the nth, n padded rows add it times the
    kernel width); reciprocals fp17 bits (default: the firmware's).

    The width pass runs per output column over the input columns of its
    window in increasing order (pdp_w_step), the height pass per output
    row over the window's rows in increasing order (pdp_h_step), then
    pdp_stage1. Max / min ignore padded positions; the average divides by
    the whole kernel, by two fp17 multiplications, and rounds in fp17
    after every addition."""
    x = _u(x)
    kh, kw = kernel
    sh, sw = stride
    pt, pb, pl, pr = pad
    if method not in (POOL_AVERAGE, POOL_MAX, POOL_MIN):
        raise ValueError("method %r" % (method,))
    if max(pt, pb) >= kh or max(pl, pr) >= kw:
        raise ValueError("padding must be smaller than the kernel")
    if nan_to_zero:
        x = np.where(_fp16_nan(x), 0, x)
    rw = PDP_RECIP_FP17[kw - 1] if recip_kernel_width is None else recip_kernel_width
    rh = PDP_RECIP_FP17[kh - 1] if recip_kernel_height is None else recip_kernel_height
    pv = (0,) + tuple(int(v) & 0x1FFFF for v in pad_values)
    H, W = x.shape[-2:]
    OH = (H + pt + pb - kh) // sh + 1
    OW = (W + pl + pr - kw) // sw + 1
    rows = np.zeros(x.shape[:-1] + (OW,), np.int64)
    for ox in range(OW):
        line = np.zeros(x.shape[:-1], np.int64)
        for i, _, first, nl, nr in _pdp_steps(ox, sw, pl, pr, W, kw):
            line = pdp_w_step(first, pv[nl], pv[nr], method, line, x[..., i])
        rows[..., ox] = line
    out = np.zeros(x.shape[:-2] + (OH, OW), np.int64)
    for oy in range(OH):
        line = np.zeros(x.shape[:-2] + (OW,), np.int64)
        for i, _, first, nt, nb in _pdp_steps(oy, sh, pt, pb, H, kh):
            line = pdp_h_step(first, pv[nt], pv[nb], kw, method, line, rows[..., i, :])
        out[..., oy, :] = line
    return pdp_stage1(method, rw, rh, out)


# ---------------------------------------------------------------------------
# CDP (local response normalization) in fp16 (cmod/cdp/NV_NVDLA_cdp.cpp,
# hls_wrapper/cdp_hls_wrapper.cpp HLS_CDP_lookup_fp16 / HLS_CDP_lookup_lut)
# ---------------------------------------------------------------------------

CDP_WINDOW_SIZES = (3, 5, 7, 9)  # NORMALZ_LEN 0..3


def _f32_bits_to_float(b):
    return (_u(b) & M32).astype(np.uint32).view(np.float32)


def cdp_lookup_fp16(s, depth, exp_mode, table, start, end, uflow_scale, oflow_scale,
                    index_offset, index_select):
    """HLS_CDP_lookup_lut on square sums s (fp32 bits): one table (LE: depth
    64, LO: 256; exp_mode only for LE) in float mode. Returns (fp17 result,
    underflow, overflow); hit is neither.

    d = FpSub<8,23>(s, start); d <= 0 or NaN underflows. Exponent mode:
    index = exponent(d) - offset (under if negative, over if >= 64), the
    fraction the top 16 bits of d's mantissa. Linear: d / 2^select in C
    float (double division rounded to float), over if >= depth, the index
    its integer part (truncated), the fraction floor(frac * 2^16).
    Hit: fp17(T[i]) + fp17(fp32(T[i+1]) - fp32(T[i])) * fp17(f / 2^16)
    (FpFractionToFloat<16,6,10>); under: fp17(T[0]) + fp17(s - start') *
    fp17(uflow scale), start' = start + 2^offset (fp32 adds; exponent mode
    only); over: fp17(T[depth]) + fp17(s - end) * fp17(oflow scale). All
    products and sums FpMul / FpAdd<6,10>, each rounded."""
    from lut_float_ref import _fraction_to_fp17  # lut_float_ref imports this module

    s = _u(s) & M32
    table = _u(table) & 0xFFFF
    start, end = int(start) & M32, int(end) & M32
    d = fp_sub(s, start, 8, 23)
    df = _f32_bits_to_float(d)
    with np.errstate(invalid="ignore"):
        under = (df <= 0) | np.isnan(df)
    if exp_mode:
        idx = ((d >> 23) & 0xFF) - 127 - int(index_offset)
        frac = (d >> 7) & 0xFFFF
        over = ~under & (idx >= depth)
        under = under | (idx < 0)
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            shifted = (df.astype(np.float64) / 2.0 ** int(index_select)).astype(np.float32)
        over = ~under & (shifted >= depth)
        ok = ~under & ~over
        whole = np.where(ok, shifted, 0).astype(np.int64)
        fr = np.where(ok, shifted - whole.astype(np.float32), 0).astype(np.float32)
        frac = (fr * np.float32(0x10000)).astype(np.int64)
        idx = whole
    hit = ~under & ~over
    i0 = np.where(hit, idx, 0)
    t0, t1 = table[i0], table[np.minimum(i0 + 1, depth)]
    diff = fp32_to_fp17(fp_sub(fp16_to_fp32(t1), fp16_to_fp32(t0), 8, 23))
    r_hit = fp17_add(fp17_mul(diff, _fraction_to_fp17(frac, 16)), fp16_to_fp17(t0))
    # Underflow: the exponent table's start moved up by 2^offset (a float).
    edge_u = start
    if exp_mode:
        off = 0 if int(index_offset) <= -127 else np.float32(2.0 ** int(index_offset))
        edge_u = int(fp32_add(start, int(np.float32(off).view(np.uint32))))
    sub_u = d if not exp_mode else fp_sub(s, edge_u, 8, 23)
    r_u = fp17_add(fp17_mul(fp32_to_fp17(sub_u), fp16_to_fp17(int(uflow_scale) & 0xFFFF)),
                   fp16_to_fp17(table[0]))
    sub_o = fp_sub(s, end, 8, 23)
    r_o = fp17_add(fp17_mul(fp32_to_fp17(sub_o), fp16_to_fp17(int(oflow_scale) & 0xFFFF)),
                   fp16_to_fp17(table[depth]))
    return np.where(under, r_u, np.where(over, r_o, r_hit)), under, over


def cdp_square_sum_fp16(sq, size):
    """The square sum of HLS_CDP_lookup_fp16 for the centre of windows
    sq[..., 0:9] (fp32 squares, centre at 4): FpAdd<8,23> in the tree
    (sq[3] + sq[5]) + sq[4], then + (sq[2] + sq[6]), + (sq[1] + sq[7]),
    + (sq[0] + sq[8]) as far as the window reaches."""
    t = fp32_add(fp32_add(sq[..., 3], sq[..., 5]), sq[..., 4])
    for k in range(1, (size - 1) // 2):
        t = fp32_add(t, fp32_add(sq[..., 3 - k], sq[..., 5 + k]))
    return t


def cdp_window_fp16(win, size, lut):
    """HLS_CDP_lookup_fp16 (no bypass): win uint16 [..., 12] fp16 bits, the
    4 outputs' channels with 4 neighbours on each side; returns the 4 fp16
    outputs [..., 4]. lut: sdp_lut_float's register keywords (float bits)."""
    x17 = fp16_to_fp17(win)  # cdp_icvt in fp16: Fp16ToFp17 alone
    x32 = fp17_to_fp32(x17)
    sq = fp32_mul(x32, x32)
    out = []
    for i in range(4):
        s = cdp_square_sum_fp16(sq[..., i:i + 9], size)
        out.append(cdp_output_fp16(x17[..., i + 4], s, lut))
    return np.stack(out, -1)


def cdp_output_fp16(x17, s, lut):
    """One output from the centre x17 (fp17 bits) and its square sum s: the
    LE and LO lookups, the choice, FpMul<6,10>(x, result), Fp17ToFp16."""
    exp_mode = lut["lut_le_function"] == "exponent"
    le, le_u, le_o = cdp_lookup_fp16(
        s, 64, exp_mode, lut["lut_le_table"], lut["lut_le_start"], lut["lut_le_end"],
        lut["lut_le_slope_uflow_scale"], lut["lut_le_slope_oflow_scale"],
        _sext(_u(lut["lut_le_index_offset"]) & 0xFF, 8),
        _sext(_u(lut["lut_le_index_select"]) & 0xFF, 8))
    lo, lo_u, lo_o = cdp_lookup_fp16(
        s, 256, False, lut["lut_lo_table"], lut["lut_lo_start"], lut["lut_lo_end"],
        lut["lut_lo_slope_uflow_scale"], lut["lut_lo_slope_oflow_scale"], 0,
        _sext(_u(lut["lut_lo_index_select"]) & 0xFF, 8))
    le_hit, lo_hit = ~(le_u | le_o), ~(lo_u | lo_o)
    use_lo = np.where(le_u & lo_u, bool(lut["lut_uflow_priority"]),
                      np.where(le_o & lo_o, bool(lut["lut_oflow_priority"]),
                               np.where(le_hit ^ lo_hit, lo_hit,
                                        bool(lut["lut_hybrid_priority"]))))
    r = np.where(use_lo, lo, le)
    return fp17_to_fp16(fp17_mul(x17, r)).astype(np.uint16)


def cdp_fp16(x, size, lut, nan_to_zero=False, datin_offset=0):
    """fp16 LRN as the CDP computes it (NV_NVDLA_cdp.cpp with
    HLS_CDP_lookup_fp16): x uint16 [..., C, H, W] fp16 bits, size 3 / 5 /
    7 / 9 channels, lut the float-mode registers (sdp_lut_float's keywords).
    Channels outside 0..C-1 read DATIN_OFFSET's 16 bits (0: +0);
    nan_to_zero flushes NaN inputs to +0 first. Per output: the input in
    fp17, squares FpMul<8,23> of it in fp32 (exact), the square sum in
    cdp_square_sum_fp16's order, the LUT (cdp_lookup_fp16 on LE and LO,
    the priorities choosing), the product with the input in fp17, rounded
    to fp16 (Fp17ToFp16)."""
    if size not in CDP_WINDOW_SIZES:
        raise ValueError("the CDP's window is 3, 5, 7 or 9 channels, not %r" % (size,))
    x = _u(x)
    if nan_to_zero:
        x = np.where(_fp16_nan(x), 0, x)
    x = np.moveaxis(x, -3, -1)  # [..., H, W, C]
    C = x.shape[-1]
    pad = np.full(x.shape[:-1] + (C + 8,), int(datin_offset) & 0xFFFF, np.int64)
    pad[..., 4:4 + C] = x
    x17 = fp16_to_fp17(pad)
    x32 = fp17_to_fp32(x17)
    sq = fp32_mul(x32, x32)
    win = np.stack([sq[..., c:c + 9] for c in range(C)], -2)  # [..., C, 9]
    s = cdp_square_sum_fp16(win, size)
    out = cdp_output_fp16(x17[..., 4:4 + C], s, lut)
    return np.moveaxis(out, -1, -3)


# ---------------------------------------------------------------------------
# Image input to fp16 (cmod/hls/cdma_libs/cdma_cvt.cpp, cmod/cdma
# ImageConvDataResponseSequencerCommon, csc SendImageDataToMacSequencerConvCommon)
# ---------------------------------------------------------------------------

def int17_to_fp16(t):
    """FpIntToFloat<17,5,10> (Int17ToFp16): a 17-bit integer to fp16, the
    mantissa rounded to nearest even; a magnitude that reaches 2^16 (-65536,
    or 65520..65535 rounding up) saturates to +-65504 (SetToInf is the
    largest finite value); 0 is +0."""
    t = _u(t)
    s = (t < 0).astype(np.int64)
    a = np.abs(t)
    n = _bitlen(a)                  # 1..17 for a != 0
    sh = np.maximum(n - 11, 0)      # bits dropped below the 11-bit mantissa
    q = a >> sh
    rem = a & ((1 << sh) - 1)
    half = np.where(sh > 0, 1 << np.maximum(sh - 1, 0), 0)
    up = (sh > 0) & ((rem > half) | ((rem == half) & ((q & 1) == 1)))
    q = q + up
    n = n + (q >> 11)               # rounding carried into a new bit
    q = np.where(q >> 11 != 0, q >> 1, q)
    e = n - 1 + 15                  # the exponent of the leading bit
    small = n <= 11                 # exact: q holds the value
    mant = np.where(small, (a << np.maximum(11 - n, 0)) & 0x3FF, q & 0x3FF)
    out = (s << 15) | (e << 10) | mant
    out = np.where(e >= 31, (s << 15) | 0x7BFF, out)
    return np.where(a == 0, 0, out).astype(np.uint16)


def cdma_cvt_image_fp16(raw, *, signed, alu, scale, truncate):
    """CDMA's converter of an integer pixel component into an fp16 pipeline
    (cdma_cvt_hls / NV_NVDLA_CDMA_CVT_cell with out_precision FP16): the
    component's raw bits read as a 17-bit integer (unsigned, or sign-extended
    with PIXEL_SIGN_OVERRIDE; 8- or 16-bit components by `raw`'s values),
    minus `alu` (the component's MEAN_* register with MEAN_FORMAT on, else
    CVT_OFFSET), times CVT_SCALE, IntShiftRight by CVT_TRUNCATE to 17 bits
    (round half away from zero, saturate), then Int17ToFp16. `raw`: int
    array of the component bits (uint8 / uint16 values, or signed ones with
    `signed`); alu broadcasts against it. Returns fp16 bits (uint16)."""
    from int_arith import shr
    x = _u(raw)
    t17 = shr((x - _u(alu)) * int(scale), int(truncate), 17)
    return int17_to_fp16(t17)


def image_conv_fp16(x, w, stride=(1, 1), pad=(0, 0, 0, 0), post_extension=1):
    """An image convolution in fp16 as NVDLA computes it: x uint16 [P, H, W]
    the converted pixels (fp16 bits, P the pixel format's components), w
    uint16 [K, C, R, S] (C <= P; components beyond C meet zero weights).
    CDMA writes each line pre-extended (pixel x's P components at x * P,
    padding left / right 0) and CSC feeds CMAC, per output and kernel row,
    atoms of 64 consecutive elements of the line from x * stride_x * P on
    (super channels of the S * P extended kernel), each with its own
    largest exponent: unlike a direct convolution's atom (one kernel
    position's channels), one atom holds several kernel columns. With a
    post-extension of E (2 or 4) one atom holds E kernel rows (S * P
    <= 64 / E). Order per output: super channels outer, kernel-row groups
    inner (SendImageDataToMacSequencerConvCommon), each added by CACC. That
    is conv_fp16 on the pre-extended cube: channels (e, s, p), width OW,
    kernel 1 x ceil(R / E) rows at dilation E, except that the last group's
    rows beyond R are zeros, not the image's. Returns CACC's fp32 bits
    [K, OH, OW]."""
    x, w = np.asarray(x, np.uint16), np.asarray(w, np.uint16)
    P, H, W = x.shape
    K, C, R, S = w.shape
    pt, pb, pl, pr = pad
    sy, sx = stride
    E = post_extension
    OW = (W + pl + pr - S) // sx + 1
    xp = np.zeros((P, H, W + pl + pr), np.uint16)
    xp[:, :, pl:pl + W] = x
    # Pre-extension: element s * P + p of output column ox is xp[p, :, ox * sx + s].
    cols = np.arange(OW)[None, :] * sx + np.arange(S)[:, None]      # [S, OW]
    xe = np.moveaxis(xp[:, :, cols], 2, 0).reshape(S * P, H, OW)   # [(s, p), H, OW]
    wz = np.zeros((K, P, R, S), np.uint16)
    wz[:, :C] = w
    we = np.moveaxis(wz, 3, 1).reshape(K, S * P, R)                # [K, (s, p), R]
    if E == 1:
        return conv_fp16(xe, we[..., None], (sy, 1), (pt, pb, 0, 0))
    # Post-extension: rows e of a group side by side; rows beyond R weigh 0
    # and, in the last group, are zeros (NV_NVDLA_csc.cpp memsets
    # read_data_ptr_tmp1..3 there: a NaN pixel in such a row takes no
    # part). Line oy * G + g holds output row oy's group g.
    G = -(-R // E)
    OH = (H + pt + pb - R) // sy + 1
    xpad = np.zeros((S * P, H + pt + pb + E * G, OW), np.uint16)
    xpad[:, pt:pt + H] = xe
    xg = np.zeros((E, S * P, OH, G, OW), np.uint16)
    for g in range(G):
        for e in range(min(E, R - g * E)):
            xg[e, :, :, g] = xpad[:, np.arange(OH) * sy + g * E + e]
    xg = xg.reshape(E * S * P, OH * G, OW)                          # [(e, s, p), (oy, g), OW]
    wr = np.zeros((K, S * P, G * E), np.uint16)
    wr[:, :, :R] = we
    wg = np.moveaxis(wr.reshape(K, S * P, G, E), 3, 1).reshape(K, E * S * P, G)
    return conv_fp16(xg, wg[..., None], (G, 1))
