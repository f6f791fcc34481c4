//===- NvdlaLutFloat.cpp - The SDP Y stage's LUT in float mode -----------===//
//
// Follows utils/dla-ref/lut_float_ref.py line by line (file:line of the C
// model there: hls/sdp/sdp_y_idx.cpp for the index, sdp_y_inp.cpp for the
// fp17 interpolation and slopes, hls_wrapper/sdp_hls_wrapper.cpp for the
// registers and the exponent-underflow bias).
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaLutFloat.h"
#include "dla/Format/NvdlaFloat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

namespace dlaformat::nvdla {
namespace {

constexpr int kFracBits = 35;      // yLutFracSize
constexpr uint64_t kIndexMax = 511; // FpFloatToIntFrac's 9-bit integer saturates
constexpr uint32_t kOneFp17 = 0x7c00;

int64_t signedField(int64_t v, int bits) {
  const int64_t m = int64_t(1) << bits;
  return ((v + (m >> 1)) & (m - 1)) - (m >> 1);
}

uint32_t bits32(int64_t v) { return uint32_t(uint64_t(v) & 0xffffffffu); }
uint16_t bits16(int64_t v) { return uint16_t(uint64_t(v) & 0xffffu); }

/// One table's index, 35-bit fraction and how the input fell.
struct Index {
  int64_t idx = 0;
  uint64_t frac = 0;
  bool under = false, over = false;
};

/// FpSub<8,23>(x, start): its exponent and mantissa, and whether it
/// underflows the table (negative, zero of either sign, NaN).
struct StartDiff {
  int64_t e;
  uint64_t m;
  bool under;
};
StartDiff startDiff(uint32_t x, uint32_t start) {
  const uint32_t d = fpSub(x, start, kFp32);
  const uint64_t s = d >> 31, e = (d >> 23) & 255, m = d & 0x7fffff;
  return {int64_t(e), m, s == 1 || (e == 0 && m == 0) || (e == 255 && m != 0)};
}

/// Linear (LE or LO): FpFloatToIntFrac<8,23,8,9,35> of d * 2^-select.
Index linear(uint32_t x, uint32_t start, int64_t sel, int64_t depth) {
  const StartDiff d = startDiff(x, start);
  const uint64_t mp1 = d.m | (uint64_t(1) << 23);
  // The exponent read as the signed 8-bit e - 127 (infinity wraps to -128).
  const int64_t absExpo = ((d.e - 127 + 128) & 255) - 128;
  const int64_t lshift = absExpo - sel - 23;
  uint64_t whole = lshift >= -14 ? kIndexMax : (-lshift >= 64 ? 0 : mp1 >> -lshift);
  whole = std::min(whole, kIndexMax);
  const int64_t k = kFracBits + lshift;
  uint64_t frac = k >= 0 ? (mp1 << std::min<int64_t>(k, 34)) & ((uint64_t(1) << kFracBits) - 1)
                         : (-k >= 64 ? 0 : mp1 >> -k);
  if (lshift >= 0)
    frac = 0;
  Index r;
  r.under = d.under;
  r.over = !r.under && int64_t(whole) >= depth - 1;
  r.idx = r.under ? 0 : r.over ? depth - 1 : int64_t(whole);
  r.frac = r.under || r.over ? 0 : frac;
  return r;
}

/// LE exponent: index = exponent(d) - 127 - offset, fraction d's mantissa.
Index exponent(uint32_t x, uint32_t start, int64_t offset, int64_t depth) {
  const StartDiff d = startDiff(x, start);
  Index r;
  r.under = d.under || d.e - 127 < offset;
  const int64_t idx = d.e - 127 - offset;
  r.over = !r.under && idx >= depth - 1;
  r.idx = r.under ? 0 : r.over ? depth - 1 : idx;
  r.frac = r.under || r.over ? 0 : d.m << (kFracBits - 23);
  return r;
}

template <size_t N> uint16_t entry(const std::array<int64_t, N> &t, int64_t i) {
  return bits16(t[std::min<int64_t>(i, N - 1)]);
}

} // namespace

uint32_t sdpLookupFloat(uint32_t x, const LutProgram &lut) {
  constexpr int64_t leDepth = LutProgram::kLeEntries, loDepth = LutProgram::kLoEntries;
  const int64_t leOff = signedField(lut.leIndexOffset, 8);
  const Index le =
      lut.leLinear
          ? linear(x, bits32(lut.leStart), signedField(lut.leIndexSelect, 8), leDepth)
          : exponent(x, bits32(lut.leStart), leOff, leDepth);
  const Index lo = linear(x, bits32(lut.loStart), signedField(lut.loIndexSelect, 8), loDepth);
  const bool useLo = lutChoosesLo(lut, le.under, le.over, lo.under, lo.over);
  const Index &ix = useLo ? lo : le;
  const uint16_t y0 = useLo ? entry(lut.lo, ix.idx) : entry(lut.le, ix.idx);
  if (!ix.under && !ix.over) {
    // Hit (sdp_y_inp.cpp, FP16, !flow).
    const uint16_t y1 = useLo ? entry(lut.lo, ix.idx + 1) : entry(lut.le, ix.idx + 1);
    const uint32_t a0 =
        ix.frac == 0 ? kOneFp17 : fractionToFp17((uint64_t(1) << kFracBits) - ix.frac, kFracBits);
    const uint32_t a1 = fractionToFp17(ix.frac, kFracBits);
    const uint32_t b0 = fpMul(a0, fp16ToFp17(y0), kFp17);
    const uint32_t b1 = fpMul(a1, fp16ToFp17(y1), kFp17);
    return fp17ToFp32(fpAdd(b0, b1, kFp17));
  }
  // Under / overflow: the distance from the chosen edge in fp32, rounded
  // to fp17, times the slope, plus the edge entry. The edge is
  // Fp32Add(edge, bias) even with bias 0 (a denormal edge is not kept);
  // bias is pow(2.0, offset) as an fp32 for an LE exponent underflow.
  uint32_t edge;
  if (ix.over) {
    edge = useLo ? bits32(lut.loEnd) : bits32(lut.leEnd);
  } else {
    edge = useLo ? bits32(lut.loStart) : bits32(lut.leStart);
  }
  uint32_t bias = 0;
  if (!useLo && !ix.over && !lut.leLinear) {
    const float b = std::ldexp(1.0f, int(leOff));
    std::memcpy(&bias, &b, sizeof(bias));
  }
  edge = fpAdd(edge, bias, kFp32);
  const LutSlope &slope =
      useLo ? (ix.over ? lut.loOflow : lut.loUflow) : (ix.over ? lut.leOflow : lut.leUflow);
  const uint32_t a = fp32ToFp17(fpSub(x, edge, kFp32));
  const uint32_t flow =
      fpAdd(fp16ToFp17(y0), fpMul(a, fp16ToFp17(bits16(slope.scale)), kFp17), kFp17);
  return fp17ToFp32(flow);
}

uint16_t sdpLookupFloatToFp16(uint32_t x, const LutProgram &lut) {
  return nvdlaFp32ToFp16(sdpLookupFloat(x, lut));
}

std::vector<uint16_t> sdpLookupFloatFp16Table(const LutProgram &lut) {
  std::vector<uint16_t> out(1 << 16);
  for (uint32_t h = 0; h < out.size(); ++h)
    out[h] = sdpLookupFloatToFp16(nvdlaFp16ToFp32(uint16_t(h)), lut);
  return out;
}

namespace {

double evaluate(FloatLutFunction fn, double x) {
  return fn == FloatLutFunction::Sigmoid ? 1.0 / (1.0 + std::exp(-x)) : std::tanh(x);
}

uint32_t floatBits(float v) {
  uint32_t b;
  std::memcpy(&b, &v, sizeof(b));
  return b;
}

/// The fp16 entry of f at x: float64, to fp32, to fp16 by Fp32ToFp16.
int64_t fp16Entry(FloatLutFunction fn, double x) {
  return int16_t(nvdlaFp32ToFp16(floatBits(float(evaluate(fn, x)))));
}

} // namespace

LutProgram floatLutProgram(FloatLutFunction fn) {
  // (LO half-range, its index select = log2 of its step); LE covers four
  // times the range in 64 steps.
  const int loR = fn == FloatLutFunction::Sigmoid ? 8 : 4;
  const int leR = 4 * loR;
  const int loSelect = fn == FloatLutFunction::Sigmoid ? -4 : -5; // 2 loR / 256
  const int leSelect = fn == FloatLutFunction::Sigmoid ? 0 : -1;  // 2 leR / 64
  LutProgram p;
  p.leLinear = true;
  for (int i = 0; i < LutProgram::kLeEntries; ++i)
    p.le[i] = fp16Entry(fn, -leR + std::ldexp(double(i), leSelect));
  for (int i = 0; i < LutProgram::kLoEntries; ++i)
    p.lo[i] = fp16Entry(fn, -loR + std::ldexp(double(i), loSelect));
  p.leStart = int32_t(floatBits(float(-leR)));
  p.leEnd = int32_t(floatBits(float(leR)));
  p.loStart = int32_t(floatBits(float(-loR)));
  p.loEnd = int32_t(floatBits(float(loR)));
  p.leIndexOffset = 0;
  p.leIndexSelect = leSelect;
  p.loIndexSelect = loSelect;
  // Slopes 0: beyond both tables LE's edge entry, the saturated value.
  p.uflowLo = false;
  p.oflowLo = false;
  p.hybridLo = true;
  return p;
}

FloatLutError measureFloatLutError(FloatLutFunction fn) {
  const std::vector<uint16_t> table = sdpLookupFloatFp16Table(floatLutProgram(fn));
  FloatLutError worst;
  for (uint32_t h = 0; h < table.size(); ++h) {
    if (((h >> 10) & 31) == 31)
      continue;
    uint32_t xb = nvdlaFp16ToFp32(uint16_t(h)), yb = nvdlaFp16ToFp32(table[h]);
    float x, y;
    std::memcpy(&x, &xb, sizeof(x));
    std::memcpy(&y, &yb, sizeof(y));
    const double err = std::fabs(double(y) - evaluate(fn, double(x)));
    if (err > worst.error)
      worst = {err, double(x)};
  }
  return worst;
}

std::optional<FloatLutFunction> parseFloatLutFunction(std::string_view name) {
  if (name == "sigmoid")
    return FloatLutFunction::Sigmoid;
  if (name == "tanh")
    return FloatLutFunction::Tanh;
  return std::nullopt;
}

} // namespace dlaformat::nvdla
