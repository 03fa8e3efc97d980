// Per-job records and run summaries (metrics/job_metrics.hpp), on hand-made jobs.
#include "allocsim/metrics/job_metrics.hpp"

#include <gtest/gtest.h>

#include "allocsim/metrics/span.hpp"
#include "testing/tiny_graph.hpp"

using namespace allocsim;

namespace {

Job job(std::int64_t id, double submit, int procs) {
  Job j;
  j.id = id;
  j.submit = submit;
  j.procs = procs;
  j.estimate = 100;
  return j;
}

}  // namespace

TEST(JobRecordBuilder, SpansInTheAllocatorsOrderOrInRowOrder) {
  const Topology line = Topology::parse("mesh:8");
  const std::vector<NodeId> nodes{0, 1};
  JobRecord row;
  JobRecordBuilder(line, nullptr).start(row, job(1, 0, 2), 5, nodes, 1);
  EXPECT_EQ(row.linear_span, 2);
  EXPECT_EQ(row.ring_span, 2);
  EXPECT_EQ(row.stretch, 1);
  // In an order where node 1 has rank 5: linear span 0..5 = 6, ring arc 5..7,0 = 4.
  const std::vector<int> ranks{0, 5, 1, 2, 3, 4, 6, 7};
  JobRecord curve;
  JobRecordBuilder(line, &ranks).start(curve, job(1, 0, 2), 5, nodes, 2);
  EXPECT_EQ(curve.linear_span, 6);
  EXPECT_EQ(curve.ring_span, 4);
  EXPECT_EQ(curve.stretch, 3);
  EXPECT_EQ(curve.pieces, 2);
  EXPECT_EQ(curve.avg_pairwise_hops, 1);
  EXPECT_EQ(curve.wait, 5);
}

// On a graph machine (the tiny tree: nodes 0, 1 under leaf0 in group 0, 2, 3 under leaf1 in
// group 1) the router columns are set and the grid columns stay 0 (not applicable).
TEST(JobRecordBuilder, GraphMachinesGetRouterColumnsAndNoBoxes) {
  const Topology tree = allocsim::testing::tiny_tree();
  JobRecord record;
  // Nodes {1, 2, 3}: pairs (1,2) 4 links / 2 router hops, (1,3) 4 / 2, (2,3) 2 / 0.
  JobRecordBuilder(tree, nullptr).start(record, job(1, 0, 3), 0, std::vector<NodeId>{1, 2, 3}, 1);
  EXPECT_EQ(record.avg_pairwise_hops, 10.0 / 3);
  EXPECT_EQ(record.router_hops, 4.0 / 3);
  EXPECT_EQ(record.routers_spanned, 2);
  EXPECT_EQ(record.groups_spanned, 2);
  EXPECT_EQ(record.linear_span, 3);  // node ids 1..3
  EXPECT_EQ(record.stretch, 1);
  EXPECT_EQ(record.components, 0);
  EXPECT_EQ(record.bbox_volume, 0);
  EXPECT_EQ(record.bbox_ratio, 0);
  EXPECT_EQ(record.bbox_sides, 0);
  EXPECT_EQ(record.bounding_cube_ratio, 0);
  EXPECT_EQ(record.ring_span, 0);
  // And on a grid the router columns stay 0.
  JobRecord grid;
  const Topology line = Topology::parse("mesh:8");
  JobRecordBuilder(line, nullptr).start(grid, job(2, 0, 2), 0, std::vector<NodeId>{0, 1}, 1);
  EXPECT_EQ(grid.router_hops, 0);
  EXPECT_EQ(grid.routers_spanned, 0);
  EXPECT_EQ(grid.groups_spanned, 0);
  EXPECT_EQ(grid.components, 1);
}

TEST(JobRecordBuilder, EndFieldsAreSetAtFinish) {
  JobRecord record;
  const Topology line = Topology::parse("mesh:8");
  JobRecordBuilder(line, nullptr).start(record, job(1, 2, 1), 4, std::vector<NodeId>{3}, 1);
  JobRecordBuilder::finish(record, 24, 10);
  EXPECT_EQ(record.end, 24);
  EXPECT_EQ(record.runtime, 20);
  EXPECT_EQ(record.bounded_slowdown, 22.0 / 20.0);
  JobRecordBuilder::finish(record, 9, 10);  // runtime 5 < Δ: max(7, 10) / max(5, 10)
  EXPECT_EQ(record.bounded_slowdown, 1);
}

TEST(SummarizeRecords, WaitsMakespanAndUtilization) {
  std::vector<JobRecord> records(4);
  const double waits[] = {4, 1, 3, 2};
  for (int i = 0; i < 4; ++i) {
    records[i].submit = i;
    records[i].wait = waits[i];
    records[i].start = i + waits[i];
    records[i].procs = 2;
    records[i].runtime = 10;
    records[i].end = records[i].start + 10;
  }
  const RunSummary s = summarize_records(records, 8, 0.5);
  EXPECT_EQ(s.jobs, 4);
  EXPECT_EQ(s.first_submit, 0);
  EXPECT_EQ(s.last_end, 15);  // job 2: 2 + 3 + 10
  EXPECT_EQ(s.makespan, 15);
  EXPECT_EQ(s.utilization, 80.0 / (8 * 15));
  EXPECT_EQ(s.mean_wait, 2.5);
  EXPECT_EQ(s.median_wait, 2.5);
  EXPECT_EQ(s.p95_wait, 4);  // nearest rank: the 4th of 4
  EXPECT_EQ(s.max_wait, 4);
  EXPECT_EQ(s.offered_load, 0.5);
  EXPECT_EQ(summarize_records({}, 8, 0.5).offered_load, 0);
}
