//===- StridedBlockCopy.cpp - Storage-order copy of channel-run layouts --===//
//
// Chunked layouts whose innermost chunk is a piece of the last (channel)
// dimension (crouton: 8h x 8w x 32d; depth32: 4w x 32d) store runs of at
// most 64 bytes that are contiguous in the logical tensor too. This walks
// storage in order a block of runs at a time (the view dimensions inside
// the run, up to 512 runs, e.g. crouton's 8 x 8): the source offset of each
// run of a block comes from a table built once, the innermost outer
// dimension turns in a plain loop and the odometer once per pass of it, and
// each run is one load and one store (AVX-512 BW / VL: masked for a short
// last channel chunk, which it zero-fills, and for padding runs of edge
// blocks; plain ymm / zmm stores otherwise). No memset of the whole image.
// 0.2 MB int8 images (in cache), crouton / depth32: 1x56x56x64 7.4 / 7.2 us
// -> 4.0 / 4.0 us, 1x55x55x60 9.6 / 9.1 us -> 4.7 / 4.9 us, memcpy 1.8-2.0
// us. The run loop alone is 1.6x memcpy: each source line is read 32 bytes
// at a time, in two blocks.
//===----------------------------------------------------------------------===//

#include "StridedCopyImpl.h"

#include "dla/Format/PackThreads.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DLA_BLOCK_COPY_AVX512 1
#endif

using namespace dlaformat;
using namespace dlaformat::detail;

#ifdef DLA_BLOCK_COPY_AVX512
namespace {

/// Runs per block at most: the tables stay in L1.
constexpr int64_t kMaxBlockRuns = 512;

#define DLA_AVX512BW_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

constexpr __mmask64 firstBytes(int64_t n) {
  return n >= 64 ? ~__mmask64(0) : (__mmask64(1) << n) - 1;
}

/// Storage is written when packing, logical data when unpacking.
template <bool Pack> using StoragePtr = std::conditional_t<Pack, char *, const char *>;
template <bool Pack> using LogicalPtr = std::conditional_t<Pack, const char *, char *>;

/// One run in a register: 32-byte runs in a ymm (plain stores; masked ones
/// are several times slower on Zen 4), others in a zmm.
template <int64_t RunBytes> struct RunOps {
  using Vec = __m512i;
  DLA_AVX512BW_TARGET static Vec zero() { return _mm512_setzero_si512(); }
  /// The first `countMask` bytes at p, zeros after them.
  DLA_AVX512BW_TARGET static Vec load(const char *p, __mmask64 countMask, bool full) {
    return RunBytes == 64 && full ? _mm512_loadu_si512(p) : _mm512_maskz_loadu_epi8(countMask, p);
  }
  DLA_AVX512BW_TARGET static void store(char *p, Vec v, __mmask64 runMask) {
    if constexpr (RunBytes == 64)
      _mm512_storeu_si512(p, v);
    else
      _mm512_mask_storeu_epi8(p, runMask, v);
  }
};
template <> struct RunOps<32> {
  using Vec = __m256i;
  DLA_AVX512BW_TARGET static Vec zero() { return _mm256_setzero_si256(); }
  DLA_AVX512BW_TARGET static Vec load(const char *p, __mmask64 countMask, bool full) {
    return full ? _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p))
                : _mm256_maskz_loadu_epi8(static_cast<__mmask32>(countMask), p);
  }
  DLA_AVX512BW_TARGET static void store(char *p, Vec v, __mmask64) {
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
  }
};

/// Moves one run between storage and logical data: all of it (Whole), or
/// the first `countMask` bytes (packing: zeros after them; a short channel
/// chunk). Masked-off bytes are neither read nor written, and do not fault.
template <bool Pack, int64_t RunBytes, bool Whole>
DLA_AVX512BW_TARGET inline void moveRun(StoragePtr<Pack> storage, LogicalPtr<Pack> logical,
                                        __mmask64 countMask, __mmask64 runMask) {
  using Ops = RunOps<RunBytes>;
  if constexpr (Pack)
    Ops::store(storage, Ops::load(logical, countMask, Whole), runMask);
  else if constexpr (Whole)
    Ops::store(logical, Ops::load(storage, runMask, true), runMask);
  else
    _mm512_mask_storeu_epi8(logical, countMask, _mm512_maskz_loadu_epi8(countMask, storage));
}

/// Moves runs [begin, end) of a block, all data and all Whole or not, four
/// per iteration: 25-30 % faster than one (a 32-byte run takes about a
/// cycle; the loop's own work is then what limits it). Run j's logical bytes
/// are at logical + runOffset[j], its storage bytes at storage + j * runBytes.
template <bool Pack, int64_t RunBytes, bool Whole>
DLA_AVX512BW_TARGET void moveRuns(StoragePtr<Pack> storage, LogicalPtr<Pack> logical,
                                  const int64_t *runOffset, int64_t begin, int64_t end,
                                  int64_t runBytes, __mmask64 countMask, __mmask64 runMask) {
  storage += begin * runBytes;
  int64_t j = begin;
  for (; j + 4 <= end; j += 4, storage += 4 * runBytes)
    for (int u = 0; u < 4; ++u)
      moveRun<Pack, RunBytes, Whole>(storage + u * runBytes, logical + runOffset[j + u],
                                     countMask, runMask);
  for (; j < end; ++j, storage += runBytes)
    moveRun<Pack, RunBytes, Whole>(storage, logical + runOffset[j], countMask, runMask);
}

/// Stores `runs` runs of zeros (padding) at `storage`.
template <int64_t RunBytes>
DLA_AVX512BW_TARGET void zeroRuns(char *storage, int64_t runs, int64_t runBytes) {
  using Ops = RunOps<RunBytes>;
  const __mmask64 runMask = firstBytes(runBytes);
  for (int64_t j = 0; j < runs; ++j, storage += runBytes)
    Ops::store(storage, Ops::zero(), runMask);
}

/// A stretch [begin, end) of runs of a block that are all data.
struct RunSpan {
  int64_t begin, end;
};

/// Moves one block of `runs` runs: the runs of `spans` (in order) are data,
/// the others padding (stored as zeros when packing). Storage order, so the
/// stores are sequential (moving the channel chunks of a run together, the
/// reads in order instead, was 15-50 % slower).
template <bool Pack, int64_t RunBytes>
void moveBlock(StoragePtr<Pack> storage, LogicalPtr<Pack> logical, const int64_t *runOffset,
               const RunSpan *spans, size_t numSpans, int64_t runs, int64_t runBytes,
               int64_t countBytes) {
  int64_t at = 0;
  auto zeroUpTo = [&](int64_t j) {
    if constexpr (Pack)
      if (j > at)
        zeroRuns<RunBytes>(storage + at * runBytes, j - at, runBytes);
  };
  // `countBytes` of each run's `runBytes` storage bytes are logical data.
  const __mmask64 runMask = firstBytes(runBytes), countMask = firstBytes(countBytes);
  auto move = countBytes == runBytes ? moveRuns<Pack, RunBytes, true>
                                     : moveRuns<Pack, RunBytes, false>;
  for (size_t k = 0; k < numSpans; ++k) {
    zeroUpTo(spans[k].begin);
    move(storage, logical, runOffset, spans[k].begin, spans[k].end, runBytes, countMask, runMask);
    at = spans[k].end;
  }
  zeroUpTo(runs);
}

/// The view dimensions inside one block and what each run contributes.
struct BlockPlan {
  size_t outerCount = 0;          ///< view dims [0, outerCount) are walked by the odometer
  int64_t runs = 1;               ///< runs per block
  std::vector<int64_t> runOffset; ///< logical byte offset of run j from the block's
  std::vector<int64_t> maxIdx;    ///< per logical dim, the largest index a run adds
  std::vector<int64_t> runIdx;    ///< runIdx[j * rank + d]: index run j adds in logical
                                  ///< dim d (built at the first edge block)
};

/// Expands a per-run table over the block dims, outer to inner (the last
/// turning fastest): each entry of `row` values becomes extent entries, the
/// digit-th adding digit * step(k, value index). No division per run.
template <typename StepFn>
std::vector<int64_t> expandRuns(const StridedView &view, size_t firstDim, int64_t runs,
                                size_t row, StepFn step) {
  std::vector<int64_t> table(row, 0), next;
  table.reserve(static_cast<size_t>(runs) * row);
  for (size_t k = firstDim; k + 1 < view.dims.size(); ++k) {
    const int64_t extent = view.dims[k].extent;
    next.resize(table.size() * static_cast<size_t>(extent));
    for (size_t e = 0; e < table.size() / row; ++e)
      for (int64_t digit = 0; digit < extent; ++digit)
        for (size_t i = 0; i < row; ++i)
          next[(e * static_cast<size_t>(extent) + static_cast<size_t>(digit)) * row + i] =
              table[e * row + i] + digit * step(view.dims[k], i);
    table.swap(next);
  }
  return table;
}

BlockPlan planBlocks(const StridedView &view, const std::vector<int64_t> &shape,
                     const std::vector<int64_t> &logicalStride, int64_t width) {
  const size_t nd = view.dims.size(), rank = shape.size();
  const int64_t last = static_cast<int64_t>(rank) - 1;
  BlockPlan plan;
  size_t b = nd - 1;
  while (b > 0 && view.dims[b - 1].logicalDim != last &&
         view.dims[b - 1].extent <= kMaxBlockRuns / plan.runs)
    plan.runs *= view.dims[--b].extent;
  plan.outerCount = b;
  plan.runOffset = expandRuns(view, b, plan.runs, 1, [&](const StridedView::Dim &d, size_t) {
    return d.weight * logicalStride[d.logicalDim] * width;
  });
  plan.maxIdx.assign(rank, 0);
  for (size_t k = b; k + 1 < nd; ++k)
    plan.maxIdx[view.dims[k].logicalDim] += (view.dims[k].extent - 1) * view.dims[k].weight;
  return plan;
}

/// Per-run logical indices of the block (for the validity of edge blocks).
std::vector<int64_t> planRunIndices(const StridedView &view, const BlockPlan &plan,
                                    size_t rank) {
  return expandRuns(view, plan.outerCount, plan.runs, rank,
                    [](const StridedView::Dim &d, size_t i) {
                      return static_cast<size_t>(d.logicalDim) == i ? d.weight : 0;
                    });
}

template <bool Pack>
void walkBlocks(const StridedView &view, const std::vector<int64_t> &shape, int64_t width,
                const std::vector<int64_t> &logicalStride, const char *from, char *to) {
  const size_t rank = shape.size();
  const size_t last = rank - 1;
  const int64_t runElems = view.dims.back().extent, runBytes = runElems * width;
  BlockPlan plan = planBlocks(view, shape, logicalStride, width);
  StoragePtr<Pack> storage;
  LogicalPtr<Pack> logicalData;
  if constexpr (Pack) {
    storage = to;
    logicalData = from;
  } else {
    storage = from;
    logicalData = to;
  }
  // The innermost outer dimension turns in a plain loop (only its own
  // logical dimension changes along it), the others by the odometer.
  const size_t odometerCount = plan.outerCount ? plan.outerCount - 1 : 0;
  const StridedView::Dim turn =
      plan.outerCount ? view.dims[odometerCount] : StridedView::Dim{1, 0, 0, 0};
  const size_t turnDim = static_cast<size_t>(turn.logicalDim);
  const int64_t turnStep = turn.weight * logicalStride[turnDim];
  std::vector<int64_t> digit(odometerCount, 0), index(rank, 0);
  // The stretches of data runs of the last edge block, for the index room
  // left per dimension in `room` while `spansCurrent`: edge blocks along one
  // side share them.
  std::vector<RunSpan> edgeSpans;
  std::vector<int64_t> room(last, -1);
  bool spansCurrent = false;
  const RunSpan allRuns{0, plan.runs};
  int64_t logicalBase = 0, unusedStorage = 0;
  auto move = runBytes == 32   ? moveBlock<Pack, 32>
              : runBytes == 64 ? moveBlock<Pack, 64>
                               : moveBlock<Pack, 0>;
  const int64_t blockBytes = plan.runs * runBytes;
  for (;;) {
    // Room beyond the block's reach does not change which runs are data;
    // `edgeSpans` stays good while the room does not change.
    auto setRoom = [&](size_t d) {
      const int64_t r = std::min(shape[d] - index[d], plan.maxIdx[d] + 1);
      spansCurrent &= r == room[d];
      room[d] = r;
    };
    bool interiorRest = true, anyRest = true;
    for (size_t d = 0; d < last; ++d) {
      if (d == turnDim)
        continue;
      setRoom(d);
      interiorRest &= plan.maxIdx[d] < room[d];
      anyRest &= room[d] > 0;
    }
    for (int64_t t = 0; t < turn.extent; ++t) {
      const int64_t count = std::clamp<int64_t>(shape[last] - index[last], 0, runElems);
      bool interior = interiorRest && count > 0, any = anyRest && count > 0;
      if (turnDim != last) {
        setRoom(turnDim);
        interior &= plan.maxIdx[turnDim] < room[turnDim];
        any &= room[turnDim] > 0;
      }
      const RunSpan *spans = &allRuns;
      size_t numSpans = 1;
      if (!interior && any) {
        // An edge block: a run is data when every logical index is in range.
        if (!spansCurrent) {
          if (plan.runIdx.empty())
            plan.runIdx = planRunIndices(view, plan, rank);
          edgeSpans.clear();
          for (int64_t j = 0; j < plan.runs; ++j) {
            bool in = true;
            for (size_t d = 0; d < last; ++d)
              in &= plan.runIdx[static_cast<size_t>(j) * rank + d] < room[d];
            if (!in)
              continue;
            if (!edgeSpans.empty() && edgeSpans.back().end == j)
              ++edgeSpans.back().end;
            else
              edgeSpans.push_back({j, j + 1});
          }
          spansCurrent = true;
        }
        spans = edgeSpans.data();
        numSpans = edgeSpans.size();
      }
      if (any) // the block's base index is in range, so is the pointer
        move(storage, logicalData + logicalBase * width, plan.runOffset.data(), spans, numSpans,
             plan.runs, runBytes, count * width);
      else if constexpr (Pack)
        std::memset(storage, 0, static_cast<size_t>(blockBytes));
      storage += blockBytes;
      index[turnDim] += turn.weight;
      logicalBase += turnStep;
    }
    index[turnDim] -= turn.weight * turn.extent;
    logicalBase -= turnStep * turn.extent;
    if (!advanceViewOdometer(view.dims.data(), odometerCount, logicalStride, digit, index,
                             logicalBase, unusedStorage))
      return;
  }
}

} // namespace
#endif

bool dlaformat::detail::copyRunBlocks(const StridedView &view, const std::vector<int64_t> &shape,
                                      int64_t elementBytes, const char *from, char *to,
                                      bool pack) {
#ifdef DLA_BLOCK_COPY_AVX512
  if (!usePackAvx512() || shape.empty() || view.dims.empty())
    return false;
  const int64_t last = static_cast<int64_t>(shape.size()) - 1;
  const StridedView::Dim &run = view.dims.back();
  const int64_t runBytes = run.extent * elementBytes;
  // Runs of 16 to 64 bytes of the last dimension; shorter ones go faster in
  // source order (StridedCopy.cpp).
  if (run.logicalDim != last || run.weight != 1 || runBytes < 16 || runBytes > 64)
    return false;
  for (const StridedView::Dim &d : view.dims)
    if (d.extent <= 0 || (&d != &run && d.logicalDim == last && d.weight % run.extent != 0))
      return false;
  for (int64_t e : shape)
    if (e <= 0)
      return false;
  const std::vector<int64_t> logicalStride = rowMajorStrides(shape);
  if (pack)
    walkBlocks<true>(view, shape, elementBytes, logicalStride, from, to);
  else
    walkBlocks<false>(view, shape, elementBytes, logicalStride, from, to);
  return true;
#else
  (void)view, (void)shape, (void)elementBytes, (void)from, (void)to, (void)pack;
  return false;
#endif
}
