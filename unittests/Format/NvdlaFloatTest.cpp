//===- NvdlaFloatTest.cpp - fpAdd / fpMul's fp32 shortcut -----------------===//
//
// fpAdd and fpMul at fp32 take the CPU's IEEE operation where the C model's
// steps give the same bits; detail::fpAddGeneric / fpMulGeneric are the
// steps alone (checked against the numpy model, itself against NVIDIA's C
// model, by python/tests). Here the two agree on random operands biased to
// where the shortcut's edges are: close and far exponents, cancellation,
// results near the flush and saturation limits, denormals, zeros, NaN.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFloat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

using namespace dlaformat::nvdla;

namespace {

uint32_t randomOperand(std::mt19937_64 &rng, uint32_t other) {
  const uint32_t bits = uint32_t(rng());
  switch (rng() % 8) {
  case 0: // any bits
    return bits;
  case 1: // the other's exponent, nearly: sums that carry or cancel
    return (bits & 0x807fffffu) | ((((other >> 23) & 255) + (bits >> 28) % 3 - 1) & 255) << 23;
  case 2: // the negation of the other, maybe a unit off
    return (other ^ 0x80000000u) + (bits & 1);
  case 3: // exponents 23 to 26 apart: the alignment's limit
    return (bits & 0x807fffffu) | ((((other >> 23) & 255) - 23 - (bits >> 30)) & 255) << 23;
  case 4: // near the bottom of the normal range (products and sums that flush)
    return (bits & 0x807fffffu) | ((bits >> 24) % 4) << 23;
  case 5: // near the top (saturation), or near 2^(127 - e) for products
    return (bits & 0x807fffffu) | (251u + (bits >> 24) % 5) << 23;
  case 6: // denormals, zeros, infinities, NaN
    return (bits & 0x80000000u) | ((bits >> 8) % 3 == 0 ? 0 : (bits >> 8) % 3 == 1 ? 0x7f800000u : 0) |
           ((bits >> 12) % 2 ? bits & 0x7fffffu : 0);
  default: // exponents whose sum is near the normal range's ends
    return (bits & 0x807fffffu) | ((((bits >> 28) % 2 ? 254u : 127u) - ((other >> 23) & 255) +
                                    (bits >> 24) % 5 - 2) & 255) << 23;
  }
}

TEST(NvdlaFloat, Fp32ShortcutMatchesTheSteps) {
  std::mt19937_64 rng(47);
  for (int i = 0; i < 4000000; ++i) {
    const uint32_t a = i % 2 ? uint32_t(rng()) : randomOperand(rng, uint32_t(rng()));
    const uint32_t b = randomOperand(rng, a);
    ASSERT_EQ(fpAdd(a, b, kFp32), detail::fpAddGeneric(a, b, kFp32)) << std::hex << a << " " << b;
    ASSERT_EQ(fpAdd(b, a, kFp32), detail::fpAddGeneric(b, a, kFp32)) << std::hex << b << " " << a;
    ASSERT_EQ(fpMul(a, b, kFp32), detail::fpMulGeneric(a, b, kFp32)) << std::hex << a << " " << b;
  }
}

TEST(NvdlaFloat, Fp32ShortcutEdges) {
  // 1 + (-1): -0 from the C model's steps (the first operand's sign on a
  // tie), +0 from IEEE: the shortcut must not take it.
  EXPECT_EQ(fpAdd(0x3f800000u, 0xbf800000u, kFp32), detail::fpAddGeneric(0x3f800000u, 0xbf800000u, kFp32));
  // 2^-126 * 0.5 is below the normal range: zero, not IEEE's denormal.
  EXPECT_EQ(fpMul(0x00800000u, 0x3f000000u, kFp32), 0u);
  // The largest finite value doubled saturates instead of infinity.
  EXPECT_EQ(fpMul(0x7f7fffffu, 0x40000000u, kFp32), 0x7f7fffffu);
  EXPECT_EQ(fpAdd(0x7f7fffffu, 0x7f7fffffu, kFp32), 0x7f7fffffu);
  // Zeros of both signs beside normal values.
  for (uint32_t z : {0u, 0x80000000u})
    for (uint32_t v : {0x3f800000u, 0xbf800000u, 0x00800000u, 0x7f7fffffu}) {
      EXPECT_EQ(fpAdd(z, v, kFp32), detail::fpAddGeneric(z, v, kFp32));
      EXPECT_EQ(fpAdd(v, z, kFp32), detail::fpAddGeneric(v, z, kFp32));
      EXPECT_EQ(fpMul(z, v, kFp32), detail::fpMulGeneric(z, v, kFp32));
      EXPECT_EQ(fpMul(v, z, kFp32), detail::fpMulGeneric(v, z, kFp32));
    }
  // 1 + 2^-25 (exponents 25 apart): the alignment drops the bit.
  EXPECT_EQ(fpAdd(0x3f800000u, 0x33000000u, kFp32), detail::fpAddGeneric(0x3f800000u, 0x33000000u, kFp32));
}

} // namespace

// Fp16ToInt16 (an fp16 pipeline's SDP writing int16) on every fp16 value
// against the C library: std::lround rounds half away from zero, as
// FpFloatToInt's AC_RND_INF does on the magnitude (fp_nvdla.fp16_to_int16
// against NVIDIA's compiled function: test_fp_nvdla.py); beyond int16 the
// sign's bound, a NaN -32768.
TEST(NvdlaFloat, Fp16ToInt16EveryValue) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    uint32_t bits = nvdlaFp16ToFp32(uint16_t(h));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    long want = std::isnan(f) ? -32768 : f >= 32767.5f ? 32767 : f <= -32768.5f ? -32768
                                                                                : std::lround(f);
    EXPECT_EQ(nvdlaFp16ToInt16(uint16_t(h)), want) << "fp16 0x" << std::hex << h;
  }
}
