// UGAL's batch routing on a dragonfly (Dragonfly::path_batch, dragonfly_routing.cpp) against the
// pair-by-pair rule (Dragonfly::for_each_path): for random load views and every ordered pair of
// nodes, the same paths, in the same order, with bit-identical weights. The views are drawn so
// that both choices occur (asserted): all-zero loads, loads spread evenly, and a few heavily
// loaded global links, on machines with one and with several global links per pair of groups.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "allocsim/topo/dragonfly.hpp"
#include "allocsim/topo/topology.hpp"

namespace allocsim {
namespace {

/// One routed path: its links and the bits of its weight.
struct Routed {
  std::vector<LinkId> links;
  std::uint64_t weight_bits = 0;
  bool operator==(const Routed&) const = default;
};

/// Collects what a routing call visits.
struct Collector {
  std::vector<Routed> paths;
  void operator()(std::span<const LinkId> path, double weight) {
    paths.push_back({{path.begin(), path.end()}, std::bit_cast<std::uint64_t>(weight)});
  }
};

/// A load view: `kind` 0 all zero, 1 uniform in [0, 10), 2 mostly small with a few global links
/// (and some local ones) far more loaded, 3 global links uniform in [0, 10) and the local links
/// into or out of a few routers far more loaded (the end hops then decide: the bounds that
/// take each router's largest end-hop load, dragonfly_routing.cpp, meet their limits).
std::vector<double> draw_loads(const GraphMachine& machine, int kind, std::mt19937_64& rng) {
  std::vector<double> loads(machine.links().size(), 0.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<int> hot(static_cast<std::size_t>(machine.vertex_count()), 0);  // 1 in, 2 out
  for (auto& flag : hot)
    if (unit(rng) < 0.15) flag = unit(rng) < 0.5 ? 1 : 2;
  for (std::size_t link = 0; link < loads.size(); ++link) {
    if (kind == 0) continue;
    const GraphLink& edge = machine.links()[link];
    const LinkClass type = edge.link_class;
    if (kind == 1) {
      loads[link] = 10 * unit(rng);
    } else if (kind == 3) {
      loads[link] = type == LinkClass::global ? 10 * unit(rng) : unit(rng);
      if (type == LinkClass::local && (hot[static_cast<std::size_t>(edge.to)] == 1 ||
                                       hot[static_cast<std::size_t>(edge.from)] == 2))
        loads[link] = 5 + 20 * unit(rng);
    } else {
      loads[link] = unit(rng);
      if (type == LinkClass::global && unit(rng) < 0.2) loads[link] = 20 + 50 * unit(rng);
      if (type == LinkClass::local && unit(rng) < 0.05) loads[link] = 10 + 30 * unit(rng);
    }
  }
  return loads;
}

/// Counts of the two choices seen (a path over two global links is a Valiant one).
struct Choices {
  int minimal = 0, valiant = 0;
};

/// Every ordered pair of nodes, pair by pair against one batch per view, several views.
Choices check_machine(const std::string& spec, std::uint64_t seed) {
  SCOPED_TRACE(spec);
  const Topology topology = Topology::parse(spec);
  const GraphMachine& machine = *topology.graph();
  std::mt19937_64 rng(seed);
  Choices choices;
  for (int round = 0; round < 16; ++round) {
    const std::vector<double> loads = draw_loads(machine, round % 4, rng);
    // Pairs in a shuffled order (the batch's per-group-pair work is reused in any order), or
    // in order on a new batch (one source's destinations one group after the other, as the
    // flow model asks).
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (NodeId a = 0; a < machine.node_count(); ++a)
      for (NodeId b = 0; b < machine.node_count(); ++b) pairs.emplace_back(a, b);
    if (round % 8 < 4) std::shuffle(pairs.begin(), pairs.end(), rng);
    const auto batch = machine.path_batch(loads);
    for (const auto& [a, b] : pairs) {
      Collector one, many;
      machine.for_each_path(
          a, b, [&](std::span<const LinkId> path, double weight) { one(path, weight); }, loads);
      batch->for_each_path(
          a, b, [&](std::span<const LinkId> path, double weight) { many(path, weight); });
      if (one.paths != many.paths) {  // (ASSERT_* needs a void function)
        ADD_FAILURE() << "pair " << a << " -> " << b << ", round " << round << ": "
                      << one.paths.size() << " paths pair by pair, " << many.paths.size()
                      << " by the batch, or different links or weights";
        return choices;
      }
      if (one.paths.empty()) continue;
      int globals = 0;
      for (const LinkId link : one.paths.front().links)
        if (machine.links()[static_cast<std::size_t>(link)].link_class == LinkClass::global)
          ++globals;
      if (globals > 1)
        ++choices.valiant;
      else
        ++choices.minimal;
    }
  }
  return choices;
}

TEST(DragonflyUgalBatch, SamePathsAndWeightsAsPairByPair) {
  int valiant = 0, minimal = 0;
  for (const std::string spec :
       {"dragonfly:p=2,a=4,h=2,routing=ugal",
        "dragonfly:p=2,a=4,h=2,routing=ugal,arrangement=relative",
        "dragonfly:p=1,a=4,h=2,routing=ugal,arrangement=circulant",
        "dragonfly:p=1,a=4,h=2,g=4,routing=ugal",  // 2 or 3 links per group pair
        "dragonfly:p=2,a=3,h=2,g=5,routing=ugal,arrangement=circulant,local_bw=2"}) {
    const Choices choices = check_machine(spec, 17);
    valiant += choices.valiant;
    minimal += choices.minimal;
  }
  // Both choices were exercised (the comparison is not vacuous).
  EXPECT_GT(valiant, 1000);
  EXPECT_GT(minimal, 1000);
}

TEST(DragonflyUgalBatch, OtherRoutingsAndEmptyViewsFallBackToPairByPair) {
  for (const std::string spec :
       {"dragonfly:p=2,a=4,h=2,routing=valiant", "dragonfly:p=2,a=4,h=2,routing=minimal",
        "dragonfly:p=1,a=2,h=1,g=2,routing=ugal"}) {
    const Choices choices = check_machine(spec, 5);
    EXPECT_GT(choices.minimal + choices.valiant, 0) << spec;
  }
  const Topology topology = Topology::parse("dragonfly:p=2,a=4,h=2,routing=ugal");
  const GraphMachine& machine = *topology.graph();
  const auto batch = machine.path_batch({});
  Collector one, many;
  machine.for_each_path(
      0, 40, [&](std::span<const LinkId> path, double weight) { one(path, weight); }, {});
  batch->for_each_path(0, 40,
                       [&](std::span<const LinkId> path, double weight) { many(path, weight); });
  EXPECT_EQ(one.paths, many.paths);
  ASSERT_EQ(one.paths.size(), 1u);  // no loads: minimal, one global link
}

}  // namespace
}  // namespace allocsim
