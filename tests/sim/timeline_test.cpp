// The machine's state over time (sim/timeline.hpp) on hand-made schedules: one row per event
// time at which busy nodes, queued or running jobs change, the state after all events there.
#include <gtest/gtest.h>

#include "allocsim/sim/simulation.hpp"
#include "sim/job_maker.hpp"

namespace allocsim {
namespace {

using allocsim::testing::make_job;

std::vector<TimelineRow> timeline_of(std::vector<Job> jobs, bool keep = true) {
  RunConfig config;
  config.machine = "mesh:2x2";
  config.alloc = "flat";
  config.sched = "fcfs";
  config.keep_timeline = keep;
  Workload workload;
  workload.jobs = std::move(jobs);
  return Simulation(config, std::move(workload)).run().timeline;
}

}  // namespace

TEST(Timeline, HandMadeFcfsSchedule) {
  // tests/data/timeline.swf: 1 (0, 2 nodes, 10 s) and 2 (0, 2, 5) start at 0; 3 (1, 4 nodes,
  // 3 s) waits for the whole machine until 10; 4 (2, 1, 2 s) waits behind it (FCFS) until 13;
  // 5 arrives at 15 as 4 ends and starts at once on one node: no change, no row at 15.
  const std::vector<TimelineRow> rows =
      timeline_of({make_job(1, 0, 2, 10), make_job(2, 0, 2, 5), make_job(3, 1, 4, 3),
                   make_job(4, 2, 1, 2), make_job(5, 15, 1, 2)});
  const std::vector<TimelineRow> expected = {
      {0, 4, 1.0, 0, 2},  {1, 4, 1.0, 1, 2},   {2, 4, 1.0, 2, 2}, {5, 2, 0.5, 2, 1},
      {10, 4, 1.0, 1, 1}, {13, 1, 0.25, 0, 1}, {17, 0, 0.0, 0, 0}};
  EXPECT_EQ(rows, expected);
}

TEST(Timeline, AJobOfZeroSecondsChangesNothing) {
  // Job 2 arrives, starts and ends at 5 while job 1 runs: the state at 5 equals the one at 0.
  const std::vector<TimelineRow> rows = timeline_of({make_job(1, 0, 1, 10), make_job(2, 5, 2, 0)});
  const std::vector<TimelineRow> expected = {{0, 1, 0.25, 0, 1}, {10, 0, 0.0, 0, 0}};
  EXPECT_EQ(rows, expected);
}

TEST(Timeline, OnlyWhenKept) {
  EXPECT_TRUE(timeline_of({make_job(1, 0, 1, 10)}, false).empty());
  EXPECT_EQ(timeline_of({make_job(1, 0, 1, 10)}).size(), 2u);
}

}  // namespace allocsim
