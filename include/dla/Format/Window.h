//===- Window.h - Sliding-window extents of conv and pooling ----*- C++ -*-===//
//
// The one home of the window arithmetic of NVDLA's convolution and pooling
// layers: dilated kernel extent, padded input extent and the number of window
// positions (the output size). Every step is checked: op verifiers feed these
// attribute values straight from the IR, so operands near the int64 limits
// must be reported, never wrapped into a plausible small window.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_WINDOW_H
#define DLA_FORMAT_WINDOW_H

#include "dla/Format/CheckedMath.h"

namespace dlaformat {

/// Elements a kernel of `kernel` taps spaced `dilation` apart spans:
/// (kernel - 1) * dilation + 1. Needs kernel >= 1 and dilation >= 1;
/// nullopt on overflow.
inline std::optional<int64_t> dilatedExtent(int64_t kernel, int64_t dilation) {
  std::optional<int64_t> gaps = checkedMul(kernel - 1, dilation);
  return gaps ? checkedAdd(*gaps, 1) : std::nullopt;
}

/// Input extent with padding on both sides: in + before + after (all >= 0);
/// nullopt on overflow.
inline std::optional<int64_t> paddedExtent(int64_t in, int64_t before, int64_t after) {
  std::optional<int64_t> once = checkedAdd(in, before);
  return once ? checkedAdd(*once, after) : std::nullopt;
}

/// Positions of a window of `window` elements stepping by `stride` over
/// `padded` elements: (padded - window) / stride + 1, the output extent.
/// Needs padded >= 0, window >= 1, stride >= 1; nullopt when the window does
/// not fit. Cannot overflow under those preconditions.
inline std::optional<int64_t> windowPositions(int64_t padded, int64_t window, int64_t stride) {
  if (window > padded)
    return std::nullopt;
  return (padded - window) / stride + 1;
}

/// Kernel taps per dimension after Winograd / deconvolution channel
/// extension by `stride`: ceil(kernel / stride), for kernel >= 0, stride >= 1.
inline int64_t strideExtendedExtent(int64_t kernel, int64_t stride) {
  return ceilDiv(kernel, stride);
}

/// Zero padding of a window of `size` (>= 1) elements centred on each
/// position (LRN's channel window, ONNX semantics): (size - 1) / 2 before,
/// the rest after. The padded extent is paddedExtent(in, before, after).
struct CentredPadding {
  int64_t before, after;
};
inline CentredPadding centredWindowPadding(int64_t size) {
  int64_t before = (size - 1) / 2;
  return {before, size - 1 - before};
}

} // namespace dlaformat

#endif // DLA_FORMAT_WINDOW_H
