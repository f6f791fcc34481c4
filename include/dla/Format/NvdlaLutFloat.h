//===- NvdlaLutFloat.h - The SDP Y stage's LUT in float mode ----*- C++ -*-===//
//
// At proc precision FP16 (nv_full) the Y stage's lookup table reads its
// registers as float bit patterns and interpolates in fp17
// (docs/NvdlaFp16.md "The Y stage's LUT in float mode"; the numpy model
// utils/dla-ref/lut_float_ref.py, checked against NVIDIA's v1 C model).
// The registers are the integer path's LutProgram (NvdlaLrn.h), read as:
// entries and slope scales fp16 bits (low 16 bits), starts / ends fp32
// bits (low 32 bits), index select / offset signed 8-bit fields; the
// slope shifts are not used. Also here: the sigmoid / tanh programs the
// compiler offloads (lut_float_tables.py's design).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLALUTFLOAT_H
#define DLA_FORMAT_NVDLALUTFLOAT_H

#include "dla/Format/NvdlaLrn.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

/// The LUT on the Y stage's fp32 value `x` (bits): the fp32 bits it hands
/// to the output converter (sdp_lut_float).
uint32_t sdpLookupFloat(uint32_t x, const LutProgram &lut);

/// The LUT on the Y stage's fp32 value `x` (bits), then the output
/// converter (Fp32ToFp16): the fp16 bits an fp16 SDP writes when its Y
/// stage ends in the LUT, whatever came before it (X stages, the Y
/// multiplier / ALU).
uint16_t sdpLookupFloatToFp16(uint32_t x, const LutProgram &lut);

/// The offline fp16 layer of the LUT alone: fp16 input widened
/// (Fp16ToFp32), the LUT, the output converter (Fp32ToFp16); for each of
/// the 65,536 input patterns, the output pattern.
std::vector<uint16_t> sdpLookupFloatFp16Table(const LutProgram &lut);

/// The functions the compiler runs on the float LUT.
enum class FloatLutFunction { Sigmoid, Tanh };

/// Its program: LO linear over [-r, r] (sigmoid r = 8, step 1/16; tanh
/// r = 4, step 1/32), LE linear over [-4r, 4r] (32 steps), entries the
/// function at the nodes (float64, to fp32, to fp16 by Fp32ToFp16), slopes
/// 0, both hit -> LO, both under / over -> LE (its saturated edge entry).
LutProgram floatLutProgram(FloatLutFunction fn);

/// The largest |output - f(x)| of the program's fp16 layer over every
/// finite fp16 input, f in float64, and the input where it occurs.
struct FloatLutError {
  double error = 0, at = 0;
};
FloatLutError measureFloatLutError(FloatLutFunction fn);

/// "sigmoid" / "tanh".
std::optional<FloatLutFunction> parseFloatLutFunction(std::string_view name);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLALUTFLOAT_H
