//===- NvdlaWeightStreamTest.cpp - Feature data that is a weight stream --===//
//
// getWeightStreamFeature's encoding against the direct weight format: every
// element of the [1, C, H, 8] map lies at the byte of weight (8 h + w, c,
// 0, 0), both layouts computed by their own code (NvdlaFeature.cpp,
// NvdlaWeightDirect.cpp); and the refusals.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaWeight.h"
#include "dla/Format/NvdlaWeightStream.h"

#include <gtest/gtest.h>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

TEST(NvdlaWeightStream, FeatureBytesAreWeightBytes) {
  for (int64_t c : {8, 16, 24, 40})
    for (int64_t h : {1, 2, 5}) {
      const std::vector<int64_t> shape{1, c, h, 8};
      Expected<FeatureConfig> config =
          getWeightStreamFeature(HardwareKind::NvSmall, Precision::Int8, shape);
      ASSERT_TRUE(config.ok()) << config.message();
      auto feature = FeatureBoundLayout::bind(*config, shape);
      ASSERT_TRUE(feature.ok()) << feature.message();
      WeightParams params;
      params.format = WeightFormat::Direct;
      params.precision = Precision::Int8;
      params.hardware = getHardwareConfig(HardwareKind::NvSmall);
      const std::vector<int64_t> wshape = getWeightStreamShape(shape);
      params.shape = WeightShape{wshape[0], wshape[1], wshape[2], wshape[3]};
      auto weight = NvdlaWeightLayout::create(params);
      ASSERT_TRUE(weight.ok()) << weight.message();
      EXPECT_EQ((*feature)->getStorageBytes(), weight->getStorageBytes()) << c << "x" << h;
      for (int64_t ch = 0; ch < c; ++ch)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < 8; ++x) {
            Expected<int64_t> f = (*feature)->getByteOffset({0, ch, y, x});
            Expected<int64_t> w = weight->getByteOffset(8 * y + x, ch, 0, 0);
            ASSERT_TRUE(f.ok() && w.ok());
            ASSERT_EQ(*f, *w) << "C " << c << " H " << h << " at " << ch << "," << y << "," << x;
          }
      // Interleaved exactly when there are two surfaces and two lines.
      EXPECT_EQ(config->surfaceStride.has_value(), c > 8 && h > 1);
      if (config->surfaceStride) {
        EXPECT_EQ(*config->surfaceStride, 64);
        EXPECT_EQ(*config->lineStride, c * 8);
      }
    }
}

TEST(NvdlaWeightStream, Refusals) {
  auto why = [](HardwareKind hw, Precision p, std::vector<int64_t> shape) {
    Expected<FeatureConfig> config = getWeightStreamFeature(hw, p, shape);
    return config.ok() ? std::string("ok") : config.message();
  };
  EXPECT_EQ(why(HardwareKind::NvSmall, Precision::Int8, {1, 12, 5, 8}),
            "a map read as 1x1 convolution weights has 12 channels, not a positive multiple of "
            "8: the weight stream packs a short last channel block, the feature cube pads its "
            "atom");
  EXPECT_EQ(why(HardwareKind::NvSmall, Precision::Int8, {1, 16, 5, 4}),
            "a map read as 1x1 convolution weights is 4 positions wide, not 8: a line of atoms "
            "must be one kernel group of atomic-K kernels");
  EXPECT_EQ(why(HardwareKind::NvSmall, Precision::Int8, {2, 16, 5, 8}),
            "a map read as 1x1 convolution weights holds one batch, got N = 2");
  EXPECT_EQ(why(HardwareKind::NvLarge, Precision::Int8, {1, 64, 5, 32}),
            "a map read as 1x1 convolution weights needs a memory atom of atomic-C channels and "
            "atomic-C = atomic-K; nv_large has atoms of 32 channels, atomic-C 64, atomic-K 32 "
            "(nv_small has 8, 8, 8)");
  EXPECT_NE(why(HardwareKind::NvFull, Precision::Int16, {1, 16, 5, 8}), "ok");
}

} // namespace
