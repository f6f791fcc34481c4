//===- ChunkedPropertyTest.cpp - Random layouts and shapes ---------------===//
//
// For random shapes and random valid pair lists: the offset map is a
// bijection from the padded index space onto [0, storage size), locate()
// inverts it, and pack agrees with a per-element scatter written from the
// definition (each index's digits peeled right to left).
//
//===----------------------------------------------------------------------===//

#include "dla/Format/ChunkedLayout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace dlaformat;

namespace {

std::vector<ChunkPair> randomPairs(std::mt19937_64 &rng, int64_t rank) {
  std::vector<ChunkPair> rest, tiles;
  for (int64_t d = 0; d < rank; ++d) {
    rest.push_back({d, 0});
    int nt = std::uniform_int_distribution<int>(0, 2)(rng);
    for (int t = 0; t < nt; ++t)
      tiles.push_back({d, std::uniform_int_distribution<int64_t>(1, 5)(rng)});
  }
  std::shuffle(rest.begin(), rest.end(), rng);
  std::shuffle(tiles.begin(), tiles.end(), rng);
  std::vector<ChunkPair> pairs = rest;
  pairs.insert(pairs.end(), tiles.begin(), tiles.end());
  // Sometimes move a tile in front of the rest pairs: still valid.
  if (!tiles.empty() && std::uniform_int_distribution<int>(0, 3)(rng) == 0)
    std::rotate(pairs.begin(), pairs.end() - 1, pairs.end());
  return pairs;
}

/// Storage offset of a (possibly padded) index straight from the definition:
/// walk pairs right to left, each takes the next digit of its dimension.
int64_t definitionOffset(const std::vector<ChunkPair> &pairs, const std::vector<int64_t> &padded,
                         const std::vector<int64_t> &tile, std::vector<int64_t> index) {
  int64_t offset = 0, stride = 1;
  for (size_t i = pairs.size(); i-- > 0;) {
    const ChunkPair &p = pairs[i];
    int64_t extent = p.size ? p.size : padded[p.dim] / tile[p.dim];
    offset += (index[p.dim] % extent) * stride;
    index[p.dim] /= extent;
    stride *= extent;
  }
  return offset;
}

TEST(ChunkedProperty, BijectionInverseAndPack) {
  std::mt19937_64 rng(20261121);
  for (int trial = 0; trial < 300; ++trial) {
    int64_t rank = std::uniform_int_distribution<int64_t>(1, 4)(rng);
    std::vector<ChunkPair> pairs = randomPairs(rng, rank);
    auto layout = ChunkedLayout::get(rank, pairs);
    ASSERT_TRUE(layout) << layout.message();
    std::vector<int64_t> shape(rank);
    for (auto &e : shape)
      e = std::uniform_int_distribution<int64_t>(1, 7)(rng);
    int64_t width = std::vector<int64_t>{1, 2, 4, 8, 3}[trial % 5];
    auto bound = layout->bind(shape, width);
    ASSERT_TRUE(bound) << bound.message();
    const ChunkedBoundLayout &b = **bound;
    SCOPED_TRACE(layout->toString() + " on " + formatShape(shape));

    std::vector<int64_t> tile(rank);
    for (int64_t d = 0; d < rank; ++d)
      tile[d] = layout->getTileProduct(d);
    const std::vector<int64_t> &padded = b.getPaddedShape();
    int64_t paddedCount = 1;
    for (int64_t d = 0; d < rank; ++d) {
      ASSERT_EQ(padded[d] % tile[d], 0);
      ASSERT_GE(padded[d], shape[d]);
      ASSERT_LT(padded[d] - shape[d], tile[d]);
      paddedCount *= padded[d];
    }
    ASSERT_EQ(b.getStorageElements(), paddedCount);

    // Bijection over the padded index space, and agreement with the definition.
    std::vector<char> seen(paddedCount, 0);
    std::vector<int64_t> idx(rank, 0);
    for (int64_t n = 0; n < paddedCount; ++n) {
      int64_t off = b.getElementOffsetUnchecked(idx.data());
      ASSERT_GE(off, 0);
      ASSERT_LT(off, paddedCount);
      ASSERT_FALSE(seen[off]) << "offset " << off << " hit twice";
      seen[off] = 1;
      ASSERT_EQ(off, definitionOffset(pairs, padded, tile, idx));
      for (int64_t d = rank; d-- > 0;) {
        if (++idx[d] < padded[d])
          break;
        idx[d] = 0;
      }
    }

    // Pack agrees with a per-element scatter; unpack inverts; locate inverts.
    int64_t count = b.getNumElements();
    std::vector<char> logical(count * width);
    for (auto &c : logical)
      c = static_cast<char>(rng());
    std::vector<char> expected(b.getStorageBytes(), 0);
    std::fill(idx.begin(), idx.end(), 0);
    for (int64_t n = 0; n < count; ++n) {
      int64_t off = definitionOffset(pairs, padded, tile, idx);
      std::copy_n(&logical[n * width], width, &expected[off * width]);
      auto loc = b.locate(off * width + width - 1);
      ASSERT_TRUE(loc);
      ASSERT_FALSE(loc->isPadding);
      ASSERT_EQ(loc->index, idx);
      ASSERT_EQ(loc->byteInElement, width - 1);
      for (int64_t d = rank; d-- > 0;) {
        if (++idx[d] < shape[d])
          break;
        idx[d] = 0;
      }
    }
    std::vector<char> storage(b.getStorageBytes(), 0x5a);
    b.pack(logical.data(), storage.data());
    ASSERT_EQ(storage, expected);
    std::vector<char> back(logical.size(), 0);
    b.unpack(storage.data(), back.data());
    ASSERT_EQ(back, logical);
  }
}

} // namespace

namespace {
/// HTP conv_weight has 4-element storage runs and 32-element source runs, so
/// pack and unpack walk the source in order; partial chunks in both C and K.
TEST(ChunkedProperty, SourceOrderWalkMatchesDefinition) {
  for (int64_t width : {1, 2, 4, 3}) {
    std::vector<int64_t> shape = {3, 2, 40, 70};
    auto bound = ChunkedLayout::getPreset(ChunkedPreset::ConvWeight).bind(shape, width);
    ASSERT_TRUE(bound);
    const ChunkedBoundLayout &b = **bound;
    std::vector<char> logical(b.getNumElements() * width);
    std::mt19937_64 rng(width);
    for (auto &c : logical)
      c = static_cast<char>(rng() | 1); // never zero, so padding is distinguishable
    std::vector<char> expected(b.getStorageBytes(), 0);
    std::vector<int64_t> idx(4, 0);
    for (int64_t n = 0; n < b.getNumElements(); ++n) {
      std::copy_n(&logical[n * width], width,
                  &expected[b.getElementOffsetUnchecked(idx.data()) * width]);
      for (int64_t d = 4; d-- > 0;) {
        if (++idx[d] < shape[d])
          break;
        idx[d] = 0;
      }
    }
    std::vector<char> storage(b.getStorageBytes(), 0x5a);
    b.pack(logical.data(), storage.data());
    ASSERT_EQ(storage, expected) << "width " << width;
    std::vector<char> back(logical.size(), 0);
    b.unpack(storage.data(), back.data());
    ASSERT_EQ(back, logical) << "width " << width;
  }
}
} // namespace
