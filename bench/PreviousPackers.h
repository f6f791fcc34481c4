//===- PreviousPackers.h - The packers as they were before issue 13 -*- C++ -*-===//
//
// Frozen copies of the scalar kernels that the fast ones replaced, used by
// bench/pack_ratios_bench.cpp to check byte-identical output in the same run
// (and by the unit tests as "the previous implementation"). Slow on purpose:
// a per-element branch for compression, a per-element switch and software
// fp16 for Winograd, a per-element offset for chunked layouts.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_BENCH_PREVIOUSPACKERS_H
#define DLA_BENCH_PREVIOUSPACKERS_H

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "dla/Format/ChunkedLayout.h"
#include "dla/Format/Fp16.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/NvdlaWeight.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace previous {
using namespace dlaformat;
using namespace dlaformat::nvdla;

/// The compressed image of an uncompressed image (layout of
/// NvdlaWeightCompression.h), computed element by element.
inline std::vector<unsigned char> compress(const NvdlaWeightLayout &layout,
                                           const unsigned char *image) {
  const int64_t eb = layout.getElementBytes();
  auto nonZero = [eb](const unsigned char *p) {
    return eb == 1 ? p[0] != 0 : (p[0] | p[1]) != 0;
  };
  std::vector<std::vector<unsigned char>> wgs, wmb, data;
  for (const WeightSurface &ws : layout.getSurfaces()) {
    const int64_t n = ws.dataBytes / eb;
    std::vector<unsigned char> mask(static_cast<size_t>(alignUp((n + 7) / 8, 128)), 0);
    std::vector<unsigned char> values, sizes;
    const unsigned char *p = image + ws.offset;
    int64_t e = 0;
    for (int64_t g = 0; g < ws.getNumGroups(); ++g) {
      uint32_t bytes = 0;
      for (int64_t i = 0; i < ws.getGroupBytes(g) / eb; ++i, ++e, p += eb)
        if (nonZero(p)) {
          mask[static_cast<size_t>(e >> 3)] |= static_cast<unsigned char>(1u << (e & 7));
          values.insert(values.end(), p, p + eb);
          bytes += static_cast<uint32_t>(eb);
        }
      for (int b = 0; b < 4; ++b)
        sizes.push_back(static_cast<unsigned char>(bytes >> (8 * b)));
    }
    sizes.resize(static_cast<size_t>(alignUp(static_cast<int64_t>(sizes.size()), 128)), 0);
    values.resize(static_cast<size_t>(alignUp(static_cast<int64_t>(values.size()), 128)), 0);
    wgs.push_back(std::move(sizes));
    wmb.push_back(std::move(mask));
    data.push_back(std::move(values));
  }
  std::vector<unsigned char> out;
  auto place = [&out](const std::vector<unsigned char> &s) {
    out.resize(static_cast<size_t>(alignUp(static_cast<int64_t>(out.size()), 256)), 0);
    out.insert(out.end(), s.begin(), s.end());
  };
  for (size_t i = 0; i < wgs.size(); ++i) {
    place(wgs[i]);
    place(wmb[i]);
  }
  for (const auto &d : data)
    place(d);
  return out;
}

namespace detail {
inline void winogradTransform(const float g[3][3], float out[4][4]) {
  static const float G[4][3] = {{1, 0, 0}, {0.5f, 0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0, 1}};
  float temp[4][3];
  for (int m = 0; m < 4; ++m)
    for (int p = 0; p < 3; ++p) {
      float acc = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float prod = G[m][n] * g[n][p];
        acc = acc + prod;
      }
      temp[m][p] = acc;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float prod = temp[i][n] * G[j][n];
        acc = acc + prod;
      }
      out[i][j] = acc;
    }
}
inline int32_t roundSaturate(float v, int32_t lo, int32_t hi) {
  if (std::isnan(v))
    return 0;
  const float r = std::round(v);
  if (r <= static_cast<float>(lo))
    return lo;
  if (r >= static_cast<float>(hi))
    return hi;
  return static_cast<int32_t>(r);
}
} // namespace detail

/// The whole Winograd storage image (end padding zero) of raw source data of
/// the layout's precision.
inline std::vector<char> winograd(const NvdlaWeightLayout &layout, const char *src,
                                  Fp16Rounding rounding) {
  const WeightParams &params = layout.getParams();
  const Precision precision = params.precision;
  const int64_t K = params.shape.kernels, C = params.shape.channels, R = params.shape.height,
                S = params.shape.width, stride = params.strideX;
  const int64_t eb = layout.getElementBytes();
  const int64_t Cp = alignUp(C, 32 / eb), Cx = Cp * stride * stride;
  const int64_t kpg = layout.getKernelsPerGroup();
  std::vector<char> image(static_cast<size_t>(layout.getStorageBytes()), 0);
  char *out = image.data();
  auto load = [&](const char *p) -> float {
    if (eb == 1)
      return static_cast<float>(static_cast<int8_t>(*p));
    uint16_t v;
    std::memcpy(&v, p, 2);
    return precision == Precision::Fp16 ? fp16ToFp32(v)
                                        : static_cast<float>(static_cast<int16_t>(v));
  };
  for (int64_t k0 = 0; k0 < K; k0 += kpg) {
    const int64_t kn = std::min(kpg, K - k0);
    for (int64_t cb = 0; cb < Cx; cb += 4)
      for (int64_t k = k0; k < k0 + kn; ++k) {
        const char *kernel = src + k * C * R * S * eb;
        float cube[4][4][4];
        for (int64_t ci = 0; ci < 4; ++ci) {
          const int64_t cx = cb + ci, phase = cx / Cp, c = cx % Cp;
          const int64_t dy = phase / stride, dx = phase % stride;
          float g[3][3];
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) {
              const int64_t r = i * stride + dy, s = j * stride + dx;
              g[i][j] = (c < C && r < R && s < S) ? load(kernel + (c * R * S + r * S + s) * eb)
                                                  : 0.0f;
            }
          detail::winogradTransform(g, cube[ci]);
        }
        for (int r = 0; r < 4; ++r)
          for (int s = 0; s < 4; ++s)
            for (int ci = 0; ci < 4; ++ci, out += eb) {
              const float v = cube[ci][r][s];
              if (precision == Precision::Fp16) {
                const uint16_t h = fp32ToFp16(v, rounding);
                std::memcpy(out, &h, 2);
              } else if (eb == 1) {
                *out = static_cast<char>(detail::roundSaturate(v, -128, 127));
              } else {
                const int16_t q = static_cast<int16_t>(detail::roundSaturate(v, -32768, 32767));
                std::memcpy(out, &q, 2);
              }
            }
      }
  }
  return image;
}

/// A chunked storage image, element by element through the offset map.
inline std::vector<char> chunked(const ChunkedBoundLayout &layout, const char *logical) {
  const std::vector<int64_t> &shape = layout.getShape();
  const int64_t eb = layout.getElementBytes();
  std::vector<char> storage(static_cast<size_t>(layout.getStorageBytes()), 0);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < layout.getNumElements(); ++i) {
    std::memcpy(storage.data() + layout.getElementOffsetUnchecked(index.data()) * eb,
                logical + i * eb, static_cast<size_t>(eb));
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return storage;
}

} // namespace previous

#endif // DLA_BENCH_PREVIOUSPACKERS_H
