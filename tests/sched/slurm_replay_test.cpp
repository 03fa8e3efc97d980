// The `slurm` scheduler's replay of the leading tests of a backfill pass (reusable_prefix, its
// pass memory) on hand-made streams, each built so that one condition of the replay's proof
// decides a start: the schedule (start and nodes of every job) with shortcuts on equals the one
// with them off and the one worked out by hand, and a replay without that condition starts a
// job elsewhere, or, for a condition implied by the others, why none can. Machines are flat
// with the `flat` allocator (lowest free ids).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "sched/sched_test_support.hpp"

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

// A recorded test whose will-run answered at a planned end already passed (the "will-run start"
// condition of reusable_prefix: every will-run start of the job's tries after now). flat:7,
// bf_interval 60 s, bf_resolution 60 s, limits not enforced.
//   At 0 jobs 1 (2 nodes, limit 1 minute, runs 200 s), 2 (2 nodes, 600 s) and 3 (2 nodes,
//   1200 s) start on 0-1, 2-3 and 4-5; node 6 stays free; planned ends 60, 600, 1200. Jobs 4
//   (4 nodes, 300 s) and 5 (3 nodes, 600 s) wait; job 6 (1 node, 840 s) comes at 90.
//   Pass at 120: job 4's will-run reaches 4 nodes at job 2's end 600 (job 1's passed end gives
//   3), on 0-3, held over [600, 900). Job 5 tests over [120, 720]: 0-3 not usable; will-run on
//   4-6 gives job 3's end 1200, after later_start 900 (where 0-3 are released): try again
//   from 900, where every node is usable and will-run answers at job 1's passed end (start
//   121, so a will-run start not after the next pass's now); the start is then start_res 900,
//   and job 5 holds 0-1 and 6 over [900, 1500). Job 6 ([120, 960]) finds node 6 held.
//   Pass at 180 (same running jobs: job 1 is past its limit): job 5's record is not replayed
//   (its will-run start 121 is not after 180), and tested again it comes out the same: its
//   second try starts from 900, which the answer at the passed end (now 181) does not pass.
//   A replay without that condition gives the same map here, and always: the condition is
//   implied by the others (no test can fail without it). A will-run answer at an end e <= now
//   starts the job at max(e or then + 1, start_res) then and max(now + 1, start_res) now.
//   In the first try (start_res = then) that start lies in (then, now]: a later_start before
//   it is a boundary in (then, now], an overlap of its nodes (usable over [then, then + L])
//   needs a boundary in (then + L, now + L), and a reservation from it begins by now, all
//   refused by the other conditions (a start beyond the window there is not beyond it now).
//   Later tries start from boundaries or retried starts, all after now; one in (now, now + 1)
//   (a planned end there, never a boundary: boundaries and now are whole seconds, as
//   bf_interval and bf_resolution are) makes that try start at it, with no overlap (its nodes
//   are usable over [start_res, start_res + L]) and a reservation from <= now, refused. So in
//   a replayed record every such answer is overtaken by a start_res >= now + 1, then and now.
//   Job 6 waits as in the pass at 120.
//   Job 1 ends at 200. Pass at 240: the same reservations; job 2 ends at 600 and job 4 starts
//   on 0-3; pass at 600: job 5 reaches 3 nodes at job 4's end 900 on 0-2, and job 6 over
//   [600, 1440] finds node 6 unheld: it starts on it at 600. Job 5 starts at 900 on 0-2.
TEST(SlurmReplay, WillRunStartAtAPassedEndOnlyReachesALaterTry) {
  SlurmConfig config;
  config.bf_interval = 60;
  config.bf_resolution = 60;
  config.enforce_limits = false;
  const std::vector<Job> jobs{job(1, 0, 2, 200, -1, 60), job(2, 0, 2, 600), job(3, 0, 2, 1200),
                              job(4, 0, 4, 300),         job(5, 0, 3, 600), job(6, 90, 1, 840)};
  const Placements by_hand{{1, {0, "0-1"}},   {2, {0, "2-3"}},   {3, {0, "4-5"}},
                           {4, {600, "0-3"}}, {5, {900, "0-2"}}, {6, {600, "6"}}};
  EXPECT_EQ(placements(jobs, config, false, "flat:7"), by_hand);
  EXPECT_EQ(placements(jobs, config, true, "flat:7"), by_hand);
}
