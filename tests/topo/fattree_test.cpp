// Fat trees (issue 26, item 3): fattree:k=4 and a 2-level 2:1 XGFT, worked by hand.
//
// fattree:k=4 = XGFT(3; M = 2, 2, 4; W = 1, 2, 2) (topo/fattree.hpp). Hosts d = 0 .. 15, pod
// d / 4, edge switch d / 2. Vertex ids: hosts 0 .. 15, edge switches 16 .. 23 (edge x: hosts
// 2x, 2x + 1; pod x / 2), aggregation 24 .. 31 (agg y = b2 + 2·pod), core 32 .. 35 (core
// b2 + 2·b3: joined to agg b2 of every pod). Links: host d injection 2d, ejection 2d + 1
// (0 .. 31); edge x up to its parent choice c (agg c + 2·pod): 32 + 2(2x + c), the down link
// back + 1 (32 .. 63); agg y up to choice c (core b2 + 2c): 64 + 2(2y + c), down back + 1
// (64 .. 95): 96 links.
//
// D-mod-k on it: edge up choice d mod W2 = d mod 2, agg up choice ⌊d / (W1·W2)⌋ mod W3 =
// ⌊d / 2⌋ mod 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "allocsim/network/flow_model.hpp"
#include "allocsim/topo/fattree.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

const FatTree& fat_tree(const Topology& topology) {
  return dynamic_cast<const FatTree&>(*topology.graph());
}

/// The paths of a route with their weights, in visiting order.
std::vector<std::pair<std::vector<LinkId>, double>> paths(const Topology& t, NodeId a, NodeId b) {
  std::vector<std::pair<std::vector<LinkId>, double>> out;
  t.graph()->for_each_path(a, b, [&](std::span<const LinkId> path, double weight) {
    out.emplace_back(std::vector<LinkId>(path.begin(), path.end()), weight);
  });
  return out;
}

std::map<LinkId, double> link_weights(const Topology& t, NodeId a, NodeId b) {
  std::map<LinkId, double> weights;
  t.route_weighted(a, b, [&](LinkId link, double w) { weights[link] += w; });
  return weights;
}

TEST(FatTree, KFourCounts) {
  const Topology t = Topology::parse("fattree:k=4");
  const FatTree& tree = fat_tree(t);
  // k³/4 = 16 hosts, 5k²/4 = 20 switches: 8 edge, 8 aggregation, 4 core.
  EXPECT_EQ(t.node_count(), 16);
  EXPECT_EQ(tree.router_count(), 20);
  EXPECT_EQ(tree.levels(), 3);
  EXPECT_EQ(tree.level_size(1), 8);
  EXPECT_EQ(tree.level_size(2), 8);
  EXPECT_EQ(tree.level_size(3), 4);
  EXPECT_EQ(t.link_count(), 96);
  EXPECT_EQ(tree.group_count(), 4);
  EXPECT_EQ(tree.group_word(), "pod");
  EXPECT_EQ(tree.pod_of(5), 1);
  EXPECT_EQ(tree.pod_of(15), 3);
  EXPECT_EQ(tree.leaf_of(5), 18);  // edge 2
  EXPECT_EQ(tree.router_name(18), "edge2");
  EXPECT_EQ(tree.router_name(24), "agg0");
  EXPECT_EQ(tree.router_name(35), "core3");
  EXPECT_EQ(tree.level_of(3), 0);
  EXPECT_EQ(tree.level_of(23), 1);
  EXPECT_EQ(tree.level_of(24), 2);
  EXPECT_EQ(tree.level_of(35), 3);
  // Edge 0 (pod 0): parents agg 0, 1. Agg 0: parents core 0 and core 0 + 2 = 2; its children
  // edge 0, 1. Core 0: children agg 0 of every pod: 24, 26, 28, 30.
  EXPECT_EQ(tree.parent(16, 1), 25);
  EXPECT_EQ(tree.parent(24, 1), 34);
  EXPECT_EQ(tree.child(24, 1), 17);
  EXPECT_EQ(tree.child(32, 1), 26);
  EXPECT_EQ(tree.child(32, 3), 30);
  EXPECT_EQ(tree.child(17, 1), 3);  // edge 1's second host
  EXPECT_EQ(tree.parent_count(35), 0);
  EXPECT_EQ(tree.child_count(35), 4);
  // Link 32 is edge 0 -> agg 0 (up), 33 back (down).
  EXPECT_EQ(tree.links()[32], (GraphLink{16, 24, 1, LinkClass::up}));
  EXPECT_EQ(tree.links()[33], (GraphLink{24, 16, 1, LinkClass::down}));
  // Distances: one edge 2, one pod 4, across pods 6.
  EXPECT_EQ(t.distance(0, 1), 2);
  EXPECT_EQ(t.distance(0, 3), 4);
  EXPECT_EQ(t.distance(0, 4), 6);
  EXPECT_EQ(t.distance(9, 9), 0);
  // k = 2: XGFT(3; 1, 1, 2; 1, 1, 1): 2 hosts, 2 + 2 + 1 = 5 switches (5k²/4).
  const Topology two = Topology::parse("fattree:k=2");
  EXPECT_EQ(two.node_count(), 2);
  EXPECT_EQ(two.graph()->router_count(), 5);
}

TEST(FatTree, DModKPortChoices) {
  const Topology t = Topology::parse("fattree:k=4");
  const FatTree& tree = fat_tree(t);
  // (d mod 2, ⌊d/2⌋ mod 2): the four hosts of a pod take the four cores.
  const std::vector<std::array<int, 3>> choices{{4, 0, 0},  {5, 1, 0},  {6, 0, 1}, {7, 1, 1},
                                                {12, 0, 0}, {13, 1, 0}, {14, 0, 1}};
  for (const auto& [d, edge, agg] : choices) {
    EXPECT_EQ(tree.dmodk_choice(1, d), edge) << d;
    EXPECT_EQ(tree.dmodk_choice(2, d), agg) << d;
  }
  // 0 -> 4: injection 0; edge 0 up choice 0 to agg 0: 32; agg 0 up choice 0 to core 0: 64;
  // core 0 down to pod 1's agg 0 (agg 2): 64 + 2(2·2 + 0) + 1 = 73; agg 2 down to edge 2:
  // 32 + 2(2·2 + 0) + 1 = 41; ejection of 4: 9.
  EXPECT_EQ(paths(t, 0, 4),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{0, 32, 64, 73, 41, 9}, 1.0}}));
  // 0 -> 7: choices 1, 1: edge 0 -> agg 1: 34; agg 1 -> core 1 + 2 = 3: 64 + 2(2 + 1) = 70;
  // core 3 -> agg 3 (pod 1, b2 = 1): 64 + 2(6 + 1) + 1 = 79; agg 3 -> edge 3:
  // 32 + 2(6 + 1) + 1 = 47; ejection 15.
  EXPECT_EQ(paths(t, 0, 7),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{0, 34, 70, 79, 47, 15}, 1.0}}));
  // 1 -> 6: choices 0, 1: edge 0 -> agg 0: 32; agg 0 -> core 2: 66; core 2 -> agg 2
  // (b3 = 1): 64 + 2(4 + 1) + 1 = 75; agg 2 -> edge 3: 32 + 2(6 + 0) + 1 = 45; ejection 13.
  EXPECT_EQ(paths(t, 1, 6),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{2, 32, 66, 75, 45, 13}, 1.0}}));
  // Within pod 0: 0 -> 3 (choice 3 mod 2 = 1): edge 0 -> agg 1: 34; agg 1 -> edge 1:
  // 32 + 2(2 + 1) + 1 = 39; ejection 7.
  EXPECT_EQ(paths(t, 0, 3),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{0, 34, 39, 7}, 1.0}}));
  // One edge switch: injection, ejection.
  EXPECT_EQ(paths(t, 1, 0), (std::vector<std::pair<std::vector<LinkId>, double>>{{{2, 1}, 1.0}}));
  EXPECT_TRUE(paths(t, 5, 5).empty());
}

TEST(FatTree, EcmpSplitsEvenlyOverTheCorePaths) {
  const Topology t = Topology::parse("fattree:k=4,routing=ecmp");
  // 0 -> 4: four paths (2 aggs × 2 cores), each 1/4. Up: 32, 34 (1/2 each); agg b2 up to core
  // b2 + 2b3: agg 0: 64, 66; agg 1: 68, 70 (1/4 each); core down to pod 1's agg b2 (agg 2 + b2):
  // 64 + 2(2(2 + b2) + b3) + 1: 73, 75, 77, 79 (1/4 each); agg 2 + b2 down to edge 2:
  // 32 + 2(4 + b2) + 1: 41, 43 (1/2 each).
  const auto found = paths(t, 0, 4);
  ASSERT_EQ(found.size(), 4u);
  for (const auto& [path, weight] : found) {
    EXPECT_DOUBLE_EQ(weight, 0.25);
    EXPECT_EQ(path.size(), 6u);
  }
  EXPECT_EQ(found[0].first, (std::vector<LinkId>{0, 32, 64, 73, 41, 9}));
  EXPECT_EQ(link_weights(t, 0, 4), (std::map<LinkId, double>{{0, 1},
                                                             {32, 0.5},
                                                             {34, 0.5},
                                                             {64, 0.25},
                                                             {66, 0.25},
                                                             {68, 0.25},
                                                             {70, 0.25},
                                                             {73, 0.25},
                                                             {75, 0.25},
                                                             {77, 0.25},
                                                             {79, 0.25},
                                                             {41, 0.5},
                                                             {43, 0.5},
                                                             {9, 1}}));
  // Within a pod: two paths of 1/2 (through agg 0 and agg 1): 0 -> 2 (edge 1).
  EXPECT_EQ(link_weights(t, 0, 2),
            (std::map<LinkId, double>{{0, 1}, {32, 0.5}, {34, 0.5}, {37, 0.5}, {39, 0.5}, {5, 1}}));
  EXPECT_EQ(t.graph()->routing_description().find("ECMP") != std::string::npos, true);
}

TEST(FatTree, TwoLevelsOversubscribedTwoToOne) {
  // down=4x3,up=1x2: M = (4, 3), W = (1, 2): 3 leaves of 4 hosts (vertices 12, 13, 14), 2 spines
  // (15, 16), each leaf 4 hosts down and 2 spines up (2:1). Links: 24 injection/ejection, then
  // leaf x up to spine c: 24 + 2(2x + c), down back + 1: 36 links. Pods: the leaves.
  const Topology t = Topology::parse("fattree:down=4x3,up=1x2");
  const FatTree& tree = fat_tree(t);
  EXPECT_EQ(t.node_count(), 12);
  EXPECT_EQ(tree.router_count(), 5);
  EXPECT_EQ(t.link_count(), 36);
  EXPECT_EQ(tree.group_count(), 3);
  EXPECT_EQ(tree.group_of(7), 1);
  EXPECT_EQ(tree.router_name(15), "l2s0");
  EXPECT_EQ(tree.links()[26], (GraphLink{12, 16, 1, LinkClass::up}));
  EXPECT_EQ(t.distance(0, 3), 2);
  EXPECT_EQ(t.distance(0, 11), 4);
  // D-mod-k: spine d mod 2. 0 -> 4: leaf 0 -> spine 0: 24; spine 0 -> leaf 1: 24 + 2·2 + 1 =
  // 29; ejection 9. 1 -> 5: spine 1: 26, 31, ejection 11.
  EXPECT_EQ(paths(t, 0, 4),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{0, 24, 29, 9}, 1.0}}));
  EXPECT_EQ(paths(t, 1, 5),
            (std::vector<std::pair<std::vector<LinkId>, double>>{{{2, 26, 31, 11}, 1.0}}));
}

TEST(FatTree, SpecsRoundTrip) {
  for (const std::string spec :
       {"fattree:k=4", "fattree:k=4,routing=ecmp", "fattree:down=4x3,up=1x2",
        "fattree:down=24x36,up=1x12,routing=ecmp", "fattree:down=8,up=1"}) {
    const Topology t = Topology::parse(spec);
    EXPECT_EQ(t.spec(), spec);
    EXPECT_TRUE(Topology::parse(t.spec()) == t) << spec;
  }
  // Defaults and key order do not change the canonical spec; the k form stays the k form.
  EXPECT_EQ(Topology::parse("fattree:routing=dmodk,k=8").spec(), "fattree:k=8");
  EXPECT_EQ(Topology::parse("fattree:up=1x12,down=24x36").spec(), "fattree:down=24x36,up=1x12");
  EXPECT_EQ(Topology::parse("fattree:k=4").kind_name(), "fattree");
  // One level: a single switch, one pod.
  const Topology one = Topology::parse("fattree:down=8,up=1");
  EXPECT_EQ(one.node_count(), 8);
  EXPECT_EQ(one.graph()->router_count(), 1);
  EXPECT_EQ(one.graph()->group_count(), 1);
  EXPECT_EQ(one.distance(0, 7), 2);
}

TEST(FatTree, BadSpecsAreRefusedWithTheReason) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"fattree:k=3", "k=3 must be even"},
      {"fattree:k=4,down=2x2,up=1x2", "either k=K or down= and up=, not both"},
      {"fattree:routing=ecmp", "needs k=K"},
      {"fattree:down=2x2", "down= needs up= too"},
      {"fattree:up=1x2", "up= needs down= too"},
      {"fattree:down=2x2,up=1x2x2", "down=2x2 has 2 levels but up=1x2x2 has 3"},
      {"fattree:down=2x0,up=1x2", "'0' is not a positive integer"},
      {"fattree:down=2xa,up=1x2", "'a' is not a positive integer"},
      {"fattree:down=2x2,up=1x", "'' is not a positive integer"},
      {"fattree:down=2x2,up=2x2", "must be 1: every host attaches to exactly one leaf switch"},
      {"fattree:down=2x2x2x2x2x2x2x2x2,up=1x1x1x1x1x1x1x1x1", "at most 8 are supported"},
      {"fattree:down=1000x1000x11,up=1x1x1", "11000000 hosts"},
      {"fattree:down=100000x100000,up=1x1,allow_large=1", "must fit an int"},
      {"fattree:k=4,routing=smodk", "smodk"},
  };
  for (const auto& [spec, expected] : cases) {
    try {
      Topology::parse(spec);
      ADD_FAILURE() << spec << " was accepted";
    } catch (const InputError& error) {
      const std::string what = error.what();
      EXPECT_NE(what.find(expected), std::string::npos) << spec << ": " << what;
      EXPECT_NE(what.find("bad machine '" + spec + "'"), std::string::npos) << what;
    }
  }
}

/// Rates of flows (one per job, reference rate 1, capacity 1, comm = 1: slowdown = 1 / rate),
/// each flow's loads from route_weighted.
std::vector<double> slowdowns(const Topology& t,
                              const std::vector<std::pair<NodeId, NodeId>>& flows) {
  FlowNetwork network(t, 1.0);
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const auto weights = link_weights(t, flows[i].first, flows[i].second);
    const std::vector<std::pair<LinkId, double>> loads(weights.begin(), weights.end());
    network.add_job(static_cast<FlowNetwork::JobKey>(i), loads, 1.0);
  }
  network.solve();
  std::vector<double> out;
  for (std::size_t i = 0; i < flows.size(); ++i)
    out.push_back(network.rate(static_cast<FlowNetwork::JobKey>(i)).comm_slowdown);
  return out;
}

TEST(FatTree, ContentionUnderDModKAndEcmp) {
  // Case 1, fattree:k=4: 0 -> 4 and 1 -> 6, both from edge 0, destinations with d mod 2 = 0.
  // D-mod-k: both take up link 32 (edge 0 -> agg 0) and nothing else in common (paths above:
  // {0, 32, 64, 73, 41, 9} and {2, 32, 66, 75, 45, 13}): rate 1/2 each, slowdown 2. ECMP: each
  // puts 1/2 on 32 and 34, 1/4 on each core link; the sums are at most 1/2 + 1/2 = 1 on 32 and
  // 34: both at rate 1.
  const std::vector<std::pair<NodeId, NodeId>> two{{0, 4}, {1, 6}};
  EXPECT_EQ(slowdowns(Topology::parse("fattree:k=4"), two), (std::vector<double>{2, 2}));
  EXPECT_EQ(slowdowns(Topology::parse("fattree:k=4,routing=ecmp"), two),
            (std::vector<double>{1, 1}));
  // Case 2, the 2:1 tree down=4x3,up=1x2: 0 -> 4, 1 -> 5, 2 -> 6 from leaf 0 to leaf 1.
  // D-mod-k: spines 4 mod 2 = 0, 1, 0: flows to 4 and 6 share up link 24 and down link 29 at
  // 1/2 each; the flow to 5 is alone on 26, 31: rate 1. ECMP: each flow puts 1/2 on both up
  // links 24, 26: 3 · r / 2 ≤ 1, r = 2/3 each, slowdown 3/2.
  const std::vector<std::pair<NodeId, NodeId>> three{{0, 4}, {1, 5}, {2, 6}};
  EXPECT_EQ(slowdowns(Topology::parse("fattree:down=4x3,up=1x2"), three),
            (std::vector<double>{2, 1, 2}));
  const auto ecmp = slowdowns(Topology::parse("fattree:down=4x3,up=1x2,routing=ecmp"), three);
  ASSERT_EQ(ecmp.size(), 3u);
  for (double s : ecmp) EXPECT_DOUBLE_EQ(s, 1.5);
}

}  // namespace
}  // namespace allocsim

namespace allocsim {
namespace {

/// Breadth-first search over the machine's links from vertex `from`: hop counts and the number
/// of shortest paths to every vertex (an independent check of distance() and of ECMP's path
/// count).
void shortest_paths(const GraphMachine& g, VertexId from, std::vector<int>& hops,
                    std::vector<double>& count) {
  hops.assign(static_cast<std::size_t>(g.vertex_count()), -1);
  count.assign(static_cast<std::size_t>(g.vertex_count()), 0);
  std::vector<VertexId> queue{from};
  hops[from] = 0;
  count[from] = 1;
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const VertexId v = queue[i];
    for (LinkId id : g.out_links(v)) {
      const VertexId w = g.links()[id].to;
      // Hosts are endpoints only: no route passes through one.
      if (hops[w] == -1) {
        hops[w] = hops[v] + 1;
        if (w >= g.node_count()) queue.push_back(w);
      }
      if (hops[w] == hops[v] + 1) count[w] += count[v];
    }
  }
}

TEST(FatTree, EveryRouteIsAShortestUpDownPathAndEcmpTakesThemAll) {
  for (const std::string spec :
       {"fattree:k=4", "fattree:k=6,routing=ecmp", "fattree:down=3x2x3,up=1x2x3",
        "fattree:down=3x2x3,up=1x2x3,routing=ecmp", "fattree:down=2x3,up=1x4,routing=ecmp",
        "fattree:down=2x2x2x2,up=1x2x1x3,routing=ecmp"}) {
    const Topology t = Topology::parse(spec);
    const auto& g = dynamic_cast<const FatTree&>(*t.graph());
    const bool ecmp = g.routing() == FatTree::Routing::ecmp;
    std::vector<int> hops;
    std::vector<double> count;
    for (NodeId a = 0; a < g.node_count(); ++a) {
      shortest_paths(g, a, hops, count);
      for (NodeId b = 0; b < g.node_count(); ++b) {
        if (a == b) continue;
        const auto found = paths(t, a, b);
        EXPECT_EQ(g.distance(a, b), hops[b]) << spec << " " << a << "->" << b;
        double total = 0;
        std::set<std::vector<LinkId>> distinct;
        for (const auto& [path, weight] : found) {
          total += weight;
          distinct.insert(path);
          ASSERT_EQ(static_cast<int>(path.size()), hops[b]) << spec << " " << a << "->" << b;
          EXPECT_EQ(path.front(), g.injection_link(a));
          EXPECT_EQ(path.back(), g.ejection_link(b));
          for (std::size_t i = 0; i + 1 < path.size(); ++i)
            EXPECT_EQ(g.links()[path[i]].to, g.links()[path[i + 1]].from) << spec;
        }
        EXPECT_NEAR(total, 1.0, 1e-12);
        EXPECT_EQ(distinct.size(), found.size());
        EXPECT_EQ(static_cast<double>(found.size()), ecmp ? count[b] : 1.0)
            << spec << " " << a << "->" << b;
        // The middle of the route depends only on (router_of(a), b): same as from the first
        // host of a's leaf.
        const NodeId first = g.nodes_of(g.router_of(a))[0];
        if (first != b) {
          const auto other = paths(t, first, b);
          ASSERT_EQ(other.size(), found.size());
          for (std::size_t p = 0; p < found.size(); ++p)
            EXPECT_TRUE(std::equal(found[p].first.begin() + 1, found[p].first.end(),
                                   other[p].first.begin() + 1))
                << spec;
        }
      }
    }
  }
}

}  // namespace
}  // namespace allocsim
