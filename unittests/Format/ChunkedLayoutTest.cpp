//===- ChunkedLayoutTest.cpp - Validation, presets, sizes, errors --------===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/StridedCopy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

using namespace dlaformat;

namespace {

std::string validationError(int64_t rank, std::vector<ChunkPair> pairs) {
  Status s = ChunkedLayout::validate(rank, pairs);
  return s ? std::string("<valid>") : s.message();
}

TEST(ChunkedLayout, ValidationMessages) {
  EXPECT_EQ(validationError(2, {{0, 0}, {1, 0}, {1, 8}}), "<valid>");
  EXPECT_EQ(validationError(-1, {}), "rank must be non-negative, got -1");
  EXPECT_EQ(validationError(2, {{0, 0}, {2, 0}}),
            "pair #1 (2, 0): dimension 2 is out of range [0, 2)");
  EXPECT_EQ(validationError(2, {{0, 0}, {-1, 0}}),
            "pair #1 (-1, 0): dimension -1 is out of range [0, 2)");
  EXPECT_EQ(validationError(2, {{0, 0}, {1, 0}, {1, -4}}),
            "pair #2 (1, -4): tile size must be positive (0 means 'all the rest')");
  EXPECT_EQ(validationError(2, {{0, 0}, {1, 0}, {0, 0}}),
            "pair #2 (0, 0): dimension 0 already has its 'all the rest' pair (#0)");
  EXPECT_EQ(validationError(2, {{0, 0}, {1, 8}}),
            "dimension 1 has no (1, 0) pair; every dimension needs exactly one 'all the "
            "rest' pair");
  int64_t big = int64_t(1) << 40;
  EXPECT_EQ(validationError(1, {{0, 0}, {0, big}, {0, big}}),
            "pair #2 (0, 1099511627776): product of the tile sizes of dimension 0 "
            "overflows a 64-bit integer");
}

TEST(ChunkedLayout, PresetNamesRoundTrip) {
  std::vector<std::string> names;
  for (ChunkedPreset p : enumValues<ChunkedPreset>()) {
    names.emplace_back(enumName(p));
    EXPECT_EQ(parseEnum<ChunkedPreset>(enumName(p)), p);
    ChunkedLayout layout = ChunkedLayout::getPreset(p);
    EXPECT_TRUE(ChunkedLayout::validate(4, layout.getPairs()));
    EXPECT_EQ(layout.getMatchingPreset(), p);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"flat", "nchw", "depth32", "crouton", "crouton4x1",
                                             "crouton2x2", "crouton2", "conv_weight"}));
  EXPECT_FALSE(parseEnum<ChunkedPreset>("croutons"));
}

TEST(ChunkedLayout, ExplicitListMatchesPreset) {
  auto l = ChunkedLayout::get(4, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 8}, {2, 8}, {3, 32}});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getMatchingPreset(), ChunkedPreset::Crouton);
  auto other = ChunkedLayout::get(4, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {1, 8}, {2, 8}, {3, 16}});
  ASSERT_TRUE(other);
  EXPECT_FALSE(other->getMatchingPreset());
}

TEST(ChunkedLayout, PaddedShapeAndStorage) {
  ChunkedLayout crouton = ChunkedLayout::getPreset(ChunkedPreset::Crouton);
  auto b = crouton.bind({1, 3, 5, 30}, 1);
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)->getPaddedShape(), (std::vector<int64_t>{1, 8, 8, 32}));
  EXPECT_EQ((*b)->getStorageBytes(), 2048);
  auto b2 = crouton.bind({2, 9, 20, 50}, 4);
  ASSERT_TRUE(b2);
  EXPECT_EQ((*b2)->getPaddedShape(), (std::vector<int64_t>{2, 16, 24, 64}));
  EXPECT_EQ((*b2)->getStorageElements(), 2 * 16 * 24 * 64);
  EXPECT_EQ((*b2)->getStorageBytes(), 2 * 16 * 24 * 64 * 4);
}

TEST(ChunkedLayout, StridedViewOfCrouton) {
  auto b = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({2, 9, 20, 50}, 2);
  ASSERT_TRUE(b);
  auto view = (*b)->getStridedView();
  ASSERT_TRUE(view);
  // pairs (0,0),(1,0),(2,0),(3,0),(1,8),(2,8),(3,32)
  std::vector<int64_t> extents, strides, dims, weights;
  for (auto &d : view->dims) {
    extents.push_back(d.extent);
    strides.push_back(d.stride);
    dims.push_back(d.logicalDim);
    weights.push_back(d.weight);
  }
  EXPECT_EQ(extents, (std::vector<int64_t>{2, 2, 3, 2, 8, 8, 32}));
  EXPECT_EQ(strides, (std::vector<int64_t>{24576, 12288, 4096, 2048, 256, 32, 1}));
  EXPECT_EQ(dims, (std::vector<int64_t>{0, 1, 2, 3, 1, 2, 3}));
  EXPECT_EQ(weights, (std::vector<int64_t>{1, 8, 8, 32, 1, 1, 1}));
  EXPECT_EQ(view->offset, 0);
}

TEST(ChunkedLayout, BindErrors) {
  ChunkedLayout crouton = ChunkedLayout::getPreset(ChunkedPreset::Crouton);
  auto wrongRank = crouton.bind({3, 5, 30}, 1);
  ASSERT_FALSE(wrongRank);
  EXPECT_EQ(wrongRank.message(), "layout of rank 4 cannot lay out shape 3x5x30 of rank 3");
  auto dynamic = crouton.bind({1, -1, 5, 30}, 1);
  ASSERT_FALSE(dynamic);
  EXPECT_EQ(dynamic.message(), "dimension 1 is dynamic or negative; a layout needs a static shape");
  const int64_t huge = std::numeric_limits<int64_t>::max() / 2;
  auto overflowElements = crouton.bind({huge, 1, 1, 4}, 1);
  ASSERT_FALSE(overflowElements);
  EXPECT_NE(overflowElements.message().find("overflows a 64-bit integer"), std::string::npos);
  // The logical size fits; the padded storage does not.
  auto overflowPadding = crouton.bind({int64_t(1) << 55, 1, 1, 1}, 1);
  ASSERT_FALSE(overflowPadding);
  EXPECT_EQ(overflowPadding.message(),
            "storage size of shape 36028797018963968x1x1x1 under layout [(0, 0), (1, 0), (2, 0), "
            "(3, 0), (1, 8), (2, 8), (3, 32)] overflows a 64-bit integer");
  auto paddingOverflow = ChunkedLayout::get(1, {{0, 0}, {0, int64_t(1) << 62}});
  ASSERT_TRUE(paddingOverflow);
  auto pad = paddingOverflow->bind({(int64_t(1) << 62) + 1}, 1);
  ASSERT_FALSE(pad);
  EXPECT_EQ(pad.message(),
            "padding dimension 0 of shape 4611686018427387905 overflows a 64-bit integer");
  auto bytes = ChunkedLayout::get(1, {{0, 0}})->bind({int64_t(1) << 62}, 4);
  ASSERT_FALSE(bytes);
  EXPECT_EQ(bytes.message(), "size in bytes of shape 4611686018427387904 overflows a 64-bit integer");
}

TEST(ChunkedLayout, QueryErrors) {
  auto b = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({1, 3, 5, 30}, 2);
  ASSERT_TRUE(b);
  auto oob = (*b)->getByteOffset({0, 3, 0, 0});
  ASSERT_FALSE(oob);
  EXPECT_EQ(oob.message(), "index 3 of dimension 1 is out of bounds [0, 3)");
  auto rank = (*b)->getByteOffset({0, 0});
  ASSERT_FALSE(rank);
  EXPECT_EQ(rank.message(), "index has rank 2, shape 1x3x5x30 has rank 4");
  auto past = (*b)->locate(4096);
  ASSERT_FALSE(past);
  EXPECT_EQ(past.message(), "byte offset 4096 is outside the storage [0, 4096)");
  auto mid = (*b)->locate(2 * (32 + 3) + 1);
  ASSERT_TRUE(mid);
  EXPECT_FALSE(mid->isPadding);
  EXPECT_EQ(mid->index, (std::vector<int64_t>{0, 0, 1, 3}));
  EXPECT_EQ(mid->byteInElement, 1);
}

TEST(ChunkedLayout, PackIotaCrouton1x3x5x30Bytes) {
  // Element k of the logical tensor holds k (int16); storage position
  // h*256 + w*32 + c holds k = (h*5 + w)*30 + c when in range, else 0.
  std::vector<int64_t> shape = {1, 3, 5, 30};
  auto b = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind(shape, 2);
  ASSERT_TRUE(b);
  std::vector<int16_t> logical(450);
  for (int i = 0; i < 450; ++i)
    logical[i] = static_cast<int16_t>(i);
  std::vector<int16_t> storage(2048, -1);
  (*b)->pack(reinterpret_cast<const char *>(logical.data()), reinterpret_cast<char *>(storage.data()));
  for (int h = 0; h < 8; ++h)
    for (int w = 0; w < 8; ++w)
      for (int c = 0; c < 32; ++c) {
        int16_t expected = (h < 3 && w < 5 && c < 30) ? static_cast<int16_t>((h * 5 + w) * 30 + c) : 0;
        ASSERT_EQ(storage[h * 256 + w * 32 + c], expected) << h << "," << w << "," << c;
      }
  std::vector<int16_t> back(450, -1);
  (*b)->unpack(reinterpret_cast<const char *>(storage.data()), reinterpret_cast<char *>(back.data()));
  EXPECT_EQ(back, logical);
}

TEST(ChunkedLayout, OddElementWidthAndScalars) {
  // A 3-byte element (e.g. i24) is moved whole.
  auto b = ChunkedLayout::get(2, {{0, 0}, {1, 0}, {0, 2}})->bind({3, 2}, 3);
  ASSERT_TRUE(b);
  EXPECT_EQ((*b)->getStorageBytes(), 4 * 2 * 3);
  std::vector<char> logical(18);
  for (int i = 0; i < 18; ++i)
    logical[i] = static_cast<char>(i + 1);
  std::vector<char> storage(24, 0x55);
  (*b)->pack(logical.data(), storage.data());
  // storage order: (row-pair, col, row-in-pair): (0,0),(1,0),(0,1),(1,1),(2,0),pad,(2,1),pad
  const int order[8] = {0, 2, 1, 3, 4, -1, 5, -1};
  for (int s = 0; s < 8; ++s)
    for (int byte = 0; byte < 3; ++byte)
      ASSERT_EQ(storage[s * 3 + byte], order[s] < 0 ? 0 : static_cast<char>(order[s] * 3 + byte + 1));
  auto scalar = ChunkedLayout::get(0, {})->bind({}, 4);
  ASSERT_TRUE(scalar);
  EXPECT_EQ((*scalar)->getStorageBytes(), 4);
  int32_t in = 0x12345678, out = 0;
  (*scalar)->pack(reinterpret_cast<const char *>(&in), reinterpret_cast<char *>(&out));
  EXPECT_EQ(out, in);
  auto empty = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({0, 3, 5, 30}, 1);
  ASSERT_TRUE(empty);
  EXPECT_EQ((*empty)->getStorageBytes(), 0);
}

} // namespace

// An empty view whose other extents multiply past int64 (7 x 2^62 x 0):
// the dense-copy check once overflowed before reaching the zero (UBSan in
// build-san; found by dla-fuzz-format on a chunked layout). Nothing is
// written.
TEST(StridedCopyEmpty, HugeExtentsBesideAZero) {
  StridedView view;
  view.dims = {{7, 0, 0, 1}, {int64_t(1) << 62, 0, 1, 1}, {0, 1, 2, 1}};
  std::vector<int64_t> shape = {7, int64_t(1) << 62, 0};
  char logical = 1, storage = 2;
  packStridedView(view, shape, 1, &logical, &storage, 0);
  unpackStridedView(view, shape, 1, &storage, &logical);
  EXPECT_EQ(storage, 2);
  EXPECT_EQ(logical, 1);
  // Trailing extents whose product overflows (2 x INT64_MAX) beside a zero.
  StridedView wide;
  wide.dims = {{0, 1, 0, 1}};
  std::vector<int64_t> wideShape = {0, 2, INT64_MAX};
  packStridedView(wide, wideShape, 1, &logical, &storage, 0);
  unpackStridedView(wide, wideShape, 1, &storage, &logical);
  EXPECT_EQ(storage, 2);
}
