// Slurm's node selection (alloc/slurm_select.hpp): slurm-tree on the topology.conf example of
// Slurm's documentation and on a three-level tree, --switches=N@T through whole simulations,
// slurm-dragonfly and slurm-block by hand, and the refusals. Every expected node set is worked
// out in the comments from the header's definition.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "sim/job_maker.hpp"

namespace allocsim {
namespace {

const std::string kData = std::string(ALLOCSIM_TEST_DATA) + "/slurm_topology/";
// topology.conf(5)'s example: s0 dev[0-5], s1 dev[6-11], s2 dev[12-17] (ids 0-17 in that order),
// s3 over s0-s2. Switch order s0 s1 s2 s3; every leaf-to-leaf distance is 2.
const std::string kDocTree = "slurm-topology:" + kData + "slurm_doc_example.conf";
// l0 n[0-3], l1 n[4-7], l2 n[8-11], l3 n[12-15]; a0 over l0 l1, a1 over l2 l3; top over a0 a1.
// Distances: l0-l1 and l2-l3 2, across the aggregation switches 4.
const std::string kThreeLevel = "slurm-topology:" + kData + "select_three_level.conf";
// topology.conf(5)'s block example: block1 node[1-32] (ids 0-31), block2 (32-63), block3
// (64-95), block4 (96-127); BlockSizes=30,120: base 30 nodes, levels 0 (1 base block) and 2 (4).
const std::string kDocBlocks = "slurm-topology:" + kData + "slurm_doc_block_example.conf";

std::vector<NodeId> range(NodeId first, NodeId last) {
  std::vector<NodeId> ids(last - first + 1);
  std::iota(ids.begin(), ids.end(), first);
  return ids;
}
std::vector<NodeId> operator+(std::vector<NodeId> a, const std::vector<NodeId>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// Asks `spec` on `machine` with exactly `free` nodes free for a job of `procs` nodes submitted
/// at 0, at simulated time `now` (NaN: none).
std::optional<Allocation> ask(const std::string& spec, const std::string& machine,
                              const std::vector<NodeId>& free, int procs, double now = NAN) {
  const Topology topology = Topology::parse(machine);
  std::vector<char> busy(topology.node_count(), 1);
  for (NodeId node : free) busy[node] = 0;
  Rng rng(1);
  const MachineView view(topology, busy, static_cast<int>(free.size()), rng, nullptr, now);
  Job job = testing::make_job(1, 0, procs, 10);
  return make_allocator(spec, topology)->allocate(job, view);
}

std::vector<NodeId> nodes(const std::optional<Allocation>& allocation) {
  return allocation ? allocation->nodes : std::vector<NodeId>{-1};
}

// ---- slurm-tree on the documentation's example: 10 cases ----

TEST(SlurmTree, DocExampleTenCases) {
  const std::vector<NodeId> all = range(0, 17);
  // 1. Empty machine, 4 nodes. Top: s3 (level 1, 18 free). Every leaf holds 4 with 6 free:
  // compare() is undecided, so the first (s0) stays best; its first 4 nodes.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, all, 4)), range(0, 3));
  // 2. Best fit. Free: s0 all 6, s1 9-11 (3), s2 13-17 (5); 3 nodes: all three leaves hold 3,
  // the fewest free nodes wins: s1.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(0, 5) + range(9, 11) + range(13, 17), 3)),
            range(9, 11));
  // 3. Best fit tie. Free: s0 2-5 (4), s1 all 6, s2 14-17 (4); 4 nodes: s0 and s2 both hold 4
  // with 4 free, undecided: the first in switch order, s0.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(2, 5) + range(6, 11) + range(14, 17), 4)),
            range(2, 5));
  // 4. No leaf holds the job. Free: s0 0-1 (2), s1 6-9 (4), s2 12-14 (3); 6 nodes. Round 1: no
  // leaf holds 6, the parents are the same (s3): more free nodes wins, s1 (6-9). Round 2, 2
  // left, distances all 2: s0 (2) and s2 (3) both hold 2, the tighter s0.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(0, 1) + range(6, 9) + range(12, 14), 6)),
            range(0, 1) + range(6, 9));
  // 5. The rest goes to a later leaf by best fit. Free: s0 0-4 (5), s1 all (6), s2 12-13 (2);
  // 8 nodes. Round 1: none holds 8, most free: s1. Round 2, 2 left: s0 (5) and s2 (2) hold 2,
  // the tighter s2.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(0, 4) + range(6, 11) + range(12, 13), 8)),
            range(6, 11) + range(12, 13));
  // 6. Exact fit beats a larger leaf. Free: all but dev17; 5 nodes: s0 (6), s1 (6), s2 (5) hold
  // 5; s2 is the tightest.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(0, 16), 5)), range(12, 16));
  // 7. Fewer free nodes than the job: not now.
  EXPECT_FALSE(ask("slurm-tree", kDocTree, range(0, 4), 6).has_value());
  // 8. The whole machine, 18 nodes: round 1 no leaf holds 18, all equal: s0; round 2, 12 left,
  // s1 and s2 equal: s1; round 3, s2. Three leaves.
  const auto whole = ask("slurm-tree", kDocTree, all, 18);
  EXPECT_EQ(nodes(whole), all);
  EXPECT_EQ(whole->pieces, 3);
  // 9. Most free nodes, tie. Free: s0 3-5 (3), s1 9-11 (3), s2 17 (1); 5 nodes. Round 1: none
  // holds 5; s0 and s1 have 3 each, undecided: s0. Round 2, 2 left: s1 holds 2, s2 does not: s1,
  // its first two free nodes 9 and 10.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, range(3, 5) + range(9, 11) + range(17, 17), 5)),
            range(3, 5) + range(9, 10));
  // 10. Nodes within a leaf in id order, free nodes scattered. Free: s0 1 3 5, s1 none, s2 12 14
  // 16 17; 3 nodes: s0 holds 3 with 3 free, s2 with 4: s0, all three.
  EXPECT_EQ(nodes(ask("slurm-tree", kDocTree, {1, 3, 5, 12, 14, 16, 17}, 3)),
            (std::vector<NodeId>{1, 3, 5}));
}

// ---- slurm-tree on three levels: the lowest switch that can hold the job, least distance ----

TEST(SlurmTree, LowestSwitchAndLeastDistance) {
  // Lowest switch. Free: l0 1-3 (3), l1 none, l2 8-9 (2), l3 12-13 (2); 4 nodes. Top: "top"
  // (level 2; a1 has 4 but level 1). Round 1: no leaf holds 4. l0 is first; l2 against l0:
  // their parents differ, climb: a1 (4) holds 4, a0 (3) does not: l2 wins. l3 against l2: same
  // parent, both 2: undecided. Take 8-9. Round 2, 2 left: l0 at distance 4, l3 at 2; both hold 2,
  // l3 with fewer free nodes: l3 (closer and better). The job stays below a1.
  EXPECT_EQ(nodes(ask("slurm-tree", kThreeLevel, range(1, 3) + range(8, 9) + range(12, 13), 4)),
            range(8, 9) + range(12, 13));
  // Least distance decides a tie. Free: l0 2-3 (2), l2 all (4), l3 14-15 (2); 6 nodes. Round 1:
  // l2 (its parent a1 holds 6, a0 does not), take 8-11. Round 2, 2 left: l0 and l3 both hold 2
  // with 2 free (undecided); l0 comes first, but l3 is closer (2 < 4): l3.
  EXPECT_EQ(nodes(ask("slurm-tree", kThreeLevel, range(2, 3) + range(8, 11) + range(14, 15), 6)),
            range(8, 11) + range(14, 15));
  // Closer but a worse fit loses. Free: l0 2-3 (2), l2 all (4), l3 13-15 (3); 6 nodes. Round 1:
  // l2 as above. Round 2, 2 left: l0 (2, distance 4) first; l3 is closer but compares worse (3
  // free against 2): "closer" needs compare >= 0, so l0 stays.
  EXPECT_EQ(nodes(ask("slurm-tree", kThreeLevel, range(2, 3) + range(8, 11) + range(13, 15), 6)),
            range(2, 3) + range(8, 11));
}

TEST(SlurmTree, FatTreeIsReadAsPodsUnderATop) {
  // fattree:k=4: 8 leaves of 2 hosts (0-1, 2-3, ...), pods of 2 leaves (4 hosts), one top.
  // Empty, 3 nodes: no leaf holds 3; leaf 0 first, the others compare equal (their pods both
  // hold 3 with 4 free): leaf 0 (0-1). Round 2: leaf 1 is at distance 2, the others at 4: host 2.
  EXPECT_EQ(nodes(ask("slurm-tree", "fattree:k=4", range(0, 15), 3)), range(0, 2));
}

TEST(SlurmTree, SwitchesLimitRefusesUntilTheWaitIsOver) {
  // Case 4's free set needs 2 leaves for 6 nodes: with switches=1 and max_wait=100 the job
  // (submitted at 0) is refused at 50, accepted at 100, and accepted when no time is known.
  const std::vector<NodeId> free = range(0, 1) + range(6, 9) + range(12, 14);
  const std::string spec = "slurm-tree:switches=1,max_wait=100";
  EXPECT_FALSE(ask(spec, kDocTree, free, 6, 50).has_value());
  EXPECT_EQ(nodes(ask(spec, kDocTree, free, 6, 100)), range(0, 1) + range(6, 9));
  EXPECT_TRUE(ask(spec, kDocTree, free, 6).has_value());
  // switches=2 allows it at once; a one-leaf selection is never held back.
  EXPECT_TRUE(ask("slurm-tree:switches=2,max_wait=100", kDocTree, free, 6, 0).has_value());
  EXPECT_EQ(nodes(ask(spec, kDocTree, free, 4, 0)), range(6, 9));
  const Topology machine = Topology::parse(kDocTree);
  const auto allocator = make_allocator(spec, machine);
  EXPECT_TRUE(allocator->contiguous_only());
  EXPECT_EQ(allocator->wake_up(testing::make_job(1, 30, 6, 10)), 130.0);
  EXPECT_FALSE(make_allocator("slurm-tree", machine)->wake_up(testing::make_job(1, 30, 6, 10)));
}

// ---- --switches through whole simulations ----

/// Starts of the jobs of `jobs` on the documentation's tree under slurm-tree:switches=1 (T=100).
std::vector<double> starts(const std::string& sched, const std::vector<Job>& jobs) {
  RunConfig config;
  config.machine = kDocTree;
  config.alloc = "slurm-tree:switches=1,max_wait=100";
  config.sched = sched;
  config.keep_jobs = true;
  Workload workload;
  workload.source = "hand-made";
  workload.jobs = jobs;
  const RunResult result = simulate(config, workload);
  std::vector<double> start(jobs.size(), -1);
  for (const JobRecord& record : result.jobs) start[record.job_id - 1] = record.start;
  return start;
}

TEST(SlurmTreeSwitches, AJobWaitsUntilItsMaxWaitThenSpansMoreLeaves) {
  using testing::make_job;
  // J1-J3 (4 nodes each, 1000 s) at 0 take s0 0-3, then s1 6-9 (s0 no longer holds 4; s1 and s2
  // tie, the first), then s2 12-15; 2 nodes stay free per leaf. J4 (5 nodes, 100 s) at 10 needs
  // 3 leaves (4-5, 10-11, 16): refused while it has waited less than 100 s. Nothing ends before
  // 1000, but its wake-up at 10 + 100 = 110 runs a pass: J4 starts at 110.
  // J5 (1 node, 50 s) at 20: under fcfs it waits behind J4 and starts at 110 on the last free
  // node (17). Under EASY, J4's reservation is at its wake-up (110: the planner asks the
  // allocator at that time on the machine of then), J5 ends at 70 <= 110: backfilled at 20.
  const std::vector<Job> jobs{make_job(1, 0, 4, 1000), make_job(2, 0, 4, 1000),
                              make_job(3, 0, 4, 1000), make_job(4, 10, 5, 100),
                              make_job(5, 20, 1, 50)};
  EXPECT_EQ(starts("fcfs", jobs), (std::vector<double>{0, 0, 0, 110, 110}));
  EXPECT_EQ(starts("easy", jobs), (std::vector<double>{0, 0, 0, 110, 20}));
  EXPECT_EQ(starts("conservative", jobs), (std::vector<double>{0, 0, 0, 110, 20}));
}

TEST(SlurmTreeSwitches, BackfillingKeepsTheReservationAtTheWakeUp) {
  using testing::make_job;
  // As above plus J6 (2 nodes, 500 s) at 25. EASY at 25: J4 (refused, waited 15) is planned at
  // its wake-up 110 on the machine of then (J5 gone at 70): 6 free, 5 for J4. J6 would take
  // 10-11 (s1 and s2 hold 2 with 2 free: the first) and run past 110, leaving 4 free then: it
  // would break the reservation, so it waits. J4 starts at 110 on 4-5, 10-11, 16; J6 needs 2
  // of the one free node, and starts when J4 ends at 210. fcfs: J5 on 17 at 110, J6 at 210 too.
  // Conservative re-plans at the wake-up (a reservation in the past) and gets the same.
  const std::vector<Job> jobs{make_job(1, 0, 4, 1000), make_job(2, 0, 4, 1000),
                              make_job(3, 0, 4, 1000), make_job(4, 10, 5, 100),
                              make_job(5, 20, 1, 50),  make_job(6, 25, 2, 500)};
  EXPECT_EQ(starts("easy", jobs), (std::vector<double>{0, 0, 0, 110, 20, 210}));
  EXPECT_EQ(starts("fcfs", jobs), (std::vector<double>{0, 0, 0, 110, 110, 210}));
  EXPECT_EQ(starts("conservative", jobs), (std::vector<double>{0, 0, 0, 110, 20, 210}));
}

TEST(SlurmTreeSwitches, AReleaseWithinTheWaitGivesOneLeaf) {
  using testing::make_job;
  // As above, but J1 ends at 50: s0 has 6 free, J4 (5 nodes) fits on one leaf at 50.
  const std::vector<Job> jobs{make_job(1, 0, 4, 50), make_job(2, 0, 4, 1000),
                              make_job(3, 0, 4, 1000), make_job(4, 10, 5, 100)};
  EXPECT_EQ(starts("fcfs", jobs), (std::vector<double>{0, 0, 0, 50}));
}

TEST(SlurmTreeSwitches, AJobNoLeafHoldsIsNotDroppedOnAnIdleMachine) {
  using testing::make_job;
  // 10 nodes never fit on one 6-node leaf: refused on the idle machine at 0, yet not dropped;
  // its wake-up at 100 starts it.
  EXPECT_EQ(starts("fcfs", {make_job(1, 0, 10, 10)}), (std::vector<double>{100}));
  EXPECT_EQ(starts("easy", {make_job(1, 0, 10, 10), make_job(2, 5, 2, 10)}),
            (std::vector<double>{100, 5}));
}

// ---- slurm-dragonfly ----

TEST(SlurmDragonfly, OneLeafIfPossibleElseOneNodePerLeafPerPass) {
  // Empty, 4 nodes: the leaf with the most free nodes, the first of equals: s0, 0-3.
  EXPECT_EQ(nodes(ask("slurm-dragonfly", kDocTree, range(0, 17), 4)), range(0, 3));
  // Free: s0 0-1 (2), s1 7-11 (5), s2 12-15 (4). 4 nodes: s1 has the most and holds 4: 7-10
  // (the tree's best fit would take s2).
  const std::vector<NodeId> free = range(0, 1) + range(7, 11) + range(12, 15);
  EXPECT_EQ(nodes(ask("slurm-dragonfly", kDocTree, free, 4)), range(7, 10));
  // 8 nodes: no leaf holds 8: passes of one node per leaf: 0 7 12, 1 8 13, (s0 empty) 9 14.
  EXPECT_EQ(nodes(ask("slurm-dragonfly", kDocTree, free, 8)),
            range(0, 1) + range(7, 9) + range(12, 14));
  EXPECT_FALSE(ask("slurm-dragonfly", kDocTree, free, 12).has_value());
}

TEST(SlurmSelect, DragonflyIsReadAsRoutersUnderGroupsUnderATop) {
  // dragonfly:p=2,a=4,h=2: 36 leaves (routers, 2 nodes each: r0 0-1, r1 2-3, ...), 9 group
  // switches of 4 routers (8 nodes), one top. Leaf distances: 2 within a group, 4 across.
  const std::string machine = "dragonfly:p=2,a=4,h=2";
  // Empty, 3 nodes: no leaf holds 3; r0 first, the others compare equal (same group: equal free;
  // other groups: their groups both hold 3 with 8 free): r0 (0-1), then r1 at distance 2: 2.
  EXPECT_EQ(nodes(ask("slurm-tree", machine, range(0, 71), 3)), range(0, 2));
  // slurm-dragonfly: no leaf holds 3: one node per leaf in switch order: 0 (r0), 2 (r1), 4 (r2).
  EXPECT_EQ(nodes(ask("slurm-dragonfly", machine, range(0, 71), 3)),
            (std::vector<NodeId>{0, 2, 4}));
  // 2 nodes: the leaf with the most free nodes, the first of equals, holds them: r0.
  EXPECT_EQ(nodes(ask("slurm-dragonfly", machine, range(0, 71), 2)), range(0, 1));
  // Free: 1 (r0), 3 (r1) and group 1 whole (8-15). slurm-tree, 4 nodes: r0 first; r1 equal;
  // r4 against r0: neither holds 4, their groups differ: g1 (8 free) holds 4, g0 (2) does not:
  // r4 (8-9). Then r5 at distance 2 (r0, r1 at 4), equal to r6, r7: r5 (10-11).
  const std::vector<NodeId> free = std::vector<NodeId>{1, 3} + range(8, 15);
  EXPECT_EQ(nodes(ask("slurm-tree", machine, free, 4)), range(8, 11));
  // slurm-dragonfly, 4 nodes: the fullest leaf (r4, 2 free) does not hold 4: one node per leaf
  // in switch order: 1 (r0), 3 (r1), 8 (r4), 10 (r5).
  EXPECT_EQ(nodes(ask("slurm-dragonfly", machine, free, 4)), (std::vector<NodeId>{1, 3, 8, 10}));
}

// ---- slurm-block ----

TEST(SlurmBlock, SmallestLevelBestFitAndSegments) {
  // Empty, 20 nodes: ceil(20/30) = 1 base block, level 0: every block holds 20 with 32 free;
  // the last among equals: block4, 96-115.
  EXPECT_EQ(nodes(ask("slurm-block", kDocBlocks, range(0, 127), 20)), range(96, 115));
  // Empty, 40 nodes: 2 base blocks, level 1, the next BlockSizes level is 2 (4 base blocks, the
  // whole machine). No base block holds 40: the most free nodes, the last of equals: block4
  // (96-127); 8 left: blocks 1-3 hold 8 with 32 free: the last, block3, 64-71.
  EXPECT_EQ(nodes(ask("slurm-block", kDocBlocks, range(0, 127), 40)),
            range(64, 71) + range(96, 127));
  // Free: block1 0-24 (25), block2 32-52 (21), block3 64-73 (10), block4 96-107 (12).
  const std::vector<NodeId> free = range(0, 24) + range(32, 52) + range(64, 73) + range(96, 107);
  // 20 nodes, level 0: blocks with at least 20 free: block1 (25), block2 (21): the lowest
  // sufficient count, block2: 32-51.
  EXPECT_EQ(nodes(ask("slurm-block", kDocBlocks, free, 20)), range(32, 51));
  // 30 nodes, level 0 (30/30 = 1 base block): no block has 30 free: not now.
  EXPECT_FALSE(ask("slurm-block", kDocBlocks, free, 30).has_value());
  // segment=10: three segments of 10, each at level 0 on the nodes left: block3 (10, the
  // lowest sufficient), then block4 (12), then block2 (21 against 25): 64-73, 96-105, 32-41.
  const auto segmented = ask("slurm-block:segment=10", kDocBlocks, free, 30);
  EXPECT_EQ(nodes(segmented), range(32, 41) + range(64, 73) + range(96, 105));
  EXPECT_EQ(segmented->pieces, 3);
  // A job that is not a multiple of the segment is placed whole: 20 nodes as above.
  EXPECT_EQ(nodes(ask("slurm-block:segment=15", kDocBlocks, free, 20)), range(32, 51));
}

// ---- refusals ----

TEST(SlurmSelect, RefusesOtherMachinesByName) {
  auto message = [](const std::string& spec, const std::string& machine) -> std::string {
    try {
      make_allocator(spec, Topology::parse(machine));
    } catch (const InputError& error) {
      return error.what();
    }
    return "";
  };
  for (const char* name : {"slurm-tree", "slurm-dragonfly"}) {
    const std::string on_mesh = message(name, "mesh:4x4");
    EXPECT_NE(on_mesh.find(std::string("'") + name + "'"), std::string::npos) << on_mesh;
    EXPECT_NE(on_mesh.find("fattree"), std::string::npos) << on_mesh;
    EXPECT_NE(message(name, kDocBlocks).find("use slurm-block"), std::string::npos);
    EXPECT_NE(on_mesh.find("dragonfly"), std::string::npos) << on_mesh;
  }
  EXPECT_NE(message("slurm-block", kDocTree).find("use slurm-tree"), std::string::npos);
  EXPECT_NE(message("slurm-block", "fattree:k=4").find("block form"), std::string::npos);
}

}  // namespace
}  // namespace allocsim
