// Scheduling passes on a hand-written SchedulerContext (no Simulation): a queue and running jobs
// set up by hand on a count-only allocator, and the jobs each scheduler starts worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>

#include "allocsim/sched/planner.hpp"
#include "allocsim/sched/scheduler.hpp"

using namespace allocsim;

namespace {

Job job(std::int64_t id, int procs, double estimate) {
  Job j;
  j.id = id;
  j.procs = procs;
  j.runtime = estimate;
  j.estimate = estimate;
  return j;
}

/// A machine state made by hand: `jobs` (index = position), a clock, running jobs and a queue.
class FakeContext final : public SchedulerContext {
 public:
  FakeContext(const std::string& machine, std::vector<Job> jobs, double now)
      : topology_(Topology::parse(machine)),
        jobs_(std::move(jobs)),
        allocator_(make_allocator("flat", topology_)),
        busy_(topology_.node_count(), 0),
        free_(topology_.node_count()),
        now_(now) {}

  /// Job `index` has been running since `start` on `nodes`.
  void running_since(int index, double start, std::vector<NodeId> nodes) {
    Allocation allocation;
    allocation.nodes = std::move(nodes);
    for (NodeId node : allocation.nodes) busy_[node] = 1;
    free_ -= static_cast<int>(allocation.nodes.size());
    allocator_->commit(allocation);
    running_.push_back({index, start, start + jobs_[index].estimate, std::move(allocation)});
  }
  void enqueue(int index) { waiting_.push_back(index); }

  double now() const override { return now_; }
  const Topology& topology() const override { return topology_; }
  const std::vector<Job>& jobs() const override { return jobs_; }
  const std::vector<int>& waiting() const override { return waiting_; }
  const std::vector<RunningJob>& running() const override { return running_; }
  int free_count() const override { return free_; }
  const std::vector<char>& busy() const override { return busy_; }
  const Allocator& allocator() const override { return *allocator_; }
  std::optional<Allocation> try_allocate(int job_index) override {
    if (free_ < nodes_needed(job_index)) return std::nullopt;
    const MachineView view(topology_, busy_, free_, rng_);
    return allocator_->allocate(jobs_[job_index], view);
  }
  void start(int job_index, Allocation allocation) override {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));
    started.push_back(job_index);
    running_since(job_index, now_, std::move(allocation.nodes));
  }

  std::vector<int> started;  ///< job indices started by the pass, in order

 private:
  Topology topology_;
  std::vector<Job> jobs_;
  std::unique_ptr<Allocator> allocator_;
  std::vector<char> busy_;
  int free_;
  double now_;
  Rng rng_{1};
  std::vector<int> waiting_;
  std::vector<RunningJob> running_;
};

std::unique_ptr<Scheduler> make_scheduler(const std::string& spec) {
  auto [entry, params] = scheduler_registry().resolve(spec);
  return entry->factory(params);
}

/// At time 5 on 8 nodes, job 0 holds nodes 0-3 until its estimated end at 20; `queue` waits.
/// (Held by pointer: the allocator refers to the context's topology.)
std::unique_ptr<FakeContext> half_busy(std::vector<Job> jobs, const std::vector<int>& queue) {
  auto context = std::make_unique<FakeContext>("flat:8", std::move(jobs), 5);
  context->running_since(0, 0, {0, 1, 2, 3});
  for (int index : queue) context->enqueue(index);
  return context;
}

}  // namespace

TEST(FakeContext, FcfsStopsAtTheFirstJobThatDoesNotFit) {
  // 4 free: job 1 (3) starts, job 2 (2) does not fit, so job 3 (1) waits behind it.
  auto context = half_busy({job(0, 4, 20), job(1, 3, 10), job(2, 2, 10), job(3, 1, 10)}, {1, 2, 3});
  make_scheduler("fcfs")->schedule(*context);
  EXPECT_EQ(context->started, (std::vector<int>{1}));
  EXPECT_EQ(context->waiting(), (std::vector<int>{2, 3}));
  EXPECT_EQ(context->free_count(), 1);
}

TEST(FakeContext, PlannerReservesTheHeadAtTheEstimatedRelease) {
  auto context = half_busy({job(0, 4, 20), job(1, 6, 10)}, {1});
  const Planner planner(*context);
  const Reservation reservation = planner.reserve(1);
  EXPECT_EQ(reservation.start, 20);
  EXPECT_EQ(reservation.spare_nodes, 2);  // 8 free at 20, the head takes 6
}

TEST(FakeContext, EasyBackfillsOnSpareNodesAndShortJobs) {
  // Head job 1 (6 nodes) is reserved at 20 with 2 spare nodes. Job 2 (3 nodes, runs past 20)
  // would take more than the spare; job 3 (2 nodes, long) takes the spare nodes; job 4
  // (2 nodes) ends at 15, before the reservation, and takes the last 2 free nodes.
  auto context = half_busy(
      {job(0, 4, 20), job(1, 6, 10), job(2, 3, 100), job(3, 2, 100), job(4, 2, 10)}, {1, 2, 3, 4});
  make_scheduler("easy")->schedule(*context);
  EXPECT_EQ(context->started, (std::vector<int>{3, 4}));
  EXPECT_EQ(context->free_count(), 0);
}

TEST(FakeContext, ConservativeKeepsEveryReservationEasyOnlyTheHeads) {
  // Job 1 (6) is reserved at [20, 30), job 2 (8) at [30, 40). Job 3 (2 nodes, 100 s) fits the
  // head's spare nodes, so EASY starts it; it would delay job 2, so conservative does not.
  const std::vector<Job> jobs{job(0, 4, 20), job(1, 6, 10), job(2, 8, 10), job(3, 2, 100)};
  auto easy = half_busy(jobs, {1, 2, 3});
  make_scheduler("easy")->schedule(*easy);
  EXPECT_EQ(easy->started, (std::vector<int>{3}));
  auto conservative = half_busy(jobs, {1, 2, 3});
  make_scheduler("conservative")->schedule(*conservative);
  EXPECT_TRUE(conservative->started.empty());
  // A 2-node job of 10 s ends before job 1's reservation: conservative starts it too.
  auto short_job =
      half_busy({job(0, 4, 20), job(1, 6, 10), job(2, 8, 10), job(3, 2, 10)}, {1, 2, 3});
  make_scheduler("conservative")->schedule(*short_job);
  EXPECT_EQ(short_job->started, (std::vector<int>{3}));
}

TEST(FakeContext, CplantStartsEveryJobThatFitsSmallestFirst) {
  // Sorted by processors: 3 (1), 2 (2), 1 (3): 1 + 2 of the 4 free nodes, then 3 does not fit.
  auto context = half_busy({job(0, 4, 20), job(1, 3, 10), job(2, 2, 10), job(3, 1, 10)}, {1, 2, 3});
  make_scheduler("cplant")->schedule(*context);
  EXPECT_EQ(context->started, (std::vector<int>{3, 2}));
  EXPECT_EQ(context->free_count(), 1);
}
