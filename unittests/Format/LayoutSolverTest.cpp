//===- LayoutSolverTest.cpp - Layout solver against brute force ----------===//
//
// Random problems of up to 12 nodes: on chains and trees the solver must
// find exactly the brute-force minimum and say it is optimal; on DAGs it
// must never beat brute force (that would be a wrong cost), and the test
// prints how far above the minimum it lands.
//
//===----------------------------------------------------------------------===//

#include "dla/Format/LayoutSolver.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

using namespace dlaformat;

namespace {

enum class Shape { Chain, Tree, Dag };

int addNet(LayoutProblem &p, std::mt19937 &rng, int producer) {
  LayoutProblem::Net net;
  net.producer = producer;
  net.numEncodings = std::uniform_int_distribution<int>(1, 4)(rng);
  std::uniform_int_distribution<int> enc(0, net.numEncodings - 1);
  for (size_t j = 0; j < p.nodes[producer].choiceCost.size(); ++j)
    net.writes.push_back(enc(rng));
  const int k = net.numEncodings;
  net.relayoutCost.assign(static_cast<size_t>(k * k), 0);
  for (int a = 0; a < k; ++a)
    for (int b = 0; b < k; ++b)
      // Some read encodings accept other written ones (e.g. any strides).
      if (a != b && std::uniform_int_distribution<int>(0, 4)(rng) != 0)
        net.relayoutCost[a * k + b] = std::uniform_int_distribution<int>(1, 100)(rng);
  p.nets.push_back(net);
  return static_cast<int>(p.nets.size()) - 1;
}

void addConsumer(LayoutProblem &p, std::mt19937 &rng, int netIndex, int node) {
  LayoutProblem::Net &net = p.nets[netIndex];
  LayoutProblem::Consumer c;
  c.node = node;
  std::uniform_int_distribution<int> enc(0, net.numEncodings - 1);
  for (size_t j = 0; j < p.nodes[node].choiceCost.size(); ++j) {
    std::vector<int> reads = {enc(rng)};
    if (std::uniform_int_distribution<int>(0, 5)(rng) == 0)
      reads.push_back(enc(rng)); // the same value read twice, two ways
    c.reads.push_back(reads);
  }
  net.consumers.push_back(c);
}

LayoutProblem randomProblem(std::mt19937 &rng, Shape shape) {
  LayoutProblem p;
  int n = std::uniform_int_distribution<int>(2, 12)(rng);
  for (int i = 0; i < n; ++i) {
    LayoutProblem::Node node;
    int k = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int j = 0; j < k; ++j)
      node.choiceCost.push_back(std::uniform_int_distribution<int>(0, 3)(rng) == 0
                                    ? std::uniform_int_distribution<int>(1, 20)(rng)
                                    : 0);
    p.nodes.push_back(node);
  }
  std::vector<int> netOf(n, -1); // the net each node produces, once made
  auto netFrom = [&](int producer) {
    if (netOf[producer] < 0)
      netOf[producer] = addNet(p, rng, producer);
    return netOf[producer];
  };
  for (int i = 1; i < n; ++i) {
    if (shape == Shape::Chain) {
      addConsumer(p, rng, netFrom(i - 1), i);
      continue;
    }
    int first = std::uniform_int_distribution<int>(0, i - 1)(rng);
    addConsumer(p, rng, netFrom(first), i);
    if (shape == Shape::Dag && i >= 2 && std::uniform_int_distribution<int>(0, 1)(rng)) {
      int second = std::uniform_int_distribution<int>(0, i - 1)(rng);
      if (second != first)
        addConsumer(p, rng, netFrom(second), i);
    }
  }
  return p;
}

struct GapStats {
  int instances = 0, withGap = 0, provedOptimal = 0;
  double maxRelative = 0, sumRelative = 0;
};

GapStats run(Shape shape, int instances, unsigned seed) {
  std::mt19937 rng(seed);
  GapStats stats;
  int claimed = 0;
  for (int i = 0; i < instances; ++i) {
    LayoutProblem p = randomProblem(rng, shape);
    LayoutSolution got = solveLayoutAssignment(p);
    std::optional<LayoutSolution> exact = solveLayoutAssignmentByEnumeration(p, 1 << 20);
    EXPECT_TRUE(exact.has_value());
    if (!exact)
      continue;
    EXPECT_EQ(got.cost, evaluateLayoutAssignment(p, got.choice)) << "instance " << i;
    EXPECT_GE(got.cost, exact->cost) << "instance " << i;
    if (got.provablyOptimal)
      EXPECT_EQ(got.cost, exact->cost) << "instance " << i << " claims optimality";
    if (shape != Shape::Dag) {
      EXPECT_TRUE(got.provablyOptimal) << "instance " << i;
      EXPECT_EQ(got.cost, exact->cost) << "instance " << i;
    }
    ++stats.instances;
    claimed += got.provablyOptimal;
    if (got.cost > exact->cost) {
      ++stats.withGap;
      double rel = double(got.cost - exact->cost) / double(std::max<int64_t>(1, exact->cost));
      stats.maxRelative = std::max(stats.maxRelative, rel);
      stats.sumRelative += rel;
    }
  }
  stats.provedOptimal = claimed;
  return stats;
}

TEST(LayoutSolverTest, ChainsAreOptimal) { run(Shape::Chain, 2000, 1); }

TEST(LayoutSolverTest, TreesAreOptimal) { run(Shape::Tree, 2000, 2); }

TEST(LayoutSolverTest, DagGapIsReported) {
  GapStats s = run(Shape::Dag, 2000, 3);
  std::printf("DAG gap: %d of %d instances above the minimum (%d proved optimal); max %.1f%%, "
              "mean over all %.3f%%\n",
              s.withGap, s.instances, s.provedOptimal, 100 * s.maxRelative,
              100 * s.sumRelative / std::max(1, s.instances));
}

TEST(LayoutSolverTest, SharedRelayoutIsCountedOnce) {
  // One producer (1 choice, writes 0), two consumers reading encoding 1:
  // one relayout of 10 bytes, not two.
  LayoutProblem p;
  p.nodes = {{{0}}, {{0}}, {{0}}};
  LayoutProblem::Net net;
  net.producer = 0;
  net.writes = {0};
  net.numEncodings = 2;
  net.relayoutCost = {0, 10, 10, 0};
  net.consumers = {{1, {{1}}}, {2, {{1}}}};
  p.nets = {net};
  LayoutSolution s = solveLayoutAssignment(p);
  EXPECT_EQ(s.cost, 10);
  EXPECT_TRUE(s.provablyOptimal);
}

} // namespace
