//===- NvdlaLrn.h - The CDP's integer LRN: tables, converters, error -*- C++ -*-===//
//
// The CDP computes an integer LRN as input converter, square sum, lookup
// table (LE / LO), product with the converted input, output converter
// (docs/IntegerAttributes.md 5.2; utils/dla-ref/int_cdp.py is the numpy
// model). This header holds the registers as plain values, a scalar model
// of the CDP arithmetic, the derivation of tables from alpha / beta / k and
// the measurement of their error. MLIR-free: the register writer uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLALRN_H
#define DLA_FORMAT_NVDLALRN_H

#include "dla/Format/NvdlaPrecision.h"

#include <array>
#include <cstdint>

namespace dlaformat::nvdla {

/// A converter: SAT(RHA((in - offset) * scale, shift)).
struct CvtRegisters {
  int64_t offset = 0, scale = 1, shift = 0;
};

/// One table's out-of-range slope: T[edge] + RHA(d * scale, shift), a
/// negative shift multiplying.
struct LutSlope {
  int64_t scale = 0, shift = 0;
};

/// The LE (65) / LO (257) lookup table registers, as #dla.lut states them.
struct LutProgram {
  static constexpr int kLeEntries = 65, kLoEntries = 257;
  bool leLinear = false;
  std::array<int64_t, kLeEntries> le{};
  std::array<int64_t, kLoEntries> lo{};
  int64_t leStart = 0, leEnd = 0, loStart = 0, loEnd = 0;
  int64_t leIndexOffset = 0; // exponent LE
  int64_t leIndexSelect = 0; // linear LE
  int64_t loIndexSelect = 0;
  LutSlope leUflow, leOflow, loUflow, loOflow;
  /// Which table answers (true: LO) when both underflow, both overflow,
  /// or both hit / one under- and one overflows.
  bool uflowLo = false, oflowLo = false, hybridLo = false;
};

/// A LutProgram as one array of kLutRegisters values (the C API's
/// DLA_NVDLA_LUT_REGISTERS order, include/dla-c/Format.h): le[65], lo[257],
/// le_linear (0 exponent, 1 linear), le_start, le_end, lo_start, lo_end,
/// le_index_offset, le_index_select, lo_index_select, then scale and shift
/// of the LE underflow, LE overflow, LO underflow, LO overflow slopes, then
/// uflow, oflow, hybrid priority (1: LO). How the C API and the CPU
/// execution's runtime hand a program over.
inline constexpr int kLutRegisters = LutProgram::kLeEntries + LutProgram::kLoEntries + 19;
LutProgram lutFromRegisters(const int64_t *registers);
void lutToRegisters(const LutProgram &lut, int64_t *registers);

/// The table that answers (true: LO), the SDP's and the CDP's rule, integer
/// or float: both under -> uflowLo, both over -> oflowLo, exactly one hit ->
/// that one, else (both hit, or one under and the other over) hybridLo.
bool lutChoosesLo(const LutProgram &lut, bool leUnder, bool leOver, bool loUnder, bool loOver);

/// Everything an integer LRN programs besides its window.
struct LrnTables {
  LutProgram lut;
  CvtRegisters in, out;
};

/// Bits of an integer LRN's data: 8 or 16.
int lrnBits(Precision precision);

/// The CDP input converter on one datum: SAT_{bits+1}(RHA((x - off) * scale,
/// shift)), int8 reading the offset's low 8 bits (int_cdp.cdp_icvt).
int64_t cdpInputConvert(int64_t x, const CvtRegisters &in, int bits);
/// The output converter: SAT_bits(RHA((v - off) * scale, shift)), int8
/// reading the offset's low 25 bits (int_cdp.cdp_ocvt).
int64_t cdpOutputConvert(int64_t v, const CvtRegisters &out, int bits);
/// The LUT result (int16) for square sum `s` (int_cdp.cdp_lut).
int64_t cdpLookup(int64_t s, const LutProgram &lut, int bits);

/// Tables and converters for `x (k + alpha / size * S)^-beta`: identity
/// input converter; LO linear from S = 0 (its underflow answers S = 0
/// exactly), LE exponent from S = 0 over the whole square-sum range, LO
/// winning where both hit; entries f(S) 2^E rounded, E the largest that
/// keeps them int16, undone by the output converter. LO's step is the one
/// of smallest error (measured as measureLrnError does, at the largest
/// input each square sum allows).
LrnTables deriveLrnTables(double alpha, double beta, double k, int64_t size,
                          Precision precision);

/// The largest |CDP output - x (k + alpha / size * S)^-beta| (saturated to
/// the output range) in output LSB, with where it occurs: int8 exhaustive
/// over x and every square sum S the other size - 1 channels can add; int16
/// over 2^20 pseudo-random windows (fixed seed).
struct LrnError {
  double error = 0;
  int64_t x = 0, squareSum = 0;
};
LrnError measureLrnError(const LrnTables &tables, double alpha, double beta, double k,
                         int64_t size, Precision precision);

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLALRN_H
