//===- AddressPlan.cpp - Surfaces placed in DRAM with reuse ---------------===//

#include "dla/Target/NvdlaAddressPlan.h"

#include <algorithm>
#include <numeric>

using namespace mlir::dla::regplan;

static int64_t alignUp(int64_t v, int64_t a) { return (v + a - 1) / a * a; }

int64_t mlir::dla::regplan::planAddresses(std::vector<PlannedSurface> &surfaces) {
  // Largest first (fewer holes), ties in program order.
  std::vector<size_t> order(surfaces.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return surfaces[a].bytes > surfaces[b].bytes; });
  std::vector<size_t> placed;
  int64_t extent = 0;
  for (size_t i : order) {
    PlannedSurface &s = surfaces[i];
    // Busy ranges of the placed surfaces whose lifetime overlaps this one.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t j : placed) {
      const PlannedSurface &o = surfaces[j];
      if (o.first <= s.last && s.first <= o.last)
        busy.push_back({o.offset, o.offset + o.bytes});
    }
    std::sort(busy.begin(), busy.end());
    int64_t at = 0;
    for (auto [lo, hi] : busy) {
      if (alignUp(at, s.alignment) + s.bytes <= lo)
        break;
      at = std::max(at, hi);
    }
    s.offset = alignUp(at, s.alignment);
    extent = std::max(extent, s.offset + s.bytes);
    placed.push_back(i);
  }
  return extent;
}
