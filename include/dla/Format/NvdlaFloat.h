//===- NvdlaFloat.h - NVDLA's float arithmetic (fp32, fp17) -----*- C++ -*-===//
//
// The floating-point arithmetic of NVIDIA's v1 C model (nv_full,
// cmod/hls/include/nvdla_float.h) on bit patterns, as the SDP computes it:
// FpAdd / FpMul at fp32 (<8,23>) and at fp17 (<6,10>: 1 sign, 6 exponent
// bits of bias 31, 10 mantissa bits: the Y stage's LUT arithmetic) and the
// conversions between fp16, fp17 and fp32. Not IEEE: results below the
// normal range are zero, overflow saturates to the largest finite value,
// the adder keeps 2M + 3 bits and no sticky bit (docs/NvdlaFp16.md). The
// numpy model these follow line by line is utils/dla-ref/fp_nvdla.py
// (checked against the C model's own functions).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAFLOAT_H
#define DLA_FORMAT_NVDLAFLOAT_H

#include <cstdint>

namespace dlaformat::nvdla {

/// A float format of the C model's templates: exponent and mantissa bits.
struct FpFormat {
  int exponentBits, mantissaBits;
};
inline constexpr FpFormat kFp32{8, 23};
inline constexpr FpFormat kFp17{6, 10};
inline constexpr FpFormat kFp16{5, 10};

/// FpAdd<E,M>: the smaller addend aligned in a 2M + 3-bit mantissa (M + 2
/// guard bits, no sticky), one round to nearest even; below the normal
/// range zero (signed as the larger operand); overflow saturates; a NaN
/// operand is returned (a's first).
uint32_t fpAdd(uint32_t a, uint32_t b, FpFormat f);
/// FpSub<E,M>: b's sign flipped, then fpAdd.
uint32_t fpSub(uint32_t a, uint32_t b, FpFormat f);
/// FpMul<E,M>: the exact product rounded once (RNE); zero below the normal
/// range, saturating above it; a NaN operand is returned (a's first).
uint32_t fpMul(uint32_t a, uint32_t b, FpFormat f);

namespace detail {
/// fpAdd and fpMul by the C model's steps alone (the functions above take
/// the CPU's IEEE operation where it gives the same bits). For tests.
uint32_t fpAddGeneric(uint32_t a, uint32_t b, FpFormat f);
uint32_t fpMulGeneric(uint32_t a, uint32_t b, FpFormat f);
} // namespace detail

/// Fp16ToFp32: exact; infinity becomes the largest fp32; a NaN keeps its
/// 10-bit payload in the low mantissa bits.
uint32_t nvdlaFp16ToFp32(uint16_t h);
/// Fp32ToFp16 (the SDP's output converter at FP16): RNE with fp16
/// denormals, saturating at 65504, fp32 denormals zero, a NaN keeps its
/// low 10 payload bits.
uint16_t nvdlaFp32ToFp16(uint32_t f);
/// Fp16ToInt16 (nvdla_float.h FpFloatToInt<16,5,10>; the SDP's output
/// after Fp32ToFp16 when an fp16 pipeline writes int16, sdp_c.cpp 41-49):
/// the magnitude rounded half away from zero (IntSignedShiftRight's
/// AC_RND_INF), beyond 32767 saturated by the sign, a NaN -32768.
int16_t nvdlaFp16ToInt16(uint16_t h);
/// Fp16ToFp17: exact; infinity saturates to fp17's largest; NaN kept.
uint32_t fp16ToFp17(uint16_t h);
/// Fp32ToFp17: RNE to 11 bits, no fp17 denormals (zero unless rounding
/// reaches the smallest normal), saturating; a NaN keeps its low 10 bits.
uint32_t fp32ToFp17(uint32_t f);
/// Fp17ToFp32: exact for normal values; infinity saturates; NaN kept.
uint32_t fp17ToFp32(uint32_t a);
/// Fp17ToFp16 (the PDP's average out): RNE with fp16 denormals, saturating
/// at 65504 (also fp17's infinity pattern); a NaN keeps its payload.
uint16_t fp17ToFp16(uint32_t a);
/// FpFractionToFloat<width,6,10>: f / 2^width (f < 2^width) as fp17, RNE to
/// 11 bits; zero where the exponent would reach 0. The SDP's LUT index
/// fraction is 35 bits wide, the CDP's (HLS_uint16_to_fp17) 16.
uint32_t fractionToFp17(uint64_t f, int width);
/// Whether `v` is a NaN of format `f` (exponent all ones, mantissa not 0).
bool fpIsNan(uint32_t v, FpFormat f);
/// FpMax / FpMin<E,M> (FpCmp): positive above negative, then by
/// magnitude, +0 above -0; a NaN operand is returned (a's first).
uint32_t fpMax(uint32_t a, uint32_t b, FpFormat f);
uint32_t fpMin(uint32_t a, uint32_t b, FpFormat f);
/// The same on fp16 bits (FpMax / FpMin<5,10>).
uint16_t fp16Max(uint16_t a, uint16_t b);
uint16_t fp16Min(uint16_t a, uint16_t b);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAFLOAT_H
