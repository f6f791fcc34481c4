//===- NvdlaWeightDeconvTest.cpp - Deconvolution weight sets -------------===//

#include "NvdlaWeightTestUtil.h"

#include <gtest/gtest.h>

using namespace nvdla_weight_test;

namespace {

WeightParams deconvParams(Precision precision, int64_t K, int64_t C, int64_t R, int64_t S,
                          int64_t sy, int64_t sx,
                          const HardwareConfig &hw = getDefaultHardwareConfig()) {
  WeightParams p = makeParams(WeightFormat::Deconvolution, precision, K, C, R, S, hw);
  p.strideY = sy;
  p.strideX = sx;
  return p;
}

// A 3x3 kernel with stride 2 by hand: four 2x2 sets, each rotated by 180
// degrees; positions beyond the kernel are zero.
TEST(NvdlaWeightDeconv, HandCheckedSets) {
  auto layout = NvdlaWeightLayout::create(deconvParams(Precision::Int8, 1, 1, 3, 3, 2, 2));
  ASSERT_TRUE(layout) << layout.message();
  // W[r][s] = 10*r + s + 1 (so that no weight is 0).
  std::vector<unsigned char> logical(9);
  for (int r = 0; r < 3; ++r)
    for (int s = 0; s < 3; ++s)
      logical[static_cast<size_t>(r * 3 + s)] = static_cast<unsigned char>(10 * r + s + 1);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  ASSERT_EQ(layout->getSurfaces().size(), 4u);
  // Set (y, x) = W[y + 2i][x + 2j], i, j in {0, 1}; stream order (1,1) (1,0) (0,1) (0,0).
  const std::vector<std::vector<int>> expected = {
      {23, 21, 3, 1},  // set (0, 0): W22 W20 W02 W00
      {0, 22, 0, 2},   // set (0, 1): W2,3 out, W21, W0,3 out, W01
      {0, 0, 13, 11},  // set (1, 0): row 3 out, W12 W10
      {0, 0, 0, 12},   // set (1, 1): only W11 is in range
  };
  for (int64_t y = 0; y < 2; ++y)
    for (int64_t x = 0; x < 2; ++x) {
      auto offset = layout->getDeconvolutionSetOffset(y, x);
      ASSERT_TRUE(offset);
      EXPECT_EQ(*offset, (y * 2 + x) * 256); // each set starts 256-byte aligned
      for (int i = 0; i < 4; ++i)
        EXPECT_EQ(storage[static_cast<size_t>(*offset + i)], expected[y * 2 + x][i])
            << "set (" << y << ", " << x << ") element " << i;
      // End padding to the 128-byte entry, and the gap to the next set: zero.
      for (int64_t b = *offset + 4; b < *offset + 256 && b < layout->getStorageBytes(); ++b)
        ASSERT_EQ(storage[static_cast<size_t>(b)], 0);
    }
  EXPECT_EQ(layout->getStorageBytes(), 3 * 256 + 128);
  EXPECT_FALSE(layout->getDeconvolutionSetOffset(2, 0));
  EXPECT_FALSE(layout->getDeconvolutionSetOffset(0, -1));
  auto direct = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Int8, 1, 1, 3, 3));
  ASSERT_TRUE(direct);
  EXPECT_FALSE(direct->getDeconvolutionSetOffset(0, 0));
}

// Every set against the reference, partial groups and blocks, all configs.
TEST(NvdlaWeightDeconv, PartialGroupsEveryConfig) {
  std::mt19937_64 rng(21);
  for (const HardwareConfig &hw : kHardwareConfigs) {
    for (Precision precision : enumValues<Precision>()) {
      const int64_t eb = getBytesPerElement(precision);
      const int64_t kpg = hw.getKernelsPerGroup(precision);
      for (auto [R, S, sy, sx] : {std::array<int64_t, 4>{3, 3, 2, 2}, {4, 5, 2, 3},
                                  {3, 2, 1, 1}, {1, 3, 3, 1}, {5, 5, 3, 2}}) {
        const int64_t K = 33, C = 130;
        auto layout = NvdlaWeightLayout::create(deconvParams(precision, K, C, R, S, sy, sx, hw));
        ASSERT_TRUE(layout) << layout.message();
        std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, eb);
        std::vector<unsigned char> storage = packBytes(*layout, logical);
        ASSERT_EQ(static_cast<int64_t>(layout->getSurfaces().size()), sy * sx);
        std::vector<unsigned char> expected(storage.size(), 0);
        int64_t end = 0;
        for (int64_t y = 0; y < sy; ++y)
          for (int64_t x = 0; x < sx; ++x) {
            std::vector<unsigned char> set = applyMap(
                deconvolutionSetReference(K, C, R, S, sy, sx, y, x, kpg, hw.atomicC), logical, eb);
            const int64_t offset = roundUp(end, 256);
            ASSERT_EQ(*layout->getDeconvolutionSetOffset(y, x), offset);
            const WeightSurface &surface = layout->getSurfaces()[static_cast<size_t>(y * sx + x)];
            EXPECT_EQ(surface.offset, offset);
            EXPECT_EQ(surface.dataBytes, static_cast<int64_t>(set.size()));
            EXPECT_EQ(surface.paddedBytes,
                      roundUp(static_cast<int64_t>(set.size()), hw.weightBufferEntryBytes));
            std::copy(set.begin(), set.end(), expected.begin() + offset);
            end = offset + surface.paddedBytes;
          }
        EXPECT_EQ(layout->getStorageBytes(), end);
        ASSERT_EQ(storage, expected) << hw.name << " " << enumName(precision) << " "
                                     << R << "x" << S << " stride " << sy << "x" << sx;
        std::vector<unsigned char> back(logical.size(), 0x77);
        ASSERT_TRUE(layout->unpack(storage.data(), static_cast<int64_t>(storage.size()),
                                   back.data(), static_cast<int64_t>(back.size())));
        ASSERT_EQ(back, logical);
      }
    }
  }
}

// locate / getByteOffset across sets and the gaps between them.
TEST(NvdlaWeightDeconv, LocateAcrossSets) {
  const int64_t K = 17, C = 3, R = 3, S = 4, sy = 2, sx = 2;
  auto layout = NvdlaWeightLayout::create(deconvParams(Precision::Fp16, K, C, R, S, sy, sx));
  ASSERT_TRUE(layout);
  std::vector<int> seen(static_cast<size_t>(K * C * R * S), 0);
  for (int64_t b = 0; b < layout->getStorageBytes(); b += 2) {
    auto loc = layout->locate(b);
    ASSERT_TRUE(loc) << loc.message();
    if (loc->isPadding)
      continue;
    const std::vector<int64_t> &i = loc->index;
    ++seen[static_cast<size_t>(kcrs(C, R, S, i[0], i[1], i[2], i[3]))];
    auto offset = layout->getByteOffset(i[0], i[1], i[2], i[3]);
    ASSERT_TRUE(offset);
    ASSERT_EQ(*offset, b);
  }
  for (int count : seen)
    ASSERT_EQ(count, 1); // every weight lives in exactly one set
}

} // namespace
