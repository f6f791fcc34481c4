//===- StorageDescription.h - The buffers and typed views of a layout -*- C++ -*-===//
//
// What a runtime (or the memref lowering) needs to hold a bound layout: the
// storage buffers (name, size, start alignment) and, inside them, typed views
// with explicit strides. Every format answers it through
// BoundLayout::describeStorage(), built from the same data its pack/unpack
// use, so the memref types, the C API and Python read one description.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_STORAGEDESCRIPTION_H
#define DLA_FORMAT_STORAGEDESCRIPTION_H

#include "dla/Format/StridedView.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dlaformat {

/// One storage buffer: the byte surface a runtime allocates.
struct StorageBuffer {
  std::string name;
  /// Size in bytes; -1 when it depends on the data (compressed weights).
  int64_t bytes = 0;
  /// Required start alignment in bytes.
  int64_t alignment = 1;
};

/// A component stored as a bit field of a storage word (10-bit pixels).
struct BitField {
  /// Logical index along the field dimension (the pixel's channel).
  int64_t channel;
  /// Least significant bit in the little-endian word.
  int64_t bitOffset;
  int64_t bits;
};

/// A typed strided view of part of one buffer.
struct StorageView {
  /// "storage", or the plane / component it covers ("Y", "U", ...).
  std::string name;
  /// Index into StorageDescription::buffers.
  int64_t buffer = 0;
  /// Width of one storage element of this view (strides and offset count
  /// them). Differs from the logical element width for sign-extended data
  /// and bit-packed words.
  int64_t elementBytes = 1;
  /// Extents, strides (in storage elements), logical dimension and weight
  /// of each view dimension, outermost first; `view.offset` is the
  /// buffer offset of position (0, ..., 0) in storage elements.
  StridedView view;
  /// Logical index of view position (0, ..., 0); empty means all zero.
  std::vector<int64_t> logicalBase;
  /// Bit-packed words: every element holds these fields, each one logical
  /// element along `fieldDim` (at logicalBase + channel). Empty otherwise.
  int64_t fieldDim = -1;
  std::vector<BitField> fields;
  /// Whether a narrower logical element is sign-extended (else zero-extended)
  /// into a wider storage element.
  bool signExtend = true;
};

/// The storage of a bound layout.
struct StorageDescription {
  std::vector<StorageBuffer> buffers;
  /// Views covering every logical element once. Empty when the layout is not
  /// a set of strided views (NVDLA weights other than uniform direct ones,
  /// compressed weights): then getByteOffset / pack are the only maps.
  std::vector<StorageView> views;
};

/// Alignment of chunked (HTP) storage: no table gives one; a cache line,
/// like the constant folder's blobs.
inline constexpr int64_t kDefaultStorageAlignment = 64;

} // namespace dlaformat

#endif // DLA_FORMAT_STORAGEDESCRIPTION_H
