//===- ConstantPackerPeakTest.cpp - Packing memory known before packing ---===//
//
// getPeakBytes() is what --dla-pack-weights compares with max-bytes before
// allocating anything: it must cover every surface and temporary for any
// data, compressed weights included.

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/ConstantPacker.h"
#include "dla/Format/NvdlaWeightCompression.h"
#include "dla/Format/NvdlaWeightPacker.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

TEST(ConstantPackerPeakTest, BoundLayoutCountsStorageAndFp16Copy) {
  // crouton on 1x3x5x30, 2-byte elements: 1x8x8x32 padded = 4096 bytes.
  auto bound = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({1, 3, 5, 30}, 2);
  ASSERT_TRUE(bound);
  auto packer = makeBoundLayoutPacker(std::move(*bound), 64);
  EXPECT_EQ(*packer->getPeakBytes(false), 4096);
  EXPECT_EQ(*packer->getPeakBytes(true), 4096 + 450 * 2);
}

TEST(ConstantPackerPeakTest, CompressedBoundCoversAnyData) {
  WeightParams params;
  params.precision = Precision::Int8;
  params.shape = {40, 24, 3, 3};
  auto packer = makeNvdlaWeightPacker(params, /*compressed=*/true);
  ASSERT_TRUE(packer);
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  ASSERT_TRUE(layout);
  const int64_t worstImage = getCompressedWeightLayoutBound(*layout).storageBytes;
  Expected<int64_t> peak = (*packer)->getPeakBytes(false);
  ASSERT_TRUE(peak);
  // The uncompressed stream and the worst image alone exceed the stream.
  EXPECT_GT(*peak, layout->getStorageBytes() + worstImage);
  // Dense random data (no zeros): the planned surfaces and the image stay
  // within the bound.
  std::mt19937 rng(7);
  std::vector<char> data(40 * 24 * 9);
  for (char &c : data)
    c = static_cast<char>(1 + rng() % 255);
  PackSource source{data.data(), static_cast<int64_t>(data.size())};
  auto fresh = makeNvdlaWeightPacker(params, true);
  Expected<std::vector<int64_t>> sizes = (*fresh)->planSurfaces(source);
  ASSERT_TRUE(sizes);
  int64_t surfaces = std::accumulate(sizes->begin(), sizes->end(), int64_t(0));
  EXPECT_LE(layout->getStorageBytes() + worstImage + surfaces, *peak);
}

// The bound is asked before anything is allocated, so it must not cost
// memory per kernel group: 2^40 one-byte kernels (2^35 groups) once made it
// allocate 256 GiB of bookkeeping and abort.
TEST(ConstantPackerPeakTest, CompressedBoundTakesNoMemoryPerGroup) {
  WeightParams params;
  params.precision = Precision::Int8;
  params.shape = {int64_t(1) << 40, 1, 1, 1};
  auto packer = makeNvdlaWeightPacker(params, /*compressed=*/true);
  ASSERT_TRUE(packer);
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  ASSERT_TRUE(layout);
  CompressedWeightLayout bound = getCompressedWeightLayoutBound(*layout);
  ASSERT_EQ(bound.surfaces.size(), 1u);
  EXPECT_TRUE(bound.surfaces[0].groupBytes.empty());
  // All 2^40 bytes non-zero: the data surface holds every one of them.
  EXPECT_EQ(bound.surfaces[0].dataUsedBytes, int64_t(1) << 40);
  Expected<int64_t> peak = (*packer)->getPeakBytes(false);
  ASSERT_TRUE(peak) << peak.message();
  EXPECT_GT(*peak, 2 * (int64_t(1) << 40));
}

TEST(ConstantPackerPeakTest, UncompressedWeightsNeedOnlyTheirStorage) {
  WeightParams params;
  params.precision = Precision::Int8;
  params.shape = {40, 24, 3, 3};
  auto packer = makeNvdlaWeightPacker(params, /*compressed=*/false);
  ASSERT_TRUE(packer);
  Expected<NvdlaWeightLayout> layout = NvdlaWeightLayout::create(params);
  EXPECT_EQ(*(*packer)->getPeakBytes(false), layout->getStorageBytes());
}

} // namespace
