//===- NvdlaFeatureReshapeTest.cpp - reshapes of feature data in place ----===//
//
// Expected offsets and strides from NvdlaFeature.h's formula, written out
// by hand: byte (n,c,h,w) = n*batch + (c/E)*surface + h*line + w*atom +
// (c%E)*bytes, never from the code under test.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFeature.h"

#include <gtest/gtest.h>

using namespace dlaformat::nvdla;

namespace {

std::unique_ptr<FeatureBoundLayout> bindOk(const FeatureConfig &config,
                                           const std::vector<int64_t> &shape) {
  auto b = FeatureBoundLayout::bind(config, shape);
  EXPECT_TRUE(b.ok()) << b.message();
  return b.ok() ? std::move(*b) : nullptr;
}

FeatureConfig smallInt8() {
  FeatureConfig c;
  c.precision = Precision::Int8;
  c.hardware = HardwareKind::NvSmall;
  return c;
}

// The recognizer's k_h: 16 channels x 40 keys in one row on nv_small
// (8-byte atoms of 8 int8 channels): surfaces of 40 x 8 = 320 bytes. Read as
// 5 x 8 keys: lines of 8 x 8 = 64 bytes over the same surfaces.
TEST(NvdlaFeatureReshape, OneRowOfKeysIsFiveLinesOfEight) {
  auto source = bindOk(smallInt8(), {1, 16, 1, 40});
  ASSERT_TRUE(source);
  std::optional<FeatureConfig> view = getInPlaceReshape(*source, 5, 8);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->lineStride, 64);
  EXPECT_EQ(view->surfaceStride, 320);
  auto bound = bindOk(*view, {1, 16, 5, 8});
  ASSERT_TRUE(bound);
  EXPECT_TRUE(keepsBytesInPlace(*source, *bound));
  // Key 19 of channel 11: surface 1, atom 19, byte 3 in both.
  EXPECT_EQ(bound->getCube().getByteOffset(0, 11, 2, 3), 320 + 19 * 8 + 3);
  EXPECT_EQ(source->getCube().getByteOffset(0, 11, 0, 19), 320 + 19 * 8 + 3);
}

// Lines with a gap (line stride 2 atoms more than W x 32 on nv_full): a
// row of the new width would have to step over it.
TEST(NvdlaFeatureReshape, LinesWithGapsHaveNoView) {
  FeatureConfig c;
  c.precision = Precision::Int8;
  c.hardware = HardwareKind::NvFull;
  c.lineStride = 6 * 32;
  auto source = bindOk(c, {1, 8, 2, 4});
  ASSERT_TRUE(source);
  EXPECT_FALSE(getInPlaceReshape(*source, 1, 8));
  // The packed 1 x 8 map holds the same bytes in another place.
  FeatureConfig full = c;
  full.lineStride.reset();
  auto other = bindOk(full, {1, 8, 1, 8});
  ASSERT_TRUE(other);
  EXPECT_FALSE(keepsBytesInPlace(*source, *other));
}

// Different positions, channels or precision: never in place.
TEST(NvdlaFeatureReshape, ShapesThatDifferAreRefused) {
  auto source = bindOk(smallInt8(), {1, 16, 1, 40});
  ASSERT_TRUE(source);
  EXPECT_FALSE(getInPlaceReshape(*source, 6, 8));
  EXPECT_FALSE(getInPlaceReshape(*source, 0, 40));
  auto channels = bindOk(smallInt8(), {1, 8, 2, 40});
  ASSERT_TRUE(channels);
  EXPECT_FALSE(keepsBytesInPlace(*source, *channels));
}

} // namespace
