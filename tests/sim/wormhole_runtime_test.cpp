// The `wormhole` runtime model in whole simulations: hand-timed messages on a 4-node line
// (alone, two jobs contending from the same start, a later start that goes back to the
// model's copy of the network), no messages = `fixed`, determinism, torus and pattern runs.
#include <gtest/gtest.h>

#include <map>

#include "allocsim/sim/simulation.hpp"
#include "sim/interleaved_line.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::make_job;
using allocsim::testing::run_on_interleaved_line;
using Schedule = std::map<std::int64_t, std::pair<double, double>>;

/// The interleaved line (sim/interleaved_line.hpp): the first 2-node job gets {0, 2}, the
/// second {1, 3}.
RunResult run_line(const std::string& runtime_model, std::vector<Job> jobs,
                   const std::string& pattern = "") {
  return run_on_interleaved_line(runtime_model, std::move(jobs), pattern);
}

Schedule schedule_of(const RunResult& result) {
  Schedule schedule;
  for (const auto& record : result.jobs) schedule[record.job_id] = {record.start, record.end};
  return schedule;
}

const std::string kOneMessage = "wormhole:num_mes=1,count=fixed";

}  // namespace

TEST(WormholeRuntime, AJobAloneTakesTheClosedFormLatencyPlusItsRuntime) {
  // {0, 2}: one message each way, 2 hops on disjoint links: 2·(3 + 1) + 8 − 1 = 15, then
  // 10 of computing: ends at 25.
  const RunResult result = run_line(kOneMessage, {make_job(1, 0, 2, 10)});
  EXPECT_EQ(schedule_of(result), (Schedule{{1, {0, 25}}}));
  EXPECT_DOUBLE_EQ(result.summary.mean_message_latency, 15);
  EXPECT_DOUBLE_EQ(result.summary.mean_message_blocking, 0);
  EXPECT_DOUBLE_EQ(result.summary.failed_messages, 0);
  // Alone on the reference {0, 1}: 1 hop, 1·4 + 7 = 11, so 21; comm_slowdown 25 / 21.
  EXPECT_DOUBLE_EQ(result.jobs[0].comm_slowdown, 25.0 / 21);
}

TEST(WormholeRuntime, TwoJobsSharingLinksSlowEachOther) {
  // A on {0, 2}, B on {1, 3}, both from 0. B's 1->3 takes link 1->2 at 3 (its first hop);
  // A's 0->2 asks for it at 7 (its second hop) and gets it when B's tail leaves, at 15: then
  // one shift and 7 of draining, delivered at 23 (blocked 8). The same on 2->1 between A's
  // 2->0 (first) and B's 3->1 (second). Each job's last delivery is 23, not 15: both end at
  // 33 instead of 25.
  const RunResult result = run_line(kOneMessage, {make_job(1, 0, 2, 10), make_job(2, 0, 2, 10)});
  EXPECT_EQ(schedule_of(result), (Schedule{{1, {0, 33}}, {2, {0, 33}}}));
  EXPECT_DOUBLE_EQ(result.summary.mean_comm_slowdown, 33.0 / 21);
  EXPECT_DOUBLE_EQ(result.summary.mean_message_latency, (15 + 23 + 15 + 23) / 4.0);
  EXPECT_DOUBLE_EQ(result.summary.mean_message_blocking, (0 + 8 + 0 + 8) / 4.0);
}

TEST(WormholeRuntime, ALaterStartGoesBackToTheNetworkAsOfThatTime) {
  // At 0 the model runs A's messages ahead to A's end (25); B starts at 4, so it goes back.
  // A's 0->2 and B's 1->3 both ask for link 1->2 at 7: A asked first (its request was
  // scheduled at 4 before B's messages were added) and keeps it until 15; B's 1->3 gets it at
  // 15, shifts at 16, is routed until 19, shifts to 3 at 20 and drains until 27. B's 3->1
  // waits at node 2 from 11 to 15 for A's 2->0 and is delivered at 23. A: 15 + 10 = 25;
  // B: 27 + 10 = 37.
  const RunResult result = run_line(kOneMessage, {make_job(1, 0, 2, 10), make_job(2, 4, 2, 10)});
  EXPECT_EQ(schedule_of(result), (Schedule{{1, {0, 25}}, {2, {4, 37}}}));
  EXPECT_DOUBLE_EQ(result.summary.mean_message_latency, (15 + 15 + 23 + 19) / 4.0);
}

TEST(WormholeRuntime, NoMessagesIsFixedAndCycleScalesNetworkTime) {
  const std::vector<Job> jobs{make_job(1, 0, 2, 10), make_job(2, 4, 2, 10), make_job(3, 5, 1, 3)};
  EXPECT_EQ(schedule_of(run_line("wormhole:num_mes=0", jobs)),
            schedule_of(run_line("fixed", jobs)));
  // cycle 0.5 s per time unit: A alone communicates 15 units = 7.5 s.
  EXPECT_EQ(schedule_of(run_line(kOneMessage + ",cycle=0.5", {make_job(1, 0, 2, 10)})),
            (Schedule{{1, {0, 17.5}}}));
}

TEST(WormholeRuntime, APatternFromTheMappingLayerSendsToTaskNeighbours) {
  // Two tasks: the all-to-all pattern is the same exchange as the default.
  const std::vector<Job> jobs{make_job(1, 0, 2, 10), make_job(2, 0, 2, 10)};
  EXPECT_EQ(schedule_of(run_line(kOneMessage, jobs, "alltoall")),
            (Schedule{{1, {0, 33}}, {2, {0, 33}}}));
}

TEST(WormholeRuntime, SyntheticRunsAreDeterministicAndDeadlockFree) {
  for (const char* machine : {"mesh:8x8", "torus:4x4x4"}) {
    RunConfig config;
    config.machine = machine;
    config.trace = "synthetic:jobs=150,arrival=exp:40,runtime=exp:5,size=uniform:1,40";
    config.sched = "fcfs";
    config.alloc = "random";
    config.runtime_model = "wormhole";
    config.seed = 3;
    const RunResult first = simulate(config, ""), second = simulate(config, "");
    EXPECT_EQ(first.summary.makespan, second.summary.makespan) << machine;
    EXPECT_EQ(first.summary.mean_message_latency, second.summary.mean_message_latency);
    EXPECT_EQ(first.summary.failed_messages, 0) << machine;
    EXPECT_GT(first.summary.mean_message_blocking, 0) << machine;  // jobs did contend
    EXPECT_EQ(first.summary.jobs, 150);
  }
}

TEST(WormholeRuntime, BadParametersAreInputErrors) {
  EXPECT_THROW(run_line("wormhole:plen=0", {make_job(1, 0, 2, 10)}), InputError);
  EXPECT_THROW(run_line("wormhole:num_mes=-1", {make_job(1, 0, 2, 10)}), InputError);
  EXPECT_THROW(run_line("wormhole:cycle=0", {make_job(1, 0, 2, 10)}), InputError);
}
