//===- Fp16.h - IEEE binary16 <-> binary32 conversion -----------*- C++ -*-===//
//
// Bit-exact conversion between float (binary32) and half (binary16) with the
// rounding chosen by the caller:
//   - TiesToEven: IEEE 754 roundTiesToEven, LLVM APFloat's and arith.truncf's
//     default; the conversion functions' default.
//   - TiesAwayFromZero: round to nearest, ties away from zero; what NVIDIA's
//     NVDLA compiler (nvdla/sw, half.h with its default settings) does to
//     every f32 weight it stores as fp16. kDefaultWeightRounding: the
//     default of NVDLA weights (`#dla.weight` without `rounding`).
// Both modes round subnormal results correctly, overflow to +/-infinity (the
// IEEE result of round-to-nearest: anything at or beyond 65520 in magnitude),
// keep infinities, and turn NaNs into quiet NaNs that keep the sign and the
// top ten payload bits. half -> float is exact.
//
// The scalar conversions are inline so that packers can fuse them into their
// copy loops without a call per element.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_FP16_H
#define DLA_FORMAT_FP16_H

#include "dla/Format/EnumTable.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace dlaformat {

enum class Fp16Rounding {
  TiesToEven,       ///< IEEE roundTiesToEven (the conversions' default)
  TiesAwayFromZero, ///< round to nearest, ties away from zero (nvdla/sw)
  Last = TiesAwayFromZero, ///< the last value: EnumTable.h checks each table's size
};

/// The keywords follow arith's rounding modes (`#dla.weight<..., rounding =
/// to_nearest_away>`); messages use IEEE's names.
inline constexpr EnumEntry<Fp16Rounding> kFp16RoundingNames[] = {
    {Fp16Rounding::TiesToEven, "to_nearest_even", "ties-to-even"},
    {Fp16Rounding::TiesAwayFromZero, "to_nearest_away", "ties-away-from-zero"}};
constexpr const auto &enumEntries(Fp16Rounding) { return kFp16RoundingNames; }
static_assert(isInDeclarationOrder(kFp16RoundingNames, &EnumEntry<Fp16Rounding>::value));

/// The rounding of NVDLA weights stored as fp16 from fp32 values when none is
/// stated (`#dla.weight<..., fp16>`, the weight packers): NVIDIA's compiler's,
/// whose half_float::half(float) (nvdla/sw umd/external/include/half.h,
/// HALF_ROUND_STYLE 1, HALF_ROUND_TIES_TO_EVEN 0) rounds ties away from zero
/// in every weight translation (direct, image, Winograd, deconvolution). The
/// one place this default is written: the dialect, the packers and the tests
/// ask for it.
inline constexpr Fp16Rounding kDefaultWeightRounding = Fp16Rounding::TiesAwayFromZero;

/// fp32 -> fp16 bits.
inline uint16_t fp32ToFp16(float value, Fp16Rounding rounding = Fp16Rounding::TiesToEven) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof(x));
  const uint32_t sign = (x >> 16) & 0x8000u;
  const uint32_t ax = x & 0x7fffffffu;
  const bool away = rounding == Fp16Rounding::TiesAwayFromZero;

  if (ax >= 0x7f800000u) {
    if (ax == 0x7f800000u)
      return static_cast<uint16_t>(sign | 0x7c00u);
    // NaN: quiet it, keep the top ten payload bits.
    return static_cast<uint16_t>(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
  }

  if (ax >= 0x38800000u) { // |value| >= 2^-14: a normal half (or overflow)
    // Rebias the exponent (127 -> 15) in place; the half is the top bits.
    const uint32_t m = ax - 0x38000000u;
    uint32_t h = m >> 13;
    const uint32_t rem = m & 0x1fffu;
    if (away)
      h += rem >= 0x1000u;
    else
      h += (rem > 0x1000u) | ((rem == 0x1000u) & (h & 1u));
    if (h >= 0x7c00u) // rounding carried past the largest finite half
      h = 0x7c00u;
    return static_cast<uint16_t>(sign | h);
  }

  // Subnormal half or zero: the result is round(|value| / 2^-24).
  const uint32_t e = ax >> 23;
  if (e < 102) // |value| < 2^-25 (half the smallest subnormal): rounds to 0
    return static_cast<uint16_t>(sign);
  const uint32_t mant = (ax & 0x7fffffu) | 0x800000u;
  const uint32_t shift = 126 - e; // 14 .. 24
  uint32_t h = mant >> shift;
  const uint32_t rem = mant & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  if (away)
    h += rem >= half;
  else
    h += (rem > half) | ((rem == half) & (h & 1u));
  return static_cast<uint16_t>(sign | h); // a carry to 0x400 is the smallest normal
}

/// fp16 bits -> fp32 (exact).
inline float fp16ToFp32(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exp = (bits >> 10) & 0x1fu;
  uint32_t mant = bits & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    x = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    x = sign;
  } else {
    // Subnormal: normalise.
    uint32_t e = 113;
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    x = sign | (e << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &x, sizeof(f));
  return f;
}

/// Converts `count` floats to fp16 bits; bit-identical to fp32ToFp16 (four
/// lanes at a time with integer SSE2 where available).
void convertFp32ToFp16(const float *src, uint16_t *dst, int64_t count,
                       Fp16Rounding rounding = Fp16Rounding::TiesToEven);
/// Converts `count` fp16 bit patterns to floats.
void convertFp16ToFp32(const uint16_t *src, float *dst, int64_t count);

} // namespace dlaformat

#endif // DLA_FORMAT_FP16_H
