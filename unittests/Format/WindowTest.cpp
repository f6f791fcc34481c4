//===- WindowTest.cpp - Checked window arithmetic of conv and pooling -----===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/Window.h"

#include <gtest/gtest.h>

#include <limits>

using namespace dlaformat;

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(WindowTest, ExactExtents) {
  // A 3-tap kernel dilated by 2 spans 5 inputs; 7 + 1 + 1 padded inputs hold
  // (9 - 5) / 2 + 1 = 3 positions.
  EXPECT_EQ(dilatedExtent(3, 2), 5);
  EXPECT_EQ(dilatedExtent(1, kMax), 1);
  EXPECT_EQ(paddedExtent(7, 1, 1), 9);
  EXPECT_EQ(windowPositions(9, 5, 2), 3);
  EXPECT_EQ(windowPositions(5, 5, 7), 1);
  EXPECT_EQ(windowPositions(4, 5, 1), std::nullopt);
  // The largest input: no intermediate step may overflow.
  EXPECT_EQ(windowPositions(kMax, 1, 1), kMax);
  EXPECT_EQ(windowPositions(kMax, 1, 2), int64_t(1) << 62);
}

TEST(WindowTest, OverflowIsReported) {
  // (5 - 1) * 2^62 + 1 once wrapped to 1: a 5x5 kernel taken as 1x1.
  EXPECT_EQ(dilatedExtent(5, int64_t(1) << 62), std::nullopt);
  EXPECT_EQ(dilatedExtent(2, kMax - 1), kMax);
  EXPECT_EQ(dilatedExtent(2, kMax), std::nullopt);
  EXPECT_EQ(dilatedExtent(3, kMax), std::nullopt);
  EXPECT_EQ(paddedExtent(8, kMax, kMax), std::nullopt);
  EXPECT_EQ(paddedExtent(0, kMax, 1), std::nullopt);
  EXPECT_EQ(paddedExtent(1, kMax - 1, 0), kMax);
}

TEST(WindowTest, StrideExtension) {
  EXPECT_EQ(strideExtendedExtent(5, 2), 3);
  EXPECT_EQ(strideExtendedExtent(6, 2), 3);
  // (k + s - 1) / s wrapped to -1 here.
  EXPECT_EQ(strideExtendedExtent(5, kMax), 1);
  EXPECT_EQ(strideExtendedExtent(kMax, kMax), 1);
}

TEST(ChunkedImpliedRankTest, DimensionPlusOne) {
  EXPECT_EQ(*ChunkedLayout::impliedRank({}), 0);
  EXPECT_EQ(*ChunkedLayout::impliedRank({{0, 0}, {3, 0}, {1, 8}}), 4);
  Expected<int64_t> huge = ChunkedLayout::impliedRank({{0, 0}, {1, 0}, {kMax, 2}});
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.message(), "pair #2 (9223372036854775807, 2): dimension 9223372036854775807 "
                            "leaves no room for the rank (dimension + 1 overflows a 64-bit "
                            "integer)");
}
} // namespace
