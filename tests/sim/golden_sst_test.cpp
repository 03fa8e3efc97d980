// Golden whole-simulation test against the SST scheduler simulator's own regression output
// (../shared/reference/sst-scheduler-0001): NASA iPSC/860 on mesh[16,8], EASY + sorted free
// list in snake order. Every job's start and end time and its average pairwise L1 distance
// must equal SST's.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/workload/reader.hpp"

using namespace allocsim;

TEST(GoldenSst, NasaEasySnakeMatchesSstJobByJob) {
  const char* traces = std::getenv("ALLOCSIM_TRACE_DIR");
  const char* reference = std::getenv("ALLOCSIM_REFERENCE_DIR");
  if (!traces || !reference)
    GTEST_SKIP() << "ALLOCSIM_TRACE_DIR / ALLOCSIM_REFERENCE_DIR not set: SST golden test skipped";
  const std::string out_path =
      std::string(reference) + "/sst-scheduler-0001/test_scheduler_0001.out.gz";
  const std::vector<std::string> lines = read_lines(out_path);

  RunConfig config;
  config.machine = "mesh:16x8";
  config.trace = "NASA-iPSC-1993-3.1-cln";
  config.sched = "easy";
  config.alloc = "sortedfreelist:order=snake";
  config.keep_jobs = true;
  const RunResult result = simulate(config, std::string(traces));
  ASSERT_EQ(result.jobs.size(), 18239u);

  // SST numbers jobs by 0-based line; our records are in the same (submit, id) order.
  enum { kNone, kAllocation, kSchedule } section = kNone;
  std::size_t compared_schedule = 0, compared_distance = 0;
  for (const auto& line : lines) {
    if (line.rfind("# Job\tProcs", 0) == 0) section = kAllocation;
    if (line.rfind("# Job", 0) == 0 && line.find("Arrival") != std::string::npos)
      section = kSchedule;
    if (line.empty() || line[0] == '#' || section == kNone) continue;
    std::istringstream fields(line);
    std::size_t job = 0;
    if (!(fields >> job) || job >= result.jobs.size()) continue;
    const JobRecord& mine = result.jobs[job];
    if (section == kAllocation) {
      double procs, actual, distance;
      fields >> procs >> actual >> distance;
      EXPECT_NEAR(mine.avg_pairwise_hops, distance, 1e-5) << "job " << job;
      ++compared_distance;
    } else {
      double arrival, start, end;
      fields >> arrival >> start >> end;
      EXPECT_EQ(mine.submit, arrival) << "job " << job;
      EXPECT_EQ(mine.start, start) << "job " << job;
      EXPECT_EQ(mine.end, end) << "job " << job;
      ++compared_schedule;
    }
  }
  EXPECT_EQ(compared_schedule, 18239u);
  EXPECT_EQ(compared_distance, 18239u);
}
