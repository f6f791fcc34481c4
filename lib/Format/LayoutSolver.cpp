//===- LayoutSolver.cpp - Minimum-cost layout assignment ------------------===//

#include "dla/Format/LayoutSolver.h"

#include <algorithm>
#include <cassert>
#include <limits>

using namespace dlaformat;

namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max() / 4;
/// Nets with more distinct encodings are not solved by subsets (2^K); their
/// consumers start new trees and local moves handle the net.
constexpr int kMaxSubsetEncodings = 12;

int64_t add(int64_t a, int64_t b) { return (a >= kInf || b >= kInf) ? kInf : std::min(kInf, a + b); }

uint32_t readMask(const std::vector<int> &reads) {
  uint32_t m = 0;
  for (int r : reads)
    m |= 1u << r;
  return m;
}

/// Cost of one net when the producer writes `written` and the consumers read
/// the encodings in `readSet` (a bitmask).
int64_t netCost(const LayoutProblem::Net &net, int written, uint32_t readSet) {
  int64_t cost = 0;
  for (int d = 0; d < net.numEncodings; ++d)
    if (readSet & (1u << d))
      cost = add(cost, net.getRelayoutCost(written, d));
  return cost;
}

int64_t netCostOf(const LayoutProblem::Net &net, const std::vector<int> &choice) {
  // Distinct reads; small nets use a mask, large ones a sorted list.
  std::vector<int> reads;
  for (const LayoutProblem::Consumer &c : net.consumers)
    for (int r : c.reads[choice[c.node]])
      reads.push_back(r);
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  int written = net.writes[choice[net.producer]];
  int64_t cost = 0;
  for (int d : reads)
    cost = add(cost, net.getRelayoutCost(written, d));
  return cost;
}

struct Port {
  int net;
  int consumer; ///< index in net.consumers, -1 for the producer
};

class Solver {
public:
  /// `fromLast`: grow the spanning forest from the last node (a sink)
  /// rather than the first; on cyclic graphs the two cut different nets.
  Solver(const LayoutProblem &p, bool fromLast) : p(p), fromLast(fromLast) {}

  LayoutSolution run() {
    const size_t n = p.nodes.size();
    ports.assign(n, {});
    for (size_t i = 0; i < p.nets.size(); ++i) {
      ports[p.nets[i].producer].push_back({static_cast<int>(i), -1});
      for (size_t c = 0; c < p.nets[i].consumers.size(); ++c)
        ports[p.nets[i].consumers[c].node].push_back({static_cast<int>(i), static_cast<int>(c)});
    }
    buildForest();
    best.assign(n, {});
    for (auto it = order.rbegin(); it != order.rend(); ++it)
      computeBest(*it);
    LayoutSolution s;
    s.choice.assign(n, 0);
    for (int node : order) {
      if (parentNet[node] < 0) {
        const std::vector<int64_t> &b = best[node];
        s.choice[node] = static_cast<int>(std::min_element(b.begin(), b.end()) - b.begin());
      }
      for (int net : childNets[node])
        assignChildren(net, s.choice[node], s.choice);
    }
    s.provablyOptimal = !anyCut;
    if (anyCut)
      improveLocally(s.choice);
    s.cost = evaluateLayoutAssignment(p, s.choice);
    return s;
  }

private:
  /// Per net: its parent port, which other ports are children, and the
  /// bottom-up results.
  struct NetState {
    bool visited = false;
    int parentConsumer = -2; ///< -1 producer, >= 0 a consumer, -2 unvisited
    bool producerChild = false;
    std::vector<int> childConsumers;
    /// A node with one choice reached again: its choice is fixed, so it can
    /// stand in this net as a copy of its own (a leaf costing nothing here)
    /// without closing a cycle.
    bool producerLeaf = false;
    std::vector<char> consumerLeaf;
    /// Per choice of the parent node: the net's cost including subtrees and
    /// the read set achieving it.
    std::vector<int64_t> message;
    std::vector<uint32_t> argSet;
    /// Per read set: best producer choice (consumer parent only).
    std::vector<int> argProducer;
  };

  void buildForest() {
    const size_t n = p.nodes.size();
    parentNet.assign(n, -1);
    childNets.assign(n, {});
    nets.assign(p.nets.size(), {});
    std::vector<char> visited(n, 0);
    for (size_t i = 0; i < n; ++i) {
      size_t root = fromLast ? n - 1 - i : i;
      if (visited[root])
        continue;
      visited[root] = 1;
      size_t head = order.size();
      order.push_back(static_cast<int>(root));
      while (head < order.size()) {
        int node = order[head++];
        for (const Port &port : ports[node]) {
          NetState &st = nets[port.net];
          if (st.visited)
            continue;
          st.visited = true;
          st.parentConsumer = port.consumer;
          childNets[node].push_back(port.net);
          const LayoutProblem::Net &net = p.nets[port.net];
          bool tooWide = net.numEncodings > kMaxSubsetEncodings;
          bool leaf = false;
          auto claim = [&](int other) {
            leaf = false;
            if (visited[other] && !tooWide && p.nodes[other].choiceCost.size() == 1) {
              leaf = true;
              return true;
            }
            if (tooWide || visited[other]) {
              anyCut = true;
              return false;
            }
            visited[other] = 1;
            parentNet[other] = port.net;
            order.push_back(other);
            return true;
          };
          if (port.consumer >= 0) {
            st.producerChild = claim(net.producer);
            st.producerLeaf = leaf;
          }
          for (size_t c = 0; c < net.consumers.size(); ++c)
            if (static_cast<int>(c) != port.consumer && claim(net.consumers[c].node)) {
              st.childConsumers.push_back(static_cast<int>(c));
              st.consumerLeaf.push_back(leaf);
            }
        }
      }
    }
  }

  /// best[c][j] of consumer child `c` restricted to read sets within S, as
  /// a table over all S (min over subsets, by the superset sum trick).
  std::vector<int64_t> consumerTable(const LayoutProblem::Net &net, int c, bool leaf) const {
    const uint32_t full = 1u << net.numEncodings;
    std::vector<int64_t> t(full, kInf);
    const LayoutProblem::Consumer &con = net.consumers[c];
    for (size_t j = 0; j < con.reads.size(); ++j) {
      uint32_t m = readMask(con.reads[j]);
      t[m] = std::min(t[m], leaf ? 0 : best[con.node][j]);
    }
    for (int b = 0; b < net.numEncodings; ++b)
      for (uint32_t s = 0; s < full; ++s)
        if (s & (1u << b))
          t[s] = std::min(t[s], t[s ^ (1u << b)]);
    return t;
  }

  void computeBest(int node) {
    const size_t k = p.nodes[node].choiceCost.size();
    best[node] = p.nodes[node].choiceCost;
    for (int netIndex : childNets[node]) {
      computeMessage(netIndex, node);
      const std::vector<int64_t> &m = nets[netIndex].message;
      for (size_t j = 0; j < k; ++j)
        best[node][j] = add(best[node][j], m[j]);
    }
  }

  void computeMessage(int netIndex, int node) {
    const LayoutProblem::Net &net = p.nets[netIndex];
    NetState &st = nets[netIndex];
    const uint32_t full = 1u << net.numEncodings;
    std::vector<int64_t> a(full, 0);
    for (size_t i = 0; i < st.childConsumers.size(); ++i) {
      std::vector<int64_t> t = consumerTable(net, st.childConsumers[i], st.consumerLeaf[i]);
      for (uint32_t s = 0; s < full; ++s)
        a[s] = add(a[s], t[s]);
    }
    const size_t k = p.nodes[node].choiceCost.size();
    st.message.assign(k, kInf);
    st.argSet.assign(k, 0);
    if (st.parentConsumer < 0) {
      // The parent writes; choose the read set.
      for (size_t j = 0; j < k; ++j)
        for (uint32_t s = 0; s < full; ++s) {
          int64_t v = add(a[s], netCost(net, net.writes[j], s));
          if (v < st.message[j]) {
            st.message[j] = v;
            st.argSet[j] = s;
          }
        }
      return;
    }
    // The parent reads: choose the producer and a read set holding the
    // parent's reads.
    std::vector<int64_t> c(full, kInf);
    st.argProducer.assign(full, -1);
    for (uint32_t s = 0; s < full; ++s) {
      if (!st.producerChild) {
        c[s] = a[s]; // producer outside this tree: local moves account for it
        continue;
      }
      const std::vector<int64_t> &bp = best[net.producer];
      for (size_t jp = 0; jp < bp.size(); ++jp) {
        int64_t v = add(add(st.producerLeaf ? 0 : bp[jp], netCost(net, net.writes[jp], s)), a[s]);
        if (v < c[s]) {
          c[s] = v;
          st.argProducer[s] = static_cast<int>(jp);
        }
      }
    }
    const LayoutProblem::Consumer &self = net.consumers[st.parentConsumer];
    for (size_t j = 0; j < k; ++j) {
      uint32_t need = readMask(self.reads[j]);
      for (uint32_t s = 0; s < full; ++s)
        if ((s & need) == need && c[s] < st.message[j]) {
          st.message[j] = c[s];
          st.argSet[j] = s;
        }
    }
  }

  void assignChildren(int netIndex, int parentChoice, std::vector<int> &choice) const {
    const LayoutProblem::Net &net = p.nets[netIndex];
    const NetState &st = nets[netIndex];
    uint32_t s = st.argSet[parentChoice];
    if (st.producerChild && !st.producerLeaf)
      choice[net.producer] = std::max(0, st.argProducer[s]);
    for (size_t i = 0; i < st.childConsumers.size(); ++i) {
      if (st.consumerLeaf[i])
        continue;
      int c = st.childConsumers[i];
      const LayoutProblem::Consumer &con = net.consumers[c];
      int64_t bestValue = kInf;
      for (size_t j = 0; j < con.reads.size(); ++j) {
        uint32_t m = readMask(con.reads[j]);
        if ((m & s) == m && best[con.node][j] < bestValue) {
          bestValue = best[con.node][j];
          choice[con.node] = static_cast<int>(j);
        }
      }
    }
  }

  /// One node at a time, the choice that lowers the full objective most,
  /// until no node improves (bounded sweeps keep the time linear).
  void improveLocally(std::vector<int> &choice) const {
    for (int sweep = 0; sweep < 16; ++sweep) {
      bool changed = false;
      for (size_t node = 0; node < p.nodes.size(); ++node) {
        const size_t k = p.nodes[node].choiceCost.size();
        if (k < 2)
          continue;
        auto local = [&]() {
          int64_t v = p.nodes[node].choiceCost[choice[node]];
          for (const Port &port : ports[node])
            v = add(v, netCostOf(p.nets[port.net], choice));
          return v;
        };
        int current = choice[node];
        int64_t bestValue = local();
        int bestChoice = current;
        for (size_t j = 0; j < k; ++j) {
          if (static_cast<int>(j) == current)
            continue;
          choice[node] = static_cast<int>(j);
          int64_t v = local();
          if (v < bestValue) {
            bestValue = v;
            bestChoice = static_cast<int>(j);
          }
        }
        choice[node] = bestChoice;
        changed |= bestChoice != current;
      }
      if (!changed)
        break;
    }
  }

  const LayoutProblem &p;
  bool fromLast;
  std::vector<std::vector<Port>> ports;
  std::vector<int> order;
  std::vector<int> parentNet;
  std::vector<std::vector<int>> childNets;
  std::vector<NetState> nets;
  std::vector<std::vector<int64_t>> best;
  bool anyCut = false;
};

} // namespace

int64_t dlaformat::evaluateLayoutAssignment(const LayoutProblem &problem,
                                              const std::vector<int> &choice) {
  int64_t cost = 0;
  for (size_t i = 0; i < problem.nodes.size(); ++i)
    cost = add(cost, problem.nodes[i].choiceCost[choice[i]]);
  for (const LayoutProblem::Net &net : problem.nets)
    cost = add(cost, netCostOf(net, choice));
  return cost;
}

LayoutSolution dlaformat::solveLayoutAssignment(const LayoutProblem &problem) {
  LayoutSolution first = Solver(problem, /*fromLast=*/false).run();
  if (first.provablyOptimal)
    return first;
  // Cyclic: a second spanning forest, grown from the other end, and the
  // better of the two after local moves (twice the time, still linear).
  LayoutSolution second = Solver(problem, /*fromLast=*/true).run();
  return second.cost < first.cost ? second : first;
}

std::optional<LayoutSolution>
dlaformat::solveLayoutAssignmentByEnumeration(const LayoutProblem &problem,
                                                int64_t maxAssignments) {
  int64_t total = 1;
  for (const LayoutProblem::Node &node : problem.nodes) {
    total *= static_cast<int64_t>(node.choiceCost.size());
    if (total > maxAssignments)
      return std::nullopt;
  }
  LayoutSolution bestSolution;
  bestSolution.cost = kInf;
  bestSolution.provablyOptimal = true;
  std::vector<int> choice(problem.nodes.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i;
    for (size_t n = 0; n < choice.size(); ++n) {
      int64_t k = static_cast<int64_t>(problem.nodes[n].choiceCost.size());
      choice[n] = static_cast<int>(rest % k);
      rest /= k;
    }
    int64_t cost = evaluateLayoutAssignment(problem, choice);
    if (cost < bestSolution.cost) {
      bestSolution.cost = cost;
      bestSolution.choice = choice;
    }
  }
  return bestSolution;
}
