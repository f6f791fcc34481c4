//===- NvdlaWeightTestUtil.h - Independent references for weight tests ---===//
//
// Naive references written straight from the rules (format document and the
// nvdla/sw facts), in a different shape from the packers: for each position of
// the output stream they compute which source element lands there.
//
// A "source map" has one entry per stream element: the KCRS index of the
// source element, or -1 for a zero (padding) element.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_UNITTESTS_FORMAT_NVDLAWEIGHTTESTUTIL_H
#define DLA_UNITTESTS_FORMAT_NVDLAWEIGHTTESTUTIL_H

#include "dla/Format/NvdlaWeight.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace nvdla_weight_test {

using namespace dlaformat;
using namespace dlaformat::nvdla;

inline int64_t roundUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

/// Direct convolution of a virtual K x C x R x S kernel whose element
/// (k, c, r, s) is at source index `at(k, c, r, s)` (-1: zero).
template <typename At>
std::vector<int64_t> directMap(int64_t K, int64_t C, int64_t R, int64_t S, int64_t kpg,
                               int64_t atomicC, At at) {
  const int64_t n = K * C * R * S;
  std::vector<int64_t> map(static_cast<size_t>(n));
  for (int64_t p = 0; p < n; ++p) {
    // Kernel group: all earlier groups are full.
    const int64_t groupSize = kpg * C * R * S;
    const int64_t g = p / groupSize;
    const int64_t q = p % groupSize;
    const int64_t kn = std::min(kpg, K - g * kpg);
    // Channel block: all earlier blocks are full.
    const int64_t blockSize = kn * atomicC * R * S;
    const int64_t b = q / blockSize;
    const int64_t q2 = q % blockSize;
    const int64_t cn = std::min(atomicC, C - b * atomicC);
    const int64_t position = q2 / (kn * cn); // r * S + s
    const int64_t q3 = q2 % (kn * cn);
    const int64_t k = g * kpg + q3 / cn;
    const int64_t c = b * atomicC + q3 % cn;
    map[static_cast<size_t>(p)] = at(k, c, position / S, position % S);
  }
  return map;
}

inline int64_t kcrs(int64_t C, int64_t R, int64_t S, int64_t k, int64_t c, int64_t r,
                    int64_t s) {
  return ((k * C + c) * R + r) * S + s;
}

/// Direct convolution of the logical KCRS tensor.
inline std::vector<int64_t> directReference(int64_t K, int64_t C, int64_t R, int64_t S,
                                            int64_t kpg, int64_t atomicC) {
  return directMap(K, C, R, S, kpg, atomicC, [&](int64_t k, int64_t c, int64_t r, int64_t s) {
    return kcrs(C, R, S, k, c, r, s);
  });
}

/// Image input: pad C to P, pre-extend to K x (S*P) x R x 1, then direct
/// (factor 1) or post-extension row groups.
inline std::vector<int64_t> imageReference(int64_t K, int64_t C, int64_t R, int64_t S,
                                           int64_t P, int64_t kpg, int64_t atomicC,
                                           int64_t factor) {
  const int64_t Ce = S * P;
  auto extended = [&](int64_t k, int64_t ce, int64_t r) -> int64_t {
    const int64_t s = ce / P, c = ce % P;
    return c < C ? kcrs(C, R, S, k, c, r, s) : -1;
  };
  if (factor == 1)
    return directMap(K, Ce, R, 1, kpg, atomicC,
                     [&](int64_t k, int64_t c, int64_t r, int64_t) { return extended(k, c, r); });
  const int64_t n = K * Ce * R;
  std::vector<int64_t> map(static_cast<size_t>(n));
  for (int64_t p = 0; p < n; ++p) {
    const int64_t groupSize = kpg * Ce * R;
    const int64_t g = p / groupSize;
    const int64_t q = p % groupSize;
    const int64_t kn = std::min(kpg, K - g * kpg);
    const int64_t rowGroupSize = kn * factor * Ce; // full row groups
    const int64_t rg = q / rowGroupSize;
    const int64_t q2 = q % rowGroupSize;
    const int64_t rows = std::min(factor, R - rg * factor);
    const int64_t k = g * kpg + q2 / (rows * Ce);
    const int64_t inKernel = q2 % (rows * Ce);
    const int64_t r = rg * factor + inKernel / Ce;
    map[static_cast<size_t>(p)] = extended(k, inKernel % Ce, r);
  }
  return map;
}

/// Deconvolution set (y, x): K x C x ceil(R/sy) x ceil(S/sx), direct layout
/// with r and s reversed.
inline std::vector<int64_t> deconvolutionSetReference(int64_t K, int64_t C, int64_t R,
                                                      int64_t S, int64_t sy, int64_t sx,
                                                      int64_t y, int64_t x, int64_t kpg,
                                                      int64_t atomicC) {
  const int64_t Rs = (R + sy - 1) / sy, Ss = (S + sx - 1) / sx;
  return directMap(K, C, Rs, Ss, kpg, atomicC,
                   [&](int64_t k, int64_t c, int64_t rr, int64_t ss) -> int64_t {
                     // Stream position (rr, ss) holds set element (Rs-1-rr, Ss-1-ss).
                     const int64_t r = y + (Rs - 1 - rr) * sy;
                     const int64_t s = x + (Ss - 1 - ss) * sx;
                     return (r < R && s < S) ? kcrs(C, R, S, k, c, r, s) : -1;
                   });
}

/// The expected bytes of a stream given its source map (zero padding where
/// the map says -1), for `eb`-byte elements of `logical`.
inline std::vector<unsigned char> applyMap(const std::vector<int64_t> &map,
                                           const std::vector<unsigned char> &logical,
                                           int64_t eb) {
  std::vector<unsigned char> out(map.size() * static_cast<size_t>(eb), 0);
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] >= 0)
      std::memcpy(&out[i * eb], &logical[static_cast<size_t>(map[i] * eb)],
                  static_cast<size_t>(eb));
  return out;
}

/// Random bytes, with roughly `zeroPercent` % of the elements all-zero.
inline std::vector<unsigned char> randomElements(std::mt19937_64 &rng, int64_t n, int64_t eb,
                                                 int zeroPercent = 0) {
  std::vector<unsigned char> v(static_cast<size_t>(n * eb));
  for (int64_t i = 0; i < n; ++i) {
    const bool zero = static_cast<int>(rng() % 100) < zeroPercent;
    for (int64_t b = 0; b < eb; ++b)
      v[static_cast<size_t>(i * eb + b)] = zero ? 0 : static_cast<unsigned char>(rng());
  }
  return v;
}

/// Element values equal to their KCRS index (mod 2^(8*eb)), as bytes.
inline std::vector<unsigned char> iota(int64_t n, int64_t eb) {
  std::vector<unsigned char> v(static_cast<size_t>(n * eb));
  for (int64_t i = 0; i < n; ++i) {
    if (eb == 1) {
      v[static_cast<size_t>(i)] = static_cast<unsigned char>(i);
    } else {
      const uint16_t x = static_cast<uint16_t>(i);
      std::memcpy(&v[static_cast<size_t>(2 * i)], &x, 2);
    }
  }
  return v;
}

inline WeightParams makeParams(WeightFormat format, Precision precision, int64_t K, int64_t C,
                               int64_t R, int64_t S,
                               const HardwareConfig &hw = getDefaultHardwareConfig()) {
  WeightParams p;
  p.format = format;
  p.precision = precision;
  p.hardware = hw;
  p.shape = {K, C, R, S};
  return p;
}

/// Packs `logical` with `layout`; EXPECTs success.
inline std::vector<unsigned char> packBytes(const NvdlaWeightLayout &layout,
                                            const std::vector<unsigned char> &logical,
                                            Fp16Rounding rounding = kDefaultWeightRounding) {
  std::vector<unsigned char> storage(static_cast<size_t>(layout.getStorageBytes()), 0xAB);
  Status s = layout.pack(logical.data(), static_cast<int64_t>(logical.size()), storage.data(),
                         static_cast<int64_t>(storage.size()), rounding);
  if (!s)
    storage.clear();
  return storage;
}

} // namespace nvdla_weight_test

#endif // DLA_UNITTESTS_FORMAT_NVDLAWEIGHTTESTUTIL_H
