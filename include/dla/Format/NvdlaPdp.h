//===- NvdlaPdp.h - How wide one PDP pass is --------------------*- C++ -*-===//
//
// PDP pools an output width in one pass (split) only as far as its line
// buffer holds the lines that overlap between vertically adjacent windows;
// wider outputs are split by width. The capacity as NVIDIA's compiler
// computes it (umd engine-ast/PDPNode.cpp calculateMaxWidth).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPDP_H
#define DLA_FORMAT_NVDLAPDP_H

#include <cstdint>

namespace dlaformat::nvdla {

/// The widest output one PDP pass takes: a 7 KiB line buffer for ceil(kh /
/// sy) overlapping lines, rounded up to the RTL's 1, 2, 4 or 8, each of one
/// kernel group (`kernelsPerGroup` channels) of 14-bit (one-byte data) or
/// 28-bit partial results.
constexpr int64_t pdpMaxFlyingWidth(int64_t kernelsPerGroup, bool oneByte, int64_t kh,
                                    int64_t sy) {
  constexpr int64_t kBufferBits = 7 * 1024 * 8;
  constexpr int64_t kRtlOverlapLines[9] = {1, 1, 2, 4, 4, 8, 8, 8, 8};
  const int64_t logical = (kh + sy - 1) / sy;
  const int64_t lines = kRtlOverlapLines[logical < 8 ? logical : 8];
  return kBufferBits / (lines * kernelsPerGroup * (oneByte ? 14 : 28));
}

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPDP_H
