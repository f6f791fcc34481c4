//===- NvdlaWeightImageTest.cpp - Image-input weights, post-extension ----===//

#include "NvdlaWeightTestUtil.h"

#include <gtest/gtest.h>

#include <limits>

using namespace nvdla_weight_test;

namespace {

uint16_t at16(const std::vector<unsigned char> &v, int64_t element) {
  uint16_t x;
  std::memcpy(&x, &v[static_cast<size_t>(2 * element)], 2);
  return x;
}

WeightParams imageParams(Precision precision, int64_t K, int64_t C, int64_t R, int64_t S,
                         int64_t P, PostExtension post = PostExtension::None,
                         const HardwareConfig &hw = getDefaultHardwareConfig()) {
  WeightParams p = makeParams(WeightFormat::Image, precision, K, C, R, S, hw);
  p.pixelChannels = P;
  p.postExtension = post;
  return p;
}

// format_dc_channel_extension_for_image_for_weight.png: a 5x5x3 int16 kernel
// (C = 6 bytes) becomes 1x5x15 (C = 30 bytes): row r of the extended kernel
// holds the pixels r*5 + 0 .. r*5 + 4 of the original row, each with its 3
// channels, in that order.
TEST(NvdlaWeightImage, FigurePreExtension) {
  const int64_t K = 2, C = 3, R = 5, S = 5;
  auto layout = NvdlaWeightLayout::create(imageParams(Precision::Int16, K, C, R, S, 3));
  ASSERT_TRUE(layout) << layout.message();
  std::vector<unsigned char> logical = iota(K * C * R * S, 2);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  // One kernel group, one channel block of 15 channels; per row, per kernel.
  int64_t e = 0;
  for (int64_t r = 0; r < 5; ++r)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t pixel = r * 5; pixel < r * 5 + 5; ++pixel)
        for (int64_t c = 0; c < 3; ++c, ++e)
          ASSERT_EQ(at16(storage, e), kcrs(C, R, S, k, c, pixel / 5, pixel % 5))
              << "row " << r << " kernel " << k << " pixel " << pixel << " channel " << c;
  EXPECT_EQ(e * 2, K * 15 * 5 * 2);
  EXPECT_EQ(layout->getStorageBytes(), 384); // 300 bytes padded to 128

  // A 4-channel pixel format pads C = 3 with a zero channel before extending.
  auto padded = NvdlaWeightLayout::create(imageParams(Precision::Int16, K, C, R, S, 4));
  ASSERT_TRUE(padded);
  storage = packBytes(*padded, logical);
  e = 0;
  for (int64_t r = 0; r < 5; ++r)
    for (int64_t k = 0; k < K; ++k)
      for (int64_t s = 0; s < 5; ++s)
        for (int64_t c = 0; c < 4; ++c, ++e)
          ASSERT_EQ(at16(storage, e), c < 3 ? kcrs(C, R, S, k, c, r, s) : 0);
}

// format_weight_channel_post_extension_2.png, parameter 2, C = 28, 16 kernels
// of 3 rows: K0_00 K0_03 K1_00 K1_03 ... K15_00 K15_03, then the short row
// group K0_06 K1_06 ... K15_06. Post-extension works on pre-extended kernels
// (one column of S*P channels), so a cube here is one kernel row of
// C' = S*P = 7*4 = 28 channels.
TEST(NvdlaWeightImage, FigurePostExtension2) {
  const int64_t K = 16, C = 4, R = 3, S = 7, P = 4;
  auto layout =
      NvdlaWeightLayout::create(imageParams(Precision::Fp16, K, C, R, S, P, PostExtension::Two));
  ASSERT_TRUE(layout) << layout.message();
  EXPECT_EQ(layout->getPostExtensionFactor(), 2);
  std::vector<unsigned char> logical = iota(K * C * R * S, 2);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  std::vector<std::pair<int64_t, int64_t>> cubes; // (kernel, row) in memory order
  for (int64_t k = 0; k < 16; ++k) {
    cubes.push_back({k, 0});
    cubes.push_back({k, 1});
  }
  for (int64_t k = 0; k < 16; ++k)
    cubes.push_back({k, 2});
  int64_t e = 0;
  for (auto [k, r] : cubes)
    for (int64_t ce = 0; ce < 28; ++ce, ++e)
      ASSERT_EQ(at16(storage, e), kcrs(C, R, S, k, ce % P, r, ce / P))
          << "cube K" << k << " row " << r << " channel " << ce;
  EXPECT_EQ(e, K * R * 28);
}

// Parameter 4: rows 0-3 form one super-cube, rows 4-5 the short last group.
TEST(NvdlaWeightImage, PostExtension4ShortLastGroup) {
  const int64_t K = 3, C = 3, R = 6, S = 4, P = 4; // C' = 16 = atomic-C / 4
  auto layout =
      NvdlaWeightLayout::create(imageParams(Precision::Int8, K, C, R, S, P, PostExtension::Four));
  ASSERT_TRUE(layout) << layout.message();
  std::vector<unsigned char> logical = iota(K * C * R * S, 1);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  int64_t e = 0;
  for (auto [first, rows] : {std::pair<int64_t, int64_t>{0, 4}, {4, 2}})
    for (int64_t k = 0; k < K; ++k)
      for (int64_t r = first; r < first + rows; ++r)
        for (int64_t ce = 0; ce < 16; ++ce, ++e) {
          const int64_t c = ce % P, s = ce / P;
          ASSERT_EQ(storage[static_cast<size_t>(e)],
                    c < C ? static_cast<unsigned char>(kcrs(C, R, S, k, c, r, s)) : 0);
        }
  EXPECT_EQ(e, K * R * 16);
}

// NVIDIA's selection rule for `auto`.
TEST(NvdlaWeightImage, AutoPostExtensionRule) {
  const HardwareConfig &full = getHardwareConfig(HardwareKind::NvFull);
  const HardwareConfig &small = getHardwareConfig(HardwareKind::NvSmall);
  struct Case {
    const HardwareConfig *hw;
    int64_t P, S, strideX, expected;
  };
  const Case cases[] = {
      {&full, 4, 3, 1, 4},  // 4*1*3 + 12 = 24 <= 64, 12 <= 16
      {&full, 4, 4, 1, 4},  // 12 + 16 = 28, 16 <= 16
      {&full, 4, 5, 1, 2},  // C' = 20 > 16; 4 + 20 <= 64, 20 <= 32
      {&full, 4, 7, 2, 2},  // C' = 28: 8 + 28 <= 64
      {&full, 4, 8, 1, 2},  // C' = 32 <= 32
      {&full, 4, 9, 1, 1},  // C' = 36 > 32
      {&full, 3, 5, 6, 1},  // stride_x > S
      {&full, 4, 4, 4, 4},  // 4*4*3 + 16 = 64 <= 64, 16 <= 16
      {&full, 4, 4, 5, 1},  // stride_x > S
      {&full, 1, 7, 7, 4},  // 1*7*3 + 7 = 28 <= 64, 7 <= 16
      {&small, 1, 2, 1, 4}, // 3 + 2 <= 8, 2 <= 2
      {&small, 1, 3, 1, 2}, // C' = 3 > 2; 1 + 3 <= 8, 3 <= 4
      {&small, 4, 1, 1, 2}, // C' = 4 <= 4, 4 + 4 <= 8
      {&small, 3, 3, 1, 1},
  };
  for (const Case &t : cases) {
    const int64_t extended = t.S * t.P;
    int64_t expected = 1;
    // The rule as stated in the facts, written out independently.
    if (t.strideX <= t.S) {
      if (t.P * t.strideX * 3 + extended <= t.hw->atomicC && extended <= t.hw->atomicC / 4)
        expected = 4;
      else if (t.P * t.strideX + extended <= t.hw->atomicC && extended <= t.hw->atomicC / 2)
        expected = 2;
    }
    EXPECT_EQ(expected, t.expected) << "hand-computed table row";
    EXPECT_EQ(selectPostExtensionFactor(*t.hw, t.P, t.S, t.strideX), expected)
        << t.hw->name << " P " << t.P << " S " << t.S << " stride " << t.strideX;
    WeightParams params = imageParams(Precision::Int8, 5, t.P, 3, t.S, t.P, PostExtension::Auto, *t.hw);
    params.strideX = t.strideX;
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    EXPECT_EQ(layout->getPostExtensionFactor(), expected);
  }
}

// The selection at the int64 limits (found by dla-fuzz-format: S * P and
// P * stride * 3 overflowed): far wider than any atom means no extension.
TEST(NvdlaWeightImage, PostExtensionSelectionAtInt64Limits) {
  const int64_t big = int64_t(1) << 62, max = std::numeric_limits<int64_t>::max();
  for (const HardwareConfig &hw : kHardwareConfigs) {
    EXPECT_EQ(selectPostExtensionFactor(hw, big, 3, 2), 1) << hw.name;
    EXPECT_EQ(selectPostExtensionFactor(hw, 1, max, max), 1) << hw.name;
    EXPECT_EQ(selectPostExtensionFactor(hw, max, max, 1), 1) << hw.name;
    EXPECT_EQ(selectPostExtensionFactor(hw, 3, big, big), 1) << hw.name;
    // Still 4 where the rule says so, next to the limits.
    EXPECT_EQ(selectPostExtensionFactor(hw, 1, 1, 1), hw.atomicC >= 4 ? 4 : hw.atomicC >= 2 ? 2 : 1)
        << hw.name;
  }
}

// Partial kernel groups, partial channel blocks of the pre-extended kernel
// (factor 1) and partial row groups, on every configuration and precision.
TEST(NvdlaWeightImage, PartialGroupsEveryConfig) {
  std::mt19937_64 rng(11);
  for (const HardwareConfig &hw : kHardwareConfigs) {
    for (Precision precision : enumValues<Precision>()) {
      const int64_t eb = getBytesPerElement(precision);
      const int64_t kpg = hw.getKernelsPerGroup(precision);
      for (PostExtension post :
           {PostExtension::None, PostExtension::Two, PostExtension::Four, PostExtension::Auto}) {
        for (auto [C, P, S, R] : {std::array<int64_t, 4>{3, 4, 7, 7}, {1, 1, 2, 5},
                                  {3, 3, 11, 3}, {4, 4, 1, 9}, {2, 4, 3, 2}}) {
          const int64_t K = 33;
          auto layout = NvdlaWeightLayout::create(imageParams(precision, K, C, R, S, P, post, hw));
          const int64_t factor = post == PostExtension::Two ? 2 : post == PostExtension::Four ? 4 : 1;
          if (post == PostExtension::Two || post == PostExtension::Four) {
            if (S * P > hw.atomicC / factor) {
              EXPECT_FALSE(layout);
              continue;
            }
          }
          ASSERT_TRUE(layout) << layout.message();
          const int64_t f = layout->getPostExtensionFactor();
          if (post == PostExtension::Auto)
            EXPECT_EQ(f, selectPostExtensionFactor(hw, P, S, 1));
          else
            EXPECT_EQ(f, factor);
          std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, eb);
          std::vector<unsigned char> storage = packBytes(*layout, logical);
          std::vector<unsigned char> expected =
              applyMap(imageReference(K, C, R, S, P, kpg, hw.atomicC, f), logical, eb);
          EXPECT_EQ(layout->getStorageBytes(),
                    roundUp(static_cast<int64_t>(expected.size()), hw.weightBufferEntryBytes));
          expected.resize(storage.size(), 0);
          ASSERT_EQ(storage, expected) << hw.name << " " << enumName(precision)
                                       << " factor " << f << " C " << C << " P " << P;
          std::vector<unsigned char> back(logical.size(), 0x5A);
          ASSERT_TRUE(layout->unpack(storage.data(), static_cast<int64_t>(storage.size()),
                                     back.data(), static_cast<int64_t>(back.size())));
          ASSERT_EQ(back, logical);
        }
      }
    }
  }
}

TEST(NvdlaWeightImage, Errors) {
  // Post-extension outside image input.
  for (WeightFormat format :
       {WeightFormat::Direct, WeightFormat::Winograd, WeightFormat::Deconvolution}) {
    WeightParams p = makeParams(format, Precision::Fp16, 4, 4, 3, 3);
    p.postExtension = PostExtension::Two;
    auto layout = NvdlaWeightLayout::create(p);
    ASSERT_FALSE(layout);
    EXPECT_NE(layout.message().find("NOT support"), std::string::npos) << layout.message();
    EXPECT_NE(layout.message().find(std::string(enumProse(format))),
              std::string::npos);
    // `auto` is legal everywhere and means none outside image input.
    p.postExtension = PostExtension::Auto;
    auto automatic = NvdlaWeightLayout::create(p);
    ASSERT_TRUE(automatic) << automatic.message();
    EXPECT_EQ(automatic->getPostExtensionFactor(), 1);
  }
  // C' too wide for the factor.
  auto wide = NvdlaWeightLayout::create(
      imageParams(Precision::Fp16, 4, 4, 3, 9, 4, PostExtension::Two));
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.message(),
            "channel post-extension 2 combines 2 kernel rows into one channel cube, so it needs "
            "S * pixelChannels <= atomic-C / 2 = 32 on nv_full; got S * pixelChannels = 9 * 4 = "
            "36");
  auto wide4 = NvdlaWeightLayout::create(
      imageParams(Precision::Int8, 4, 4, 3, 5, 4, PostExtension::Four));
  ASSERT_FALSE(wide4);
  // Missing / too small pixel channel count.
  auto none = NvdlaWeightLayout::create(imageParams(Precision::Int8, 4, 3, 3, 3, 0));
  ASSERT_FALSE(none);
  EXPECT_NE(none.message().find("pixelChannels"), std::string::npos);
  auto small = NvdlaWeightLayout::create(imageParams(Precision::Int8, 4, 5, 3, 3, 4));
  ASSERT_FALSE(small);
  EXPECT_EQ(small.message(), "image-input weights have C = 5 channels but the pixel format has "
                             "only 4; C is zero-padded up to the pixel format's channel count, "
                             "never cut");
  // Pixel channels given for a non-image format.
  WeightParams direct = makeParams(WeightFormat::Direct, Precision::Int8, 4, 3, 3, 3);
  direct.pixelChannels = 4;
  auto misplaced = NvdlaWeightLayout::create(direct);
  ASSERT_FALSE(misplaced);
  EXPECT_NE(misplaced.message().find("image-input weights only"), std::string::npos);
}

} // namespace
