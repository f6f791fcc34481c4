//===- NvdlaWeightDirectTest.cpp - Direct-convolution weight packing -----===//

#include "NvdlaWeightTestUtil.h"

#include "dla/Format/StridedCopy.h"

#include <gtest/gtest.h>

using namespace nvdla_weight_test;

namespace {

// format_dc_weight_mapping.png: one group of 16 kernels 3x3 with C = 192
// bytes (96 int16 / fp16 channels). Cubes 00..08 are the first 64-channel
// block at positions (r, s) = (NN / 3, NN % 3); cubes 09..17 the remaining 32
// channels. Memory: K0_00 K1_00 ... K15_00 K0_01 ... K15_08 K0_09 ... K15_17.
TEST(NvdlaWeightDirect, FigureDcWeightMapping) {
  for (Precision precision : {Precision::Fp16, Precision::Int16}) {
    const int64_t K = 16, C = 96, R = 3, S = 3;
    auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, precision, K, C, R, S));
    ASSERT_TRUE(layout) << layout.message();
    EXPECT_EQ(layout->getKernelsPerGroup(), 16);
    EXPECT_EQ(layout->getStorageBytes(), 16 * 192 * 9); // 27648, a multiple of 128
    std::vector<unsigned char> logical = iota(K * C * R * S, 2);
    std::vector<unsigned char> storage = packBytes(*layout, logical);
    ASSERT_FALSE(storage.empty());

    int64_t offset = 0;
    for (int cube = 0; cube < 18; ++cube) {
      const int64_t position = cube % 9;
      const int64_t firstChannel = cube < 9 ? 0 : 64;
      const int64_t channels = cube < 9 ? 64 : 32; // 128-byte and 64-byte cubes
      for (int64_t k = 0; k < 16; ++k) {
        for (int64_t c = 0; c < channels; ++c, offset += 2) {
          uint16_t v;
          std::memcpy(&v, &storage[static_cast<size_t>(offset)], 2);
          const int64_t expected =
              kcrs(C, R, S, k, firstChannel + c, position / 3, position % 3);
          ASSERT_EQ(v, static_cast<uint16_t>(expected))
              << "cube K" << k << "_" << cube << " channel " << c;
        }
      }
    }
    EXPECT_EQ(offset, layout->getStorageBytes());
  }
}

// The int8 version of the figure: 32 kernels per group, 192 channels in three
// 64-byte cubes per position.
TEST(NvdlaWeightDirect, FigureDcWeightMappingInt8) {
  const int64_t K = 32, C = 192, R = 3, S = 3;
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Int8, K, C, R, S));
  ASSERT_TRUE(layout);
  EXPECT_EQ(layout->getKernelsPerGroup(), 32);
  std::mt19937_64 rng(7);
  std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, 1);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  int64_t offset = 0;
  for (int cube = 0; cube < 27; ++cube)
    for (int64_t k = 0; k < 32; ++k)
      for (int64_t c = 0; c < 64; ++c, ++offset)
        ASSERT_EQ(storage[static_cast<size_t>(offset)],
                  logical[static_cast<size_t>(kcrs(C, R, S, k, (cube / 9) * 64 + c,
                                                   (cube % 9) / 3, cube % 3))]);
}

// Partial kernel groups and channel blocks (K = 33, C = 130) on every
// configuration and precision, plus end padding to the weight-buffer entry.
TEST(NvdlaWeightDirect, PartialGroupsAndBlocksEveryConfig) {
  std::mt19937_64 rng(1);
  for (const HardwareConfig &hw : kHardwareConfigs) {
    for (Precision precision : enumValues<Precision>()) {
      for (auto [R, S] : {std::pair<int64_t, int64_t>{3, 3}, {1, 1}, {2, 5}}) {
        const int64_t K = 33, C = 130;
        const int64_t eb = getBytesPerElement(precision);
        const int64_t kpg = eb == 1 ? hw.atomicK : hw.atomicK / 2;
        auto layout = NvdlaWeightLayout::create(
            makeParams(WeightFormat::Direct, precision, K, C, R, S, hw));
        ASSERT_TRUE(layout) << layout.message();
        EXPECT_EQ(layout->getKernelsPerGroup(), kpg);
        const int64_t dataBytes = K * C * R * S * eb;
        EXPECT_EQ(layout->getStorageBytes(), roundUp(dataBytes, hw.weightBufferEntryBytes))
            << hw.name;
        std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, eb);
        std::vector<unsigned char> storage = packBytes(*layout, logical);
        std::vector<unsigned char> expected =
            applyMap(directReference(K, C, R, S, kpg, hw.atomicC), logical, eb);
        expected.resize(static_cast<size_t>(layout->getStorageBytes()), 0);
        ASSERT_EQ(storage, expected) << hw.name << " " << enumName(precision) << " "
                                     << R << "x" << S;

        std::vector<unsigned char> back(logical.size());
        ASSERT_TRUE(layout->unpack(storage.data(), static_cast<int64_t>(storage.size()),
                                   back.data(), static_cast<int64_t>(back.size())));
        EXPECT_EQ(back, logical);
      }
    }
  }
}

// Every kernel size class of the fast packer (1, short rows, 8, overlapping
// chunks), channel blocks narrower and wider than one SIMD tile.
TEST(NvdlaWeightDirect, KernelSizesAndChannelCounts) {
  std::mt19937_64 rng(2);
  for (Precision precision : {Precision::Int8, Precision::Fp16}) {
    const int64_t eb = getBytesPerElement(precision);
    for (auto [R, S] : {std::pair<int64_t, int64_t>{1, 1}, {1, 2}, {1, 3}, {2, 2}, {1, 7},
                        {2, 4}, {3, 3}, {1, 15}, {4, 4}, {5, 5}, {7, 7}, {1, 17}}) {
      for (int64_t C : {1, 7, 8, 9, 15, 16, 17, 64, 65, 100}) {
        const int64_t K = 19;
        auto layout =
            NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, precision, K, C, R, S));
        ASSERT_TRUE(layout);
        std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, eb);
        std::vector<unsigned char> storage = packBytes(*layout, logical);
        std::vector<unsigned char> expected =
            applyMap(directReference(K, C, R, S, layout->getKernelsPerGroup(), 64), logical, eb);
        expected.resize(storage.size(), 0);
        ASSERT_EQ(storage, expected) << enumName(precision) << " C " << C << " " << R
                                     << "x" << S;
      }
    }
  }
}

// Large enough (>= 8 MiB) to take the streaming-store path.
TEST(NvdlaWeightDirect, LargeStreamingPack) {
  const int64_t K = 40, C = 1000, R = 11, S = 11; // 9.2 MiB of fp16
  auto layout = NvdlaWeightLayout::create(makeParams(WeightFormat::Direct, Precision::Fp16, K, C, R, S));
  ASSERT_TRUE(layout);
  std::mt19937_64 rng(3);
  std::vector<unsigned char> logical = randomElements(rng, K * C * R * S, 2);
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  std::vector<unsigned char> expected =
      applyMap(directReference(K, C, R, S, 16, 64), logical, 2);
  expected.resize(storage.size(), 0);
  ASSERT_TRUE(storage == expected);
}

// The fused fp32 path equals converting first, for both rounding modes.
TEST(NvdlaWeightDirect, FusedFp32Conversion) {
  std::mt19937_64 rng(4);
  const int64_t K = 21, C = 70, R = 3, S = 2;
  const int64_t n = K * C * R * S;
  std::vector<float> source(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits = static_cast<uint32_t>(rng());
    if (i % 3 == 0) // mostly values in the fp16 range
      bits = (bits & 0x807fffffu) | ((100u + static_cast<uint32_t>(rng() % 50)) << 23);
    std::memcpy(&source[static_cast<size_t>(i)], &bits, 4);
  }
  for (Fp16Rounding rounding : {Fp16Rounding::TiesToEven, Fp16Rounding::TiesAwayFromZero}) {
    for (WeightFormat format : {WeightFormat::Direct, WeightFormat::Deconvolution}) {
      WeightParams params = makeParams(format, Precision::Fp16, K, C, R, S);
      if (format == WeightFormat::Deconvolution)
        params.strideX = 2;
      auto layout = NvdlaWeightLayout::create(params);
      ASSERT_TRUE(layout);
      std::vector<unsigned char> converted(static_cast<size_t>(n * 2));
      for (int64_t i = 0; i < n; ++i) {
        const uint16_t h = fp32ToFp16(source[static_cast<size_t>(i)], rounding);
        std::memcpy(&converted[static_cast<size_t>(2 * i)], &h, 2);
      }
      std::vector<unsigned char> expected = packBytes(*layout, converted);
      std::vector<unsigned char> fused(expected.size(), 0xCD);
      ASSERT_TRUE(layout->packFp32(source.data(), n, fused.data(),
                                   static_cast<int64_t>(fused.size()), rounding));
      EXPECT_EQ(fused, expected);
    }
  }
}

// f32 weights packed with no rounding stated are stored as NVIDIA's compiler
// stores them in every non-Winograd format (execWtTrnsOpsForDC, ...Deconv,
// ...IMGPostCE: `RT(value)`, half.h's float -> half, ties away from zero):
// 1 + 2^-11 and -(1 + 2^-11) are fp16 ties, NVIDIA's half is 0x3c01 /
// 0xbc01 (ties to even would give 0x3c00 / 0xbc00); 2^-25 is half the
// smallest subnormal (0x0001 away, +0 to even); 65520 overflows.
TEST(NvdlaWeightDirect, DefaultRoundingIsNvidias) {
  const float tie = 1.0f + 0x1p-11f;
  const std::vector<float> source = {tie, -tie, 0x1p-25f, 65520.0f};
  const std::vector<uint16_t> nvidia = {0x3c01, 0xbc01, 0x0001, 0x7c00};
  for (WeightFormat format : {WeightFormat::Direct, WeightFormat::Image,
                              WeightFormat::Deconvolution}) {
    WeightParams params = makeParams(format, Precision::Fp16, 1, 4, 1, 1);
    if (format == WeightFormat::Image)
      params.pixelChannels = 4;
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    std::vector<unsigned char> storage(static_cast<size_t>(layout->getStorageBytes()));
    ASSERT_TRUE(layout->packFp32(source.data(), 4, storage.data(),
                                 static_cast<int64_t>(storage.size())));
    // One kernel, one channel block, R = S = 1: the four channels in order.
    for (size_t i = 0; i < 4; ++i) {
      uint16_t h;
      std::memcpy(&h, &storage[2 * i], 2);
      EXPECT_EQ(h, nvidia[i]) << enumName(format) << " value " << i;
    }
  }
}

// getByteOffset and locate agree with the reference map; the BoundLayout and
// its strided view (uniform groups and blocks) agree with both.
TEST(NvdlaWeightDirect, OffsetsLocateAndStridedView) {
  struct Case {
    int64_t K, C, R, S;
    bool strided;
  };
  for (Case t : {Case{33, 130, 3, 3, false}, Case{32, 128, 3, 3, true}, Case{5, 20, 2, 3, true},
                 Case{48, 64, 1, 1, true}, Case{16, 100, 2, 2, false}}) {
    WeightParams params = makeParams(WeightFormat::Direct, Precision::Fp16, t.K, t.C, t.R, t.S);
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout);
    std::vector<int64_t> map = directReference(t.K, t.C, t.R, t.S, 16, 64);
    for (size_t p = 0; p < map.size(); ++p) {
      const int64_t src = map[p];
      const int64_t s = src % t.S, r = src / t.S % t.R, c = src / (t.S * t.R) % t.C,
                    k = src / (t.S * t.R * t.C);
      auto offset = layout->getByteOffset(k, c, r, s);
      ASSERT_TRUE(offset);
      ASSERT_EQ(*offset, static_cast<int64_t>(2 * p));
      auto loc = layout->locate(static_cast<int64_t>(2 * p + 1));
      ASSERT_TRUE(loc);
      ASSERT_FALSE(loc->isPadding);
      ASSERT_EQ(loc->index, (std::vector<int64_t>{k, c, r, s}));
      ASSERT_EQ(loc->byteInElement, 1);
    }
    for (int64_t b = static_cast<int64_t>(map.size()) * 2; b < layout->getStorageBytes(); ++b) {
      auto loc = layout->locate(b);
      ASSERT_TRUE(loc);
      EXPECT_TRUE(loc->isPadding);
    }
    EXPECT_FALSE(layout->locate(layout->getStorageBytes()));
    EXPECT_FALSE(layout->getByteOffset(t.K, 0, 0, 0));

    auto bound = createNvdlaWeightBoundLayout(params);
    ASSERT_TRUE(bound);
    std::optional<StridedView> view = (*bound)->getStridedView();
    EXPECT_EQ(view.has_value(), t.strided);
    std::mt19937_64 rng(5);
    std::vector<unsigned char> logical = randomElements(rng, t.K * t.C * t.R * t.S, 2);
    std::vector<unsigned char> packed(static_cast<size_t>((*bound)->getStorageBytes()));
    (*bound)->pack(reinterpret_cast<const char *>(logical.data()),
                   reinterpret_cast<char *>(packed.data()));
    EXPECT_EQ(packed, packBytes(*layout, logical));
    if (view) {
      std::vector<unsigned char> viaView(packed.size(), 0xEE);
      packStridedView(*view, {t.K, t.C, t.R, t.S}, 2,
                      reinterpret_cast<const char *>(logical.data()),
                      reinterpret_cast<char *>(viaView.data()),
                      static_cast<int64_t>(viaView.size()) / 2);
      EXPECT_EQ(viaView, packed);
    }
  }
}

} // namespace
