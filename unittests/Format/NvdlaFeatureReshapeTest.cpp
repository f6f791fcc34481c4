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

// Packed feature data (the layers' own results) has no gap between its
// lines, and its atom is the configuration's memory atom, which is also the
// line stride's alignment: any H' x W' of the same positions reads every
// byte in place with lines of W' atoms over the same surfaces. So a reshape
// of a layer's positions always has a view (ReshapeViews.cpp relies on
// it), on every configuration and precision it has, channel counts whole
// or partial in their atoms, every factorization of 1 to 24 positions.
TEST(NvdlaFeatureReshape, PackedSourcesRegroupInPlace) {
  for (HardwareKind kind : {HardwareKind::NvFull, HardwareKind::NvLarge, HardwareKind::NvSmall})
    for (Precision precision : {Precision::Int8, Precision::Int16, Precision::Fp16}) {
      if (!getHardwareConfig(kind).hasPrecision(precision))
        continue;
      FeatureConfig c;
      c.precision = precision;
      c.hardware = kind;
      for (int64_t channels : {1, 8, 9, 16, 33, 64, 65})
        for (int64_t positions = 1; positions <= 24; ++positions)
          for (int64_t h = 1; h <= positions; ++h) {
            if (positions % h != 0)
              continue;
            auto source = bindOk(c, {2, channels, h, positions / h});
            ASSERT_TRUE(source);
            for (int64_t h2 = 1; h2 <= positions; ++h2) {
              if (positions % h2 != 0)
                continue;
              const int64_t w2 = positions / h2;
              std::optional<FeatureConfig> view = getInPlaceReshape(*source, h2, w2);
              ASSERT_TRUE(view) << "config " << static_cast<int>(kind) << " precision "
                                << static_cast<int>(precision) << ": " << channels << "x" << h
                                << "x" << positions / h << " as " << h2 << "x" << w2;
              // Lines of W' memory atoms over surfaces of H x W of them.
              const int64_t atom = getHardwareConfig(kind).caps.memoryAtomBytes;
              EXPECT_EQ(view->lineStride, w2 * atom);
              EXPECT_EQ(view->surfaceStride, positions * atom);
            }
          }
    }
}

} // namespace
