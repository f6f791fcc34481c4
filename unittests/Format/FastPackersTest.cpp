//===- FastPackersTest.cpp - Fast kernels against the previous ones --------===//
//
// Random shapes through the SIMD kernels of issue 13 (compression, Winograd,
// the strided copy, fp16 -> fp32), byte-compared with the scalar kernels
// they replaced (bench/PreviousPackers.h).
//
//===----------------------------------------------------------------------===//

#include "NvdlaWeightTestUtil.h"
#include "PreviousPackers.h"

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/NvdlaWeight.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/NvdlaWeightPacker.h"
#include "dla/Format/PackThreads.h"

#include <gtest/gtest.h>

#include <random>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

std::vector<char> randomData(std::mt19937_64 &rng, int64_t n, int64_t eb, int zeroPercent) {
  std::vector<char> v(static_cast<size_t>(n * eb));
  for (int64_t i = 0; i < n; ++i) {
    const bool zero = static_cast<int>(rng() % 100) < zeroPercent;
    for (int64_t b = 0; b < eb; ++b)
      v[static_cast<size_t>(i * eb + b)] = zero ? 0 : static_cast<char>(rng());
  }
  // Elements with only one non-zero byte (an fp16 -0.0, small integers).
  for (int64_t i = 0; i < n; i += 7)
    if (eb == 2)
      v[static_cast<size_t>(i * eb + rng() % 2)] = 0;
  return v;
}

TEST(FastPackers, CompressionMatchesPreviousKernel) {
  std::mt19937_64 rng(1301);
  for (int trial = 0; trial < 60; ++trial) {
    WeightParams params;
    params.format = trial % 4 == 3 ? WeightFormat::Deconvolution : WeightFormat::Direct;
    params.precision = std::vector<Precision>{Precision::Int8, Precision::Fp16,
                                              Precision::Int16}[trial % 3];
    params.shape = {int64_t(1 + rng() % 70), int64_t(1 + rng() % 90), int64_t(1 + rng() % 4),
                    int64_t(1 + rng() % 4)};
    if (params.format == WeightFormat::Deconvolution)
      params.strideX = params.strideY = 2;
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes();
    const int zeros = std::vector<int>{0, 50, 90, 100, 30}[trial % 5];
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::vector<char> logical = randomData(rng, layout->getNumLogicalElements(), eb, zeros);
    std::vector<char> image(static_cast<size_t>(layout->getStorageBytes()));
    ASSERT_TRUE(layout->pack(logical.data(), logical.size(), image.data(), image.size()));
    std::vector<unsigned char> expected =
        previous::compress(*layout, reinterpret_cast<const unsigned char *>(image.data()));
    auto plan = planCompressedWeights(*layout, image.data(), image.size());
    ASSERT_TRUE(plan) << plan.message();
    ASSERT_EQ(plan->storageBytes, static_cast<int64_t>(expected.size()));
    // The exact size (counted first) and the all-non-zero bound (one sweep).
    for (int64_t bytes : {plan->storageBytes,
                          getCompressedWeightLayoutBound(*layout).storageBytes}) {
      std::vector<unsigned char> out(static_cast<size_t>(bytes), 0xa5);
      auto done = compressWeights(*layout, image.data(), image.size(), out.data(), bytes);
      ASSERT_TRUE(done) << done.message();
      ASSERT_EQ(done->storageBytes, plan->storageBytes);
      out.resize(expected.size());
      EXPECT_EQ(out, expected);
    }
    std::vector<unsigned char> small(static_cast<size_t>(plan->storageBytes - 1));
    EXPECT_FALSE(compressWeights(*layout, image.data(), image.size(), small.data(),
                                 small.size()));
  }
}

TEST(FastPackers, WinogradMatchesPreviousKernel) {
  std::mt19937_64 rng(1302);
  // Special fp16 values among the weights: zeros of both signs, subnormals,
  // the largest finite, infinities, one NaN.
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x7c00, 0xfc00};
  // Zeros of both signs and subnormals also in the finite trials.
  const uint16_t finiteSpecials[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7bff, 0xfbff};
  for (int trial = 0; trial < 40; ++trial) {
    WeightParams params;
    params.format = WeightFormat::Winograd;
    params.precision = std::vector<Precision>{Precision::Fp16, Precision::Int8,
                                              Precision::Int16}[trial % 3];
    const int64_t stride = 1 + trial % 2;
    params.strideX = params.strideY = stride;
    const int64_t R = stride == 1 ? 3 : 5 + rng() % 2, S = stride == 1 ? 3 : 5 + rng() % 2;
    params.shape = {int64_t(1 + rng() % 40), int64_t(1 + rng() % 50), R, S};
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes();
    const int64_t n = layout->getNumLogicalElements();
    std::vector<char> logical(static_cast<size_t>(n * eb));
    for (int64_t i = 0; i < n; ++i) {
      if (params.precision == Precision::Fp16) {
        // Specials in every other trial: groups without any take the
        // shortened finite-input transform.
        uint16_t h = trial % 2 == 0 && rng() % 10 == 0 ? specials[rng() % 8]
                     : rng() % 8 == 0 ? finiteSpecials[rng() % 6]
                                      : fp32ToFp16(static_cast<float>(int(rng() % 4001) - 2000) /
                                                   256.0f);
        std::memcpy(&logical[static_cast<size_t>(2 * i)], &h, 2);
      } else {
        for (int64_t b = 0; b < eb; ++b)
          logical[static_cast<size_t>(i * eb + b)] = static_cast<char>(rng());
      }
    }
    if (params.precision == Precision::Fp16 && trial % 6 == 0) {
      const uint16_t nan = 0x7e01;
      std::memcpy(&logical[static_cast<size_t>(2 * (rng() % n))], &nan, 2);
    }
    for (Fp16Rounding rounding : {Fp16Rounding::TiesToEven, Fp16Rounding::TiesAwayFromZero}) {
      SCOPED_TRACE("trial " + std::to_string(trial));
      std::vector<char> out(static_cast<size_t>(layout->getStorageBytes()), 0x5a);
      ASSERT_TRUE(layout->pack(logical.data(), logical.size(), out.data(), out.size(), rounding));
      std::vector<char> expected = previous::winograd(*layout, logical.data(), rounding);
      ASSERT_EQ(out.size(), expected.size());
      // Where two NaNs meet in one sum, which payload survives is the
      // hardware's choice of operand (IEEE leaves it open), so any NaN
      // matches a NaN; every other value must be bit-identical.
      auto isNan = [](const char *p) {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return (h & 0x7c00) == 0x7c00 && (h & 0x3ff) != 0;
      };
      for (size_t i = 0; i < out.size(); i += static_cast<size_t>(eb)) {
        if (params.precision == Precision::Fp16 && isNan(&out[i]) && isNan(&expected[i]))
          continue;
        ASSERT_EQ(std::memcmp(&out[i], &expected[i], static_cast<size_t>(eb)), 0)
            << "element at byte " << i << " of " << out.size() << ", "
            << enumName(params.precision);
      }
    }
  }
}

TEST(FastPackers, WinogradSplitAcrossThreadsMatchesPreviousKernel) {
  // Large enough to split by kernel groups across threads (a short last
  // group: 500 = 31 x 16 + 4 kernels; 301 channels, padded to 304), through
  // the 4-channel transposing load of 3x3 stride-1 kernels; int8 as well.
  std::mt19937_64 rng(1308);
  for (Precision precision : {Precision::Fp16, Precision::Int8}) {
    WeightParams params;
    params.format = WeightFormat::Winograd;
    params.precision = precision;
    params.shape = {precision == Precision::Fp16 ? 500 : 700, 301, 3, 3};
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes(), n = layout->getNumLogicalElements();
    std::vector<char> logical(static_cast<size_t>(n * eb));
    for (int64_t i = 0; i < n; ++i) {
      if (precision == Precision::Fp16) {
        const uint16_t h = fp32ToFp16(static_cast<float>(int(rng() % 4001) - 2000) / 256.0f);
        std::memcpy(&logical[static_cast<size_t>(2 * i)], &h, 2);
      } else {
        logical[static_cast<size_t>(i)] = static_cast<char>(rng());
      }
    }
    const std::vector<char> expected =
        previous::winograd(*layout, logical.data(), kDefaultWeightRounding);
    for (int threads : {1, 2, 3}) {
      setPackThreads(threads);
      std::vector<char> out(static_cast<size_t>(layout->getStorageBytes()), 0x5a);
      ASSERT_TRUE(layout->pack(logical.data(), logical.size(), out.data(), out.size()));
      EXPECT_TRUE(out == expected) << enumName(precision) << ", " << threads << " threads";
    }
    setPackThreads(0);
  }
}

TEST(FastPackers, ChunkedCopyMatchesPerElementReference) {
  std::mt19937_64 rng(1303);
  for (int trial = 0; trial < 120; ++trial) {
    const ChunkedPresetInfo &preset = kChunkedPresets[rng() % std::size(kChunkedPresets)];
    std::vector<int64_t> shape(4);
    for (auto &e : shape)
      e = 1 + static_cast<int64_t>(rng() % 12);
    if (trial % 2) // one or two long dimensions
      shape[rng() % 4] = 20 + static_cast<int64_t>(rng() % 60);
    const int64_t eb = std::vector<int64_t>{1, 2, 4, 3}[trial % 4];
    auto bound = ChunkedLayout::getPreset(preset.preset).bind(shape, eb);
    ASSERT_TRUE(bound) << bound.message();
    const ChunkedBoundLayout &layout = **bound;
    SCOPED_TRACE(std::string(preset.name) + " on " + formatShape(shape) + " of " +
                 std::to_string(eb) + " bytes");
    std::vector<char> logical(static_cast<size_t>(layout.getNumElements() * eb));
    for (auto &c : logical)
      c = static_cast<char>(rng() | 1);
    std::vector<char> storage(static_cast<size_t>(layout.getStorageBytes()), 0x77);
    layout.pack(logical.data(), storage.data());
    ASSERT_EQ(storage, previous::chunked(layout, logical.data()));
    std::vector<char> back(logical.size(), 0);
    layout.unpack(storage.data(), back.data());
    EXPECT_EQ(back, logical);
  }
}

TEST(FastPackers, ChannelRunBlocksMatchPerElementReference) {
  // Storage-order blocks of channel runs (StridedBlockCopy.cpp, AVX-512) and
  // the paths they replace, on random pair lists whose innermost pair is a
  // 16..64-byte piece of the last dimension: a short last channel chunk,
  // padding in every dimension (edge blocks), more digits of the same
  // dimensions in between, 1-, 2- and 4-byte elements.
  std::mt19937_64 rng(1308);
  int checked = 0;
  for (int trial = 0; checked < 60 && trial < 600; ++trial) {
    const int64_t rank = 3 + static_cast<int64_t>(rng() % 2);
    const int64_t eb = std::vector<int64_t>{1, 2, 4}[trial % 3];
    const std::vector<int64_t> runBytes = {16, 24, 32, 48, 60, 64};
    const int64_t E = std::max<int64_t>(1, runBytes[rng() % runBytes.size()] / eb);
    std::vector<ChunkPair> pairs;
    std::vector<int64_t> order(static_cast<size_t>(rank));
    for (int64_t d = 0; d < rank; ++d)
      order[static_cast<size_t>(d)] = d;
    std::shuffle(order.begin(), order.end(), rng);
    for (int64_t d : order)
      pairs.push_back({d, 0});
    for (int64_t k = rng() % 4; k > 0; --k)
      pairs.push_back({static_cast<int64_t>(rng() % rank), 2 + static_cast<int64_t>(rng() % 6)});
    pairs.push_back({rank - 1, E});
    Expected<ChunkedLayout> chunked = ChunkedLayout::get(rank, pairs);
    if (!chunked)
      continue;
    std::vector<int64_t> shape(static_cast<size_t>(rank));
    for (auto &e : shape)
      e = 1 + static_cast<int64_t>(rng() % 20);
    shape.back() = 1 + static_cast<int64_t>(rng() % (3 * E));
    auto bound = chunked->bind(shape, eb);
    ASSERT_TRUE(bound) << bound.message();
    const ChunkedBoundLayout &layout = **bound;
    SCOPED_TRACE(chunked->toString() + " on " + formatShape(shape) + " of " +
                 std::to_string(eb) + " bytes");
    std::vector<char> logical(static_cast<size_t>(layout.getNumElements() * eb));
    for (auto &c : logical)
      c = static_cast<char>(rng() | 1);
    const std::vector<char> expected = previous::chunked(layout, logical.data());
    for (bool avx512 : {true, false}) {
      setPackAvx512(avx512);
      std::vector<char> storage(expected.size(), 0x77);
      layout.pack(logical.data(), storage.data());
      EXPECT_EQ(storage, expected) << "avx512 " << avx512;
      std::vector<char> back(logical.size(), 0);
      layout.unpack(storage.data(), back.data());
      EXPECT_EQ(back, logical) << "avx512 " << avx512;
    }
    setPackAvx512(true);
    ++checked;
  }
  EXPECT_EQ(checked, 60);
}

TEST(FastPackers, ConvWeightTilePackerMatchesPerElementReference) {
  // The tile-transpose kernel (reordered loop, prefetch, tight inner loop;
  // non-temporal stores from 4 MiB on an aligned output, plain ones at an
  // odd address), ragged in every dimension: in- and out-channels not
  // multiples of 4 / 32, short last tiles, tiles cut in both directions.
  std::mt19937_64 rng(1305);
  for (int trial = 0; trial < 24; ++trial) {
    const int64_t eb = std::vector<int64_t>{2, 1, 4}[trial % 3];
    std::vector<int64_t> shape = {int64_t(1 + rng() % 4), int64_t(1 + rng() % 4),
                                  int64_t(1 + rng() % 140), int64_t(1 + rng() % 150)};
    if (trial % 8 == 7) // large enough to stream (>= 4 MiB of storage)
      shape = {3, 3, int64_t(250 + rng() % 20), int64_t(900 + rng() % 200)};
    auto bound = ChunkedLayout::getPreset(ChunkedPreset::ConvWeight).bind(shape, eb);
    ASSERT_TRUE(bound) << bound.message();
    const ChunkedBoundLayout &layout = **bound;
    SCOPED_TRACE("conv_weight on " + formatShape(shape) + " of " + std::to_string(eb) +
                 " bytes, trial " + std::to_string(trial));
    std::vector<char> logical(static_cast<size_t>(layout.getNumElements() * eb));
    for (auto &c : logical)
      c = static_cast<char>(rng() | 1);
    const std::vector<char> expected = previous::chunked(layout, logical.data());
    for (size_t misalign : {size_t(0), size_t(eb == 4 ? 4 : 1)}) {
      std::vector<char> buffer(expected.size() + 16 + misalign, 0x77);
      char *out = buffer.data() + (16 - reinterpret_cast<uintptr_t>(buffer.data()) % 16) % 16 +
                  misalign;
      layout.pack(logical.data(), out);
      ASSERT_EQ(std::memcmp(out, expected.data(), expected.size()), 0) << "misalign " << misalign;
    }
  }
}

TEST(FastPackers, DirectPackerMatchesPerElementReference) {
  // The direct kernel (8-row transposes, gathered short tails, prefetch of
  // each kernel's next block, split across threads) on random ragged shapes
  // of every hardware configuration: K not a multiple of the group, C not a
  // multiple of atomic-C, every kernel size from 1x1 to 6x6; once in a while
  // large enough to stream and to split.
  std::mt19937_64 rng(1306);
  for (int trial = 0; trial < 40; ++trial) {
    const Precision precision = trial % 2 ? Precision::Fp16 : Precision::Int8;
    const HardwareConfig &hw = kHardwareConfigs[rng() % std::size(kHardwareConfigs)];
    int64_t K = 1 + rng() % 70, C = 1 + rng() % 150, R = 1 + rng() % 6, S = 1 + rng() % 6;
    if (trial % 10 == 9) {
      K = 300 + rng() % 40;
      C = 1000 + rng() % 90;
      R = S = 3;
    }
    SCOPED_TRACE(std::string(enumName(precision)) + " " + std::string(hw.name) + " " +
                 std::to_string(K) + "x" + std::to_string(C) + "x" + std::to_string(R) + "x" +
                 std::to_string(S));
    auto layout = NvdlaWeightLayout::create(
        nvdla_weight_test::makeParams(WeightFormat::Direct, precision, K, C, R, S, hw));
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes();
    std::vector<unsigned char> logical = nvdla_weight_test::randomElements(rng, K * C * R * S, eb);
    std::vector<unsigned char> expected = nvdla_weight_test::applyMap(
        nvdla_weight_test::directReference(K, C, R, S, layout->getKernelsPerGroup(), hw.atomicC),
        logical, eb);
    expected.resize(static_cast<size_t>(layout->getStorageBytes()), 0);
    for (int threads : {1, 2}) {
      setPackThreads(threads);
      EXPECT_TRUE(nvdla_weight_test::packBytes(*layout, logical) == expected)
          << threads << " threads";
    }
    setPackThreads(0);
  }
}

TEST(FastPackers, Direct3x3BlocksMatchPerElementReference) {
  // The AVX-512 blocks of 3x3 kernels (two stride-3 permutes per row) and
  // the SSE2 path they replace, on the same random shapes: whole and short
  // channel blocks, short last groups, fp16 / int8 and fp32 sources, output
  // buffers 64-byte aligned or not, streamed (>= 8 MiB) or not.
  std::mt19937_64 rng(1307);
  for (int trial = 0; trial < 24; ++trial) {
    const Precision precision = trial % 2 ? Precision::Fp16 : Precision::Int8;
    const HardwareConfig &hw = kHardwareConfigs[rng() % std::size(kHardwareConfigs)];
    int64_t K = 1 + rng() % 80, C = 1 + rng() % 300;
    if (trial % 4 == 1)
      C = 64 * (1 + rng() % 4);
    if (trial % 8 == 7) {
      K = 500 + rng() % 40;
      C = 1024 + 64 * (rng() % 2);
    }
    SCOPED_TRACE(std::string(enumName(precision)) + " " + std::string(hw.name) + " " +
                 std::to_string(K) + "x" + std::to_string(C) + "x3x3");
    auto layout = NvdlaWeightLayout::create(
        nvdla_weight_test::makeParams(WeightFormat::Direct, precision, K, C, 3, 3, hw));
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes(), n = K * C * 9;
    std::vector<unsigned char> logical = nvdla_weight_test::randomElements(rng, n, eb);
    // fp32 sources of exactly representable values pack to the same bytes.
    std::vector<float> f32;
    if (eb == 2)
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h = static_cast<uint16_t>(rng() % 0x7c00) | static_cast<uint16_t>(rng() & 0x8000);
        std::memcpy(&logical[static_cast<size_t>(2 * i)], &h, 2);
        f32.push_back(fp16ToFp32(h));
      }
    std::vector<unsigned char> expected = nvdla_weight_test::applyMap(
        nvdla_weight_test::directReference(K, C, 3, 3, layout->getKernelsPerGroup(), hw.atomicC),
        logical, eb);
    expected.resize(static_cast<size_t>(layout->getStorageBytes()), 0);
    const size_t bytes = expected.size();
    std::vector<unsigned char> buffer(bytes + 128);
    const size_t toAligned = (64 - reinterpret_cast<uintptr_t>(buffer.data()) % 64) % 64;
    for (bool avx512 : {true, false})
      for (size_t misalign : {size_t(0), size_t(16)}) {
        setPackAvx512(avx512);
        unsigned char *out = buffer.data() + toAligned + misalign;
        std::memset(out, 0xAB, bytes);
        ASSERT_TRUE(layout->pack(logical.data(), n * eb, out, static_cast<int64_t>(bytes)));
        EXPECT_EQ(std::memcmp(out, expected.data(), bytes), 0)
            << "avx512 " << avx512 << " misalign " << misalign;
        if (eb == 2) {
          std::memset(out, 0xCD, bytes);
          ASSERT_TRUE(layout->packFp32(f32.data(), n, out, static_cast<int64_t>(bytes)));
          EXPECT_EQ(std::memcmp(out, expected.data(), bytes), 0)
              << "fp32 source, avx512 " << avx512 << " misalign " << misalign;
        }
      }
    setPackAvx512(true);
  }
}

TEST(FastPackers, CompressedPackerMatchesPreviousKernel) {
  // The compressed constant packer (direct weights: counted on the source,
  // packed and compressed a piece at a time straight into WGS / WMB / data;
  // other formats: through the whole stream) against the previous scalar
  // compression of the packed image: ragged K and C on every hardware
  // configuration (nv_small fp16 has 4-kernel groups: pieces must still
  // start on WMB bytes), zeros 0-100%, raw and fp32 sources, and shapes of
  // many pieces.
  std::mt19937_64 rng(1307);
  for (int trial = 0; trial < 48; ++trial) {
    WeightParams params;
    params.format = trial % 6 == 5 ? WeightFormat::Deconvolution : WeightFormat::Direct;
    if (params.format == WeightFormat::Deconvolution)
      params.strideX = params.strideY = 2;
    params.precision =
        std::vector<Precision>{Precision::Int8, Precision::Fp16, Precision::Int16}[trial % 3];
    params.hardware = kHardwareConfigs[rng() % std::size(kHardwareConfigs)];
    params.shape = {int64_t(1 + rng() % 90), int64_t(1 + rng() % 100), int64_t(1 + rng() % 4),
                    int64_t(1 + rng() % 4)};
    if (trial % 8 == 7) // several 256 KiB pieces
      params.shape = {int64_t(200 + rng() % 50), int64_t(300 + rng() % 60), 3, 3};
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = layout->getElementBytes(), n = layout->getNumLogicalElements();
    const int zeros = std::vector<int>{0, 50, 90, 100, 30}[trial % 5];
    const bool fromFp32 = params.precision == Precision::Fp16 && trial % 4 == 1;
    SCOPED_TRACE("trial " + std::to_string(trial) + " " + std::string(enumName(params.precision)) +
                 (fromFp32 ? " from fp32" : "") + " " + std::string(params.hardware.name) + " " +
                 std::to_string(params.shape.kernels) + "x" + std::to_string(params.shape.channels) +
                 "x" + std::to_string(params.shape.height) + "x" + std::to_string(params.shape.width));
    std::vector<char> logical = randomData(rng, n, eb, zeros);
    std::vector<float> f32(static_cast<size_t>(n));
    for (float &f : f32) // some round to +-0 in fp16
      f = rng() % 100 < static_cast<uint64_t>(zeros)
              ? 0.0f
              : static_cast<float>(static_cast<int>(rng() % 20001) - 10000) /
                    (rng() % 2 ? 1024.0f : 1e9f);
    std::vector<char> image(static_cast<size_t>(layout->getStorageBytes()));
    if (fromFp32) {
      ASSERT_TRUE(layout->packFp32(f32.data(), n, image.data(), image.size()));
    } else {
      ASSERT_TRUE(layout->pack(logical.data(), logical.size(), image.data(), image.size()));
    }
    std::vector<unsigned char> expected =
        previous::compress(*layout, reinterpret_cast<const unsigned char *>(image.data()));
    auto packer = makeNvdlaWeightPacker(params, /*compressed=*/true);
    ASSERT_TRUE(packer) << packer.message();
    PackSource source;
    source.data = fromFp32 ? reinterpret_cast<const char *>(f32.data()) : logical.data();
    source.bytes = fromFp32 ? n * 4 : n * eb;
    source.fromFp32 = fromFp32;
    source.rounding = kDefaultWeightRounding; // as packFp32 above
    auto sizes = (*packer)->planSurfaces(source);
    ASSERT_TRUE(sizes) << sizes.message();
    ASSERT_EQ(sizes->size(), 3u);
    std::vector<std::vector<char>> surfaces;
    for (int64_t size : *sizes)
      surfaces.emplace_back(static_cast<size_t>(size), char(0x5a));
    std::vector<char *> pointers;
    for (std::vector<char> &surface : surfaces)
      pointers.push_back(surface.data());
    Status packed = (*packer)->pack(source, pointers);
    ASSERT_TRUE(packed) << packed.message();
    // Every set's WGS / WMB / data region, where the packer placed it, holds
    // the reference image's bytes; the gaps are zero.
    auto plan = planCompressedWeights(*layout, image.data(), image.size());
    ASSERT_TRUE(plan) << plan.message();
    const int64_t align = (*packer)->getSurfaceAlignment();
    int64_t at[3] = {0, 0, 0};
    for (const CompressedWeightSurface &set : plan->surfaces) {
      const int64_t from[3] = {set.wgsOffset, set.wmbOffset, set.dataOffset};
      const int64_t bytes[3] = {set.wgsBytes, set.wmbBytes, set.dataBytes};
      for (int kind = 0; kind < 3; ++kind) {
        const int64_t start = (at[kind] + align - 1) / align * align;
        for (int64_t i = at[kind]; i < start; ++i)
          ASSERT_EQ(surfaces[kind][static_cast<size_t>(i)], 0) << "gap byte " << i;
        ASSERT_LE(start + bytes[kind], (*sizes)[kind]);
        if (bytes[kind] > 0) { // an empty surface may have no buffer
          ASSERT_EQ(std::memcmp(surfaces[kind].data() + start, expected.data() + from[kind],
                                static_cast<size_t>(bytes[kind])),
                    0)
              << "surface kind " << kind;
        }
        at[kind] = start + bytes[kind];
      }
    }
  }
}

TEST(FastPackers, RowPackerMatchesPerElementReferenceAnyRank) {
  // The row packer (second-to-last dimension a tight loop, runs of 32 / 64
  // bytes with a shorter last one) on custom layouts of rank 1 to 5: a
  // random tile of the last dimension (innermost or not) and of one other,
  // ragged extents.
  std::mt19937_64 rng(1309);
  for (int trial = 0; trial < 150; ++trial) {
    const int64_t rank = 1 + static_cast<int64_t>(rng() % 5);
    std::vector<ChunkPair> pairs;
    std::vector<int64_t> shape;
    for (int64_t d = 0; d < rank; ++d) {
      pairs.push_back({d, 0});
      shape.push_back(1 + static_cast<int64_t>(rng() % (d + 1 == rank ? 100 : 9)));
    }
    const int64_t tiles[] = {4, 8, 16, 32, 64};
    std::vector<ChunkPair> inner = {{rank - 1, tiles[rng() % 5]}};
    if (rank > 1 && rng() % 2)
      inner.insert(inner.begin() + static_cast<long>(rng() % 2),
                   {static_cast<int64_t>(rng() % (rank - 1)), 2 + static_cast<int64_t>(rng() % 3)});
    pairs.insert(pairs.end(), inner.begin(), inner.end());
    auto layout = ChunkedLayout::get(rank, pairs);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t eb = 1 + static_cast<int64_t>(rng() % 2);
    auto bound = layout->bind(shape, eb);
    ASSERT_TRUE(bound) << bound.message();
    SCOPED_TRACE(layout->toString() + " on " + formatShape(shape) + " of " + std::to_string(eb) +
                 " bytes");
    std::vector<char> logical(static_cast<size_t>((*bound)->getNumElements() * eb));
    for (auto &c : logical)
      c = static_cast<char>(rng() | 1);
    std::vector<char> storage(static_cast<size_t>((*bound)->getStorageBytes()), 0x77);
    (*bound)->pack(logical.data(), storage.data());
    ASSERT_EQ(storage, previous::chunked(**bound, logical.data()));
  }
}

TEST(FastPackers, DirectSplitAcrossThreadsMatchesOneThread) {
  // Above the split threshold (8 MiB per thread), with a short last group
  // and a short channel block; fp16, int8 and fp32 sources.
  std::mt19937_64 rng(1304);
  for (Precision precision : {Precision::Fp16, Precision::Int8}) {
    WeightParams params;
    params.precision = precision;
    params.shape = {1000, 1001, 3, 3};
    auto layout = NvdlaWeightLayout::create(params);
    ASSERT_TRUE(layout) << layout.message();
    const int64_t n = layout->getNumLogicalElements(), eb = layout->getElementBytes();
    std::vector<char> logical = randomData(rng, n, eb, 10);
    std::vector<float> f32(static_cast<size_t>(n));
    for (float &f : f32)
      f = static_cast<float>(static_cast<int>(rng() % 20001) - 10000) / 1024.0f;
    std::vector<char> one(static_cast<size_t>(layout->getStorageBytes()));
    std::vector<char> many(one.size(), 0x11), oneF(one.size()), manyF(one.size(), 0x22);
    const bool fp16 = precision == Precision::Fp16;
    setPackThreads(1);
    ASSERT_TRUE(layout->pack(logical.data(), n * eb, one.data(), one.size()));
    if (fp16) {
      ASSERT_TRUE(layout->packFp32(f32.data(), n, oneF.data(), oneF.size()));
    }
    setPackThreads(3);
    ASSERT_TRUE(layout->pack(logical.data(), n * eb, many.data(), many.size()));
    if (fp16) {
      ASSERT_TRUE(layout->packFp32(f32.data(), n, manyF.data(), manyF.size()));
    }
    setPackThreads(0);
    EXPECT_TRUE(one == many);
    if (fp16) {
      EXPECT_TRUE(oneF == manyF);
    }
    std::vector<char> back(logical.size());
    ASSERT_TRUE(layout->unpack(many.data(), many.size(), back.data(), back.size()));
    EXPECT_TRUE(back == logical);
  }
}

TEST(FastPackers, Fp16ToFp32EveryValue) {
  std::vector<uint16_t> all(65536 + 5);
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = static_cast<uint16_t>(i * 40503u); // every value, in a scrambled order
  std::vector<float> out(all.size());
  convertFp16ToFp32(all.data(), out.data(), static_cast<int64_t>(all.size()));
  for (size_t i = 0; i < all.size(); ++i) {
    const float expected = fp16ToFp32(all[i]);
    ASSERT_EQ(std::memcmp(&out[i], &expected, 4), 0) << "half 0x" << std::hex << all[i];
  }
}

} // namespace
