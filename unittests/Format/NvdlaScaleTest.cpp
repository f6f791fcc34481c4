//===- NvdlaScaleTest.cpp - Real factors as NVDLA scale / shift -----------===//
//
// Expected values worked by hand: shift = 15 - numBits with numBits the
// binary exponent e of |f| = m * 2^e, m in [0.5, 1) (floor(log2|f|) + 1);
// scale = 2^shift * f truncated or rounded half away from zero.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaScale.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace dlaformat::nvdla;

namespace {

constexpr ScaleRounding kTrunc = ScaleRounding::Truncate;
constexpr ScaleRounding kNear = ScaleRounding::Nearest;

void expectScale(double f, ScaleRounding r, int scale, int shift, double bound) {
  auto got = scaleFromFactor(f, r);
  ASSERT_TRUE(got.ok()) << f << ": " << got.message();
  EXPECT_EQ(got->scale, scale) << f;
  EXPECT_EQ(got->shift, shift) << f;
  EXPECT_EQ(got->errorBound, bound) << f;
  // |f - scale * 2^-shift| <= bound, compared exactly at the scale's grid.
  EXPECT_LE(std::fabs(std::ldexp(f, shift) - got->scale), std::ldexp(bound, shift)) << f;
}

void expectError(double f, const char *fragment) {
  for (ScaleRounding r : {kTrunc, kNear}) {
    auto got = scaleFromFactor(f, r);
    ASSERT_FALSE(got.ok()) << f;
    EXPECT_NE(got.message().find(fragment), std::string::npos) << got.message();
  }
}

TEST(NvdlaScale, ExactFactors) {
  // 0.75 = 0.75 * 2^0: numBits 0, shift 15, 0.75 * 32768 = 24576
  expectScale(0.75, kTrunc, 24576, 15, std::ldexp(1, -15));
  // 1 = 0.5 * 2^1: shift 14, 16384
  expectScale(1.0, kTrunc, 16384, 14, std::ldexp(1, -14));
  // 32767 = 0.99997 * 2^15: shift 0
  expectScale(32767, kNear, 32767, 0, 0.5);
}

TEST(NvdlaScale, TruncateVersusNearest) {
  // 0.1 = 0.8 * 2^-3: shift 18, 0.1 * 2^18 = 26214.4 -> 26214 both ways
  expectScale(0.1, kTrunc, 26214, 18, std::ldexp(1, -18));
  expectScale(0.1, kNear, 26214, 18, std::ldexp(1, -19));
  // 0.3 = 0.6 * 2^-1: shift 16, 19660.8 -> 19660 / 19661; negatives mirror
  expectScale(0.3, kTrunc, 19660, 16, std::ldexp(1, -16));
  expectScale(0.3, kNear, 19661, 16, std::ldexp(1, -17));
  expectScale(-0.3, kTrunc, -19660, 16, std::ldexp(1, -16));
  expectScale(-0.3, kNear, -19661, 16, std::ldexp(1, -17));
  // 20000.9: shift 0, 20000 / 20001
  expectScale(20000.9, kTrunc, 20000, 0, 1.0);
  expectScale(20000.9, kNear, 20001, 0, 0.5);
}

TEST(NvdlaScale, TiesRoundAwayFromZero) {
  // 16385.5 / 16384: shift 14, 16385.5 -> 16385 truncated, 16386 nearest
  double f = 16385.5 / 16384;
  expectScale(f, kTrunc, 16385, 14, std::ldexp(1, -14));
  expectScale(f, kNear, 16386, 14, std::ldexp(1, -15));
  expectScale(-f, kTrunc, -16385, 14, std::ldexp(1, -14));
  expectScale(-f, kNear, -16386, 14, std::ldexp(1, -15));
}

TEST(NvdlaScale, NearestOverflowMovesTheShift) {
  // 16383.75: shift 1 gives 32767.5 -> 32768 (no int16): shift 0, 16384
  expectScale(16383.75, kTrunc, 32767, 1, 0.5);
  expectScale(16383.75, kNear, 16384, 0, 0.5);
  // 32767.5 at shift 0: truncated 32767; nearest 32768 kept at 32767, bound 1;
  // -32767.5 rounds to -32768, an int16
  expectScale(32767.5, kTrunc, 32767, 0, 1.0);
  expectScale(32767.5, kNear, 32767, 0, 1.0);
  expectScale(-32767.5, kNear, -32768, 0, 0.5);
}

TEST(NvdlaScale, ShiftLimits) {
  // 2^-49 = 0.5 * 2^-48: numBits -48, shift 63, 2^63 * 2^-49 = 2^14
  expectScale(std::ldexp(1, -49), kTrunc, 16384, 63, std::ldexp(1, -63));
  // 1.999 * 2^-49: shift 63, 1.999 * 16384 = 32751.6 -> 32751 / 32752
  expectScale(std::ldexp(1.999, -49), kTrunc, 32751, 63, std::ldexp(1, -63));
  expectScale(std::ldexp(1.999, -49), kNear, 32752, 63, std::ldexp(1, -64));
  // 2^-50 and 1.5 * 2^-50 need shift 64
  expectError(std::ldexp(1, -50), "needs a shift of 64");
  expectError(std::ldexp(1.5, -50), "needs a shift of 64");
}

TEST(NvdlaScale, Rejected) {
  expectError(32768, "beyond the int16 range");
  expectError(-32768, "beyond the int16 range");
  expectError(1e10, "beyond the int16 range");
  expectError(std::numeric_limits<double>::quiet_NaN(), "not finite");
  expectError(std::numeric_limits<double>::infinity(), "not finite");
  expectError(-std::numeric_limits<double>::infinity(), "not finite");
}

TEST(NvdlaScale, Zero) {
  expectScale(0.0, kTrunc, 0, 0, 1.0);
  expectScale(-0.0, kNear, 0, 0, 0.5);
}

void expectShared(std::vector<double> fs, ScaleRounding r, std::vector<int16_t> scales,
                  int shift, double bound) {
  auto got = scalesFromFactors(fs, r);
  ASSERT_TRUE(got.ok()) << got.message();
  EXPECT_EQ(got->scales, scales);
  EXPECT_EQ(got->shift, shift);
  EXPECT_EQ(got->errorBound, bound);
  for (size_t i = 0; i < fs.size(); ++i)
    EXPECT_LE(std::fabs(std::ldexp(fs[i], shift) - got->scales[i]), std::ldexp(bound, shift));
}

TEST(NvdlaScale, PerChannelSharesTheLargestFactorsShift) {
  // largest 0.5: shift 15; 16384, 8192, -0.1 * 32768 = -3276.8 -> -3276 / -3277
  expectShared({0.5, 0.25, -0.1}, kTrunc, {16384, 8192, -3276}, 15, std::ldexp(1, -15));
  expectShared({0.5, 0.25, -0.1}, kNear, {16384, 8192, -3277}, 15, std::ldexp(1, -16));
  // a tiny channel next to 1 (shift 14) becomes 0
  expectShared({1, std::ldexp(1, -60)}, kTrunc, {16384, 0}, 14, std::ldexp(1, -14));
  // a largest factor in [2^14, 2^15) gives a common shift of 0 that stays
  // common: 0.75 truncates to 0 (NVIDIA would give it its own shift 15)
  expectShared({20000.5, 0.75}, kTrunc, {20000, 0}, 0, 1.0);
  // -32767.7 -> -32767 / -32768 at shift 0
  expectShared({-32767.7, 100}, kTrunc, {-32767, 100}, 0, 1.0);
  expectShared({-32767.7, 100}, kNear, {-32768, 100}, 0, 0.5);
  expectShared({0, -0.0}, kTrunc, {0, 0}, 0, 1.0);
}

TEST(NvdlaScale, PerChannelNearestOverflow) {
  // 16383.75 rounds to 32768 at shift 1: all move to shift 0: 16384, 1.25 -> 1
  expectShared({16383.75, 1.25}, kNear, {16384, 1}, 0, 0.5);
  // +32767.7 rounds to 32768 at shift 0: kept at 32767, bound 1
  expectShared({-32767.7, 32767.7}, kNear, {-32768, 32767}, 0, 1.0);
}

TEST(NvdlaScale, PerChannelRejected) {
  EXPECT_FALSE(scalesFromFactors({}, kTrunc).ok());
  EXPECT_FALSE(scalesFromFactors({1, std::numeric_limits<double>::quiet_NaN()}, kTrunc).ok());
  EXPECT_FALSE(scalesFromFactors({1, 40000}, kNear).ok());
  EXPECT_FALSE(scalesFromFactors({std::ldexp(1, -52)}, kNear).ok());
}

void expectBias(std::vector<int32_t> b, BiasRounding r, std::vector<int16_t> values, int shift,
                int64_t bound) {
  Int16Bias got = biasToInt16(b, r);
  EXPECT_EQ(got.values, values);
  EXPECT_EQ(got.shift, shift);
  EXPECT_EQ(got.errorBound, bound);
  for (size_t i = 0; i < b.size(); ++i)
    // times 2^shift, not <<: a negative left shift is undefined before C++20
    EXPECT_LE(std::llabs(int64_t(b[i]) - int64_t(got.values[i]) * (int64_t(1) << shift)), bound)
        << b[i];
}

TEST(NvdlaScale, BiasFitsWithoutShift) {
  expectBias({100, -200}, BiasRounding::Floor, {100, -200}, 0, 0);
  expectBias({32767, -32768}, BiasRounding::Nearest, {32767, -32768}, 0, 0);
  expectBias({}, BiasRounding::Floor, {}, 0, 0);
}

TEST(NvdlaScale, BiasShift) {
  // 32768 needs shift 1: 16384 (NVIDIA's ceil(log2 32768) + 1 - 16 = 0 wraps it)
  expectBias({32768}, BiasRounding::Floor, {16384}, 1, 1);
  // 65535, -3 at shift 1: floor 32767, -2 (bound 1); nearest 32767.5 -> 32768
  // does not fit, shift 2: 16383.75 -> 16384, -0.75 -> -1 (bound 2)
  expectBias({65535, -3}, BiasRounding::Floor, {32767, -2}, 1, 1);
  expectBias({65535, -3}, BiasRounding::Nearest, {16384, -1}, 2, 2);
  // ties: 32769 / 2 = 16384.5 -> 16385 and -16385 nearest; floor 16384, -16385
  expectBias({32769, -32769}, BiasRounding::Nearest, {16385, -16385}, 1, 1);
  expectBias({32769, -32769}, BiasRounding::Floor, {16384, -16385}, 1, 1);
}

TEST(NvdlaScale, BiasInt32Extremes) {
  // floor: shift 16, 32767 and -32768, bound 65535; nearest: (2^31 - 1) / 2^16
  // rounds to 32768, so shift 17: 16384 and -16384, bound 65536
  expectBias({INT32_MAX, INT32_MIN}, BiasRounding::Floor, {32767, -32768}, 16, 65535);
  expectBias({INT32_MAX, INT32_MIN}, BiasRounding::Nearest, {16384, -16384}, 17, 65536);
}

} // namespace

namespace {

TEST(NvdlaScaleTest, TwoStageScalesHoldTheFactors) {
  // Per-channel factors over a 2^10 spread: every product of the two int16s
  // is within 2^-18 of factor * 2^total (the smallest targets are ~2^20,
  // whole products), where one shared-shift int16 keeps only 15 - 10 bits
  // for the smallest (2^-6).
  std::vector<double> factors;
  for (int c = 0; c < 40; ++c)
    factors.push_back(std::ldexp(1.0 + 0.0173 * c, -12 - c / 4));
  dlaformat::Expected<TwoStageScales> s = twoStageScalesFromFactors(factors, 12);
  ASSERT_TRUE(s.ok()) << s.message();
  const int total = s->firstShift + s->secondShift + s->fractionBits;
  EXPECT_EQ(s->secondShift, 15);
  EXPECT_EQ(s->fractionBits, 12);
  for (size_t c = 0; c < factors.size(); ++c) {
    const double want = std::ldexp(factors[c], total);
    const double got = double(s->first[c]) * double(s->second[c]);
    EXPECT_LE(std::fabs(got - want), want * std::ldexp(1.0, -18)) << "channel " << c;
  }
}

TEST(NvdlaScaleTest, TwoStageScalesExamples) {
  // 1431655765 2^-38 (TOSA's multiplier for 1/192) at total shift 37:
  // 715827882.5; 32767 x 21846 = 715827882 is the nearest int16 product.
  dlaformat::Expected<TwoStageScales> s =
      twoStageScalesFromFactors({std::ldexp(1431655765.0, -38)}, 12);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->first[0], 32767);
  EXPECT_EQ(s->second[0], 21846);
  EXPECT_EQ(s->firstShift, 10);
  // A large factor takes its shift from the fraction bits first.
  dlaformat::Expected<TwoStageScales> big = twoStageScalesFromFactors({100.0}, 12);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->firstShift, 0);
  EXPECT_EQ(big->fractionBits, 8);
  EXPECT_NEAR(double(big->first[0]) * big->second[0], std::ldexp(100.0, 23),
              std::ldexp(100.0, 23 - 24));
  // Zero factors stay zero; huge and non-finite ones are errors.
  dlaformat::Expected<TwoStageScales> zero = twoStageScalesFromFactors({0.0, 0.5}, 12);
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(zero->first[0], 0);
  EXPECT_FALSE(twoStageScalesFromFactors({NAN}, 12).ok());
  EXPECT_FALSE(twoStageScalesFromFactors({std::ldexp(1.0, 40)}, 12).ok());
  EXPECT_FALSE(twoStageScalesFromFactors({}, 12).ok());
  // A negative factor: the positive one's pair with X2's int16 negated,
  // the shifts set by the largest magnitude.
  dlaformat::Expected<TwoStageScales> mixed =
      twoStageScalesFromFactors({std::ldexp(1431655765.0, -38), -std::ldexp(1431655765.0, -38)}, 12);
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->first[1], 32767);
  EXPECT_EQ(mixed->second[1], -21846);
  EXPECT_EQ(mixed->second[0], 21846);
  EXPECT_EQ(mixed->firstShift, 10);
}

} // namespace
