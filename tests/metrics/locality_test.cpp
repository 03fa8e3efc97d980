#include "allocsim/metrics/locality.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "testing/tiny_graph.hpp"

using namespace allocsim;

TEST(Locality, PairwiseSumMatchesBruteForceOnRandomSets) {
  Rng rng(3);
  for (const char* spec : {"mesh:16x8", "torus:4x4x4", "torus:5x7", "torus:2x2x2x6x8", "mesh:8x8x5",
                           "torus:1x9", "flat:30"}) {
    const Topology t = Topology::parse(spec);
    LocalityMeter meter(t);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<NodeId> all(t.node_count());
      for (NodeId i = 0; i < t.node_count(); ++i) all[i] = i;
      const auto k = rng.uniform_int(0, t.node_count());
      for (int i = 0; i < k; ++i) std::swap(all[i], all[rng.uniform_int(i, t.node_count() - 1)]);
      all.resize(k);
      EXPECT_EQ(meter.pairwise_sum(all), pairwise_hop_sum_brute(t, all)) << spec;
    }
  }
}

TEST(Locality, ComponentsAndBoundingBox) {
  const Topology mesh = Topology::parse("mesh:4x4");
  LocalityMeter meter(mesh);
  const std::vector<NodeId> two_blocks{0, 1, 4, 5, 15};  // 2x2 block + far corner
  EXPECT_EQ(meter.components(two_blocks), 2);
  const BoundingBox box = meter.bounding_box(two_blocks);
  EXPECT_EQ(box.volume, 16);
  EXPECT_EQ(box.sides_sum, 8);
  EXPECT_EQ(meter.smallest_box(5), 6);  // 2x3
  EXPECT_EQ(meter.smallest_box(16), 16);
  EXPECT_EQ(meter.smallest_cube(5), 9);  // 3x3

  const Topology torus = Topology::parse("torus:8x1");
  LocalityMeter ring(torus);
  const std::vector<NodeId> wrapped{0, 7};  // adjacent through the wrap link
  EXPECT_EQ(ring.components(wrapped), 1);
  EXPECT_EQ(ring.bounding_box(wrapped).extents[0], 2);
  EXPECT_EQ(ring.pairwise_sum(wrapped), 1);
}

// Graph machines (issue 26): the tiny tree (tests/testing/tiny_graph.hpp) has nodes 0, 1 on
// leaf0 (group 0) and 2, 3 on leaf1 (group 1); two nodes of one leaf are 2 links apart
// (injection, ejection, 0 router hops), nodes of different leaves 4 (up and down: 2 router hops).
TEST(Locality, GraphMachinesSumPerRouterAndCountRoutersAndGroups) {
  const Topology tree = allocsim::testing::tiny_tree();
  LocalityMeter meter(tree);
  // {0, 1, 2}: pairs (0,1) 2, (0,2) 4, (1,2) 4 = 10 links; router hops 0 + 2 + 2 = 4.
  const std::vector<NodeId> three{2, 0, 1};
  const LocalityMeasures measures = meter.measure(three);
  EXPECT_FALSE(measures.grid);
  EXPECT_EQ(measures.pairwise_sum, 10);
  EXPECT_EQ(measures.router_hop_sum, 4);
  EXPECT_EQ(measures.routers, 2);
  EXPECT_EQ(measures.groups, 2);
  // {0, 1}: one leaf, one group, 2 links, 0 router hops (the scratch was reset after `three`).
  const LocalityMeasures one_leaf = meter.measure(std::vector<NodeId>{0, 1});
  EXPECT_EQ(one_leaf.pairwise_sum, 2);
  EXPECT_EQ(one_leaf.router_hop_sum, 0);
  EXPECT_EQ(one_leaf.routers, 1);
  EXPECT_EQ(one_leaf.groups, 1);
  // All four: 2 same-leaf pairs of 2 and 4 cross pairs of 4 = 20.
  const std::vector<NodeId> all{0, 1, 2, 3};
  EXPECT_EQ(meter.pairwise_sum(all), 20);
  EXPECT_EQ(pairwise_hop_sum(tree, all), 20);
  EXPECT_EQ(pairwise_hop_sum_brute(tree, all), 20);
  // Grid measures refuse the graph machine by name.
  try {
    meter.components(all);
    ADD_FAILURE() << "components on a graph machine";
  } catch (const InputError& refusal) {
    EXPECT_EQ(std::string(refusal.what()),
              "metric 'components' works on grids (mesh, torus, semitorus) only; machine "
              "'tinytree' is a tinytree");
  }
  EXPECT_THROW(meter.bounding_box(all), InputError);
}
