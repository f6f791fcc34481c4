//===- DependencyGraph.cpp - The firmware's dependency graph of a task ----===//
//
// How NVIDIA's firmware walks a task (kmd/firmware/scheduler.c): each
// engine starts at its op_head and takes its next operation from
// consumers[its own type] of the last one it took (dla_dequeue_operation);
// an operation is programmed into a free register group of its engine and
// enabled once its dependency_count is 0; each event of an operation
// (programmed, enabled, completed) decrements the count of each consumer
// and of the fused parent that waits for that event. A consumer slot per
// engine type: one edge to the next operation of each type. The hardware
// runs an engine's register groups in the order they were enabled, so
// ordering the operations of one engine orders their execution.
//
//===----------------------------------------------------------------------===//

#include "DependencyGraph.h"

#include <array>
#include <cassert>
#include <cstdint>

using namespace mlir::dla;
using namespace mlir::dla::loadable;

namespace {
/// Q must not start before P completes: Q reads what P writes, writes what
/// P reads, or writes what P writes.
bool hazard(const OpAccess &p, const OpAccess &q) {
  auto any = [](const std::vector<MemRange> &a, const std::vector<MemRange> &b) {
    for (const MemRange &x : a)
      for (const MemRange &y : b)
        if (x.overlaps(y))
          return true;
    return false;
  };
  return any(p.writes, q.reads) || any(p.reads, q.writes) || any(p.writes, q.writes);
}
} // namespace

std::optional<size_t> mlir::dla::loadable::linkOperations(std::vector<FwOp> &ops,
                                                          const std::vector<bool> &fused,
                                                          const std::vector<OpAccess> &access,
                                                          FwNetwork &network) {
  const size_t n = ops.size();
  auto type = [&](size_t i) { return static_cast<int>(ops[i].op->type); };
  network.opHead.fill(-1);
  for (size_t i = n; i-- > 0;)
    network.opHead[type(i)] = static_cast<int16_t>(i);

  // carried[s][t]: op s signals its completion to the next operation of
  // type t for an earlier op of its own engine. Engines complete in the
  // order they run, so when op p of engine e must complete before `next`
  // (of type t) and another op s of e comes between them, s's completion
  // implies p's: the edge moves to the last such op. One completion edge
  // per engine then reaches an operation however many of one engine's
  // operations it waits for (an upsampling's 1,000 SDP passes before one
  // convolution; the firmware counts dependencies in 8 bits).
  std::vector<std::array<bool, regplan::kDescOpTypes>> carried(n);
  auto nextOf = [&](size_t from, int t) {
    size_t next = from + 1;
    while (next < n && type(next) != t)
      ++next;
    return next;
  };
  for (size_t p = 0; p < n; ++p) {
    // The convolution of a fused pair is followed by its SDP, which reads
    // its result on the fly: the SDP is enabled once the convolution is
    // programmed, the convolution once the SDP is enabled (as NVIDIA's
    // compiler links them). Later SDPs run after that SDP, which completes
    // after the convolution.
    bool feedsSdp = p + 1 < n && fused[p + 1];
    const size_t sameEngine = nextOf(p, type(p));
    for (int t = 0; t < regplan::kDescOpTypes; ++t) {
      const size_t next = nextOf(p, t);
      if (next == n)
        continue;
      FwConsumer &c = ops[p].consumers[t];
      if (feedsSdp && next == p + 1) {
        c = {static_cast<int16_t>(next), FwEvent::OpProgrammed};
      } else {
        // Completed when an operation of this type from `next` on (the
        // engine runs them in order) must wait for p; else, on p's own
        // engine, the next operation waits until p is programmed (the
        // engine's order of register groups); else no edge.
        bool wait = carried[p][t];
        for (size_t q = next; q < n && !wait; ++q)
          wait = type(q) == t && hazard(access[p], access[q]);
        // Not onto a convolution whose SDP is `next` itself: that edge is
        // the fused pair's (programmed), which does not wait for p.
        const bool fusedNext = next == sameEngine + 1 && fused[next];
        if (wait && t != type(p) && sameEngine < next && !fusedNext) {
          carried[sameEngine][t] = true;
          continue;
        }
        if (wait)
          c = {static_cast<int16_t>(next), FwEvent::OpCompleted};
        else if (t == type(p))
          c = {static_cast<int16_t>(next), FwEvent::OpProgrammed};
        else
          continue;
      }
      if (ops[next].dependencyCount == UINT8_MAX)
        return next;
      ++ops[next].dependencyCount;
    }
    if (fused[p]) {
      assert(p > 0 && "a fused SDP follows its convolution");
      ops[p].fusedParent = {static_cast<int16_t>(p - 1), FwEvent::OpEnabled};
      if (ops[p - 1].dependencyCount == UINT8_MAX)
        return p - 1;
      ++ops[p - 1].dependencyCount;
    }
  }
  return std::nullopt;
}
