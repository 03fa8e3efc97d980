// The `slurm` scheduler (sched/slurm.hpp) on hand-made job streams whose schedules are worked
// out in the comments, one parameter at a time; and the slurm.conf / spec-key reader.
// Machines are flat with the `flat` allocator (lowest free ids); times are whole minutes where
// a time limit matters, so Slurm's minute rounding of limits changes nothing unless said.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "sched/sched_test_support.hpp"

using namespace allocsim;
using allocsim::testing::job;
using allocsim::testing::run_flat;
using allocsim::testing::run_slurm;

namespace {

using Schedule = std::map<std::int64_t, std::pair<double, double>>;

RunResult run(const std::string& sched, std::vector<Job> jobs, const std::string& machine) {
  return run_flat(std::move(jobs), machine, sched);
}

/// Job id -> (start, end).
Schedule schedule(const std::string& sched, std::vector<Job> jobs,
                  const std::string& machine = "flat:4") {
  Schedule result;
  for (const auto& record : run(sched, std::move(jobs), machine).jobs)
    result[record.job_id] = {record.start, record.end};
  return result;
}

const std::string kMultifactor = "slurm:PriorityType=priority/multifactor,PriorityCalcPeriod=0,";

}  // namespace

// ---- Priorities: each weight alone, then against each other ----

// flat:8. Job 1 holds all 8 nodes over [0, 600). Job 2 (5 nodes) is submitted at 60, job 3
// (8 nodes) at 300; both run 60 s, and no two of them fit together, so they start one after the
// other at 600 in priority order. Priorities at 600 (PriorityCalcPeriod=0: computed at the pass):
//   age (PriorityMaxAge=10 = 600 s): job 2 540/600 = 0.9, job 3 300/600 = 0.5;
//   size: job 2 5/8 = 0.625, job 3 8/8 = 1 (with PriorityFavorSmall=YES: 0.375 and 0).
TEST(SlurmScheduler, BasicPriorityIsFirstComeFirstServed) {
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  const Schedule fifo{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}};
  EXPECT_EQ(schedule("slurm", jobs, "flat:8"), fifo);
  EXPECT_EQ(schedule("slurm:PriorityType=priority/basic", jobs, "flat:8"), fifo);
  // Multifactor with every weight 0: every priority is 1, ties go to the earlier submit.
  EXPECT_EQ(schedule("slurm:PriorityType=priority/multifactor", jobs, "flat:8"), fifo);
}

TEST(SlurmScheduler, AgeWeightAloneOrdersBySubmitTime) {
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  // Job 2: 1000 x 0.9 = 900, job 3: 1000 x 0.5 = 500: job 2 first.
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightAge=1000,PriorityMaxAge=10", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}}));
}

TEST(SlurmScheduler, JobSizeWeightAloneFavorsLargeJobsOrSmallOnes) {
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  // Job 2: 1000 x 0.625 = 625, job 3: 1000 x 1 = 1000: job 3 first although it came later.
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightJobSize=1000", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {3, {600, 660}}, {2, {660, 720}}}));
  // PriorityFavorSmall=YES: job 2: 375, job 3: 0 -> 1 (the least priority): job 2 first.
  EXPECT_EQ(
      schedule(kMultifactor + "PriorityWeightJobSize=1000,PriorityFavorSmall=YES", jobs, "flat:8"),
      (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}}));
}

TEST(SlurmScheduler, WeightsDecideBetweenAgeAndSize) {
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  // Age 1000, size 500: job 2: 900 + 312.5 = 1212, job 3: 500 + 500 = 1000: job 2 first.
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightAge=1000,PriorityMaxAge=10,"
                                    "PriorityWeightJobSize=500",
                     jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}}));
  // Age 100, size 1000: job 2: 90 + 625 = 715, job 3: 50 + 1000 = 1050: job 3 first.
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightAge=100,PriorityMaxAge=10,"
                                    "PriorityWeightJobSize=1000",
                     jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {3, {600, 660}}, {2, {660, 720}}}));
}

TEST(SlurmScheduler, MaxAgeCapsTheAgeFactor) {
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  // PriorityMaxAge=5 (300 s): at 600 both ages (540 and 300 s) are capped, both age factors 1.
  // Age 1000 and size 1: job 2: trunc(1000 + 0.625) = 1000, job 3: 1000 + 1 = 1001: job 3
  // first. With PriorityMaxAge=10, job 2: trunc(900.625) = 900 > job 3: 501.
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightAge=1000,PriorityMaxAge=5,"
                                    "PriorityWeightJobSize=1",
                     jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {3, {600, 660}}, {2, {660, 720}}}));
  EXPECT_EQ(schedule(kMultifactor + "PriorityWeightAge=1000,PriorityMaxAge=10,"
                                    "PriorityWeightJobSize=1",
                     jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}}));
}

// flat:8, two users. Job 1 (user 1) holds all 8 nodes over [0, 600). Waiting: job 2 (user 2,
// submit 10), job 3 (user 1, submit 20), job 4 (user 2, submit 30), 8 nodes for 60 s each.
// Shares: 2 users in the trace, S = 1/2 each; fair share F = 2^(-U/S) = 2^(-2 U), U the user's
// fraction of all (decayed) usage.
// At 600 only user 1 has used anything: U1 = 1, U2 = 0, so user 2's job 2 starts (F = 1; job 4
// ties with it and came later). It runs over [600, 660). At 660:
//  - no decay (PriorityDecayHalfLife=0): U1 = 8 x 600 = 4800, U2 = 8 x 60 = 480, user 2 has used
//    less: job 4 (F2 = 2^(-2 x 480/5280) = 0.88) before job 3 (F1 = 2^(-2 x 4800/5280) = 0.28);
//  - half-life 1 minute (h = 60 s, c = 8 h / ln 2): U1 = c (2^-1 - 2^-11) (usage over [0, 600)
//    seen at 660), U2 = c (1 - 2^-1): U2 - U1 = c 2^-11 > 0, so user 1 has used less now:
//    F1 = 2^(-2 x 0.49976) = 0.50017 x 100000 = 50017 > F2 = 0.49983 x 100000 = 49983, job 3
//    runs before job 4.
TEST(SlurmScheduler, FairShareWeightAloneWithAndWithoutDecay) {
  const std::vector<Job> jobs{job(1, 0, 8, 600, 1), job(2, 10, 8, 60, 2), job(3, 20, 8, 60, 1),
                              job(4, 30, 8, 60, 2)};
  const std::string fairshare = kMultifactor + "PriorityWeightFairshare=100000,";
  EXPECT_EQ(schedule(fairshare + "PriorityDecayHalfLife=0", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {4, {660, 720}}, {3, {720, 780}}}));
  EXPECT_EQ(schedule(fairshare + "PriorityDecayHalfLife=1", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}, {4, {720, 780}}}));
  // Basic priority: first come first served.
  EXPECT_EQ(schedule("slurm", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}, {4, {720, 780}}}));
}

// flat:8. Job 1 (8 nodes) runs over [0, 610). Job 2 (5 nodes, submit 0) and job 3 (8 nodes,
// submit 5) wait; PriorityMaxAge=10 (600 s), age weight 1000, size weight 20.
//  - PriorityCalcPeriod=0: at 610 both ages are capped (610 and 605 s): job 2: 1000 + 12.5,
//    job 3: 1000 + 20: job 3 first.
//  - PriorityCalcPeriod=5 (300 s): the priorities of 610 are those of the tick at 600: job 2
//    age 600 s (capped): 1012; job 3 age 595 s: 991.67 + 20 = 1011: job 2 first.
TEST(SlurmScheduler, CalcPeriodFreezesPrioritiesBetweenTicks) {
  const std::vector<Job> jobs{job(1, 0, 8, 610), job(2, 0, 5, 60), job(3, 5, 8, 60)};
  const std::string weights =
      "slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,PriorityMaxAge=10,"
      "PriorityWeightJobSize=20,";
  EXPECT_EQ(schedule(weights + "PriorityCalcPeriod=0", jobs, "flat:8"),
            (Schedule{{1, {0, 610}}, {3, {610, 670}}, {2, {670, 730}}}));
  EXPECT_EQ(schedule(weights + "PriorityCalcPeriod=5", jobs, "flat:8"),
            (Schedule{{1, {0, 610}}, {2, {610, 670}}, {3, {670, 730}}}));
}

// ---- Main pass and backfill ----

// flat:4. Job 1 holds 2 nodes over [0, 600). Job 2 (4 nodes, submit 10) waits for them. Job 3
// (1 node, 60 s, submit 40) fits the 2 free nodes and ends long before 600, but the main pass
// at its submit stops at job 2 (first that cannot start); the backfill pass starts it at the
// next multiple of bf_interval: 60 (default 30), 45 (bf_interval=45), 100 (bf_interval=100).
TEST(SlurmScheduler, BackfillWaitsForTheNextInterval) {
  const std::vector<Job> jobs{job(1, 0, 2, 600), job(2, 10, 4, 60), job(3, 40, 1, 60)};
  EXPECT_EQ(schedule("slurm", jobs), (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {60, 120}}}));
  EXPECT_EQ(schedule("slurm:bf_interval=45", jobs),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {45, 105}}}));
  EXPECT_EQ(schedule("slurm:bf_interval=100", jobs),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {100, 160}}}));
  // sched/builtin: no backfill; job 3 waits behind job 2 (FIFO).
  EXPECT_EQ(schedule("slurm:SchedulerType=sched/builtin", jobs),
            (Schedule{{1, {0, 600}}, {2, {600, 660}}, {3, {660, 720}}}));
}

// A job that fits at its submit starts there (main pass), not at the next backfill pass.
TEST(SlurmScheduler, MainPassStartsJobsAtSubmit) {
  const std::vector<Job> jobs{job(1, 0, 2, 600), job(2, 10, 1, 60), job(3, 17, 1, 60)};
  EXPECT_EQ(schedule("slurm", jobs), (Schedule{{1, {0, 600}}, {2, {10, 70}}, {3, {17, 77}}}));
}

// flat:4. Job 1 holds 2 nodes over [0, 3600). Job 2 (4 nodes, 60 s, submit 10) can start at
// 3600. Job 3 (2 nodes, 7200 s, submit 20) fits the 2 free nodes now but would hold them past
// 3600. First backfill pass at 30:
//  - bf_window=120 (minutes; window end 30 + 7200 -> 7200 rounded down to bf_resolution 60):
//    job 2's start 3600 is within the window: it reserves 4 nodes over [3600, 3660); job 3 then
//    cannot start now (its [30, 7230) crosses the reservation), and waits: 3660.
//  - bf_window=59: 3600 > 30 + 3540: job 2 "starts too far in the future", no reservation;
//    job 3 starts at 30 and ends at 7230; job 2 starts then.
TEST(SlurmScheduler, WindowLimitsWhichJobsHoldReservations) {
  const std::vector<Job> jobs{job(1, 0, 2, 3600), job(2, 10, 4, 60), job(3, 20, 2, 7200)};
  EXPECT_EQ(schedule("slurm:bf_window=120", jobs),
            (Schedule{{1, {0, 3600}}, {2, {3600, 3660}}, {3, {3660, 10860}}}));
  EXPECT_EQ(schedule("slurm:bf_window=59", jobs),
            (Schedule{{1, {0, 3600}}, {2, {7230, 7290}}, {3, {30, 7230}}}));
}

// flat:4. Job 1 holds 2 nodes over [0, 3600). Jobs 2 and 3 (4 nodes, 60 s, submit 10 and 11)
// wait for it; job 4 (1 node, 60 s, submit 12) fits now and ends long before 3600.
//  - bf_max_job_test=3 (or the default 500): the pass at 30 tests jobs 2, 3 (reservations at
//    3600 and 3660) and 4, which starts at 30.
//  - bf_max_job_test=2: every pass ends after jobs 2 and 3; job 4 waits for the main pass: job 2
//    at 3600, job 3 at 3660, job 4 at 3720 (while job 3 runs, no node is free).
TEST(SlurmScheduler, MaxJobTestLimitsHowDeepBackfillLooks) {
  const std::vector<Job> jobs{job(1, 0, 2, 3600), job(2, 10, 4, 60), job(3, 11, 4, 60),
                              job(4, 12, 1, 60)};
  const Schedule deep{{1, {0, 3600}}, {2, {3600, 3660}}, {3, {3660, 3720}}, {4, {30, 90}}};
  EXPECT_EQ(schedule("slurm", jobs), deep);
  EXPECT_EQ(schedule("slurm:bf_max_job_test=3", jobs), deep);
  EXPECT_EQ(schedule("slurm:bf_max_job_test=2", jobs),
            (Schedule{{1, {0, 3600}}, {2, {3600, 3660}}, {3, {3660, 3720}}, {4, {3720, 3780}}}));
}

// flat:4. Job 1 (user 1) holds 2 nodes over [0, 3600); job 2 (user 1, 4 nodes) waits for it.
// Jobs 3 and 4 (user 2, 1 node, 60 s, submit 11 and 12) fit the 2 free nodes now.
//  - no limit: both start at the pass at 30;
//  - bf_max_job_user=1: the pass at 30 tests one job of user 2 (job 3, started); job 4 is
//    skipped; the pass at 60 (counts restart) starts it.
TEST(SlurmScheduler, MaxJobUserLimitsTestsPerUser) {
  const std::vector<Job> jobs{job(1, 0, 2, 3600, 1), job(2, 10, 4, 60, 1), job(3, 11, 1, 60, 2),
                              job(4, 12, 1, 60, 2)};
  EXPECT_EQ(schedule("slurm", jobs),
            (Schedule{{1, {0, 3600}}, {2, {3600, 3660}}, {3, {30, 90}}, {4, {30, 90}}}));
  EXPECT_EQ(schedule("slurm:bf_max_job_user=1", jobs),
            (Schedule{{1, {0, 3600}}, {2, {3600, 3660}}, {3, {30, 90}}, {4, {60, 120}}}));
}

// Reservations are rounded down to bf_resolution. flat:4. Job 1 holds 3 nodes over [0, 90)
// (limit 2 minutes: it is planned to end at 120, and ends at 90). Job 2 (4 nodes, 60 s, submit
// 1) waits. Job 3 (1 node, runtime 50 s, limit 2 minutes, submit 2) fits the free node now.
// Pass at 30: job 2's earliest start is job 1's planned end 120, its reservation [120, 180) on
// all four nodes; job 3's [30, 150] crosses it: job 3 waits. Job 1 ends at 90 and job 2 starts
// (main pass), then job 3 at 150. With bf_resolution=100 both ends round down to 100, and
// Slurm 22.05 makes such a reservation one bf_resolution long ("Ensure that the job always
// occupies at least one bf_resolution slot within the map", backfill.c's _add_reservation):
// [100, 200), which job 3's [30, 150] crosses too. (Before the map held nodes, this case read
// [100, 100) as holding nothing and started job 3 at 30: Slurm does not.)
// Job 4 instead of job 3 (1 node, 50 s, limit 1 minute, submit 2): its [30, 90] ends before
// [120, 180) and it starts at 30; with bf_resolution=45 the reservation rounds down to
// [90, 180), which job 4's [30, 90] touches at its end (Slurm keeps a segment that begins at the
// job's end: "node_space[j].begin_time <= end_time"): job 4 waits until job 2 ends at 150.
TEST(SlurmScheduler, ResolutionRoundsReservationsDown) {
  const std::vector<Job> jobs{job(1, 0, 3, 90, -1, 120), job(2, 1, 4, 60),
                              job(3, 2, 1, 50, -1, 120)};
  EXPECT_EQ(schedule("slurm", jobs), (Schedule{{1, {0, 90}}, {2, {90, 150}}, {3, {150, 200}}}));
  EXPECT_EQ(schedule("slurm:bf_resolution=100", jobs),
            (Schedule{{1, {0, 90}}, {2, {90, 150}}, {3, {150, 200}}}));
  const std::vector<Job> short_job{job(1, 0, 3, 90, -1, 120), job(2, 1, 4, 60),
                                   job(4, 2, 1, 50, -1, 60)};
  EXPECT_EQ(schedule("slurm", short_job), (Schedule{{1, {0, 90}}, {2, {90, 150}}, {4, {30, 80}}}));
  EXPECT_EQ(schedule("slurm:bf_resolution=45", short_job),
            (Schedule{{1, {0, 90}}, {2, {90, 150}}, {4, {150, 200}}}));
}

// Reservations on nodes (issue 28 section 3: the case where the count-based model held a job
// that Slurm backfilled). flat:8, `flat` allocator (lowest free ids). Job A (3 nodes, n0-n2) is
// planned to end at 60, job B (4 nodes, n3-n6) at 120; n7 is free. Job H (4 nodes, 60 s, submit
// 1) waits; job J (1 node, 180 s, submit 2) fits the free node.
// Pass at 30, H: nothing fits on n7 alone, so the select plugin's will-run test removes the
// running jobs a group at a time: the first group runs to the first end rounded up to a
// multiple of 30, plus 30 (60 -> 90 -> 120), so A and B go together, and H is planned at B's end,
// 120, on the nodes flat chooses then: n0-n3 (held over [120, 180)). J: the nodes no
// reservation holds over [30, 210] are n4-n7, of which n7 is free: J starts at 30 on n7.
// H starts when B ends (120): at A's end only n0-n2 are free. Counting nodes instead (the model
// before this test), H reserved 4 of the 4 nodes free at 60 and J, which runs past 60, waited:
// H at 60 (on n0-n2 and n7), J at 120.
TEST(SlurmScheduler, BackfillUsesAFreeNodeNoReservationHolds) {
  const std::vector<Job> jobs{job(1, 0, 3, 60), job(2, 0, 4, 120), job(3, 1, 4, 60),
                              job(4, 2, 1, 180)};
  EXPECT_EQ(schedule("slurm", jobs, "flat:8"),
            (Schedule{{1, {0, 60}}, {2, {0, 120}}, {3, {120, 180}}, {4, {30, 210}}}));
  struct Nodes final : SimulationObserver {
    std::map<std::int64_t, std::vector<NodeId>> of;
    void before_commit(const Job& job, const MachineView&, const Allocation& chosen) override {
      of[job.id] = chosen.nodes;
      std::sort(of[job.id].begin(), of[job.id].end());
    }
  } nodes;
  run_flat(jobs, "flat:8", "slurm", nullptr, &nodes);
  EXPECT_EQ(nodes.of[4], (std::vector<NodeId>{7}));
  EXPECT_EQ(nodes.of[3], (std::vector<NodeId>{0, 1, 2, 3}));
}

// The pass of the real-Slurm comparison (docs/SLURM_COMPARISON.md) where the count-based model
// disagreed, as the cluster ran it (bf_interval=1, bf_resolution=1, flat:8): job 1 holds 7 nodes
// (n0-n6) until 120; at 5, job 2 (3 nodes, 2 minutes), job 4 (1 node, 3 minutes) and job 5 (1
// node, 1 minute) arrive. Slurm planned job 2 at 120 on n[0-2], the nodes of job 1, tested job 4
// on n[3-7] and started it on the free node n7. Here: job 2's will-run test groups job 1's end
// (120, barrier 150) and flat chooses n0-n2 then; job 4's usable nodes over [5, 185] are n3-n7,
// n7 is free: job 4 starts at 5 on n7. Job 5 has no free node; at 120 the main pass starts job 2
// (n0-n2) and job 5.
TEST(SlurmScheduler, TheComparisonsPassJob4OnTheFreeNode) {
  const std::vector<Job> jobs{job(1, 0, 7, 120), job(2, 5, 3, 120), job(4, 5, 1, 180),
                              job(5, 5, 1, 60)};
  EXPECT_EQ(schedule("slurm:bf_interval=1,bf_resolution=1", jobs, "flat:8"),
            (Schedule{{1, {0, 120}}, {2, {120, 240}}, {4, {5, 185}}, {5, {120, 180}}}));
}

// ---- Time limits ----

// flat:4. Job 1 (4 nodes) runs 200 s but asked for 90 s: its limit is 2 minutes (Slurm keeps
// minutes, rounding up), so it is ended at 120, where job 2 (4 nodes, submit 10) starts. With
// enforce_limits=0 it runs to 200.
TEST(SlurmScheduler, JobStillRunningAtItsLimitIsEndedThere) {
  const std::vector<Job> jobs{job(1, 0, 4, 200, -1, 90), job(2, 10, 4, 60)};
  const RunResult killed = run("slurm", jobs, "flat:4");
  Schedule starts;
  for (const auto& record : killed.jobs) starts[record.job_id] = {record.start, record.end};
  EXPECT_EQ(starts, (Schedule{{1, {0, 120}}, {2, {120, 180}}}));
  EXPECT_EQ(killed.diagnostics.total("job still running at its time limit, ended there (killed)"),
            1);
  for (const auto& record : killed.jobs) EXPECT_EQ(record.killed, record.job_id == 1);
  const RunResult kept = run("slurm:enforce_limits=0", jobs, "flat:4");
  EXPECT_EQ(kept.diagnostics.total("job still running at its time limit, ended there (killed)"), 0);
  for (const auto& record : kept.jobs)
    if (record.job_id == 1) {
      EXPECT_EQ(record.end, 200);
    }
  // Other schedulers never end a job early.
  EXPECT_EQ(schedule("easy", jobs), (Schedule{{1, {0, 200}}, {2, {200, 260}}}));
}

// ---- slurm.conf fragments and spec keys ----

TEST(SlurmConf, TimeStrings) {
  EXPECT_EQ(slurm_time_minutes("5"), 5);
  EXPECT_EQ(slurm_time_minutes("0:30"), 1);  // seconds round up
  EXPECT_EQ(slurm_time_minutes("1:00:00"), 60);
  EXPECT_EQ(slurm_time_minutes("7-0"), 7 * 1440);
  EXPECT_EQ(slurm_time_minutes("1-2:03:04"), 1440 + 120 + 4);
  EXPECT_FALSE(slurm_time_minutes("x"));
  EXPECT_FALSE(slurm_time_minutes("1:2:3:4"));
}

TEST(SlurmConf, FragmentFileMatchesSpecKeys) {
  const std::string path = ::testing::TempDir() + "slurm_sched_test.conf";
  {
    std::ofstream out(path);
    out << "# scheduling part of a slurm.conf\n"
           "PriorityType=priority/multifactor\n"
           "priorityweightage=1000 PriorityMaxAge=10\n"
           "PriorityWeightJobSize=500\n"
           "SchedulerParameters=bf_interval=45,bf_window=120,bf_continue\n";
  }
  const SlurmConfig config = read_slurm_conf(path);
  EXPECT_TRUE(config.multifactor);
  EXPECT_EQ(config.weight_age, 1000);
  EXPECT_EQ(config.max_age, 600);
  EXPECT_EQ(config.bf_interval, 45);
  EXPECT_EQ(config.bf_window, 7200);
  EXPECT_TRUE(config.bf_continue);
  const std::vector<Job> jobs{job(1, 0, 8, 600), job(2, 60, 5, 60), job(3, 300, 8, 60)};
  EXPECT_EQ(schedule("slurm:conf=" + path, jobs, "flat:8"),
            schedule("slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,"
                     "PriorityMaxAge=10,PriorityWeightJobSize=500,bf_interval=45,bf_window=120",
                     jobs, "flat:8"));
  // A spec key overrides the file: size alone now decides (job 3 first).
  EXPECT_EQ(schedule("slurm:conf=" + path + ",PriorityWeightAge=0", jobs, "flat:8"),
            (Schedule{{1, {0, 600}}, {3, {600, 660}}, {2, {660, 720}}}));
  std::remove(path.c_str());
}

TEST(SlurmConf, UnsupportedKeysAreListedWithTheirLines) {
  const std::string path = ::testing::TempDir() + "slurm_sched_bad.conf";
  {
    std::ofstream out(path);
    out << "PriorityType=priority/multifactor\n"
           "PreemptType=preempt/qos\n"
           "SchedulerParameters=bf_interval=30,bf_max_job_part=4\n"
           "PriorityWeightAge=lots\n";
  }
  try {
    read_slurm_conf(path);
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("3 unsupported"), std::string::npos) << message;
    EXPECT_NE(message.find(path + ":2: key 'PreemptType'"), std::string::npos) << message;
    EXPECT_NE(message.find(path + ":3: SchedulerParameters option 'bf_max_job_part=4'"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(path + ":4: PriorityWeightAge expects"), std::string::npos) << message;
  }
  std::remove(path.c_str());
  EXPECT_THROW(schedule("slurm:bf_interval=0", {job(1, 0, 1, 10)}), InputError);
  EXPECT_THROW(schedule("slurm:PriorityType=priority/fancy", {job(1, 0, 1, 10)}), InputError);
  EXPECT_THROW(schedule("slurm:Partition=debug", {job(1, 0, 1, 10)}), InputError);
  EXPECT_THROW(schedule("slurm:conf=/nonexistent/slurm.conf", {job(1, 0, 1, 10)}), InputError);
}

TEST(SlurmConf, RepeatedSchedulerParametersReplacesTheWholeValue) {
  SlurmConfig config;
  std::vector<std::string> problems;
  apply_slurm_conf_line(config, "SchedulerParameters=bf_interval=5,bf_window=10", "a:1", problems);
  apply_slurm_conf_line(config, "SchedulerParameters=bf_max_job_test=7  # later line", "a:2",
                        problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(config.bf_interval, 30);  // back to the default
  EXPECT_EQ(config.bf_window, 1440 * 60);
  EXPECT_EQ(config.bf_max_job_test, 7);
}
