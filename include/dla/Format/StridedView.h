//===- StridedView.h - A layout seen as a tiled strided array ---*- C++ -*-===//
//
// Many layouts are an "expand then transpose" of the logical tensor: each
// logical dimension is split into digits, the digits are reordered, and the
// result is a plain strided array. A StridedView spells that out, one entry
// per digit, outermost first. The memref lowering turns it into
// `memref<...x..., strided<[...], offset: ...>>`.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_STRIDEDVIEW_H
#define DLA_FORMAT_STRIDEDVIEW_H

#include <cstdint>
#include <vector>

namespace dlaformat {

struct StridedView {
  struct Dim {
    /// Number of positions along this view dimension (padding included).
    int64_t extent;
    /// Distance between neighbouring positions, in storage elements.
    int64_t stride;
    /// The logical dimension this view dimension is a digit of.
    int64_t logicalDim;
    /// Logical index contributed by one step along this dimension:
    /// logical[logicalDim] = sum of position * weight over its digits.
    int64_t weight;
  };
  std::vector<Dim> dims;
  /// Storage offset of view position (0, ..., 0), in elements.
  int64_t offset = 0;
};

} // namespace dlaformat

#endif // DLA_FORMAT_STRIDEDVIEW_H
