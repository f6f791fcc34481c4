//===- NvdlaScale.h - Real factors as NVDLA scale / shift pairs -*- C++ -*-===//
//
// NVDLA multiplies by a real factor f as an int16 scale followed by a right
// shift (the SDP X MUL with MUL_SHIFT_VALUE, the SDP / CDMA / CDP converters
// with CVT_SHIFT / CVT_TRUNCATE / DATOUT_SHIFTER; shifts are unsigned 6-bit
// fields, 0..63): f ~ scale * 2^-shift. An int32 bias reaches the SDP X ALU
// as an int16 operand shifted left (ALU_SHIFT_VALUE): b ~ value * 2^shift.
// These helpers choose those register values. Pure C++17, no exceptions:
// every failure is an Error, never an assert.
//
// NVIDIA's rule (nvdla/sw, umd/core/src/compiler/include/priv/LowPrecision.h,
// scaleAndShiftFromScalarImpl2, reached through
// calculateScaleAndShiftFromScalar; per channel through factorizeScalars with
// the shift of the largest factor): numBits = floor(log2|f|) + 1, shift =
// 15 - numBits, scale = trunc(2^shift * |f|), negated for f < 0. So 2^shift
// |f| lies in [2^14, 2^15): the scale keeps 15 significant bits.
// ScaleRounding::Nearest keeps that shift and rounds half away from zero.
//
// Differences from NVIDIA's code, all on its failure paths: numBits comes
// from the exact binary exponent (frexp) instead of a float log ratio
// (floor(log(float f) / log(2)) is one too small at some exact powers of
// two, e.g. 2^-29, 2^-31, 2^-39, 2^-47 with glibc: NVIDIA's scale then
// reaches 32768 and it fails);
// factor 0 gives shift 0 (NVIDIA writes 1, same value); a common shift of 0
// stays common (NVIDIA treats 0 as "none" and recomputes per channel);
// shifts above 63 are an error here as there (NVIDIA only warns above 31).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLASCALE_H
#define DLA_FORMAT_NVDLASCALE_H

#include "dla/Format/Expected.h"

#include <cstdint>
#include <vector>

namespace dlaformat::nvdla {

/// Largest right shift a 6-bit shift field holds.
inline constexpr unsigned kMaxScaleShift = 63;

enum class ScaleRounding {
  Truncate, ///< NVIDIA's compiler: toward zero. Error < 2^-shift.
  Nearest,  ///< Half away from zero. Error <= 2^-(shift+1), except below.
};

/// factor ~ scale * 2^-shift, |factor - scale * 2^-shift| <= errorBound
/// (errorBound = 2^-shift for Truncate, 2^-(shift+1) for Nearest, with the
/// returned shift). Nearest's overflow: a positive scale rounding up to 2^15
/// moves every scale to shift - 1; at shift 0 it is kept at 32767 and the
/// bound is 1 (factor in [32767.5, 32768)).
struct ScaleShift {
  int16_t scale = 0;
  uint8_t shift = 0;
  double errorBound = 0;
};

/// One factor. Errors: NaN or infinite, |factor| >= 2^15 (no unsigned
/// shift makes it an int16), |factor| < 2^-49 but not 0 (needs shift > 63).
Expected<ScaleShift> scaleFromFactor(double factor, ScaleRounding rounding);

/// Per-channel factors sharing one shift (the shift is a per-layer
/// register): the shift of the largest |factor|, each scale rounded at it.
/// errorBound holds for every channel. Errors as scaleFromFactor, plus an
/// empty list.
struct SharedShiftScales {
  std::vector<int16_t> scales;
  uint8_t shift = 0;
  double errorBound = 0;
};
Expected<SharedShiftScales> scalesFromFactors(const std::vector<double> &factors,
                                              ScaleRounding rounding);

/// Factors as the product of two int16 multipliers, each stage with its
/// own shift, for ~28 significant bits where one int16 keeps 15 (the SDP's
/// X1 and X2 MULs, then the output converter):
///   t1 = RHA(v * first[c], firstShift)
///   t2 = RHA(t1 * second[c], secondShift)
///   y  = RHA(t2, fractionBits)             ~ v * factor[c]
/// first[c] * second[c] is the product of two int16s nearest to
/// factor[c] * 2^(firstShift + secondShift + fractionBits), which lies in
/// [2^29, 2^30) for the largest |factor| (found by search: the best of the
/// ~2^15 divisors). t1 and t2 keep fractionBits below the result's unit, so
/// their roundings cost at most 2^-fractionBits. Shifts are shared by all
/// channels (per-layer registers). A negative factor's sign is second[c]'s
/// (|factor| as above). Errors: no factors, a non-finite one, or a largest
/// |factor| outside 2^-62 .. 2^14.
struct TwoStageScales {
  std::vector<int16_t> first, second;
  uint8_t firstShift = 0, secondShift = 0, fractionBits = 0;
};
Expected<TwoStageScales> twoStageScalesFromFactors(const std::vector<double> &factors,
                                                   unsigned fractionBits);

enum class BiasRounding {
  Floor,   ///< NVIDIA's compiler (b >> shift). 0 <= b - value * 2^shift < 2^shift.
  Nearest, ///< Half away from zero. |b - value * 2^shift| <= 2^(shift-1).
};

/// int32 biases as int16 values sharing the smallest left shift that makes
/// every value fit (0..16 for Floor, 0..17 for Nearest). errorBound is
/// 2^shift - 1 (Floor) or 2^(shift-1) (Nearest, 0 at shift 0).
/// NVIDIA (nvdla/sw, engine-ast/BiasOp.cpp, SDPBiasOpNode::scaleBiasToInt16)
/// takes shift = clamp(ceil(log2 max|b|) + 1 - 16, 0, 16), one too small
/// when the largest bias is +2^k (k >= 15): its 2^15 then wraps to -2^15.
struct Int16Bias {
  std::vector<int16_t> values;
  uint8_t shift = 0;
  int64_t errorBound = 0;
};
Int16Bias biasToInt16(const std::vector<int32_t> &bias, BiasRounding rounding);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLASCALE_H
