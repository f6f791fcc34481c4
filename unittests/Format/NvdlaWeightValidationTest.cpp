//===- NvdlaWeightValidationTest.cpp - Configurations, names, errors -----===//

#include "NvdlaWeightTestUtil.h"

#include <gtest/gtest.h>

#include <limits>

using namespace nvdla_weight_test;

namespace {

TEST(NvdlaWeightValidation, HardwareConfigurations) {
  const HardwareConfig &full = getHardwareConfig(HardwareKind::NvFull);
  EXPECT_EQ(full.name, "nv_full");
  EXPECT_EQ(full.atomicC, 64);
  EXPECT_EQ(full.atomicK, 32);
  EXPECT_EQ(full.weightBufferEntryBytes, 128);
  const HardwareConfig &large = getHardwareConfig(HardwareKind::NvLarge);
  EXPECT_EQ(large.name, "nv_large");
  EXPECT_EQ(large.atomicC, 64);
  EXPECT_EQ(large.atomicK, 32);
  EXPECT_EQ(large.weightBufferEntryBytes, 64);
  const HardwareConfig &small = getHardwareConfig(HardwareKind::NvSmall);
  EXPECT_EQ(small.name, "nv_small");
  EXPECT_EQ(small.atomicC, 8);
  EXPECT_EQ(small.atomicK, 8);
  EXPECT_EQ(small.weightBufferEntryBytes, 8);
  EXPECT_EQ(getDefaultHardwareConfig().kind, HardwareKind::NvFull);
  EXPECT_EQ(WeightParams().hardware.kind, HardwareKind::NvFull);
  EXPECT_EQ(enumCount<HardwareKind>(), 3u);

  EXPECT_EQ(full.getKernelsPerGroup(Precision::Int8), 32);
  EXPECT_EQ(full.getKernelsPerGroup(Precision::Int16), 16);
  EXPECT_EQ(full.getKernelsPerGroup(Precision::Fp16), 16);
  EXPECT_EQ(small.getKernelsPerGroup(Precision::Int8), 8);
  EXPECT_EQ(small.getKernelsPerGroup(Precision::Fp16), 4);

  auto found = lookupHardwareConfig("nv_large");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->kind, HardwareKind::NvLarge);
  auto missing = lookupHardwareConfig("nv_huge");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.message(),
            "unknown NVDLA hardware configuration 'nv_huge' (known: nv_full, nv_large, nv_small)");
}

TEST(NvdlaWeightValidation, Names) {
  for (WeightFormat f : enumValues<WeightFormat>())
    EXPECT_EQ(parseEnum<WeightFormat>(enumName(f)), f);
  // One keyword (the dialect's), the long name only in messages.
  EXPECT_EQ(enumName(WeightFormat::Deconvolution), "deconv");
  EXPECT_EQ(enumProse(WeightFormat::Deconvolution), "deconvolution");
  EXPECT_FALSE(parseEnum<WeightFormat>("deconvolution"));
  EXPECT_FALSE(parseEnum<WeightFormat>("dc"));
  for (PostExtension p : enumValues<PostExtension>())
    EXPECT_EQ(parseEnum<PostExtension>(enumName(p)), p);
  EXPECT_FALSE(parseEnum<PostExtension>("3"));
  EXPECT_EQ(enumProse(Fp16Rounding::TiesToEven), "ties-to-even");
  EXPECT_EQ(enumProse(Fp16Rounding::TiesAwayFromZero), "ties-away-from-zero");
  EXPECT_EQ(parseEnum<Fp16Rounding>("to_nearest_away"), Fp16Rounding::TiesAwayFromZero);
}

std::string createError(const WeightParams &params) {
  auto layout = NvdlaWeightLayout::create(params);
  return layout ? std::string("<valid>") : layout.message();
}

TEST(NvdlaWeightValidation, Messages) {
  EXPECT_EQ(createError(makeParams(WeightFormat::Direct, Precision::Int8, 0, 3, 3, 3)),
            "weight shape K x C x R x S must be positive in every dimension, got 0x3x3x3");
  EXPECT_EQ(createError(makeParams(WeightFormat::Direct, Precision::Int8, 4, 3, -1, 3)),
            "weight shape K x C x R x S must be positive in every dimension, got 4x3x-1x3");

  WeightParams p = makeParams(WeightFormat::Deconvolution, Precision::Fp16, 4, 3, 3, 3);
  p.strideX = 0;
  EXPECT_EQ(createError(p), "strides must be positive, got stride x 0 and stride y 1");

  p = makeParams(WeightFormat::Direct, Precision::Fp16, 4, 3, 3, 3);
  p.hardware.atomicK = 7;
  p.hardware.name = "custom";
  EXPECT_EQ(createError(p), "hardware configuration 'custom' is invalid: atomic-C 64, atomic-K 7 "
                            "(must be even), weight-buffer entry 128 B");

  p = makeParams(WeightFormat::Direct, Precision::Fp16, 4, 3, 3, 3);
  p.postExtension = PostExtension::Four;
  EXPECT_EQ(createError(p),
            "channel post-extension 4 is not supported for direct weights: the format "
            "document's weight-format table marks post-extension 'NOT support' for direct "
            "convolution, Winograd and deconvolution; it is an option of image-input weights "
            "only");

  const int64_t big = int64_t(1) << 31;
  EXPECT_EQ(createError(makeParams(WeightFormat::Direct, Precision::Fp16, big, big, 4, 4)),
            "storage size of direct fp16 weights 2147483648x2147483648x4x4 (KCRS) overflows a "
            "64-bit integer");
  WeightParams hugeDeconv = makeParams(WeightFormat::Deconvolution, Precision::Int8, 1, 1, 1, 1);
  hugeDeconv.strideX = hugeDeconv.strideY = 4096;
  EXPECT_NE(createError(hugeDeconv).find("too many"), std::string::npos);

  // Sizes are available without packing, and without building copy programs,
  // even for shapes too large to allocate.
  auto huge = NvdlaWeightLayout::create(
      makeParams(WeightFormat::Direct, Precision::Fp16, 1 << 20, 1 << 20, 3, 3));
  ASSERT_TRUE(huge);
  EXPECT_EQ(huge->getStorageBytes(), (int64_t(1) << 40) * 18);
}

TEST(NvdlaWeightValidation, BufferChecks) {
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Fp16, 4, 3, 3, 3));
  ASSERT_TRUE(layout);
  std::vector<unsigned char> logical(4 * 3 * 9 * 2), storage(256);
  Status s = layout->pack(logical.data(), 10, storage.data(), 256);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "pack: direct fp16 weights 4x3x3x3 (KCRS) need 216 bytes of KCRS data, "
                         "got 10");
  s = layout->pack(logical.data(), static_cast<int64_t>(logical.size()), storage.data(), 100);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "pack: the storage image of direct fp16 weights 4x3x3x3 (KCRS) is 256 "
                         "bytes, the buffer has only 100");
  EXPECT_FALSE(layout->pack(nullptr, 216, storage.data(), 256));
  std::vector<float> fp32(108);
  EXPECT_TRUE(layout->packFp32(fp32.data(), 108, storage.data(), 256));
  EXPECT_FALSE(layout->packFp32(fp32.data(), 107, storage.data(), 256));

  auto int8 = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Int8, 4, 3, 3, 3));
  ASSERT_TRUE(int8);
  s = int8->packFp32(fp32.data(), 108, storage.data(), 256);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("packFp32 converts fp32 weights to fp16"), std::string::npos);
}

} // namespace

// The shape-independent rules #dla.weight's verifier shares with create().
TEST(NvdlaWeightValidation, OptionsWithoutShape) {
  WeightParams p;
  p.format = WeightFormat::Direct;
  p.precision = Precision::Int8;
  EXPECT_TRUE(validateWeightOptions(p));
  p.strideX = 2;
  EXPECT_EQ(validateWeightOptions(p).message(),
            "direct weights take no stride (image, Winograd and deconvolution weights do), got "
            "stride x 2 and stride y 1");
  p = WeightParams();
  p.format = WeightFormat::Deconvolution;
  p.precision = Precision::Int8;
  p.strideX = 3;
  EXPECT_TRUE(validateWeightOptions(p));
  // The default (ties away from zero) is every precision's; another rounding
  // is fp16's only.
  EXPECT_TRUE(validateWeightOptions(p, kDefaultWeightRounding));
  EXPECT_EQ(validateWeightOptions(p, Fp16Rounding::TiesToEven).message(),
            "rounding ties-to-even applies to fp16 weights only, not to int8 weights");
  p.precision = Precision::Fp16;
  EXPECT_TRUE(validateWeightOptions(p, Fp16Rounding::TiesToEven));
  // create() runs the same rules first.
  p = makeParams(WeightFormat::Direct, Precision::Fp16, 4, 3, 3, 3);
  p.strideY = 2;
  EXPECT_EQ(createError(p), validateWeightOptions(p).message());
}
