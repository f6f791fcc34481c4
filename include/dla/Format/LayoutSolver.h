//===- LayoutSolver.h - Minimum-cost layout assignment ----------*- C++ -*-===//
//
// Layout assignment as a discrete problem, independent of MLIR so that it can
// be checked against brute force on random graphs:
//
//   - a node (a layer op, a function argument, a function return) picks one
//     of its choices (a layout variant: the encodings of all its operands and
//     results at once);
//   - a net is one value: its producer's choice fixes the encoding it is
//     written in, each consumer's choice fixes the encodings it reads it in;
//     every distinct encoding read that does not accept the written one costs
//     one relayout, shared by every consumer reading that encoding, of
//     relayoutCost[written][read] bytes (bytes read + bytes written, padding
//     included, from BoundLayout::getStorageBytes).
//
// The total is the sum of the choice costs and the relayout costs. solve()
// is exact when the factor graph (nodes and nets) is a forest once every
// node with a single choice is split into one copy per net (its choice is
// fixed, so the copies agree) -- chains and trees of layers, values with
// several consumers, and any graph whose cycles pass only through fixed
// nodes (NVDLA residual networks): a bottom-up dynamic programme over the
// subsets of encodings each net materialises.
// On other graphs (residual connections) it solves a spanning forest exactly
// and then improves the full objective by local moves (one node at a time)
// until none helps, for two spanning forests (grown from the first and from
// the last node), and keeps the better; it reports that the result may not
// be optimal.
//
// Time: O(sum over nets of 2^K * (K + ports * choices)), K = distinct
// encodings of the net (a handful), plus the local moves on cyclic graphs.
//
//===----------------------------------------------------------------------===//
#ifndef DLA_FORMAT_LAYOUTSOLVER_H
#define DLA_FORMAT_LAYOUTSOLVER_H

#include <cstdint>
#include <optional>
#include <vector>

namespace dlaformat {

struct LayoutProblem {
  struct Node {
    /// One entry per choice (0 unless a choice has a cost of its own).
    std::vector<int64_t> choiceCost;
  };
  /// All the reads of one value by one node.
  struct Consumer {
    int node = 0;
    /// Per choice of the node: the encodings (net-local ids) it reads.
    std::vector<std::vector<int>> reads;
  };
  struct Net {
    int producer = 0;
    /// Per choice of the producer: the encoding it writes.
    std::vector<int> writes;
    /// At most one entry per node; never the producer.
    std::vector<Consumer> consumers;
    int numEncodings = 0;
    /// numEncodings x numEncodings, [written * numEncodings + read]: 0 when
    /// the read encoding accepts the written one, else the relayout's bytes.
    std::vector<int64_t> relayoutCost;

    int64_t getRelayoutCost(int written, int read) const {
      return relayoutCost[static_cast<size_t>(written) * numEncodings + read];
    }
  };

  std::vector<Node> nodes;
  std::vector<Net> nets;
};

struct LayoutSolution {
  std::vector<int> choice; ///< per node
  int64_t cost = 0;
  /// True when the factor graph was a forest: `cost` is the minimum.
  bool provablyOptimal = false;
};

/// The total cost of an assignment.
int64_t evaluateLayoutAssignment(const LayoutProblem &problem, const std::vector<int> &choice);

/// Minimises the total cost (see the file comment).
LayoutSolution solveLayoutAssignment(const LayoutProblem &problem);

/// The exact minimum by enumerating every assignment; nullopt when there
/// are more than `maxAssignments`. For tests.
std::optional<LayoutSolution> solveLayoutAssignmentByEnumeration(const LayoutProblem &problem,
                                                                 int64_t maxAssignments);

} // namespace dlaformat

#endif // DLA_FORMAT_LAYOUTSOLVER_H
