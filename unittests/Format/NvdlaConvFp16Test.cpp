//===- NvdlaConvFp16Test.cpp - NVDLA's fp16 convolution arithmetic --------===//
//
// Values worked by hand from the C model's rules (docs/NvdlaFp16.md); the
// bit-exact comparison with the numpy model on random inputs is
// python/tests/test_conv_fp16.py.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaConvFp16.h"

#include <gtest/gtest.h>

#include <array>
#include <random>

using namespace dlaformat::nvdla;

namespace {

/// An atom holding `values` in its first channels, zeros after.
std::array<uint16_t, 64> atom(std::initializer_list<uint16_t> values) {
  std::array<uint16_t, 64> a{};
  std::copy(values.begin(), values.end(), a.begin());
  return a;
}

TEST(NvdlaConvFp16, OneTimesOne) {
  // 1.0 = 0x3c00: exponent 15 = group 3, shift 3: mantissa 1024 << 3. The
  // product's group is 6 (word exponent 24), its mantissa 2^26: 2^26 *
  // 2^(24 - 50) = 1.
  auto d = atom({0x3c00}), w = atom({0x3c00});
  CmacWord word = cmacFp16(d.data(), w.data(), 64);
  EXPECT_EQ(word.exponent, 24);
  EXPECT_EQ(word.mantissa, int64_t(1) << 26);
  // CACC normalizes it to 38 bits (2^36, exponent 24 - 10 + 49 = 63) and
  // keeps it as 2^38 * 2^(63 - 101).
  CaccAccumulator acc = caccAdd({}, word);
  EXPECT_EQ(acc.exponent, 63);
  EXPECT_EQ(acc.mantissa, int64_t(1) << 38);
  EXPECT_EQ(caccToFp32(acc), 0x3f800000u);
}

TEST(NvdlaConvFp16, ZerosTakeNoPart) {
  // -0 and +0 mask a channel off: the word is zero with exponent 0, and a
  // zero word leaves the accumulator as it is.
  auto d = atom({0x8000, 0x3c00}), w = atom({0x3c00, 0x0000});
  CmacWord word = cmacFp16(d.data(), w.data(), 64);
  EXPECT_EQ(word.exponent, 0);
  EXPECT_EQ(word.mantissa, 0);
  CaccAccumulator acc = caccAdd({63, int64_t(1) << 38}, word);
  EXPECT_EQ(acc.exponent, 63);
  EXPECT_EQ(acc.mantissa, int64_t(1) << 38);
  EXPECT_EQ(caccToFp32({}), 0u);
}

TEST(NvdlaConvFp16, SmallProductTruncatedBesideALargeOne) {
  // 2^15 * 2^15 (groups 7 + 7 = 14) beside 2^-24 * 1 (denormal: group 0,
  // with 1.0's group 3): the small product is aligned 4 * (14 - 3) = 44
  // bits right, past the 32-bit product: nothing of it is left.
  auto d = atom({0x7800, 0x0001}), w = atom({0x7800, 0x3c00});
  CmacWord word = cmacFp16(d.data(), w.data(), 64);
  EXPECT_EQ(word.exponent, 56);            // 14 << 2
  EXPECT_EQ(word.mantissa, int64_t(1) << 24); // 2^24 * 2^(56 - 50) = 2^30 exactly
  // As a convolution: the next kernel column takes 2^30 away again; the
  // exact sum is 2^-24 (an fp16 denormal), NVDLA's is +0.
  const uint16_t x[4] = {0x7800, 0x7800, 0x0001, 0x0000}; // C = 2, H = 1, W = 2
  const uint16_t wt[4] = {0x7800, 0xf800, 0x3c00, 0x0000}; // K = 1, C = 2, R = 1, S = 2
  uint32_t out = 0xdeadbeef;
  ConvFp16Shape shape{2, 1, 2, 1, 1, 2};
  convFp16({x, {4, 2, 2, 1}}, 0, {wt, {4, 2, 2, 1}}, shape, {&out, {1, 1, 1, 1}});
  EXPECT_EQ(out, 0u);
}

TEST(NvdlaConvFp16, AccumulatorRoundsTiesAwayFromZero) {
  // 1 + 2^-39: the word 1 * 2^(11 - 50), normalized to 2^38 at exponent
  // 24, is shifted 39 places right: exactly half of the accumulator's
  // last place (2^-38) is lost; a positive sum rounds it up.
  CaccAccumulator up = caccAdd({63, int64_t(1) << 38}, {11, 1});
  EXPECT_EQ(up.exponent, 63);
  EXPECT_EQ(up.mantissa, (int64_t(1) << 38) + 1);
  // -1 - 2^-39: two's complement keeps floor(-2^38 - 1/2) = -2^38 - 1 and
  // the fraction 1/2; a negative sum rounds up only above half, so the
  // tie stays at -(1 + 2^-38): away from zero as well.
  CaccAccumulator down = caccAdd({63, -(int64_t(1) << 38)}, {11, -1});
  EXPECT_EQ(down.exponent, 63);
  EXPECT_EQ(down.mantissa, -(int64_t(1) << 38) - 1);
}

TEST(NvdlaConvFp16, Fp32HandOffRoundsHalfAwayFromZero) {
  // 2^38 + 2^14 at exponent 63: 1 + 2^-24, exactly half an fp32 ulp above
  // 1. IEEE's nearest-even gives 1.0; CACC rounds on the next bit alone.
  EXPECT_EQ(caccToFp32({63, (int64_t(1) << 38) + (int64_t(1) << 14)}), 0x3f800001u);
  EXPECT_EQ(caccToFp32({63, -((int64_t(1) << 38) + (int64_t(1) << 14))}), 0xbf800001u);
}

TEST(NvdlaConvFp16, NanWeightWins) {
  // The first NaN weight gives the word: exponent 63, its sign in bit 37
  // (negative as a 38-bit value) and its fraction in bits 36..27.
  auto d = atom({0x3c00, 0x7e01}), w = atom({0xfe55, 0x3c00});
  CmacWord word = cmacFp16(d.data(), w.data(), 64);
  EXPECT_EQ(word.exponent, 63);
  EXPECT_EQ(word.mantissa, (int64_t(0x255) << 27) - (int64_t(1) << 37));
}

TEST(NvdlaConvFp16, BoothShortcuts) {
  // cmacFp16 computes a product at shift 0 (its exponent group the atom's
  // largest) as wt * dat and at shift 4 as floor(wt * dat / 16): there
  // cal_fp16_booth's separately truncated carry-save vectors sum to just
  // that. Every weight operand CMAC can form (an 11-bit mantissa shifted 0
  // to 3 places: every 14-bit value), every 29th data operand, both signs.
  // At shift 8 they do not (some pair of the same scan is one below).
  int64_t checked = 0;
  bool shift8Differs = false;
  for (uint64_t wt = 0; wt < (uint64_t(2048) << 3); ++wt) {
    for (uint64_t dat = 0; dat < (uint64_t(2048) << 3); dat += 29)
      for (uint64_t sign = 0; sign < 2; ++sign) {
        const int64_t p = sign ? -int64_t(wt * dat) : int64_t(wt * dat);
        ASSERT_EQ(detail::boothFp16(sign, wt, dat, 0), p) << wt << " " << dat;
        ASSERT_EQ(detail::boothFp16(sign, wt, dat, 4), p >> 4) << wt << " " << dat;
        if (!shift8Differs)
          shift8Differs = detail::boothFp16(sign, wt, dat, 8) == (p >> 8) - 1;
        ++checked;
      }
  }
  EXPECT_GT(checked, 18000000);
  EXPECT_TRUE(shift8Differs);
}

TEST(NvdlaConvFp16, BoothProductFromDecodedWeight) {
  // convFp16's products (an integer multiply minus the carry the two
  // truncated carry-save vectors lose, the tree evaluated on the weight's
  // Booth rows decoded once) against cal_fp16_booth's emulation: every
  // weight operand, every 251st data operand (starting at a different one
  // per weight, so every data operand occurs), both signs, every shift CMAC
  // uses. (Once over every pair: 0 of 4.3e9 differ, docs/NvdlaFp16.md.)
  int64_t checked = 0, carries = 0;
  for (uint64_t wt = 0; wt < (uint64_t(2048) << 3); ++wt)
    for (uint64_t dat = wt % 251; dat < (uint64_t(2048) << 3); dat += 251)
      for (uint64_t sign = 0; sign < 2; ++sign)
        for (int64_t shift = 0; shift <= 28; shift += 4) {
          const int64_t want = detail::boothFp16(sign, wt, dat, shift);
          ASSERT_EQ(detail::boothFp16Decoded(sign, wt, dat, shift), want)
              << wt << " " << dat << " " << sign << " " << shift;
          const int64_t p = sign ? -int64_t(wt * dat) : int64_t(wt * dat);
          carries += want != (p + (int64_t(0x55550000) & ((int64_t(1) << shift) - 1))) >> shift;
          ++checked;
        }
  EXPECT_GT(checked, 15000000);
  EXPECT_GT(carries, 500000); // the carry is not a corner case
}

TEST(NvdlaConvFp16, CaccLanesMatchCaccAdd) {
  // convFp16's vector form of CACC's add against caccAdd (the C model's
  // steps): random accumulators (every exponent but NaN's, mantissas of
  // every length and sign) and words (exponents 0 to 62, 38-bit mantissas
  // of every length, zeros), including accumulators from earlier adds.
  std::mt19937_64 rng(4747);
  auto mantissa = [&](int bits) {
    const int64_t m = int64_t(rng() >> (64 - bits)) >> (rng() % bits);
    return rng() % 2 ? -m : m;
  };
  CaccAccumulator acc[4];
  for (int i = 0; i < 1000000; ++i) {
    CmacWord word[4];
    for (int l = 0; l < 4; ++l) {
      if (i % 16 == 0)
        acc[l] = rng() % 8 ? CaccAccumulator{int64_t(rng() % 255), mantissa(39)}
                           : CaccAccumulator{};
      word[l] = {int64_t(rng() % 63), rng() % 10 ? mantissa(37) : 0};
    }
    CaccAccumulator want[4];
    for (int l = 0; l < 4; ++l)
      want[l] = caccAdd(acc[l], word[l]);
    detail::caccAddLanes4(acc, word);
    for (int l = 0; l < 4; ++l) {
      ASSERT_EQ(acc[l].exponent, want[l].exponent) << i << " " << l;
      ASSERT_EQ(acc[l].mantissa, want[l].mantissa) << i << " " << l;
      if (acc[l].exponent == 255)
        acc[l] = {};
    }
  }
}

TEST(NvdlaConvFp16, SdpBiasAddsInNvdlaFp32) {
  // -1.0 + 1.0 is -0 (the sign of the first operand on a tie of
  // magnitudes), 1.0 + (-1.0) is +0; then ReLU makes +0.
  SdpXFp16 add;
  add.aluBypass = false;
  EXPECT_EQ(sdpXFp16(0xbf800000u, add, 0x3c00, 0), 0x80000000u);
  EXPECT_EQ(sdpXFp16(0x3f800000u, add, 0xbc00, 0), 0u);
  add.reluBypass = false;
  EXPECT_EQ(sdpXFp16(0xbf800000u, add, 0x3c00, 0), 0u);
}

} // namespace
