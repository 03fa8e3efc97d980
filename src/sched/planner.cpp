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
  for (std::size_t i = 0; i < releases_.size();) {
    context_->check_time_limit();
    // Every release at this time; advances at least once, whatever the times compare like.
    const double time = releases_[i].first;
    do {
      free += static_cast<int>(running[releases_[i].second].allocation.nodes.size());
      ++i;
    } while (i < releases_.size() && releases_[i].first == time);
    if (free < need) continue;
    if (!shaped_ || fits_after_releases(job_index, time, nullptr)) return {time, free - need};
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

bool Planner::fits_after_releases(int job, double until, const Allocation* extra) const {
  std::vector<char> busy = context_->busy();
  int free = context_->free_count();
  std::unique_ptr<Allocator> allocator = allocator_->clone();
  if (extra) {
    for (NodeId node : extra->nodes) busy[node] = 1;
    free -= static_cast<int>(extra->nodes.size());
    allocator->commit(*extra);
  }
  const auto& running = context_->running();
  for (const auto& [time, index] : releases_) {
    if (time > until) break;
    context_->check_time_limit();
    const Allocation& released = running[index].allocation;
    for (NodeId node : released.nodes) busy[node] = 0;
    free += static_cast<int>(released.nodes.size());
    allocator->release(released);
  }
  // Planning must not consume the simulation's generator: allocators that draw see a scratch
  // generator with a fixed seed, so every look-ahead of one pass draws alike.
  Rng scratch(kPlanningSeed);
  const MachineView view(context_->topology(), busy, free, scratch, context_);
  if (free < allocator->nodes_needed((*jobs_)[job])) return false;
  return allocator->allocate((*jobs_)[job], view).has_value();
}

}  // namespace allocsim
