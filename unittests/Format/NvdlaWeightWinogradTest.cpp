//===- NvdlaWeightWinogradTest.cpp - Winograd weights --------------------===//

// The reference computes G g G^T in fp32 with every product rounded, like the
// packer; keep the compiler from fusing multiply-adds here too.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "NvdlaWeightTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace nvdla_weight_test;

namespace {

/// G g G^T in fp32: (G g) first, then (.) G^T; sums over n = 0, 1, 2.
void referenceTransform(const float g[3][3], float out[4][4]) {
  const float G[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
  float Gg[4][3];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      float sum = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float product = G[i][n] * g[n][j];
        sum = sum + product;
      }
      Gg[i][j] = sum;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float sum = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float product = Gg[i][n] * G[j][n];
        sum = sum + product;
      }
      out[i][j] = sum;
    }
}

/// Reads weight (k, c, r, s) of a KCRS array as float.
using Reader = float (*)(const std::vector<unsigned char> &, int64_t);

float readFp16(const std::vector<unsigned char> &v, int64_t i) {
  uint16_t h;
  std::memcpy(&h, &v[static_cast<size_t>(2 * i)], 2);
  return fp16ToFp32(h);
}
float readInt8(const std::vector<unsigned char> &v, int64_t i) {
  return static_cast<float>(static_cast<int8_t>(v[static_cast<size_t>(i)]));
}
float readInt16(const std::vector<unsigned char> &v, int64_t i) {
  int16_t x;
  std::memcpy(&x, &v[static_cast<size_t>(2 * i)], 2);
  return static_cast<float>(x);
}

/// The expected Winograd stream, position by position.
std::vector<unsigned char> winogradReference(Precision precision, int64_t K, int64_t C,
                                             int64_t R, int64_t S, int64_t stride,
                                             const std::vector<unsigned char> &logical,
                                             Reader read, Fp16Rounding rounding) {
  const int64_t eb = getBytesPerElement(precision);
  const int64_t kpg = eb == 1 ? 32 : 16;
  const int64_t Cp = roundUp(C, 32 / eb); // 32 bytes of channels
  const int64_t Cx = stride * stride * Cp;
  const int64_t n = K * Cx * 16;
  std::vector<unsigned char> out(static_cast<size_t>(n * eb));
  for (int64_t p = 0; p < n; ++p) {
    const int64_t groupSize = kpg * Cx * 16;
    const int64_t g = p / groupSize;
    const int64_t q = p % groupSize;
    const int64_t kn = std::min(kpg, K - g * kpg);
    const int64_t block = q / (kn * 64); // 4-channel block
    const int64_t k = g * kpg + (q % (kn * 64)) / 64;
    const int64_t w = q % 64; // inside the 4x4x4 cube: r, s, c with c fastest
    const int64_t r = w / 16, s = (w / 4) % 4, ci = w % 4;
    const int64_t cx = block * 4 + ci;
    // Channel extension: c' = (dy*stride + dx)*Cp + c.
    const int64_t phase = cx / Cp, c = cx % Cp;
    const int64_t dy = phase / stride, dx = phase % stride;
    float gm[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int64_t rr = i * stride + dy, ss = j * stride + dx;
        gm[i][j] = (c < C && rr < R && ss < S) ? read(logical, kcrs(C, R, S, k, c, rr, ss)) : 0.0f;
      }
    float t[4][4];
    referenceTransform(gm, t);
    const float v = t[r][s];
    if (precision == Precision::Fp16) {
      const uint16_t h = fp32ToFp16(v, rounding);
      std::memcpy(&out[static_cast<size_t>(2 * p)], &h, 2);
    } else {
      // Round half away from zero, saturate.
      const double lo = eb == 1 ? -128 : -32768, hi = eb == 1 ? 127 : 32767;
      double x = std::floor(std::fabs(static_cast<double>(v)) + 0.5);
      x = v < 0 ? -x : x;
      x = std::min(hi, std::max(lo, x));
      if (eb == 1) {
        out[static_cast<size_t>(p)] = static_cast<unsigned char>(static_cast<int8_t>(x));
      } else {
        const int16_t y = static_cast<int16_t>(x);
        std::memcpy(&out[static_cast<size_t>(2 * p)], &y, 2);
      }
    }
  }
  return out;
}

WeightParams winogradParams(Precision precision, int64_t K, int64_t C, int64_t R, int64_t S,
                            int64_t stride) {
  WeightParams p = makeParams(WeightFormat::Winograd, precision, K, C, R, S);
  p.strideX = p.strideY = stride;
  return p;
}

std::vector<unsigned char> randomFp16(std::mt19937_64 &rng, int64_t n) {
  std::vector<unsigned char> v(static_cast<size_t>(2 * n));
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t h = fp32ToFp16(dist(rng));
    std::memcpy(&v[static_cast<size_t>(2 * i)], &h, 2);
  }
  return v;
}

// format_channel_extension_and_conversion_for_wingorad.png: a 5x5 kernel of
// 48 bytes (24 fp16 channels), stride 2. Channels are zero-padded to 64 bytes
// (32), extended to 3x3 x 256 bytes (128 channels: blocks (dy, dx) = (0,0):
// pixels 0 2 4 / 10 12 14 / 20 22 24, (0,1): 1 3 - / 11 13 - / 21 23 -,
// (1,0): 5 7 9 / 15 17 19 / - - -, (1,1): 6 8 - / 16 18 - / - - -), converted
// to 4x4 x 256 bytes, mapped K0_00 K1_00 ... K15_00 K0_01 ... K15_31.
TEST(NvdlaWeightWinograd, FigureExtensionAndConversion) {
  const int64_t K = 16, C = 24, R = 5, S = 5;
  auto layout = NvdlaWeightLayout::create(winogradParams(Precision::Fp16, K, C, R, S, 2));
  ASSERT_TRUE(layout) << layout.message();
  EXPECT_EQ(layout->getKernelsPerGroup(), 16);
  EXPECT_EQ(layout->getStorageBytes(), K * 4 * 4 * 256);
  EXPECT_FALSE(layout->isInvertible());
  std::mt19937_64 rng(31);
  std::vector<unsigned char> logical = randomFp16(rng, K * C * R * S);
  std::vector<unsigned char> storage = packBytes(*layout, logical);

  // The figure's pixel numbers p = r*5 + s of each extension block.
  const int blocks[4][9] = {{0, 2, 4, 10, 12, 14, 20, 22, 24},
                            {1, 3, -1, 11, 13, -1, 21, 23, -1},
                            {5, 7, 9, 15, 17, 19, -1, -1, -1},
                            {6, 8, -1, 16, 18, -1, -1, -1, -1}};
  int64_t e = 0;
  for (int64_t cube = 0; cube < 32; ++cube) { // 128 channels / 4
    for (int64_t k = 0; k < 16; ++k) {
      float t[4][4][4];
      for (int64_t ci = 0; ci < 4; ++ci) {
        const int64_t cx = cube * 4 + ci;
        const int64_t block = cx / 32, c = cx % 32;
        float g[3][3];
        for (int i = 0; i < 9; ++i) {
          const int pixel = blocks[block][i];
          g[i / 3][i % 3] = (pixel < 0 || c >= C)
                                ? 0.0f
                                : readFp16(logical, kcrs(C, R, S, k, c, pixel / 5, pixel % 5));
        }
        referenceTransform(g, t[ci]);
      }
      for (int r = 0; r < 4; ++r)
        for (int s = 0; s < 4; ++s)
          for (int ci = 0; ci < 4; ++ci, ++e) {
            uint16_t h;
            std::memcpy(&h, &storage[static_cast<size_t>(2 * e)], 2);
            ASSERT_EQ(h, fp32ToFp16(t[ci][r][s], kDefaultWeightRounding)) << "K" << k << "_" << cube;
          }
    }
  }
}

// Every precision, partial kernel groups, padded channels, strides 1 and 3.
TEST(NvdlaWeightWinograd, AgainstReference) {
  std::mt19937_64 rng(32);
  struct Case {
    Precision precision;
    int64_t K, C, R, S, stride;
  };
  for (Case t : {Case{Precision::Int8, 33, 5, 3, 3, 1}, Case{Precision::Int16, 17, 20, 3, 3, 1},
                 Case{Precision::Fp16, 17, 16, 3, 3, 1}, Case{Precision::Fp16, 3, 3, 8, 9, 3},
                 Case{Precision::Int8, 40, 33, 6, 5, 2}, Case{Precision::Int16, 1, 1, 7, 9, 3}}) {
    const int64_t eb = getBytesPerElement(t.precision);
    auto layout =
        NvdlaWeightLayout::create(winogradParams(t.precision, t.K, t.C, t.R, t.S, t.stride));
    ASSERT_TRUE(layout) << layout.message();
    const int64_t n = t.K * t.C * t.R * t.S;
    std::vector<unsigned char> logical =
        t.precision == Precision::Fp16 ? randomFp16(rng, n) : randomElements(rng, n, eb);
    Reader read = t.precision == Precision::Fp16 ? readFp16
                  : t.precision == Precision::Int8 ? readInt8
                                                   : readInt16;
    for (Fp16Rounding rounding : {Fp16Rounding::TiesToEven, Fp16Rounding::TiesAwayFromZero}) {
      std::vector<unsigned char> storage = packBytes(*layout, logical, rounding);
      std::vector<unsigned char> expected =
          winogradReference(t.precision, t.K, t.C, t.R, t.S, t.stride, logical, read, rounding);
      EXPECT_EQ(layout->getStorageBytes(), roundUp(static_cast<int64_t>(expected.size()), 128));
      expected.resize(storage.size(), 0);
      ASSERT_EQ(storage, expected) << enumName(t.precision) << " K " << t.K << " C "
                                   << t.C << " stride " << t.stride;
    }
  }
}

// Integer transforms round half away from zero and saturate: g = all 127
// gives 0.5*(127+127+127) = 190.5 in the middle rows -> saturates to 127;
// g with a single 1 at the centre gives 0.25 -> 0 and 0.5 -> 1 (away).
TEST(NvdlaWeightWinograd, IntegerRounding) {
  auto layout = NvdlaWeightLayout::create(winogradParams(Precision::Int8, 1, 1, 3, 3, 1));
  ASSERT_TRUE(layout);
  std::vector<unsigned char> logical(9, 0);
  logical[4] = 1; // g[1][1] = 1
  std::vector<unsigned char> storage = packBytes(*layout, logical);
  // G g G^T = v v^T with v = G[:, 1] = (0, .5, -.5, 0): entries 0 and +-0.25,
  // which round to 0.
  for (int r = 0; r < 4; ++r)
    for (int s = 0; s < 4; ++s)
      EXPECT_EQ(static_cast<int8_t>(storage[static_cast<size_t>((r * 4 + s) * 4)]), 0);
  logical.assign(9, 0);
  logical[1] = 1; // g[0][1] = 1
  storage = packBytes(*layout, logical);
  // (G g)[i][1] = G[i][0] = (1, .5, .5, 0); times G^T row 1 = (0, .5, -.5, 0).
  const float a[4] = {1, 0.5f, 0.5f, 0}, b[4] = {0, 0.5f, -0.5f, 0};
  for (int r = 0; r < 4; ++r)
    for (int s = 0; s < 4; ++s) {
      const float x = a[r] * b[s]; // 0.5 -> 1, -0.5 -> -1, 0.25 -> 0
      const int expected = x == 0.5f ? 1 : x == -0.5f ? -1 : 0;
      EXPECT_EQ(static_cast<int8_t>(storage[static_cast<size_t>((r * 4 + s) * 4)]), expected)
          << r << "," << s;
    }
  logical.assign(9, 127);
  storage = packBytes(*layout, logical);
  EXPECT_EQ(static_cast<int8_t>(storage[0]), 127);            // T[0][0] = 127
  EXPECT_EQ(static_cast<int8_t>(storage[(1 * 4 + 1) * 4]), 127); // 285.75 saturates
  logical.assign(9, 0x80);                                       // -128
  storage = packBytes(*layout, logical);
  EXPECT_EQ(static_cast<int8_t>(storage[(1 * 4 + 1) * 4]), -128);
}

// The fused fp32 path transforms in fp32 and converts once.
TEST(NvdlaWeightWinograd, Fp32Source) {
  const int64_t K = 5, C = 7, R = 3, S = 3;
  auto layout = NvdlaWeightLayout::create(winogradParams(Precision::Fp16, K, C, R, S, 1));
  ASSERT_TRUE(layout);
  std::mt19937_64 rng(33);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  std::vector<float> source(static_cast<size_t>(K * C * R * S));
  for (float &f : source)
    f = dist(rng);
  std::vector<unsigned char> asBytes(source.size() * 4);
  std::memcpy(asBytes.data(), source.data(), asBytes.size());
  Reader readFp32 = [](const std::vector<unsigned char> &v, int64_t i) {
    float f;
    std::memcpy(&f, &v[static_cast<size_t>(4 * i)], 4);
    return f;
  };
  for (Fp16Rounding rounding : {Fp16Rounding::TiesToEven, Fp16Rounding::TiesAwayFromZero}) {
    std::vector<unsigned char> storage(static_cast<size_t>(layout->getStorageBytes()));
    ASSERT_TRUE(layout->packFp32(source.data(), static_cast<int64_t>(source.size()),
                                 storage.data(), static_cast<int64_t>(storage.size()), rounding));
    std::vector<unsigned char> expected =
        winogradReference(Precision::Fp16, K, C, R, S, 1, asBytes, readFp32, rounding);
    expected.resize(storage.size(), 0);
    ASSERT_EQ(storage, expected);
  }
}

TEST(NvdlaWeightWinograd, Errors) {
  auto notSquare = NvdlaWeightLayout::create(winogradParams(Precision::Fp16, 4, 4, 5, 3, 1));
  ASSERT_FALSE(notSquare);
  EXPECT_EQ(notSquare.message(),
            "Winograd weights must be 3x3 after channel extension: a 5x3 (R x S) kernel with "
            "stride 1 becomes 5x3 (ceil(R/stride) x ceil(S/stride))");
  auto tooSmall = NvdlaWeightLayout::create(winogradParams(Precision::Fp16, 4, 4, 4, 4, 2));
  ASSERT_FALSE(tooSmall); // 4x4 with stride 2 is 2x2
  EXPECT_NE(tooSmall.message().find("becomes 2x2"), std::string::npos);
  WeightParams mismatch = winogradParams(Precision::Fp16, 4, 4, 3, 3, 1);
  mismatch.strideX = 2;
  auto stride = NvdlaWeightLayout::create(mismatch);
  ASSERT_FALSE(stride);
  EXPECT_EQ(stride.message(),
            "Winograd weights need equal strides in x and y, got stride x 2 and stride y 1");

  auto layout = NvdlaWeightLayout::create(winogradParams(Precision::Fp16, 4, 4, 3, 3, 1));
  ASSERT_TRUE(layout);
  std::vector<unsigned char> storage(static_cast<size_t>(layout->getStorageBytes()));
  std::vector<unsigned char> logical(4 * 4 * 9 * 2);
  Status s = layout->unpack(storage.data(), static_cast<int64_t>(storage.size()), logical.data(),
                            static_cast<int64_t>(logical.size()));
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("cannot be unpacked"), std::string::npos);
  EXPECT_FALSE(layout->getByteOffset(0, 0, 0, 0));
  EXPECT_FALSE(layout->locate(0));
  EXPECT_FALSE(createNvdlaWeightBoundLayout(winogradParams(Precision::Fp16, 4, 4, 3, 3, 1)));
}

} // namespace
