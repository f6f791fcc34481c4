//===- NvdlaRegistersTest.cpp - The register table's PDP and CDMA rows ---===//

#include "dla/Format/NvdlaPdp.h"
#include "dla/Format/NvdlaRegisters.h"

#include <cmath>

#include <gtest/gtest.h>

using namespace dlaformat::nvdla;

namespace {

TEST(NvdlaRegistersTest, PadValuesCountEachPosition) {
  constexpr std::array<int64_t, 7> values = pdpPadValues(-5);
  EXPECT_EQ(values, (std::array<int64_t, 7>{-5, -10, -15, -20, -25, -30, -35}));
  // An int16 extreme times 7 still fits the 19-bit registers.
  for (auto [n, value] : {std::pair{0, pdpPadValues(-32768)[6]}, {6, pdpPadValues(32767)[6]}})
    EXPECT_TRUE(kPdpPadValue[n].holds(value)) << value;
  EXPECT_EQ(kPdpPadValue[2].name, "PAD_VALUE_3X");
}

TEST(NvdlaRegistersTest, Widths) {
  // NVDLA_PDP.rdl [16:0] unsigned, [18:0] read signed; NVDLA_CDMA.rdl
  // 16-bit signed offset, scale and means, CVT_TRUNCATE [9:4].
  EXPECT_EQ(kPdpRecipKernelWidth.hi, (int64_t(1) << 17) - 1);
  EXPECT_FALSE(kPdpRecipKernelHeight.holds(-1));
  EXPECT_EQ(kPdpPadValue[0].lo, -(int64_t(1) << 18));
  EXPECT_EQ(kPdpPadValue[6].hi, (int64_t(1) << 18) - 1);
  EXPECT_EQ(kCdmaCvtTruncate.hi, 63);
  EXPECT_TRUE(kCdmaCvtOffset.holds(-32768) && !kCdmaCvtOffset.holds(32768));
  EXPECT_FALSE(kCdmaCvtScale.holds(-32769));
  EXPECT_EQ(kCdmaMean[3].name, "MEAN_AX");
}

TEST(NvdlaRegistersTest, PdpMaxFlyingWidth) {
  // NVIDIA's compiler (PDPNode.cpp calculateMaxWidth): 57,344 bits over
  // RTL overlap lines x kernels per group x 14 (int8) or 28 bits.
  // nv_small int8 (8 kernels): 3x3 at stride 1 keeps 3 lines, 4 in RTL.
  EXPECT_EQ(pdpMaxFlyingWidth(8, true, 3, 1), 57344 / (4 * 8 * 14));
  EXPECT_EQ(pdpMaxFlyingWidth(8, true, 3, 1), 128);
  // Stride 2: ceil(3 / 2) = 2 lines, 2 in RTL; stride 3: 1.
  EXPECT_EQ(pdpMaxFlyingWidth(8, true, 3, 2), 256);
  EXPECT_EQ(pdpMaxFlyingWidth(8, true, 3, 3), 512);
  // 5 lines round up to 8; nv_large int16 (16 kernels, 28 bits).
  EXPECT_EQ(pdpMaxFlyingWidth(32, true, 5, 1), 57344 / (8 * 32 * 14));
  EXPECT_EQ(pdpMaxFlyingWidth(16, false, 8, 1), 57344 / (8 * 16 * 28));
}

// NVIDIA's split by width (PDPNode.cpp pdpHWSplitWidth), worked by hand
// against its verifySplitWInfo: first + mid * (n - 2) + last = out;
// firstIn + padLeft = (firstOut - 1) * sx + kw; midIn + (kw - sx) =
// (midOut - 1) * sx + kw; lastIn + rightPad + (kw - sx) = (lastOut - 1) *
// sx + kw.
TEST(NvdlaRegistersTest, PdpSplit) {
  // One pass: no split.
  std::optional<PdpSplit> one = planPdpSplit(10, 8, 3, 1, 0, 128);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->splits, 1);
  // 132 -> 130 columns, 3x3 at stride 1, 128 a pass: 128 + 2; the first
  // reads 130 columns, the last 2 new ones after re-reading 2.
  std::optional<PdpSplit> two = planPdpSplit(132, 130, 3, 1, 0, 128);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->splits, 2);
  EXPECT_EQ(two->firstOut, 128);
  EXPECT_EQ(two->lastOut, 2);
  EXPECT_EQ(two->firstIn, 130);
  EXPECT_EQ(two->lastIn, 2);
  EXPECT_EQ(two->rightPad, 0);
  // 300 -> 298: 128 + 128 + 42, reading 130, 128, 42 new columns.
  std::optional<PdpSplit> three = planPdpSplit(300, 298, 3, 1, 0, 128);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->splits, 3);
  EXPECT_EQ(three->midOut, 128);
  EXPECT_EQ(three->lastOut, 42);
  EXPECT_EQ(three->midIn, 128);
  EXPECT_EQ(three->lastIn, 42);
  // Right padding 2 of a 3-wide window, 10 columns, 9 a pass: the last
  // pass of 1 window would read 1 + 3 - 2 - 2 = 0 new columns, so the
  // passes are rebalanced: the last takes 1 new column and 3 windows.
  std::optional<PdpSplit> rebalanced = planPdpSplit(10, 10, 3, 1, 0, 9);
  ASSERT_TRUE(rebalanced);
  EXPECT_EQ(rebalanced->rightPad, 2);
  EXPECT_EQ(rebalanced->lastIn, 1);
  EXPECT_EQ(rebalanced->lastOut, 3);
  EXPECT_EQ(rebalanced->firstOut, 7);
  EXPECT_EQ(rebalanced->firstIn, 9);
  // Windows past the input's last column read none of it: the right
  // padding the last pass reaches is 0, not negative (NVIDIA's -1).
  std::optional<PdpSplit> gap = planPdpSplit(10, 4, 3, 2, 0, 3);
  ASSERT_TRUE(gap);
  EXPECT_EQ(gap->rightPad, 0);
  EXPECT_EQ(gap->lastIn, (1 - 1) * 2 + 3 - 0 - 1);
}

TEST(NvdlaRegistersTest, PdpReciprocals) {
  // NVIDIA's firmware: floor(2^16 / k) per dimension.
  EXPECT_EQ(pdpFirmwareReciprocals(3, 2).width, 32768);
  EXPECT_EQ(pdpFirmwareReciprocals(3, 2).height, 21845);
  // One rounding: width 2^16 (times 1), height 2^16 / (kh kw) to nearest:
  // 65536 / 9 = 7281.8, / 6 = 10922.7, / 3 = 21845.3, / 4 exact.
  EXPECT_EQ(pdpSingleRoundingReciprocals(3, 3).width, 65536);
  EXPECT_EQ(pdpSingleRoundingReciprocals(3, 3).height, 7282);
  EXPECT_EQ(pdpSingleRoundingReciprocals(2, 3).height, 10923);
  EXPECT_EQ(pdpSingleRoundingReciprocals(1, 3).height, 21845);
  EXPECT_EQ(pdpSingleRoundingReciprocals(2, 2).height, 16384);
  EXPECT_TRUE(kPdpRecipKernelWidth.holds(pdpSingleRoundingReciprocals(1, 1).width));
  EXPECT_EQ(kCdmaPadValueInt8.lo, -128);
  EXPECT_EQ(kCdmaPadValue.hi, 32767);
}

TEST(NvdlaRegistersTest, PdpReciprocalsAsFirmware) {
  // The PDP's average, RHA(RHA(S * w, 16) * h, 16) with round half away
  // from zero (NVDLA_PDP.rdl; int_pdp.py from NVIDIA's C model), written
  // here again with floating division and brute-forced over every int8
  // window sum: single rounding computes as the firmware's table exactly
  // where pdpComputesAsFirmware says so.
  auto rha = [](double v) { return v >= 0 ? std::floor(v + 0.5) : -std::floor(-v + 0.5); };
  auto avg = [&](PdpReciprocals r, int64_t s) {
    return rha(rha(double(s) * double(r.width) / 65536.0) * double(r.height) / 65536.0);
  };
  int same = 0;
  for (int64_t kh = 1; kh <= 8; ++kh)
    for (int64_t kw = 1; kw <= 8; ++kw) {
      const PdpReciprocals single = pdpSingleRoundingReciprocals(kh, kw);
      const PdpReciprocals table = pdpFirmwareReciprocals(kh, kw);
      bool equal = true;
      for (int64_t s = -128 * kh * kw; s <= 127 * kh * kw && equal; ++s)
        equal = avg(single, s) == avg(table, s);
      const PdpSums int8Sums = pdpWindowSums(kh, kw, 8, /*padValues=*/false);
      EXPECT_EQ(int8Sums.min, -128 * kh * kw);
      EXPECT_EQ(int8Sums.max, 127 * kh * kw);
      EXPECT_EQ(pdpComputesAsFirmware(single, kh, kw, int8Sums), equal) << kh << "x" << kw;
      EXPECT_TRUE(pdpComputesAsFirmware(table, kh, kw, int8Sums));
      same += equal;
    }
  // One-dimensional windows but k = 6 (round(65536 / 6) = 10923, the
  // table's 10922): 2 x 7 - 1 = 13; and 11 two-dimensional ones on int8
  // sums (3x3 and 6x2 among them).
  EXPECT_EQ(same, 24);
  auto int8 = [](int64_t kh, int64_t kw) { return pdpWindowSums(kh, kw, 8, false); };
  EXPECT_TRUE(pdpComputesAsFirmware(pdpSingleRoundingReciprocals(3, 3), 3, 3, int8(3, 3)));
  EXPECT_FALSE(pdpComputesAsFirmware(pdpSingleRoundingReciprocals(2, 2), 2, 2, int8(2, 2)));
  EXPECT_FALSE(pdpComputesAsFirmware(pdpSingleRoundingReciprocals(1, 6), 1, 6, int8(1, 6)));
  EXPECT_FALSE(pdpComputesAsFirmware({65536, 100}, 1, 3, int8(1, 3)));
  // Padding values reach every sum the int16 line buffer holds: 3x3's
  // single rounding then differs (e.g. at -32764: -3641 vs the table's
  // -3640), a one-dimensional window's still agrees.
  const PdpSums line = pdpWindowSums(3, 3, 8, /*padValues=*/true);
  EXPECT_EQ(line.min, -32768);
  EXPECT_EQ(line.max, 32767);
  EXPECT_EQ(avg(pdpSingleRoundingReciprocals(3, 3), -32764), -3641);
  EXPECT_EQ(avg(pdpFirmwareReciprocals(3, 3), -32764), -3640);
  EXPECT_FALSE(pdpComputesAsFirmware(pdpSingleRoundingReciprocals(3, 3), 3, 3, line));
  EXPECT_TRUE(pdpComputesAsFirmware(pdpSingleRoundingReciprocals(1, 3), 1, 3,
                                    pdpWindowSums(1, 3, 8, true)));
}

TEST(NvdlaRegistersTest, LayerGeometry) {
  // NVDLA_PDP.rdl: KERNEL_WIDTH_1..8, stride - 1 in 4 bits, 3-bit padding.
  EXPECT_TRUE(kPdpKernelWidth.holds(8) && !kPdpKernelWidth.holds(9) && !kPdpKernelWidth.holds(0));
  EXPECT_EQ(kPdpKernelHeight.why, "4-bit enum KERNEL_HEIGHT_1..8");
  EXPECT_TRUE(kPdpStrideHeight.holds(16) && !kPdpStrideWidth.holds(17));
  EXPECT_TRUE(kPdpPadding[3].holds(7) && !kPdpPadding[0].holds(8));
  EXPECT_EQ(kPdpPadding[2].name, "PAD_LEFT");
  // NVDLA_CDP.rdl NORMALZ_LEN: odd lengths 3..9 only.
  for (int64_t n : {3, 5, 7, 9})
    EXPECT_TRUE(kCdpNormalzLen.holds(n)) << n;
  for (int64_t n : {1, 2, 4, 8, 10, 11})
    EXPECT_FALSE(kCdpNormalzLen.holds(n)) << n;
  // NVDLA_CSC.rdl / NVDLA_CDMA.rdl.
  EXPECT_TRUE(kConvStrideX.holds(8) && !kConvStrideY.holds(9));
  EXPECT_TRUE(kConvDilationY.holds(32) && !kConvDilationX.holds(33));
  EXPECT_TRUE(kConvWeightWidth.holds(32) && !kConvWeightHeight.holds(33));
  EXPECT_EQ(kConvPadding[0].hi, 31); // PAD_TOP [20:16]
  EXPECT_EQ(kConvPadding[1].hi, 63); // PAD_BOTTOM [29:24]
  EXPECT_EQ(kConvPadding[2].hi, 31); // PAD_LEFT [4:0]
  EXPECT_EQ(kConvPadding[3].hi, 63); // PAD_RIGHT [13:8]
  // Fields without a step keep holding every value of their range.
  EXPECT_TRUE(kCdmaCvtTruncate.holds(1));
}

} // namespace
