// The graph allocators (alloc/graph_alloc.hpp) on small dragonflies and a fat tree: hand-made
// machine states with the exact node lists derived below from each definition; the random ones
// (dfly-rdr, dfly-rdg) by their properties and their determinism under a seed.
//
// dragonfly:p=2,a=4,h=2 (g = 9 groups): node = slot + 2·(router index + 4·group), so group G
// holds nodes 8G .. 8G + 7 and its router i the nodes 8G + 2i, 8G + 2i + 1. The state `kBusy`:
//   busy 0, 1 (group 0 router 0), 2 (group 0 router 1), 9 (group 1 router 0), 16 .. 23 (all of
//   group 2), 25 (group 3 router 0): 13 busy, 59 free.
//   free per group: G0 5 {3 | 4 5 | 6 7} (router 0 none, router 1 {3}, 2 {4,5}, 3 {6,7});
//   G1 7 {8 | 10 11 | 12 13 | 14 15}; G2 0; G3 7 {24 | 26 27 | 28 29 | 30 31}; G4 .. G8 all 8.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/alloc/graph_layout.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

const char* const kDragonfly = "dragonfly:p=2,a=4,h=2";
const std::vector<NodeId> kBusy{0, 1, 2, 9, 16, 17, 18, 19, 20, 21, 22, 23, 25};

/// The nodes `spec` chooses for a job of `procs` on `machine` with `busy` nodes busy, in the
/// allocator's order; empty when it refuses.
std::vector<NodeId> choose(const std::string& spec, const std::string& machine,
                           const std::vector<NodeId>& busy_nodes, int procs,
                           std::uint64_t seed = 1) {
  const Topology topology = Topology::parse(machine);
  std::vector<char> busy(topology.node_count(), 0);
  for (NodeId node : busy_nodes) busy[node] = 1;
  Rng rng(seed);
  const MachineView view(topology, busy,
                         topology.node_count() - static_cast<int>(busy_nodes.size()), rng);
  Job job;
  job.id = 1;
  job.procs = procs;
  job.runtime = job.estimate = 10;
  const std::optional<Allocation> allocation = make_allocator(spec, topology)->allocate(job, view);
  return allocation ? allocation->nodes : std::vector<NodeId>{};
}

using Nodes = std::vector<NodeId>;

TEST(GraphAllocators, SimpleTakesTheLowestFreeIds) {
  EXPECT_EQ(choose("simple", kDragonfly, kBusy, 4), (Nodes{3, 4, 5, 6}));
}

TEST(GraphAllocators, RoundRobinNodesTakesOneNodePerGroupInTurn) {
  // From group 0, each group's lowest free node, group 2 (no free node) skipped.
  EXPECT_EQ(choose("dfly-rrn", kDragonfly, kBusy, 5), (Nodes{3, 8, 24, 32, 40}));
  // Round 1: G0 3, G1 8, G3 24, G4 32, G5 40, G6 48, G7 56, G8 64; round 2: G0 4, G1 10, G3 26,
  // G4 33.
  EXPECT_EQ(choose("dfly-rrn", kDragonfly, kBusy, 12),
            (Nodes{3, 8, 24, 32, 40, 48, 56, 64, 4, 10, 26, 33}));
}

TEST(GraphAllocators, RoundRobinRoutersTakesAWholeRouterPerGroupInTurn) {
  // G0: its first router with free nodes is router 1 {3}; G1 router 0 {8}; G3 router 0 {24};
  // G4 router 0 {32, 33}.
  EXPECT_EQ(choose("dfly-rrr", kDragonfly, kBusy, 5), (Nodes{3, 8, 24, 32, 33}));
  // Round 1 gives 3, 8, 24 and routers 0 of G4 .. G8 (13 nodes); round 2: G0 router 2 {4, 5},
  // G1 router 1 {10, 11}, G3 router 1 {26, 27}, G4 router 1 {34, 35} of which 34 completes 20.
  EXPECT_EQ(choose("dfly-rrr", kDragonfly, kBusy, 20),
            (Nodes{3, 8, 24, 32, 33, 40, 41, 48, 49, 56, 57, 64, 65, 4, 5, 10, 11, 26, 27, 34}));
}

TEST(GraphAllocators, SpreadFillsTheSameNumberedRouterOfEachGroup) {
  // Routers with index 0 of groups 0 .. 8: {0 1} busy, {8}, group 2 busy, {24}, {32 33},
  // {40 41}, ... ; then index 1: {3}, {10 11}, group 2 busy, {26 27}, {34 35}, {42 ..}.
  EXPECT_EQ(choose("dfly-spread", kDragonfly, kBusy, 6), (Nodes{8, 24, 32, 33, 40, 41}));
  EXPECT_EQ(choose("dfly-spread", kDragonfly, kBusy, 20),
            (Nodes{8, 24, 32, 33, 40, 41, 48, 49, 56, 57, 64, 65, 3, 10, 11, 26, 27, 34, 35, 42}));
}

TEST(GraphAllocators, LevelSpreadUsesTheSmallestLevelThatHoldsTheJob) {
  // 2 <= p: the router with the most free nodes (2), the lowest such: group 0 router 2 {4, 5}.
  EXPECT_EQ(choose("level-spread", kDragonfly, kBusy, 2), (Nodes{4, 5}));
  // 3 > p, 3 <= a·p = 8: the group with the most free nodes, the lowest of G4 .. G8 (8 each):
  // G4, one node per router from router 0: 32, 34, 36, then 38, then round 2: 33, 35.
  EXPECT_EQ(choose("level-spread", kDragonfly, kBusy, 3), (Nodes{32, 34, 36}));
  EXPECT_EQ(choose("level-spread", kDragonfly, kBusy, 6), (Nodes{32, 34, 36, 38, 33, 35}));
  // 9 > 8: one node per group round-robin from group 0 (as dfly-rrn).
  EXPECT_EQ(choose("level-spread", kDragonfly, kBusy, 9), (Nodes{3, 8, 24, 32, 40, 48, 56, 64, 4}));
  // Every even node busy: no router has 2 free nodes, so 2 goes to the emptiest group (all have
  // 4; the lowest is G0), one node per router: 1 (router 0), 3 (router 1).
  Nodes even;
  for (NodeId node = 0; node < 72; node += 2) even.push_back(node);
  EXPECT_EQ(choose("level-spread", kDragonfly, even, 2), (Nodes{1, 3}));
}

TEST(GraphAllocators, JokanovicKeepsSmallJobsInTheFirstGroupThatHoldsThem) {
  // 6 <= 8: the first group with 6 free nodes is G1 (G0 has 5): its free nodes in index order.
  EXPECT_EQ(choose("jokanovic", kDragonfly, kBusy, 6), (Nodes{8, 10, 11, 12, 13, 14}));
  EXPECT_EQ(choose("jokanovic", kDragonfly, kBusy, 5), (Nodes{3, 4, 5, 6, 7}));
  // 9 > 8 nodes per group: the highest free ids from the top down.
  EXPECT_EQ(choose("jokanovic", kDragonfly, kBusy, 9), (Nodes{71, 70, 69, 68, 67, 66, 65, 64, 63}));
  // Every even node busy: each group has 4 free, none holds 5: the 5 lowest free ids. (SST's
  // version gives these lowest ids to every small job, overwriting the group it found.)
  Nodes even;
  for (NodeId node = 0; node < 72; node += 2) even.push_back(node);
  EXPECT_EQ(choose("jokanovic", kDragonfly, even, 5), (Nodes{1, 3, 5, 7, 9}));
  EXPECT_EQ(choose("jokanovic", kDragonfly, even, 4), (Nodes{1, 3, 5, 7}));
}

TEST(GraphAllocators, NearestTakesTheClosestNodesAroundTheBestCentre) {
  // Candidate centres: the 8 groups with free nodes by free count, G4 G5 G6 G7 G8 (8), G1 G3
  // (7), G0 (5); in each the router with the most free nodes: G4 router 0 {32, 33}, ...
  // 2 nodes: centre G4 router 0 holds both (cost 0; the first candidate wins the tie).
  EXPECT_EQ(choose("nearest", kDragonfly, kBusy, 2), (Nodes{32, 33}));
  // 4 nodes: 32, 33 (D 0), then D 1 in the centre's group first: 34, 35 (cost 2).
  EXPECT_EQ(choose("nearest", kDragonfly, kBusy, 4), (Nodes{32, 33, 34, 35}));
  // 10 nodes: no centre does better than 2 at D 0 and 8 at D 1 (cost 8); G4 router 0 gets
  // there: its group's 6 other nodes, then 2 of the nodes one global hop away. Arrangement
  // absolute: G4's port ℓ leads to group ℓ (ℓ < 4), router 0 owns ports 0 and 1, so its global
  // links reach G0 and G1, arriving on their port 3 (G4 is their 4th other group), router 1:
  // G0 router 1 {3} and G1 router 1 {10, 11} are at D 1; the lowest ids: 3, 10.
  EXPECT_EQ(choose("nearest", kDragonfly, kBusy, 10),
            (Nodes{32, 33, 34, 35, 36, 37, 38, 39, 3, 10}));
}

// dragonfly:p=1,a=2,h=1: 3 groups of 2 routers of 1 node; group G holds nodes 2G, 2G + 1.
TEST(GraphAllocators, OneNodePerRouterDragonfly) {
  const char* const machine = "dragonfly:p=1,a=2,h=1";
  EXPECT_EQ(choose("dfly-rrn", machine, {}, 4), (Nodes{0, 2, 4, 1}));
  EXPECT_EQ(choose("dfly-rrr", machine, {}, 4), (Nodes{0, 2, 4, 1}));
  EXPECT_EQ(choose("dfly-spread", machine, {}, 4), (Nodes{0, 2, 4, 1}));
  EXPECT_EQ(choose("level-spread", machine, {}, 1), (Nodes{0}));
  EXPECT_EQ(choose("level-spread", machine, {0}, 2), (Nodes{2, 3}));  // G1: the emptiest
  EXPECT_EQ(choose("level-spread", machine, {}, 3), (Nodes{0, 2, 4}));
  EXPECT_EQ(choose("jokanovic", machine, {}, 2), (Nodes{0, 1}));
  EXPECT_EQ(choose("jokanovic", machine, {1}, 2), (Nodes{2, 3}));
  EXPECT_EQ(choose("jokanovic", machine, {}, 3), (Nodes{5, 4, 3}));
  EXPECT_EQ(choose("simple", machine, {0, 2}, 2), (Nodes{1, 3}));
  // Only router 1 of group 2 free: the random allocators have no choice.
  EXPECT_EQ(choose("dfly-rdr", machine, {0, 1, 2, 3, 4}, 1), (Nodes{5}));
  EXPECT_EQ(choose("dfly-rdg", machine, {0, 1, 2, 3, 4}, 1), (Nodes{5}));
}

// fattree:k=4: hosts 0..15, leaf switch l holds hosts 2l, 2l + 1, pod q holds leaves 2q, 2q + 1.
TEST(GraphAllocators, FatTreeLeavesAndPods) {
  // 3 > 2 hosts per leaf: the emptiest pod (pod 0), one host per leaf: 0, 2, 1.
  EXPECT_EQ(choose("level-spread", "fattree:k=4", {}, 3), (Nodes{0, 2, 1}));
  // One host per pod in turn.
  EXPECT_EQ(choose("dfly-rrn", "fattree:k=4", {}, 5), (Nodes{0, 4, 8, 12, 1}));
  // 2 hosts, host 0 busy: pods 1 .. 3 have 4 free hosts, pod 0 3; the first candidate centre is
  // pod 1's first leaf {4, 5}, which holds the job at cost 0.
  EXPECT_EQ(choose("nearest", "fattree:k=4", {0}, 2), (Nodes{4, 5}));
}

TEST(GraphAllocators, RefuseWhenTooFewNodesAreFree) {
  for (const char* name : {"simple", "dfly-rdr", "dfly-rdg", "dfly-rrn", "dfly-rrr", "dfly-spread",
                           "level-spread", "jokanovic", "nearest"}) {
    SCOPED_TRACE(name);
    EXPECT_TRUE(choose(name, kDragonfly, kBusy, 60).empty());
    const Nodes all = choose(name, kDragonfly, kBusy, 59);
    EXPECT_EQ(std::set<NodeId>(all.begin(), all.end()).size(), 59u);
  }
}

TEST(GraphAllocators, RefuseGridsAndFlatByName) {
  for (const char* name : {"dfly-rdr", "level-spread", "jokanovic", "nearest"})
    for (const char* machine : {"mesh:8x8", "flat:64"}) {
      try {
        make_allocator(name, Topology::parse(machine));
        ADD_FAILURE() << name << " accepted " << machine;
      } catch (const InputError& refusal) {
        const std::string message = refusal.what();
        EXPECT_NE(message.find(std::string("'") + name + "'"), std::string::npos) << message;
        EXPECT_NE(message.find("graph machines (dragonfly, fattree"), std::string::npos);
      }
    }
  EXPECT_NO_THROW(make_allocator("simple", Topology::parse("mesh:8x8")));
}

/// Properties of the random ones: right count, free, distinct; rdr takes its routers' free
/// nodes whole (all but the last router drawn), rdg its groups' (in index order).
TEST(GraphAllocators, RandomRoutersAndGroupsProperties) {
  const Topology topology = Topology::parse(kDragonfly);
  const GraphLayout layout(topology, "test");
  std::set<NodeId> busy(kBusy.begin(), kBusy.end());
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    for (int procs : {1, 3, 7, 20, 45}) {
      for (const char* name : {"dfly-rdr", "dfly-rdg"}) {
        SCOPED_TRACE(std::string(name) + " seed " + std::to_string(seed));
        const Nodes nodes = choose(name, kDragonfly, kBusy, procs, seed);
        ASSERT_EQ(static_cast<int>(nodes.size()), procs);
        EXPECT_EQ(std::set<NodeId>(nodes.begin(), nodes.end()).size(), nodes.size());
        for (NodeId node : nodes) EXPECT_FALSE(busy.count(node)) << node;
        EXPECT_EQ(choose(name, kDragonfly, kBusy, procs, seed), nodes);  // same seed, same answer
        // Units (routers or groups) in the order first met; all but the last taken whole.
        const bool by_router = std::string(name) == "dfly-rdr";
        auto unit = [&](NodeId node) {
          return by_router ? layout.router_of(node) : topology.graph()->group_of(node);
        };
        std::vector<int> units;
        for (NodeId node : nodes)
          if (units.empty() || units.back() != unit(node)) units.push_back(unit(node));
        EXPECT_EQ(std::set<int>(units.begin(), units.end()).size(), units.size());  // contiguous
        for (std::size_t at = 0; at + 1 < units.size(); ++at) {
          int free_in_unit = 0, taken = 0;
          for (NodeId node = 0; node < 72; ++node)
            if (unit(node) == units[at] && !busy.count(node)) ++free_in_unit;
          for (NodeId node : nodes) taken += unit(node) == units[at];
          EXPECT_EQ(taken, free_in_unit) << "unit " << units[at];
        }
      }
    }
  // Different seeds give different choices (20 seeds, 5 of 59 free nodes: surely not all equal).
  std::set<Nodes> seen;
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    seen.insert(choose("dfly-rdr", kDragonfly, kBusy, 5, seed));
  EXPECT_GT(seen.size(), 1u);
}

}  // namespace
}  // namespace allocsim
