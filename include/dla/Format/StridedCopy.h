//===- StridedCopy.h - Pack / unpack through a strided view -----*- C++ -*-===//
//
// The copy engine shared by every layout that is a StridedView: it walks the
// view in storage order with an odometer over all but the innermost view
// dimension and moves whole innermost runs with a tight loop specialised on
// the element width. No per-element index decomposition, no virtual calls.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_STRIDEDCOPY_H
#define DLA_FORMAT_STRIDEDCOPY_H

#include "dla/Format/StridedView.h"

#include <cstdint>
#include <vector>

namespace dlaformat {

/// Storage offset in elements of a logical index under `view` (each digit is
/// (index / weight) % extent). The index may lie in the padded region.
int64_t getViewElementOffset(const StridedView &view, const int64_t *index);

/// True when the view covers [offset, offset + product of extents) exactly
/// once with row-major strides, so that no storage byte is a gap.
bool isDenseView(const StridedView &view);

/// Writes storage from row-major logical data. Positions of the view that
/// fall outside `shape` (padding) and bytes outside the view (gaps) are zero.
/// `storageElements` is the storage size in elements of `elementBytes`.
void packStridedView(const StridedView &view, const std::vector<int64_t> &shape,
                     int64_t elementBytes, const char *logical, char *storage,
                     int64_t storageElements);

/// Reads row-major logical data back from storage; the inverse of
/// packStridedView on the logical elements.
void unpackStridedView(const StridedView &view, const std::vector<int64_t> &shape,
                       int64_t elementBytes, const char *storage, char *logical);

} // namespace dlaformat

#endif // DLA_FORMAT_STRIDEDCOPY_H
