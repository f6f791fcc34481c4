//===- NvdlaPrecision.h - NVDLA data precisions and data sizes --*- C++ -*-===//
//
// The three precisions of the NVDLA pipeline ("Precision Type" in the
// in-memory format document) and the ONE_BYTE / TWO_BYTE data sizes of the
// auxiliary (bias, PReLU, batch-norm, element-wise) formats.
//
// Kept minimal and stable: other headers (the precision-conversion tables,
// every NVDLA layout) include it for these enums only.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPRECISION_H
#define DLA_FORMAT_NVDLAPRECISION_H

#include "dla/Format/EnumTable.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace dlaformat::nvdla {

/// Data precision: int8 (8-bit signed), int16 (16-bit signed), fp16 (IEEE
/// half precision).
enum class Precision { Int8, Int16, Fp16, Last = Fp16 };

/// Bytes of the format document's memory atom: its feature data is split
/// into 1x1x32-byte atom cubes. A configuration's own atom is its
/// MEMORY_ATOMIC_SIZE (NvdlaHardware.h: 32 on nv_full and nv_large, 8 on
/// nv_small). (An atom size, not an alignment: alignments come from
/// NvdlaAlignment.h.)
inline constexpr int64_t kDocumentAtomBytes = 32;

/// Bytes of one element: 1 for int8, 2 for int16 and fp16.
constexpr int64_t getBytesPerElement(Precision p) { return p == Precision::Int8 ? 1 : 2; }

/// Elements (channels) in one atom of `atomBytes`: in the document's 32-byte
/// atom 32 for int8, 16 otherwise (its ElementPerAtom for PROC_PRECISION);
/// in nv_small's 8-byte atom 8 and 4 (the C model's ELEMENT_PER_ATOM_*).
constexpr int64_t getChannelsPerAtom(Precision p, int64_t atomBytes) {
  return atomBytes / getBytesPerElement(p);
}

inline constexpr EnumEntry<Precision> kPrecisionNames[] = {
    {Precision::Int8, "int8"}, {Precision::Int16, "int16"}, {Precision::Fp16, "fp16"}};
constexpr const auto &enumEntries(Precision) { return kPrecisionNames; }
static_assert(isInDeclarationOrder(kPrecisionNames, &EnumEntry<Precision>::value));

/// The DATA_SIZE register of the SDP / CDP read DMAs: bytes per component of
/// auxiliary data.
enum class DataSize { OneByte, TwoByte, Last = TwoByte };

/// BytesPerComponent: 1 for ONE_BYTE, 2 for TWO_BYTE.
constexpr int64_t getDataSizeBytes(DataSize d) { return d == DataSize::OneByte ? 1 : 2; }

inline constexpr EnumEntry<DataSize> kDataSizeNames[] = {{DataSize::OneByte, "one_byte"},
                                                         {DataSize::TwoByte, "two_byte"}};
constexpr const auto &enumEntries(DataSize) { return kDataSizeNames; }
static_assert(isInDeclarationOrder(kDataSizeNames, &EnumEntry<DataSize>::value));

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPRECISION_H
