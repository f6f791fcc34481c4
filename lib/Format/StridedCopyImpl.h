//===- StridedCopyImpl.h - Pieces shared by the strided copy loops -*- C++ -*-===//
#ifndef DLA_FORMAT_STRIDEDCOPYIMPL_H
#define DLA_FORMAT_STRIDEDCOPYIMPL_H

#include "dla/Format/StridedView.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlaformat::detail {

/// Row-major element strides of `shape` (the logical tensor's layout). The
/// products fit: they are at most the element count, which the bound
/// layout checked.
inline std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

/// One step of the odometer over the view dimensions `dims[0, count)` (the
/// last one turns fastest), keeping the logical index, the row-major element
/// offset and the storage element offset of the position in step. False
/// once every position has been visited.
inline bool advanceViewOdometer(const StridedView::Dim *dims, size_t count,
                                const std::vector<int64_t> &logicalStride,
                                std::vector<int64_t> &digit, std::vector<int64_t> &index,
                                int64_t &logicalBase, int64_t &storageBase) {
  for (size_t k = count; k-- > 0;) {
    const StridedView::Dim &d = dims[k];
    const int64_t step = d.weight * logicalStride[d.logicalDim];
    if (++digit[k] < d.extent) {
      index[d.logicalDim] += d.weight;
      logicalBase += step;
      storageBase += d.stride;
      return true;
    }
    index[d.logicalDim] -= d.weight * (d.extent - 1);
    logicalBase -= step * (d.extent - 1);
    storageBase -= d.stride * (d.extent - 1);
    digit[k] = 0;
  }
  return false;
}

/// Packs (`pack`) or unpacks a view the caller found dense (offset 0, every
/// storage element covered once: isDenseView) whose innermost dimension is a run of at most 64 bytes of
/// the logical tensor's last dimension (weight 1: the channel chunk of
/// crouton, depth32 and the like), walking storage in order a block of runs
/// at a time (StridedBlockCopy.cpp). Returns false, having done nothing, for
/// any other view.
bool copyRunBlocks(const StridedView &view, const std::vector<int64_t> &shape,
                   int64_t elementBytes, const char *from, char *to, bool pack);

} // namespace dlaformat::detail

#endif // DLA_FORMAT_STRIDEDCOPYIMPL_H
