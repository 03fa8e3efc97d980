// The `slurm` scheduler's replay of the leading tests of a backfill pass (reusable_prefix in
// src/sched/slurm.cpp) on hand-made streams, each built so that one condition of the replay's
// proof decides a start: the schedule (start and nodes of every job) with shortcuts on equals
// the one with them off and the one worked out by hand, and a replay without that condition
// starts a job elsewhere. Machines are flat with the `flat` allocator (lowest free ids).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "sched/slurm_test_support.hpp"

using namespace allocsim;
using allocsim::testing::job;
using allocsim::testing::run_slurm;

namespace {

/// Job id -> (start, nodes).
using Placements = std::map<std::int64_t, std::pair<double, std::string>>;

/// Where and when each job starts under `slurm` with `config` on `machine`.
Placements placements(const std::vector<Job>& jobs, const SlurmConfig& config, bool shortcuts,
                      const std::string& machine) {
  Placements result;
  for (const auto& record : run_slurm(jobs, config, shortcuts, machine).jobs)
    result[record.job_id] = {record.start, record.allocated_nodes};
  return result;
}

}  // namespace

// The window's end moved from W to W' with a question in [W, W') after a reservation reached W
// (the "[W, W') question" condition of reusable_prefix). flat:7, bf_interval 60 s,
// bf_resolution 60 s, bf_window 10 minutes (W = now + 600), limits = runtimes.
//   At 0 jobs 1 (2 nodes, 900 s), 2 (3 nodes, 1200 s) and 3 (1 node, 1080 s) start on 0-1,
//   2-4 and 5; node 6 stays free. Jobs 4 (2 nodes, 600 s), 5 (5 nodes, 60 s) and 6 (2 nodes,
//   600 s) wait (the main pass stops at job 4); job 7 (1 node, 480 s) comes at 570. Before it
//   no pass is built (each waiting job needs more than the one free node).
//   Pass at 600 (W = 1200), on the free node 6 and the planned ends 900 (0-1), 1080 (5), 1200
//   (2-4): job 4 starts at 900 on 0-1 by will-run and holds them over [900, 1500), cut at W:
//   a reservation reached W. Job 5 tests over [600, 660], before it: all nodes usable; it
//   needs 5, reached at job 2's end 1200 = W, on the lowest 0-4; a question at W (tail_read),
//   where the map has nothing, so no overlap: recorded as 0-4 held from 1200 (beyond the
//   map). Job 6 tests over [600, 1200] (0-1 not usable): 2 nodes at job 3's end 1080, 5-6,
//   held over [1080, 1200). Job 7 over [600, 1080] then finds node 6 held: the pass ends,
//   nothing started.
//   Pass at 660 (W' = 1260; the same running jobs and queue; the pass runs since the window
//   moved after a question at W): job 4's record is replayed (0-1 over [900, 1500), cut at
//   1260), job 5's is not (its question at 1200 lies in [W, W')). Job 5 tested again: will-run
//   gives 1200 on 0-4 again, but [1200, 1260) is now in the map, where 0-1 are held: overlap;
//   from 1200 its usable nodes are 2-6 and will-run gives 1200 on 2-6 (job 1's nodes not
//   usable), held over [1200, 1260). Job 6 over [660, 1260] finds every node held and holds
//   nothing; job 7 over [660, 1140] finds node 6 unheld and starts on it at 660. (Replaying job
//   5's record would hold 0-4 over [1200, 1260): job 6 would hold 5-6 from 1080 as at 600, and
//   job 7 would not start.)
//   Then job 1 ends at 900 and job 4 starts on 0-1; job 2 ends at 1200 and job 5 starts on
//   2-6; it ends at 1260 and job 6 starts on the lowest free nodes, 2-3.
TEST(SlurmReplay, QuestionAtTheOldWindowEndIsAskedAgain) {
  SlurmConfig config;
  config.bf_interval = 60;
  config.bf_resolution = 60;
  config.bf_window = 600;
  const std::vector<Job> jobs{job(1, 0, 2, 900),  job(2, 0, 3, 1200), job(3, 0, 1, 1080),
                              job(4, 0, 2, 600),  job(5, 0, 5, 60),   job(6, 0, 2, 600),
                              job(7, 570, 1, 480)};
  const Placements by_hand{{1, {0, "0-1"}},   {2, {0, "2-4"}},    {3, {0, "5"}},
                           {4, {900, "0-1"}}, {5, {1200, "2-6"}}, {6, {1260, "2-3"}},
                           {7, {660, "6"}}};
  EXPECT_EQ(placements(jobs, config, false, "flat:7"), by_hand);
  EXPECT_EQ(placements(jobs, config, true, "flat:7"), by_hand);
}
