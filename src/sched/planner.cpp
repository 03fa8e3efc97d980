#include "allocsim/sched/planner.hpp"

#include <algorithm>
#include <cmath>

namespace allocsim {

namespace {
/// Seed of the scratch generator handed to allocators during look-ahead (any fixed value).
constexpr std::uint64_t kPlanningSeed = 0x5eed;
}  // namespace

Planner::Planner(const SchedulerContext& context)
    : context_(&context),
      jobs_(&context.jobs()),
      allocator_(&context.allocator()),
      now_(context.now()),
      shaped_(context.allocator().contiguous_only()) {
  const auto& running = context.running();
  releases_.reserve(running.size());
  for (std::size_t i = 0; i < running.size(); ++i) {
    // A job without a usable estimate (NaN) is planned like one that outran it: ends now.
    const double end = running[i].estimated_end;
    releases_.emplace_back(std::isnan(end) ? now_ : std::max(end, now_), static_cast<int>(i));
  }
  std::sort(releases_.begin(), releases_.end());
}

Reservation Planner::reserve(int job_index) const {
  const Job& job = (*jobs_)[job_index];
  const int need = allocator_->nodes_needed(job);
  int free = context_->free_count();
  const auto& running = context_->running();
  // Shape-constrained: one copy of machine and allocator, advanced release group by release
  // group. It goes through exactly the states fits_after_releases(job, time) would rebuild for
  // each group (the same releases in the same order), so the answer is the same; the cost is
  // one replay instead of one per group.
  std::optional<Replay> replay;
  if (shaped_) replay.emplace(*this, nullptr);
  std::size_t replayed = 0;
  // A time-dependent allocator may accept the job at its wake-up on the state of that time.
  std::optional<double> wake = shaped_ ? allocator_->wake_up(job) : std::nullopt;
  if (wake && !(*wake > now_)) wake.reset();
  auto fits_at_wake_up = [&](std::size_t released) {
    const double at = *wake;
    wake.reset();
    if (free < need) return false;
    for (; replayed < released; ++replayed) replay->release(releases_[replayed].second);
    return replay->fits(job_index, at);
  };
  for (std::size_t i = 0; i < releases_.size();) {
    context_->check_time_limit();
    // Every release at this time; advances at least once, whatever the times compare like.
    const double time = releases_[i].first;
    if (wake && *wake < time) {
      const double at = *wake;
      if (fits_at_wake_up(i)) return {at, free - need};
    }
    if (wake && !(*wake > time)) wake.reset();  // this group's time is past the wake-up
    do {
      free += static_cast<int>(running[releases_[i].second].allocation.nodes.size());
      ++i;
    } while (i < releases_.size() && releases_[i].first == time);
    if (free < need) continue;
    if (!shaped_) return {time, free - need};
    for (; replayed < i; ++replayed) replay->release(releases_[replayed].second);
    if (replay->fits(job_index, time)) return {time, free - need};
  }
  if (wake) {
    const double at = *wake;
    if (fits_at_wake_up(releases_.size())) return {at, free - need};
  }
  return {};  // cannot start even on an empty machine (the simulation drops such jobs)
}

bool Planner::may_keep_reservation(const Reservation& reservation, int candidate) const {
  const Job& job = (*jobs_)[candidate];
  return shaped_ || now_ + job.estimate <= reservation.start ||
         allocator_->nodes_needed(job) <= reservation.spare_nodes;
}

bool Planner::keeps_reservation(int head, const Reservation& reservation, int candidate,
                                const Allocation& allocation) const {
  const Job& job = (*jobs_)[candidate];
  if (now_ + job.estimate <= reservation.start) return true;  // gone before the head starts
  if (!shaped_) return static_cast<int>(allocation.nodes.size()) <= reservation.spare_nodes;
  return fits_after_releases(head, reservation.start, &allocation);
}

Planner::Replay::Replay(const Planner& planner, const Allocation* extra)
    : planner_(&planner),
      busy_(planner.context_->busy()),
      free_(planner.context_->free_count()),
      allocator_(planner.allocator_->clone()) {
  if (!extra) return;
  for (NodeId node : extra->nodes) busy_[node] = 1;
  free_ -= static_cast<int>(extra->nodes.size());
  allocator_->commit(*extra);
}

void Planner::Replay::release(int running_index) {
  const Allocation& released = planner_->context_->running()[running_index].allocation;
  for (NodeId node : released.nodes) busy_[node] = 0;
  free_ += static_cast<int>(released.nodes.size());
  allocator_->release(released);
}

bool Planner::Replay::fits(int job, double time) const {
  const Job& wanted = (*planner_->jobs_)[job];
  if (free_ < allocator_->nodes_needed(wanted)) return false;
  // Planning must not consume the simulation's generator: allocators that draw see a scratch
  // generator with a fixed seed, so every look-ahead of one pass draws alike.
  Rng scratch(kPlanningSeed);
  const MachineView view(planner_->context_->topology(), busy_, free_, scratch, planner_->context_,
                         time);
  return allocator_->allocate(wanted, view).has_value();
}

bool Planner::fits_after_releases(int job, double until, const Allocation* extra) const {
  Replay replay(*this, extra);
  for (const auto& [time, index] : releases_) {
    if (time > until) break;
    context_->check_time_limit();
    replay.release(index);
  }
  return replay.fits(job, until);
}

}  // namespace allocsim
