//===- StorageDescriptionTest.cpp - Buffers and typed views of layouts ----===//
//
// Expected strides and offsets are the NVDLA in-memory format document's
// worked geometry written by hand (atom 32 bytes, packed line stride W x
// atom, surface stride H x line stride; pitch-linear lines 32-byte aligned;
// alignment table), plus a property check: every view position that maps to
// a logical element lands on that element's getByteOffset.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/NvdlaAux.h"
#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPixel.h"
#include "dla/Format/NvdlaWeight.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

struct D {
  int64_t extent, stride, logicalDim, weight;
};

void expectDims(const StorageView &v, std::vector<D> dims) {
  ASSERT_EQ(v.view.dims.size(), dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    EXPECT_EQ(v.view.dims[i].extent, dims[i].extent) << "dim " << i;
    EXPECT_EQ(v.view.dims[i].stride, dims[i].stride) << "dim " << i;
    EXPECT_EQ(v.view.dims[i].logicalDim, dims[i].logicalDim) << "dim " << i;
    EXPECT_EQ(v.view.dims[i].weight, dims[i].weight) << "dim " << i;
  }
}

/// Every in-bounds view position is the byte offset of its element, and the
/// views together cover every element exactly once.
void expectConsistent(const BoundLayout &layout) {
  StorageDescription d = layout.describeStorage();
  const auto &shape = layout.getShape();
  std::vector<int> seen(layout.getNumElements(), 0);
  for (const StorageView &v : d.views) {
    if (!v.fields.empty())
      continue; // bit fields: checked by the pixel test below
    const size_t n = v.view.dims.size();
    std::vector<int64_t> pos(n, 0);
    while (true) {
      std::vector<int64_t> index(shape.size(), 0);
      if (!v.logicalBase.empty())
        index = v.logicalBase;
      int64_t off = v.view.offset;
      for (size_t k = 0; k < n; ++k) {
        index[v.view.dims[k].logicalDim] += pos[k] * v.view.dims[k].weight;
        off += pos[k] * v.view.dims[k].stride;
      }
      bool in = true;
      for (size_t k = 0; k < shape.size(); ++k)
        in &= index[k] < shape[k];
      if (in) {
        Expected<int64_t> want = layout.getByteOffset(index);
        ASSERT_TRUE(bool(want));
        EXPECT_EQ(off * v.elementBytes, *want);
        int64_t flat = 0;
        for (size_t k = 0; k < shape.size(); ++k)
          flat = flat * shape[k] + index[k];
        ++seen[flat];
      }
      size_t k = n;
      while (k > 0 && ++pos[k - 1] == v.view.dims[k - 1].extent)
        pos[--k] = 0;
      if (k == 0)
        break;
    }
  }
  for (int s : seen)
    ASSERT_EQ(s, 1);
}

TEST(StorageDescription, FeatureInt8Packed) {
  // 40 channels of int8: two 32-byte atoms per pixel group; W = 2, H = 3.
  auto b = FeatureBoundLayout::bind({Precision::Int8}, {1, 40, 3, 2});
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  ASSERT_EQ(d.buffers.size(), 1u);
  EXPECT_EQ(d.buffers[0].bytes, 2 * 3 * 2 * 32);
  EXPECT_EQ(d.buffers[0].alignment, 32);
  ASSERT_EQ(d.views.size(), 1u);
  EXPECT_EQ(d.views[0].elementBytes, 1);
  // Line stride 2 x 32 = 64, surface stride 3 x 64 = 192.
  expectDims(d.views[0], {{1, 384, 0, 1}, {2, 192, 1, 32}, {3, 64, 2, 1}, {2, 32, 3, 1},
                          {32, 1, 1, 1}});
  expectConsistent(**b);
}

TEST(StorageDescription, FeatureFp16Strided) {
  FeatureConfig c;
  c.precision = Precision::Fp16;
  c.lineStride = 224;
  c.surfaceStride = 1344;
  auto b = FeatureBoundLayout::bind(c, {1, 20, 5, 6});
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  // fp16: 16 channels per 32-byte atom; strides in 2-byte elements.
  expectDims(d.views[0], {{1, 1344, 0, 1}, {2, 672, 1, 16}, {5, 112, 2, 1}, {6, 16, 3, 1},
                          {16, 1, 1, 1}});
  EXPECT_EQ(d.buffers[0].bytes, 2 * 1344);
  expectConsistent(**b);
}

TEST(StorageDescription, ChunkedCrouton) {
  auto b = ChunkedLayout::getPreset(ChunkedPreset::Crouton).bind({1, 5, 6, 40}, 1);
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  EXPECT_EQ(d.buffers[0].alignment, kDefaultStorageAlignment);
  ASSERT_EQ(d.views.size(), 1u);
  int64_t inner = d.views[0].view.dims.back().stride;
  EXPECT_EQ(inner, 1);
  expectConsistent(**b);
}

TEST(StorageDescription, BiasInt8SignExtendedIntoInt16) {
  AuxConfig c;
  c.kind = AuxKind::Bias;
  c.mode = AuxMode::PerChannel;
  c.precision = Precision::Int8;
  c.dataSize = DataSize::TwoByte;
  auto b = AuxBoundLayout::bind(c, {40}, 1);
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  EXPECT_EQ(d.buffers[0].alignment, 32);
  ASSERT_EQ(d.views.size(), 1u);
  EXPECT_EQ(d.views[0].elementBytes, 2);
  EXPECT_TRUE(d.views[0].signExtend);
  // int8 processing: 32 elements per atom, two atoms.
  expectDims(d.views[0], {{2, 32, 0, 32}, {32, 1, 0, 1}});
}

TEST(StorageDescription, SemiPlanarOneViewPerComponent) {
  PixelConfig c;
  c.format = PixelFormat::T_Y8___V8U8_N444;
  auto b = PixelBoundLayout::bind(c, {1, 3, 2, 5});
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  EXPECT_EQ(d.buffers[0].alignment, 32);
  ASSERT_EQ(d.views.size(), 3u);
  // Y lines of 5 bytes padded to 32; UV lines of 10 bytes padded to 32; the
  // UV plane after two Y lines. V8U8 names the word from its most
  // significant bits: U at the lower address.
  EXPECT_EQ(d.views[0].name, "Y");
  EXPECT_EQ(d.views[0].view.offset, 0);
  expectDims(d.views[0], {{2, 32, 2, 1}, {5, 1, 3, 1}});
  EXPECT_EQ(d.views[1].name, "U");
  EXPECT_EQ(d.views[1].view.offset, 64);
  EXPECT_EQ(d.views[1].logicalBase, (std::vector<int64_t>{0, 1, 0, 0}));
  expectDims(d.views[1], {{2, 32, 2, 1}, {5, 2, 3, 1}});
  EXPECT_EQ(d.views[2].name, "V");
  EXPECT_EQ(d.views[2].view.offset, 65);
  expectConsistent(**b);
}

TEST(StorageDescription, TenBitPixelsAreWords) {
  PixelConfig c;
  c.format = PixelFormat::T_A2B10G10R10;
  auto b = PixelBoundLayout::bind(c, {1, 4, 2, 3});
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  ASSERT_EQ(d.views.size(), 1u);
  const StorageView &v = d.views[0];
  EXPECT_EQ(v.elementBytes, 4);
  // 3 pixels x 4 bytes = 12 -> 32-byte lines = 8 words.
  expectDims(v, {{2, 8, 2, 1}, {3, 1, 3, 1}});
  ASSERT_EQ(v.fields.size(), 4u);
  // R in bits 0..9, G 10..19, B 20..29, A 30..31 (name lists MSB first).
  EXPECT_EQ(v.fields[0].bitOffset, 0);
  EXPECT_EQ(v.fields[0].bits, 10);
  EXPECT_EQ(v.fields[3].bitOffset, 30);
  EXPECT_EQ(v.fields[3].bits, 2);
  // The fields reproduce pack().
  std::vector<uint16_t> logical(24);
  for (size_t i = 0; i < logical.size(); ++i)
    logical[i] = static_cast<uint16_t>(i * 37 + 5);
  std::vector<char> storage((*b)->getStorageBytes());
  (*b)->pack(reinterpret_cast<const char *>(logical.data()), storage.data());
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t w = 0; w < 3; ++w) {
      uint32_t word = 0;
      for (const BitField &f : v.fields)
        word |= (uint32_t(logical[(f.channel * 2 + h) * 3 + w]) & ((1u << f.bits) - 1))
                << f.bitOffset;
      uint32_t got;
      std::memcpy(&got, storage.data() + 4 * (v.view.offset + h * 8 + w), 4);
      EXPECT_EQ(got, word);
    }
}

TEST(StorageDescription, WeightsDirectAre256Aligned) {
  WeightParams p;
  p.format = WeightFormat::Direct;
  p.precision = Precision::Int8;
  p.shape = {32, 64, 3, 3};
  auto b = createNvdlaWeightBoundLayout(p);
  ASSERT_TRUE(bool(b));
  StorageDescription d = (*b)->describeStorage();
  EXPECT_EQ(d.buffers[0].alignment, 256);
  expectConsistent(**b);
}

TEST(StorageDescription, WeightsImageHaveNoView) {
  WeightParams p;
  p.format = WeightFormat::Image;
  p.precision = Precision::Int8;
  p.pixelChannels = 4;
  p.shape = {8, 3, 3, 3};
  auto b = createNvdlaWeightBoundLayout(p);
  ASSERT_TRUE(bool(b)) << b.message();
  StorageDescription d = (*b)->describeStorage();
  EXPECT_EQ(d.buffers[0].alignment, 256);
  EXPECT_TRUE(d.views.empty());
}

} // namespace
