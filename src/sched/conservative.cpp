// Conservative backfilling with a kept plan; see sched/conservative.hpp for the semantics and
// for when the last pass's plan is reused instead of re-planned.
#include "allocsim/sched/conservative.hpp"

#include <algorithm>
#include <cmath>

namespace allocsim {

// ---- FreeProfile ----

void FreeProfile::reset(double now, int free_now,
                        const std::vector<std::pair<double, int>>& releases) {
  points_.clear();
  points_.push_back({now, free_now});
  int free = free_now;
  for (const auto& [time, nodes] : releases) {
    free += nodes;
    if (points_.back().time == time)
      points_.back().free = free;
    else
      points_.push_back({time, free});
  }
}

std::size_t FreeProfile::earliest(int need, double duration) const {
  const std::size_t count = points_.size();
  std::size_t candidate = 0;
  while (candidate < count) {
    if (points_[candidate].free < need) {  // fails at itself
      ++candidate;
      continue;
    }
    const double end = points_[candidate].time + duration;
    std::size_t next = candidate + 1;
    while (next < count && points_[next].time < end && points_[next].free >= need) ++next;
    if (next == count || !(points_[next].time < end)) return candidate;
    candidate = next + 1;  // every candidate up to `next` has `next` in its window
  }
  return count - 1;  // not reached: the last breakpoint frees every node
}

void FreeProfile::occupy(std::size_t from, double to, int nodes) {
  auto first = points_.begin() + static_cast<std::ptrdiff_t>(from);
  auto stop = std::lower_bound(first, points_.end(), to,
                               [](const Point& point, double time) { return point.time < time; });
  if (stop == points_.end() || stop->time != to) {
    const int value = std::prev(stop)->free;
    const std::ptrdiff_t at = stop - points_.begin();
    points_.insert(stop, Point{to, value});
    stop = points_.begin() + at;
    first = points_.begin() + static_cast<std::ptrdiff_t>(from);
  }
  for (auto it = first; it != stop; ++it) it->free -= nodes;
}

void FreeProfile::adjust(std::size_t from, double to, int delta) {
  for (std::size_t i = from; i < points_.size() && points_[i].time < to; ++i)
    points_[i].free += delta;
}

void FreeProfile::advance(double now) {
  auto after = std::upper_bound(points_.begin(), points_.end(), now,
                                [](double time, const Point& point) { return time < point.time; });
  auto last = std::prev(after);  // the step that holds at `now`
  points_.erase(points_.begin(), last);
  points_.front().time = now;
}

namespace {

/// A running job's release in the profile: its estimated end, clamped to now; without a usable
/// estimate (NaN) it ends now.
double release_time(double estimated_end, double now) {
  return std::isnan(estimated_end) ? now : std::max(estimated_end, now);
}

bool same_time(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

class ConservativeScheduler final : public Scheduler {
 public:
  explicit ConservativeScheduler(std::string order) : order_(std::move(order)) {}

  void schedule(SchedulerContext& context) override {
    const std::vector<int> queue = ordered_queue(context, order_);
    const double now = context.now();
    bool reuse = plan_kept_ && &context == context_ && &context.jobs() == jobs_ &&
                 context.jobs().size() == job_count_ && now >= planned_at_ &&
                 queue_extends_plan(queue, now);
    plan_kept_ = false;  // until this pass is through (a time-out may interrupt it)
    if (reuse) {
      profile_.advance(now);  // a plan from scratch below resets the profile anyway
      reuse = running_as_planned(context, now);
    }
    if (reuse) {
      reuse_plan(context, queue, now);
    } else {
      plan_from_scratch(context, queue, now);
    }
    context_ = &context;
    jobs_ = &context.jobs();
    job_count_ = context.jobs().size();
    planned_at_ = now;
    plan_kept_ = true;
  }

 private:
  /// A waiting job's reservation in the kept plan.
  struct Planned {
    int job;
    double start;
    int need;
    double duration;
  };
  /// A running job as the kept plan counted it.
  struct Held {
    int job;
    double estimated_end;
    int nodes;
    std::uint64_t seen;  ///< pass stamp of the last check
  };

  /// Condition (c) for the queue and condition (b): the planned jobs come first, in order, and
  /// none is planned before now.
  bool queue_extends_plan(const std::vector<int>& queue, double now) const {
    if (queue.size() < planned_.size()) return false;
    for (std::size_t i = 0; i < planned_.size(); ++i)
      if (queue[i] != planned_[i].job || !(planned_[i].start >= now)) return false;
    return true;
  }

  /// (After profile_.advance(now).) Condition (a) and (c) for the running jobs: each is held with
  /// the same estimate and size; those that ended did so at or after their estimated end. Drops the
  /// ended ones.
  bool running_as_planned(const SchedulerContext& context, double now) {
    ++stamp_;
    const auto& running = context.running();
    int free_expected = context.free_count();
    for (const RunningJob& r : running) {
      const int slot = r.job >= 0 && static_cast<std::size_t>(r.job) < slot_of_job_.size()
                           ? slot_of_job_[r.job]
                           : -1;
      if (slot < 0) return false;
      Held& held = held_[slot];
      const int nodes = static_cast<int>(r.allocation.nodes.size());
      if (!same_time(held.estimated_end, r.estimated_end) || held.nodes != nodes) return false;
      held.seen = stamp_;
      if (release_time(r.estimated_end, now) == now) free_expected += nodes;
    }
    for (std::size_t i = 0; i < held_.size();) {
      if (held_[i].seen == stamp_) {
        ++i;
        continue;
      }
      if (release_time(held_[i].estimated_end, now) > now) return false;  // ended early
      slot_of_job_[held_[i].job] = -1;
      held_[i] = held_.back();
      held_.pop_back();
      if (i < held_.size()) slot_of_job_[held_[i].job] = static_cast<int>(i);
    }
    // The kept profile at now must be the free count as a plan from scratch would see it.
    for (const Planned& planned : planned_)
      if (planned.start == now && planned.start + planned.duration > now)
        free_expected -= planned.need;
    return profile_.free(0) == free_expected;
  }

  void hold(int job, double estimated_end, int nodes) {
    slot_of_job_[job] = static_cast<int>(held_.size());
    held_.push_back({job, estimated_end, nodes, stamp_});
  }

  void plan_from_scratch(SchedulerContext& context, const std::vector<int>& queue, double now) {
    for (const Held& held : held_) slot_of_job_[held.job] = -1;
    held_.clear();
    planned_.clear();
    slot_of_job_.resize(context.jobs().size(), -1);
    std::vector<std::pair<double, int>> releases;
    for (const RunningJob& r : context.running()) {
      const int nodes = static_cast<int>(r.allocation.nodes.size());
      releases.emplace_back(release_time(r.estimated_end, now), nodes);
      hold(r.job, r.estimated_end, nodes);
    }
    std::sort(releases.begin(), releases.end());
    profile_.reset(now, context.free_count(), releases);
    for (int job_index : queue) {
      context.check_time_limit();
      plan(context, job_index, now);
    }
  }

  /// The kept plan is what a plan from scratch gives: start the planned jobs whose reservation
  /// is now, in queue order, then plan the new jobs at the end of the queue.
  void reuse_plan(SchedulerContext& context, const std::vector<int>& queue, double now) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < planned_.size(); ++i) {
      const Planned planned = planned_[i];
      if (planned.start == now) {
        context.check_time_limit();
        if (auto allocation = context.try_allocate(planned.job)) {
          const int used = static_cast<int>(allocation->nodes.size());
          start(context, planned.job, std::move(*allocation), now);
          // The reservation occupied `need` nodes; a plan from scratch occupies `used`.
          if (used != planned.need) profile_.adjust(0, now + planned.duration, planned.need - used);
          continue;
        }
      }
      planned_[kept++] = planned;
    }
    const std::size_t old_count = planned_.size();
    planned_.resize(kept);
    for (std::size_t i = old_count; i < queue.size(); ++i) {
      context.check_time_limit();
      plan(context, queue[i], now);
    }
  }

  /// Plans one job at the end of the current plan; starts it when its reservation is now and
  /// the allocator places it.
  void plan(SchedulerContext& context, int job_index, double now) {
    const Job& job = context.jobs()[job_index];
    const int need = context.allocator().nodes_needed(job);  // <= machine: others are dropped
    // A NaN estimate counts as 0 (a NaN time would break the profile's ordering).
    const double duration = std::isnan(job.estimate) ? 0.0 : std::max(job.estimate, 0.0);
    const std::size_t slot = profile_.earliest(need, duration);
    const double start_time = profile_.time(slot);
    if (slot == 0) {  // the first breakpoint is now
      if (auto allocation = context.try_allocate(job_index)) {
        const int used = static_cast<int>(allocation->nodes.size());
        start(context, job_index, std::move(*allocation), now);
        profile_.occupy(0, now + duration, used);
        return;
      }
    }
    profile_.occupy(slot, start_time + duration, need);
    planned_.push_back({job_index, start_time, need, duration});
  }

  void start(SchedulerContext& context, int job_index, Allocation allocation, double now) {
    const int nodes = static_cast<int>(allocation.nodes.size());
    const double estimated_end = now + context.jobs()[job_index].estimate;
    context.start(job_index, std::move(allocation));
    hold(job_index, estimated_end, nodes);
  }

  std::string order_;
  // The kept plan and what it was made for.
  bool plan_kept_ = false;
  const SchedulerContext* context_ = nullptr;
  const std::vector<Job>* jobs_ = nullptr;
  std::size_t job_count_ = 0;
  double planned_at_ = 0;
  FreeProfile profile_;
  std::vector<Planned> planned_;
  std::vector<Held> held_;
  std::vector<int> slot_of_job_;  // index into held_, -1 when not held
  std::uint64_t stamp_ = 0;
};

}  // namespace

std::unique_ptr<Scheduler> make_conservative_scheduler(const std::string& order) {
  return std::make_unique<ConservativeScheduler>(order);
}

}  // namespace allocsim
