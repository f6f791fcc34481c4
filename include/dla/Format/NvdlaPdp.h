//===- NvdlaPdp.h - How wide one PDP pass is --------------------*- C++ -*-===//
//
// PDP pools an output width in one pass (split) only as far as its line
// buffer holds the lines that overlap between vertically adjacent windows;
// wider outputs are split by width. The capacity as NVIDIA's compiler
// computes it (umd engine-ast/PDPNode.cpp calculateMaxWidth), and the split
// as it programs it (pdpHWSplitWidth, adjustBRPadding).
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_NVDLAPDP_H
#define DLA_FORMAT_NVDLAPDP_H

#include <algorithm>
#include <cstdint>
#include <optional>

namespace dlaformat::nvdla {

/// The widest output one PDP pass takes: a 7 KiB line buffer for ceil(kh /
/// sy) overlapping lines, rounded up to the RTL's 1, 2, 4 or 8, each of one
/// kernel group (`kernelsPerGroup` channels) of 14-bit (one-byte data) or
/// 28-bit partial results.
constexpr int64_t pdpMaxFlyingWidth(int64_t kernelsPerGroup, bool oneByte, int64_t kh,
                                    int64_t sy) {
  constexpr int64_t kBufferBits = 7 * 1024 * 8;
  constexpr int64_t kRtlOverlapLines[9] = {1, 1, 2, 4, 4, 8, 8, 8, 8};
  const int64_t logical = (kh + sy - 1) / sy;
  const int64_t lines = kRtlOverlapLines[logical < 8 ? logical : 8];
  return kBufferBits / (lines * kernelsPerGroup * (oneByte ? 14 : 28));
}

/// PDP's hardware split by output width: `splits` passes (SPLIT_NUM =
/// splits - 1) of `firstOut`, `midOut` (every middle pass) and `lastOut`
/// output columns. A pass reads `firstIn` / `midIn` / `lastIn` input
/// columns past what the previous pass read, and re-reads the kw - sx
/// columns its first window shares with the previous pass's last (the DMA
/// steps back by them). `rightPad` is the right padding the last pass's
/// windows reach into: (outW - 1) * sx + kw - (inW + padLeft), NVIDIA's
/// adjustBRPadding, at least 0 (columns past the last window are never
/// read). One pass: `splits` 1, `firstOut` the output width.
struct PdpSplit {
  int64_t splits = 1;
  int64_t firstOut = 0, midOut = 0, lastOut = 0;
  int64_t firstIn = 0, midIn = 0, lastIn = 0;
  int64_t rightPad = 0;
};

/// NVIDIA's split (PDPNode.cpp pdpHWSplitWidth) of a pool of `inW` input
/// and `outW` output columns, kernel width `kw`, stride `sx`, left padding
/// `padLeft`, at most `maxWidth` output columns a pass
/// (pdpMaxFlyingWidth). Passes of maxWidth, the last takes the rest; when
/// the last would read no new column (its windows lie in the previous
/// pass's columns and the padding), the first and last passes are
/// rebalanced as NVIDIA's compiler does: the last takes the fewest new
/// columns that keep its windows on the stride. nullopt when no split has
/// positive widths.
constexpr std::optional<PdpSplit> planPdpSplit(int64_t inW, int64_t outW, int64_t kw, int64_t sx,
                                               int64_t padLeft, int64_t maxWidth) {
  if (inW <= 0 || outW <= 0 || kw <= 0 || sx <= 0 || maxWidth <= 0)
    return std::nullopt;
  PdpSplit s;
  s.splits = (outW + maxWidth - 1) / maxWidth;
  s.rightPad = std::max<int64_t>(0, (outW - 1) * sx + kw - (inW + padLeft));
  s.firstOut = std::min(maxWidth, outW);
  if (s.splits == 2) {
    s.lastOut = outW - s.firstOut;
  } else if (s.splits > 2) {
    s.midOut = maxWidth;
    s.lastOut = outW - maxWidth * (s.splits - 1);
  }
  const int64_t overlap = kw - sx; // negative when windows leave gaps
  s.firstIn = (s.firstOut - 1) * sx + kw - padLeft;
  if (s.splits > 1) {
    s.lastIn = (s.lastOut - 1) * sx + kw - s.rightPad - overlap;
    if (s.lastIn <= 0) {
      const int64_t firstLast = s.firstOut + s.lastOut;
      int64_t lastIn = 1;
      while ((lastIn + overlap + s.rightPad - kw) % sx != 0)
        ++lastIn;
      s.lastIn = lastIn;
      s.lastOut = (lastIn + overlap + s.rightPad - kw) / sx + 1;
      s.firstOut = firstLast - s.lastOut;
      s.firstIn = (s.firstOut - 1) * sx + kw - padLeft;
    }
  }
  if (s.splits > 2)
    s.midIn = (s.midOut - 1) * sx + kw - overlap;
  if (s.firstIn <= 0 || s.firstOut <= 0 || s.firstOut > maxWidth ||
      (s.splits > 1 && (s.lastIn <= 0 || s.lastOut <= 0 || s.lastOut > maxWidth)) ||
      (s.splits > 2 && s.midIn <= 0))
    return std::nullopt;
  return s;
}

} // namespace dlaformat::nvdla

#endif // DLA_FORMAT_NVDLAPDP_H
