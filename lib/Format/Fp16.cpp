//===- Fp16.cpp - IEEE binary16 <-> binary32 conversion ------------------===//

#include "dla/Format/Fp16.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define DLA_FP16_SSE2 1
#endif

using namespace dlaformat;

#ifdef DLA_FP16_SSE2
namespace {

/// Four conversions at once with integer SSE2 operations only (no dependence
/// on the floating-point environment). Lanes whose result is a subnormal half
/// (0 < |x| < 2^-14) are rare in weights; a group holding one is converted by
/// the scalar code. Returns false in that case, having written nothing.
template <Fp16Rounding R> inline bool convert4(const float *src, uint16_t *dst) {
  const __m128i x = _mm_castps_si128(_mm_loadu_ps(src));
  const __m128i sign = _mm_and_si128(_mm_srli_epi32(x, 16), _mm_set1_epi32(0x8000));
  const __m128i ax = _mm_and_si128(x, _mm_set1_epi32(0x7fffffff));
  const __m128i isNormal = _mm_cmpgt_epi32(ax, _mm_set1_epi32(0x387fffff));
  const __m128i isZero = _mm_cmpeq_epi32(ax, _mm_setzero_si128());
  if (_mm_movemask_epi8(_mm_or_si128(isNormal, isZero)) != 0xffff)
    return false;
  // Normal halves (and overflow): rebias, round on the 13 dropped bits.
  const __m128i m = _mm_sub_epi32(ax, _mm_set1_epi32(0x38000000));
  __m128i h = _mm_srli_epi32(m, 13);
  const __m128i rem = _mm_and_si128(m, _mm_set1_epi32(0x1fff));
  __m128i up;
  if (R == Fp16Rounding::TiesAwayFromZero) {
    up = _mm_cmpgt_epi32(rem, _mm_set1_epi32(0x0fff));
  } else {
    const __m128i tie = _mm_cmpeq_epi32(rem, _mm_set1_epi32(0x1000));
    const __m128i odd = _mm_cmpeq_epi32(_mm_and_si128(h, _mm_set1_epi32(1)), _mm_set1_epi32(1));
    up = _mm_or_si128(_mm_cmpgt_epi32(rem, _mm_set1_epi32(0x1000)), _mm_and_si128(tie, odd));
  }
  h = _mm_sub_epi32(h, up); // up is -1 where rounding up
  const __m128i inf = _mm_set1_epi32(0x7c00);
  const __m128i overflow = _mm_cmpgt_epi32(h, inf);
  h = _mm_or_si128(_mm_and_si128(overflow, inf), _mm_andnot_si128(overflow, h));
  // Infinity and NaN.
  const __m128i isSpecial = _mm_cmpgt_epi32(ax, _mm_set1_epi32(0x7f7fffff));
  const __m128i isInf = _mm_cmpeq_epi32(ax, _mm_set1_epi32(0x7f800000));
  const __m128i nan = _mm_or_si128(_mm_set1_epi32(0x7e00),
                                   _mm_and_si128(_mm_srli_epi32(ax, 13), _mm_set1_epi32(0x3ff)));
  const __m128i special = _mm_or_si128(_mm_and_si128(isInf, inf), _mm_andnot_si128(isInf, nan));
  h = _mm_or_si128(_mm_and_si128(isSpecial, special), _mm_andnot_si128(isSpecial, h));
  h = _mm_andnot_si128(isZero, h);
  h = _mm_or_si128(h, sign);
  // Narrow to 16 bits: sign-extend so that the signed saturating pack is exact.
  h = _mm_srai_epi32(_mm_slli_epi32(h, 16), 16);
  _mm_storel_epi64(reinterpret_cast<__m128i *>(dst), _mm_packs_epi32(h, h));
  return true;
}

template <Fp16Rounding R> void convertBulk(const float *src, uint16_t *dst, int64_t count) {
  int64_t i = 0;
  for (; i + 4 <= count; i += 4)
    if (!convert4<R>(src + i, dst + i))
      for (int64_t j = i; j < i + 4; ++j)
        dst[j] = fp32ToFp16(src[j], R);
  for (; i < count; ++i)
    dst[i] = fp32ToFp16(src[i], R);
}

} // namespace
#endif

#if defined(__x86_64__) && defined(__GNUC__)
#define DLA_FP16_F16C
#include <immintrin.h>
namespace {
/// IEEE round-to-nearest-even in hardware, 8 values per instruction; the
/// rounding is given in the instruction, so MXCSR does not matter.
__attribute__((target("avx,f16c"))) void convertF16C(const float *src, uint16_t *dst,
                                                    int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + i), h);
  }
  for (; i < count; ++i)
    dst[i] = fp32ToFp16(src[i], Fp16Rounding::TiesToEven);
}
/// Exact for every input but signalling NaNs, which the instruction quiets:
/// a group of 8 holding any NaN takes the scalar path.
__attribute__((target("avx,f16c"))) void convertF16CToFp32(const uint16_t *src, float *dst,
                                                          int64_t count) {
  int64_t i = 0;
  const __m128i magnitude = _mm_set1_epi16(0x7fff);
  const __m128i inf = _mm_set1_epi16(0x7c00);
  for (; i + 8 <= count; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
    // Signed compare is fine: magnitudes are below 0x8000.
    if (_mm_movemask_epi8(_mm_cmpgt_epi16(_mm_and_si128(h, magnitude), inf))) {
      for (int64_t j = i; j < i + 8; ++j)
        dst[j] = fp16ToFp32(src[j]);
      continue;
    }
    _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
  }
  for (; i < count; ++i)
    dst[i] = fp16ToFp32(src[i]);
}
const bool kHasF16C = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
} // namespace
#endif

void dlaformat::convertFp32ToFp16(const float *src, uint16_t *dst, int64_t count,
                                    Fp16Rounding rounding) {
#ifdef DLA_FP16_F16C
  // Ties away from zero has no hardware mode; it takes the software path.
  if (kHasF16C && rounding == Fp16Rounding::TiesToEven)
    return convertF16C(src, dst, count);
#endif
#ifdef DLA_FP16_SSE2
  if (rounding == Fp16Rounding::TiesAwayFromZero)
    convertBulk<Fp16Rounding::TiesAwayFromZero>(src, dst, count);
  else
    convertBulk<Fp16Rounding::TiesToEven>(src, dst, count);
#else
  if (rounding == Fp16Rounding::TiesAwayFromZero) {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = fp32ToFp16(src[i], Fp16Rounding::TiesAwayFromZero);
  } else {
    for (int64_t i = 0; i < count; ++i)
      dst[i] = fp32ToFp16(src[i], Fp16Rounding::TiesToEven);
  }
#endif
}

void dlaformat::convertFp16ToFp32(const uint16_t *src, float *dst, int64_t count) {
#ifdef DLA_FP16_F16C
  if (kHasF16C)
    return convertF16CToFp32(src, dst, count);
#endif
  for (int64_t i = 0; i < count; ++i)
    dst[i] = fp16ToFp32(src[i]);
}
