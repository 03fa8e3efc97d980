// conservative:replan=full and EASY against their first implementations, kept here as the
// reference: per-job start and end times and the external fragmentation count must be equal on
// random small workloads (ties in submit times, overruns, zero estimates, every queue order,
// count-only and shape-constrained allocators).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

// ---- Reference: conservative backfilling as first written (profile rebuilt every pass) ----

class ReferenceConservative final : public Scheduler {
 public:
  explicit ReferenceConservative(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    const double now = context.now();
    std::map<double, int> profile;
    profile[now] = context.free_count();
    {
      std::vector<std::pair<double, int>> releases;
      for (const RunningJob& r : context.running())
        releases.emplace_back(std::isnan(r.estimated_end) ? now : std::max(r.estimated_end, now),
                              static_cast<int>(r.allocation.nodes.size()));
      std::sort(releases.begin(), releases.end());
      int free = context.free_count();
      for (const auto& [time, nodes] : releases) profile[time] = (free += nodes);
    }
    for (int job_index : queue) {
      const Job& job = context.jobs()[job_index];
      const int need = context.allocator().nodes_needed(job);
      const double duration = std::isnan(job.estimate) ? 0.0 : std::max(job.estimate, 0.0);
      const double start = earliest_slot(profile, need, duration);
      if (start == now) {
        if (auto allocation = context.try_allocate(job_index)) {
          const int used = static_cast<int>(allocation->nodes.size());
          context.start(job_index, std::move(*allocation));
          occupy(profile, now, now + duration, used);
          continue;
        }
      }
      occupy(profile, start, start + duration, need);
    }
  }

 private:
  static double earliest_slot(const std::map<double, int>& profile, int need, double duration) {
    for (auto candidate = profile.begin(); candidate != profile.end(); ++candidate) {
      bool fits = true;
      for (auto it = candidate;
           it != profile.end() && (it == candidate || it->first < candidate->first + duration);
           ++it)
        if (it->second < need) {
          fits = false;
          break;
        }
      if (fits) return candidate->first;
    }
    return profile.rbegin()->first;
  }
  static void occupy(std::map<double, int>& profile, double from, double to, int nodes) {
    auto value_at = [&](double t) { return std::prev(profile.upper_bound(t))->second; };
    if (!profile.count(to)) profile[to] = value_at(to);
    if (!profile.count(from)) profile[from] = value_at(from);
    for (auto it = profile.find(from); it != profile.end() && it->first < to; ++it)
      it->second -= nodes;
  }
  std::string order_;
};

// ---- Reference: EASY as first written (a fresh replay per release time and per candidate) ----

class ReferenceEasy final : public Scheduler {
 public:
  explicit ReferenceEasy(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    std::size_t head_position = 0;
    for (; head_position < queue.size(); ++head_position) {
      auto allocation = context.try_allocate(queue[head_position]);
      if (!allocation) break;
      context.start(queue[head_position], std::move(*allocation));
    }
    if (head_position + 1 >= queue.size()) return;
    const double now = context.now();
    const auto& running = context.running();
    std::vector<std::pair<double, int>> releases;
    for (std::size_t i = 0; i < running.size(); ++i) {
      const double end = running[i].estimated_end;
      releases.emplace_back(std::isnan(end) ? now : std::max(end, now), static_cast<int>(i));
    }
    std::sort(releases.begin(), releases.end());
    const bool shaped = context.allocator().contiguous_only();
    const auto& jobs = context.jobs();
    const int head = queue[head_position];
    auto fits_after = [&](double until, const Allocation* extra) {
      std::vector<char> busy = context.busy();
      int free = context.free_count();
      std::unique_ptr<Allocator> allocator = context.allocator().clone();
      if (extra) {
        for (NodeId node : extra->nodes) busy[node] = 1;
        free -= static_cast<int>(extra->nodes.size());
        allocator->commit(*extra);
      }
      for (const auto& [time, index] : releases) {
        if (time > until) break;
        for (NodeId node : running[index].allocation.nodes) busy[node] = 0;
        free += static_cast<int>(running[index].allocation.nodes.size());
        allocator->release(running[index].allocation);
      }
      Rng scratch(0x5eed);
      const MachineView view(context.topology(), busy, free, scratch, &context);
      if (free < allocator->nodes_needed(jobs[head])) return false;
      return allocator->allocate(jobs[head], view).has_value();
    };
    double reservation_start = INFINITY;
    int spare = 0;
    {
      const int need = context.allocator().nodes_needed(jobs[head]);
      int free = context.free_count();
      for (std::size_t i = 0; i < releases.size();) {
        const double time = releases[i].first;
        do {
          free += static_cast<int>(running[releases[i].second].allocation.nodes.size());
          ++i;
        } while (i < releases.size() && releases[i].first == time);
        if (free < need) continue;
        if (!shaped || fits_after(time, nullptr)) {
          reservation_start = time;
          spare = free - need;
          break;
        }
      }
    }
    for (std::size_t i = head_position + 1; i < queue.size() && context.free_count() > 0; ++i) {
      const Job& job = jobs[queue[i]];
      if (!(shaped || now + job.estimate <= reservation_start ||
            context.allocator().nodes_needed(job) <= spare))
        continue;
      auto allocation = context.try_allocate(queue[i]);
      if (!allocation) continue;
      bool keeps = now + job.estimate <= reservation_start;
      if (!keeps)
        keeps = shaped ? fits_after(reservation_start, &*allocation)
                       : static_cast<int>(allocation->nodes.size()) <= spare;
      if (!keeps) continue;
      if (now + job.estimate > reservation_start)
        spare -= static_cast<int>(allocation->nodes.size());
      context.start(queue[i], std::move(*allocation));
    }
  }

 private:
  std::string order_;
};

// ---- Random instances ----

struct Instance {
  std::string machine, alloc, order;
  Workload workload;
};

Instance random_instance(Rng& rng, int index) {
  static const char* const kMachines[][2] = {
      {"mesh:4x4", "flat"},
      {"mesh:4x4", "submesh"},
      {"torus:2x2x4", "subtorus:scheme=nep"},
      {"torus:2x2x2x4", "subtorus:scheme=ep"},
      {"mesh:4x4", "buddy2d"},
  };
  static const char* const kOrders[] = {"fifo", "fifo", "smallfirst", "shortfirst", "longfirst"};
  Instance instance;
  const auto& machine = kMachines[index % 5];
  instance.machine = machine[0];
  instance.alloc = machine[1];
  instance.order = kOrders[rng.uniform_int(0, 4)];
  instance.workload.source = "random";
  const int nodes = instance.machine == "torus:2x2x2x4" ? 32 : 16;
  auto draw = [&](int lo, int hi) { return static_cast<int>(rng.uniform_int(lo, hi)); };
  const int count = draw(3, 40);
  double submit = 0;
  for (int i = 0; i < count; ++i) {
    Job job;
    job.id = i + 1;
    if (draw(0, 2) != 0) submit += draw(0, 20);  // many equal times
    job.submit = submit;
    job.procs = draw(0, 3) == 0 ? draw(1, nodes) : draw(1, 5);
    job.runtime = draw(1, 60);
    switch (draw(0, 5)) {
      case 0:
        job.estimate = job.runtime;
        break;  // exact
      case 1:
        job.estimate = draw(1, 40);
        break;  // may overrun
      case 2:
        job.estimate = 0;
        break;  // ends "now"
      default:
        job.estimate = job.runtime + draw(0, 80);
        break;  // early completion
    }
    job.line = i + 1;
    instance.workload.jobs.push_back(job);
  }
  return instance;
}

RunResult run(const Instance& instance, const std::string& sched,
              std::unique_ptr<Scheduler> reference) {
  RunConfig config;
  config.machine = instance.machine;
  config.alloc = instance.alloc;
  config.sched =
      sched + (sched.find(':') == std::string::npos ? ":" : ",") + "order=" + instance.order;
  config.keep_jobs = true;
  Simulation simulation(config, instance.workload);
  if (reference) simulation.set_scheduler(std::move(reference));
  return simulation.run();
}

void expect_same(const RunResult& expected, const RunResult& actual, const std::string& what) {
  ASSERT_EQ(expected.jobs.size(), actual.jobs.size()) << what;
  for (std::size_t i = 0; i < expected.jobs.size(); ++i) {
    ASSERT_EQ(expected.jobs[i].job_id, actual.jobs[i].job_id) << what;
    ASSERT_EQ(expected.jobs[i].start, actual.jobs[i].start) << what << " job " << i;
    ASSERT_EQ(expected.jobs[i].end, actual.jobs[i].end) << what << " job " << i;
  }
  EXPECT_EQ(expected.summary.external_fragmentation, actual.summary.external_fragmentation) << what;
}

TEST(SchedulerReference, ConservativeGivesTheFirstImplementationsSchedules) {
  Rng rng(20261124);
  for (int i = 0; i < 1500; ++i) {
    const Instance instance = random_instance(rng, i);
    const std::string what = "instance " + std::to_string(i) + " " + instance.machine + " " +
                             instance.alloc + " order=" + instance.order;
    expect_same(run(instance, "conservative:replan=full",
                    std::make_unique<ReferenceConservative>(instance.order)),
                run(instance, "conservative:replan=full", nullptr), what);
  }
}

/// Long saturated queues that stress the kept plan: most jobs end well before their estimate
/// (early completions, the re-planning case), some overrun it, some have a zero, negative or
/// NaN estimate, and shape-constrained allocators refuse placements the profile allowed.
Instance stressed_instance(Rng& rng, int index) {
  static const char* const kMachines[][2] = {
      {"mesh:4x4", "flat"},
      {"mesh:4x4", "submesh"},
      {"mesh:4x4", "buddy2d"},
      {"torus:2x2x4", "subtorus:scheme=nep"},
  };
  Instance instance;
  const auto& machine = kMachines[index % 4];
  instance.machine = machine[0];
  instance.alloc = machine[1];
  instance.order = index % 8 == 7 ? "smallfirst" : "fifo";
  instance.workload.source = "stressed";
  auto draw = [&](int lo, int hi) { return static_cast<int>(rng.uniform_int(lo, hi)); };
  const int count = draw(60, 160);
  double submit = 0;
  for (int i = 0; i < count; ++i) {
    Job job;
    job.id = i + 1;
    if (draw(0, 3) == 0) submit += draw(0, 6);  // arrivals faster than service: long queues
    job.submit = submit;
    job.procs = draw(0, 4) == 0 ? draw(6, 16) : draw(1, 4);
    job.runtime = draw(1, 40);
    const int kind = draw(0, 19);
    if (kind < 12) {
      job.estimate = job.runtime * (1 + draw(1, 8)) + draw(0, 30);  // early completion
    } else if (kind < 15) {
      job.estimate = job.runtime;
    } else if (kind < 17) {
      job.estimate = draw(1, static_cast<int>(job.runtime));  // overrun (or exact)
    } else if (kind == 17) {
      job.estimate = 0;
    } else if (kind == 18) {
      job.estimate = std::nan("");
    } else {
      job.estimate = -draw(1, 10);
    }
    job.line = i + 1;
    instance.workload.jobs.push_back(job);
  }
  return instance;
}

TEST(SchedulerReference, ConservativeGivesTheFirstImplementationsSchedulesOnLongQueues) {
  Rng rng(15);
  for (int i = 0; i < 160; ++i) {
    const Instance instance = stressed_instance(rng, i);
    const std::string what = "stressed instance " + std::to_string(i) + " " + instance.machine +
                             " " + instance.alloc + " order=" + instance.order;
    expect_same(run(instance, "conservative:replan=full",
                    std::make_unique<ReferenceConservative>(instance.order)),
                run(instance, "conservative:replan=full", nullptr), what);
  }
}

TEST(SchedulerReference, EasyGivesTheFirstImplementationsSchedules) {
  Rng rng(1124);
  for (int i = 0; i < 1500; ++i) {
    const Instance instance = random_instance(rng, i);
    const std::string what = "instance " + std::to_string(i) + " " + instance.machine + " " +
                             instance.alloc + " order=" + instance.order;
    expect_same(run(instance, "easy", std::make_unique<ReferenceEasy>(instance.order)),
                run(instance, "easy", nullptr), what);
  }
}

}  // namespace
}  // namespace allocsim

namespace allocsim {
namespace {

TEST(SchedulerReference, TimeLimitEndsLongBackfillingPassesWithATimeout) {
  // A long queue on a small machine: the limit fires inside the scheduling passes (every
  // scheduler and the planner poll it), and the run ends with TimeoutError, not a hang or an
  // internal error. 1 ns of wall time is always spent before the first poll.
  Workload workload;
  workload.source = "long queue";
  for (int i = 0; i < 3000; ++i) {
    Job job;
    job.id = i + 1;
    job.submit = i;
    job.procs = 1 + i % 16;
    job.runtime = 100 + i % 7;
    job.estimate = 500;
    job.line = i + 1;
    workload.jobs.push_back(job);
  }
  for (const char* sched : {"conservative", "easy"}) {
    for (const char* alloc : {"flat", "subtorus"}) {
      RunConfig config;
      config.machine = "torus:2x2x4";
      config.alloc = alloc;
      config.sched = sched;
      config.timeout_seconds = 1e-9;
      Simulation simulation(config, workload);
      EXPECT_THROW(simulation.run(), TimeoutError) << sched << " " << alloc;
    }
  }
}

}  // namespace
}  // namespace allocsim
