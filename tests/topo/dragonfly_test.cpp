// The dragonfly machine (topo/dragonfly.hpp): exact small cases derived by hand, the three
// global-link arrangements re-derived here from their definitions, routing properties on every
// pair, UGAL's choice, spec round trips, refusals and two flow-model contention cases.
//
// Numbering used by the hand derivations (dragonfly.hpp): node = slot + p·(i + a·G); router
// vertex = N + a·G + i; links: injection 2n, ejection 2n + 1, then local links (group G, i -> j)
// at 2N + (a·G + i)(a − 1) + (j < i ? j : j − 1), then global links in (group, port) order.
#include "allocsim/topo/dragonfly.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/network/flow_model.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

using ::testing::HasSubstr;
using Pairs = std::vector<std::pair<VertexId, VertexId>>;

const Dragonfly& dragonfly(const Topology& topology) {
  const auto* machine = dynamic_cast<const Dragonfly*>(topology.graph());
  EXPECT_NE(machine, nullptr);
  return *machine;
}

/// The machine's global links as sorted (from router vertex, to router vertex) pairs.
Pairs global_links(const Topology& topology) {
  Pairs pairs;
  for (const GraphLink& link : topology.graph()->links())
    if (link.link_class == LinkClass::global) pairs.emplace_back(link.from, link.to);
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

/// Target groups of group G's ports 0 .. ports − 1, written from the definitions (one round,
/// g = a·h + 1): absolute = the other groups in increasing order; relative = port k to
/// (G + k + 1) mod g; circulant = offsets +1, −1, +2, −2, ... around the ring.
std::vector<int> port_targets(const std::string& arrangement, int group, int g, int ports) {
  std::vector<int> targets;
  if (arrangement == "absolute") {
    for (int other = 0; other < g; ++other)
      if (other != group) targets.push_back(other);
  } else if (arrangement == "relative") {
    for (int k = 0; k < ports; ++k) targets.push_back((group + k + 1) % g);
  } else {
    for (int m = 1; static_cast<int>(targets.size()) < ports; ++m) {
      targets.push_back((group + m) % g);
      if (static_cast<int>(targets.size()) < ports) targets.push_back(((group - m) % g + g) % g);
    }
  }
  return targets;
}

/// The global links of a maximal dragonfly (g = a·h + 1) from port_targets: port k of G (router
/// ⌊k/h⌋) joins the port of T = targets(G)[k] whose target is G.
Pairs expected_global_links(const std::string& arrangement, int p, int a, int h) {
  const int g = a * h + 1, ports = a * h, nodes = p * a * g;
  Pairs pairs;
  for (int group = 0; group < g; ++group) {
    const std::vector<int> targets = port_targets(arrangement, group, g, ports);
    for (int k = 0; k < ports; ++k) {
      const int target = targets[k];
      const std::vector<int> back = port_targets(arrangement, target, g, ports);
      const auto k_back =
          static_cast<int>(std::find(back.begin(), back.end(), group) - back.begin());
      EXPECT_LT(k_back, ports);
      pairs.emplace_back(nodes + a * group + k / h, nodes + a * target + k_back / h);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

struct RoutedPath {
  std::vector<LinkId> links;
  double weight = 0;
};

std::vector<RoutedPath> paths(const Topology& topology, NodeId a, NodeId b,
                              LinkLoadView loads = {}) {
  std::vector<RoutedPath> result;
  topology.graph()->for_each_path(
      a, b,
      [&](std::span<const LinkId> path, double weight) {
        result.push_back({{path.begin(), path.end()}, weight});
      },
      loads);
  return result;
}

/// Checks every ordered pair: weights sum to 1, every path runs from a to b link by link, its
/// router-to-router hops are at most max_hops; returns the number of paths of each length.
std::map<int, int> check_all_pairs(const Topology& topology, int max_hops) {
  const GraphMachine& graph = *topology.graph();
  std::map<int, int> lengths;
  for (NodeId a = 0; a < topology.node_count(); ++a)
    for (NodeId b = 0; b < topology.node_count(); ++b) {
      const std::vector<RoutedPath> routed = paths(topology, a, b);
      if (a == b) {
        EXPECT_TRUE(routed.empty());
        continue;
      }
      double total = 0;
      for (const RoutedPath& path : routed) {
        total += path.weight;
        VertexId at = a;
        for (LinkId link : path.links) {
          EXPECT_EQ(graph.links()[link].from, at) << a << " -> " << b;
          at = graph.links()[link].to;
        }
        EXPECT_EQ(at, b);
        EXPECT_LE(static_cast<int>(path.links.size()) - 2, max_hops);
        ++lengths[static_cast<int>(path.links.size())];
      }
      EXPECT_NEAR(total, 1.0, 1e-12) << a << " -> " << b;
    }
  return lengths;
}

const std::vector<std::string> kArrangements{"absolute", "relative", "circulant"};

TEST(Dragonfly, SmallestHasThreeGroupsAndTheGlobalLinksByHand) {
  // p=1, a=2, h=1: g = a·h + 1 = 3 groups of 2 routers, 6 nodes (node n on router vertex 6 + n),
  // links 2·6 + 3·2·1 local + 3·2 global = 24. Routers: G0r0 = 6, G0r1 = 7, G1r0 = 8,
  // G1r1 = 9, G2r0 = 10, G2r1 = 11; router i owns port i.
  // absolute: G0 ports -> G1, G2; G1 -> G0, G2; G2 -> G0, G1: G0r0-G1r0, G0r1-G2r0, G1r1-G2r1.
  // relative: port k -> G + k + 1: G0 -> G1, G2; G1 -> G2, G0; G2 -> G0, G1: G0r0-G1r1 (G1's
  //   port 1 leads to G0), G0r1-G2r0, G1r0-G2r1.
  // circulant: port 0 -> G + 1, port 1 -> G − 1: with 3 groups the same as relative.
  const std::map<std::string, Pairs> undirected{
      {"absolute", {{6, 8}, {7, 10}, {9, 11}}},
      {"relative", {{6, 9}, {7, 10}, {8, 11}}},
      {"circulant", {{6, 9}, {7, 10}, {8, 11}}},
  };
  for (const auto& [arrangement, pairs] : undirected) {
    const Topology topology = Topology::parse("dragonfly:p=1,a=2,h=1,arrangement=" + arrangement);
    EXPECT_EQ(topology.node_count(), 6);
    EXPECT_EQ(topology.graph()->router_count(), 6);
    EXPECT_EQ(topology.graph()->group_count(), 3);
    EXPECT_EQ(topology.link_count(), 24);
    Pairs directed;
    for (const auto& [x, y] : pairs) {
      directed.emplace_back(x, y);
      directed.emplace_back(y, x);
    }
    std::sort(directed.begin(), directed.end());
    EXPECT_EQ(global_links(topology), directed) << arrangement;
    EXPECT_EQ(global_links(topology), expected_global_links(arrangement, 1, 2, 1));
  }
}

TEST(Dragonfly, NineGroupsMatchTheDefinitionsUnderEachArrangement) {
  // p=2, a=4, h=2: g = 9, 72 nodes, 36 routers; links 2·72 + 9·4·3 local + 9·8 global = 324.
  for (const std::string& arrangement : kArrangements) {
    const Topology topology = Topology::parse("dragonfly:p=2,a=4,h=2,arrangement=" + arrangement);
    const Dragonfly& df = dragonfly(topology);
    EXPECT_EQ(topology.node_count(), 72);
    EXPECT_EQ(df.router_count(), 36);
    EXPECT_EQ(df.group_count(), 9);
    EXPECT_EQ(topology.link_count(), 324);
    EXPECT_EQ(global_links(topology), expected_global_links(arrangement, 2, 4, 2)) << arrangement;
    for (int from = 0; from < 9; ++from)
      for (int to = 0; to < 9; ++to)
        if (from != to) {
          EXPECT_EQ(df.global_link_count(from, to), 1);
        }
  }
  // The numbering: node 8·G + 2·i + s is slot s of router i of group G.
  const Topology topology = Topology::parse("dragonfly:p=2,a=4,h=2");
  const Dragonfly& df = dragonfly(topology);
  EXPECT_EQ(df.node_at(3, 2, 1), 29);
  EXPECT_EQ(df.router_of(29), 72 + 14);
  EXPECT_EQ(df.group_of(29), 3);
  EXPECT_EQ(df.router_index_of(29), 2);
  EXPECT_EQ(df.router_group(72 + 14), 3);
  EXPECT_EQ(df.router_index(72 + 14), 2);
  EXPECT_EQ(df.router_vertex(3, 2), 86);
  // Absolute: group 3's port 5 (router 2) is ℓ = 5 ≥ 3, so it leads to group 6.
  EXPECT_EQ(df.port_target(3, 5), 6);
  EXPECT_EQ(topology.link(df.global_link(3, 5)).from, 86);
}

TEST(Dragonfly, MinimalPathsJoinTheirEndpointsInAtMostThreeRouterHops) {
  for (const std::string spec : {"dragonfly:p=1,a=2,h=1", "dragonfly:p=2,a=4,h=2"})
    for (const std::string& arrangement : kArrangements) {
      const Topology topology = Topology::parse(spec + ",arrangement=" + arrangement);
      check_all_pairs(topology, 3);
      // One global link per pair of groups: one path, as long as distance() says.
      for (NodeId a = 0; a < topology.node_count(); ++a)
        for (NodeId b = 0; b < topology.node_count(); ++b) {
          if (a == b) continue;
          const std::vector<RoutedPath> routed = paths(topology, a, b);
          ASSERT_EQ(routed.size(), 1u);
          EXPECT_EQ(static_cast<int>(routed[0].links.size()), topology.distance(a, b));
        }
    }
}

TEST(Dragonfly, MinimalRouteAndDistancesByHand) {
  // p=1, a=2, h=1 absolute: N = 6; local links from 12: G0 r0->r1 12, r1->r0 13; G1 14, 15;
  // G2 16, 17; global links from 18 in (group, port) order: 18 G0r0->G1r0, 19 G0r1->G2r0,
  // 20 G1r0->G0r0, 21 G1r1->G2r1, 22 G2r0->G0r1, 23 G2r1->G1r1.
  const Topology topology = Topology::parse("dragonfly:p=1,a=2,h=1");
  // Node 1 (G0r1) -> node 3 (G1r1): inject 2, local G0 r1->r0 13, global 18, local G1 r0->r1
  // 14, eject 7.
  const std::vector<RoutedPath> routed = paths(topology, 1, 3);
  ASSERT_EQ(routed.size(), 1u);
  EXPECT_EQ(routed[0].links, (std::vector<LinkId>{2, 13, 18, 14, 7}));
  EXPECT_EQ(routed[0].weight, 1.0);
  EXPECT_EQ(topology.distance(1, 3), 5);
  EXPECT_EQ(topology.distance(0, 2), 3);  // G0r0 -> G1r0: the global link alone
  EXPECT_EQ(topology.distance(0, 3), 4);  // global, then local in G1
  EXPECT_EQ(topology.distance(0, 1), 3);  // one group: one local link
  EXPECT_EQ(topology.distance(4, 4), 0);
  EXPECT_EQ(Topology::parse("dragonfly:p=2,a=4,h=2").distance(0, 1), 2);  // one router
  EXPECT_EQ(topology.graph()->router_hops(1, 3), 3);
}

TEST(Dragonfly, SeveralLinksPerGroupPairSplitEvenly) {
  // p=1, a=2, h=2, g=3: a·h = 4 ports, g − 1 = 2, two full rounds: port k has ℓ = k mod 2.
  // Absolute: ℓ 0 of G0 -> G1, ℓ 1 -> G2; G1: ℓ 0 -> G0, ℓ 1 -> G2; G2: ℓ 0 -> G0, ℓ 1 -> G1.
  // Ports 0, 1 on router 0, ports 2, 3 on router 1, and round r pairs with round r, so every
  // pair of groups is joined r0-r0 and r1-r1.
  const Topology topology = Topology::parse("dragonfly:p=1,a=2,h=2,g=3");
  const Dragonfly& df = dragonfly(topology);
  Pairs undirected{{6, 8}, {7, 9}, {6, 10}, {7, 11}, {8, 10}, {9, 11}}, directed;
  for (const auto& [x, y] : undirected) {
    directed.emplace_back(x, y);
    directed.emplace_back(y, x);
  }
  std::sort(directed.begin(), directed.end());
  EXPECT_EQ(global_links(topology), directed);
  EXPECT_EQ(df.global_link_count(0, 1), 2);
  // Node 0 (G0r0) -> node 3 (G1r1): over link G0r0-G1r0 then local, or local then G0r1-G1r1;
  // half each, both 4 links.
  const std::vector<RoutedPath> routed = paths(topology, 0, 3);
  ASSERT_EQ(routed.size(), 2u);
  for (const RoutedPath& path : routed) {
    EXPECT_EQ(path.weight, 0.5);
    EXPECT_EQ(path.links.size(), 4u);
  }
  EXPECT_EQ(topology.distance(0, 3), 4);
  // Node 0 -> node 2 (G1r0): the direct link (3 links) or local, G0r1-G1r1, local (5 links).
  EXPECT_EQ(topology.distance(0, 2), 3);
  check_all_pairs(topology, 3);

  // p=1, a=3, h=1, g=3: 3 ports, one full round (ports 0, 1) and an incomplete one (port 2,
  // ℓ = 0). Absolute: G0's port 2 -> G1, whose port 2 (ℓ 0) points back: G0r2-G1r2. G2's port
  // 2 -> G0, whose port for G2 in round 1 would be 2 + 1 = 3 ≥ 3: unused. Round 0: G0r0-G1r0,
  // G0r1-G2r0, G1r1-G2r1. Routers: vertex 9 + 3G + i.
  const Topology partial = Topology::parse("dragonfly:p=1,a=3,h=1,g=3");
  const Dragonfly& pf = dragonfly(partial);
  undirected = {{9, 12}, {10, 15}, {13, 16}, {11, 14}};
  directed.clear();
  for (const auto& [x, y] : undirected) {
    directed.emplace_back(x, y);
    directed.emplace_back(y, x);
  }
  std::sort(directed.begin(), directed.end());
  EXPECT_EQ(global_links(partial), directed);
  EXPECT_EQ(pf.global_link(2, 2), -1);
  EXPECT_EQ(pf.global_link_count(0, 1), 2);
  EXPECT_EQ(pf.global_link_count(2, 0), 1);
  check_all_pairs(partial, 3);
  // Relative: port 2 of G (ℓ 0) -> G + 1, whose port pointing back has ℓ = 1: round 1's would
  // be port 3: none, so no group uses port 2.
  const Topology relative = Topology::parse("dragonfly:p=1,a=3,h=1,g=3,arrangement=relative");
  for (int group = 0; group < 3; ++group) EXPECT_EQ(dragonfly(relative).global_link(group, 2), -1);
  check_all_pairs(relative, 3);
}

TEST(Dragonfly, ValiantSplitsOverTheIntermediateGroups) {
  // p=1, a=2, h=1 absolute: node 1 (G0r1) -> node 3 (G1r1) through G2, the only intermediate
  // group: G0r1 owns the link to G2 (19, lands G2r0), local G2 r0->r1 16, G2r1's link to G1
  // (23, lands G1r1): inject 2, 19, 16, 23, eject 7.
  const Topology small = Topology::parse("dragonfly:p=1,a=2,h=1,routing=valiant");
  std::vector<RoutedPath> routed = paths(small, 1, 3);
  ASSERT_EQ(routed.size(), 1u);
  EXPECT_EQ(routed[0].links, (std::vector<LinkId>{2, 19, 16, 23, 7}));
  EXPECT_EQ(routed[0].weight, 1.0);
  // Within a group Valiant routes minimally: node 0 -> node 1 is inject 0, local 12, eject 3.
  routed = paths(small, 0, 1);
  ASSERT_EQ(routed.size(), 1u);
  EXPECT_EQ(routed[0].links, (std::vector<LinkId>{0, 12, 3}));

  // p=2, a=4, h=2 absolute, node 0 (G0r0) -> node 8 (G1r0), through M = 2 .. 8, 1/7 each.
  // Absolute: X's port to Y has ℓ = Y < X ? Y : Y − 1, on router ℓ/2. Leg 1 leaves G0 from
  // router (M − 1)/2 and lands on M's router 0 (ℓ of G0 is 0); leg 2 leaves M from router 0
  // (ℓ of G1 is 1) and lands on G1's router (M − 1)/2. Router hops 2 + 2·[(M − 1)/2 ≠ 0]:
  // M = 2: 2; M = 3 .. 8: 4. Links (with injection and ejection): one path of 4, six of 6.
  const Topology nine = Topology::parse("dragonfly:p=2,a=4,h=2,routing=valiant");
  routed = paths(nine, 0, 8);
  ASSERT_EQ(routed.size(), 7u);
  std::map<std::size_t, int> lengths;
  for (const RoutedPath& path : routed) {
    EXPECT_DOUBLE_EQ(path.weight, 1.0 / 7);
    ++lengths[path.links.size()];
  }
  EXPECT_EQ(lengths, (std::map<std::size_t, int>{{4, 1}, {6, 6}}));
  EXPECT_EQ(nine.distance(0, 8), 3);  // distance stays the minimal route's
  for (const std::string& arrangement : kArrangements) {
    check_all_pairs(
        Topology::parse("dragonfly:p=1,a=2,h=1,routing=valiant,arrangement=" + arrangement), 5);
    check_all_pairs(
        Topology::parse("dragonfly:p=2,a=4,h=2,routing=valiant,arrangement=" + arrangement), 5);
  }
}

TEST(Dragonfly, UgalTakesValiantWhenTheMinimalGlobalLinkIsLoaded) {
  // p=1, a=2, h=1 absolute, node 0 (G0r0) -> node 2 (G1r0). Minimal: global 18 alone, 1 router
  // hop: inject 0, 18, eject 5. Valiant through G2: local G0 r0->r1 12, 19 (lands G2r0), local
  // G2 r0->r1 16, 23 (lands G1r1), local G1 r1->r0 15: 5 router hops.
  // Rule: minimal iff (q_min + 1)·1 ≤ (q_valiant + 1)·5.
  const Topology topology = Topology::parse("dragonfly:p=1,a=2,h=1,routing=ugal");
  EXPECT_TRUE(topology.graph()->adaptive());
  const std::vector<LinkId> minimal{0, 18, 5}, valiant{0, 12, 19, 16, 23, 15, 5};
  std::vector<double> loads(static_cast<std::size_t>(topology.link_slot_count()), 0.0);
  const auto route = [&](LinkLoadView view) {
    const std::vector<RoutedPath> routed = paths(topology, 0, 2, view);
    EXPECT_EQ(routed.size(), 1u);
    return routed.empty() ? std::vector<LinkId>{} : routed[0].links;
  };
  EXPECT_EQ(route({}), minimal);     // no loads known: minimal
  EXPECT_EQ(route(loads), minimal);  // 1 ≤ 5
  loads[18] = 4;
  EXPECT_EQ(route(loads), minimal);  // 5 ≤ 5: a tie stays minimal
  loads[18] = 4.5;
  EXPECT_EQ(route(loads), valiant);  // 5.5 > 5
  loads[16] = 1;
  EXPECT_EQ(route(loads), minimal);  // 5.5 ≤ 2·5
  // route_weighted passes the loads on.
  loads[16] = 0;
  std::vector<LinkId> visited;
  topology.route_weighted(
      0, 2, [&](LinkId link, double) { visited.push_back(link); }, loads);
  EXPECT_EQ(visited, valiant);
  // Within a group UGAL is minimal whatever the loads: node 0 -> 1 is inject 0, local 12,
  // eject 3.
  loads[12] = 100;
  EXPECT_EQ(paths(topology, 0, 1, loads)[0].links, (std::vector<LinkId>{0, 12, 3}));
}

TEST(Dragonfly, SpecRoundTrips) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"dragonfly:p=2,a=4,h=2", "dragonfly:p=2,a=4,h=2"},
      {"dragonfly:p=2,a=4,h=2,g=9,arrangement=absolute,routing=minimal,local_bw=1",
       "dragonfly:p=2,a=4,h=2"},
      {"dragonfly:h=1,a=2,p=1,g=2,arrangement=circulant,routing=ugal,local_bw=2,global_bw=0.5",
       "dragonfly:p=1,a=2,h=1,g=2,arrangement=circulant,routing=ugal,local_bw=2,global_bw=0.5"},
      {"dragonfly:p=1,a=3,h=1,g=3,arrangement=relative,routing=valiant",
       "dragonfly:p=1,a=3,h=1,g=3,arrangement=relative,routing=valiant"},
  };
  for (const auto& [given, canonical] : cases) {
    const Topology topology = Topology::parse(given);
    EXPECT_EQ(topology.spec(), canonical);
    EXPECT_EQ(Topology::parse(topology.spec()), topology);
    EXPECT_EQ(Topology::parse(topology.spec()).spec(), canonical);
    EXPECT_EQ(topology.kind_name(), "dragonfly");
  }
  const Topology bandwidths = Topology::parse("dragonfly:p=1,a=2,h=1,local_bw=2,global_bw=0.5");
  EXPECT_EQ(bandwidths.link_capacity(0), 1);   // injection
  EXPECT_EQ(bandwidths.link_capacity(12), 2);  // local
  EXPECT_EQ(bandwidths.link_capacity(18), 0.5);
  EXPECT_FALSE(Topology::parse("dragonfly:p=1,a=2,h=1").graph()->adaptive());
  EXPECT_THAT(
      Topology::parse("dragonfly:p=1,a=2,h=1,routing=valiant").graph()->routing_description(),
      HasSubstr("intermediate group"));
}

TEST(Dragonfly, BadParametersAreRefusedWithTheReason) {
  const auto error_of = [](const std::string& spec) -> std::string {
    try {
      Topology::parse(spec);
    } catch (const InputError& error) {
      return error.what();
    }
    return "no error";
  };
  EXPECT_THAT(error_of("dragonfly:p=1,a=2,h=1,g=4"),
              HasSubstr("g=4 groups is out of range: expected 2 .. a*h+1 = 3"));
  EXPECT_THAT(error_of("dragonfly:p=1,a=2,h=1,g=1"),
              HasSubstr("g=1 groups is out of range: expected 2 .. a*h+1 = 3"));
  // p·a·g = 4096·64·(64·64 + 1) = 262,144·4097 = 1,074,003,968 nodes, refused before anything is
  // built.
  const std::string large = error_of("dragonfly:p=4096,a=64,h=64");
  EXPECT_THAT(large, HasSubstr("1074003968 nodes (p*a*g)"));
  EXPECT_THAT(large, HasSubstr("allow_large=1"));
  // With the permission the size is allowed, but the link ids would not fit an int.
  EXPECT_THAT(error_of("dragonfly:p=4096,a=64,h=64,allow_large=1"),
              HasSubstr("do not fit the link ids"));
  EXPECT_THAT(error_of("dragonfly:p=2,a=4"), HasSubstr("bad machine"));
}

TEST(Dragonfly, PropertiesOfEveryShapeAndArrangement) {
  // Every small shape, every g in 2 .. a·h + 1 and every arrangement: each directed global link
  // has its reverse between the same two routers; no router has more than h global links;
  // every pair of groups is joined, as many links each way; when g − 1 divides a·h every port
  // is used (full rounds only). Minimal and Valiant paths join their endpoints (at most 3 and
  // 5 router hops, weights summing to 1), distance() is the shortest minimal path, and the
  // links between injection and ejection depend only on the source's router.
  for (int a = 1; a <= 4; ++a)
    for (int h = 1; h <= 3; ++h)
      for (int g = 2; g <= a * h + 1; ++g)
        for (const std::string& arrangement : kArrangements) {
          const std::string spec = "dragonfly:p=2,a=" + std::to_string(a) +
                                   ",h=" + std::to_string(h) + ",g=" + std::to_string(g) +
                                   ",arrangement=" + arrangement;
          SCOPED_TRACE(spec);
          const Topology topology = Topology::parse(spec);
          const Dragonfly& df = dragonfly(topology);
          const Pairs links = global_links(topology);
          std::map<VertexId, int> degree;
          for (const auto& [from, to] : links) {
            EXPECT_TRUE(std::binary_search(links.begin(), links.end(), std::make_pair(to, from)));
            EXPECT_NE(df.router_group(from), df.router_group(to));
            ++degree[from];
          }
          for (const auto& [router, count] : degree) EXPECT_LE(count, h);
          for (int x = 0; x < g; ++x)
            for (int y = 0; y < g; ++y)
              if (x != y) {
                EXPECT_GE(df.global_link_count(x, y), 1);
                EXPECT_EQ(df.global_link_count(x, y), df.global_link_count(y, x));
              }
          if ((a * h) % (g - 1) == 0) {
            EXPECT_EQ(static_cast<int>(links.size()), g * a * h);
          }
          for (const std::string routing : {"minimal", "valiant"}) {
            const Topology routed = Topology::parse(spec + ",routing=" + routing);
            check_all_pairs(routed, routing == std::string("minimal") ? 3 : 5);
          }
          for (NodeId x = 0; x < topology.node_count(); ++x)
            for (NodeId y = 0; y < topology.node_count(); ++y) {
              if (x == y) continue;
              std::size_t shortest = 99;
              for (const RoutedPath& path : paths(topology, x, y))
                shortest = std::min(shortest, path.links.size());
              EXPECT_EQ(static_cast<int>(shortest), topology.distance(x, y));
              // Node x ^ 1 shares x's router (p = 2): the same middles, the same weights.
              if ((x ^ 1) == y) continue;
              const std::vector<RoutedPath> mine = paths(topology, x, y),
                                            twin = paths(topology, x ^ 1, y);
              ASSERT_EQ(mine.size(), twin.size());
              for (std::size_t k = 0; k < mine.size(); ++k) {
                EXPECT_EQ(mine[k].weight, twin[k].weight);
                EXPECT_TRUE(std::equal(mine[k].links.begin() + 1, mine[k].links.end(),
                                       twin[k].links.begin() + 1, twin[k].links.end()));
              }
            }
        }
}

/// Loads of the messages `pairs` routed with route_weighted, summed per link.
std::vector<std::pair<LinkId, double>> loads_of(const Topology& topology,
                                                std::vector<std::pair<NodeId, NodeId>> pairs) {
  std::map<LinkId, double> sum;
  for (const auto& [a, b] : pairs)
    topology.route_weighted(a, b, [&](LinkId link, double weight) { sum[link] += weight; });
  return {sum.begin(), sum.end()};
}

TEST(Dragonfly, FlowRatesOfJobsSharingTheOneGlobalLink) {
  // p=1, a=2, h=1 absolute, all capacities 1. Job 1 sends 0 -> 2 (inject 0, global 18, eject
  // 5), job 2 sends 1 -> 3 (inject 2, local 13, global 18, local 14, eject 7): both cross the
  // one G0 -> G1 link, max-min fair: 1/2 each, communication slowdown 2 at reference rate 1,
  // progress 1 / (0.5 + 0.5·2) = 2/3 at comm 0.5. Job 3 sends 4 -> 5 inside G2 (its own
  // links): rate 1, slowdown 1.
  const Topology topology = Topology::parse("dragonfly:p=1,a=2,h=1");
  FlowNetwork network(topology, 0.5);
  network.add_job(1, loads_of(topology, {{0, 2}}), 1.0);
  network.add_job(2, loads_of(topology, {{1, 3}}), 1.0);
  network.add_job(3, loads_of(topology, {{4, 5}}), 1.0);
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 2.0);
  EXPECT_DOUBLE_EQ(network.rate(2).comm_slowdown, 2.0);
  EXPECT_DOUBLE_EQ(network.rate(1).progress, 2.0 / 3);
  EXPECT_DOUBLE_EQ(network.rate(3).comm_slowdown, 1.0);
}

TEST(Dragonfly, FlowRatesOfJobsSplitOverTwoGlobalLinks) {
  // p=2, a=2, h=1, g=2: two global links G0r0-G1r0 and G0r1-G1r1; nodes 0, 1 on G0r0, 2, 3 on
  // G0r1, 4, 5 on G1r0, 6, 7 on G1r1. Jobs 1 (0 -> 4) and 2 (1 -> 5) go half over each global
  // link (the far one through local hops); job 3 (2 -> 6) too. Each G0 -> G1 global link
  // carries 0.5 of each job: 1.5·r ≤ 1, so r = 2/3 for all three (their injection links
  // carry 1·r, the local links at most 0.5 + 0.5): slowdown 1.5, progress 1 / (0.5 + 0.75).
  const Topology topology = Topology::parse("dragonfly:p=2,a=2,h=1,g=2");
  FlowNetwork network(topology, 0.5);
  network.add_job(1, loads_of(topology, {{0, 4}}), 1.0);
  network.add_job(2, loads_of(topology, {{1, 5}}), 1.0);
  network.add_job(3, loads_of(topology, {{2, 6}}), 1.0);
  network.solve();
  for (int job = 1; job <= 3; ++job) {
    EXPECT_DOUBLE_EQ(network.rate(job).comm_slowdown, 1.5);
    EXPECT_DOUBLE_EQ(network.rate(job).progress, 0.8);
  }
  // Job 3 ends: jobs 1 and 2 load each global link 0.5 + 0.5 = 1: rate 1.
  network.remove_job(3);
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 1.0);
}

}  // namespace
}  // namespace allocsim
