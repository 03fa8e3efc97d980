// The `wormhole` model's all-to-all destinations (GABL §4.2): "In all-to-all communication
// pattern, each processor allocated to a job sends a packet to all other processors allocated
// to the same job. The number of messages that are actually sent is exponentially distributed
// with a mean num-mes." Each message goes to a uniformly drawn other processor of the job; the
// old reading (task i's j-th message to task i + 1 + j) made a ring of reach num_mes: the first
// three tests fail on it (checked by forcing `ring` in params_with: 0 of 320 messages beyond
// offset 5, 24-60 receivers of 63 per task, chi-square 1.16e6).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "allocsim/sim/network_runtime.hpp"

using namespace allocsim;

namespace {

constexpr std::uint64_t kSeed = 2006;

WormholeRuntimeParams params_with(AllToAllDestinations destinations, bool fixed_count) {
  WormholeRuntimeParams params;
  params.num_mes = 5;
  params.fixed_count = fixed_count;
  params.destinations = destinations;
  return params;
}

/// (to − from) mod tasks, in 1..tasks − 1.
int offset(const TaskMessage& m, int tasks) {
  return ((m.to - m.from) % tasks + tasks) % tasks;
}

}  // namespace

TEST(WormholeAllToAll, FewMessagesOfALargeJobReachBeyondTheNextFiveTasks) {
  // 64 tasks, 5 messages each: the old ring sends every message to offsets 1..5; uniform
  // draws put 58 / 63 of them further away.
  const int tasks = 64;
  const auto messages = wormhole_all_to_all_messages(
      params_with(AllToAllDestinations::uniform, true), kSeed, 17, tasks);
  ASSERT_EQ(messages.size(), 64u * 5);
  int beyond = 0;
  for (const TaskMessage& m : messages) beyond += offset(m, tasks) > 5 ? 1 : 0;
  EXPECT_GT(beyond, 0.8 * static_cast<double>(messages.size()));
}

TEST(WormholeAllToAll, OverManyJobsEveryTaskSendsToEveryOtherTask) {
  // "sends a packet to all other processors": over 200 jobs of 64 tasks (about 1,000 messages
  // per task) each task has sent to each of its 63 others; the ring reaches 5 of them.
  const int tasks = 64;
  std::vector<std::set<int>> receivers(tasks);
  for (std::int64_t job = 1; job <= 200; ++job)
    for (const TaskMessage& m : wormhole_all_to_all_messages(
             params_with(AllToAllDestinations::uniform, false), kSeed, job, tasks))
      receivers[m.from].insert(m.to);
  for (int task = 0; task < tasks; ++task) {
    EXPECT_EQ(receivers[task].size(), static_cast<std::size_t>(tasks - 1)) << "task " << task;
    EXPECT_FALSE(receivers[task].count(task)) << "task " << task << " sends to itself";
  }
}

TEST(WormholeAllToAll, DestinationOffsetsAreUniformOverTheOtherTasks) {
  // Chi-square of the offsets (to − from) mod k over 2,000 jobs of 40 tasks, 39 cells: the
  // 99.9 % point of chi-square with 38 degrees of freedom is 70.7. The ring puts everything
  // in cells 1..5 (chi-square in the hundreds of thousands).
  const int tasks = 40;
  std::vector<double> cells(tasks, 0);
  double total = 0;
  for (std::int64_t job = 1; job <= 2000; ++job)
    for (const TaskMessage& m : wormhole_all_to_all_messages(
             params_with(AllToAllDestinations::uniform, false), kSeed, job, tasks)) {
      ASSERT_NE(m.from, m.to);
      ASSERT_GE(m.to, 0);
      ASSERT_LT(m.to, tasks);
      cells[offset(m, tasks)] += 1;
      total += 1;
    }
  EXPECT_EQ(cells[0], 0);
  const double expected = total / (tasks - 1);
  double chi2 = 0;
  for (int c = 1; c < tasks; ++c) chi2 += (cells[c] - expected) * (cells[c] - expected) / expected;
  EXPECT_LT(chi2, 70.7) << "over " << total << " messages";
}

TEST(WormholeAllToAll, CountsAreExponentialWithMeanNumMes) {
  // "The number of messages that are actually sent is exponentially distributed with a mean
  // num-mes": round(Exp(5)) per task, mean 5 within a few percent over 64,000 tasks.
  double sent = 0;
  for (std::int64_t job = 1; job <= 1000; ++job)
    sent +=
        static_cast<double>(wormhole_all_to_all_messages(
                                params_with(AllToAllDestinations::uniform, false), kSeed, job, 64)
                                .size());
  EXPECT_NEAR(sent / (1000.0 * 64), 5.0, 0.1);
}

TEST(WormholeAllToAll, TheRingReadingChangesOnlyTheDestinations) {
  // The isolating option `dest=ring`: same senders and counts (same generator), destinations
  // i + 1 + j; the draws depend on (workload seed, job id, tasks) only, never on the
  // allocator, so paired comparisons stay paired.
  const int tasks = 30;
  const auto uniform = wormhole_all_to_all_messages(
      params_with(AllToAllDestinations::uniform, false), kSeed, 5, tasks);
  const auto ring =
      wormhole_all_to_all_messages(params_with(AllToAllDestinations::ring, false), kSeed, 5, tasks);
  ASSERT_EQ(uniform.size(), ring.size());
  std::vector<int> sent(tasks, 0);
  for (std::size_t i = 0; i < ring.size(); ++i) {
    EXPECT_EQ(uniform[i].from, ring[i].from);
    const int j = sent[ring[i].from]++;
    EXPECT_EQ(ring[i].to, (ring[i].from + 1 + j % (tasks - 1)) % tasks);
  }
  EXPECT_NE(uniform, ring);
  EXPECT_EQ(uniform, wormhole_all_to_all_messages(params_with(AllToAllDestinations::uniform, false),
                                                  kSeed, 5, tasks));
}

TEST(WormholeAllToAll, TwoTasksHaveOneDestinationAndOneTaskNone) {
  for (const TaskMessage& m :
       wormhole_all_to_all_messages(params_with(AllToAllDestinations::uniform, true), kSeed, 3, 2))
    EXPECT_EQ(m.to, 1 - m.from);
  EXPECT_TRUE(
      wormhole_all_to_all_messages(params_with(AllToAllDestinations::uniform, true), kSeed, 3, 1)
          .empty());
}
