// The network layer on graph machines (issue 26): flow rates on hand-made contention cases of the
// tiny tree (tests/testing/tiny_graph.hpp: weighted split, capacities), adaptive re-routing,
// hop-bytes and link loads by hand, the distance model, and the grid-only models' refusals.
//
// Tiny tree link ids: node i injection 2i, ejection 2i+1; leaf l -> root r up 8 + 4l + 2r,
// root r -> leaf l down 9 + 4l + 2r. Nodes 0, 1 on leaf0; 2, 3 on leaf1.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "allocsim/metrics/hop_bytes.hpp"
#include "allocsim/network/flow_model.hpp"
#include "allocsim/network/wormhole.hpp"
#include "allocsim/sim/network_runtime.hpp"
#include "allocsim/util/error.hpp"
#include "testing/tiny_graph.hpp"

using namespace allocsim;

namespace {

/// Two jobs across the leaves, {0, 2} and {1, 3}: each alone uses its own injection and
/// ejection links (load 1 each way) and shares every up and down link with the other.
void add_crossing_jobs(FlowNetwork& network) {
  network.add_job(0, std::vector<NodeId>{0, 2});
  network.add_job(1, std::vector<NodeId>{1, 3});
  network.solve();
}

}  // namespace

TEST(GraphFlow, WeightedSplitSetsTheContention) {
  // Split 0.75 / 0.25: 0 -> 2 puts 0.75 on up link 8 (leaf0 -> root0), and so does 1 -> 3.
  // Reference of 2 nodes: {0, 1} on leaf0, loads 1 on four injection/ejection links: r_ref = 1.
  // Together: 0.75 r + 0.75 r <= 1 on link 8 (its capacity 1), the tightest constraint (the
  // private injection links allow r <= 1): r = 1 / 1.5 = 2/3, s = r_ref / r = 1.5, progress at
  // comm 0.5 = 1 / (0.5 + 0.5 · 1.5) = 0.8.
  const Topology tree = allocsim::testing::tiny_tree(0.75);
  FlowNetwork network(tree, 0.5);
  EXPECT_DOUBLE_EQ(network.reference_rate(2), 1.0);
  add_crossing_jobs(network);
  for (int job : {0, 1}) {
    EXPECT_DOUBLE_EQ(network.rate(job).comm_slowdown, 1.5) << job;
    EXPECT_DOUBLE_EQ(network.rate(job).progress, 0.8) << job;
  }
  // The even split: 0.5 + 0.5 = 1 on every up link, no tighter than the injection links: s = 1.
  const Topology even = allocsim::testing::tiny_tree(0.5);
  FlowNetwork even_network(even, 0.5);
  add_crossing_jobs(even_network);
  EXPECT_DOUBLE_EQ(even_network.rate(0).comm_slowdown, 1.0);
  EXPECT_DOUBLE_EQ(even_network.rate(1).comm_slowdown, 1.0);
}

TEST(GraphFlow, LinkCapacitiesScaleTheLoads) {
  // Up and down links of capacity 0.25, even split: 0 -> 2 puts 0.5 messages on link 8, i.e.
  // 0.5 / 0.25 = 2 at unit capacity. Alone: r <= 1 / 2, s = 1 / (1/2) = 2 (reference {0, 1}
  // crosses no up link: r_ref = 1). Both jobs: 2 r + 2 r <= 1, r = 1/4, s = 4, progress at
  // comm 0.5 = 1 / (0.5 + 2) = 0.4.
  const Topology tree = allocsim::testing::tiny_tree(0.5, 0.25);
  FlowNetwork alone(tree, 0.5);
  alone.add_job(0, std::vector<NodeId>{0, 2});
  alone.solve();
  EXPECT_DOUBLE_EQ(alone.rate(0).comm_slowdown, 2.0);
  FlowNetwork network(tree, 0.5);
  add_crossing_jobs(network);
  for (int job : {0, 1}) {
    EXPECT_DOUBLE_EQ(network.rate(job).comm_slowdown, 4.0) << job;
    EXPECT_DOUBLE_EQ(network.rate(job).progress, 0.4) << job;
  }
  // Utilization: each up/down link carries 4 r = 1 of its capacity while both communicate,
  // which they do comm·s / ((1 − comm) + comm·s) = 2 / 2.5 = 0.8 of the time: max 0.8.
  EXPECT_DOUBLE_EQ(network.utilization().max, 0.8);
}

TEST(GraphFlow, MeanPacingLoadIsNormalisedLoadOverAllLinks) {
  // Job {0, 2} with up capacity 0.25: four injection/ejection links at 1, eight up/down links
  // at 0.5 / 0.25 = 2: Σ w / c = 4 + 16 = 20 over the tree's 16 links = 1.25.
  const Topology tree = allocsim::testing::tiny_tree(0.5, 0.25);
  FlowNetwork network(tree, 0.5, 1, FlowLoad::mean);
  std::vector<std::pair<LinkId, double>> raw;
  for (const LoadedLink& l : all_to_all_link_loads(tree, std::vector<NodeId>{0, 2}))
    raw.emplace_back(l.link, l.load);
  EXPECT_DOUBLE_EQ(network.pacing_load(raw), 1.25);
  // Max form: the busiest link at unit capacity, 2.
  FlowNetwork max_network(tree, 0.5);
  EXPECT_DOUBLE_EQ(max_network.pacing_load(raw), 2.0);
}

TEST(GraphFlow, ReferenceAllocationIsTheFirstNodesInIdOrder) {
  const Topology tree = allocsim::testing::tiny_tree();
  EXPECT_EQ(reference_compact_nodes(tree, 3), (std::vector<NodeId>{0, 1, 2}));
}

namespace {

/// The tiny tree with adaptive routing: a pair across leaves takes root0 unless the source
/// leaf's up link to root0 is more loaded than its up link to root1 in the view (then root1).
class AdaptiveTree final : public allocsim::testing::TinyTree {
 public:
  std::string spec() const override { return "adaptivetree"; }
  std::string kind_name() const override { return "adaptivetree"; }
  bool adaptive() const override { return true; }
  void for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads) const override {
    if (a == b) return;
    const int la = group_of(a), lb = group_of(b);
    if (la == lb) {
      const std::array<LinkId, 2> path{2 * a, 2 * b + 1};
      visit(path, 1.0);
      return;
    }
    const int root = !loads.empty() && loads[8 + 4 * la] > loads[10 + 4 * la] ? 1 : 0;
    const std::array<LinkId, 4> path{2 * a, 8 + 4 * la + 2 * root, 9 + 4 * lb + 2 * root,
                                     2 * b + 1};
    visit(path, 1.0);
  }
  std::string routing_description() const override { return "the less loaded root"; }
};

}  // namespace

TEST(GraphFlow, AdaptiveRoutingAvoidsTheOtherJobsLinks) {
  // Job 0 {0, 2} alone routes minimally (root0). Job 1 {1, 3} starts seeing job 0's load 1 on
  // link 8 (leaf0 -> root0) and 0 on link 10: it takes root1; re-routed at solve() in key order,
  // job 0 sees job 1 on root1 and keeps root0, job 1 sees job 0 on root0 and keeps root1. No
  // shared link: each runs at its injection links' rate 1, s = 1. With both on root0 (oblivious
  // tree, root0 share 1) link 8 carries 1 + 1: r = 1/2, s = 2.
  const Topology adaptive = Topology::graph(std::make_shared<const AdaptiveTree>());
  FlowNetwork network(adaptive, 0.5);
  add_crossing_jobs(network);
  EXPECT_DOUBLE_EQ(network.rate(0).comm_slowdown, 1.0);
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 1.0);
  const LinkLoadView others = network.link_load_view(1);  // job 0's loads: root0's links
  ASSERT_EQ(others.size(), 16u);
  EXPECT_EQ(others[8], 1.0);
  EXPECT_EQ(others[10], 0.0);
  const Topology oblivious = allocsim::testing::tiny_tree(1.0);
  FlowNetwork fixed(oblivious, 0.5);
  add_crossing_jobs(fixed);
  EXPECT_DOUBLE_EQ(fixed.rate(0).comm_slowdown, 2.0);
  // An oblivious machine has no view.
  EXPECT_TRUE(fixed.link_load_view(0).empty());
}

TEST(GraphMetrics, HopBytesAndLinkLoadOnTheTinyTreeByHand) {
  // Two tasks, one edge of 10 bytes. Across leaves every path is 4 links: hop-bytes 40, hops
  // per byte 4; on one leaf 2 links: 20.
  const std::vector<std::int64_t> offsets{0, 1, 2};
  const std::vector<std::int32_t> targets{1, 0};
  const std::vector<double> bytes{10, 10};
  const CommGraphView graph{offsets, targets, bytes, 10};
  const Topology tree = allocsim::testing::tiny_tree(0.75, 0.25);
  const HopBytes across = hop_bytes(graph, tree, std::vector<NodeId>{0, 2});
  EXPECT_DOUBLE_EQ(across.hop_bytes, 40);
  EXPECT_DOUBLE_EQ(across.hops_per_byte(), 4);
  EXPECT_DOUBLE_EQ(hop_bytes(graph, tree, std::vector<NodeId>{0, 1}).hop_bytes, 20);
  // Link loads, 5 bytes each way: injection/ejection links of 0 and 2 carry 5 (capacity 1);
  // 0 -> 2 puts 5 · 0.75 = 3.75 on up 8 and down 13, 1.25 on up 10 and down 15, at capacity
  // 0.25: 15, 15, 5, 5; 2 -> 0 the same on 12, 9, 14, 11. Max 15; sum 4·5 + 2·40 = 100 over
  // 16 links = 6.25, over the 12 used = 100 / 12.
  const LinkLoad load = link_load(graph, tree, std::vector<NodeId>{0, 2});
  EXPECT_DOUBLE_EQ(load.max, 15);
  EXPECT_EQ(load.used_links, 12);
  EXPECT_EQ(load.machine_links, 16);
  EXPECT_DOUBLE_EQ(load.mean, 6.25);
  EXPECT_DOUBLE_EQ(load.mean_used, 100.0 / 12);
}

TEST(GraphMetrics, GridHopBytesIsTheSumOfRoutedLinkBytes) {
  // The grid fast path (bytes · distance) equals the sum of route_task_graph's link bytes; on
  // flat a pair is 1 hop (distance) but its route lists 2 links (injection, ejection).
  std::mt19937 rng(5);
  for (const char* spec : {"mesh:5x4", "torus:4x4x3", "torus:6x3:wrap=10", "flat:7"}) {
    const Topology t = Topology::parse(spec);
    std::vector<std::int64_t> offsets{0};
    std::vector<std::int32_t> targets;
    std::vector<double> bytes;
    const int tasks = 9;
    std::vector<std::vector<std::pair<int, double>>> adjacency(tasks);
    for (int u = 0; u < tasks; ++u)
      for (int v = u + 1; v < tasks; ++v)
        if (rng() % 2) {
          const double b = 1 + static_cast<double>(rng() % 64);
          adjacency[u].emplace_back(v, b);
          adjacency[v].emplace_back(u, b);
        }
    for (const auto& edges : adjacency) {
      for (const auto& [v, b] : edges) {
        targets.push_back(v);
        bytes.push_back(b);
      }
      offsets.push_back(static_cast<std::int64_t>(targets.size()));
    }
    std::vector<NodeId> placement(tasks);
    for (NodeId& node : placement)
      node = std::uniform_int_distribution<NodeId>(0, t.node_count() - 1)(rng);
    const CommGraphView graph{offsets, targets, bytes, 0};
    LinkLoadScratch scratch;
    double routed = 0;
    for (const auto& [link, b] : route_task_graph(t, graph, placement, scratch)) routed += b;
    const double links_per_hop = t.fully_connected() ? 2 : 1;
    EXPECT_DOUBLE_EQ(hop_bytes(graph, t, placement).hop_bytes * links_per_hop, routed) << spec;
  }
}

TEST(GraphModels, DistanceModelUsesGraphDistances) {
  // Job of 2 processors on {0, 2}: H = 4 links; the reference {0, 1}: H0 = 2. With a = 1,
  // e = 1, T = 30: 30 · (1 + 4) / (1 + 2) = 50.
  const Topology tree = allocsim::testing::tiny_tree();
  const auto model = make_distance_runtime({1.0, 1.0});
  Job job;
  job.runtime = 30;
  job.procs = 2;
  Allocation allocation;
  allocation.nodes = {0, 2};
  EXPECT_DOUBLE_EQ(model->runtime(job, allocation, tree), 50);
}

TEST(GraphModels, GridOnlyModelsRefuseGraphs) {
  const Topology tree = allocsim::testing::tiny_tree();
  const auto expect_refusal = [&](auto&& call, const std::string& who) {
    try {
      call();
      FAIL() << who << " accepted a graph machine";
    } catch (const InputError& error) {
      EXPECT_EQ(std::string(error.what()),
                who +
                    " works on grids (mesh, torus, semitorus) only; machine 'tinytree' is a "
                    "tinytree");
    }
  };
  expect_refusal([&] { WormholeNetwork network(tree, WormholeParams{}); },
                 "runtime model 'wormhole'");
  const std::vector<Job> jobs(1);
  const auto wormhole = make_wormhole_runtime(WormholeRuntimeParams{});
  expect_refusal([&] { wormhole->check_size(tree, jobs); }, "runtime model 'wormhole'");
  const auto switched = make_flow_runtime(0.5, 1, FlowLoad::max, true);
  expect_refusal([&] { switched->check_size(tree, jobs); },
                 "runtime model 'flow' with switch=first");
  // The flow model without switches accepts graphs.
  EXPECT_NO_THROW(make_flow_runtime(0.5)->check_size(tree, jobs));
}
