//===- DependencyGraph.h - The firmware's dependency graph of a task ------===//
//
// The rules (docs/NvdlaLoadables.md, "The dependency graph"), read from
// NVIDIA's kmd/firmware/scheduler.c and the graphs NVIDIA's compiler wrote
// into its regression loadables.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_LIB_TARGET_NVDLALOADABLE_DEPENDENCYGRAPH_H
#define DLA_LIB_TARGET_NVDLALOADABLE_DEPENDENCYGRAPH_H

#include "FirmwareDescriptors.h"

#include <optional>
#include <vector>

namespace mlir::dla::loadable {

/// Bytes of one memory of the loadable.
struct MemRange {
  uint16_t memory = 0;
  uint64_t begin = 0, end = 0;
  bool overlaps(const MemRange &o) const {
    return memory == o.memory && begin < o.end && o.begin < end;
  }
};

/// What an operation reads and writes in memory (not on the fly).
struct OpAccess {
  std::vector<MemRange> reads, writes;
};

/// Fills each operation's dependency count, consumers and fused parent,
/// and the network's op heads. `ops` in the plan's order; `fused[i]`: op i
/// is the SDP fed on the fly by op i - 1, a convolution. Returns the
/// operation whose dependency_count (8 bits) would overflow, if one would.
std::optional<size_t> linkOperations(std::vector<FwOp> &ops, const std::vector<bool> &fused,
                    const std::vector<OpAccess> &access, FwNetwork &network);

} // namespace mlir::dla::loadable

#endif // DLA_LIB_TARGET_NVDLALOADABLE_DEPENDENCYGRAPH_H
