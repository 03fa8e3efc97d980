// Topology's graph kind on a hand-made machine (tests/testing/tiny_graph.hpp).
#include <gtest/gtest.h>

#include <map>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "testing/tiny_graph.hpp"

namespace allocsim {
namespace {

TEST(GraphMachine, IndexesOfTheTinyTree) {
  const Topology topology = testing::tiny_tree();
  const GraphMachine& graph = *topology.graph();
  EXPECT_EQ(topology.kind(), Topology::Kind::graph);
  EXPECT_FALSE(topology.has_coordinates());
  EXPECT_FALSE(topology.fully_connected());
  EXPECT_EQ(topology.node_count(), 4);
  EXPECT_EQ(graph.router_count(), 4);
  EXPECT_EQ(topology.link_count(), 16);
  EXPECT_EQ(topology.link_slot_count(), 16);
  EXPECT_EQ(graph.injection_link(3), 6);
  EXPECT_EQ(graph.ejection_link(3), 7);
  EXPECT_EQ(std::vector<NodeId>(graph.nodes_of(5).begin(), graph.nodes_of(5).end()),
            (std::vector<NodeId>{2, 3}));
  // Neighbours: the other node of the same leaf (the roots have no nodes).
  EXPECT_EQ(topology.neighbours(2), (std::vector<NodeId>{3}));
  EXPECT_EQ(topology.distance(0, 1), 2);
  EXPECT_EQ(topology.distance(0, 2), 4);
  EXPECT_EQ(graph.router_hops(0, 2), 2);
  EXPECT_EQ(topology.link(8).from, 4);
  EXPECT_EQ(topology.link(8).to, 6);
  EXPECT_EQ(topology.spec(), "tinytree");
  EXPECT_EQ(topology.kind_name(), "tinytree");
}

TEST(GraphMachine, RouteWeightedSplitsOverThePaths) {
  const Topology topology = testing::tiny_tree(0.25);
  std::map<LinkId, double> weight;
  double length = 0;
  topology.route_weighted(0, 3, [&](LinkId link, double w) {
    weight[link] += w;
    length += w;
  });
  // 0 -> leaf0 -> root0 (1/4) or root1 (3/4) -> leaf1 -> 3.
  EXPECT_EQ(weight, (std::map<LinkId, double>{
                        {0, 1.0}, {8, 0.25}, {10, 0.75}, {13, 0.25}, {15, 0.75}, {7, 1.0}}));
  EXPECT_DOUBLE_EQ(length, 4.0);
}

TEST(GraphMachine, GridOnlyConsumersAreRefusedByName) {
  const Topology topology = testing::tiny_tree();
  try {
    topology.require_grid("allocator 'mc'");
    FAIL() << "a graph machine passed require_grid";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(),
                 "allocator 'mc' works on grids (mesh, torus, semitorus) only; machine "
                 "'tinytree' is a tinytree");
  }
  EXPECT_NO_THROW(Topology::parse("mesh:4x4").require_grid("allocator 'mc'"));
  EXPECT_THROW(topology.route(0, 3, [](LinkId) {}), std::logic_error);
}

}  // namespace
}  // namespace allocsim
