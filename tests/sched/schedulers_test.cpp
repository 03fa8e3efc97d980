// Hand-made job streams whose schedules were worked out by hand.
#include <gtest/gtest.h>

#include <map>

#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/simulation.hpp"
#include "sched/sched_test_support.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::job;

/// Runs `jobs` and returns job id -> (start, end).
std::map<std::int64_t, std::pair<double, double>> schedule(const std::string& sched,
                                                           std::vector<Job> jobs,
                                                           const std::string& machine = "flat:4") {
  std::map<std::int64_t, std::pair<double, double>> result;
  for (const auto& record : allocsim::testing::run_flat(std::move(jobs), machine, sched).jobs)
    result[record.job_id] = {record.start, record.end};
  return result;
}

using Schedule = std::map<std::int64_t, std::pair<double, double>>;

}  // namespace

TEST(Schedulers, FcfsBlocksBehindTheHeadEasyBackfillsAShortJob) {
  const std::vector<Job> jobs{job(1, 0, 2, 10), job(2, 1, 3, 10), job(3, 1, 1, 5)};
  EXPECT_EQ(schedule("fcfs", jobs), (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {10, 15}}}));
  EXPECT_EQ(schedule("easy", jobs), (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {1, 6}}}));
  EXPECT_EQ(schedule("conservative", jobs), (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {1, 6}}}));
}

TEST(Schedulers, EasyBackfillsOnSpareNodesConservativeProtectsEveryReservation) {
  // A holds 2 of 4 nodes until 10. B (3) is the head: reservation at 10 with 1 spare node.
  // C (4) would be reserved at 20 by conservative. D (1 node, long) fits the spare node, so
  // EASY starts it; conservative does not, because it would delay C's reservation.
  const std::vector<Job> jobs{job(1, 0, 2, 10), job(2, 1, 3, 10), job(3, 1, 4, 10),
                              job(4, 1, 1, 100)};
  EXPECT_EQ(schedule("easy", jobs),
            (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {101, 111}}, {4, {1, 101}}}));
  EXPECT_EQ(schedule("conservative", jobs),
            (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {20, 30}}, {4, {30, 130}}}));
}

TEST(Schedulers, EasyNeverBackfillsAJobThatWouldDelayTheHead) {
  // E fits now (2 free) but runs past the head's reservation and needs more than the 1 spare.
  const std::vector<Job> jobs{job(1, 0, 2, 10), job(2, 1, 3, 10), job(5, 1, 2, 100)};
  EXPECT_EQ(schedule("easy", jobs), (Schedule{{1, {0, 10}}, {2, {10, 20}}, {5, {20, 120}}}));
}

TEST(Schedulers, JobOutrunningItsEstimateIsAssumedToEndNow) {
  // A's estimate says it ends at 5; it runs until 10. At 6 the head B's reservation is "now"
  // with no spare node, so C (ends at 8) is not backfilled.
  const std::vector<Job> jobs{job(1, 0, 2, 10, /*user=*/-1, /*estimate=*/5), job(2, 1, 4, 10),
                              job(3, 6, 2, 2)};
  EXPECT_EQ(schedule("easy", jobs), (Schedule{{1, {0, 10}}, {2, {10, 20}}, {3, {20, 22}}}));
}

TEST(Schedulers, CompletionsBeforeArrivalsAtTheSameTime) {
  const std::vector<Job> jobs{job(1, 0, 4, 10), job(2, 10, 4, 5)};
  EXPECT_EQ(schedule("fcfs", jobs), (Schedule{{1, {0, 10}}, {2, {10, 15}}}));
}

TEST(Schedulers, QueueOrders) {
  // At 10 the machine frees; waiting: 2 (3 nodes, est 30), 3 (1 node, est 20), 4 (2 nodes, est 5).
  const std::vector<Job> jobs{job(1, 0, 4, 10), job(2, 1, 3, 30), job(3, 2, 1, 20),
                              job(4, 3, 2, 5)};
  // smallfirst / shortfirst: 3 and 4 start at 10; 2 (3 nodes) starts when 4 ends at 15.
  const Schedule small_first{{1, {0, 10}}, {2, {15, 45}}, {3, {10, 30}}, {4, {10, 15}}};
  EXPECT_EQ(schedule("fcfs:order=smallfirst", jobs), small_first);
  EXPECT_EQ(schedule("fcfs:order=shortfirst", jobs), small_first);
  // largefirst: 2 starts at 10, then 4 blocks the queue (FCFS) until 2 ends at 40.
  EXPECT_EQ(schedule("fcfs:order=largefirst", jobs),
            (Schedule{{1, {0, 10}}, {2, {10, 40}}, {3, {40, 60}}, {4, {40, 45}}}));
  // longfirst: 2 then 3 start at 10; 4 needs 2 nodes, free only when 2 ends at 40.
  EXPECT_EQ(schedule("fcfs:order=longfirst", jobs),
            (Schedule{{1, {0, 10}}, {2, {10, 40}}, {3, {10, 30}}, {4, {40, 45}}}));
  // Cplant: sorted by processors then requested time, every job that fits starts.
  EXPECT_EQ(schedule("cplant", jobs), small_first);
}
