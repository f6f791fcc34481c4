//===- NvdlaRegisters.h - Widths of NVDLA's programmable fields -*- C++ -*-===//
//
// The range of every register field the IR states (docs/IntegerAttributes.md
// section 7), from the register manual (nvdla/hw spec/manual/*.rdl): the
// verifiers ask this table, so a width is written once.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAREGISTERS_H
#define DLA_FORMAT_NVDLAREGISTERS_H

#include <cstdint>
#include <string_view>

namespace dlaformat::nvdla {

/// A register field: its name in the manual and the values it holds.
struct RegisterField {
  std::string_view name;
  int64_t lo, hi;
  /// How the manual states the width ("INT16", "U6"), for messages.
  std::string_view why;

  constexpr bool holds(int64_t value) const { return value >= lo && value <= hi; }
};

/// The SDP's output converter (NVDLA_SDP.rdl D_CVT_OFFSET / D_CVT_SCALE /
/// D_CVT_SHIFT; integer pipelines only).
inline constexpr RegisterField kSdpCvtOffset{"D_CVT_OFFSET", -(int64_t(1) << 31),
                                             (int64_t(1) << 31) - 1, "INT32"};
inline constexpr RegisterField kSdpCvtScale{"D_CVT_SCALE", -32768, 32767, "INT16"};
inline constexpr RegisterField kSdpCvtShift{"D_CVT_SHIFT", 0, 63, "U6"};

/// The accumulator's delivery shift (NVDLA_CACC.rdl D_CLIP_CFG: a 5-bit
/// field, "Range: 0~16").
inline constexpr RegisterField kCaccClipTruncate{"CLIP_TRUNCATE", 0, 16,
                                                 "unsigned, range 0~16"};

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAREGISTERS_H
