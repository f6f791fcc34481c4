//===- NvdlaCdpFp16.cpp - The CDP's fp16 LRN (nv_full) --------------------===//
//
// Follows utils/dla-ref/fp_nvdla.py cdp_fp16 / cdp_lookup_fp16 step by step
// (the C model's HLS_CDP_lookup_fp16 and HLS_CDP_lookup_lut).
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaCdpFp16.h"
#include "dla/Format/NvdlaFloat.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace dlaformat::nvdla {
namespace {

int64_t signedField(int64_t v, int bits) {
  const int64_t m = int64_t(1) << bits;
  return ((v + (m >> 1)) & (m - 1)) - (m >> 1);
}
uint32_t bits32(int64_t v) { return uint32_t(uint64_t(v) & 0xffffffffu); }
uint16_t bits16(int64_t v) { return uint16_t(uint64_t(v) & 0xffffu); }
uint32_t floatBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}
float bitsFloat(uint32_t b) {
  float v;
  std::memcpy(&v, &b, sizeof(v));
  return v;
}

struct Lookup {
  uint32_t result; // fp17
  bool under, over;
};

/// HLS_CDP_lookup_lut: one table (depth 64 LE / 256 LO) on the square sum s.
template <size_t N>
Lookup lookup(uint32_t s, const std::array<int64_t, N> &table, bool expMode, int64_t start,
              int64_t end, int64_t uflowScale, int64_t oflowScale, int64_t offset,
              int64_t select) {
  constexpr int64_t depth = int64_t(N) - 1;
  const uint32_t d = fpSub(s, bits32(start), kFp32);
  const float df = bitsFloat(d);
  Lookup r{0, df <= 0 || std::isnan(df), false};
  int64_t idx = 0;
  uint64_t frac = 0;
  if (!r.under) {
    if (expMode) {
      idx = int64_t((d >> 23) & 0xff) - 127 - offset;
      frac = (d >> 7) & 0xffff; // the mantissa's top 16 bits
      r.under = idx < 0;
      r.over = !r.under && idx >= depth;
    } else {
      // C float: the double quotient rounded to float, its integer part
      // and 16 bits of its fraction, both truncated.
      const float shifted = float(double(df) / std::ldexp(1.0, int(select)));
      r.over = shifted >= float(depth);
      if (!r.over) {
        idx = int64_t(shifted);
        frac = uint64_t((shifted - float(int32_t(idx))) * float(0x10000));
      }
    }
  }
  if (!r.under && !r.over) {
    const uint16_t t0 = bits16(table[idx]), t1 = bits16(table[idx + 1]);
    const uint32_t diff =
        fp32ToFp17(fpSub(nvdlaFp16ToFp32(t1), nvdlaFp16ToFp32(t0), kFp32));
    r.result = fpAdd(fpMul(diff, fractionToFp17(frac, 16), kFp17), fp16ToFp17(t0), kFp17);
    return r;
  }
  uint32_t sub;
  int64_t scale;
  uint16_t edgeEntry;
  if (r.under) {
    // The exponent table's start moved up by 2^offset (a float), always
    // added in fp32.
    sub = d;
    if (expMode) {
      const float bias = offset <= -127 ? 0.0f : float(std::ldexp(1.0, int(offset)));
      sub = fpSub(s, fpAdd(bits32(start), floatBits(bias), kFp32), kFp32);
    }
    scale = uflowScale;
    edgeEntry = bits16(table[0]);
  } else {
    sub = fpSub(s, bits32(end), kFp32);
    scale = oflowScale;
    edgeEntry = bits16(table[depth]);
  }
  r.result = fpAdd(fpMul(fp32ToFp17(sub), fp16ToFp17(bits16(scale)), kFp17),
                   fp16ToFp17(edgeEntry), kFp17);
  return r;
}

} // namespace

LutProgram lrnFloatTables(double alpha, double beta, double k, int64_t size) {
  auto f = [&](double s) { return std::pow(k + alpha / double(size) * s, -beta); };
  auto entry = [](double v) { return int64_t(int16_t(nvdlaFp32ToFp16(floatBits(float(v))))); };
  constexpr int kLeOffset = 4, kTop = 68;
  const double a = alpha / double(size);
  const double bend = a > 0 ? 16.0 * k / a : INFINITY;
  int e = kLeOffset;
  while (e < kTop && std::ldexp(1.0, e) < bend)
    ++e;
  LutProgram p;
  p.leLinear = false;
  for (int i = 0; i < LutProgram::kLeEntries; ++i)
    p.le[i] = entry(f(std::ldexp(1.0, kLeOffset + i)));
  for (int i = 0; i < LutProgram::kLoEntries; ++i)
    p.lo[i] = entry(f(std::ldexp(double(i), e - 8)));
  p.leStart = 0;
  p.leEnd = int32_t(floatBits(std::ldexp(1.0f, kTop)));
  p.loStart = 0;
  p.loEnd = int32_t(floatBits(std::ldexp(1.0f, e)));
  p.leIndexOffset = kLeOffset;
  p.leIndexSelect = 0;
  p.loIndexSelect = e - 8;
  p.uflowLo = true;
  p.oflowLo = false;
  p.hybridLo = true;
  return p;
}

void cdpFp16(const uint16_t *x, int64_t planes, int64_t channels, int64_t pixels, int64_t size,
             const LutProgram &lut, uint16_t *out) {
  const int64_t half = (size - 1) / 2;
  const int64_t leOff = signedField(lut.leIndexOffset, 8);
  const int64_t leSel = signedField(lut.leIndexSelect, 8);
  const int64_t loSel = signedField(lut.loIndexSelect, 8);
  std::vector<uint32_t> sq(static_cast<size_t>(channels + 8));
  std::vector<uint32_t> x17(static_cast<size_t>(channels));
  for (int64_t n = 0; n < planes; ++n) {
    const uint16_t *xp = x + n * channels * pixels;
    uint16_t *op = out + n * channels * pixels;
    for (int64_t p = 0; p < pixels; ++p) {
      // Squares of the input in fp17 widened to fp32 (exact); 4 channels
      // of +0 on each side (DATIN_OFFSET 0).
      for (int64_t c = 0; c < channels + 8; ++c) {
        const int64_t ch = c - 4;
        const uint32_t v = ch >= 0 && ch < channels ? fp16ToFp17(xp[ch * pixels + p]) : 0;
        if (ch >= 0 && ch < channels)
          x17[size_t(ch)] = v;
        const uint32_t w = fp17ToFp32(v);
        sq[size_t(c)] = fpMul(w, w, kFp32);
      }
      for (int64_t c = 0; c < channels; ++c) {
        const uint32_t *q = &sq[size_t(c + 4)]; // the centre
        uint32_t s = fpAdd(fpAdd(q[-1], q[1], kFp32), q[0], kFp32);
        for (int64_t j = 2; j <= half; ++j)
          s = fpAdd(s, fpAdd(q[-j], q[j], kFp32), kFp32);
        const Lookup le = lookup(s, lut.le, !lut.leLinear, lut.leStart, lut.leEnd,
                                 lut.leUflow.scale, lut.leOflow.scale, leOff, leSel);
        const Lookup lo = lookup(s, lut.lo, false, lut.loStart, lut.loEnd, lut.loUflow.scale,
                                 lut.loOflow.scale, 0, loSel);
        const bool useLo = lutChoosesLo(lut, le.under, le.over, lo.under, lo.over);
        const uint32_t r = useLo ? lo.result : le.result;
        op[c * pixels + p] = fp17ToFp16(fpMul(x17[size_t(c)], r, kFp17));
      }
    }
  }
}

} // namespace dlaformat::nvdla
