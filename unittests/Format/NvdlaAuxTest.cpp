//===- NvdlaAuxTest.cpp - NVDLA bias / PReLU / batch-norm / element-wise --===//
//
// Expected bytes come from hand-written lists read off the document's
// figures (case 1: one byte per int8 element, case 2: two bytes per int8
// element) or from `naiveAux`, a loop written straight from the document's
// rules, never from the code under test.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaAux.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

using Bytes = std::vector<uint8_t>;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

AuxConfig cfg(AuxKind kind, AuxMode mode, Precision p, DataSize d,
              ElementWiseUse use = ElementWiseUse::Alu) {
  AuxConfig c;
  c.kind = kind;
  c.mode = mode;
  c.precision = p;
  c.dataSize = d;
  c.use = use;
  return c;
}

std::unique_ptr<AuxBoundLayout> bindOk(const AuxConfig &config, const std::vector<int64_t> &shape,
                                       int64_t elementBytes) {
  auto b = AuxBoundLayout::bind(config, shape, elementBytes);
  EXPECT_TRUE(b.ok()) << b.message();
  return b.ok() ? std::move(*b) : nullptr;
}

Bytes packed(const AuxBoundLayout &l, const Bytes &logical) {
  Bytes s(static_cast<size_t>(l.getStorageBytes()), 0xAB);
  l.pack(reinterpret_cast<const char *>(logical.data()), reinterpret_cast<char *>(s.data()));
  return s;
}

Bytes unpacked(const AuxBoundLayout &l, const Bytes &storage) {
  Bytes v(static_cast<size_t>(l.getNumElements() * l.getElementBytes()), 0xCD);
  l.unpack(reinterpret_cast<const char *>(storage.data()), reinterpret_cast<char *>(v.data()));
  return v;
}

//===----------------------------------------------------------------------===//
// BytesPerAtom, names, shapes
//===----------------------------------------------------------------------===//

TEST(NvdlaAux, BytesPerAtomOfTheFigures) {
  using K = AuxKind;
  using M = AuxMode;
  const Precision i8 = Precision::Int8, i16 = Precision::Int16, f16 = Precision::Fp16;
  const DataSize one = DataSize::OneByte, two = DataSize::TwoByte;
  // Case 1 figures: 32-byte atoms (bias, PReLU, element-wise), 64-byte
  // batch-norm atoms; case 2 (int8 in two bytes): 64 and 128 bytes.
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerChannel, i8, one)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerChannel, i8, two)), 64);
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerElement, i8, one)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerElement, i8, two)), 64);
  EXPECT_EQ(getBytesPerAtom(cfg(K::PReLU, M::PerChannel, i8, one)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::PReLU, M::PerChannel, i8, two)), 64);
  EXPECT_EQ(getBytesPerAtom(cfg(K::BatchNorm, M::PerChannel, i8, one)), 64);
  EXPECT_EQ(getBytesPerAtom(cfg(K::BatchNorm, M::PerChannel, i8, two)), 128);
  EXPECT_EQ(getBytesPerAtom(cfg(K::ElementWise, M::PerElement, i8, one)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::ElementWise, M::PerElement, i8, two)), 64);
  // Case 1 for int16 / fp16: 16 elements of two bytes.
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerChannel, i16, two)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerChannel, f16, two)), 32);
  EXPECT_EQ(getBytesPerAtom(cfg(K::BatchNorm, M::PerChannel, f16, two)), 64);
  // int16 pipeline with one-byte data, and element-wise with ALU and MUL.
  EXPECT_EQ(getBytesPerAtom(cfg(K::Bias, M::PerElement, i16, one)), 16);
  EXPECT_EQ(getBytesPerAtom(cfg(K::ElementWise, M::PerElement, i8, two, ElementWiseUse::AluAndMul)),
            128);
  EXPECT_EQ(getBytesPerAtom(cfg(K::ElementWise, M::PerElement, i16, one, ElementWiseUse::Mul)), 16);
  EXPECT_EQ(getComponentsPerElement(
                cfg(K::ElementWise, M::PerElement, i8, one, ElementWiseUse::AluAndMul)),
            2);
  EXPECT_EQ(getComponentsPerElement(cfg(K::BatchNorm, M::PerLayer, i8, one)), 2);
  EXPECT_EQ(getComponentsPerElement(cfg(K::PReLU, M::PerChannel, i8, one)), 1);
}

TEST(NvdlaAux, Names) {
  for (AuxKind k : {AuxKind::Bias, AuxKind::PReLU, AuxKind::BatchNorm, AuxKind::ElementWise})
    EXPECT_EQ(parseEnum<AuxKind>(enumName(k)), k);
  for (AuxMode m : {AuxMode::PerLayer, AuxMode::PerChannel, AuxMode::PerElement})
    EXPECT_EQ(parseEnum<AuxMode>(enumName(m)), m);
  for (ElementWiseUse u : {ElementWiseUse::Alu, ElementWiseUse::Mul, ElementWiseUse::AluAndMul})
    EXPECT_EQ(parseEnum<ElementWiseUse>(enumName(u)), u);
  EXPECT_EQ(enumName(AuxKind::BatchNorm), "batch_norm");
  EXPECT_EQ(enumName(AuxMode::PerElement), "per_element");
  EXPECT_EQ(enumName(ElementWiseUse::AluAndMul), "alu_mul");
  EXPECT_EQ(parseEnum<AuxKind>("bn"), std::nullopt);
  EXPECT_EQ(parseEnum<AuxMode>("per_batch"), std::nullopt);
  EXPECT_EQ(parseEnum<ElementWiseUse>("both"), std::nullopt);
}

TEST(NvdlaAux, LogicalShapes) {
  const Precision i8 = Precision::Int8;
  const DataSize one = DataSize::OneByte;
  using V = std::vector<int64_t>;
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::Bias, AuxMode::PerLayer, i8, one), 5, 6, 7), V{});
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::BatchNorm, AuxMode::PerLayer, i8, one), 5, 6, 7), V{2});
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::Bias, AuxMode::PerChannel, i8, one), 5, 6, 7), V{5});
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::PReLU, AuxMode::PerChannel, i8, one), 5, 6, 7), V{5});
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::BatchNorm, AuxMode::PerChannel, i8, one), 5, 6, 7),
            (V{5, 2}));
  EXPECT_EQ(getAuxLogicalShape(cfg(AuxKind::Bias, AuxMode::PerElement, i8, one), 5, 6, 7),
            (V{5, 6, 7}));
  EXPECT_EQ(getAuxLogicalShape(
                cfg(AuxKind::ElementWise, AuxMode::PerElement, i8, one, ElementWiseUse::AluAndMul),
                5, 6, 7),
            (V{5, 6, 7, 2}));
}

//===----------------------------------------------------------------------===//
// Hand-written bytes from the figures
//===----------------------------------------------------------------------===//

TEST(NvdlaAux, PerChannelBiasCase1) {
  auto l =
      bindOk(cfg(AuxKind::Bias, AuxMode::PerChannel, Precision::Int8, DataSize::OneByte), {3}, 1);
  ASSERT_TRUE(l);
  Bytes expected(32, 0); // one 32-byte atom
  expected[0] = 0x05;
  expected[1] = 0xFE;
  expected[2] = 0x07;
  EXPECT_EQ(packed(*l, {0x05, 0xFE, 0x07}), expected);
  EXPECT_EQ(unpacked(*l, expected), (Bytes{0x05, 0xFE, 0x07}));
  EXPECT_TRUE(l->getStridedView().has_value());
}

TEST(NvdlaAux, PerChannelBiasCase2SignExtends) {
  auto l =
      bindOk(cfg(AuxKind::Bias, AuxMode::PerChannel, Precision::Int8, DataSize::TwoByte), {3}, 1);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getStorageComponentBytes(), 2);
  Bytes expected(64, 0); // one 64-byte atom
  // 5, -2, 7 as little-endian int16.
  const uint8_t head[] = {0x05, 0x00, 0xFE, 0xFF, 0x07, 0x00};
  std::copy(std::begin(head), std::end(head), expected.begin());
  EXPECT_EQ(packed(*l, {0x05, 0xFE, 0x07}), expected);
  EXPECT_EQ(unpacked(*l, expected), (Bytes{0x05, 0xFE, 0x07}));
  // The width changes, so the storage is not a plain view of the elements.
  EXPECT_FALSE(l->getStridedView().has_value());
  EXPECT_EQ(l->getStorageView().dims.size(), 2u);
  Expected<StorageLocation> ext = l->locate(3); // sign extension of element 1
  ASSERT_TRUE(ext.ok());
  EXPECT_FALSE(ext->isPadding);
  EXPECT_EQ(ext->index, std::vector<int64_t>{1});
  EXPECT_EQ(ext->byteInElement, 1);
  EXPECT_TRUE(l->locate(6)->isPadding);
  EXPECT_EQ(*l->getByteOffset({2}), 4);
}

TEST(NvdlaAux, PerChannelPReLUFp16) {
  auto l =
      bindOk(cfg(AuxKind::PReLU, AuxMode::PerChannel, Precision::Fp16, DataSize::TwoByte), {17}, 2);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getStorageBytes(), 64); // two atoms of 16 fp16 values
  Bytes logical;
  for (int c = 0; c < 17; ++c) {
    logical.push_back(static_cast<uint8_t>(c));
    logical.push_back(0x3C);
  }
  Bytes expected = logical;
  expected.resize(64, 0);
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaAux, BatchNormCase1Interleaves) {
  auto l = bindOk(cfg(AuxKind::BatchNorm, AuxMode::PerChannel, Precision::Int8, DataSize::OneByte),
                  {3, 2}, 1);
  ASSERT_TRUE(l);
  // Logical [C, 2]: (add0, mul0), (add1, mul1), (add2, mul2).
  Bytes logical = {0x01, 0x11, 0x02, 0x12, 0x03, 0x13};
  Bytes expected(64, 0); // one 64-byte atom: 32 channels x 2 components
  std::copy(logical.begin(), logical.end(), expected.begin());
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
  Expected<StorageLocation> mul1 = l->locate(3);
  EXPECT_EQ(mul1->index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(*l->getByteOffset({2, 0}), 4);
}

TEST(NvdlaAux, BatchNormCase2SignExtends) {
  auto l = bindOk(cfg(AuxKind::BatchNorm, AuxMode::PerChannel, Precision::Int8, DataSize::TwoByte),
                  {2, 2}, 1);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getStorageBytes(), 128);     // the 128-byte atom of the figure
  Bytes logical = {0xFF, 0x02, 0x80, 0x7F}; // add0=-1 mul0=2 add1=-128 mul1=127
  Bytes expected(128, 0);
  const uint8_t head[] = {0xFF, 0xFF, 0x02, 0x00, 0x80, 0xFF, 0x7F, 0x00};
  std::copy(std::begin(head), std::end(head), expected.begin());
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaAux, PerLayerRegisterImages) {
  auto bias =
      bindOk(cfg(AuxKind::Bias, AuxMode::PerLayer, Precision::Int8, DataSize::TwoByte), {}, 1);
  ASSERT_TRUE(bias);
  EXPECT_EQ(bias->getStorageBytes(), 2);
  EXPECT_EQ(packed(*bias, {0x9C}), (Bytes{0x9C, 0xFF})); // -100 sign-extended
  EXPECT_EQ(unpacked(*bias, {0x9C, 0xFF}), Bytes{0x9C});
  EXPECT_EQ(bias->locate(1)->index, std::vector<int64_t>{});
  auto bn = bindOk(cfg(AuxKind::BatchNorm, AuxMode::PerLayer, Precision::Fp16, DataSize::TwoByte),
                   {2}, 2);
  ASSERT_TRUE(bn);
  EXPECT_EQ(bn->getStorageBytes(), 4);
  Bytes v = {0x00, 0x3C, 0x00, 0x40}; // add 1.0, mul 2.0
  EXPECT_EQ(packed(*bn, v), v);
  EXPECT_EQ(*bn->getByteOffset({1}), 2);
  EXPECT_EQ(bn->locate(3)->index, std::vector<int64_t>{1});
}

TEST(NvdlaAux, PerElementBiasCase1) {
  // C=2, H=1, W=2, int8 in one byte: atoms of 32 bytes, like feature data.
  auto l = bindOk(cfg(AuxKind::Bias, AuxMode::PerElement, Precision::Int8, DataSize::OneByte),
                  {2, 1, 2}, 1);
  ASSERT_TRUE(l);
  Bytes logical = {10, 11, 20, 21}; // c0 = {10, 11}, c1 = {20, 21}
  Bytes expected(64, 0);
  expected[0] = 10;
  expected[1] = 20;
  expected[32] = 11;
  expected[33] = 21;
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaAux, PerElementBiasCase2) {
  // Same cube, int8 in two bytes: 64-byte atoms.
  auto l = bindOk(cfg(AuxKind::Bias, AuxMode::PerElement, Precision::Int8, DataSize::TwoByte),
                  {2, 1, 2}, 1);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getCube()->getLineStride(), 128);
  Bytes logical = {10, 0xF5, 20, 21}; // c0 = {10, -11}, c1 = {20, 21}
  Bytes expected(128, 0);
  expected[0] = 10;
  expected[2] = 20;
  expected[64] = 0xF5;
  expected[65] = 0xFF;
  expected[66] = 21;
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaAux, ElementWiseAluAndMulInterleavesPerElement) {
  auto l = bindOk(cfg(AuxKind::ElementWise, AuxMode::PerElement, Precision::Int16,
                      DataSize::TwoByte, ElementWiseUse::AluAndMul),
                  {1, 1, 2, 2}, 2);
  ASSERT_TRUE(l);
  // [C=1, H=1, W=2, 2]: (alu, mul) at w0 then at w1; atoms of 16 x 2 x 2 bytes.
  Bytes logical = {0x01, 0xA0, 0x02, 0xB0, 0x03, 0xA1, 0x04, 0xB1};
  Bytes expected(128, 0);
  const uint8_t w0[] = {0x01, 0xA0, 0x02, 0xB0};
  const uint8_t w1[] = {0x03, 0xA1, 0x04, 0xB1};
  std::copy(std::begin(w0), std::end(w0), expected.begin());
  std::copy(std::begin(w1), std::end(w1), expected.begin() + 64);
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
  Expected<StorageLocation> mul1 = l->locate(66);
  EXPECT_EQ(mul1->index, (std::vector<int64_t>{0, 0, 1, 1}));
}

TEST(NvdlaAux, ElementWiseDataSizeAlignment) {
  // fp16, C=17 -> 2 surfaces; the surface stride has no alignment rule for
  // element-wise data, but the total size is rounded up to 32 bytes.
  AuxConfig c = cfg(AuxKind::ElementWise, AuxMode::PerElement, Precision::Fp16, DataSize::TwoByte);
  c.surfaceStride = 34;
  auto l = bindOk(c, {17, 1, 1}, 2);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getCube()->getBatchStride(), 68);
  EXPECT_EQ(l->getStorageBytes(), 96);
  EXPECT_TRUE(l->locate(90)->isPadding);
}

TEST(NvdlaAux, Int16OneByteAtomsRoundLineStrideUp) {
  // 16-byte atoms: a packed line of 3 atoms is 48 bytes, the bias line
  // stride must be 32-byte aligned.
  auto l = bindOk(cfg(AuxKind::Bias, AuxMode::PerElement, Precision::Int16, DataSize::OneByte),
                  {16, 2, 3}, 1);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getCube()->getLineStride(), 64);
  EXPECT_EQ(l->getCube()->getSurfaceStride(), 128);
  EXPECT_FALSE(l->getCube()->isPacked());
}

//===----------------------------------------------------------------------===//
// The document's rules as a loop; random shapes
//===----------------------------------------------------------------------===//

struct AuxCase {
  AuxConfig config;
  int64_t N, C, H, W;
  bool batched;
  int64_t elementBytes;
};

/// Storage the document's rules give: ElementPerAtom elements of
/// ComponentsPerElement components of BytesPerComponent bytes per atom;
/// per-channel data continuous; per-element data in feature order; int8
/// values in two bytes sign-extended.
Bytes naiveAux(const AuxCase &k, int64_t line, int64_t surface, int64_t batch, int64_t size,
               const Bytes &logical) {
  const AuxConfig &c = k.config;
  const int64_t epa = c.precision == Precision::Int8 ? 32 : 16;
  const bool two = c.kind == AuxKind::BatchNorm ||
                   (c.kind == AuxKind::ElementWise && c.use == ElementWiseUse::AluAndMul);
  const int64_t comps = two ? 2 : 1;
  const int64_t bpc = c.dataSize == DataSize::OneByte ? 1 : 2;
  const int64_t bpa = epa * comps * bpc;
  Bytes out(static_cast<size_t>(size), 0);
  auto put = [&](int64_t at, int64_t element) {
    const uint8_t *src = &logical[element * k.elementBytes];
    if (k.elementBytes == bpc) {
      for (int64_t b = 0; b < bpc; ++b)
        out[at + b] = src[b];
    } else { // one byte into two: sign extension
      out[at] = src[0];
      out[at + 1] = (src[0] & 0x80) ? 0xFF : 0x00;
    }
  };
  int64_t element = 0;
  if (c.mode == AuxMode::PerLayer) {
    for (int64_t m = 0; m < comps; ++m)
      put(m * bpc, element++);
    return out;
  }
  if (c.mode == AuxMode::PerChannel) {
    for (int64_t ch = 0; ch < k.C; ++ch)
      for (int64_t m = 0; m < comps; ++m)
        put((ch * comps + m) * bpc, element++);
    return out;
  }
  (void)bpa;
  for (int64_t n = 0; n < k.N; ++n)
    for (int64_t ch = 0; ch < k.C; ++ch)
      for (int64_t h = 0; h < k.H; ++h)
        for (int64_t w = 0; w < k.W; ++w)
          for (int64_t m = 0; m < comps; ++m)
            put(n * batch + (ch / epa) * surface + h * line + w * bpa +
                    ((ch % epa) * comps + m) * bpc,
                element++);
  return out;
}

TEST(NvdlaAux, RandomShapesRoundTripAndMatchDocument) {
  std::mt19937 rng(99);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int checked = 0;
  for (int iter = 0; iter < 600; ++iter) {
    AuxCase k;
    AuxConfig &c = k.config;
    c.kind = static_cast<AuxKind>(pick(0, 3));
    c.mode = static_cast<AuxMode>(pick(0, 2));
    c.precision = enumValues<Precision>()[pick(0, 2)];
    c.dataSize = enumValues<DataSize>()[pick(0, 1)];
    c.use = static_cast<ElementWiseUse>(pick(0, 2));
    if (!validateAuxConfig(c).ok())
      continue;
    k.elementBytes = c.precision == Precision::Fp16 ? 2 : pick(1, getDataSizeBytes(c.dataSize));
    const bool two = getComponentsPerElement(c) == 2;
    k.N = pick(1, 3);
    k.C = pick(1, 70);
    k.H = pick(1, 4);
    k.W = pick(1, 5);
    k.batched = pick(0, 1);
    std::vector<int64_t> shape;
    const int64_t epa = getChannelsPerAtom(c.precision, kDocumentAtomBytes);
    const int64_t bpa = getBytesPerAtom(c);
    int64_t line = 0, surface = 0, batch = 0, size = 0;
    switch (c.mode) {
    case AuxMode::PerLayer:
      k.N = k.C = k.H = k.W = 1;
      if (two)
        shape = {2};
      size = (two ? 2 : 1) * getDataSizeBytes(c.dataSize);
      break;
    case AuxMode::PerChannel:
      shape = {k.C};
      if (two)
        shape.push_back(2);
      size = (k.C + epa - 1) / epa * bpa;
      break;
    case AuxMode::PerElement: {
      if (!k.batched)
        k.N = 1;
      else
        shape.push_back(k.N);
      shape.insert(shape.end(), {k.C, k.H, k.W});
      if (two)
        shape.push_back(2);
      // Packed strides rounded up to 32 (the bias and element-wise line
      // stride alignment), optionally with gaps.
      line = (k.W * bpa + 31) / 32 * 32;
      if (pick(0, 1))
        c.lineStride = line = line + 32 * pick(1, 2);
      surface = k.H * line;
      if (pick(0, 1))
        c.surfaceStride = surface = surface + 32 * pick(1, 2);
      batch = (k.C + epa - 1) / epa * surface;
      if (pick(0, 1))
        c.batchStride = batch = batch + 64;
      size = k.N * batch;
      if (c.kind == AuxKind::ElementWise)
        size = (size + 31) / 32 * 32;
      break;
    }
    }
    auto l = bindOk(c, shape, k.elementBytes);
    ASSERT_TRUE(l) << iter;
    ASSERT_EQ(l->getStorageBytes(), size) << iter;
    Bytes logical(static_cast<size_t>(l->getNumElements() * k.elementBytes));
    for (uint8_t &b : logical)
      b = static_cast<uint8_t>(pick(0, 255));
    Bytes storage = packed(*l, logical);
    ASSERT_EQ(storage, naiveAux(k, line, surface, batch, size, logical)) << iter;
    ASSERT_EQ(unpacked(*l, storage), logical) << iter;
    // Every byte the document assigns to an element is located there.
    Bytes marks(logical.size());
    for (size_t i = 0; i < marks.size(); ++i)
      marks[i] = 1;
    Bytes used = naiveAux(k, line, surface, batch, size, marks);
    for (int64_t b = 0; b < size; ++b) {
      Expected<StorageLocation> loc = l->locate(b);
      ASSERT_TRUE(loc.ok());
      bool isData =
          used[b] != 0 || (getDataSizeBytes(c.dataSize) == 2 && b % 2 == 1 && used[b - 1] != 0);
      ASSERT_EQ(loc->isPadding, !isData) << iter << " byte " << b;
      if (!isData)
        continue;
      Expected<int64_t> at = l->getByteOffset(loc->index);
      ASSERT_TRUE(at.ok());
      ASSERT_EQ(*at + loc->byteInElement, b) << iter;
    }
    ++checked;
  }
  EXPECT_GT(checked, 200);
}

//===----------------------------------------------------------------------===//
// Validation: every message once.
//===----------------------------------------------------------------------===//

std::string bindError(const AuxConfig &config, const std::vector<int64_t> &shape,
                      int64_t elementBytes) {
  auto b = AuxBoundLayout::bind(config, shape, elementBytes);
  EXPECT_FALSE(b.ok());
  Status s = AuxBoundLayout::validate(config, shape, elementBytes);
  EXPECT_EQ(s.message(), b.message());
  return b.message();
}

const Precision kI8 = Precision::Int8;
const DataSize kOne = DataSize::OneByte, kTwo = DataSize::TwoByte;

TEST(NvdlaAuxValidation, PReLUIsPerChannel) {
  EXPECT_EQ(bindError(cfg(AuxKind::PReLU, AuxMode::PerElement, kI8, kOne), {1, 1, 1}, 1),
            "prelu data is always per channel, not per_element");
}

TEST(NvdlaAuxValidation, BatchNormIsNotPerElement) {
  EXPECT_EQ(bindError(cfg(AuxKind::BatchNorm, AuxMode::PerElement, kI8, kOne), {1, 1, 1, 2}, 1),
            "batch_norm data is per layer or per channel, not per element");
}

TEST(NvdlaAuxValidation, ElementWiseIsPerElement) {
  EXPECT_EQ(bindError(cfg(AuxKind::ElementWise, AuxMode::PerChannel, kI8, kOne), {4}, 1),
            "element_wise data is always per element, not per_channel");
}

TEST(NvdlaAuxValidation, Fp16NeedsTwoBytes) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerChannel, Precision::Fp16, kOne), {4}, 2),
            "per_channel bias data: fp16 data needs the two_byte data size (each fp16 "
            "component takes 2 bytes)");
}

TEST(NvdlaAuxValidation, StridesArePerElementOnly) {
  AuxConfig c = cfg(AuxKind::Bias, AuxMode::PerChannel, kI8, kOne);
  c.lineStride = 32;
  EXPECT_EQ(bindError(c, {4}, 1),
            "per_channel bias data: line, surface and batch strides apply to per-element data "
            "only");
}

TEST(NvdlaAuxValidation, ElementWidth) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerChannel, kI8, kTwo), {4}, 4),
            "per_channel bias data: logical elements must be 1 or 2 bytes, got 4");
}

TEST(NvdlaAuxValidation, Fp16ElementWidth) {
  EXPECT_EQ(bindError(cfg(AuxKind::PReLU, AuxMode::PerChannel, Precision::Fp16, kTwo), {4}, 1),
            "per_channel prelu data: fp16 data needs 2-byte logical elements, got 1");
}

TEST(NvdlaAuxValidation, NarrowingIsRejected) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerChannel, Precision::Int16, kOne), {4}, 2),
            "per_channel bias data: logical elements of 2 bytes do not fit the one_byte data "
            "size; use a 1-byte element type");
}

TEST(NvdlaAuxValidation, Shapes) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerLayer, kI8, kOne), {1}, 1),
            "per_layer bias data needs a logical [] (a scalar) shape, got 1");
  EXPECT_EQ(bindError(cfg(AuxKind::BatchNorm, AuxMode::PerLayer, kI8, kOne), {3}, 1),
            "per_layer batch_norm data needs a logical [2] shape, got 3");
  EXPECT_EQ(bindError(cfg(AuxKind::BatchNorm, AuxMode::PerChannel, kI8, kOne), {4}, 1),
            "per_channel batch_norm data needs a logical [C, 2] shape, got 4");
  EXPECT_EQ(bindError(cfg(AuxKind::PReLU, AuxMode::PerChannel, kI8, kOne), {4, 2}, 1),
            "per_channel prelu data needs a logical [C] shape, got 4x2");
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerElement, kI8, kOne), {4, 2}, 1),
            "per_element bias data needs a logical [C, H, W] or [N, C, H, W] shape, got 4x2");
  EXPECT_EQ(bindError(cfg(AuxKind::ElementWise, AuxMode::PerElement, kI8, kOne,
                          ElementWiseUse::AluAndMul),
                      {1, 4, 2, 2, 3}, 1),
            "per_element element_wise data needs a logical [C, H, W, 2] or [N, C, H, W, 2] "
            "shape, got 1x4x2x2x3");
}

TEST(NvdlaAuxValidation, NegativeDimension) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerChannel, kI8, kOne), {-3}, 1),
            "dimension 0 is dynamic or negative; a layout needs a static shape");
}

TEST(NvdlaAuxValidation, PerChannelOverflow) {
  EXPECT_EQ(bindError(cfg(AuxKind::Bias, AuxMode::PerChannel, kI8, kTwo), {kMax / 2}, 1),
            "per_channel bias data: storage of " + std::to_string((kMax / 2 + 31) / 32) +
                " atoms overflows a 64-bit integer");
}

TEST(NvdlaAuxValidation, BiasLineStrideAlignment) {
  AuxConfig c = cfg(AuxKind::Bias, AuxMode::PerElement, kI8, kOne);
  c.lineStride = 48;
  EXPECT_EQ(bindError(c, {4, 1, 1}, 1),
            "per_element bias data: line stride 48 bytes is not a multiple of 32 bytes, the "
            "alignment the NVDLA document requires of bias line strides");
}

TEST(NvdlaAuxValidation, BiasSurfaceStrideAlignment) {
  AuxConfig c = cfg(AuxKind::Bias, AuxMode::PerElement, kI8, kOne);
  c.surfaceStride = 40;
  EXPECT_EQ(bindError(c, {4, 1, 1}, 1),
            "per_element bias data: surface stride 40 bytes is not a multiple of 32 bytes, the "
            "alignment the NVDLA document requires of bias surface strides");
}

TEST(NvdlaAuxValidation, ComponentMultiple) {
  AuxConfig c = cfg(AuxKind::ElementWise, AuxMode::PerElement, kI8, kTwo);
  c.surfaceStride = 129; // element-wise surface strides have no alignment rule
  EXPECT_EQ(bindError(c, {4, 1, 1}, 1),
            "per_element element_wise data: surface stride 129 bytes is not a multiple of the "
            "2-byte component");
}

TEST(NvdlaAuxValidation, ElementWiseSurfaceTooSmall) {
  AuxConfig c = cfg(AuxKind::ElementWise, AuxMode::PerElement, kI8, kOne);
  c.surfaceStride = 34;
  EXPECT_EQ(bindError(c, {4, 2, 1}, 1),
            "per_element element_wise data: surface stride 34 bytes is smaller than 2 lines of "
            "32 bytes (64 bytes)");
}

TEST(NvdlaAuxValidation, DefaultLineStrideOverflow) {
  // 16-byte atoms: W * 16 fits, rounding it up to 32 does not.
  const int64_t w = kMax / 16;
  EXPECT_EQ(
      bindError(cfg(AuxKind::Bias, AuxMode::PerElement, Precision::Int16, kOne), {1, 1, w}, 1),
      "per_element bias data: line stride overflows a 64-bit integer");
}

} // namespace
