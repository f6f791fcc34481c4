//===- NvdlaAlignment.h - NVDLA alignment requirements ----------*- C++ -*-===//
//
// The "Requirements of alignment" table of the NVDLA in-memory format
// document, as data. Verifiers, packers and the memref lowering read it from
// here and nowhere else. A value of 0 means "no requirement" (NA in the
// document).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAALIGNMENT_H
#define DLA_FORMAT_NVDLAALIGNMENT_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace dlaformat::nvdla {

/// The rows of the alignment table.
enum class AlignedData {
  FeatureData,
  Weight, ///< uncompressed or compressed weight data surface
  WeightMaskBits, ///< WMB surface of compressed weights
  WeightGroupSize, ///< WGS surface of compressed weights
  PitchLinearPixel,
  Bias,
  PReLU,
  BatchNorm,
  ElementWise,
};

struct AlignmentRule {
  AlignedData data;
  std::string_view name;
  int64_t startAddress;
  int64_t lineStride;
  int64_t surfaceStride;
  int64_t planarStride; ///< "planar / cube stride" column
  int64_t dataSize;
};

/// The table, one row per AlignedData in declaration order, as the
/// document has it (for its 32-byte memory atom).
const std::vector<AlignmentRule> &alignmentTable();
const AlignmentRule &getAlignment(AlignedData data);
/// The row for a configuration whose memory atom is `memoryAtomBytes`
/// (MEMORY_ATOMIC_SIZE): the document's 32-byte requirements of feature,
/// pixel and auxiliary data are its memory atom (the C model's DMAs read and
/// write those surfaces in atoms of DLA_ATOM_SIZE), so they become
/// `memoryAtomBytes`; the weight rows (256 / 128 bytes: convolution-buffer
/// entries, not atoms) stay.
AlignmentRule getAlignment(AlignedData data, int64_t memoryAtomBytes);

/// Round `value` up to a multiple of `alignment` (alignment 0 or 1: value).
/// Callers check for overflow with CheckedMath where sizes come from users.
inline int64_t alignUp(int64_t value, int64_t alignment) {
  if (alignment <= 1)
    return value;
  return (value + alignment - 1) / alignment * alignment;
}

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAALIGNMENT_H
