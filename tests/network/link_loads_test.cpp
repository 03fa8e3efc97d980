// All-to-all link loads from prefix counts equal explicit per-message routing.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "allocsim/network/link_loads.hpp"
#include "testing/random_grid.hpp"

using namespace allocsim;

namespace {

std::vector<LoadedLink> explicit_all_to_all(const Topology& t, const std::vector<NodeId>& nodes) {
  std::vector<std::pair<NodeId, NodeId>> messages;
  for (NodeId a : nodes)
    for (NodeId b : nodes)
      if (a != b) messages.emplace_back(a, b);
  return routed_link_loads(t, messages);
}

std::vector<NodeId> random_subset(const Topology& t, std::mt19937& rng) {
  std::vector<NodeId> all(t.node_count());
  for (NodeId v = 0; v < t.node_count(); ++v) all[v] = v;
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(std::uniform_int_distribution<int>(0, t.node_count())(rng));
  return all;
}

}  // namespace

TEST(LinkLoads, HandCaseFullMesh) {
  // All-to-all on a full 4x4 mesh: the middle link of a row carries 2·2 senders × 4 receivers
  // per column-side: (x ≤ 1 in that row) × (any node with x ≥ 2) = 2 × 8 = 16.
  const Topology t = Topology::parse("mesh:4x4");
  std::vector<NodeId> nodes(16);
  for (NodeId v = 0; v < 16; ++v) nodes[v] = v;
  const std::vector<LoadedLink> loads = all_to_all_link_loads(t, nodes);
  const LinkId middle = t.link_id(1, 0, +1);
  const auto it = std::find_if(loads.begin(), loads.end(),
                               [&](const LoadedLink& l) { return l.link == middle; });
  ASSERT_NE(it, loads.end());
  EXPECT_EQ(it->load, 16);
  EXPECT_EQ(loads, explicit_all_to_all(t, nodes));
}

TEST(LinkLoads, SmallSidesAndSemitori) {
  std::mt19937 rng(7);
  for (const char* spec :
       {"mesh:1x5", "mesh:2x2", "torus:2x2", "torus:2x3x2", "torus:1x4", "torus:4x4:wrap=10",
        "torus:3x2x5:wrap=011", "torus:6", "mesh:7", "torus:5x1x2", "flat:6"}) {
    const Topology t = Topology::parse(spec);
    for (int trial = 0; trial < 20; ++trial) {
      const std::vector<NodeId> nodes = random_subset(t, rng);
      ASSERT_EQ(all_to_all_link_loads(t, nodes), explicit_all_to_all(t, nodes))
          << spec << " with " << nodes.size() << " nodes";
    }
  }
}

TEST(LinkLoads, RandomAllocationsOnRandomGrids) {
  std::mt19937 rng(2026);
  for (int trial = 0; trial < 400; ++trial) {
    const Topology t = allocsim::testing::random_grid(rng, 3);
    const std::vector<NodeId> nodes = random_subset(t, rng);
    ASSERT_EQ(all_to_all_link_loads(t, nodes), explicit_all_to_all(t, nodes))
        << t.spec() << " with " << nodes.size() << " nodes (trial " << trial << ")";
  }
}

TEST(LinkLoads, ReferenceCompactNodesFormTheMostCubicBox) {
  const Topology t = Topology::parse("mesh:16x16");
  EXPECT_EQ(reference_compact_nodes(t, 4), (std::vector<NodeId>{0, 1, 16, 17}));
  // 8 nodes: the 3x3 box, first 8 in id order.
  EXPECT_EQ(reference_compact_nodes(t, 8), (std::vector<NodeId>{0, 1, 2, 16, 17, 18, 32, 33}));
  const Topology thin = Topology::parse("mesh:2x10");
  EXPECT_EQ(reference_compact_nodes(thin, 6), (std::vector<NodeId>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(reference_compact_nodes(thin, 20).size(), 20u);
  EXPECT_EQ(reference_compact_nodes(Topology::flat(5), 3), (std::vector<NodeId>{0, 1, 2}));
}
