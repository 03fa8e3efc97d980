// Conservative backfilling with a kept plan; see sched/conservative.hpp for the semantics and
// for when the last pass's plan is reused instead of re-planned.
#include "allocsim/sched/conservative.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
  const std::size_t found = earliest_before(need, duration, kNoLimit);
  return found == kNone ? points_.size() - 1 : found;  // not reached: the last frees every node
}

std::size_t FreeProfile::earliest_before(int need, double duration, double limit) const {
  const std::size_t count = points_.size();
  std::size_t candidate = 0;
  while (candidate < count && points_[candidate].time < limit) {
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
  return kNone;
}

std::size_t FreeProfile::index_of(double time) const {
  auto at = std::lower_bound(points_.begin(), points_.end(), time,
                             [](const Point& point, double t) { return point.time < t; });
  if (at == points_.end() || at->time != time) return kNone;
  return static_cast<std::size_t>(at - points_.begin());
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

constexpr double kNoHint = std::numeric_limits<double>::infinity();

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
    const bool hints = plan_kept_ && &context == context_ && &context.jobs() == jobs_ &&
                       context.jobs().size() == job_count_ && now >= planned_at_ &&
                       queue_extends_plan(queue) && running_as_planned(context, now);
    plan_kept_ = false;  // until this pass is through (a time-out may interrupt it)
    if (hints && early_.empty() && all_reservations_ahead(now) &&
        kept_profile_holds(context, now)) {
      reuse_plan(context, queue, now);
    } else if (hints) {
      replan_with_hints(context, queue, now);
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

  /// Condition (c) for the queue: the planned jobs come first, in order.
  bool queue_extends_plan(const std::vector<int>& queue) const {
    if (queue.size() < planned_.size()) return false;
    for (std::size_t i = 0; i < planned_.size(); ++i)
      if (queue[i] != planned_[i].job) return false;
    return true;
  }

  /// Condition (b): no kept reservation starts before now.
  bool all_reservations_ahead(double now) const {
    for (const Planned& planned : planned_)
      if (!(planned.start >= now)) return false;
    return true;
  }

  /// Advances the kept profile to now and checks it against the free count a plan from scratch
  /// sees at now (after running_as_planned).
  bool kept_profile_holds(const SchedulerContext& context, double now) {
    profile_.advance(now);
    int free_expected = context.free_count();
    for (const RunningJob& r : context.running())
      if (release_time(r.estimated_end, now) == now)
        free_expected += static_cast<int>(r.allocation.nodes.size());
    for (const Planned& planned : planned_)
      if (planned.start == now && planned.start + planned.duration > now)
        free_expected -= planned.need;
    return profile_.free(0) == free_expected;
  }

  /// Condition (c) for the running jobs: each is held with the same estimate and size. Drops the
  /// ended ones, listing in early_ those that ended before their estimated end (condition (a)).
  bool running_as_planned(const SchedulerContext& context, double now) {
    ++stamp_;
    early_.clear();
    const auto& running = context.running();
    for (const RunningJob& r : running) {
      const int slot = r.job >= 0 && static_cast<std::size_t>(r.job) < slot_of_job_.size()
                           ? slot_of_job_[r.job]
                           : -1;
      if (slot < 0) return false;
      Held& held = held_[slot];
      const int nodes = static_cast<int>(r.allocation.nodes.size());
      if (!same_time(held.estimated_end, r.estimated_end) || held.nodes != nodes) return false;
      held.seen = stamp_;
    }
    for (std::size_t i = 0; i < held_.size();) {
      if (held_[i].seen == stamp_) {
        ++i;
        continue;
      }
      if (release_time(held_[i].estimated_end, now) > now)  // ended early
        early_.emplace_back(held_[i].estimated_end, held_[i].nodes);
      slot_of_job_[held_[i].job] = -1;
      held_[i] = held_.back();
      held_.pop_back();
      if (i < held_.size()) slot_of_job_[held_[i].job] = static_cast<int>(i);
    }
    return true;
  }

  void hold(int job, double estimated_end, int nodes) {
    slot_of_job_[job] = static_cast<int>(held_.size());
    held_.push_back({job, estimated_end, nodes, stamp_});
  }

  void plan_from_scratch(SchedulerContext& context, const std::vector<int>& queue, double now) {
    reset_profile(context, now);
    for (int job_index : queue) {
      context.check_time_limit();
      plan(context, job_index, now);
    }
  }

  /// The profile of a plan from scratch before any job is planned; holds the running jobs.
  void reset_profile(const SchedulerContext& context, double now) {
    for (const Held& held : held_) slot_of_job_[held.job] = -1;
    held_.clear();
    planned_.clear();
    slot_of_job_.resize(context.jobs().size(), -1);
    releases_.clear();
    for (const RunningJob& r : context.running()) {
      const int nodes = static_cast<int>(r.allocation.nodes.size());
      releases_.emplace_back(release_time(r.estimated_end, now), nodes);
      hold(r.job, r.estimated_end, nodes);
    }
    std::sort(releases_.begin(), releases_.end());
    profile_.reset(now, context.free_count(), releases_);
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

  /// After early completions or missed reservations (same queue prefix and running jobs): a
  /// plan from scratch where a kept job's search stops at min(its kept start, the changed
  /// horizon) when the header's "Re-planning with hints" proves the answer is there or the kept
  /// start.
  void replan_with_hints(SchedulerContext& context, const std::vector<int>& queue, double now) {
    double changed_until = now;  // D_{i-1} is zero from here on
    bool only_more_free = true;  // D_{i-1} >= 0 (no kept job has moved yet)
    for (const auto& [end, nodes] : early_) changed_until = std::max(changed_until, end);
    kept_plan_.swap(planned_);
    reset_profile(context, now);
    for (std::size_t i = 0; i < queue.size(); ++i) {
      context.check_time_limit();
      if (i >= kept_plan_.size()) {
        plan(context, queue[i], now);
        continue;
      }
      const Planned& kept = kept_plan_[i];
      // The kept start still fits when D_{i-1} >= 0 or is zero over its window (and is not past).
      const bool still_fits = kept.start >= now && (only_more_free || kept.start >= changed_until);
      const Placement placed = still_fits ? plan(context, queue[i], now, kept.start, changed_until)
                                          : plan(context, queue[i], now);
      // The partial profile differs from the kept one where this job's reservation moved
      // (its old and new windows) or where it runs on another node count than it reserved.
      if (placed.start != kept.start || placed.nodes != kept.need) {
        changed_until =
            std::max({changed_until, kept.start + kept.duration, placed.start + kept.duration});
        only_more_free = false;
      }
    }
  }

  /// Where plan() put a job: its start and the nodes it occupies from there.
  struct Placement {
    double start;
    int nodes;
  };

  /// Plans one job at the end of the current plan; starts it when its reservation is now and
  /// the allocator places it. With a hint (`known_start` < infinity): the earliest start is
  /// known to be the first fitting breakpoint before min(known_start, changed_until), or else
  /// known_start itself (the caller's proof), so the search stops there.
  Placement plan(SchedulerContext& context, int job_index, double now, double known_start = kNoHint,
                 double changed_until = kNoHint) {
    const Job& job = context.jobs()[job_index];
    const int need = context.allocator().nodes_needed(job);  // <= machine: others are dropped
    // A NaN estimate counts as 0 (a NaN time would break the profile's ordering).
    const double duration = std::isnan(job.estimate) ? 0.0 : std::max(job.estimate, 0.0);
    std::size_t slot = FreeProfile::kNone;
    if (known_start < kNoHint) {
      const double limit = std::min(known_start, changed_until);
      if (limit > now) slot = profile_.earliest_before(need, duration, limit);
      if (slot == FreeProfile::kNone) slot = profile_.index_of(known_start);
    }
    if (slot == FreeProfile::kNone) slot = profile_.earliest(need, duration);
    const double start_time = profile_.time(slot);
    if (slot == 0) {  // the first breakpoint is now
      if (auto allocation = context.try_allocate(job_index)) {
        const int used = static_cast<int>(allocation->nodes.size());
        start(context, job_index, std::move(*allocation), now);
        profile_.occupy(0, now + duration, used);
        return {now, used};
      }
    }
    profile_.occupy(slot, start_time + duration, need);
    planned_.push_back({job_index, start_time, need, duration});
    return {start_time, need};
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
  std::vector<std::pair<double, int>> early_;  // (estimated end, nodes) of early completions
  std::vector<Planned> kept_plan_;             // the kept plan while a pass re-plans
  std::vector<std::pair<double, int>> releases_;
  std::vector<Held> held_;
  std::vector<int> slot_of_job_;  // index into held_, -1 when not held
  std::uint64_t stamp_ = 0;
};

}  // namespace

std::unique_ptr<Scheduler> make_conservative_scheduler(const std::string& order) {
  return std::make_unique<ConservativeScheduler>(order);
}

}  // namespace allocsim
