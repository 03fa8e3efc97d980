// The scheduler table: FCFS, EASY (aggressive backfilling, Lifka; Mu'alem & Feitelson),
// conservative backfilling, and the Cplant simulator's queue (Leung et al.).
#include <algorithm>
#include <map>

#include "allocsim/sched/planner.hpp"
#include "allocsim/sched/scheduler.hpp"

namespace allocsim {

namespace {

/// Queue orders: fifo (arrival), smallfirst/largefirst (processors), shortfirst/longfirst
/// (estimate). Ties keep arrival order (job index = arrival rank).
std::vector<int> ordered_queue(const SchedulerContext& context, const std::string& order) {
  std::vector<int> queue = context.waiting();
  const auto& jobs = context.jobs();
  auto by = [&](auto key) {
    std::stable_sort(queue.begin(), queue.end(),
                     [&](int a, int b) { return key(jobs[a]) < key(jobs[b]); });
  };
  if (order == "smallfirst") by([](const Job& j) { return j.procs; });
  if (order == "largefirst") by([](const Job& j) { return -j.procs; });
  if (order == "shortfirst") by([](const Job& j) { return j.estimate; });
  if (order == "longfirst") by([](const Job& j) { return -j.estimate; });
  if (order == "cplant") by([](const Job& j) { return std::make_pair(j.procs, j.estimate); });
  return queue;
}

/// Starts queue jobs in order while they fit; returns the position of the first that does not.
std::size_t start_in_order(SchedulerContext& context, const std::vector<int>& queue) {
  std::size_t position = 0;
  for (; position < queue.size(); ++position) {
    auto allocation = context.try_allocate(queue[position]);
    if (!allocation) break;
    context.start(queue[position], std::move(*allocation));
  }
  return position;
}

class FcfsScheduler final : public Scheduler {
 public:
  explicit FcfsScheduler(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    start_in_order(context, ordered_queue(context, order_));
  }

 private:
  std::string order_;
};

/// EASY: the first job that cannot start gets a reservation at its earliest start; a later job
/// may start now if it fits and either ends (by its estimate) before the reservation or leaves
/// the reservation intact (spare nodes, or a replay for shape-constrained allocators).
class EasyScheduler final : public Scheduler {
 public:
  explicit EasyScheduler(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    const std::size_t head_position = start_in_order(context, queue);
    if (head_position + 1 >= queue.size()) return;
    const Planner planner(context);
    const int head = queue[head_position];
    Reservation reservation = planner.reserve(head);
    const auto& jobs = context.jobs();
    const double now = context.now();
    for (std::size_t i = head_position + 1; i < queue.size() && context.free_count() > 0; ++i) {
      if (!planner.may_keep_reservation(reservation, queue[i])) continue;  // skip the allocator
      auto allocation = context.try_allocate(queue[i]);
      if (!allocation || !planner.keeps_reservation(head, reservation, queue[i], *allocation))
        continue;
      const Job& job = jobs[queue[i]];
      if (now + job.estimate > reservation.start)
        reservation.spare_nodes -= static_cast<int>(allocation->nodes.size());
      context.start(queue[i], std::move(*allocation));
    }
  }

 private:
  std::string order_;
};

/// Conservative backfilling: every waiting job, in queue order, holds a reservation in a
/// free-node profile built from the running jobs' estimates; a job starts now only when its
/// reservation is now, so no earlier reservation is ever delayed. The profile counts nodes;
/// with shape-constrained allocators a job whose reservation is now but which the allocator
/// cannot place keeps waiting (its nodes stay reserved from now on, so later jobs cannot take
/// them).
class ConservativeScheduler final : public Scheduler {
 public:
  explicit ConservativeScheduler(std::string order) : order_(std::move(order)) {}
  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    const double now = context.now();
    // Step function: free nodes from each breakpoint until the next.
    std::map<double, int> profile;
    profile[now] = context.free_count();
    {
      std::vector<std::pair<double, int>> releases;
      for (const RunningJob& r : context.running())
        releases.emplace_back(std::max(r.estimated_end, now),
                              static_cast<int>(r.allocation.nodes.size()));
      std::sort(releases.begin(), releases.end());
      int free = context.free_count();
      for (const auto& [time, nodes] : releases) profile[time] = (free += nodes);
    }
    for (int job_index : queue) {
      const Job& job = context.jobs()[job_index];
      const int need =
          context.allocator().nodes_needed(job);  // <= machine: the simulation drops others
      const double duration = std::max(job.estimate, 0.0);
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
  /// Earliest breakpoint t with at least `need` free nodes throughout [t, t + duration).
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
    return profile.rbegin()->first;  // the last breakpoint frees every node
  }

  /// Subtracts `nodes` from the profile over [from, to) (adding breakpoints as needed).
  static void occupy(std::map<double, int>& profile, double from, double to, int nodes) {
    auto value_at = [&](double t) { return std::prev(profile.upper_bound(t))->second; };
    if (!profile.count(to)) profile[to] = value_at(to);
    if (!profile.count(from)) profile[from] = value_at(from);
    for (auto it = profile.find(from); it != profile.end() && it->first < to; ++it)
      it->second -= nodes;
  }

  std::string order_;
};

/// The Cplant simulator's queue: jobs sorted by processors, then requested time; every job that
/// fits starts, in that order, with no reservations.
class CplantScheduler final : public Scheduler {
 public:
  void schedule(SchedulerContext& context) override {
    for (int job_index : ordered_queue(context, "cplant")) {
      if (context.free_count() == 0) break;
      if (auto allocation = context.try_allocate(job_index))
        context.start(job_index, std::move(*allocation));
    }
  }
};

ParamSpec order_param() {
  return {"order",
          ParamKind::choice,
          "fifo",
          "queue order",
          {"fifo", "smallfirst", "largefirst", "shortfirst", "longfirst"}};
}

std::vector<RegistryEntry<SchedulerFactory>> scheduler_entries() {
  return {
      {"fcfs",
       "first come first served: start jobs in queue order until one does not fit",
       {order_param()},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         return std::make_unique<FcfsScheduler>(p.text("order"));
       }},
      {"easy",
       "aggressive (EASY) backfilling: only the head job holds a reservation",
       {order_param()},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         return std::make_unique<EasyScheduler>(p.text("order"));
       }},
      {"conservative",
       "conservative backfilling: every waiting job holds a reservation",
       {order_param()},
       [](const Params& p) -> std::unique_ptr<Scheduler> {
         return std::make_unique<ConservativeScheduler>(p.text("order"));
       }},
      {"cplant",
       "Cplant queue: sorted by processors then requested time; start all that fit",
       {},
       [](const Params&) -> std::unique_ptr<Scheduler> {
         return std::make_unique<CplantScheduler>();
       }},
  };
}

}  // namespace

const SchedulerRegistry& scheduler_registry() {
  static const SchedulerRegistry registry("scheduler", scheduler_entries());
  return registry;
}

}  // namespace allocsim
