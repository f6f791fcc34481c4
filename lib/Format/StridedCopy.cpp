//===- StridedCopy.cpp - Pack / unpack through a strided view ------------===//

#include "dla/Format/StridedCopy.h"
#include "dla/Format/CheckedMath.h"

#include "StridedCopyImpl.h"

#include <algorithm>
#include <cstring>
#include <optional>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

using namespace dlaformat;
using dlaformat::detail::advanceViewOdometer;

int64_t dlaformat::getViewElementOffset(const StridedView &view, const int64_t *index) {
  int64_t offset = view.offset;
  for (const StridedView::Dim &d : view.dims)
    offset += ((index[d.logicalDim] / d.weight) % d.extent) * d.stride;
  return offset;
}

bool dlaformat::isDenseView(const StridedView &view) {
  int64_t expected = 1;
  for (auto it = view.dims.rbegin(); it != view.dims.rend(); ++it) {
    if (it->extent != 1 && it->stride != expected)
      return false;
    expected *= it->extent;
  }
  return true;
}

namespace {

/// Copies `n` bytes inline for short runs (overlapping fixed-size moves, no
/// libc call: chunked layouts move millions of 32-byte runs), memcpy beyond.
inline void copyBytes(char *dst, const char *src, int64_t n) {
  if (n > 256) {
    std::memcpy(dst, src, static_cast<size_t>(n));
  } else if (n >= 16) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      std::memcpy(dst + i, src + i, 16);
    if (i < n)
      std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (int64_t i = 0; i < n; ++i)
      dst[i] = src[i];
  }
}

/// Moves `count` elements of width W between a strided and a strided place.
template <int64_t W>
inline void moveRun(const char *src, int64_t srcStep, char *dst, int64_t dstStep,
                    int64_t count) {
  if (srcStep == 1 && dstStep == 1) {
    copyBytes(dst, src, count * W);
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
/// [validCount, extent) of the run are padding. The odometer turns over all
/// but the two innermost view dimensions; the second innermost is a plain
/// loop, so the per-run cost is a few additions.
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
  const std::vector<int64_t> logicalStride = detail::rowMajorStrides(shape);

  const StridedView::Dim &inner = view.dims[nd - 1];
  // The second innermost dimension (a unit one when there is none).
  const StridedView::Dim second = nd >= 2 ? view.dims[nd - 2] : StridedView::Dim{1, 0, 0, 1};
  const int64_t secondLogicalStep = second.weight * logicalStride[second.logicalDim];
  const bool sameDim = second.logicalDim == inner.logicalDim;
  const size_t outerCount = nd >= 2 ? nd - 2 : 0;
  std::vector<int64_t> digit(outerCount, 0);
  std::vector<int64_t> index(rank, 0);
  int64_t storageBase = view.offset;
  int64_t logicalBase = 0;
  for (;;) {
    // Validity of every logical dimension but the second's, which varies
    // along the inner loop.
    bool valid = true;
    for (size_t d = 0; d < rank; ++d)
      if (d != static_cast<size_t>(second.logicalDim))
        valid &= index[d] < shape[d];
    const int64_t innerLeft = shape[inner.logicalDim] - index[inner.logicalDim];
    const int64_t fullCount =
        std::min(inner.extent, (innerLeft + inner.weight - 1) / inner.weight);
    int64_t secondIndex = index[second.logicalDim];
    const int64_t secondShape = shape[second.logicalDim];
    int64_t s = storageBase, l = logicalBase;
    for (int64_t j = 0; j < second.extent;
         ++j, secondIndex += second.weight, s += second.stride, l += secondLogicalStep) {
      int64_t count = 0;
      if (valid && secondIndex < secondShape) {
        count = fullCount;
        if (sameDim) {
          const int64_t left = secondShape - secondIndex;
          count = std::min(inner.extent, (left + inner.weight - 1) / inner.weight);
        }
      }
      run(s, count ? l : 0, count);
    }

    if (!advanceViewOdometer(view.dims.data(), outerCount, logicalStride, digit, index,
                             logicalBase, storageBase))
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

/// Whether the two innermost view dimensions transpose a tile: the
/// innermost (a positions, stride 1, weight 1) is a digit of a logical
/// dimension p other than the last, the next (b positions, stride a, weight
/// 1) a digit of the last logical dimension. HTP conv_weight is one (4 input
/// channels x 32 output channels): each tile is a rows x b block read from
/// `a` source rows of b contiguous elements and written as b groups of a.
bool isTileTranspose(const StridedView &view, const std::vector<int64_t> &shape) {
  const size_t nd = view.dims.size();
  if (nd < 2 || shape.empty())
    return false;
  const StridedView::Dim &inner = view.dims[nd - 1], &second = view.dims[nd - 2];
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  return inner.stride == 1 && inner.weight == 1 && inner.logicalDim != last &&
         inner.extent <= 16 && second.stride == inner.extent && second.weight == 1 &&
         second.logicalDim == last;
}

#if defined(__SSE2__) || defined(_M_X64)
/// 4 source rows (`rs` bytes apart) of 8 16-bit / 16 8-bit columns, written
/// column after column, 4 elements each (64 bytes).
template <int64_t W, bool Stream = false>
inline void transpose4Rows(const char *s, int64_t rs, char *d) {
  const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
  const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + rs));
  const __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 2 * rs));
  const __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 3 * rs));
  __m128i o0, o1, o2, o3;
  if constexpr (W == 2) {
    const __m128i t0 = _mm_unpacklo_epi16(r0, r1), t1 = _mm_unpackhi_epi16(r0, r1);
    const __m128i t2 = _mm_unpacklo_epi16(r2, r3), t3 = _mm_unpackhi_epi16(r2, r3);
    o0 = _mm_unpacklo_epi32(t0, t2);
    o1 = _mm_unpackhi_epi32(t0, t2);
    o2 = _mm_unpacklo_epi32(t1, t3);
    o3 = _mm_unpackhi_epi32(t1, t3);
  } else {
    const __m128i t0 = _mm_unpacklo_epi8(r0, r1), t1 = _mm_unpackhi_epi8(r0, r1);
    const __m128i t2 = _mm_unpacklo_epi8(r2, r3), t3 = _mm_unpackhi_epi8(r2, r3);
    o0 = _mm_unpacklo_epi16(t0, t2);
    o1 = _mm_unpackhi_epi16(t0, t2);
    o2 = _mm_unpacklo_epi16(t1, t3);
    o3 = _mm_unpackhi_epi16(t1, t3);
  }
  if constexpr (Stream) {
    // `d` is 16-byte aligned; whole cache lines, so no read for ownership.
    _mm_stream_si128(reinterpret_cast<__m128i *>(d), o0);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 16), o1);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 32), o2);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 48), o3);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d), o0);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 16), o1);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 32), o2);
    _mm_storeu_si128(reinterpret_cast<__m128i *>(d + 48), o3);
  }
}
#endif

/// One tile, rows x cols of the a x b tile valid, the rest zero.
/// (Zeroed whole first: a tile past the logical shape, e.g. the last
/// in-channel block of 1000 channels, is one memset, not one per element.)
template <int64_t W>
inline void packTileSlow(const char *src, int64_t rowStep, char *dst, int64_t a, int64_t b,
                         int64_t rows, int64_t cols, int64_t width) {
  if (rows < a || cols < b)
    std::memset(dst, 0, static_cast<size_t>(a * b * width));
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      std::memcpy(dst + (j * a + i) * width, src + (i * rowStep + j) * width, W > 0 ? W : width);
}

/// Outputs at least this large are written with non-temporal stores.
constexpr int64_t kTileStreamingBytes = int64_t(4) << 20;

/// Packs a tile-transpose layout (isTileTranspose): an odometer over all but
/// the two innermost view dimensions, one tile per position; tiles cut by
/// the logical shape are padded with zeros, so every storage byte the view
/// covers is written.
///
/// Loop order: storage order (the innermost outer dimension a tight loop),
/// except that when the outermost view dimension
/// is a digit of the last logical dimension q (conv_weight's output-channel
/// blocks) and the next one is not, those two swap. In storage order each
/// tile reads its rows from pages that no nearby tile touches again (one TLB
/// and cache miss per source line, and for 8-bit data half of every line is
/// only used a whole sweep later); swapped, consecutive passes of the
/// q-digit read the neighbouring bytes of the same source rows, which the
/// loop prefetches one pass ahead. Writes stay contiguous per pass, and
/// large outputs are written with non-temporal stores (whole lines).
template <int64_t W>
void tilePackImpl(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *logical, char *storage) {
  const size_t rank = shape.size(), nd = view.dims.size();
  const StridedView::Dim &inner = view.dims[nd - 1], &second = view.dims[nd - 2];
  const int64_t a = inner.extent, b = second.extent;
  const int64_t p = inner.logicalDim, q = static_cast<int64_t>(rank) - 1;
  const std::vector<int64_t> logicalStride = detail::rowMajorStrides(shape);
  const int64_t rowStep = logicalStride[p]; // elements between source rows
  for (const StridedView::Dim &d : view.dims)
    if (d.extent == 0)
      return;
  // The outer view dimensions in loop order; the last one is the tight
  // inner loop. A unit dimension stands in when there is none.
  std::vector<StridedView::Dim> outer(view.dims.begin(), view.dims.end() - 2);
  if (outer.empty())
    outer.push_back({1, 0, 0, 1});
  int64_t prefetchStep = 0; // bytes from a tile's rows to those of the next pass
  if (outer.size() >= 3 && outer[0].logicalDim == q && outer[1].logicalDim != q) {
    std::swap(outer[0], outer[1]);
    prefetchStep = outer[1].weight * width;
  }
  const size_t n = outer.size();
  const StridedView::Dim loop = outer[n - 1];
  const int64_t loopLogical = loop.weight * logicalStride[loop.logicalDim];
  const int64_t sourceBytes = logicalStride[0] * shape[0] * width;
  int64_t covered = 1;
  for (const StridedView::Dim &d : view.dims)
    covered *= d.extent; // the storage size: cannot overflow
#if defined(__SSE2__) || defined(_M_X64)
  const bool stream = covered * width >= kTileStreamingBytes &&
                      reinterpret_cast<uintptr_t>(storage + view.offset * width) % 16 == 0;
#endif
  std::vector<int64_t> digit(n, 0), index(rank, 0);
  int64_t storageBase = view.offset, logicalBase = 0;
  for (;;) {
    // Tiles along `loop`: all that is fixed over the loop first.
    bool validOthers = true;
    for (size_t d = 0; d < rank; ++d)
      if (static_cast<int64_t>(d) != loop.logicalDim)
        validOthers &= index[d] < shape[d];
    int64_t x = index[loop.logicalDim];
    const int64_t xEnd = shape[loop.logicalDim];
    const int64_t rowsFixed = std::min(a, shape[p] - index[p]);
    const int64_t colsFixed = std::min(b, shape[q] - index[q]);
    char *dst = storage + storageBase * width;
    const char *src = logical + logicalBase * width;
    for (int64_t e = 0; e < loop.extent;
         ++e, x += loop.weight, dst += loop.stride * width, src += loopLogical * width) {
      const bool valid = validOthers && x < xEnd;
      const int64_t rows = !valid ? 0 : loop.logicalDim == p ? std::min(a, xEnd - x) : rowsFixed;
      const int64_t cols = !valid ? 0 : loop.logicalDim == q ? std::min(b, xEnd - x) : colsFixed;
      if (prefetchStep)
        for (int64_t i = 0; i < rows; ++i) {
          // The next pass's bytes of these rows (within the source).
          const int64_t at = (src - logical) + i * rowStep * width + prefetchStep;
          if (at + prefetchStep <= sourceBytes) {
            __builtin_prefetch(logical + at);
            __builtin_prefetch(logical + at + prefetchStep - 1);
          }
        }
#if defined(__SSE2__) || defined(_M_X64)
      if constexpr (W == 1 || W == 2) {
        constexpr int64_t lanes = 16 / W;
        if (a == 4 && rows == 4 && cols == b && b % lanes == 0) {
          if (stream)
            for (int64_t j = 0; j < b; j += lanes)
              transpose4Rows<W, true>(src + j * W, rowStep * W, dst + j * 4 * W);
          else
            for (int64_t j = 0; j < b; j += lanes)
              transpose4Rows<W>(src + j * W, rowStep * W, dst + j * 4 * W);
          continue;
        }
        if (a == 4 && rows == 4) {
          int64_t j = 0;
          for (; j + lanes <= cols; j += lanes)
            transpose4Rows<W>(src + j * W, rowStep * W, dst + j * 4 * W);
          packTileSlow<W>(src + j * W, rowStep, dst + j * 4 * W, a, b - j, rows, cols - j, width);
          continue;
        }
      }
#endif
      packTileSlow<W>(src, rowStep, dst, a, b, rows, cols, width);
    }

    if (!advanceViewOdometer(outer.data(), n - 1, logicalStride, digit, index, logicalBase,
                             storageBase))
      break;
  }
#if defined(__SSE2__) || defined(_M_X64)
  if (stream)
    _mm_sfence();
#endif
}

template <int64_t W> struct TilePackOp {
  static void run(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                  const char *logical, char *storage) {
    tilePackImpl<W>(view, shape, width, logical, storage);
  }
};

/// A storage offset is a sum of one term per logical dimension (every view
/// dimension is a digit of one logical dimension), so a table per logical
/// dimension gives any element's offset in rank - 1 additions. Splitting the
/// last dimension's table into runs of consecutive offsets gives the copy
/// plan of one logical row.
struct RowPlan {
  std::vector<std::vector<int64_t>> terms; ///< terms[d][i]: offset term of index i of dim d
  struct Run {
    int64_t first, count, offset; ///< elements [first, first + count) of a row -> offset
  };
  std::vector<Run> runs;
};

RowPlan planRows(const StridedView &view, const std::vector<int64_t> &shape) {
  RowPlan plan;
  plan.terms.resize(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    std::vector<int64_t> &t = plan.terms[d];
    t.assign(static_cast<size_t>(shape[d]), 0);
    for (const StridedView::Dim &v : view.dims)
      if (v.logicalDim == static_cast<int64_t>(d))
        for (int64_t i = 0; i < shape[d]; ++i)
          t[static_cast<size_t>(i)] += ((i / v.weight) % v.extent) * v.stride;
  }
  const std::vector<int64_t> &last = plan.terms.back();
  for (int64_t i = 0; i < static_cast<int64_t>(last.size()); ++i) {
    if (!plan.runs.empty()) {
      RowPlan::Run &r = plan.runs.back();
      if (r.first + r.count == i && r.offset + r.count == last[static_cast<size_t>(i)]) {
        ++r.count;
        continue;
      }
    }
    plan.runs.push_back({i, 1, last[static_cast<size_t>(i)]});
  }
  return plan;
}

/// Reads the logical tensor row by row, sequentially, and writes each row's
/// runs (crouton / depth32: 32 channels each) where the plan puts them.
/// RunBytes > 0: every run has that many bytes (a fixed-size copy). The
/// second-to-last dimension is a tight loop over its offset table, the
/// odometer turns only once per pass of it.
template <int64_t W, int64_t RunBytes = 0>
void rowPackImpl(const StridedView &view, const RowPlan &plan, const std::vector<int64_t> &shape,
                 int64_t width, const char *logical, char *storage) {
  const size_t rank = shape.size();
  const int64_t rowBytes = shape.back() * width;
  for (int64_t e : shape)
    if (e == 0)
      return;
  const RowPlan::Run *runs = plan.runs.data();
  const size_t numRuns = plan.runs.size();
  // RunBytes > 0: every run but the last has RunBytes bytes (the last one at
  // most: 60 channels are 32 + 28).
  const RowPlan::Run &lastRun = plan.runs.back();
  const bool lastFull = lastRun.count * width == RunBytes;
  auto copyRow = [&](const char *row, char *dst) {
    if constexpr (RunBytes > 0) {
      for (size_t k = 0; k + 1 < numRuns; ++k)
        std::memcpy(dst + runs[k].offset * W, row + runs[k].first * W, RunBytes);
      if (lastFull)
        std::memcpy(dst + lastRun.offset * W, row + lastRun.first * W, RunBytes);
      else
        copyBytes(dst + lastRun.offset * W, row + lastRun.first * W, lastRun.count * W);
    } else {
      for (size_t k = 0; k < numRuns; ++k)
        copyBytes(dst + runs[k].offset * width, row + runs[k].first * width,
                  runs[k].count * width);
    }
  };
  if (rank == 1) {
    copyRow(logical, storage + view.offset * width);
    return;
  }
  const size_t inner = rank - 2;
  const int64_t *innerTerm = plan.terms[inner].data();
  const int64_t innerCount = shape[inner];
  std::vector<int64_t> index(inner, 0);
  int64_t base = view.offset;
  for (size_t d = 0; d < inner; ++d)
    base += plan.terms[d][0];
  const char *row = logical;
  for (;;) {
    for (int64_t i = 0; i < innerCount; ++i, row += rowBytes)
      copyRow(row, storage + (base + innerTerm[i]) * width);
    size_t d = inner;
    for (; d-- > 0;) {
      const std::vector<int64_t> &t = plan.terms[d];
      base -= t[static_cast<size_t>(index[d])];
      if (++index[d] < shape[d]) {
        base += t[static_cast<size_t>(index[d])];
        break;
      }
      index[d] = 0;
      base += t[0];
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

void dlaformat::packStridedView(const StridedView &fullView, const std::vector<int64_t> &shape,
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
  if (dense && detail::copyRunBlocks(view, shape, elementBytes, logical, storage, /*pack=*/true))
    return;
  if (dense && isTileTranspose(view, shape)) {
    dispatchWidth<TilePackOp>(elementBytes, view, shape, elementBytes, logical, storage);
    return;
  }
  if (!shape.empty() && !view.dims.empty()) {
    // Row by row when a row moves in runs of 16 bytes or more on average:
    // sequential reads, no per-run odometer. Padding and gaps are zeroed
    // first (one memset) unless the view covers the data exactly.
    RowPlan plan = planRows(view, shape);
    int64_t numElements = 1;
    for (int64_t e : shape)
      numElements *= e;
    if (!plan.runs.empty() &&
        shape.back() * elementBytes >= 16 * static_cast<int64_t>(plan.runs.size())) {
      if (!(dense && numElements == storageElements))
        std::memset(storage, 0, static_cast<size_t>(storageElements * elementBytes));
      // Runs of 32 / 64 bytes, the last one possibly shorter.
      bool all32 = true, all64 = true;
      for (size_t k = 0; k < plan.runs.size(); ++k) {
        const int64_t bytes = plan.runs[k].count * elementBytes;
        const bool last = k + 1 == plan.runs.size();
        all32 &= last ? bytes <= 32 : bytes == 32;
        all64 &= last ? bytes <= 64 : bytes == 64;
      }
      switch (elementBytes) {
      case 1:
        if (all32)
          return rowPackImpl<1, 32>(view, plan, shape, 1, logical, storage);
        return rowPackImpl<1>(view, plan, shape, 1, logical, storage);
      case 2:
        if (all64)
          return rowPackImpl<2, 64>(view, plan, shape, 2, logical, storage);
        if (all32)
          return rowPackImpl<2, 32>(view, plan, shape, 2, logical, storage);
        return rowPackImpl<2>(view, plan, shape, 2, logical, storage);
      default:
        rowPackImpl<0>(view, plan, shape, elementBytes, logical, storage);
        return;
      }
    }
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

void dlaformat::unpackStridedView(const StridedView &fullView,
                                    const std::vector<int64_t> &shape, int64_t elementBytes,
                                    const char *storage, char *logical) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return; // no logical elements to read
  const StridedView view = dropUnitDims(fullView);
  if (view.dims.empty()) {
    std::memcpy(logical, storage + view.offset * elementBytes, static_cast<size_t>(elementBytes));
    return;
  }
  if (view.offset == 0 && isDenseView(view) &&
      detail::copyRunBlocks(view, shape, elementBytes, storage, logical, /*pack=*/false))
    return;
  if (std::optional<StridedView::Dim> digit = sourceOrderDigit(view, shape)) {
    dispatchWidth<SourceOrderUnpackOp>(elementBytes, view, shape, elementBytes, storage, logical,
                                       *digit);
    return;
  }
  dispatchWidth<UnpackOp>(elementBytes, view, shape, elementBytes, storage, logical);
}
