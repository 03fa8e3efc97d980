// TopoLB's gain as §4.4 defines it (FAvg − FMin, the average over the free processors), on a
// case worked by hand where Algorithm 1's printed divisor n − k chooses differently; and the
// hops-per-byte denominator (§3: inter-processor bytes only).
#include <gtest/gtest.h>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

// §4.4: "we maintain the minimum and average value of f_est for each unassigned task over all
// unassigned processors. Let us call these arrays FMIn[t] and FAvg[t], respectively. In the
// k-th iteration we need to select the unassigned task t_k, which maximizes the value of
// FAvg[t] − FMIn[t]."
//
// Five tasks on the ring torus:5 (d(a, b) = min(|a − b|, 5 − |a − b|)); edges (bytes):
// 0–1 (1), 0–3 (3), 1–3 (1), 2–4 (3), 3–4 (1). Order 1 costs only placed neighbours; on a
// ring every processor has the same mean distance, so order 2 adds the same U·W̄ to every
// entry of a row and FAvg − FMin (and the argmin) is the same as order 1's.
//  k = 1, F = 5: no task has a placed neighbour; every gain is 0; task 0 (lowest id) goes to
//    processor 0 (first of equal costs).
//  k = 2, F = 4, free {1,2,3,4}: task 3 costs 3·d(q,0) = [3,6,6,3], FAvg − FMin = 18/4 − 3 =
//    1.5; task 1 costs [1,2,2,1], 0.5; tasks 2, 4: 0. Task 3 → processor 1.
//  k = 3, F = 3, free {2,3,4}: task 1 (t0@0, t3@1, 1 byte each) costs [2+1, 2+2, 1+2] =
//    [3,4,3]: 10/3 − 3 = 1/3; task 4 (t3@1, 1 byte) costs [1,2,2]: 5/3 − 1 = 2/3; task 2: 0.
//    §4.4 takes task 4 → processor 2. (Algorithm 1's n − k = 2 would give task 1 10/2 − 3 = 2
//    against task 4's 5/2 − 1 = 1.5 and take task 1 → processor 2 instead.)
//  k = 4, F = 2, free {3,4}: task 1 costs [4,3]: 7/2 − 3 = 0.5; task 2 (t4@2, 3 bytes) costs
//    [3,6]: 9/2 − 3 = 1.5. Task 2 → processor 3.
//  k = 5, F = 1: task 1 → processor 4 (gain 0; n − k = 0 would divide by zero).
// Mapping [0, 4, 3, 1, 2], hop-bytes 1·1 + 3·1 + 1·2 + 3·1 + 1·1 = 10. The n − k reading maps
// [0, 2, 4, 1, 3] (order 1) with hop-bytes 11, and with order 2 starts from task 3 (its k = 1
// gains are U·W̄/(F − 1), largest for the most communicating task).
TEST(TopoLBGain, AverageOverFreeProcessorsSection44) {
  const TaskGraph graph =
      TaskGraph::from_edges(5, {{0, 1, 1}, {0, 3, 3}, {1, 3, 1}, {2, 4, 3}, {3, 4, 1}});
  const Topology ring = Topology::parse("torus:5");
  const std::vector<NodeId> nodes{0, 1, 2, 3, 4};
  for (const int order : {1, 2}) {
    Rng rng(1);
    const auto placement =
        MapperChain("topolb:order=" + std::to_string(order)).map({graph, ring, nodes}, rng);
    EXPECT_EQ(placement, (std::vector<NodeId>{0, 4, 3, 1, 2})) << "order " << order;
    EXPECT_DOUBLE_EQ(hop_bytes(graph, ring, placement).hop_bytes, 10) << "order " << order;
  }
}

// §3: "Hop-bytes is the total size of inter-processor communication in bytes weighted by
// distance between the respective end-processors"; hops per byte is "the average number of
// network links a byte has to travel". Path 0–1–2 (1 byte per edge), tasks 0 and 1 on
// processor 0, task 2 two hops away: hop-bytes 2 over the one inter-processor byte = 2 hops
// per byte (dividing by all 2 bytes would give 1).
TEST(HopsPerByte, DividesByInterProcessorBytes) {
  const TaskGraph graph = TaskGraph::from_edges(3, {{0, 1, 1}, {1, 2, 1}});
  const Topology line = Topology::parse("mesh:3");
  const std::vector<NodeId> placement{0, 0, 2};
  const HopBytes result = hop_bytes(graph, line, placement);
  EXPECT_DOUBLE_EQ(result.hop_bytes, 2);
  EXPECT_DOUBLE_EQ(result.total_bytes, 2);
  EXPECT_DOUBLE_EQ(result.inter_processor_bytes, 1);
  EXPECT_DOUBLE_EQ(result.hops_per_byte(), 2);
  // Coalesced groups: internal bytes never travel and do not dilute hops per byte either.
  const auto groups = coalesce(graph, Partition{{0, 0, 1}, 2});
  const std::vector<NodeId> group_nodes{0, 2};
  EXPECT_DOUBLE_EQ(hop_bytes(groups, line, group_nodes).hops_per_byte(), 2);
  // No byte leaves its processor: 0, not a division by zero.
  EXPECT_DOUBLE_EQ(hop_bytes(graph, line, std::vector<NodeId>{1, 1, 1}).hops_per_byte(), 0);
}
