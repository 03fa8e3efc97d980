// Conservative backfilling with compression (sched/compressing.hpp) against a straightforward
// reference written here from the rules: every search on a profile rebuilt from scratch (a
// std::map, all reservations and running jobs), every candidate tried with its whole window.
// On random small queues (ties, early completions, overruns, zero/negative/NaN estimates,
// count-only and shape-constrained allocators, every queue order) both give the same schedule
// and, after every pass, the same reservations; and no reservation ever moves later, except a
// missed one (offered at or after its start and refused).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>

#include "allocsim/sched/compressing.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

/// After each pass: the time and every (job, reservation start), in revisit order.
using PassLog = std::vector<std::pair<double, std::vector<std::pair<int, double>>>>;

double release_of(double estimated_end, double now) {
  return std::isnan(estimated_end) ? now : std::max(estimated_end, now);
}

double duration_of(const Job& job) {
  return std::isnan(job.estimate) ? 0.0 : std::max(job.estimate, 0.0);
}

class ReferenceCompressing final : public Scheduler {
 public:
  ReferenceCompressing(std::string order, PassLog* log) : order_(std::move(order)), log_(log) {}

  void schedule(SchedulerContext& context) override {
    const double now = context.now();
    const auto& jobs = context.jobs();
    context_jobs_ = &jobs;
    // Capacity back since the last pass: an early end, or a reserved job gone from the queue.
    bool gained = false;
    for (const auto& [job, end] : last_running_) {
      const bool still = std::any_of(context.running().begin(), context.running().end(),
                                     [&](const RunningJob& r) { return r.job == job; });
      if (!still && release_of(end, now) > now) gained = true;
    }
    for (auto it = start_.begin(); it != start_.end();) {
      const auto& waiting = context.waiting();
      if (std::find(waiting.begin(), waiting.end(), it->first) == waiting.end()) {
        it = start_.erase(it);
        gained = true;
      } else {
        ++it;
      }
    }
    constexpr double kInf = std::numeric_limits<double>::infinity();
    for (int job : in_revisit_order()) {
      const double old = start_[job];
      if (!(old > now)) {  // due
        if (!try_start(context, job))
          start_[job] = earliest(context, job, true, kInf).value_or(now);
        continue;
      }
      if (!gained) continue;
      const std::optional<double> t = earliest(context, job, false, old);
      if (!t) continue;
      if (*t == now) {
        if (!try_start(context, job)) start_[job] = earliest(context, job, true, old).value_or(old);
      } else {
        start_[job] = *t;
      }
    }
    std::vector<int> arrivals;
    for (int job : context.waiting())
      if (!start_.count(job)) arrivals.push_back(job);
    std::stable_sort(arrivals.begin(), arrivals.end(),
                     [&](int a, int b) { return key(jobs[a]) < key(jobs[b]); });
    for (int job : arrivals) {
      start_[job] = earliest(context, job, false, kInf).value();
      if (!(start_[job] > now) && !try_start(context, job))
        start_[job] = earliest(context, job, true, kInf).value_or(now);
    }
    // A pass at the earliest reservation start after now (at that pass, the next one).
    std::optional<double> next;
    for (const auto& [job, start] : start_)
      if (start > now && (!next || start < *next)) next = start;
    if (next) context.request_pass(*next);
    last_running_.clear();
    for (const RunningJob& r : context.running())
      last_running_.emplace_back(r.job, r.estimated_end);
    std::vector<std::pair<int, double>> now_reserved;
    for (int job : in_revisit_order()) now_reserved.emplace_back(job, start_[job]);
    log_->emplace_back(now, now_reserved);
  }

 private:
  double key(const Job& job) const {
    const double estimate = std::isnan(job.estimate) ? 0.0 : job.estimate;
    if (order_ == "smallfirst") return job.procs;
    if (order_ == "largefirst") return -job.procs;
    if (order_ == "shortfirst") return estimate;
    if (order_ == "longfirst") return -estimate;
    return 0;
  }

  std::vector<int> in_revisit_order() const {
    std::vector<int> order;
    for (const auto& entry : start_) order.push_back(entry.first);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      const double sa = start_.at(a), sb = start_.at(b);
      if (sa != sb) return sa < sb;
      const double ka = key((*context_jobs_)[a]), kb = key((*context_jobs_)[b]);
      if (ka != kb) return ka < kb;
      return a < b;
    });
    return order;
  }

  /// P from scratch without `excluded`: running jobs until their release, other reservations.
  std::map<double, int> profile(const SchedulerContext& context, int excluded) const {
    const double now = context.now();
    std::map<double, int> p{{now, context.topology().node_count()}};
    auto occupy = [&](double from, double to, int nodes) {
      from = std::max(from, now);
      if (!(from < to)) return;
      auto value_at = [&](double t) { return std::prev(p.upper_bound(t))->second; };
      if (!std::isinf(to) && !p.count(to)) p[to] = value_at(to);
      if (!p.count(from)) p[from] = value_at(from);
      for (auto it = p.find(from); it != p.end() && it->first < to; ++it) it->second -= nodes;
    };
    for (const RunningJob& r : context.running())
      occupy(now, release_of(r.estimated_end, now), static_cast<int>(r.allocation.nodes.size()));
    for (const auto& [job, start] : start_) {
      if (job == excluded) continue;
      const Job& j = context.jobs()[job];
      occupy(start, start + duration_of(j), context.allocator().nodes_needed(j));
    }
    return p;
  }

  /// Earliest fit of `job` before `limit`: from now; or, when `change_after_now`, at a time
  /// after now where the count changes.
  std::optional<double> earliest(const SchedulerContext& context, int job, bool change_after_now,
                                 double limit) const {
    const std::map<double, int> p = profile(context, job);
    const Job& j = context.jobs()[job];
    const int need = context.allocator().nodes_needed(j);
    const double duration = duration_of(j);
    auto fits_at = [&](double t) {
      bool fits = std::prev(p.upper_bound(t))->second >= need;
      for (auto it = p.upper_bound(t); it != p.end() && it->first < t + duration; ++it)
        fits = fits && it->second >= need;
      return fits;
    };
    std::optional<double> found;
    int previous = 0;
    for (auto c = p.begin(); c != p.end() && c->first < limit; ++c) {
      const bool changes = c != p.begin() && c->second != previous;
      previous = c->second;
      if (change_after_now && !changes) continue;
      if (fits_at(c->first)) {
        found = c->first;
        break;
      }
    }
    // After a refusal: a time-dependent allocator's wake-up is a candidate too.
    const std::optional<double> wake = context.allocator().wake_up(j);
    if (change_after_now && wake && *wake > context.now() && *wake < limit &&
        (!found || *wake < *found) && fits_at(*wake))
      found = *wake;
    return found;
  }

  bool try_start(SchedulerContext& context, int job) {
    auto allocation = context.try_allocate(job);
    if (!allocation) return false;
    start_.erase(job);
    context.start(job, std::move(*allocation));
    return true;
  }

  std::string order_;
  PassLog* log_;
  const std::vector<Job>* context_jobs_ = nullptr;
  std::map<int, double> start_;                       // job -> reservation start
  std::vector<std::pair<int, double>> last_running_;  // (job, estimated end) after the last pass
};

/// The scheduler under test, logging its reservations after each pass.
class Logged final : public Scheduler {
 public:
  Logged(std::string order, PassLog* log) : inner_(std::move(order)), log_(log) {}
  void schedule(SchedulerContext& context) override {
    inner_.schedule(context);
    log_->emplace_back(context.now(), inner_.reservations());
  }

 private:
  CompressingConservative inner_;
  PassLog* log_;
};

struct Instance {
  std::string machine, alloc, order;
  Workload workload;
};

Instance random_instance(Rng& rng, int index) {
  // The last: a time-dependent allocator (Slurm's --switches wait; Allocator::wake_up).
  static const std::string kMachines[][2] = {
      {"flat:16", "flat"},
      {"mesh:4x4", "submesh"},
      {"flat:16", "flat"},
      {"torus:2x2x4", "subtorus:scheme=nep"},
      {"mesh:4x4", "buddy2d"},
      {"slurm-topology:" + std::string(ALLOCSIM_TEST_DATA) +
           "/slurm_topology/slurm_doc_example.conf",
       "slurm-tree:switches=1,max_wait=30"},
  };
  static const char* const kOrders[] = {"fifo",       "fifo",       "smallfirst",
                                        "largefirst", "shortfirst", "longfirst"};
  Instance instance;
  const auto& machine = kMachines[index % 6];
  instance.machine = machine[0];
  instance.alloc = machine[1];
  instance.order = kOrders[rng.uniform_int(0, 5)];
  instance.workload.source = "random";
  auto draw = [&](int lo, int hi) { return static_cast<int>(rng.uniform_int(lo, hi)); };
  const int count = draw(3, index % 7 == 6 ? 120 : 40);
  double submit = 0;
  for (int i = 0; i < count; ++i) {
    Job job;
    job.id = i + 1;
    if (draw(0, 2) != 0) submit += draw(0, 12);  // many equal times, long queues
    job.submit = submit;
    job.procs = draw(0, 3) == 0 ? draw(5, 16) : draw(1, 4);
    job.runtime = draw(1, 50);
    const int kind = draw(0, 19);
    if (kind < 10)
      job.estimate = job.runtime * (1 + draw(0, 4)) + draw(0, 30);  // early completion
    else if (kind < 14)
      job.estimate = job.runtime;
    else if (kind < 17)
      job.estimate = draw(1, static_cast<int>(job.runtime));  // overrun (or exact)
    else if (kind == 17)
      job.estimate = 0;
    else if (kind == 18)
      job.estimate = std::nan("");
    else
      job.estimate = -draw(1, 10);
    job.line = i + 1;
    instance.workload.jobs.push_back(job);
  }
  return instance;
}

RunResult run(const Instance& instance, std::unique_ptr<Scheduler> scheduler) {
  RunConfig config;
  config.machine = instance.machine;
  config.alloc = instance.alloc;
  config.sched = "conservative:order=" + instance.order;
  config.keep_jobs = true;
  Simulation simulation(config, instance.workload);
  simulation.set_scheduler(std::move(scheduler));
  return simulation.run();
}

TEST(ConservativeCompress, SameAsTheReferenceAndNoReservationMovesLater) {
  Rng rng(20261129);
  std::size_t passes = 0, moved_earlier = 0, missed = 0;
  for (int i = 0; i < 1500; ++i) {
    const Instance instance = random_instance(rng, i);
    const std::string what = "instance " + std::to_string(i) + " " + instance.machine + " " +
                             instance.alloc + " order=" + instance.order;
    PassLog expected_log, actual_log;
    const RunResult expected =
        run(instance, std::make_unique<ReferenceCompressing>(instance.order, &expected_log));
    const RunResult actual = run(instance, std::make_unique<Logged>(instance.order, &actual_log));
    ASSERT_EQ(expected.jobs.size(), actual.jobs.size()) << what;
    for (std::size_t j = 0; j < expected.jobs.size(); ++j) {
      ASSERT_EQ(expected.jobs[j].job_id, actual.jobs[j].job_id) << what;
      ASSERT_EQ(expected.jobs[j].start, actual.jobs[j].start) << what << " job " << j;
      ASSERT_EQ(expected.jobs[j].end, actual.jobs[j].end) << what << " job " << j;
    }
    ASSERT_EQ(expected_log, actual_log) << what;
    // No reservation moves later, except one offered (due) at that pass and refused.
    std::map<int, double> last;
    for (const auto& [now, reserved] : actual_log) {
      ++passes;
      for (const auto& [job, start] : reserved) {
        const auto found = last.find(job);
        if (found == last.end()) continue;
        if (found->second > now) {
          ASSERT_LE(start, found->second) << what << " job " << job << " at " << now;
          moved_earlier += start < found->second;
        } else {
          missed += start > now;  // re-reserved after a refusal
        }
      }
      last.clear();
      for (const auto& [job, start] : reserved) last[job] = start;
    }
  }
  std::printf("%zu passes, %zu moves earlier, %zu re-reservations after a refusal\n", passes,
              moved_earlier, missed);
  // The instances exercise what they are meant to.
  EXPECT_GT(passes, 10000u);
  EXPECT_GT(moved_earlier, 1000u);
  EXPECT_GT(missed, 100u);
}

}  // namespace
}  // namespace allocsim

namespace allocsim {
namespace {

TEST(ConservativeCompress, AMissedReservationGoesToTheNextChangeThatAdmitsIt) {
  // flat:4. A (2 nodes, runs 20, estimate 10) and B (1 node, 30) start at 0. C (3 nodes, 5) at
  // 1 is reserved at A's estimated end, 10. D (1 node, 10) at 2 would overlap C's reservation
  // now, so it is reserved at 15, after C. At 10 (a pass asked for C's start) A is still
  // running: the allocator refuses C. Without C, P is 3 from 10, 2 on [15, 25) (D), 3 on
  // [25, 30), 4 after: C goes to 25, the first change that admits it; D keeps 15 and starts
  // there on the one free node; C starts at 25 when D ends.
  auto make = [](std::int64_t id, double submit, int procs, double runtime, double estimate) {
    Job job;
    job.id = id;
    job.submit = submit;
    job.procs = procs;
    job.runtime = runtime;
    job.estimate = estimate;
    job.line = id;
    return job;
  };
  Workload workload;
  workload.source = "hand-made";
  workload.jobs = {make(1, 0, 2, 20, 10), make(2, 0, 1, 30, 30), make(3, 1, 3, 5, 5),
                   make(4, 2, 1, 10, 10)};
  RunConfig config;
  config.machine = "flat:4";
  config.alloc = "flat";
  config.sched = "conservative";
  config.keep_jobs = true;
  std::map<std::int64_t, double> start;
  for (const JobRecord& record : simulate(config, workload).jobs)
    start[record.job_id] = record.start;
  EXPECT_EQ(start, (std::map<std::int64_t, double>{{1, 0}, {2, 0}, {3, 25}, {4, 15}}));
}

}  // namespace
}  // namespace allocsim
