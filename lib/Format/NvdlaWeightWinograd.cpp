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
// Speed: a kernel is widened to fp32 whole, its channel rows of 9 taps turned
// into tap planes with 4x4 transposes (3x3, stride 1), 4 channels (x 2
// kernels with AVX) transformed per SIMD pass; groups split across threads.
//
// Arithmetic: temp = G g then T = temp G^T, each dot product summed for
// n = 0, 1, 2 from +0.0f in fp32, every product rounded (no fused
// multiply-add), then one conversion: fp16 with the caller's rounding,
// int8 / int16 rounding half away from zero and saturating (the NVDLA
// convertor's rounding), after dividing by the layout's `scale` in double
// when it has one (one rounding: T / scale is exact enough in double that
// only a true tie rounds as a tie).
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
#include "dla/Format/PackThreads.h"
#include "dla/Format/Window.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

using namespace dlaformat;
using namespace dlaformat::nvdla;
using namespace dlaformat::nvdla::detail;

namespace {

/// Streams of at least this many bytes per thread split across threads.
constexpr int64_t kWinogradBytesPerThread = int64_t(2) << 20;

/// G of the weight transform G g G^T (format.rst), written once.
constexpr float kG[4][3] = {{1.0f, 0.0f, 0.0f},
                            {0.5f, 0.5f, 0.5f},
                            {0.5f, -0.5f, 0.5f},
                            {0.0f, 0.0f, 1.0f}};

/// 2G in integers (G's entries are multiples of 1/2): the transform of
/// integer weights times 4 is the integer product (2G) q (2G)^T.
struct TwiceG {
  int64_t at[4][3];
};
constexpr TwiceG makeTwiceG() {
  TwiceG g{};
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 3; ++n)
      g.at[m][n] = static_cast<int64_t>(2 * kG[m][n]);
  return g;
}
constexpr TwiceG kTwiceG = makeTwiceG();
static_assert(kTwiceG.at[2][1] == -1 && kTwiceG.at[3][2] == 2, "2G is G doubled");

/// Round half away from zero, then saturate to [lo, hi].
inline int32_t roundSaturate(double v, int32_t lo, int32_t hi) {
  if (std::isnan(v))
    return 0;
  const double r = std::round(v); // halfway cases away from zero
  if (r <= static_cast<double>(lo))
    return lo;
  if (r >= static_cast<double>(hi))
    return hi;
  return static_cast<int32_t>(r);
}

/// `v` stored in `precision`; integers divided by `scale` first (0: none).
inline void storeElement(char *p, float v, Precision precision, Fp16Rounding rounding,
                         double scale) {
  const double q = scale > 0 ? static_cast<double>(v) / scale : static_cast<double>(v);
  switch (precision) {
  case Precision::Int8: {
    const int8_t q8 = static_cast<int8_t>(roundSaturate(q, -128, 127));
    std::memcpy(p, &q8, 1);
    return;
  }
  case Precision::Int16: {
    const int16_t q16 = static_cast<int16_t>(roundSaturate(q, -32768, 32767));
    std::memcpy(p, &q16, 2);
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
[[maybe_unused]] void transform(const float g[3][3], float out[4][4]) {
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

namespace {

/// The source of one kernel group as fp32 planes: planes[k][t][cx] is tap t
/// (= i*3 + j) of extended channel cx of kernel k of the group, zero where
/// the channel is padding or the tap falls outside the kernel. Channels are
/// innermost so that 4 consecutive ones are one SIMD vector.
void loadGroup(const char *src, int64_t srcBytes, Precision precision, int64_t k0, int64_t kn,
               int64_t C, int64_t R, int64_t S, int64_t stride, int64_t Cp, int64_t Cx,
               std::vector<float> &kernelFloats, float *planes) {
  const int64_t kernelElems = C * R * S;
  for (int64_t k = 0; k < kn; ++k) {
    const char *kernel = src + (k0 + k) * kernelElems * srcBytes;
    const float *f;
    if (srcBytes == 4) {
      f = reinterpret_cast<const float *>(kernel);
    } else {
      // Whole kernel to fp32 first (contiguous, no per-element switch).
      float *out = kernelFloats.data();
      if (srcBytes == 1) {
        for (int64_t e = 0; e < kernelElems; ++e)
          out[e] = static_cast<float>(static_cast<int8_t>(kernel[e]));
      } else if (precision == Precision::Fp16) {
        convertFp16ToFp32(reinterpret_cast<const uint16_t *>(kernel), out, kernelElems);
      } else {
        for (int64_t e = 0; e < kernelElems; ++e) {
          int16_t v;
          std::memcpy(&v, kernel + 2 * e, 2);
          out[e] = static_cast<float>(v);
        }
      }
      f = out;
    }
    float *kp = planes + k * 9 * Cx;
#if defined(__SSE2__) || defined(_M_X64)
    if (stride == 1 && R == 3 && S == 3) {
      // Channel rows of 9 taps -> 9 tap planes, 4 channels at a time: two
      // 4x4 transposes (taps 0-3, 4-7) and tap 8 gathered.
      int64_t c = 0;
      for (; c + 4 <= C; c += 4) {
        const float *r0 = f + c * 9;
        for (int half = 0; half < 2; ++half) {
          __m128 a = _mm_loadu_ps(r0 + 4 * half), b = _mm_loadu_ps(r0 + 9 + 4 * half);
          __m128 cc = _mm_loadu_ps(r0 + 18 + 4 * half), d = _mm_loadu_ps(r0 + 27 + 4 * half);
          _MM_TRANSPOSE4_PS(a, b, cc, d);
          float *t = kp + 4 * half * Cx + c;
          _mm_storeu_ps(t, a);
          _mm_storeu_ps(t + Cx, b);
          _mm_storeu_ps(t + 2 * Cx, cc);
          _mm_storeu_ps(t + 3 * Cx, d);
        }
        _mm_storeu_ps(kp + 8 * Cx + c, _mm_setr_ps(r0[8], r0[17], r0[26], r0[35]));
      }
      for (int64_t t = 0; t < 9; ++t) {
        float *plane = kp + t * Cx;
        for (int64_t e = c; e < C; ++e)
          plane[e] = f[e * 9 + t];
        std::fill(plane + C, plane + Cx, 0.0f); // padding channels
      }
      continue;
    }
#endif
    for (int64_t dy = 0; dy < stride; ++dy)
      for (int64_t dx = 0; dx < stride; ++dx) {
        const int64_t base = (dy * stride + dx) * Cp;
        for (int64_t i = 0; i < 3; ++i)
          for (int64_t j = 0; j < 3; ++j) {
            const int64_t r = i * stride + dy, s = j * stride + dx;
            float *plane = kp + (i * 3 + j) * Cx + base;
            int64_t c = 0;
            if (r < R && s < S) {
              const float *from = f + r * S + s;
              for (; c < C; ++c)
                plane[c] = from[c * R * S];
            }
            std::fill(plane + c, plane + Cp, 0.0f); // padding channels, taps outside
          }
      }
  }
}

#if defined(__SSE2__) || defined(_M_X64)
/// G g G^T for 4 channels at once (one channel per lane), in the scalar
/// transform's order of operations: each sum from +0.0f, n = 0, 1, 2, every
/// product rounded. Writes out[(r*4 + s)*4 + lane], the r, s, c cube order.
inline void transform4(const float *planes, int64_t Cx, float *out) {
  __m128 g[9];
  for (int t = 0; t < 9; ++t)
    g[t] = _mm_loadu_ps(planes + t * Cx);
  __m128 temp[4][3];
  for (int m = 0; m < 4; ++m)
    for (int p = 0; p < 3; ++p) {
      __m128 acc = _mm_setzero_ps();
      for (int n = 0; n < 3; ++n)
        acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(kG[m][n]), g[n * 3 + p]));
      temp[m][p] = acc;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      __m128 acc = _mm_setzero_ps();
      for (int n = 0; n < 3; ++n)
        acc = _mm_add_ps(acc, _mm_mul_ps(temp[i][n], _mm_set1_ps(kG[j][n])));
      _mm_storeu_ps(out + (i * 4 + j) * 4, acc);
    }
}
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define DLA_WINOGRAD_AVX 1
/// transform4 for two kernels at once (lanes 0-3: `a`, lanes 4-7: `b`),
/// with the same operations per lane.
__attribute__((target("avx"))) void transform4x2(const float *a, const float *b, int64_t Cx,
                                                 float *outA, float *outB) {
  __m256 g[9];
  for (int t = 0; t < 9; ++t)
    g[t] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a + t * Cx)),
                                _mm_loadu_ps(b + t * Cx), 1);
  __m256 temp[4][3];
  for (int m = 0; m < 4; ++m)
    for (int p = 0; p < 3; ++p) {
      __m256 acc = _mm256_setzero_ps();
      for (int n = 0; n < 3; ++n)
        acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(kG[m][n]), g[n * 3 + p]));
      temp[m][p] = acc;
    }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      __m256 acc = _mm256_setzero_ps();
      for (int n = 0; n < 3; ++n)
        acc = _mm256_add_ps(acc, _mm256_mul_ps(temp[i][n], _mm256_set1_ps(kG[j][n])));
      _mm_storeu_ps(outA + (i * 4 + j) * 4, _mm256_castps256_ps128(acc));
      _mm_storeu_ps(outB + (i * 4 + j) * 4, _mm256_extractf128_ps(acc, 1));
    }
}
/// transform4x2 for finite inputs of bounded magnitude (fp16 / int8 / int16
/// weights: every intermediate stays finite). Then a product by G's 0
/// entries is a zero that cannot change a sum that started from +0.0f (such
/// a sum is never -0), and a product by 1 is exact, so
///   ((0 + 1a) + 0b) + 0c = a + 0     ((0 + 0a) + 0b) + 1c = c + 0
/// (the "+ 0" turns -0 into +0, as the full sum does); the 0.5 rows keep all
/// their operations. Bit-identical to transform4x2 on such inputs.
__attribute__((target("avx"))) void transform4x2Finite(const float *a, const float *b,
                                                       int64_t Cx, float *outA, float *outB) {
  __m256 g[9];
  for (int t = 0; t < 9; ++t)
    g[t] = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(a + t * Cx)),
                                _mm_loadu_ps(b + t * Cx), 1);
  const __m256 zero = _mm256_setzero_ps();
  const __m256 half = _mm256_set1_ps(0.5f), minusHalf = _mm256_set1_ps(-0.5f);
  __m256 temp[4][3];
  for (int p = 0; p < 3; ++p) {
    const __m256 x0 = g[p], x1 = g[3 + p], x2 = g[6 + p];
    const __m256 h0 = _mm256_mul_ps(half, x0), h2 = _mm256_mul_ps(half, x2);
    temp[0][p] = _mm256_add_ps(zero, x0);
    temp[1][p] = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(zero, h0), _mm256_mul_ps(half, x1)), h2);
    temp[2][p] =
        _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(zero, h0), _mm256_mul_ps(minusHalf, x1)), h2);
    temp[3][p] = _mm256_add_ps(zero, x2);
  }
  for (int i = 0; i < 4; ++i) {
    const __m256 t0 = temp[i][0], t1 = temp[i][1], t2 = temp[i][2];
    const __m256 h0 = _mm256_mul_ps(t0, half), h2 = _mm256_mul_ps(t2, half);
    const __m256 o[4] = {
        _mm256_add_ps(zero, t0),
        _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(zero, h0), _mm256_mul_ps(t1, half)), h2),
        _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(zero, h0), _mm256_mul_ps(t1, minusHalf)), h2),
        _mm256_add_ps(zero, t2)};
    for (int j = 0; j < 4; ++j) {
      _mm_storeu_ps(outA + (i * 4 + j) * 4, _mm256_castps256_ps128(o[j]));
      _mm_storeu_ps(outB + (i * 4 + j) * 4, _mm256_extractf128_ps(o[j], 1));
    }
  }
}
const bool kHasAvx = __builtin_cpu_supports("avx");
#endif

/// Whether every value is finite (no infinity, no NaN).
bool allFinite(const float *v, int64_t n) {
  uint32_t special = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits;
    std::memcpy(&bits, v + i, 4);
    special |= static_cast<uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
  }
  return special == 0;
}

#if !(defined(__SSE2__) || defined(_M_X64))
inline void transform4(const float *planes, int64_t Cx, float *out) {
  for (int64_t ci = 0; ci < 4; ++ci) {
    float g[3][3], t[4][4];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        g[i][j] = planes[(i * 3 + j) * Cx + ci];
    transform(g, t);
    for (int r = 0; r < 4; ++r)
      for (int s = 0; s < 4; ++s)
        out[(r * 4 + s) * 4 + ci] = t[r][s];
  }
}
#endif

} // namespace

void dlaformat::nvdla::detail::packWinogradStream(const WeightLayoutImpl &impl, const char *src,
                                                  int64_t srcBytes, char *dst,
                                                  Fp16Rounding rounding) {
  const WeightShape &shape = impl.params.shape;
  const Precision precision = impl.params.precision;
  const int64_t K = shape.kernels, C = shape.channels, R = shape.height, S = shape.width;
  const int64_t stride = impl.params.strideX;
  const int64_t Cp = impl.winogradPaddedChannels;
  const int64_t Cx = impl.winogradChannels;
  const int64_t kpg = impl.kernelsPerGroup;
  const int64_t eb = impl.elementBytes;

  // Per kernel group: its planes, then for each 4-channel block the fp32
  // cubes of all its kernels (contiguous in the stream), converted at once.
  // Groups are independent and each writes its own contiguous part of the
  // stream, so one large constant splits across threads by groups.
  const int64_t groups = (K + kpg - 1) / kpg;
  const int64_t groupBytes = std::max<int64_t>(1, kpg * Cx * 16 * eb);
  parallelRanges(
      groups, (kWinogradBytesPerThread + groupBytes - 1) / groupBytes, [&](int64_t g0, int64_t g1) {
        std::vector<float> kernelFloats(static_cast<size_t>(srcBytes == 4 ? 0 : C * R * S));
        std::vector<float> planes(static_cast<size_t>(std::min(kpg, K) * 9 * Cx));
        std::vector<float> cubes(static_cast<size_t>(kpg * 64));
        char *out = dst + g0 * kpg * Cx * 16 * eb;
        for (int64_t k0 = g0 * kpg; k0 < std::min(K, g1 * kpg); k0 += kpg) {
          const int64_t kn = std::min(kpg, K - k0);
          loadGroup(src, srcBytes, precision, k0, kn, C, R, S, stride, Cp, Cx, kernelFloats,
                    planes.data());
          // fp32 sources may overflow in the sums: only narrow ones take the
          // shortened transform, and only when finite.
          const bool finite = srcBytes < 4 && allFinite(planes.data(), kn * 9 * Cx);
          for (int64_t cb = 0; cb < Cx; cb += 4) {
            int64_t k = 0;
#ifdef DLA_WINOGRAD_AVX
            if (kHasAvx)
              for (; k + 2 <= kn; k += 2)
                (finite ? transform4x2Finite : transform4x2)(
                    planes.data() + k * 9 * Cx + cb, planes.data() + (k + 1) * 9 * Cx + cb, Cx,
                    cubes.data() + k * 64, cubes.data() + (k + 1) * 64);
#endif
            for (; k < kn; ++k)
              transform4(planes.data() + k * 9 * Cx + cb, Cx, cubes.data() + k * 64);
            const int64_t n = kn * 64;
            if (precision == Precision::Fp16) {
              convertFp32ToFp16(cubes.data(), reinterpret_cast<uint16_t *>(out), n, rounding);
            } else {
              for (int64_t e = 0; e < n; ++e)
                storeElement(out + e * eb, cubes[static_cast<size_t>(e)], precision, rounding,
                             impl.params.scale);
            }
            out += n * eb;
          }
        }
      });
}

std::string dlaformat::nvdla::whyWinogradTapsInexact(const int64_t *q, const WeightShape &shape,
                                                    int64_t stride, Precision precision) {
  const int64_t hi = precision == Precision::Int8 ? 127 : 32767, lo = -hi - 1;
  const int64_t K = shape.kernels, C = shape.channels, R = shape.height, S = shape.width;
  const auto &g2 = kTwiceG.at;
  for (int64_t k = 0; k < K; ++k)
    for (int64_t c = 0; c < C; ++c)
      for (int64_t dy = 0; dy < stride; ++dy)
        for (int64_t dx = 0; dx < stride; ++dx) {
          int64_t g[3][3], t[4][3];
          for (int64_t i = 0; i < 3; ++i)
            for (int64_t j = 0; j < 3; ++j) {
              const int64_t r = i * stride + dy, s = j * stride + dx;
              g[i][j] = r < R && s < S ? q[((k * C + c) * R + r) * S + s] : 0;
            }
          for (int m = 0; m < 4; ++m)
            for (int j = 0; j < 3; ++j)
              t[m][j] = g2[m][0] * g[0][j] + g2[m][1] * g[1][j] + g2[m][2] * g[2][j];
          for (int m = 0; m < 4; ++m)
            for (int n = 0; n < 4; ++n) {
              const int64_t v = t[m][0] * g2[n][0] + t[m][1] * g2[n][1] + t[m][2] * g2[n][2];
              if (v % 4 == 0 && v / 4 >= lo && v / 4 <= hi)
                continue;
              // v / 4 in decimal (quarters: .25, .5, .75).
              const int64_t a = v < 0 ? -v : v;
              static const char *const frac[] = {"", ".25", ".5", ".75"};
              const std::string where = "kernel " + std::to_string(k) + ", channel " +
                                        std::to_string(c) + ": a tap of G q G^T, " +
                                        (v < 0 ? "-" : "") + std::to_string(a / 4) +
                                        frac[a % 4];
              return v % 4 != 0 ? where + ", is not an integer (it would round again)"
                                : where + ", is beyond " + std::string(enumName(precision)) +
                                      " (it would saturate)";
            }
        }
  return "";
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
  // (An fp32 source: fp16 weights, or integer ones with a scale.)
  const bool fp32 = kind == SourceKind::Fp32ToFp16TE || kind == SourceKind::Fp32ToFp16TA;
  packWinogradStream(impl, src, fp32 ? 4 : impl.elementBytes, dst, rounding);
}
} // namespace

const WeightFormatOps dlaformat::nvdla::detail::kWinogradWeightOps = {
    /*imageParams=*/false, /*usesStride=*/true,
    /*notInvertible=*/"each stored value mixes nine weights", checkWinogradOptions, planWinograd,
    /*program=*/nullptr, packWinograd};
