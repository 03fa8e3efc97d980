// Summary of interference (actual / alone runtime), overall and split by communication class,
// and the metrics on trace runtimes, on hand-made records.
#include <gtest/gtest.h>

#include "allocsim/metrics/job_metrics.hpp"

using namespace allocsim;

namespace {

JobRecord record(double interference, double comm_class, double runtime_alone = 1) {
  JobRecord r;
  r.interference = interference;
  r.runtime_alone = runtime_alone;
  r.comm_class = comm_class;
  return r;
}

}  // namespace

TEST(InterferenceSummary, MeanP95AndMaxPerClass) {
  // Heavy (2): 1, 3, 2 -> mean 2, p95 = nearest rank ceil(0.95 x 3) = 3rd of 1, 2, 3 = 3, max 3.
  // Light (1): 1.5 and 1 -> mean 1.25, p95 = 2nd of 1, 1.5 = 1.5, max 1.5.
  // None (0): 4. A record without an alone runtime (wormhole: interference 0) counts nowhere.
  // All measured: 1, 1, 1.5, 2, 3, 4 -> mean 12.5 / 6, p95 = ceil(5.7) = 6th = 4, max 4.
  const std::vector<JobRecord> records{record(1, 2), record(3, 2), record(2, 2),   record(1.5, 1),
                                       record(1, 1), record(4, 0), record(0, 2, 0)};
  const RunSummary s = summarize_records(records, 4, 0);
  EXPECT_DOUBLE_EQ(s.mean_interference, 12.5 / 6);
  EXPECT_DOUBLE_EQ(s.p95_interference, 4);
  EXPECT_DOUBLE_EQ(s.max_interference, 4);
  EXPECT_DOUBLE_EQ(s.mean_interference_heavy, 2);
  EXPECT_DOUBLE_EQ(s.p95_interference_heavy, 3);
  EXPECT_DOUBLE_EQ(s.max_interference_heavy, 3);
  EXPECT_DOUBLE_EQ(s.mean_interference_light, 1.25);
  EXPECT_DOUBLE_EQ(s.p95_interference_light, 1.5);
  EXPECT_DOUBLE_EQ(s.max_interference_light, 1.5);
}

TEST(InterferenceSummary, UtilizationAndSlowdownOnTraceRuntimes) {
  // Two jobs on 4 nodes, submitted at 0: job A 2 procs, trace 10, actual 0 -> 20; job B 2
  // procs, trace 10, actual 0 -> 15. Makespan 20. Utilization on actual runtimes
  // (2 x 20 + 2 x 15) / 80 = 0.875; on trace runtimes (2 x 10 + 2 x 10) / 80 = 0.5.
  // Bounded slowdown (threshold 10) on trace runtimes: 20 / 10 = 2 and 15 / 10 = 1.5, mean 1.75;
  // on actual runtimes 1 and 1.
  std::vector<JobRecord> records(2);
  for (int i = 0; i < 2; ++i) {
    records[i].procs = 2;
    records[i].nodes = 2;
    records[i].trace_runtime = 10;
    JobRecordBuilder::finish(records[i], i == 0 ? 20 : 15, 10);
  }
  EXPECT_DOUBLE_EQ(records[0].bounded_slowdown_trace, 2);
  EXPECT_DOUBLE_EQ(records[1].bounded_slowdown_trace, 1.5);
  const RunSummary s = summarize_records(records, 4, 0);
  EXPECT_DOUBLE_EQ(s.utilization, 0.875);
  EXPECT_DOUBLE_EQ(s.utilization_trace, 0.5);
  EXPECT_DOUBLE_EQ(s.mean_bounded_slowdown, 1);
  EXPECT_DOUBLE_EQ(s.mean_bounded_slowdown_trace, 1.75);
}
