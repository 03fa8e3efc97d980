// The three runtimes of a job under a network model (issue 27 "Jobs slowing each other down",
// issue 29 item 3), on hand-made flow cases: the interleaved line (sim/interleaved_line.hpp),
// where job 1 gets nodes {0, 2} and job 2 nodes {1, 3} and both cross links 1->2 and 2->1.
//
// All-to-all of two nodes is one message each way. Job 1's messages use links 0->1, 1->2 (0 to
// 2) and 2->1, 1->0 (2 to 0), one message each; job 2's 1->2, 2->3 and 3->2, 2->1. The
// reference compact allocation {0, 1} loads 0->1 and 1->0 with one message: r_ref = 1.
#include <gtest/gtest.h>

#include "allocsim/sim/simulation.hpp"
#include "sim/interleaved_line.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::make_job;
using allocsim::testing::run_on_interleaved_line;

Job with_class(Job job, CommClass comm_class, double share,
               CommPattern pattern = CommPattern::alltoall) {
  job.comm_class = comm_class;
  job.comm_share = share;
  job.comm_pattern = pattern;
  return job;
}

}  // namespace

TEST(Interference, TwoJobsSharingALinkAtHalfBandwidth) {
  // flow:comm=0.5,bandwidth=0.5, both jobs of trace runtime 10 submitted at 0.
  // Alone on its own allocation: its flow alone is capped at bandwidth x r_ref = 0.5 and its
  // links allow 0.5 / 1 = 0.5: r = 0.5, s = max(1 / bandwidth, r_ref / r) = 2, progress
  // 1 / (0.5 + 0.5 x 2) = 1 / 1.5: alone runtime 15.
  // Together: links 1->2 and 2->1 carry both flows (weight 1 each, capacity 0.5): max-min fair
  // r = 0.25 each (below the cap 0.5), s = 1 / 0.25 = 4, progress 1 / (0.5 + 0.5 x 4) = 1 / 2.5:
  // actual runtime 25 for both. Interference 25 / 15 = 5/3.
  // Bounded slowdown (threshold 10): response 25 over the actual runtime 25 = 1 (no queueing);
  // over the trace runtime 10: 2.5.
  // Utilization over the makespan 25 on 4 nodes: actual 2 x 2 x 25 / 100 = 1, trace
  // 2 x 2 x 10 / 100 = 0.4.
  const RunResult result = run_on_interleaved_line("flow:comm=0.5,bandwidth=0.5",
                                                   {make_job(1, 0, 2, 10), make_job(2, 0, 2, 10)});
  ASSERT_EQ(result.jobs.size(), 2u);
  for (const JobRecord& r : result.jobs) {
    EXPECT_DOUBLE_EQ(r.trace_runtime, 10);
    EXPECT_DOUBLE_EQ(r.runtime_alone, 15);
    EXPECT_DOUBLE_EQ(r.runtime, 25);
    EXPECT_DOUBLE_EQ(r.interference, 25.0 / 15);
    EXPECT_DOUBLE_EQ(r.bounded_slowdown, 1);
    EXPECT_DOUBLE_EQ(r.bounded_slowdown_trace, 2.5);
    EXPECT_DOUBLE_EQ(r.comm_slowdown, 2.5);  // actual / alone-compact (the trace runtime)
    EXPECT_EQ(r.comm_class, 0);
  }
  EXPECT_DOUBLE_EQ(result.summary.utilization, 1);
  EXPECT_DOUBLE_EQ(result.summary.utilization_trace, 0.4);
  EXPECT_DOUBLE_EQ(result.summary.mean_bounded_slowdown_trace, 2.5);
  EXPECT_DOUBLE_EQ(result.summary.mean_interference, 25.0 / 15);
  EXPECT_DOUBLE_EQ(result.summary.p95_interference, 25.0 / 15);
  EXPECT_DOUBLE_EQ(result.summary.max_interference, 25.0 / 15);
  EXPECT_EQ(result.summary.mean_interference_heavy, 0);  // no job has a class
  EXPECT_EQ(result.summary.mean_interference_light, 0);
}

TEST(Interference, OneJobAloneIsNotInterferedWith) {
  // Job 2 starts after job 1 ended: each alone, s = 2 at bandwidth 0.5, runtime 15 = alone.
  const RunResult result = run_on_interleaved_line("flow:comm=0.5,bandwidth=0.5",
                                                   {make_job(1, 0, 2, 10), make_job(2, 20, 2, 10)});
  for (const JobRecord& r : result.jobs) {
    EXPECT_DOUBLE_EQ(r.runtime_alone, 15);
    EXPECT_DOUBLE_EQ(r.interference, 1);
  }
}

TEST(Interference, HeavyAndLightCommunicatorsSplitTheSummary) {
  // flow:comm=0.5 (bandwidth 1) but each job's own share replaces it: job 1 heavy (0.6), job 2
  // light (0.1), both all-to-all, trace runtime 10, both from 0.
  // Alone: r = min(cap 1, 1 / 1) = 1, s = 1, progress 1: alone runtime 10 for both.
  // Together: r = 1/2 on the shared links, s = 2. Job 1 progresses at 1 / (0.4 + 0.6 x 2) =
  // 1 / 1.6, job 2 at 1 / (0.9 + 0.1 x 2) = 1 / 1.1: job 2 ends at 11, when job 1 has done
  // 11 / 1.6 = 6.875 of its 10; alone again (s = 1, progress 1) it ends at 11 + 3.125 = 14.125.
  // Interference: job 1 14.125 / 10 = 1.4125, job 2 11 / 10 = 1.1. Summary: mean 1.25625,
  // p95 (nearest rank of 2: the 2nd) and max 1.4125; heavy 1.4125; light 1.1.
  const RunResult result = run_on_interleaved_line(
      "flow:comm=0.5", {with_class(make_job(1, 0, 2, 10), CommClass::heavy, 0.6),
                        with_class(make_job(2, 0, 2, 10), CommClass::light, 0.1)});
  ASSERT_EQ(result.jobs.size(), 2u);
  const JobRecord& heavy = result.jobs[0].job_id == 1 ? result.jobs[0] : result.jobs[1];
  const JobRecord& light = result.jobs[0].job_id == 1 ? result.jobs[1] : result.jobs[0];
  EXPECT_DOUBLE_EQ(heavy.end, 14.125);
  EXPECT_DOUBLE_EQ(light.end, 11);
  EXPECT_DOUBLE_EQ(heavy.runtime_alone, 10);
  EXPECT_DOUBLE_EQ(light.runtime_alone, 10);
  EXPECT_DOUBLE_EQ(heavy.interference, 1.4125);
  EXPECT_DOUBLE_EQ(light.interference, 1.1);
  EXPECT_EQ(heavy.comm_class, 2);
  EXPECT_EQ(light.comm_class, 1);
  const RunSummary& s = result.summary;
  EXPECT_DOUBLE_EQ(s.mean_interference, (1.4125 + 1.1) / 2);
  EXPECT_DOUBLE_EQ(s.p95_interference, 1.4125);
  EXPECT_DOUBLE_EQ(s.max_interference, 1.4125);
  EXPECT_DOUBLE_EQ(s.mean_interference_heavy, 1.4125);
  EXPECT_DOUBLE_EQ(s.p95_interference_heavy, 1.4125);
  EXPECT_DOUBLE_EQ(s.max_interference_heavy, 1.4125);
  EXPECT_DOUBLE_EQ(s.mean_interference_light, 1.1);
  EXPECT_DOUBLE_EQ(s.p95_interference_light, 1.1);
  EXPECT_DOUBLE_EQ(s.max_interference_light, 1.1);
}

TEST(Interference, AJobOfShareZeroSendsNothing) {
  // Job 2's own share 0 replaces comm=0.5: it computes only and loads no link, so job 1 runs
  // as alone (s = 1, runtime 10): interference 1 for both.
  Job quiet = make_job(2, 0, 2, 10);
  quiet.comm_share = 0;
  const RunResult result = run_on_interleaved_line("flow:comm=0.5", {make_job(1, 0, 2, 10), quiet});
  for (const JobRecord& r : result.jobs) {
    EXPECT_DOUBLE_EQ(r.runtime, 10);
    EXPECT_DOUBLE_EQ(r.runtime_alone, 10);
    EXPECT_DOUBLE_EQ(r.interference, 1);
  }
}

TEST(Interference, AStencilOfTwoTasksSendsOneMessageEachWayAsAllToAll) {
  // The stencil (mesh2d:auto, bytes=2) of two tasks is one edge, one message each way: the
  // same loads as all-to-all of two, so the pair shares as two all-to-all jobs do: s = 2 at
  // comm 0.5, both end at 10 x 1.5 = 15, alone 10.
  const RunResult result = run_on_interleaved_line(
      "flow:comm=0.5",
      {with_class(make_job(1, 0, 2, 10), CommClass::light, 0.5, CommPattern::stencil),
       with_class(make_job(2, 0, 2, 10), CommClass::heavy, 0.5, CommPattern::alltoall)});
  for (const JobRecord& r : result.jobs) {
    EXPECT_DOUBLE_EQ(r.end, 15);
    EXPECT_DOUBLE_EQ(r.runtime_alone, 10);
    EXPECT_DOUBLE_EQ(r.interference, 1.5);
  }
}

TEST(Interference, ModelsThatNeverReRateHaveInterferenceOne) {
  // fixed: alone = actual = trace runtime; distance: alone = actual = the stretched runtime
  // (H = 2 on {0, 2} against H0 = 1: 10 (1 + 0.5 x 4) / 1.5 = 20).
  for (const JobRecord& r :
       run_on_interleaved_line("fixed", {make_job(1, 0, 2, 10), make_job(2, 0, 2, 10)}).jobs) {
    EXPECT_DOUBLE_EQ(r.runtime_alone, 10);
    EXPECT_DOUBLE_EQ(r.interference, 1);
  }
  for (const JobRecord& r :
       run_on_interleaved_line("distance:a=0.5,e=2", {make_job(1, 0, 2, 10), make_job(2, 0, 2, 10)})
           .jobs) {
    EXPECT_DOUBLE_EQ(r.runtime_alone, 20);
    EXPECT_DOUBLE_EQ(r.interference, 1);
    EXPECT_DOUBLE_EQ(r.bounded_slowdown_trace, 2);  // response 20 over the trace runtime 10
  }
}
