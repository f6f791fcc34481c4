//===- NvdlaConvFp16.cpp - NVDLA's fp16 direct convolution ----------------===//
//
// Each function is utils/dla-ref/fp_nvdla.py's of the same name, scalar
// (file:line of the C model there: cmac/NV_NVDLA_cmac.h calculation_fp16 and
// cal_fp16_booth, hls/csc_libs/csc_cvt.cpp NV_NVDLA_CSC_pra_cell,
// cacc/NV_NVDLA_cacc.cpp cacc_fp16_add and
// cacc_fp48_to_fp32, hls/sdp/sdp_x.cpp). Bit manipulation is on uint64_t;
// signed values are int64_t read back through sext().
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaConvFp16.h"
#include "dla/Format/NvdlaFloat.h"

#include <algorithm>
#include <cstring>
#include <vector>

// boothProduct takes and returns 8-lane vectors; it is always inlined, so
// the ABI GCC warns about (vector arguments without AVX) never applies.
#pragma GCC diagnostic ignored "-Wpsabi"
#include "NvdlaBoothFp16.h"
#include "NvdlaCaccLanes.h"


namespace dlaformat::nvdla {
namespace {

using u64 = uint64_t;
using i64 = int64_t;

constexpr u64 kM32 = 0xffffffffu;
constexpr u64 kM40 = (u64(1) << 40) - 1;

i64 sext(i64 x, int bits) {
  const u64 v = u64(x) & ((u64(1) << bits) - 1);
  return v >= (u64(1) << (bits - 1)) ? i64(v) - (i64(1) << bits) : i64(v);
}

u64 bit(i64 x, int i) { return (u64(x) >> i) & 1; }

/// The highest i in [0, start] whose bit of x differs from bit `top`, else -1.
int topRun(i64 x, int top, int start) {
  const u64 differs = (u64(x) ^ (bit(x, top) ? ~u64(0) : 0)) & ((u64(2) << start) - 1);
  return differs ? 63 - __builtin_clzll(differs) : -1;
}

/// Arithmetic shift right of a signed value (floor, as Python's >>).
i64 ashr(i64 v, i64 n) { return n >= 63 ? (v < 0 ? -1 : 0) : v >> n; }

} // namespace

/// cal_fp16_booth: radix-4 Booth partial products of wt * dat reduced by
/// carry-save adders to two vectors, each shifted right by `shift`
/// (truncated separately), plus the sign compensation; an int32 value.
int64_t detail::boothFp16(uint64_t sign, uint64_t wt, uint64_t dat, int64_t shift) {
  if (shift >= 32)
    return 0;
  const u64 codeRev = sign ? 7 : 0;
  u64 w = wt << 1;
  // Each Booth digit's partial product (codes 0 and 7: +0; 1, 2: +dat;
  // 3: +2 dat; 4: -2 dat; 5, 6: -dat, inverted with a carry-in bit),
  // selected without branches on random bits.
  u64 pp[8], inv[8];
  for (int i = 0; i < 8; ++i) {
    const u64 code = (w & 7) ^ codeRev;
    w >>= 2;
    const bool negative = code >= 4 && code <= 6, zero = code == 0 || code == 7;
    const u64 base = (code == 3 || code == 4) ? dat << 1 : dat;
    const u64 p = negative ? ~base & 0xffff : base | 0x10000;
    pp[i] = zero ? 0x10000 : p;
    inv[i] = negative;
  }
  u64 c[10] = {pp[0],
               (pp[1] << 2) | inv[0],
               (pp[2] << 4) | (inv[1] << 2),
               (pp[3] << 6) | (inv[2] << 4),
               inv[3] << 6,
               pp[4] << 8,
               (pp[5] << 10) | (inv[4] << 8),
               (pp[6] << 12) | (inv[5] << 10),
               (pp[7] << 14) | (inv[6] << 12),
               inv[7] << 14};
  for (u64 &v : c)
    v &= kM32;
  // The C model's carry-save reduction, unrolled: its loops compress
  // c[0..4] three at a time into two vectors, then c[5..9], then the four
  // results the same way (NV_NVDLA_cmac.h cal_fp16_booth).
  auto csa = [](u64 &x, u64 &y, u64 z) {
    const u64 s = x ^ y ^ z, cy = ((x & y) | (y & z) | (x & z)) << 1;
    x = s & kM32;
    y = cy & kM32;
  };
  csa(c[0], c[1], c[2]);
  csa(c[0], c[1], c[3]);
  csa(c[0], c[1], c[4]);
  csa(c[5], c[6], c[7]);
  csa(c[5], c[6], c[8]);
  csa(c[5], c[6], c[9]);
  csa(c[0], c[1], c[5]);
  csa(c[0], c[1], c[6]);
  static constexpr u64 kSignComp[8] = {0xAAAB0000, 0xFAAAB000, 0xFFAAAB00, 0xFFFAAAB0,
                                       0xFFFFAAAB, 0xFFFFFAAB, 0xFFFFFFAB, 0xFFFFFFFB};
  const int sh = int(std::min<i64>(shift, 31));
  const u64 comp = shift % 4 == 0 && shift <= 28 ? kSignComp[shift / 4] : 0;
  const u64 total = ((c[0] >> sh) + (c[1] >> sh) + comp) & kM32;
  return total >= 0x80000000u ? i64(total) - (i64(1) << 32) : i64(total);
}

int64_t detail::boothFp16Decoded(uint64_t sign, uint64_t wt, uint64_t dat, int64_t shift) {
  return boothProduct<uint32_t, int32_t>(decodeBoothWeight(uint32_t(wt)), uint32_t(dat),
                                         sign ? ~0u : 0u, uint32_t(shift));
}

void detail::caccAddLanes4(CaccAccumulator *acc, const CmacWord *word) {
  cacc_lanes::V4 ae, am, me, mm, take;
  for (int l = 0; l < 4; ++l) {
    ae[l] = acc[l].exponent, am[l] = acc[l].mantissa;
    me[l] = word[l].exponent, mm[l] = word[l].mantissa;
    take[l] = word[l].mantissa != 0 ? -1 : 0;
  }
  cacc_lanes::add(ae, am, me, mm, take);
  for (int l = 0; l < 4; ++l)
    acc[l] = {ae[l], am[l]};
}

namespace {
/// boothFp16, with the products nothing truncates computed directly: at
/// shift 0 the Booth digits and carry-save sums are the exact product
/// (checked by NvdlaConvFp16Test for every weight operand against every
/// 29th data operand), at 32 or more
/// nothing is left.
i64 booth(u64 sign, u64 wt, u64 dat, i64 shift) {
  if (shift == 0)
    return sign ? -i64(wt * dat) : i64(wt * dat);
  if (shift >= 32)
    return 0;
  return detail::boothFp16(sign, wt, dat, shift);
}
} // namespace

namespace {
/// cal_fp16_exp / cal_fp16_mul / cal_fp16_nan over n <= 64 value pairs:
/// each channel's product aligned to the largest exponent group, that
/// group (max_exp), or a NaN word (the first NaN weight, else data).
bool cellProducts(const uint16_t *data, const uint16_t *weight, int n, i64 *prod, i64 &mx,
                  CmacWord &nan) {
  i64 groups[kFp16MacAtomChannels];
  bool active[kFp16MacAtomChannels];
  mx = 0;
  for (int i = 0; i < n; ++i) {
    const u64 d = data[i], w = weight[i];
    active[i] = (d & 0x7fff) != 0 && (w & 0x7fff) != 0;
    groups[i] = active[i] ? i64(((d >> 10) & 31) >> 2) + i64(((w >> 10) & 31) >> 2) : 0;
    mx = std::max(mx, groups[i]);
  }
  for (int i = 0; i < n; ++i) {
    prod[i] = 0;
    if (!active[i])
      continue;
    const u64 d = data[i], w = weight[i];
    const u64 de = (d >> 10) & 31, we = (w >> 10) & 31;
    const u64 dsh = de == 0 ? 1 : de & 3, wsh = we == 0 ? 1 : we & 3;
    const u64 dm = ((d & 0x3ff) | (de ? u64(1) << 10 : 0)) << dsh;
    const u64 wm = ((w & 0x3ff) | (we ? u64(1) << 10 : 0)) << wsh;
    prod[i] = booth(((d >> 15) ^ (w >> 15)) & 1, wm, dm, (mx - groups[i]) << 2);
  }
  auto firstNan = [n](const uint16_t *v) -> int {
    for (int i = 0; i < n; ++i)
      if (((v[i] >> 10) & 31) == 31 && (v[i] & 0x3ff) != 0)
        return i;
    return -1;
  };
  int at = firstNan(weight);
  const uint16_t *source = weight;
  if (at < 0) {
    at = firstNan(data);
    source = data;
  }
  if (at < 0)
    return false;
  const u64 nv = source[at];
  nan = {63, sext(i64((((nv >> 15) & 1) << 37) | ((nv & 0x3ff) << 27)), 38)};
  return true;
}
} // namespace

CmacWord cmacFp16(const uint16_t *data, const uint16_t *weight, int n) {
  i64 prod[kFp16MacAtomChannels], mx;
  CmacWord nan;
  if (cellProducts(data, weight, n, prod, mx, nan))
    return nan;
  i64 mant = 0;
  for (int i = 0; i < n; ++i)
    mant += prod[i];
  return {(mx << 2) & 63, mant};
}

void cmacWinoFp16(const uint16_t *data, const uint16_t *weight, CmacWord out[4]) {
  i64 prod[kFp16MacAtomChannels], mx;
  CmacWord nan;
  if (cellProducts(data, weight, kFp16MacAtomChannels, prod, mx, nan)) {
    std::fill(out, out + 4, nan);
    return;
  }
  // pp_phase1..3, 38-bit registers (nothing reaches their width: products
  // below 2^28, 4 * 3 * 3 of them at most).
  i64 p1[16], p2[8];
  for (int i = 0; i < 16; ++i)
    p1[i] = sext(prod[4 * i] + prod[4 * i + 1] + prod[4 * i + 2] + prod[4 * i + 3], 38);
  for (int i = 0; i < 4; ++i) {
    p2[i] = sext(p1[i] + p1[i + 4] + p1[i + 8], 38);
    p2[i + 4] = sext(p1[i + 4] - p1[i + 8] - p1[i + 12], 38);
  }
  const i64 e = (mx << 2) & 63;
  for (int i = 0; i < 2; ++i) {
    out[2 * i] = {e, sext(p2[4 * i] + p2[4 * i + 1] + p2[4 * i + 2], 38)};
    out[2 * i + 1] = {e, sext(p2[4 * i + 1] - p2[4 * i + 2] - p2[4 * i + 3], 38)};
  }
}

void cscPraFp16(const uint16_t in[16], uint16_t out[16]) {
  uint32_t r[16], m[16];
  for (int i = 0; i < 16; ++i)
    r[i] = fp16ToFp17(in[i]);
  for (int i = 0; i < 4; ++i) {
    m[i] = fpSub(r[i], r[i + 8], kFp17);
    m[i + 4] = fpAdd(r[i + 4], r[i + 8], kFp17);
    m[i + 8] = fpSub(r[i + 8], r[i + 4], kFp17);
    m[i + 12] = fpSub(r[i + 4], r[i + 12], kFp17);
  }
  for (int i = 0; i < 4; ++i) {
    out[4 * i] = fp17ToFp16(fpSub(m[4 * i], m[4 * i + 2], kFp17));
    out[4 * i + 1] = fp17ToFp16(fpAdd(m[4 * i + 1], m[4 * i + 2], kFp17));
    out[4 * i + 2] = fp17ToFp16(fpSub(m[4 * i + 2], m[4 * i + 1], kFp17));
    out[4 * i + 3] = fp17ToFp16(fpSub(m[4 * i + 1], m[4 * i + 3], kFp17));
  }
}

void convWinoFp16(View4<const uint16_t> x, int64_t image, View4<const uint16_t> taps,
                  const WinoFp16Shape &shape, uint16_t padValue, View4<uint32_t> out) {
  const int64_t C = shape.channels, H = shape.height, W = shape.width, K = shape.kernels,
                CX = shape.tapChannels;
  const int64_t OH = shape.outHeight(), OW = shape.outWidth();
  const int64_t TH = (OH + 1) / 2, TW = (OW + 1) / 2;
  const int64_t groups = (std::max(C, CX) + 3) / 4;
  // The transformed input of every tile: [group][ty][tx][64], value
  // 4 * p + c as the MAC cell takes it.
  std::vector<uint16_t> v(size_t(groups * TH * TW * 64));
  auto input = [&](int64_t c, int64_t y, int64_t xx) -> uint16_t {
    if (c >= C)
      return 0;
    y -= shape.padTop, xx -= shape.padLeft;
    if (y < 0 || y >= H || xx < 0 || xx >= W)
      return padValue;
    return x.at(image, c, y, xx);
  };
  for (int64_t g = 0; g < groups; ++g)
    for (int64_t ty = 0; ty < TH; ++ty)
      for (int64_t tx = 0; tx < TW; ++tx) {
        uint16_t *cell = &v[size_t(((g * TH + ty) * TW + tx) * 64)];
        for (int c = 0; c < 4; ++c) {
          uint16_t tile[16], t[16];
          for (int p = 0; p < 16; ++p)
            tile[p] = input(4 * g + c, 2 * ty + p / 4, 2 * tx + p % 4);
          cscPraFp16(tile, t);
          for (int p = 0; p < 16; ++p)
            cell[4 * p + c] = t[p];
        }
      }
  std::vector<uint16_t> wt(size_t(groups * 64));
  for (int64_t k = 0; k < K; ++k) {
    for (int64_t g = 0; g < groups; ++g)
      for (int p = 0; p < 16; ++p)
        for (int c = 0; c < 4; ++c) {
          const int64_t ch = 4 * g + c;
          wt[size_t(g * 64 + 4 * p + c)] = ch < CX ? taps.at(k, ch, p / 4, p % 4) : 0;
        }
    for (int64_t ty = 0; ty < TH; ++ty)
      for (int64_t tx = 0; tx < TW; ++tx) {
        CaccAccumulator acc[4];
        for (int64_t g = 0; g < groups; ++g) {
          CmacWord words[4];
          cmacWinoFp16(&v[size_t(((g * TH + ty) * TW + tx) * 64)], &wt[size_t(g * 64)], words);
          for (int i = 0; i < 4; ++i)
            acc[i] = caccAdd(acc[i], words[i]);
        }
        for (int i = 0; i < 4; ++i) {
          const int64_t oy = 2 * ty + i / 2, ox = 2 * tx + i % 2;
          if (oy < OH && ox < OW)
            out.at(0, k, oy, ox) = caccToFp32(acc[i]);
        }
      }
  }
}

namespace {
/// caccAdd, inlined where convFp16 calls it per atom and kernel position.
__attribute__((always_inline)) inline CaccAccumulator caccAddInline(CaccAccumulator acc,
                                                                   CmacWord word) {
  const i64 ae = acc.exponent, am = sext(acc.mantissa, 40);
  const i64 me = word.exponent, mm = sext(word.mantissa, 38);
  // A zero CMAC word leaves the accumulator.
  if (mm == 0)
    return {ae, am};
  if (ae == 255)
    return {255, sext(i64(u64(am) & (u64(0x7ff) << 29)), 40)};
  if (me == 63)
    return {255, sext(i64(((u64(mm) >> 27) & 0x7ff) << 29), 40)};
  // Normalize the CMAC word left (38 bits).
  const int i = bit(mm, 37) == bit(mm, 36) ? topRun(mm, 37, 36) : 36;
  const int n0 = 36 - i;
  const i64 mreg = sext(i64(u64(mm) << n0), 38);
  i64 mext = mreg * 4; // 40 bits, two zero bits below
  const i64 mexp = i64(u64(me - n0 + 49) & 255);
  const i64 ae2 = am == 0 ? 0 : ae;
  i64 aext = am;
  const i64 diff = mexp - ae2;
  auto shiftOut = [](i64 v, i64 d) -> u64 {
    if (d < 1 || d > 40)
      return 0;
    const u64 low = u64(v) & ((u64(1) << d) - 1);
    return (low << (40 - d)) & kM40;
  };
  auto shr = [](i64 v, i64 d) -> i64 { return d <= 40 ? ashr(v, d) : 0; };
  u64 outBits = 0;
  if (diff > 0) {
    outBits = shiftOut(aext, diff);
    aext = shr(aext, diff);
  } else if (diff < 0) {
    outBits = shiftOut(mext, -diff);
    mext = shr(mext, -diff);
  }
  const i64 bigger = std::max(mexp, ae2);
  const i64 tmp = sext(aext + mext, 40);
  const bool ovf = bit(mext, 39) == bit(aext, 39) && bit(mext, 39) != bit(tmp, 39);
  const u64 high1 = bit(tmp, 0);
  const bool left = !ovf && bit(tmp, 38) == bit(tmp, 39);
  i64 s = tmp, rexp = bigger;
  if (ovf) {
    // Overflow: shift right one, the sign kept.
    s = sext(i64((bit(mext, 39) << 39) | ((u64(tmp) & kM40) >> 1)), 40);
    rexp = bigger + 1;
  } else if (left) {
    // Left normalization, the shifted-out bits shifted back in.
    const int n1 = 38 - topRun(tmp, 39, 38);
    const int n1c = std::clamp(n1, 0, 40);
    s = sext(i64(((u64(tmp) << n1c) & kM40) | (outBits >> std::clamp(40 - n1c, 0, 40))), 40);
    outBits = (outBits << n1c) & kM40;
    rexp = bigger - n1;
  }
  const u64 guard0 = (outBits >> 39) & 1;
  const bool sticky0 = (outBits & ((u64(1) << 39) - 1)) != 0, sticky1 = outBits != 0;
  const bool neg = bit(s, 39) == 1;
  const bool rnd = ovf ? (neg ? high1 == 1 && sticky1 : high1 == 1)
                       : (neg ? guard0 == 1 && sticky0 : guard0 == 1);
  const i64 r = sext(s + (rnd ? 1 : 0), 40);
  i64 fin = r;
  if (bit(r, 39) != bit(s, 39)) {
    fin = sext(i64((bit(s, 39) << 39) | ((u64(r) & kM40) >> 1)), 40);
    ++rexp;
  }
  rexp = i64(u64(rexp) & 255);
  if (fin == 0)
    rexp = 0;
  return {rexp, fin};
}
} // namespace

CaccAccumulator caccAdd(CaccAccumulator acc, CmacWord word) { return caccAddInline(acc, word); }

uint32_t caccToFp32(CaccAccumulator acc) {
  const u64 e = u64(acc.exponent), mu = u64(sext(acc.mantissa, 40)) & kM40;
  const u64 neg = (mu >> 39) & 1;
  const u64 m39 = (u64(1) << 39) - 1;
  if (e == 255)
    return uint32_t((neg << 31) | (u64(255) << 23) | ((mu >> 29) & 0x3ff));
  if (neg && (mu & m39) == 0)
    return uint32_t((u64(1) << 31) | (((e + 65) & 255) << 23));
  const u64 mag = neg ? (~mu + 1) & m39 : mu & m39;
  const u64 mo = (neg << 39) | mag;
  const u64 et = mu == 0 ? 0 : (e + 64) & 255;
  u64 frac = (mo >> 15) & 0x7fffff, ex = et;
  if ((mo >> 14) & 1) {
    const u64 t1 = (((mo >> 15) & ((u64(1) << 25) - 1)) + 1) & ((u64(1) << 25) - 1);
    const bool ov = ((t1 >> 24) & 1) != neg;
    frac = ov ? ((neg << 24) | (t1 >> 1)) & 0x7fffff : t1 & 0x7fffff;
    ex = ov ? (et + 1) & 255 : et;
  }
  return uint32_t((neg << 31) | (ex << 23) | frac);
}

namespace {

/// The NaN word CMAC gives for a NaN operand.
CmacWord nanWord(uint16_t nv) {
  return {63, sext(i64((u64((nv >> 15) & 1) << 37) | (u64(nv & 0x3ff) << 27)), 38)};
}
} // namespace

namespace {
/// Output columns computed together: CMAC's products of one kernel row
/// position and channel atom for 8 adjacent outputs are independent, so
/// the lane loops below vectorize (AVX2 where the CPU has it).
constexpr int kLanes = 8;

/// One non-zero weight of a (kernel, atom, position): its channel, exponent
/// group, sign (as an XOR mask) and decoded Booth rows.
struct Tap {
  int32_t channel, group;
  uint32_t flip;
  BoothWeight booth;
};

/// The image decoded once per channel and padded position: CMAC's data
/// operand (the mantissa shifted by the exponent's low bits), its exponent
/// group (kInactive for zeros and padding: such a channel takes no part)
/// and its sign as an XOR mask.
constexpr int32_t kInactive = -64;
struct DecodedImage {
  int64_t height, width; // padded
  std::vector<uint32_t> mant, flip;
  std::vector<int32_t> group;
  size_t at(int64_t c, int64_t y, int64_t x) const {
    return size_t((c * height + y) * width + x);
  }
};

/// kLanes values of uint32 / int32 as GCC vectors (AVX2 registers where
/// the functions below are compiled for it, SSE2 pairs otherwise).
typedef uint32_t LanesU __attribute__((vector_size(4 * kLanes)));
typedef int32_t LanesI __attribute__((vector_size(4 * kLanes)));

// (Returned through a reference: a vector return value's ABI would depend
// on the target, which GCC warns about.)
template <int Step, typename T, typename V>
__attribute__((always_inline)) inline void loadLanes(V &v, const T *p, int64_t step) {
  if (Step == 1) {
    std::memcpy(&v, p, sizeof v);
  } else {
    for (int l = 0; l < kLanes; ++l)
      v[l] = p[l * step];
  }
}

/// The words CMAC gives for one (kernel, atom, position) at kLanes outputs
/// whose data start at `at` (padded image), `step` apart: exponents and
/// mantissas (cmacFp16's, the products through boothProduct).
template <int Step>
__attribute__((always_inline)) inline void cmacLanes(const DecodedImage &im, const Tap *taps,
                                                     size_t count, size_t at, int64_t step,
                                                     int32_t *mxOut, int64_t *mant) {
  LanesI mx = LanesI{} + 2 * kInactive;
  for (size_t i = 0; i < count; ++i) {
    LanesI group;
    loadLanes<Step>(group, im.group.data() + im.at(taps[i].channel, 0, 0) + at, step);
    group += taps[i].group;
    mx = group > mx ? group : mx;
  }
  for (int l = 0; l < kLanes; ++l)
    mant[l] = 0;
  // Products are below 2^28 in magnitude: int32 sums of 7 of them cannot
  // overflow.
  for (size_t i0 = 0; i0 < count; i0 += 7) {
    LanesI part = {};
    for (size_t i = i0; i < std::min(count, i0 + 7); ++i) {
      const Tap &t = taps[i];
      const size_t base = im.at(t.channel, 0, 0) + at;
      LanesI group;
      LanesU d, f;
      loadLanes<Step>(group, im.group.data() + base, step);
      loadLanes<Step>(d, im.mant.data() + base, step);
      loadLanes<Step>(f, im.flip.data() + base, step);
      group += t.group;
      f ^= t.flip;
      const LanesU shift = LanesU((mx - group) << 2);
      const LanesI takesPart = (group >= 0) & (shift < 32u);
      // At shifts 0 and 4 the truncated carry-save vectors lose no carry
      // (checked over every operand pair, NvdlaConvFp16Test
      // BoothShortcuts): where no lane is shifted further, the product
      // floored, without the tree (a depthwise layer's atoms, one product
      // each, are all at shift 0).
      const LanesI deep = takesPart & (shift > 4u);
      int32_t anyDeep = 0;
      for (int l = 0; l < kLanes; ++l)
        anyDeep |= deep[l];
      if (!anyDeep) {
        const LanesI p = LanesI(((d * t.booth.wt) ^ f) - f) >> LanesI(shift & 4u);
        part += p & takesPart;
        continue;
      }
      const LanesU clamped = takesPart ? shift : LanesU{} + 31u;
      part += boothProduct<LanesU, LanesI>(t.booth, d, f, clamped) & takesPart;
    }
    for (int l = 0; l < kLanes; ++l)
      mant[l] += part[l];
  }
  for (int l = 0; l < kLanes; ++l)
    mxOut[l] = mx[l];
}

/// CACC's add of each lane's CMAC word (exponent mx << 2, mantissa) to its
/// accumulator where `take` is all ones (cacc_lanes::add, two halves).
__attribute__((always_inline)) inline void caccLanes(int64_t *ae, int64_t *am, const int32_t *mx,
                                                     const int64_t *mant, const int64_t *take) {
  using cacc_lanes::V4;
  for (int h = 0; h < kLanes; h += 4) {
    V4 e, m, me, mm, t;
    std::memcpy(&e, ae + h, sizeof e);
    std::memcpy(&m, am + h, sizeof m);
    std::memcpy(&mm, mant + h, sizeof mm);
    std::memcpy(&t, take + h, sizeof t);
    for (int l = 0; l < 4; ++l)
      me[l] = int64_t((uint64_t(mx[h + l]) << 2) & 63); // mx may be negative
    cacc_lanes::add(e, m, me, mm, t);
    std::memcpy(ae + h, &e, sizeof e);
    std::memcpy(am + h, &m, sizeof m);
  }
}

using CaccLanesFn = void (*)(int64_t *, int64_t *, const int32_t *, const int64_t *,
                             const int64_t *);
void caccLanesGeneric(int64_t *ae, int64_t *am, const int32_t *mx, const int64_t *mant,
                      const int64_t *take) {
  caccLanes(ae, am, mx, mant, take);
}

using CmacLanesFn = void (*)(const DecodedImage &, const Tap *, size_t, size_t, int64_t,
                             int32_t *, int64_t *);

void cmacLanesUnit(const DecodedImage &im, const Tap *taps, size_t count, size_t at,
                   int64_t step, int32_t *mx, int64_t *mant) {
  cmacLanes<1>(im, taps, count, at, step, mx, mant);
}
void cmacLanesStrided(const DecodedImage &im, const Tap *taps, size_t count, size_t at,
                      int64_t step, int32_t *mx, int64_t *mant) {
  cmacLanes<0>(im, taps, count, at, step, mx, mant);
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx2"))) void cmacLanesUnitAvx2(const DecodedImage &im, const Tap *taps,
                                                       size_t count, size_t at, int64_t step,
                                                       int32_t *mx, int64_t *mant) {
  cmacLanes<1>(im, taps, count, at, step, mx, mant);
}
__attribute__((target("avx2"))) void
cmacLanesStridedAvx2(const DecodedImage &im, const Tap *taps, size_t count, size_t at,
                     int64_t step, int32_t *mx, int64_t *mant) {
  cmacLanes<0>(im, taps, count, at, step, mx, mant);
}
__attribute__((target("avx2"))) void caccLanesAvx2(int64_t *ae, int64_t *am, const int32_t *mx,
                                                   const int64_t *mant, const int64_t *take) {
  caccLanes(ae, am, mx, mant, take);
}
const bool kHasAvx2 = __builtin_cpu_supports("avx2");
#else
const bool kHasAvx2 = false;
#endif
} // namespace

void convFp16(View4<const uint16_t> x, int64_t image, View4<const uint16_t> w,
              const ConvFp16Shape &sh, View4<uint32_t> out) {
  // The words of cmacFp16 on each atom, computed faster: only channels
  // whose weight is non-zero can take part (a zero of either sign masks its
  // channel off), so each kernel position's atom is the list of those
  // channels, their weights decoded once; NaN, which any channel of the
  // atom decides (the first NaN weight, else the first NaN data value), is
  // looked up beforehand; an atom without a product leaves the accumulator
  // as it is.
  const int64_t oh = sh.outHeight(), ow = sh.outWidth();
  const int64_t atoms = (sh.channels + kFp16MacAtomChannels - 1) / kFp16MacAtomChannels;
  const int64_t positions = sh.kernelH * sh.kernelW;
  // Per (kernel, atom, position): its taps (tapBegin[at] .. tapBegin[at +
  // 1] of one array) and its first NaN weight (-1).
  const size_t groups = size_t(sh.kernels * atoms * positions);
  std::vector<Tap> taps;
  std::vector<size_t> tapBegin(groups + 1, 0);
  std::vector<int32_t> nanWeight(groups, -1);
  for (int64_t k = 0; k < sh.kernels; ++k)
    for (int64_t a = 0; a < atoms; ++a)
      for (int64_t p = 0; p < positions; ++p) {
        const size_t at = size_t((k * atoms + a) * positions + p);
        const int64_t c0 = a * kFp16MacAtomChannels;
        const int64_t n = std::min<int64_t>(kFp16MacAtomChannels, sh.channels - c0);
        for (int64_t i = 0; i < n; ++i) {
          const uint16_t v = w.at(k, c0 + i, p / sh.kernelW, p % sh.kernelW);
          if (v & 0x7fff) {
            const uint32_t e = (v >> 10) & 31;
            const uint32_t m = ((v & 0x3ff) | (e ? 1u << 10 : 0)) << (e == 0 ? 1 : e & 3);
            taps.push_back({int32_t(c0 + i), int32_t(e >> 2), v & 0x8000 ? ~0u : 0,
                            decodeBoothWeight(m)});
          }
          if (nanWeight[at] < 0 && fpIsNan(v, kFp16))
            nanWeight[at] = v;
        }
        tapBegin[at + 1] = taps.size(); // `at` counts up in these loops
      }
  // The image, decoded, with the padding and enough columns on the right
  // for whole blocks of lanes.
  const int64_t blocks = (ow + kLanes - 1) / kLanes;
  DecodedImage im;
  im.height = sh.padTop + sh.height + sh.padBottom;
  im.width = std::max(sh.padLeft + sh.width,
                      (blocks * kLanes - 1) * sh.strideW + (sh.kernelW - 1) * sh.dilationW + 1);
  const size_t decodedSize = size_t(sh.channels * im.height * im.width);
  im.mant.assign(decodedSize, 0);
  im.flip.assign(decodedSize, 0);
  im.group.assign(decodedSize, kInactive);
  for (int64_t c = 0; c < sh.channels; ++c)
    for (int64_t y = 0; y < sh.height; ++y)
      for (int64_t xx = 0; xx < sh.width; ++xx) {
        const uint16_t v = x.at(image, c, y, xx);
        if (!(v & 0x7fff))
          continue;
        const uint32_t e = (v >> 10) & 31;
        const size_t at = im.at(c, y + sh.padTop, xx + sh.padLeft);
        im.mant[at] = ((v & 0x3ff) | (e ? 1u << 10 : 0)) << (e == 0 ? 1 : e & 3);
        im.flip[at] = v & 0x8000 ? ~0u : 0;
        im.group[at] = int32_t(e >> 2);
      }
  // Per (atom, row, column) of the image: its first NaN data value (-1);
  // per atom whether it has one.
  std::vector<int32_t> nanData(size_t(atoms * sh.height * sh.width), -1);
  std::vector<char> atomHasNan(size_t(atoms), 0);
  for (int64_t a = 0; a < atoms; ++a)
    for (int64_t y = 0; y < sh.height; ++y)
      for (int64_t xx = 0; xx < sh.width; ++xx)
        for (int64_t c = a * kFp16MacAtomChannels;
             c < std::min<int64_t>((a + 1) * kFp16MacAtomChannels, sh.channels); ++c)
          if (uint16_t v = x.at(image, c, y, xx); fpIsNan(v, kFp16)) {
            nanData[size_t((a * sh.height + y) * sh.width + xx)] = v;
            atomHasNan[size_t(a)] = 1;
            break;
          }
  const CmacLanesFn lanes =
      sh.strideW == 1 ? (kHasAvx2 ? cmacLanesUnitAvx2 : cmacLanesUnit)
                      : (kHasAvx2 ? cmacLanesStridedAvx2 : cmacLanesStrided);
  const CaccLanesFn cacc = kHasAvx2 ? caccLanesAvx2 : caccLanesGeneric;
  int32_t mx[kLanes];
  int64_t mant[kLanes], take[kLanes];
  // The block's accumulators (exponent, mantissa): added to lane by lane
  // (caccAddInline) where a NaN is involved, all lanes at once otherwise.
  int64_t accE[kLanes], accM[kLanes];
  auto addScalar = [&](int l, CmacWord word) {
    const CaccAccumulator r = caccAddInline({accE[l], accM[l]}, word);
    accE[l] = r.exponent;
    accM[l] = r.mantissa;
  };
  for (int64_t k = 0; k < sh.kernels; ++k)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t block = 0; block < blocks; ++block) {
        const int64_t ox0 = block * kLanes;
        const int n = int(std::min<int64_t>(kLanes, ow - ox0));
        std::fill(accE, accE + kLanes, 0);
        std::fill(accM, accM + kLanes, 0);
        bool nanInBlock = false;
        for (int64_t a = 0; a < atoms; ++a)
          for (int64_t p = 0; p < positions; ++p) {
            const size_t at = size_t((k * atoms + a) * positions + p);
            if (nanWeight[at] >= 0) {
              for (int l = 0; l < n; ++l)
                addScalar(l, nanWord(uint16_t(nanWeight[at])));
              nanInBlock = true;
              continue;
            }
            const int64_t ky = p / sh.kernelW, kx = p % sh.kernelW;
            const int64_t iy = oy * sh.strideH + ky * sh.dilationH - sh.padTop;
            if (iy < 0 || iy >= sh.height)
              continue; // zero padding: no channel takes part
            // Without taps only a NaN datum adds a word.
            std::fill(mant, mant + kLanes, 0);
            const size_t tapCount = tapBegin[at + 1] - tapBegin[at];
            if (!tapCount && !atomHasNan[size_t(a)])
              continue;
            if (tapCount)
              lanes(im, taps.data() + tapBegin[at], tapCount,
                    im.at(0, iy + sh.padTop, ox0 * sh.strideW + kx * sh.dilationW), sh.strideW,
                    mx, mant);
            const bool lanewise = nanInBlock || atomHasNan[size_t(a)];
            for (int l = 0; l < kLanes; ++l) {
              const int64_t ix = (ox0 + l) * sh.strideW + kx * sh.dilationW - sh.padLeft;
              take[l] = l < n && ix >= 0 && ix < sh.width && mant[l] != 0 ? -1 : 0;
              if (!lanewise || l >= n || ix < 0 || ix >= sh.width)
                continue;
              if (int32_t nv = nanData[size_t((a * sh.height + iy) * sh.width + ix)]; nv >= 0) {
                addScalar(l, nanWord(uint16_t(nv)));
                nanInBlock = true;
              } else if (mant[l] != 0) {
                addScalar(l, {int64_t((uint64_t(mx[l]) << 2) & 63), mant[l]});
              }
            }
            if (!lanewise)
              cacc(accE, accM, mx, mant, take);
          }
        for (int l = 0; l < n; ++l)
          out.at(0, k, oy, ox0 + l) = caccToFp32({accE[l], accM[l]});
      }
}

namespace {
uint16_t flushNan16(uint16_t op, bool nanToZero) {
  return nanToZero && ((op >> 10) & 31) == 31 && (op & 0x3ff) != 0 ? 0 : op;
}
} // namespace

uint32_t fp32Max(uint32_t a, uint32_t b) { return fpMax(a, b, kFp32); }

uint32_t fp32Min(uint32_t a, uint32_t b) { return fpMin(a, b, kFp32); }

uint32_t fp32Relu(uint32_t a) { return (a >> 31) == 0 || fpIsNan(a, kFp32) ? a : 0; }

uint32_t sdpXFp16(uint32_t x, const SdpXFp16 &stage, uint16_t aluOperand, uint16_t mulOperand) {
  uint32_t y = x;
  if (!stage.aluBypass) {
    const uint32_t op = nvdlaFp16ToFp32(flushNan16(aluOperand, stage.nanToZero));
    switch (stage.aluAlgo) {
    case SdpAluAlgo::Max:
      y = fp32Max(y, op);
      break;
    case SdpAluAlgo::Min:
      y = fp32Min(y, op);
      break;
    case SdpAluAlgo::Sum:
      y = fpAdd(y, op, kFp32);
      break;
    }
  }
  if (!stage.mulBypass) {
    const uint32_t op = nvdlaFp16ToFp32(flushNan16(mulOperand, stage.nanToZero));
    const uint32_t prod = fpMul(y, op, kFp32);
    y = stage.mulPrelu && (y >> 31) == 0 ? y : prod;
  }
  if (!stage.reluBypass)
    y = fp32Relu(y);
  return y;
}

void imageConvFp16(const uint16_t *x, const uint16_t *w, const ImageConvFp16Shape &shape,
                   uint32_t *out) {
  const int64_t P = shape.components, H = shape.height, W = shape.width;
  const int64_t K = shape.kernels, C = shape.channels, R = shape.kernelH, S = shape.kernelW;
  const int64_t OH = shape.outHeight(), OW = shape.outWidth(), SP = S * P;
  const int64_t E = shape.postExtension, G = (R + E - 1) / E;
  // The atom CSC hands CMAC for output row oy and kernel-row group g, as
  // line oy * G + g of a cube of channels (e, s, p): element (e, s, p) of
  // output column ox is line oy * strideH + g * E + e - padTop's pixel
  // ox * strideW + s - padLeft, component p; 0 in the padding. In the last
  // group CSC zeroes the rows beyond R (NV_NVDLA_csc.cpp: memset of
  // read_data_ptr_tmp1..3), so their pixels take no part: a NaN there
  // makes no NaN (fp16 pixels).
  const int64_t CE = E * SP, lines = OH * G;
  std::vector<uint16_t> xe(static_cast<size_t>(CE * lines * OW), 0);
  for (int64_t oy = 0; oy < OH; ++oy)
    for (int64_t g = 0; g < G; ++g)
      for (int64_t e = 0; e < E && g * E + e < R; ++e) {
        const int64_t line = oy * shape.strideH + g * E + e - shape.padTop;
        if (line < 0 || line >= H)
          continue;
        for (int64_t s = 0; s < S; ++s)
          for (int64_t p = 0; p < P; ++p)
            for (int64_t ox = 0; ox < OW; ++ox) {
              const int64_t col = ox * shape.strideW + s - shape.padLeft;
              if (col >= 0 && col < W)
                xe[(((e * S + s) * P + p) * lines + oy * G + g) * OW + ox] =
                    x[(p * H + line) * W + col];
            }
      }
  // Weight (e, s, c) of group g: kernel row g * E + e (0 beyond R).
  std::vector<uint16_t> we(static_cast<size_t>(K * CE * G), 0);
  for (int64_t k = 0; k < K; ++k)
    for (int64_t e = 0; e < E; ++e)
      for (int64_t s = 0; s < S; ++s)
        for (int64_t c = 0; c < C; ++c)
          for (int64_t g = 0; g < G; ++g)
            if (g * E + e < R)
              we[((k * CE + (e * S + s) * P + c) * G) + g] =
                  w[((k * C + c) * R + g * E + e) * S + s];
  // Output row oy reads lines oy * G .. oy * G + G - 1: kernel G x 1 at
  // stride G.
  ConvFp16Shape direct{CE, lines, OW, K, G, 1};
  direct.strideH = G;
  convFp16({xe.data(), {CE * lines * OW, lines * OW, OW, 1}}, 0, {we.data(), {CE * G, G, 1, 1}},
           direct, {out, {0, OH * OW, OW, 1}});
}

} // namespace dlaformat::nvdla
