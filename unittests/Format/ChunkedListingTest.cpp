//===- ChunkedListingTest.cpp - The HTP document's memory orders ---------===//
//
// Each test walks storage in order and checks which logical element (or
// padding) the layout puts at every position, against the order the HTP
// document lists, written out here as plain nested loops in the document's
// order. Errata 1 and 2 of shared/spec/README.md are applied.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/ChunkedLayout.h"

#include <gtest/gtest.h>

#include <array>
#include <vector>

using namespace dlaformat;

namespace {
using Index = std::array<int64_t, 4>;

/// One storage position as the document lists it.
struct Slot {
  Index index;
  bool padding;
};

/// Checks that storage position k holds expected[k], in both directions:
/// locate(k) and getByteOffset(index) == k.
void expectOrder(ChunkedPreset preset, std::vector<int64_t> shape,
                 const std::vector<Slot> &expected) {
  auto bound = ChunkedLayout::getPreset(preset).bind(shape, 1);
  ASSERT_TRUE(bound) << bound.message();
  ASSERT_EQ((*bound)->getStorageBytes(), static_cast<int64_t>(expected.size()));
  for (size_t k = 0; k < expected.size(); ++k) {
    auto loc = (*bound)->locate(static_cast<int64_t>(k));
    ASSERT_TRUE(loc) << loc.message();
    const Slot &slot = expected[k];
    ASSERT_EQ(loc->isPadding, slot.padding) << "storage position " << k;
    if (slot.padding)
      continue;
    std::vector<int64_t> idx(slot.index.begin(), slot.index.end());
    ASSERT_EQ(loc->index, idx) << "storage position " << k;
    auto off = (*bound)->getByteOffset(idx);
    ASSERT_TRUE(off);
    ASSERT_EQ(*off, static_cast<int64_t>(k));
  }
}

bool inShape(const Index &i, const std::vector<int64_t> &shape) {
  for (size_t d = 0; d < 4; ++d)
    if (i[d] >= shape[d])
      return false;
  return true;
}

TEST(ChunkedListing, FlatIsRowMajor) {
  // (0,0,0,0) ... (0,0,4,29), (0,1,0,0), (0,1,0,1) [erratum 1] ... (1,2,4,29)
  std::vector<Slot> order;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t h = 0; h < 3; ++h)
      for (int64_t w = 0; w < 5; ++w)
        for (int64_t c = 0; c < 30; ++c)
          order.push_back({{n, h, w, c}, false});
  expectOrder(ChunkedPreset::Flat, {2, 3, 5, 30}, order);
  // The document's second line of height 1, with erratum 1 fixed.
  EXPECT_EQ(order[150].index, (Index{0, 1, 0, 0}));
  EXPECT_EQ(order[151].index, (Index{0, 1, 0, 1}));
}

TEST(ChunkedListing, Crouton1x3x5x30) {
  // Padded to 1x8x8x32; one chunk, walked h, w, c.
  std::vector<int64_t> shape = {1, 3, 5, 30};
  std::vector<Slot> order;
  for (int64_t h = 0; h < 8; ++h)
    for (int64_t w = 0; w < 8; ++w)
      for (int64_t c = 0; c < 32; ++c) {
        Index i = {0, h, w, c};
        order.push_back({i, !inShape(i, shape)});
      }
  expectOrder(ChunkedPreset::Crouton, shape, order);
  // Lines quoted from the document: (0,0,0,30), (0,0,0,31) are padding, and
  // (0,0,1,30), (0,0,1,31) [erratum 2] close the second line.
  EXPECT_TRUE(order[30].padding && order[31].padding);
  EXPECT_EQ(order[62].index, (Index{0, 0, 1, 30}));
  EXPECT_TRUE(order[62].padding);
  EXPECT_EQ(order[32 * 5].index, (Index{0, 0, 5, 0})); // (0,0,5,0) starts pad lines
  EXPECT_EQ(order[256].index, (Index{0, 1, 0, 0}));
  EXPECT_EQ(order[2 * 256 + 4 * 32 + 29].index, (Index{0, 2, 4, 29}));
  EXPECT_FALSE(order[2 * 256 + 4 * 32 + 29].padding);
}

TEST(ChunkedListing, Crouton2x9x20x50) {
  // Padded to 2x16x24x64: chunks of 8x8x32 ordered n, h-chunk, w-chunk,
  // c-chunk; inside a chunk h, w, c.
  std::vector<int64_t> shape = {2, 9, 20, 50};
  std::vector<Slot> order;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t hc = 0; hc < 2; ++hc)
      for (int64_t wc = 0; wc < 3; ++wc)
        for (int64_t cc = 0; cc < 2; ++cc)
          for (int64_t h = 0; h < 8; ++h)
            for (int64_t w = 0; w < 8; ++w)
              for (int64_t c = 0; c < 32; ++c) {
                Index i = {n, hc * 8 + h, wc * 8 + w, cc * 32 + c};
                order.push_back({i, !inShape(i, shape)});
              }
  expectOrder(ChunkedPreset::Crouton, shape, order);
  // "(0,7,7,0) ... (0,7,7,31) > end of chunk", "(0,0,0,32) ... > start of chunk"
  EXPECT_EQ(order[2047].index, (Index{0, 7, 7, 31}));
  EXPECT_EQ(order[2048].index, (Index{0, 0, 0, 32}));
  // after both channel chunks: "(0,0,8,0) ... (0,0,8,31)"
  EXPECT_EQ(order[4096].index, (Index{0, 0, 8, 0}));
  // "finished traversing all 24 in dimension 2", then "(0,8,0,0)"
  EXPECT_EQ(order[6 * 2048].index, (Index{0, 8, 0, 0}));
  // "(1,0,0,0)" after "all 16 in dimension 1"
  EXPECT_EQ(order[12 * 2048].index, (Index{1, 0, 0, 0}));
}

TEST(ChunkedListing, ConvWeight3x3x32x32) {
  // (0,0,0,0), (0,0,1,0), (0,0,2,0), (0,0,3,0), (0,0,0,1), ... (0,0,3,31),
  // (0,0,4,0), ... (0,0,31,31), (0,1,0,0), ... (1,0,0,0) ...
  std::vector<Slot> order;
  for (int64_t h = 0; h < 3; ++h)
    for (int64_t w = 0; w < 3; ++w)
      for (int64_t c8 = 0; c8 < 8; ++c8)
        for (int64_t k = 0; k < 32; ++k)
          for (int64_t c4 = 0; c4 < 4; ++c4)
            order.push_back({{h, w, c8 * 4 + c4, k}, false});
  expectOrder(ChunkedPreset::ConvWeight, {3, 3, 32, 32}, order);
  EXPECT_EQ(order[4].index, (Index{0, 0, 0, 1}));
  EXPECT_EQ(order[128].index, (Index{0, 0, 4, 0}));
  EXPECT_EQ(order[1024].index, (Index{0, 1, 0, 0}));
  EXPECT_EQ(order[3 * 1024].index, (Index{1, 0, 0, 0}));
}

TEST(ChunkedListing, ConvWeight3x3x64x96) {
  // Blocks of (0,0,0,0)...(2,2,31,31): input-channel blocks vary faster than
  // output-channel blocks.
  std::vector<Slot> order;
  for (int64_t kb = 0; kb < 3; ++kb)
    for (int64_t cb = 0; cb < 2; ++cb)
      for (int64_t h = 0; h < 3; ++h)
        for (int64_t w = 0; w < 3; ++w)
          for (int64_t c8 = 0; c8 < 8; ++c8)
            for (int64_t k = 0; k < 32; ++k)
              for (int64_t c4 = 0; c4 < 4; ++c4)
                order.push_back({{h, w, cb * 32 + c8 * 4 + c4, kb * 32 + k}, false});
  expectOrder(ChunkedPreset::ConvWeight, {3, 3, 64, 96}, order);
  const int64_t block = 3 * 3 * 32 * 32;
  EXPECT_EQ(order[1 * block].index, (Index{0, 0, 32, 0}));
  EXPECT_EQ(order[2 * block].index, (Index{0, 0, 0, 32}));
  EXPECT_EQ(order[5 * block].index, (Index{0, 0, 32, 64}));
  EXPECT_EQ(order[6 * block - 1].index, (Index{2, 2, 63, 95}));
}

TEST(ChunkedListing, ConvWeightPads50To64) {
  // "a 3x3x32x50 tensor ... will get padded into 3x3x32x64"
  auto bound = ChunkedLayout::getPreset(ChunkedPreset::ConvWeight).bind({3, 3, 32, 50}, 1);
  ASSERT_TRUE(bound);
  EXPECT_EQ((*bound)->getPaddedShape(), (std::vector<int64_t>{3, 3, 32, 64}));
}

TEST(ChunkedListing, NchwFollowsProse) {
  // NHWC logical, NCHW in memory: <4, 0,0, 3,0, 1,0, 2,0>.
  std::vector<Slot> order;
  for (int64_t n = 0; n < 2; ++n)
    for (int64_t c = 0; c < 4; ++c)
      for (int64_t h = 0; h < 3; ++h)
        for (int64_t w = 0; w < 5; ++w)
          order.push_back({{n, h, w, c}, false});
  expectOrder(ChunkedPreset::NCHW, {2, 3, 5, 4}, order);
}

TEST(ChunkedListing, Depth32) {
  // <4, 0,0, 1,0, 3,0, 2,0, 2,4, 3,32>: n, h, c-chunk, w-chunk, w4, c32.
  std::vector<int64_t> shape = {1, 2, 6, 40};
  std::vector<Slot> order;
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t cc = 0; cc < 2; ++cc)
      for (int64_t wc = 0; wc < 2; ++wc)
        for (int64_t w = 0; w < 4; ++w)
          for (int64_t c = 0; c < 32; ++c) {
            Index i = {0, h, wc * 4 + w, cc * 32 + c};
            order.push_back({i, !inShape(i, shape)});
          }
  expectOrder(ChunkedPreset::Depth32, shape, order);
}

TEST(ChunkedListing, CroutonVariants) {
  // crouton4x1: h8, w2, c32, w4 -> chunk 8x8x32 with w split 2 (outer) x 4.
  {
    std::vector<int64_t> shape = {1, 8, 8, 32};
    std::vector<Slot> order;
    for (int64_t h = 0; h < 8; ++h)
      for (int64_t w2 = 0; w2 < 2; ++w2)
        for (int64_t c = 0; c < 32; ++c)
          for (int64_t w4 = 0; w4 < 4; ++w4)
            order.push_back({{0, h, w2 * 4 + w4, c}, false});
    expectOrder(ChunkedPreset::Crouton4x1, shape, order);
  }
  // crouton2x2: h4, w4, c32, h2, w2 -> chunk 8x8x32.
  {
    std::vector<int64_t> shape = {1, 8, 8, 32};
    std::vector<Slot> order;
    for (int64_t h4 = 0; h4 < 4; ++h4)
      for (int64_t w4 = 0; w4 < 4; ++w4)
        for (int64_t c = 0; c < 32; ++c)
          for (int64_t h2 = 0; h2 < 2; ++h2)
            for (int64_t w2 = 0; w2 < 2; ++w2)
              order.push_back({{0, h4 * 2 + h2, w4 * 2 + w2, c}, false});
    expectOrder(ChunkedPreset::Crouton2x2, shape, order);
  }
  // crouton2: h8, w2, c32, w2 -> chunk 8x4x32.
  {
    std::vector<int64_t> shape = {1, 8, 4, 32};
    std::vector<Slot> order;
    for (int64_t h = 0; h < 8; ++h)
      for (int64_t wa = 0; wa < 2; ++wa)
        for (int64_t c = 0; c < 32; ++c)
          for (int64_t wb = 0; wb < 2; ++wb)
            order.push_back({{0, h, wa * 2 + wb, c}, false});
    expectOrder(ChunkedPreset::Crouton2, shape, order);
  }
}

} // namespace
