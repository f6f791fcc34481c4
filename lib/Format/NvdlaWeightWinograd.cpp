//===- NvdlaWeightWinograd.cpp - Winograd weight stream ------------------===//
//
// Winograd weights (format document, "Basic Weight for Winograd Convolution";
// format_channel_extension_and_conversion_for_wingorad.png; nvdla/sw):
//
// Phase 1, per kernel: zero-pad C to 32 bytes (Cp channels); for stride > 1
// extend channels, c' = (dy*stride + dx)*Cp + c holding W[c][r*stride + dy]
// [s*stride + dx] (zero out of range), giving a 3x3 x C' kernel with
// C' = stride^2 * Cp; convert each 3x3 plane g to G g G^T (4x4) in fp32.
// Phase 2: groups of 32 (int8) / 16 (int16, fp16) kernels; for each block of
// 4 channels, for each kernel of the group, a 4x4x4 cube ordered r, s, c.
// The stream is zero-padded at the end to 128 bytes (done by the caller).
//
// Arithmetic: temp = G g then T = temp G^T, each dot product summed for
// n = 0, 1, 2 from +0.0f in fp32, every product rounded (no fused
// multiply-add), then one conversion: fp16 with the caller's rounding,
// int8 / int16 rounding half away from zero and saturating (the NVDLA
// convertor's rounding). No scaling factor.
//
//===----------------------------------------------------------------------===//

// Keep every product rounded: no contraction into fused multiply-adds.
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include "NvdlaWeightImpl.h"

#include "dla/Format/CheckedMath.h"
#include "dla/Format/NvdlaAlignment.h"
#include "dla/Format/Window.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace dla::format;
using namespace dla::format::nvdla;
using namespace dla::format::nvdla::detail;

namespace {

const float kG[4][3] = {{1.0f, 0.0f, 0.0f},
                        {0.5f, 0.5f, 0.5f},
                        {0.5f, -0.5f, 0.5f},
                        {0.0f, 0.0f, 1.0f}};

inline float loadSource(const char *p, int64_t srcBytes, Precision precision) {
  switch (srcBytes) {
  case 1:
    return static_cast<float>(static_cast<int8_t>(*p));
  case 2: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    if (precision == Precision::Fp16)
      return fp16ToFp32(v);
    return static_cast<float>(static_cast<int16_t>(v));
  }
  default: {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  }
}

/// Round half away from zero, then saturate to [lo, hi].
inline int32_t roundSaturate(float v, int32_t lo, int32_t hi) {
  if (std::isnan(v))
    return 0;
  const float r = std::round(v); // halfway cases away from zero
  if (r <= static_cast<float>(lo))
    return lo;
  if (r >= static_cast<float>(hi))
    return hi;
  return static_cast<int32_t>(r);
}

inline void storeElement(char *p, float v, Precision precision, Fp16Rounding rounding) {
  switch (precision) {
  case Precision::Int8: {
    const int8_t q = static_cast<int8_t>(roundSaturate(v, -128, 127));
    std::memcpy(p, &q, 1);
    return;
  }
  case Precision::Int16: {
    const int16_t q = static_cast<int16_t>(roundSaturate(v, -32768, 32767));
    std::memcpy(p, &q, 2);
    return;
  }
  case Precision::Fp16: {
    const uint16_t h = fp32ToFp16(v, rounding);
    std::memcpy(p, &h, 2);
    return;
  }
  }
}

/// out = G g G^T.
void transform(const float g[3][3], float out[4][4]) {
  float temp[4][3];
  for (int m = 0; m < 4; ++m)
    for (int p = 0; p < 3; ++p) {
      float acc = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float prod = kG[m][n] * g[n][p];
        acc = acc + prod;
      }
      temp[m][p] = acc;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      float acc = 0.0f;
      for (int n = 0; n < 3; ++n) {
        const float prod = temp[i][n] * kG[j][n]; // G^T[n][j] = G[j][n]
        acc = acc + prod;
      }
      out[i][j] = acc;
    }
}

} // namespace

void dla::format::nvdla::detail::packWinogradStream(const WeightLayoutImpl &impl,
                                                    const char *src, int64_t srcBytes,
                                                    char *dst, Fp16Rounding rounding) {
  const WeightShape &shape = impl.params.shape;
  const Precision precision = impl.params.precision;
  const int64_t K = shape.kernels, C = shape.channels, R = shape.height, S = shape.width;
  const int64_t stride = impl.params.strideX;
  const int64_t Cp = impl.winogradPaddedChannels;
  const int64_t Cx = impl.winogradChannels;
  const int64_t kpg = impl.kernelsPerGroup;
  const int64_t eb = impl.elementBytes;
  const int64_t kernelElems = C * R * S;

  char *out = dst;
  for (int64_t k0 = 0; k0 < K; k0 += kpg) {
    const int64_t kn = std::min(kpg, K - k0);
    for (int64_t cb = 0; cb < Cx; cb += 4) {
      for (int64_t k = k0; k < k0 + kn; ++k) {
        const char *kernel = src + k * kernelElems * srcBytes;
        float cube[4][4][4]; // [ci][r][s]
        for (int64_t ci = 0; ci < 4; ++ci) {
          const int64_t cx = cb + ci;
          const int64_t phase = cx / Cp;
          const int64_t c = cx % Cp;
          const int64_t dy = phase / stride;
          const int64_t dx = phase % stride;
          float g[3][3];
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) {
              const int64_t r = i * stride + dy;
              const int64_t s = j * stride + dx;
              g[i][j] = (c < C && r < R && s < S)
                            ? loadSource(kernel + (c * R * S + r * S + s) * srcBytes,
                                         srcBytes, precision)
                            : 0.0f;
            }
          transform(g, cube[ci]);
        }
        for (int r = 0; r < 4; ++r)
          for (int s = 0; s < 4; ++s)
            for (int ci = 0; ci < 4; ++ci) {
              storeElement(out, cube[ci][r][s], precision, rounding);
              out += eb;
            }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Registration (the Winograd row of weightFormatTable)
//===----------------------------------------------------------------------===//

namespace {
std::string str(int64_t v) { return std::to_string(v); }

Status checkWinogradOptions(const WeightParams &params) {
  if (params.strideX != params.strideY)
    return makeError("Winograd weights need equal strides in x and y, got stride x " +
                     str(params.strideX) + " and stride y " + str(params.strideY));
  return Status::success();
}

Expected<WeightGeometry> planWinograd(const WeightParams &params, WeightLayoutImpl &impl) {
  const WeightShape &shape = params.shape;
  const int64_t stride = params.strideX;
  const int64_t extR = strideExtendedExtent(shape.height, stride);
  const int64_t extS = strideExtendedExtent(shape.width, stride);
  if (extR != 3 || extS != 3)
    return makeError("Winograd weights must be 3x3 after channel extension: a " +
                     str(shape.height) + "x" + str(shape.width) + " (R x S) kernel with stride " +
                     str(stride) + " becomes " + str(extR) + "x" + str(extS) +
                     " (ceil(R/stride) x ceil(S/stride))");
  // Groups of 32 int8 / 16 int16-fp16 kernels; channels padded to 32 bytes.
  const int64_t eb = impl.elementBytes;
  impl.kernelsPerGroup = eb == 1 ? 32 : 16;
  std::optional<int64_t> padded = checkedRoundUp(shape.channels, 32 / eb);
  std::optional<int64_t> extended;
  // stride < kernel / 2 here, yet stride * stride alone may overflow.
  if (padded)
    if (std::optional<int64_t> taps = checkedMul(stride, stride))
      extended = checkedMul(*padded, *taps);
  std::optional<int64_t> kernelElements;
  if (extended)
    kernelElements = checkedMul(*extended, 16);
  if (!kernelElements)
    return overflow(params);
  impl.winogradPaddedChannels = *padded;
  impl.winogradChannels = *extended;
  WeightGeometry geometry;
  geometry.kernelElements = *kernelElements;
  geometry.endAlignment = getAlignment(AlignedData::Weight).dataSize;
  return geometry;
}

void packWinograd(const WeightLayoutImpl &impl, SourceKind kind, const char *src, char *dst,
                  Fp16Rounding rounding) {
  const bool fp32 = kind == SourceKind::Fp32ToFp16TE || kind == SourceKind::Fp32ToFp16TA;
  packWinogradStream(impl, src, fp32 ? 4 : impl.elementBytes, dst, rounding);
}
} // namespace

const WeightFormatOps dla::format::nvdla::detail::kWinogradWeightOps = {
    /*imageParams=*/false, /*usesStride=*/true,
    /*notInvertible=*/"each stored value mixes nine weights", checkWinogradOptions, planWinograd,
    /*program=*/nullptr, packWinograd};
