//===- NvdlaFeatureTest.cpp - NVDLA feature data format -------------------===//
//
// Expected bytes come from hand-written lists or from `naiveFeature`, a loop
// written straight from the document's rules, never from the code under
// test.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaFeature.h"
#include "dla/Format/NvdlaPrecision.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <tuple>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

using Bytes = std::vector<uint8_t>;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(NvdlaPrecision, NamesSizesAtoms) {
  EXPECT_EQ(getBytesPerElement(Precision::Int8), 1);
  EXPECT_EQ(getBytesPerElement(Precision::Int16), 2);
  EXPECT_EQ(getBytesPerElement(Precision::Fp16), 2);
  EXPECT_EQ(getChannelsPerAtom(Precision::Int8, kDocumentAtomBytes), 32);
  EXPECT_EQ(getChannelsPerAtom(Precision::Int16, kDocumentAtomBytes), 16);
  EXPECT_EQ(getChannelsPerAtom(Precision::Fp16, kDocumentAtomBytes), 16);
  EXPECT_EQ(enumName(Precision::Int8), "int8");
  EXPECT_EQ(enumName(Precision::Int16), "int16");
  EXPECT_EQ(enumName(Precision::Fp16), "fp16");
  for (Precision p : enumValues<Precision>())
    EXPECT_EQ(parseEnum<Precision>(enumName(p)), p);
  EXPECT_EQ(parseEnum<Precision>("INT8"), std::nullopt);
  EXPECT_EQ(parseEnum<Precision>("fp32"), std::nullopt);
  EXPECT_EQ(getDataSizeBytes(DataSize::OneByte), 1);
  EXPECT_EQ(getDataSizeBytes(DataSize::TwoByte), 2);
  for (DataSize d : enumValues<DataSize>())
    EXPECT_EQ(parseEnum<DataSize>(enumName(d)), d);
  EXPECT_EQ(parseEnum<DataSize>("three_byte"), std::nullopt);
  static_assert(getChannelsPerAtom(Precision::Int8, kDocumentAtomBytes) == 32,
                "usable in constant expressions");
}

/// The document's mapping, one element at a time: C' (within the 32-byte
/// atom) -> W -> H -> C (surfaces), then batches.
Bytes naiveFeature(Precision p, int64_t N, int64_t C, int64_t H, int64_t W, int64_t line,
                   int64_t surface, int64_t batch, const Bytes &logical) {
  const int64_t eb = p == Precision::Int8 ? 1 : 2;
  const int64_t perAtom = 32 / eb;
  Bytes out(static_cast<size_t>(N * batch), 0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          int64_t at = n * batch + (c / perAtom) * surface + h * line + w * 32 + (c % perAtom) * eb;
          int64_t from = (((n * C + c) * H + h) * W + w) * eb;
          for (int64_t k = 0; k < eb; ++k)
            out[at + k] = logical[from + k];
        }
  return out;
}

Bytes iota(size_t n, uint8_t start = 1) {
  Bytes v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<uint8_t>(start + i);
  return v;
}

std::unique_ptr<FeatureBoundLayout> bindOk(const FeatureConfig &config,
                                           const std::vector<int64_t> &shape) {
  auto b = FeatureBoundLayout::bind(config, shape);
  EXPECT_TRUE(b.ok()) << b.message();
  return b.ok() ? std::move(*b) : nullptr;
}

Bytes packed(const FeatureBoundLayout &l, const Bytes &logical) {
  Bytes s(static_cast<size_t>(l.getStorageBytes()), 0xAB); // poison: pack writes every byte
  l.pack(reinterpret_cast<const char *>(logical.data()), reinterpret_cast<char *>(s.data()));
  return s;
}

Bytes unpacked(const FeatureBoundLayout &l, const Bytes &storage) {
  Bytes v(static_cast<size_t>(l.getNumElements() * l.getElementBytes()), 0xCD);
  l.unpack(reinterpret_cast<const char *>(storage.data()), reinterpret_cast<char *>(v.data()));
  return v;
}

TEST(NvdlaFeature, PackedGeometryInt8) {
  auto l = bindOk({Precision::Int8, {}, {}, {}}, {1, 40, 3, 5});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getElementBytes(), 1);
  EXPECT_EQ(l->getNumSurfaces(), 2);     // ceil(40 / 32)
  EXPECT_EQ(l->getLineStride(), 160);    // W * 32
  EXPECT_EQ(l->getSurfaceStride(), 480); // H * line stride
  EXPECT_EQ(l->getBatchStride(), 960);
  EXPECT_EQ(l->getStorageBytes(), 960);
  EXPECT_TRUE(l->isPacked());
}

TEST(NvdlaFeature, PackedGeometryFp16AndBatches) {
  auto l = bindOk({Precision::Fp16, {}, {}, {}}, {3, 20, 2, 7});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getElementBytes(), 2);
  EXPECT_EQ(l->getNumSurfaces(), 2); // ceil(20 / 16)
  EXPECT_EQ(l->getLineStride(), 224);
  EXPECT_EQ(l->getSurfaceStride(), 448);
  EXPECT_EQ(l->getBatchStride(), 896);
  EXPECT_EQ(l->getStorageBytes(), 3 * 896);
}

TEST(NvdlaFeature, HandWrittenInt8Bytes) {
  // C=2, H=1, W=2: two atoms of one line, channels 0 and 1 then zeros.
  auto l = bindOk({Precision::Int8, {}, {}, {}}, {1, 2, 1, 2});
  ASSERT_TRUE(l);
  // Logical NCHW: c0 = {10, 11}, c1 = {20, 21}.
  Bytes logical = {10, 11, 20, 21};
  Bytes expected(64, 0);
  expected[0] = 10;  // (c0, w0)
  expected[1] = 20;  // (c1, w0)
  expected[32] = 11; // (c0, w1)
  expected[33] = 21; // (c1, w1)
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaFeature, HandWrittenFp16Bytes) {
  // fp16, C=17 (one full atom of 16 channels, one channel in the second):
  // H=1, W=1. Element (c) holds the 16-bit value 0x0100 + c.
  auto l = bindOk({Precision::Fp16, {}, {}, {}}, {1, 17, 1, 1});
  ASSERT_TRUE(l);
  Bytes logical;
  for (int c = 0; c < 17; ++c) {
    logical.push_back(static_cast<uint8_t>(c));
    logical.push_back(1);
  }
  Bytes expected(64, 0);
  for (int c = 0; c < 16; ++c) {
    expected[2 * c] = static_cast<uint8_t>(c);
    expected[2 * c + 1] = 1;
  }
  expected[32] = 16; // channel 16 starts surface 1
  expected[33] = 1;
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaFeature, Int8NotMultipleOfAtomMatchesDocument) {
  const int64_t N = 1, C = 45, H = 3, W = 4;
  auto l = bindOk({Precision::Int8, {}, {}, {}}, {N, C, H, W});
  ASSERT_TRUE(l);
  Bytes logical = iota(N * C * H * W);
  Bytes expected =
      naiveFeature(Precision::Int8, N, C, H, W, W * 32, H * W * 32, 2 * H * W * 32, logical);
  Bytes storage = packed(*l, logical);
  EXPECT_EQ(storage, expected);
  // Channels 45..63 of the second surface are zero.
  EXPECT_EQ(storage[H * W * 32 + 13], 0);
  EXPECT_EQ(unpacked(*l, storage), logical);
}

TEST(NvdlaFeature, Fp16NotMultipleOfAtomMatchesDocument) {
  const int64_t N = 2, C = 21, H = 2, W = 3;
  auto l = bindOk({Precision::Fp16, {}, {}, {}}, {N, C, H, W});
  ASSERT_TRUE(l);
  Bytes logical = iota(N * C * H * W * 2);
  const int64_t surface = H * W * 32;
  Bytes expected = naiveFeature(Precision::Fp16, N, C, H, W, W * 32, surface, 2 * surface, logical);
  Bytes storage = packed(*l, logical);
  EXPECT_EQ(storage, expected);
  EXPECT_EQ(unpacked(*l, storage), logical);
}

TEST(NvdlaFeature, UnpackedStridesLeaveZeroGaps) {
  const int64_t N = 2, C = 33, H = 2, W = 3;
  FeatureConfig config{Precision::Int8, 160, 384, 1024};
  auto l = bindOk(config, {N, C, H, W});
  ASSERT_TRUE(l);
  EXPECT_FALSE(l->isPacked());
  EXPECT_EQ(l->getStorageBytes(), 2048);
  Bytes logical = iota(N * C * H * W);
  EXPECT_EQ(packed(*l, logical),
            naiveFeature(Precision::Int8, N, C, H, W, 160, 384, 1024, logical));
  EXPECT_EQ(unpacked(*l, packed(*l, logical)), logical);
}

TEST(NvdlaFeature, ByteOffsetAndLocateAgreeWithDocument) {
  const int64_t N = 2, C = 20, H = 2, W = 3;
  FeatureConfig config{Precision::Int16, 128, 320, 704};
  auto l = bindOk(config, {N, C, H, W});
  ASSERT_TRUE(l);
  // Where the document puts each element byte.
  std::map<int64_t, std::tuple<std::vector<int64_t>, int64_t>> owner;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t h = 0; h < H; ++h)
        for (int64_t w = 0; w < W; ++w) {
          int64_t at = n * 704 + (c / 16) * 320 + h * 128 + w * 32 + (c % 16) * 2;
          Expected<int64_t> off = l->getByteOffset({n, c, h, w});
          ASSERT_TRUE(off.ok());
          EXPECT_EQ(*off, at);
          owner[at] = {{n, c, h, w}, 0};
          owner[at + 1] = {{n, c, h, w}, 1};
        }
  for (int64_t b = 0; b < l->getStorageBytes(); ++b) {
    Expected<StorageLocation> loc = l->locate(b);
    ASSERT_TRUE(loc.ok());
    auto it = owner.find(b);
    if (it == owner.end()) {
      EXPECT_TRUE(loc->isPadding) << b;
      continue;
    }
    EXPECT_FALSE(loc->isPadding) << b;
    EXPECT_EQ(loc->index, std::get<0>(it->second)) << b;
    EXPECT_EQ(loc->byteInElement, std::get<1>(it->second)) << b;
  }
  EXPECT_FALSE(l->locate(-1).ok());
  EXPECT_FALSE(l->locate(l->getStorageBytes()).ok());
  EXPECT_FALSE(l->getByteOffset({0, 20, 0, 0}).ok());
  EXPECT_FALSE(l->getByteOffset({0, 0, 0}).ok());
}

TEST(NvdlaFeature, StridedViewDigits) {
  auto l = bindOk({Precision::Fp16, 256, 1024, 4096}, {2, 40, 3, 5});
  ASSERT_TRUE(l);
  std::optional<StridedView> v = l->getStridedView();
  ASSERT_TRUE(v);
  ASSERT_EQ(v->dims.size(), 5u);
  // Strides in 2-byte elements: batch, surface (weight 16), line, atom, channel.
  const int64_t expected[5][4] = {
      {2, 2048, 0, 1}, {3, 512, 1, 16}, {3, 128, 2, 1}, {5, 16, 3, 1}, {16, 1, 1, 1}};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(v->dims[i].extent, expected[i][0]) << i;
    EXPECT_EQ(v->dims[i].stride, expected[i][1]) << i;
    EXPECT_EQ(v->dims[i].logicalDim, expected[i][2]) << i;
    EXPECT_EQ(v->dims[i].weight, expected[i][3]) << i;
  }
  EXPECT_EQ(v->offset, 0);
}

TEST(NvdlaFeature, EmptyShapesHaveNoStorage) {
  auto l = bindOk({Precision::Int8, {}, {}, {}}, {1, 0, 4, 4});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getStorageBytes(), 0);
  auto w0 = bindOk({Precision::Int8, {}, 32, {}}, {1, 3, 2, 0});
  ASSERT_TRUE(w0);
  EXPECT_EQ(w0->getStorageBytes(), 32); // one surface of stride 32, no pixels
  EXPECT_TRUE(w0->locate(5)->isPadding);
  Bytes storage = packed(*w0, {});
  EXPECT_EQ(storage, Bytes(32, 0));
}

TEST(NvdlaFeature, RandomShapesRoundTripAndMatchDocument) {
  std::mt19937 rng(1234);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int iter = 0; iter < 200; ++iter) {
    Precision p = enumValues<Precision>()[pick(0, 2)];
    const int64_t N = pick(1, 3), C = pick(1, 70), H = pick(1, 5), W = pick(1, 6);
    const int64_t eb = getBytesPerElement(p), perAtom = 32 / eb;
    const int64_t surfaces = (C + perAtom - 1) / perAtom;
    FeatureConfig config{p, {}, {}, {}};
    int64_t line = W * 32, surface, batch;
    if (pick(0, 1))
      config.lineStride = line = W * 32 + 32 * pick(0, 3);
    surface = H * line;
    if (pick(0, 1))
      config.surfaceStride = surface = H * line + 32 * pick(0, 3);
    batch = surfaces * surface;
    if (pick(0, 1))
      config.batchStride = batch = surfaces * surface + 32 * pick(0, 3);
    auto l = bindOk(config, {N, C, H, W});
    ASSERT_TRUE(l);
    EXPECT_EQ(l->getStorageBytes(), N * batch);
    Bytes logical(static_cast<size_t>(N * C * H * W * eb));
    for (uint8_t &b : logical)
      b = static_cast<uint8_t>(pick(0, 255));
    Bytes storage = packed(*l, logical);
    ASSERT_EQ(storage, naiveFeature(p, N, C, H, W, line, surface, batch, logical)) << iter;
    ASSERT_EQ(unpacked(*l, storage), logical) << iter;
  }
}

//===----------------------------------------------------------------------===//
// Validation: every message once.
//===----------------------------------------------------------------------===//

std::string bindError(const FeatureConfig &config, const std::vector<int64_t> &shape) {
  auto b = FeatureBoundLayout::bind(config, shape);
  EXPECT_FALSE(b.ok());
  Status s = FeatureBoundLayout::validate(config, shape);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), b.message());
  return b.message();
}

TEST(NvdlaFeatureValidation, Rank) {
  EXPECT_EQ(bindError({}, {2, 3, 4}),
            "feature data needs a logical NCHW shape (rank 4), got shape 2x3x4 of rank 3");
}

TEST(NvdlaFeatureValidation, NegativeDimension) {
  EXPECT_EQ(bindError({}, {1, -1, 4, 4}),
            "dimension 1 is dynamic or negative; a layout needs a static shape");
}

TEST(NvdlaFeatureValidation, NegativeStride) {
  EXPECT_EQ(bindError({Precision::Int8, -32, {}, {}}, {1, 1, 1, 1}),
            "feature data: line stride must not be negative, got -32");
}

TEST(NvdlaFeatureValidation, LineStrideAlignment) {
  EXPECT_EQ(bindError({Precision::Int8, 40, {}, {}}, {1, 1, 1, 1}),
            "feature data: line stride 40 bytes is not a multiple of 32 bytes, the alignment "
            "the NVDLA document requires of feature data cube line strides");
}

TEST(NvdlaFeatureValidation, LineStrideTooSmall) {
  EXPECT_EQ(bindError({Precision::Int8, 64, {}, {}}, {1, 1, 1, 3}),
            "feature data: line stride 64 bytes is smaller than one line of 3 atoms of 32 "
            "bytes (96 bytes)");
}

TEST(NvdlaFeatureValidation, SurfaceStrideAlignment) {
  EXPECT_EQ(bindError({Precision::Int16, {}, 100, {}}, {1, 1, 1, 1}),
            "feature data: surface stride 100 bytes is not a multiple of 32 bytes, the "
            "alignment the NVDLA document requires of feature data cube surface strides");
}

TEST(NvdlaFeatureValidation, SurfaceStrideTooSmall) {
  EXPECT_EQ(bindError({Precision::Int8, 64, 96, {}}, {1, 1, 2, 2}),
            "feature data: surface stride 96 bytes is smaller than 2 lines of 64 bytes "
            "(128 bytes)");
}

TEST(NvdlaFeatureValidation, BatchStrideAlignment) {
  EXPECT_EQ(bindError({Precision::Fp16, {}, {}, 48}, {2, 1, 1, 1}),
            "feature data: batch stride 48 bytes is not a multiple of 32 bytes, the "
            "alignment the NVDLA document requires of feature data cube batch strides");
}

TEST(NvdlaFeatureValidation, BatchStrideTooSmall) {
  EXPECT_EQ(bindError({Precision::Int8, {}, {}, 32}, {2, 33, 1, 1}),
            "feature data: batch stride 32 bytes is smaller than 2 surfaces of 32 bytes "
            "(64 bytes)");
}

TEST(NvdlaFeatureValidation, LineOverflow) {
  EXPECT_EQ(bindError({}, {1, 1, 1, kMax / 16}), "feature data: a line of " +
                                                     std::to_string(kMax / 16) +
                                                     " atoms overflows a 64-bit integer");
}

TEST(NvdlaFeatureValidation, SurfaceOverflow) {
  EXPECT_EQ(bindError({}, {1, 1, kMax / 16, 1}),
            "feature data: a surface of " + std::to_string(kMax / 16) +
                " lines of 32 bytes overflows a 64-bit integer");
}

TEST(NvdlaFeatureValidation, SurfacesOverflow) {
  // 2^57 surfaces of 64 bytes: 2^63 bytes.
  const int64_t channels = kMax / 2;
  EXPECT_EQ(bindError({Precision::Int8, {}, 64, {}}, {1, channels, 1, 1}),
            "feature data: " + std::to_string((channels + 31) / 32) +
                " surfaces of 64 bytes overflow a 64-bit integer");
}

TEST(NvdlaFeatureValidation, StorageOverflow) {
  EXPECT_EQ(bindError({}, {kMax / 16, 1, 1, 1}),
            "feature data: storage of " + std::to_string(kMax / 16) +
                " batches of 32 bytes overflows a 64-bit integer");
}

TEST(NvdlaFeatureValidation, InterleavedSurfaces) {
  // nv_small's 8-byte atom, 16 channels over 5 x 8 positions, surfaces
  // interleaved line by line: surface stride one line of atoms (64), line
  // stride both surfaces' lines (128). Offsets worked by hand; every byte
  // locates back to its element.
  AtomCubeSpec spec;
  spec.channels = 16;
  spec.height = 5;
  spec.width = 8;
  spec.elementsPerAtom = 8;
  spec.memoryAtomBytes = 8;
  spec.lineStride = 128;
  spec.surfaceStride = 64;
  Expected<AtomCube> cube = AtomCube::get(spec);
  ASSERT_TRUE(cube.ok()) << cube.message();
  EXPECT_EQ(cube->getBatchStride(), 640);
  EXPECT_EQ(cube->getStorageBytes(), 640);
  EXPECT_EQ(cube->getByteOffset(0, 9, 3, 2), 64 + 3 * 128 + 2 * 8 + 1);
  for (int64_t b = 0; b < 640; ++b) {
    std::optional<CubePosition> pos = cube->locate(b);
    ASSERT_TRUE(pos) << b;
    EXPECT_EQ(cube->getByteOffset(0, pos->channel, pos->row, pos->column), b);
  }
  // A line too short for both surfaces' lines overlaps them.
  spec.lineStride = 64;
  EXPECT_EQ(AtomCube::get(spec).message(),
            "feature data: surface stride 64 bytes is smaller than 5 lines of 64 bytes (320 "
            "bytes), and a line stride of 64 bytes does not hold its 2 surfaces' lines side by "
            "side (2 x 64 bytes)");
  // So does a surface stride below one line of atoms.
  spec.lineStride = 128;
  spec.surfaceStride = 32;
  EXPECT_EQ(AtomCube::get(spec).message(),
            "feature data: surface stride 32 bytes is smaller than one line of 8 atoms of 8 "
            "bytes (64 bytes)");
}

TEST(NvdlaFeatureValidation, AtomCubeSpecChecks) {
  AtomCubeSpec spec;
  spec.channels = -1;
  EXPECT_EQ(AtomCube::get(spec).message(),
            "feature data: extents must be non-negative, got N=1 C=-1 H=0 W=0");
  spec.channels = 1;
  spec.elementsPerAtom = 0;
  EXPECT_EQ(AtomCube::get(spec).message(),
            "feature data: elements per atom, components per element and bytes per "
            "component must be positive");
  spec.elementsPerAtom = kMax / 2;
  spec.componentsPerElement = 4;
  EXPECT_EQ(AtomCube::get(spec).message(),
            "feature data: bytes per atom overflow a 64-bit integer");
}

} // namespace

//===----------------------------------------------------------------------===//
// nv_small: 8-byte memory atoms (spec/defs/nv_small.spec MEMORY_ATOMIC_SIZE_8;
// the C model reads ELEMENT_PER_ATOM_INT8 = NVDLA_MEMORY_ATOMIC_SIZE
// channels per atom). Expected offsets by hand from the document's formula
// with 8 in place of 32.
//===----------------------------------------------------------------------===//

FeatureConfig nvSmall(Precision p, std::optional<int64_t> line = {},
                      std::optional<int64_t> surface = {}) {
  FeatureConfig c{p, line, surface, {}};
  c.hardware = HardwareKind::NvSmall;
  return c;
}

TEST(NvdlaFeatureNvSmall, PackedGeometryInt8) {
  auto l = bindOk(nvSmall(Precision::Int8), {1, 20, 3, 5});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getNumSurfaces(), 3);
  EXPECT_EQ(l->getLineStride(), 40);
  EXPECT_EQ(l->getSurfaceStride(), 120);
  EXPECT_EQ(l->getStorageBytes(), 360);
  EXPECT_EQ(l->getStorageAlignment(), 8);
  // (0, 9, 2, 4): surface 1, line 2, atom 4, byte 1 of the atom.
  EXPECT_EQ(*l->getByteOffset({0, 9, 2, 4}), 120 + 2 * 40 + 4 * 8 + 1);
  auto loc = l->locate(120 + 2 * 40 + 4 * 8 + 1);
  ASSERT_TRUE(loc.ok());
  EXPECT_EQ(loc->index, (std::vector<int64_t>{0, 9, 2, 4}));
  // Channels 20..23 of the last atom are padding.
  auto pad = l->locate(240 + 4);
  ASSERT_TRUE(pad.ok());
  EXPECT_TRUE(pad->isPadding);
}

TEST(NvdlaFeatureNvSmall, PackUnpackFp16) {
  // 4 two-byte channels per 8-byte atom.
  auto l = bindOk(nvSmall(Precision::Fp16), {1, 6, 2, 3});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getNumSurfaces(), 2);
  EXPECT_EQ(l->getLineStride(), 24);
  const int64_t C = 6, H = 2, W = 3;
  Bytes logical = iota(C * H * W * 2);
  Bytes s = packed(*l, logical);
  ASSERT_EQ(s.size(), 96u);
  for (int64_t c = 0; c < C; ++c)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w)
        for (int64_t k = 0; k < 2; ++k)
          EXPECT_EQ(s[(c / 4) * 48 + h * 24 + w * 8 + (c % 4) * 2 + k],
                    logical[((c * H + h) * W + w) * 2 + k]);
  EXPECT_EQ(s[1 * 48 + 0 * 24 + 0 * 8 + 2 * 2], 0); // channel 6: padding
  EXPECT_EQ(unpacked(*l, s), logical);
}

TEST(NvdlaFeatureNvSmall, StridesAlignToTheEightByteAtom) {
  EXPECT_TRUE(bindOk(nvSmall(Precision::Int8, 48), {1, 8, 1, 5}));
  EXPECT_EQ(bindError(nvSmall(Precision::Int8, 44), {1, 8, 1, 5}),
            "feature data: line stride 44 bytes is not a multiple of 8 bytes, the alignment "
            "the NVDLA document requires of feature data cube line strides (its memory atom "
            "of 8 bytes)");
  EXPECT_EQ(bindError(nvSmall(Precision::Int8, 32), {1, 8, 1, 5}),
            "feature data: line stride 32 bytes is smaller than one line of 5 atoms of 8 "
            "bytes (40 bytes)");
}
