//===- StridedCopy.cpp - Pack / unpack through a strided view ------------===//

#include "dla/Format/StridedCopy.h"
#include "dla/Format/CheckedMath.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace dla::format;

int64_t dla::format::getViewElementOffset(const StridedView &view, const int64_t *index) {
  int64_t offset = view.offset;
  for (const StridedView::Dim &d : view.dims)
    offset += ((index[d.logicalDim] / d.weight) % d.extent) * d.stride;
  return offset;
}

bool dla::format::isDenseView(const StridedView &view) {
  int64_t expected = 1;
  for (auto it = view.dims.rbegin(); it != view.dims.rend(); ++it) {
    if (it->extent != 1 && it->stride != expected)
      return false;
    expected *= it->extent;
  }
  return true;
}

namespace {

/// Moves `count` elements of width W between a strided and a strided place.
template <int64_t W>
inline void moveRun(const char *src, int64_t srcStep, char *dst, int64_t dstStep,
                    int64_t count) {
  if (srcStep == 1 && dstStep == 1) {
    std::memcpy(dst, src, static_cast<size_t>(count * W));
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(dst + i * dstStep * W, src + i * srcStep * W, W);
}

inline void moveRunDynamic(const char *src, int64_t srcStep, char *dst, int64_t dstStep,
                           int64_t count, int64_t width) {
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(dst + i * dstStep * width, src + i * srcStep * width,
                static_cast<size_t>(width));
}

/// Walks every innermost run of `view` over the padded index space and calls
/// `run(storageBase, logicalBase, validCount)` with element offsets; positions
/// [validCount, extent) of the run are padding.
template <typename RunFn>
void forEachRun(const StridedView &view, const std::vector<int64_t> &shape, RunFn run) {
  const size_t rank = shape.size();
  const size_t nd = view.dims.size();
  if (nd == 0) {
    run(view.offset, int64_t(0), int64_t(1));
    return;
  }
  for (const StridedView::Dim &d : view.dims)
    if (d.extent == 0)
      return;
  std::vector<int64_t> logicalStride(rank, 1);
  for (size_t d = rank; d-- > 1;)
    logicalStride[d - 1] = logicalStride[d] * shape[d];

  const StridedView::Dim &inner = view.dims[nd - 1];
  const size_t outerCount = nd - 1;
  std::vector<int64_t> digit(outerCount, 0);
  std::vector<int64_t> index(rank, 0);
  int64_t storageBase = view.offset;
  int64_t logicalBase = 0;
  for (;;) {
    bool valid = true;
    for (size_t d = 0; d < rank; ++d)
      valid &= index[d] < shape[d];
    int64_t count = 0;
    if (valid) {
      int64_t left = shape[inner.logicalDim] - index[inner.logicalDim];
      count = (left + inner.weight - 1) / inner.weight;
      if (count > inner.extent)
        count = inner.extent;
    }
    run(storageBase, valid ? logicalBase : 0, count);

    size_t v = outerCount;
    for (; v-- > 0;) {
      const StridedView::Dim &d = view.dims[v];
      int64_t step = d.weight * logicalStride[d.logicalDim];
      if (++digit[v] < d.extent) {
        index[d.logicalDim] += d.weight;
        logicalBase += step;
        storageBase += d.stride;
        break;
      }
      index[d.logicalDim] -= d.weight * (d.extent - 1);
      logicalBase -= step * (d.extent - 1);
      storageBase -= d.stride * (d.extent - 1);
      digit[v] = 0;
    }
    if (v == static_cast<size_t>(-1))
      return;
  }
}

template <int64_t W>
void packImpl(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
              const char *logical, char *storage, bool dense) {
  const StridedView::Dim &inner = view.dims.back();
  int64_t logicalStep = inner.weight;
  for (size_t d = inner.logicalDim + 1; d < shape.size(); ++d)
    logicalStep *= shape[d];
  forEachRun(view, shape, [&](int64_t storageBase, int64_t logicalBase, int64_t count) {
    char *dst = storage + storageBase * width;
    const char *src = logical + logicalBase * width;
    if constexpr (W > 0)
      moveRun<W>(src, logicalStep, dst, inner.stride, count);
    else
      moveRunDynamic(src, logicalStep, dst, inner.stride, count, width);
    if (dense && count < inner.extent) {
      // Dense storage is written in one pass: padding is zeroed here rather
      // than by a separate memset over the whole image.
      if (inner.stride == 1)
        std::memset(dst + count * width, 0, static_cast<size_t>((inner.extent - count) * width));
      else
        for (int64_t i = count; i < inner.extent; ++i)
          std::memset(dst + i * inner.stride * width, 0, static_cast<size_t>(width));
    }
  });
}

template <int64_t W>
void unpackImpl(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                const char *storage, char *logical) {
  const StridedView::Dim &inner = view.dims.back();
  int64_t logicalStep = inner.weight;
  for (size_t d = inner.logicalDim + 1; d < shape.size(); ++d)
    logicalStep *= shape[d];
  forEachRun(view, shape, [&](int64_t storageBase, int64_t logicalBase, int64_t count) {
    if (count == 0)
      return;
    const char *src = storage + storageBase * width;
    char *dst = logical + logicalBase * width;
    if constexpr (W > 0)
      moveRun<W>(src, inner.stride, dst, logicalStep, count);
    else
      moveRunDynamic(src, inner.stride, dst, logicalStep, count, width);
  });
}

/// Source-order walk for layouts whose storage-order runs are short (e.g.
/// HTP conv_weight: 4 elements per run, read at a stride of a whole row):
/// walks the logical tensor row by row, in blocks of the innermost digit of
/// the last dimension, and moves each block with that digit's storage
/// stride. Reads are contiguous; writes stay within a few cache lines.
template <int64_t W, bool Pack>
void sourceOrderImpl(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                     const char *in, char *out, const StridedView::Dim &digit) {
  const size_t rank = shape.size();
  const int64_t last = shape[rank - 1];
  // A storage offset is a sum of one contribution per logical dimension, so
  // the last dimension's block contributions are computed once, and each
  // row's base once per row.
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> blockOffset;
  for (int64_t block = 0; block < last; block += digit.extent) {
    index[rank - 1] = block;
    blockOffset.push_back(getViewElementOffset(view, index.data()) - view.offset);
  }
  index[rank - 1] = 0;
  int64_t logical = 0;
  for (;;) {
    const int64_t base = getViewElementOffset(view, index.data());
    for (size_t b = 0; b < blockOffset.size(); ++b) {
      const int64_t first = static_cast<int64_t>(b) * digit.extent;
      const int64_t count = std::min(digit.extent, last - first);
      const int64_t storage = base + blockOffset[b];
      const char *src = Pack ? in + (logical + first) * width : in + storage * width;
      char *dst = Pack ? out + storage * width : out + (logical + first) * width;
      if constexpr (W > 0)
        moveRun<W>(src, Pack ? 1 : digit.stride, dst, Pack ? digit.stride : 1, count);
      else
        moveRunDynamic(src, Pack ? 1 : digit.stride, dst, Pack ? digit.stride : 1, count, width);
    }
    logical += last;
    size_t d = rank - 1;
    for (; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

template <int64_t W> struct SourceOrderPackOp {
  static void run(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *logical, char *storage, const StridedView::Dim &digit) {
    sourceOrderImpl<W, true>(view, shape, width, logical, storage, digit);
  }
};
template <int64_t W> struct SourceOrderUnpackOp {
  static void run(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *storage, char *logical, const StridedView::Dim &digit) {
    sourceOrderImpl<W, false>(view, shape, width, storage, logical, digit);
  }
};

/// The innermost digit (weight 1) of the last logical dimension, when walking
/// in source order moves longer runs than walking in storage order.
std::optional<StridedView::Dim> sourceOrderDigit(const StridedView &view,
                                                 const std::vector<int64_t> &shape) {
  if (shape.empty() || view.dims.empty())
    return std::nullopt;
  for (int64_t e : shape)
    if (e == 0)
      return std::nullopt;
  const int64_t lastDim = static_cast<int64_t>(shape.size()) - 1;
  for (const StridedView::Dim &d : view.dims)
    if (d.logicalDim == lastDim && d.weight == 1) {
      const int64_t storageRun = view.dims.back().extent;
      const int64_t sourceRun = std::min(d.extent, shape.back());
      if (storageRun < 16 && sourceRun >= 2 * storageRun)
        return d;
      return std::nullopt;
    }
  return std::nullopt;
}

template <template <int64_t> class Op, typename... Args>
void dispatchWidth(int64_t width, Args &&...args) {
  switch (width) {
  case 1: Op<1>::run(args...); return;
  case 2: Op<2>::run(args...); return;
  case 4: Op<4>::run(args...); return;
  case 8: Op<8>::run(args...); return;
  default: Op<0>::run(args...); return;
  }
}

template <int64_t W> struct PackOp {
  static void run(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *logical, char *storage, bool dense) {
    packImpl<W>(view, shape, width, logical, storage, dense);
  }
};
template <int64_t W> struct UnpackOp {
  static void run(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *storage, char *logical) {
    unpackImpl<W>(view, shape, width, storage, logical);
  }
};

/// The view without extent-1 dimensions: they contribute nothing to any
/// offset, and dropping them keeps the innermost runs long (a layout whose
/// innermost pair has extent 1 would otherwise move one element per run).
StridedView dropUnitDims(const StridedView &view) {
  StridedView out;
  out.offset = view.offset;
  for (const StridedView::Dim &d : view.dims)
    if (d.extent != 1)
      out.dims.push_back(d);
  return out;
}

} // namespace

void dla::format::packStridedView(const StridedView &fullView, const std::vector<int64_t> &shape,
                                  int64_t elementBytes, const char *logical, char *storage,
                                  int64_t storageElements) {
  // No logical elements: storage is all padding. The copy loops would
  // multiply the other (possibly huge) extents for nothing.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) {
    if (storageElements > 0)
      std::memset(storage, 0, static_cast<size_t>(storageElements * elementBytes));
    return;
  }
  const StridedView view = dropUnitDims(fullView);
  bool dense = view.offset == 0 && isDenseView(view);
  if (dense) {
    // Elements the view covers, checked: an empty tensor's other extents
    // may multiply past int64 before its zero extent is reached.
    std::optional<int64_t> covered = 1;
    for (const StridedView::Dim &d : view.dims) {
      if (d.extent == 0) {
        covered = 0;
        break;
      }
      if (covered)
        covered = checkedMul(*covered, d.extent);
    }
    dense = covered && *covered == storageElements;
  }
  std::optional<StridedView::Dim> digit = sourceOrderDigit(view, shape);
  if (!dense || digit)
    std::memset(storage, 0, static_cast<size_t>(storageElements * elementBytes));
  if (digit) {
    dispatchWidth<SourceOrderPackOp>(elementBytes, view, shape, elementBytes, logical, storage,
                                     *digit);
    return;
  }
  if (view.dims.empty()) {
    if (storageElements > 0)
      std::memcpy(storage + view.offset * elementBytes, logical, static_cast<size_t>(elementBytes));
    return;
  }
  dispatchWidth<PackOp>(elementBytes, view, shape, elementBytes, logical, storage, dense);
}

void dla::format::unpackStridedView(const StridedView &fullView,
                                    const std::vector<int64_t> &shape, int64_t elementBytes,
                                    const char *storage, char *logical) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return; // no logical elements to read
  const StridedView view = dropUnitDims(fullView);
  if (view.dims.empty()) {
    std::memcpy(logical, storage + view.offset * elementBytes, static_cast<size_t>(elementBytes));
    return;
  }
  if (std::optional<StridedView::Dim> digit = sourceOrderDigit(view, shape)) {
    dispatchWidth<SourceOrderUnpackOp>(elementBytes, view, shape, elementBytes, storage, logical,
                                       *digit);
    return;
  }
  dispatchWidth<UnpackOp>(elementBytes, view, shape, elementBytes, storage, logical);
}
