// Mappers on a graph machine (issue 26 item 6): the tiny tree of tests/testing/tiny_graph.hpp,
// nodes 0, 1 under leaf0 and 2, 3 under leaf1; two nodes of one leaf are 2 links apart, of two
// leaves 4. No grid formula may run on it: distances come from Topology::distance.
#include <gtest/gtest.h>

#include <set>

#include "allocsim/mapping/basic.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/task_graph.hpp"
#include "testing/tiny_graph.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

/// Σ over edges of bytes × distance of the endpoints' nodes.
double hop_bytes_by_distance(const TaskGraph& graph, const Topology& topology,
                             const std::vector<NodeId>& placement) {
  double total = 0;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const auto neighbours = graph.neighbours(t);
    const auto bytes = graph.edge_bytes(t);
    for (std::size_t i = 0; i < neighbours.size(); ++i)
      if (t < neighbours[i])
        total += bytes[i] * topology.distance(placement[t], placement[neighbours[i]]);
  }
  return total;
}

}  // namespace

TEST(MappersOnGraphs, RandomMappingExpectationIsTheExactMeanDistance) {
  // Ordered pairs of distinct nodes: 12; 4 of them within a leaf (distance 2), 8 across (4):
  // (4·2 + 8·4) / 12 = 40 / 12.
  EXPECT_DOUBLE_EQ(random_mapping_expectation(allocsim::testing::tiny_tree()), 40.0 / 12);
}

TEST(MappersOnGraphs, MeanDistancesUseTheMachinesDistance) {
  const Topology tree = allocsim::testing::tiny_tree();
  const std::vector<NodeId> nodes{0, 1, 2, 3};
  // From node 0: itself 0, node 1 2, nodes 2 and 3 4 each: 10 / 4.
  const std::vector<double> means = mean_distances(tree, nodes);
  ASSERT_EQ(means.size(), 4u);
  for (const double mean : means) EXPECT_DOUBLE_EQ(mean, 2.5);
}

TEST(MappersOnGraphs, EveryMapperPlacesTasksAndTheGoodOnesKeepHeavyPairsOnALeaf) {
  const Topology tree = allocsim::testing::tiny_tree();
  // Tasks 0–1 and 2–3 exchange 100 bytes, 1–2 one byte. Best: each heavy pair on one leaf:
  // 100·2 + 100·2 + 1·4 = 404. The processors come in the order 0, 2, 1, 3, so the identity
  // placement splits both heavy pairs: 100·4 + 100·4 + 1·4 (tasks 1, 2 on nodes 2, 1) = 804.
  const TaskGraph graph = TaskGraph::from_edges(4, {{0, 1, 100}, {2, 3, 100}, {1, 2, 1}});
  const std::vector<NodeId> processors{0, 2, 1, 3};
  for (const std::string chain :
       {"identity", "random", "topocentlb", "topolb:order=1", "topolb:order=2", "topolb:order=3",
        "refine", "random+refine", "topolb+refine:scope=all", "scotch", "topocentlb+refine"}) {
    SCOPED_TRACE(chain);
    Rng rng(3);
    const std::vector<NodeId> placement = MapperChain(chain).map({graph, tree, processors}, rng);
    ASSERT_EQ(placement.size(), 4u);
    EXPECT_EQ(std::set<NodeId>(placement.begin(), placement.end()).size(), 4u);
    const double cost = hop_bytes_by_distance(graph, tree, placement);
    if (chain == "identity") {
      EXPECT_EQ(cost, 804);
    }
    if (chain.find("refine") != std::string::npos || chain == "scotch") {
      EXPECT_EQ(cost, 404);
    }
  }
}
