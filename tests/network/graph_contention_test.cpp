// Flow rates on hand-made contention cases on a Slurm topology file and on a grid with several
// nodes per router (issue 26, "flow rates on two hand-made contention cases per topology"; the
// dragonfly's and fat tree's are in tests/topo/dragonfly_test.cpp and fattree_test.cpp). Each
// job is one flow (comm = 1, reference rate 1, capacities 1), so its communication slowdown is
// 1 / its max-min fair rate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <utility>
#include <vector>

#include "allocsim/network/flow_model.hpp"
#include "allocsim/topo/topology.hpp"

namespace allocsim {
namespace {

std::vector<double> slowdowns(const Topology& t,
                              const std::vector<std::pair<NodeId, NodeId>>& flows) {
  FlowNetwork network(t, 1.0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    std::map<LinkId, double> weights;
    t.route_weighted(flows[i].first, flows[i].second,
                     [&](LinkId link, double weight) { weights[link] += weight; });
    const std::vector<std::pair<LinkId, double>> loads(weights.begin(), weights.end());
    network.add_job(static_cast<FlowNetwork::JobKey>(i), loads, 1.0);
  }
  network.solve();
  std::vector<double> result;
  for (std::size_t i = 0; i < flows.size(); ++i)
    result.push_back(network.rate(static_cast<FlowNetwork::JobKey>(i)).comm_slowdown);
  return result;
}

TEST(GraphContention, SlurmTreeSharesTheUpAndDownLinksOfItsSwitches) {
  // s0 holds tux0-3 (ids 0-3), s1 tux4-7 (ids 4-7), s2 joins them.
  const auto path = std::filesystem::temp_directory_path() / "allocsim_contention.conf";
  std::ofstream(path) << "SwitchName=s0 Nodes=tux[0-3]\nSwitchName=s1 Nodes=tux[4-7]\n"
                         "SwitchName=s2 Switches=s[0-1]\n";
  const Topology tree = Topology::parse("slurm-topology:" + path.string());
  std::filesystem::remove(path);
  // Case 1: 0 -> 4 and 1 -> 5 both climb s0 -> s2 and come down s2 -> s1: half the link each,
  // slowdown 2; 2 -> 3 stays under s0 (injection of 2, ejection of 3): alone, slowdown 1.
  EXPECT_EQ(slowdowns(tree, {{0, 4}, {1, 5}, {2, 3}}), (std::vector<double>{2, 2, 1}));
  // Case 2: 0 -> 4 and 4 -> 0 use the same cables in opposite directions (directed links):
  // no sharing. 0 -> 1 and 2 -> 1 share node 1's ejection link: slowdown 2 each.
  EXPECT_EQ(slowdowns(tree, {{0, 4}, {4, 0}}), (std::vector<double>{1, 1}));
  EXPECT_EQ(slowdowns(tree, {{0, 1}, {2, 1}}), (std::vector<double>{2, 2}));
}

TEST(GraphContention, SeveralNodesPerRouterShareTheRoutersLinks) {
  // torus:4x4:per_router=2: nodes 2r and 2r + 1 on router r; router 0 is (0,0), router 1 is
  // (1,0), router 2 is (2,0).
  const Topology torus = Topology::parse("torus:4x4:per_router=2");
  // Case 1: 0 -> 2 and 1 -> 3: both from router 0 to router 1 on its one + link along x: 1/2
  // each, slowdown 2.
  EXPECT_EQ(slowdowns(torus, {{0, 2}, {1, 3}}), (std::vector<double>{2, 2}));
  // Case 2: 0 -> 2 (router 0 -> 1) and 2 -> 4 (router 1 -> 2): different router links and
  // different node links (node 2 ejects the first and injects the second): slowdown 1 each.
  EXPECT_EQ(slowdowns(torus, {{0, 2}, {2, 4}}), (std::vector<double>{1, 1}));
}

}  // namespace
}  // namespace allocsim
