//===- NvdlaPixelTest.cpp - NVDLA pixel formats ---------------------------===//
//
// The table is checked against (a) the document's columns copied by hand
// and (b) a component description derived here from each format's name by
// the naming rule (components listed from the most significant bits of a
// little-endian word). Expected bytes come from hand-written lists or from
// `naivePixel`, written from those rules and the pitch-linear geometry,
// never from the code under test.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/NvdlaPixel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace dlaformat;
using namespace dlaformat::nvdla;

namespace {

using Bytes = std::vector<uint8_t>;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

//===----------------------------------------------------------------------===//
// The document's table, by hand.
//===----------------------------------------------------------------------===//

struct DocRow {
  const char *name;
  int planes, channels;
  const char *precision; // as printed in the document
  int maxX;
};

const DocRow kDoc[] = {
    {"T_R8", 1, 1, "int8", 31},
    {"T_R10", 1, 1, "int16", 15},
    {"T_R12", 1, 1, "int16", 15},
    {"T_R16", 1, 1, "int16", 15},
    {"T_R16_I", 1, 1, "int16", 15},
    {"T_R16_F", 1, 1, "int16", 15}, // erratum 5: really fp16
    {"T_A16B16G16R16", 1, 4, "int16", 3},
    {"T_X16B16G16R16", 1, 4, "int16", 3},
    {"T_A16B16G16R16_F", 1, 4, "fp16", 3},
    {"T_A16Y16U16V16", 1, 4, "int16", 3},
    {"T_V16U16Y16A16", 1, 4, "int16", 3},
    {"T_A16Y16U16V16_F", 1, 4, "fp16", 3},
    {"T_A8B8G8R8", 1, 4, "int8", 7},
    {"T_A8R8G8B8", 1, 4, "int8", 7},
    {"T_B8G8R8A8", 1, 4, "int8", 7},
    {"T_R8G8B8A8", 1, 4, "int8", 7},
    {"T_X8B8G8R8", 1, 4, "int8", 7},
    {"T_X8R8G8B8", 1, 4, "int8", 7},
    {"T_B8G8R8X8", 1, 4, "int8", 7},
    {"T_R8G8B8X8", 1, 4, "int8", 7},
    {"T_A2B10G10R10", 1, 4, "int16", 7},
    {"T_A2R10G10B10", 1, 4, "int16", 7},
    {"T_B10G10R10A2", 1, 4, "int16", 7},
    {"T_R10G10B10A2", 1, 4, "int16", 7},
    {"T_A2Y10U10V10", 1, 4, "int16", 7},
    {"T_V10U10Y10A2", 1, 4, "int16", 7},
    {"T_A8Y8U8V8", 1, 4, "int8", 7},
    {"T_V8U8Y8A8", 1, 4, "int8", 7},
    {"T_Y8___U8V8_N444", 2, 3, "int8", 31},
    {"T_Y8___V8U8_N444", 2, 3, "int8", 31},
    {"T_Y10___U10V10_N444", 2, 3, "int16", 15},
    {"T_Y10___V10U10_N444", 2, 3, "int16", 15},
    {"T_Y12___U12V12_N444", 2, 3, "int16", 15},
    {"T_Y12___V12U12_N444", 2, 3, "int16", 15},
    {"T_Y16___U16V16_N444", 2, 3, "int16", 15},
    {"T_Y16___V16U16_N444", 2, 3, "int16", 15},
};
static_assert(std::size(kDoc) == kNumPixelFormats, "36 rows");

//===----------------------------------------------------------------------===//
// The naming rule.
//===----------------------------------------------------------------------===//

struct Comp {
  char letter;
  int bits, container, plane, bitOffset, memoryOrder, channel;
};

struct Desc {
  std::vector<Comp> comps; // in channel order
  int planes = 1;
  int bpp[2] = {0, 0};
  bool packed = false;
  int elementBytes = 1;
  PixelValueType type = PixelValueType::Unsigned;
};

bool endsWith(const std::string &s, const std::string &t) {
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

Desc describe(std::string name) {
  Desc d;
  name = name.substr(2); // "T_"
  if (endsWith(name, "_N444"))
    name.resize(name.size() - 5);
  if (endsWith(name, "_F")) {
    d.type = PixelValueType::Float;
    name.resize(name.size() - 2);
  } else if (endsWith(name, "_I")) {
    d.type = PixelValueType::Signed;
    name.resize(name.size() - 2);
  }
  std::vector<std::string> planeNames;
  size_t split = name.find("___");
  planeNames.push_back(name.substr(0, split));
  if (split != std::string::npos)
    planeNames.push_back(name.substr(split + 3));
  d.planes = static_cast<int>(planeNames.size());
  std::vector<std::vector<std::pair<char, int>>> tokens(planeNames.size());
  for (size_t p = 0; p < planeNames.size(); ++p) {
    const std::string &s = planeNames[p];
    for (size_t i = 0; i < s.size();) {
      char letter = s[i++];
      int bits = 0;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        bits = bits * 10 + (s[i++] - '0');
      tokens[p].push_back({letter, bits});
      if (bits == 2)
        d.packed = true;
    }
  }
  for (size_t p = 0; p < tokens.size(); ++p) {
    int offset = 0;
    // From the least significant (last) component up.
    for (size_t i = tokens[p].size(); i-- > 0;) {
      auto [letter, bits] = tokens[p][i];
      int container = d.packed ? bits : (bits <= 8 ? 8 : 16);
      if (bits > 8)
        d.elementBytes = 2;
      const std::string order = (letter == 'Y' || letter == 'U' || letter == 'V') ? "YUV" : "RGB";
      int channel = (letter == 'A' || letter == 'X') ? 3 : static_cast<int>(order.find(letter));
      d.comps.push_back({letter, bits, container, static_cast<int>(p), offset,
                         static_cast<int>(tokens[p].size() - 1 - i), channel});
      offset += container;
    }
    d.bpp[p] = offset / 8;
  }
  std::sort(d.comps.begin(), d.comps.end(),
            [](const Comp &a, const Comp &b) { return a.channel < b.channel; });
  return d;
}

TEST(NvdlaPixelTable, EveryRowMatchesTheDocument) {
  for (int i = 0; i < kNumPixelFormats; ++i) {
    const DocRow &doc = kDoc[i];
    const PixelFormatInfo &info = pixelFormatTable()[i];
    SCOPED_TRACE(doc.name);
    EXPECT_EQ(static_cast<int>(info.format), i);
    EXPECT_EQ(info.name, doc.name);
    EXPECT_EQ(info.numPlanes, doc.planes);
    EXPECT_EQ(info.numChannels, doc.channels);
    EXPECT_EQ(info.maxXOffset, doc.maxX);
    if (std::string(doc.name) != "T_R16_F") {
      EXPECT_EQ(enumName(info.inputPrecision), doc.precision);
    } else { // erratum 5
      EXPECT_EQ(info.inputPrecision, Precision::Fp16);
    }
    EXPECT_EQ(&getPixelFormatInfo(info.format), &info);
    EXPECT_EQ(enumName(info.format), doc.name);
    EXPECT_EQ(parseEnum<PixelFormat>(doc.name), info.format);
    EXPECT_EQ(isSemiPlanar(info.format), doc.planes == 2);
  }
}

TEST(NvdlaPixelTable, EveryRowMatchesItsName) {
  for (int i = 0; i < kNumPixelFormats; ++i) {
    const PixelFormatInfo &info = pixelFormatTable()[i];
    SCOPED_TRACE(std::string(info.name));
    Desc d = describe(std::string(info.name));
    EXPECT_EQ(info.numPlanes, d.planes);
    EXPECT_EQ(info.bitPacked, d.packed);
    EXPECT_EQ(info.valueType, d.type);
    EXPECT_EQ(info.bytesPerPixel[0], d.bpp[0]);
    EXPECT_EQ(info.bytesPerPixel[1], d.bpp[1]);
    EXPECT_EQ(getPixelElementBytes(info.format), d.elementBytes);
    // The x offset spans one 32-byte atom of plane 0.
    EXPECT_EQ(info.maxXOffset, 32 / d.bpp[0] - 1);
    ASSERT_EQ(info.numComponents, static_cast<int>(d.comps.size()));
    EXPECT_EQ(info.numComponents, info.numChannels);
    for (int c = 0; c < info.numComponents; ++c) {
      const PixelComponent &got = info.components[c];
      const Comp &want = d.comps[c];
      SCOPED_TRACE(std::string(1, want.letter));
      EXPECT_EQ(got.letter, want.letter);
      EXPECT_EQ(got.bits, want.bits);
      EXPECT_EQ(got.containerBits, want.container);
      EXPECT_EQ(got.plane, want.plane);
      EXPECT_EQ(got.bitOffset, want.bitOffset);
      EXPECT_EQ(got.memoryOrder, want.memoryOrder);
      EXPECT_EQ(got.channel, want.channel);
      EXPECT_EQ(got.channel, c);
    }
  }
}

TEST(NvdlaPixelTable, SpotChecksOfTheNamingRule) {
  // R in the low byte of A8B8G8R8; A2B10G10R10: R bits 9:0, A bits 31:30.
  const PixelFormatInfo &abgr = getPixelFormatInfo(PixelFormat::T_A8B8G8R8);
  EXPECT_EQ(abgr.components[0].letter, 'R');
  EXPECT_EQ(abgr.components[0].memoryOrder, 0);
  const PixelFormatInfo &packed = getPixelFormatInfo(PixelFormat::T_A2B10G10R10);
  EXPECT_EQ(packed.components[0].bitOffset, 0);
  EXPECT_EQ(packed.components[0].bits, 10);
  EXPECT_EQ(packed.components[3].letter, 'A');
  EXPECT_EQ(packed.components[3].bitOffset, 30);
  EXPECT_EQ(packed.components[3].bits, 2);
  // U8V8: V at the lower address of the UV word; V8U8: U first (NV12).
  const PixelFormatInfo &uv = getPixelFormatInfo(PixelFormat::T_Y8___U8V8_N444);
  EXPECT_EQ(uv.components[1].letter, 'U');
  EXPECT_EQ(uv.components[1].memoryOrder, 1);
  EXPECT_EQ(uv.components[2].memoryOrder, 0);
  const PixelFormatInfo &vu = getPixelFormatInfo(PixelFormat::T_Y8___V8U8_N444);
  EXPECT_EQ(vu.components[1].memoryOrder, 0);
  // 10-bit semi-planar components sit in 16-bit containers.
  const PixelFormatInfo &y10 = getPixelFormatInfo(PixelFormat::T_Y10___U10V10_N444);
  EXPECT_EQ(y10.components[0].bits, 10);
  EXPECT_EQ(y10.components[0].containerBits, 16);
  EXPECT_EQ(y10.components[1].bitOffset, 16);
  EXPECT_EQ(parseEnum<PixelFormat>("T_RGB"), std::nullopt);
  EXPECT_EQ(parseEnum<PixelFormat>("t_r8"), std::nullopt);
}

TEST(NvdlaPixelTable, Erratum5R16FIsFp16) {
  const PixelFormatInfo &info = getPixelFormatInfo(PixelFormat::T_R16_F);
  EXPECT_EQ(info.inputPrecision, Precision::Fp16);
  EXPECT_EQ(info.valueType, PixelValueType::Float);
  PixelConfig config;
  config.format = PixelFormat::T_R16_F;
  config.inputPrecision = Precision::Fp16;
  EXPECT_TRUE(PixelBoundLayout::bind(config, {1, 1, 2, 2}).ok());
  config.inputPrecision = Precision::Int16;
  EXPECT_EQ(PixelBoundLayout::bind(config, {1, 1, 2, 2}).message(),
            "T_R16_F takes fp16 input precision, not int16");
  // The integer 16-bit formats stay int16.
  EXPECT_EQ(getPixelFormatInfo(PixelFormat::T_R16_I).inputPrecision, Precision::Int16);
  EXPECT_EQ(getPixelFormatInfo(PixelFormat::T_R16).inputPrecision, Precision::Int16);
}

//===----------------------------------------------------------------------===//
// Pitch-linear layout.
//===----------------------------------------------------------------------===//

struct Geo {
  int64_t ls[2] = {0, 0};
  int64_t uvOffset = 0;
  int64_t size = 0;
};

int64_t roundUp32(int64_t v) { return (v + 31) / 32 * 32; }

Geo docGeometry(const Desc &d, const PixelConfig &c, int64_t H, int64_t W) {
  Geo g;
  g.ls[0] = c.lineStride ? *c.lineStride : roundUp32((W + c.xOffset) * d.bpp[0]);
  g.size = H * g.ls[0];
  if (d.planes == 2) {
    g.ls[1] = c.uvLineStride ? *c.uvLineStride : roundUp32((W + c.xOffset) * d.bpp[1]);
    g.uvOffset = c.uvPlaneOffset ? *c.uvPlaneOffset : roundUp32(H * g.ls[0]);
    g.size = g.uvOffset + H * g.ls[1];
  }
  return g;
}

/// Each component of each pixel where the rules put it.
Bytes naivePixel(const Desc &d, const Geo &g, const PixelConfig &c, int64_t H, int64_t W,
                 const Bytes &logical) {
  Bytes out(static_cast<size_t>(g.size), 0);
  const int eb = d.elementBytes;
  for (int64_t h = 0; h < H; ++h)
    for (int64_t w = 0; w < W; ++w) {
      int64_t base[2] = {h * g.ls[0] + (c.xOffset + w) * d.bpp[0],
                         g.uvOffset + h * g.ls[1] + (c.xOffset + w) * d.bpp[1]};
      if (d.packed) {
        uint32_t word = 0;
        for (const Comp &k : d.comps) {
          size_t e = static_cast<size_t>(((k.channel * H + h) * W + w) * eb);
          uint32_t v = logical[e] | (uint32_t(logical[e + 1]) << 8);
          word |= (v & ((1u << k.bits) - 1)) << k.bitOffset;
        }
        for (int b = 0; b < 4; ++b)
          out[base[0] + b] = static_cast<uint8_t>(word >> (8 * b));
        continue;
      }
      for (const Comp &k : d.comps) {
        size_t e = static_cast<size_t>(((k.channel * H + h) * W + w) * eb);
        for (int b = 0; b < eb; ++b)
          out[base[k.plane] + k.bitOffset / 8 + b] = logical[e + b];
      }
    }
  return out;
}

std::unique_ptr<PixelBoundLayout> bindOk(const PixelConfig &c, const std::vector<int64_t> &shape) {
  auto b = PixelBoundLayout::bind(c, shape);
  EXPECT_TRUE(b.ok()) << b.message();
  return b.ok() ? std::move(*b) : nullptr;
}

Bytes packed(const PixelBoundLayout &l, const Bytes &logical) {
  Bytes s(static_cast<size_t>(l.getStorageBytes()), 0xAB);
  l.pack(reinterpret_cast<const char *>(logical.data()), reinterpret_cast<char *>(s.data()));
  return s;
}

Bytes unpacked(const PixelBoundLayout &l, const Bytes &storage) {
  Bytes v(static_cast<size_t>(l.getNumElements() * l.getElementBytes()), 0xCD);
  l.unpack(reinterpret_cast<const char *>(storage.data()), reinterpret_cast<char *>(v.data()));
  return v;
}

/// One pixel with channel values 1, 2, 3, 4 (in channel order).
Bytes onePixel(PixelFormat f) {
  PixelConfig c;
  c.format = f;
  auto l = bindOk(c, {1, 4, 1, 1});
  EXPECT_TRUE(l);
  Bytes s = packed(*l, {1, 2, 3, 4});
  EXPECT_EQ(unpacked(*l, s), (Bytes{1, 2, 3, 4}));
  return Bytes(s.begin(), s.begin() + 4);
}

TEST(NvdlaPixel, HandWrittenInterleaved8Bit) {
  // Channels R=1, G=2, B=3, A=4 (or Y, U, V, A).
  EXPECT_EQ(onePixel(PixelFormat::T_A8B8G8R8), (Bytes{1, 2, 3, 4}));
  EXPECT_EQ(onePixel(PixelFormat::T_A8R8G8B8), (Bytes{3, 2, 1, 4}));
  EXPECT_EQ(onePixel(PixelFormat::T_B8G8R8A8), (Bytes{4, 1, 2, 3}));
  EXPECT_EQ(onePixel(PixelFormat::T_R8G8B8A8), (Bytes{4, 3, 2, 1}));
  EXPECT_EQ(onePixel(PixelFormat::T_X8R8G8B8), (Bytes{3, 2, 1, 4}));
  EXPECT_EQ(onePixel(PixelFormat::T_A8Y8U8V8), (Bytes{3, 2, 1, 4}));
  EXPECT_EQ(onePixel(PixelFormat::T_V8U8Y8A8), (Bytes{4, 1, 2, 3}));
}

TEST(NvdlaPixel, HandWrittenInterleavedLines) {
  // T_A8R8G8B8, H=2, W=3, x offset 2: line stride roundup(5 * 4, 32) = 32;
  // pixel (h, w) at h * 32 + (2 + w) * 4 holding B, G, R, A.
  PixelConfig c;
  c.format = PixelFormat::T_A8R8G8B8;
  c.xOffset = 2;
  auto l = bindOk(c, {1, 4, 2, 3});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getLineStride(), 32);
  EXPECT_EQ(l->getStorageBytes(), 64);
  Bytes logical(24);
  for (int i = 0; i < 24; ++i)
    logical[i] = static_cast<uint8_t>(i + 1); // R: 1..6, G: 7..12, B: 13..18, A: 19..24
  Bytes expected(64, 0);
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 3; ++w) {
      int p = h * 3 + w, at = h * 32 + (2 + w) * 4;
      expected[at + 0] = static_cast<uint8_t>(13 + p); // B
      expected[at + 1] = static_cast<uint8_t>(7 + p);  // G
      expected[at + 2] = static_cast<uint8_t>(1 + p);  // R
      expected[at + 3] = static_cast<uint8_t>(19 + p); // A
    }
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
}

TEST(NvdlaPixel, HandWrittenSemiPlanar) {
  // T_Y8___V8U8_N444, H=1, W=2: Y plane of one 32-byte line, then the UV
  // plane (U at the lower address) at offset 32.
  PixelConfig c;
  c.format = PixelFormat::T_Y8___V8U8_N444;
  auto l = bindOk(c, {1, 3, 1, 2});
  ASSERT_TRUE(l);
  Bytes logical = {1, 2, 3, 4, 5, 6}; // Y = {1, 2}, U = {3, 4}, V = {5, 6}
  Bytes expected(64, 0);
  expected[0] = 1;
  expected[1] = 2;
  expected[32] = 3;
  expected[33] = 5;
  expected[34] = 4;
  expected[35] = 6;
  EXPECT_EQ(packed(*l, logical), expected);
  EXPECT_EQ(unpacked(*l, expected), logical);
  // U8V8 swaps the pair.
  c.format = PixelFormat::T_Y8___U8V8_N444;
  auto m = bindOk(c, {1, 3, 1, 2});
  ASSERT_TRUE(m);
  std::swap(expected[32], expected[33]);
  std::swap(expected[34], expected[35]);
  EXPECT_EQ(packed(*m, logical), expected);
}

TEST(NvdlaPixel, SemiPlanarGeometryWithXOffset) {
  // Y8: Y line roundup((5 + 3) * 1, 32) = 32, UV line roundup(8 * 2, 32) = 32,
  // UV plane at roundup(2 * 32, 32) = 64.
  PixelConfig c;
  c.format = PixelFormat::T_Y8___U8V8_N444;
  c.xOffset = 3;
  auto l = bindOk(c, {1, 3, 2, 5});
  ASSERT_TRUE(l);
  EXPECT_EQ(l->getLineStride(0), 32);
  EXPECT_EQ(l->getLineStride(1), 32);
  EXPECT_EQ(l->getPlaneOffset(1), 64);
  EXPECT_EQ(l->getStorageBytes(), 128);
  // Y16: Y line roundup(20 * 2, 32) = 64, UV line roundup(20 * 4, 32) = 96.
  PixelConfig d;
  d.format = PixelFormat::T_Y16___V16U16_N444;
  auto m = bindOk(d, {1, 3, 3, 20});
  ASSERT_TRUE(m);
  EXPECT_EQ(m->getLineStride(0), 64);
  EXPECT_EQ(m->getLineStride(1), 96);
  EXPECT_EQ(m->getPlaneOffset(1), 192);
  EXPECT_EQ(m->getStorageBytes(), 192 + 288);
}

TEST(NvdlaPixel, HandWrittenBitPacked) {
  // R = 0x155, G = 0x2AA, B = 0x0F0, A = 2, as little-endian uint16 logical.
  const Bytes logical = {0x55, 0x01, 0xAA, 0x02, 0xF0, 0x00, 0x02, 0x00};
  struct Case {
    PixelFormat format;
    Bytes word;
  } cases[] = {
      {PixelFormat::T_A2B10G10R10, {0x55, 0xA9, 0x0A, 0x8F}}, // R | G<<10 | B<<20 | A<<30
      {PixelFormat::T_R10G10B10A2, {0xC2, 0xA3, 0x6A, 0x55}}, // A | B<<2 | G<<12 | R<<22
      {PixelFormat::T_A2R10G10B10, {0xF0, 0xA8, 0x5A, 0x95}}, // B | G<<10 | R<<20 | A<<30
      {PixelFormat::T_B10G10R10A2, {0x56, 0xA5, 0x2A, 0x3C}}, // A | R<<2 | G<<12 | B<<22
  };
  for (const Case &k : cases) {
    SCOPED_TRACE(std::string(enumName(k.format)));
    PixelConfig c;
    c.format = k.format;
    auto l = bindOk(c, {1, 4, 1, 1});
    ASSERT_TRUE(l);
    Bytes expected = k.word;
    expected.resize(32, 0);
    EXPECT_EQ(packed(*l, logical), expected);
    EXPECT_EQ(unpacked(*l, expected), logical);
  }
  // Bits above a component's width are dropped.
  PixelConfig c;
  c.format = PixelFormat::T_A2B10G10R10;
  auto l = bindOk(c, {1, 4, 1, 1});
  Bytes s = packed(*l, {0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF});
  EXPECT_EQ(Bytes(s.begin(), s.begin() + 4), (Bytes{0xFF, 0x03, 0x00, 0xC0}));
  EXPECT_EQ(unpacked(*l, s), (Bytes{0xFF, 0x03, 0, 0, 0, 0, 0x03, 0x00}));
}

TEST(NvdlaPixel, LocateBitPackedBytes) {
  PixelConfig c;
  c.format = PixelFormat::T_A2B10G10R10;
  auto l = bindOk(c, {1, 4, 1, 2});
  ASSERT_TRUE(l);
  // Pixel 1 starts at byte 4. Byte 5 holds R bits 9:8 (and G bits 5:0).
  struct {
    int64_t byte, channel, byteInElement;
  } expect[] = {{4, 0, 0}, {5, 0, 1}, {6, 1, 0}, {7, 2, 0}};
  for (auto &e : expect) {
    Expected<StorageLocation> loc = l->locate(e.byte);
    ASSERT_TRUE(loc.ok());
    EXPECT_FALSE(loc->isPadding);
    EXPECT_EQ(loc->index, (std::vector<int64_t>{0, e.channel, 0, 1})) << e.byte;
    EXPECT_EQ(loc->byteInElement, e.byteInElement) << e.byte;
  }
  EXPECT_TRUE(l->locate(8)->isPadding);
  EXPECT_EQ(*l->getByteOffset({0, 3, 0, 1}), 7); // A: bits 31:30
  EXPECT_EQ(*l->getByteOffset({0, 1, 0, 1}), 5); // G: lowest bit 10
}

TEST(NvdlaPixel, StridedViewOnlyForInOrderSinglePlanes) {
  auto viewOf = [](PixelFormat f, int64_t x) {
    PixelConfig c;
    c.format = f;
    c.xOffset = x;
    const PixelFormatInfo &i = getPixelFormatInfo(f);
    auto l = bindOk(c, {1, i.numChannels, 2, 3});
    return l->getStridedView();
  };
  EXPECT_TRUE(viewOf(PixelFormat::T_R8, 0));
  EXPECT_TRUE(viewOf(PixelFormat::T_R16_F, 0));
  EXPECT_TRUE(viewOf(PixelFormat::T_A16B16G16R16, 0));
  EXPECT_TRUE(viewOf(PixelFormat::T_X8B8G8R8, 0));
  EXPECT_FALSE(viewOf(PixelFormat::T_A8R8G8B8, 0));
  EXPECT_FALSE(viewOf(PixelFormat::T_A16Y16U16V16, 0));
  EXPECT_FALSE(viewOf(PixelFormat::T_A2B10G10R10, 0));
  EXPECT_FALSE(viewOf(PixelFormat::T_Y8___V8U8_N444, 0));
  std::optional<StridedView> v = viewOf(PixelFormat::T_A8B8G8R8, 5);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->offset, 20); // 5 pixels of 4 bytes
  ASSERT_EQ(v->dims.size(), 4u);
  EXPECT_EQ(v->dims[1].stride, 32); // roundup(8 * 4, 32)
  EXPECT_EQ(v->dims[2].stride, 4);
  EXPECT_EQ(v->dims[3].stride, 1);
}

/// Marks the bytes each element owns according to the rules.
void expectLocateMatches(const PixelBoundLayout &l, const Desc &d, const Geo &g,
                         const PixelConfig &c, int64_t H, int64_t W) {
  for (int64_t b = 0; b < l.getStorageBytes(); ++b) {
    Expected<StorageLocation> loc = l.locate(b);
    ASSERT_TRUE(loc.ok());
    // Which pixel and component the rules give.
    int plane = d.planes == 2 && b >= g.uvOffset ? 1 : 0;
    int64_t rel = b - (plane ? g.uvOffset : 0);
    int64_t h = rel / g.ls[plane], x = rel % g.ls[plane] - c.xOffset * d.bpp[plane];
    bool inside = h < H && x >= 0 && x / d.bpp[plane] < W;
    if (!inside) {
      ASSERT_TRUE(loc->isPadding) << b;
      continue;
    }
    ASSERT_FALSE(loc->isPadding) << b;
    int64_t w = x / d.bpp[plane], bit = (x % d.bpp[plane]) * 8;
    const Comp *owner = nullptr;
    for (const Comp &k : d.comps)
      if (k.plane == plane && bit >= k.bitOffset && bit < k.bitOffset + k.container)
        owner = &k;
    ASSERT_TRUE(owner);
    ASSERT_EQ(loc->index, (std::vector<int64_t>{0, owner->channel, h, w})) << b;
    ASSERT_EQ(loc->byteInElement, (bit - owner->bitOffset) / 8) << b;
  }
}

TEST(NvdlaPixel, EveryFormatRoundTripsAndMatchesTheRules) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < kNumPixelFormats; ++i) {
    const PixelFormatInfo &info = pixelFormatTable()[i];
    Desc d = describe(std::string(info.name));
    for (int iter = 0; iter < 12; ++iter) {
      SCOPED_TRACE(std::string(info.name) + " #" + std::to_string(iter));
      const int64_t H = pick(1, 4), W = pick(1, 9);
      PixelConfig c;
      c.format = info.format;
      c.xOffset = pick(0, info.maxXOffset);
      if (pick(0, 1))
        c.lineStride = roundUp32((W + c.xOffset) * d.bpp[0]) + 32 * pick(0, 2);
      if (d.planes == 2 && pick(0, 1))
        c.uvLineStride = roundUp32((W + c.xOffset) * d.bpp[1]) + 32 * pick(0, 2);
      if (d.planes == 2 && pick(0, 1)) {
        int64_t ls0 = c.lineStride ? *c.lineStride : roundUp32((W + c.xOffset) * d.bpp[0]);
        c.uvPlaneOffset = H * ls0 + 32 * pick(0, 3);
      }
      auto l = bindOk(c, {1, info.numChannels, H, W});
      ASSERT_TRUE(l);
      Geo g = docGeometry(d, c, H, W);
      ASSERT_EQ(l->getStorageBytes(), g.size);
      Bytes logical(static_cast<size_t>(l->getNumElements() * d.elementBytes));
      for (size_t k = 0; k < logical.size(); ++k)
        logical[k] = static_cast<uint8_t>(pick(0, 255));
      if (d.packed) // keep every value within its field
        for (const Comp &k : d.comps)
          for (int64_t p = 0; p < H * W; ++p) {
            size_t e = static_cast<size_t>((k.channel * H * W + p) * 2);
            uint32_t v = (logical[e] | (logical[e + 1] << 8)) & ((1u << k.bits) - 1);
            logical[e] = static_cast<uint8_t>(v);
            logical[e + 1] = static_cast<uint8_t>(v >> 8);
          }
      Bytes storage = packed(*l, logical);
      ASSERT_EQ(storage, naivePixel(d, g, c, H, W, logical));
      ASSERT_EQ(unpacked(*l, storage), logical);
      if (iter < 2)
        expectLocateMatches(*l, d, g, c, H, W);
      for (int ch = 0; ch < info.numChannels; ++ch) {
        const Comp &k = d.comps[ch];
        int64_t h = H - 1, w = W - 1;
        int64_t want = (k.plane ? g.uvOffset : 0) + h * g.ls[k.plane] +
                       (c.xOffset + w) * d.bpp[k.plane] + k.bitOffset / 8;
        ASSERT_EQ(*l->getByteOffset({0, ch, h, w}), want);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Validation: every message once.
//===----------------------------------------------------------------------===//

std::string bindError(const PixelConfig &c, const std::vector<int64_t> &shape) {
  auto b = PixelBoundLayout::bind(c, shape);
  EXPECT_FALSE(b.ok());
  EXPECT_EQ(PixelBoundLayout::validate(c, shape).message(), b.message());
  return b.message();
}

PixelConfig fmt(PixelFormat f) {
  PixelConfig c;
  c.format = f;
  return c;
}

TEST(NvdlaPixelValidation, Rank) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_R8), {1, 4, 4}),
            "T_R8: pixel data needs a logical NCHW shape (rank 4), got shape 1x4x4");
}

TEST(NvdlaPixelValidation, NegativeDimension) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_R8), {1, 1, -4, 4}),
            "dimension 2 is dynamic or negative; a layout needs a static shape");
}

TEST(NvdlaPixelValidation, OneImage) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_R8), {2, 1, 4, 4}),
            "T_R8: pixel data holds one image, N must be 1, got 2");
}

TEST(NvdlaPixelValidation, ChannelCount) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_A8B8G8R8), {1, 3, 4, 4}),
            "T_A8B8G8R8 has 4 channels, the logical shape has C = 3");
}

TEST(NvdlaPixelValidation, XOffsetRange) {
  PixelConfig c = fmt(PixelFormat::T_A16B16G16R16);
  c.xOffset = 4;
  EXPECT_EQ(bindError(c, {1, 4, 1, 1}),
            "T_A16B16G16R16: x offset 4 is outside the valid range 0..3");
  c.xOffset = -1;
  EXPECT_EQ(bindError(c, {1, 4, 1, 1}),
            "T_A16B16G16R16: x offset -1 is outside the valid range 0..3");
  c = fmt(PixelFormat::T_Y8___U8V8_N444);
  c.xOffset = 31;
  EXPECT_TRUE(PixelBoundLayout::bind(c, {1, 3, 1, 1}).ok());
}

TEST(NvdlaPixelValidation, UVOptionsNeedTwoPlanes) {
  PixelConfig c = fmt(PixelFormat::T_A8B8G8R8);
  c.uvPlaneOffset = 64;
  EXPECT_EQ(bindError(c, {1, 4, 1, 1}),
            "T_A8B8G8R8 has one plane; a UV line stride or UV plane offset applies to "
            "semi-planar formats only");
}

TEST(NvdlaPixelValidation, NegativeLineStride) {
  PixelConfig c = fmt(PixelFormat::T_R8);
  c.lineStride = -32;
  EXPECT_EQ(bindError(c, {1, 1, 1, 1}), "T_R8: line stride must not be negative, got -32");
}

TEST(NvdlaPixelValidation, LineStrideAlignment) {
  PixelConfig c = fmt(PixelFormat::T_R8);
  c.lineStride = 48;
  EXPECT_EQ(bindError(c, {1, 1, 1, 1}),
            "T_R8: line stride 48 bytes is not a multiple of 32 bytes, the alignment the NVDLA "
            "document requires of pitch linear pixel line strides");
}

TEST(NvdlaPixelValidation, LineStrideTooSmall) {
  PixelConfig c = fmt(PixelFormat::T_A8B8G8R8);
  c.xOffset = 2;
  c.lineStride = 32;
  EXPECT_EQ(bindError(c, {1, 4, 1, 7}),
            "T_A8B8G8R8: line stride 32 bytes is smaller than 2 + 7 pixels of 4 bytes (36 bytes)");
}

TEST(NvdlaPixelValidation, UVLineStrideTooSmall) {
  PixelConfig c = fmt(PixelFormat::T_Y10___V10U10_N444);
  c.uvLineStride = 32;
  EXPECT_EQ(bindError(c, {1, 3, 1, 9}),
            "T_Y10___V10U10_N444: UV line stride 32 bytes is smaller than 0 + 9 pixels of 4 "
            "bytes (36 bytes)");
}

TEST(NvdlaPixelValidation, UVPlaneOffsetAlignment) {
  PixelConfig c = fmt(PixelFormat::T_Y8___V8U8_N444);
  c.uvPlaneOffset = 80;
  EXPECT_EQ(bindError(c, {1, 3, 2, 4}),
            "T_Y8___V8U8_N444: UV plane offset 80 bytes is not a multiple of 32 bytes, the "
            "alignment the NVDLA document requires of pitch linear pixel start addresses");
}

TEST(NvdlaPixelValidation, UVPlaneOffsetOverlapsY) {
  PixelConfig c = fmt(PixelFormat::T_Y8___V8U8_N444);
  c.uvPlaneOffset = 32;
  EXPECT_EQ(bindError(c, {1, 3, 2, 4}),
            "T_Y8___V8U8_N444: UV plane offset 32 bytes is smaller than the Y plane of 2 lines "
            "of 32 bytes (64 bytes)");
}

TEST(NvdlaPixelValidation, LineOverflow) {
  PixelConfig c = fmt(PixelFormat::T_R8);
  c.xOffset = 1;
  EXPECT_EQ(bindError(c, {1, 1, 1, kMax}),
            "T_R8: a line of " + std::to_string(kMax) + " pixels overflows a 64-bit integer");
}

TEST(NvdlaPixelValidation, DefaultLineStrideOverflow) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_R8), {1, 1, 1, kMax - 3}),
            "T_R8: line stride overflows a 64-bit integer");
}

TEST(NvdlaPixelValidation, PlaneOverflow) {
  EXPECT_EQ(bindError(fmt(PixelFormat::T_R8), {1, 1, int64_t(1) << 60, 1}),
            "T_R8: a plane of " + std::to_string(int64_t(1) << 60) +
                " lines of 32 bytes overflows a 64-bit integer");
}

TEST(NvdlaPixelValidation, TwoPlanesOverflow) {
  // Two planes of 2^57 lines of 32 bytes: 2^62 bytes each.
  const int64_t h = int64_t(1) << 57;
  EXPECT_EQ(bindError(fmt(PixelFormat::T_Y8___V8U8_N444), {1, 3, h, 1}),
            "T_Y8___V8U8_N444: storage of the two planes overflows a 64-bit integer");
}

} // namespace

namespace {
// 2^40 lines of no pixels: nothing to copy. pack/unpack once walked every
// empty line (hours; found by dla-fuzz-format as a timeout).
TEST(NvdlaPixel, EmptyLinesAreNotWalked) {
  for (PixelFormat format : {PixelFormat::T_A2B10G10R10, PixelFormat::T_Y8___U8V8_N444}) {
    PixelConfig config;
    config.format = format;
    const int64_t channels = getPixelFormatInfo(format).numChannels;
    auto layout = PixelBoundLayout::bind(config, {1, channels, int64_t(1) << 40, 0});
    ASSERT_TRUE(layout) << layout.message();
    ASSERT_EQ((*layout)->getNumElements(), 0);
    std::vector<char> storage((*layout)->getStorageBytes() + 1, char(0x55));
    char logical = 0;
    (*layout)->pack(&logical, storage.data());
    (*layout)->unpack(storage.data(), &logical);
    for (int64_t i = 0; i < (*layout)->getStorageBytes(); ++i)
      EXPECT_EQ(storage[i], 0);
  }
}
} // namespace
