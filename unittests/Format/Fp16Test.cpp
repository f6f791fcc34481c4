//===- Fp16Test.cpp - fp32 <-> fp16 conversion ---------------------------===//

#include "dla/Format/Fp16.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace dlaformat;

namespace {

float fromBits(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
uint32_t toBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

/// The value of a finite fp16 bit pattern, from the definition.
double halfValue(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  const double magnitude = exp == 0 ? std::ldexp(mant, -24) : std::ldexp(1024 + mant, exp - 25);
  return sign ? -magnitude : magnitude;
}

bool isNanHalf(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0; }

/// Straightforward reference: the nearest of the two neighbouring fp16
/// values (with 65536 standing for infinity past 65504), ties by the mode.
uint16_t referenceToHalf(float f, Fp16Rounding rounding) {
  const uint32_t x = toBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  if (std::isnan(f))
    return static_cast<uint16_t>(sign | 0x7e00 | ((x >> 13) & 0x3ff));
  const double a = std::fabs(static_cast<double>(f));
  if (std::isinf(f) || a >= 65536.0)
    return static_cast<uint16_t>(sign | 0x7c00);
  // Largest fp16 magnitude <= a (patterns 0 .. 0x7bff are increasing).
  uint16_t lo = 0, hiBits = 0x7bff;
  while (lo < hiBits) {
    const uint16_t mid = static_cast<uint16_t>((lo + hiBits + 1) / 2);
    if (halfValue(mid) <= a)
      lo = mid;
    else
      hiBits = static_cast<uint16_t>(mid - 1);
  }
  if (halfValue(lo) == a)
    return static_cast<uint16_t>(sign | lo);
  const uint16_t up = static_cast<uint16_t>(lo + 1); // 0x7c00 = infinity
  const double upValue = up == 0x7c00 ? 65536.0 : halfValue(up);
  const double dLo = a - halfValue(lo), dUp = upValue - a; // exact in double
  uint16_t pick;
  if (dLo < dUp)
    pick = lo;
  else if (dUp < dLo)
    pick = up;
  else if (rounding == Fp16Rounding::TiesAwayFromZero)
    pick = up;
  else
    pick = (lo & 1) ? up : lo;
  return static_cast<uint16_t>(sign | pick);
}

const Fp16Rounding kModes[] = {Fp16Rounding::TiesToEven, Fp16Rounding::TiesAwayFromZero};

TEST(Fp16, EveryHalfRoundTrips) {
  for (uint32_t i = 0; i < 0x10000; ++i) {
    const uint16_t h = static_cast<uint16_t>(i);
    const float f = fp16ToFp32(h);
    if (isNanHalf(h)) {
      ASSERT_TRUE(std::isnan(f));
      // Sign and payload kept; a signalling NaN comes back quiet.
      for (Fp16Rounding mode : kModes)
        ASSERT_EQ(fp32ToFp16(f, mode), h | 0x200);
      continue;
    }
    if ((h & 0x7fff) == 0x7c00)
      ASSERT_TRUE(std::isinf(f));
    else
      ASSERT_EQ(static_cast<double>(f), halfValue(h)) << std::hex << h;
    ASSERT_EQ(std::signbit(f), (h & 0x8000) != 0);
    for (Fp16Rounding mode : kModes)
      ASSERT_EQ(fp32ToFp16(f, mode), h) << std::hex << h;
  }
}

// Every midpoint between neighbouring fp16 values (both signs, subnormals,
// the 65504 -> infinity boundary), exactly and one float ulp either side.
TEST(Fp16, EveryHalfwayCase) {
  int ties = 0;
  for (uint32_t i = 0; i < 0x7c00; ++i) {
    const uint16_t lo = static_cast<uint16_t>(i);
    const uint16_t up = static_cast<uint16_t>(i + 1);
    const double loValue = halfValue(lo);
    const double upValue = up == 0x7c00 ? 65536.0 : halfValue(up);
    const float mid = static_cast<float>((loValue + upValue) / 2); // 12 bits: exact
    ASSERT_EQ(static_cast<double>(mid), (loValue + upValue) / 2);
    for (int sign = 0; sign < 2; ++sign) {
      const uint16_t s = sign ? 0x8000 : 0;
      const float m = sign ? -mid : mid;
      const uint16_t even = (lo & 1) ? up : lo;
      ASSERT_EQ(fp32ToFp16(m, Fp16Rounding::TiesToEven), s | even) << std::hex << lo;
      ASSERT_EQ(fp32ToFp16(m, Fp16Rounding::TiesAwayFromZero), s | up) << std::hex << lo;
      const float below = std::nextafter(m, 0.0f);
      const float above = std::nextafter(m, sign ? -INFINITY : INFINITY);
      for (Fp16Rounding mode : kModes) {
        ASSERT_EQ(fp32ToFp16(below, mode), s | lo) << std::hex << lo;
        ASSERT_EQ(fp32ToFp16(above, mode), s | up) << std::hex << lo;
      }
      ++ties;
    }
  }
  EXPECT_EQ(ties, 2 * 0x7c00);
}

TEST(Fp16, SpecialValues) {
  for (Fp16Rounding mode : kModes) {
    EXPECT_EQ(fp32ToFp16(0.0f, mode), 0x0000);
    EXPECT_EQ(fp32ToFp16(-0.0f, mode), 0x8000);
    EXPECT_EQ(fp32ToFp16(INFINITY, mode), 0x7c00);
    EXPECT_EQ(fp32ToFp16(-INFINITY, mode), 0xfc00);
    EXPECT_EQ(fp32ToFp16(65504.0f, mode), 0x7bff);
    EXPECT_EQ(fp32ToFp16(65519.996f, mode), 0x7bff); // just below the midpoint
    EXPECT_EQ(fp32ToFp16(65520.0f, mode), 0x7c00);   // the midpoint overflows in both
    EXPECT_EQ(fp32ToFp16(1e10f, mode), 0x7c00);
    EXPECT_EQ(fp32ToFp16(-3.4e38f, mode), 0xfc00);
    EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -24), mode), 0x0001); // smallest subnormal
    EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -14), mode), 0x0400); // smallest normal
    EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -26), mode), 0x0000);
    EXPECT_EQ(fp32ToFp16(-std::ldexp(1.0f, -26), mode), 0x8000);
    EXPECT_EQ(fp32ToFp16(fromBits(0x00000001), mode), 0x0000);   // fp32 subnormal
    EXPECT_EQ(fp32ToFp16(fromBits(0x80000001), mode), 0x8000);
    EXPECT_EQ(fp32ToFp16(fromBits(0x7fc00000), mode), 0x7e00);   // quiet NaN
    EXPECT_EQ(fp32ToFp16(fromBits(0xff800001), mode), 0xfe00);   // signalling NaN, low payload
    EXPECT_EQ(fp32ToFp16(fromBits(0x7f802000), mode), 0x7e01);   // payload top bits kept
    EXPECT_EQ(fp32ToFp16(1.0f, mode), 0x3c00);
    EXPECT_EQ(fp32ToFp16(-2.5f, mode), 0xc100);
  }
  // 2^-25 is the midpoint between 0 and the smallest subnormal.
  EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -25), Fp16Rounding::TiesToEven), 0x0000);
  EXPECT_EQ(fp32ToFp16(std::ldexp(1.0f, -25), Fp16Rounding::TiesAwayFromZero), 0x0001);
  // 1 + 2^-11 is the midpoint between 1 and 1 + 2^-10.
  EXPECT_EQ(fp32ToFp16(1.0f + std::ldexp(1.0f, -11), Fp16Rounding::TiesToEven), 0x3c00);
  EXPECT_EQ(fp32ToFp16(1.0f + std::ldexp(1.0f, -11), Fp16Rounding::TiesAwayFromZero), 0x3c01);
  // Rounding up carries into the exponent: the largest subnormal's neighbour.
  EXPECT_EQ(fp32ToFp16(std::ldexp(1023.5f, -24), Fp16Rounding::TiesToEven), 0x0400);
  EXPECT_EQ(fp16ToFp32(0x7e00) != fp16ToFp32(0x7e00), true);
}

TEST(Fp16, RandomFloatsAgainstReference) {
  std::mt19937_64 rng(61);
  for (int i = 0; i < 400000; ++i) {
    uint32_t bits = static_cast<uint32_t>(rng());
    if (i % 2) // half of them in and around the fp16 range
      bits = (bits & 0x807fffffu) | ((95u + static_cast<uint32_t>(rng() % 50)) << 23);
    if (i % 7 == 0) // values with few mantissa bits: many exact ties
      bits &= 0xffffe000u | (static_cast<uint32_t>(rng()) & 0x1000u);
    const float f = fromBits(bits);
    for (Fp16Rounding mode : kModes)
      ASSERT_EQ(fp32ToFp16(f, mode), referenceToHalf(f, mode))
          << std::hex << bits << " " << enumProse(mode);
  }
}

TEST(Fp16, BulkConversions) {
  std::mt19937_64 rng(62);
  std::vector<float> src(1000);
  for (size_t i = 0; i < src.size(); ++i) {
    uint32_t bits = static_cast<uint32_t>(rng());
    if (i % 2) // exact midpoints between fp16 neighbours: the modes differ
      bits = (bits & 0x83ffe000u) | 0x38001000u;
    src[i] = fromBits(bits);
  }
  for (Fp16Rounding mode : kModes) {
    std::vector<uint16_t> dst(src.size());
    convertFp32ToFp16(src.data(), dst.data(), static_cast<int64_t>(src.size()), mode);
    for (size_t i = 0; i < src.size(); ++i)
      ASSERT_EQ(dst[i], fp32ToFp16(src[i], mode));
    std::vector<float> back(dst.size());
    convertFp16ToFp32(dst.data(), back.data(), static_cast<int64_t>(dst.size()));
    for (size_t i = 0; i < dst.size(); ++i)
      ASSERT_EQ(toBits(back[i]), toBits(fp16ToFp32(dst[i])));
  }
}

// The bulk conversion (vectorised where available) equals the scalar one on
// a stride through all 2^32 patterns, in groups mixing every class of value.
TEST(Fp16, BulkMatchesScalarAcrossAllPatterns) {
  std::vector<float> src;
  for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 1021)
    src.push_back(fromBits(static_cast<uint32_t>(bits)));
  for (uint32_t special : {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                           0x477ff000u, 0x477fefffu, 0x38800000u, 0x387fffffu, 0x33000000u,
                           0x33000001u, 0x00000001u})
    src.push_back(fromBits(special));
  for (Fp16Rounding mode : kModes) {
    std::vector<uint16_t> dst(src.size());
    convertFp32ToFp16(src.data(), dst.data(), static_cast<int64_t>(src.size()), mode);
    for (size_t i = 0; i < src.size(); ++i)
      ASSERT_EQ(dst[i], fp32ToFp16(src[i], mode)) << std::hex << toBits(src[i]);
  }
}

} // namespace
