//===- BoundLayout.h - A layout applied to one logical shape ----*- C++ -*-===//
//
// The one question every encoding answers: given a logical shape and element
// width, where does each element live in storage? Each format (HTP chunked
// layouts, NVDLA feature data, ...) implements this class once; the dialect's
// layout interface, the constant packer, the memref lowering and the C API
// all ask it, so no offset formula is written twice.
//
// Virtual calls happen per tensor (pack, unpack) or per query, never per
// element on a hot path.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_BOUNDLAYOUT_H
#define DLA_FORMAT_BOUNDLAYOUT_H

#include "dla/Format/Expected.h"
#include "dla/Format/LogicalOrder.h"
#include "dla/Format/StorageDescription.h"
#include "dla/Format/StridedView.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace dlaformat {

/// Where a storage byte belongs.
struct StorageLocation {
  /// True when the byte is padding or a gap introduced by the layout.
  bool isPadding = false;
  /// The logical index of the element holding the byte (empty for padding).
  std::vector<int64_t> index;
  /// Byte within that element (0 for padding).
  int64_t byteInElement = 0;
};

class BoundLayout {
public:
  virtual ~BoundLayout();

  /// The logical shape this layout was bound to.
  const std::vector<int64_t> &getShape() const { return shape; }
  /// Bytes of one logical element as the caller holds it (row-major input).
  int64_t getElementBytes() const { return elementBytes; }
  /// Number of logical elements (product of the shape).
  int64_t getNumElements() const { return numElements; }

  /// Total storage in bytes, padding and gaps included.
  virtual int64_t getStorageBytes() const = 0;

  /// Byte offset in storage of a logical element. Fails when `index` has the
  /// wrong rank or is out of bounds.
  virtual Expected<int64_t> getByteOffset(const std::vector<int64_t> &index) const = 0;

  /// The inverse of getByteOffset: which element (if any) a byte belongs to.
  /// Fails when the offset is outside [0, getStorageBytes()).
  virtual Expected<StorageLocation> locate(int64_t byteOffset) const = 0;

  /// The layout as a strided view, or nullopt when it is not one.
  virtual std::optional<StridedView> getStridedView() const = 0;

  /// Writes the storage image of `logical` (row-major, getElementBytes() per
  /// element, host byte order) into `storage` (getStorageBytes() bytes).
  /// Every byte of `storage` is written: padding and gaps become zero.
  virtual void pack(const char *logical, char *storage) const = 0;

  /// The exact inverse of pack on the logical elements. Every BoundLayout is
  /// invertible: formats whose storage does not determine the logical values
  /// (Winograd) are packed by a ConstantPacker and are not BoundLayouts.
  virtual void unpack(const char *storage, char *logical) const = 0;

  /// The logical dimension order the format reads (LogicalOrder.h).
  virtual LogicalOrder getLogicalOrder() const { return LogicalOrder::Unspecified; }

  /// Start alignment of the storage in bytes (the NVDLA alignment table's
  /// start-address column, or kDefaultStorageAlignment).
  virtual int64_t getStorageAlignment() const { return kDefaultStorageAlignment; }

  /// The storage buffers and typed strided views. Default: one buffer named
  /// "storage" and, when getStridedView() has one, a view of logical-width
  /// elements.
  virtual StorageDescription describeStorage() const;

  /// Bytes of scratch memory pack() / unpack() allocate (counted against
  /// packing limits).
  virtual int64_t getPackScratchBytes() const { return 0; }

protected:
  BoundLayout(std::vector<int64_t> shape, int64_t elementBytes, int64_t numElements)
      : shape(std::move(shape)), elementBytes(elementBytes), numElements(numElements) {}

  /// Checks rank and bounds of a logical index; used by getByteOffset.
  Status checkIndex(const std::vector<int64_t> &index) const;
  /// Checks 0 <= byteOffset < getStorageBytes(); used by locate.
  Status checkByteOffset(int64_t byteOffset) const;

private:
  std::vector<int64_t> shape;
  int64_t elementBytes;
  int64_t numElements;
};

/// Checks a logical shape (all extents >= 0) and element width (> 0), and
/// returns the number of elements, or an error naming the overflow.
Expected<int64_t> checkShape(const std::vector<int64_t> &shape, int64_t elementBytes);

/// Formats a shape as "2x9x20x50" for messages.
std::string formatShape(const std::vector<int64_t> &shape);

} // namespace dlaformat

#endif // DLA_FORMAT_BOUNDLAYOUT_H
