// Slurm 22.05's main scheduler, the running jobs as the backfill pass plans them, and the
// allocator's answers (class and file map in slurm_scheduler.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "slurm_scheduler.hpp"

namespace allocsim {

namespace {

/// What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
constexpr double kYear = 365 * 86400.0;

}  // namespace

void SlurmScheduler::schedule(SchedulerContext& context) {
  if (!priority_.indexed()) index_jobs(context);
  const double now = context.now();
  priority_.update_order(context);
  main_pass(context);
  const double interval = config_.bf_interval;
  const bool is_tick = floor_to(now, interval) == now;
  if (config_.backfill && !context.waiting().empty() && is_tick && !same_outcome(context))
    backfill_pass(context);
  priority_.remember_running(context);
  // Slurm's backfill thread wakes every bf_interval: the next multiple, while jobs wait.
  if (config_.backfill && !context.waiting().empty()) {
    const double next = floor_to(now, interval) + interval;
    if (next > requested_) {
      context.request_pass(next);
      requested_ = next;
    }
  }
}

void SlurmScheduler::index_jobs(const SchedulerContext& context) {
  need_.reserve(context.jobs().size());
  for (std::size_t j = 0; j < context.jobs().size(); ++j)
    need_.push_back(context.nodes_needed(static_cast<int>(j)));
  limit_.reserve(context.jobs().size());
  for (const Job& job : context.jobs()) {
    // What Slurm plans for a job without a time limit: "part_time_limit = YEAR_MINUTES".
    const double limit = slurm_time_limit(job);
    limit_.push_back(std::isfinite(limit) ? limit : kYear);
  }
  priority_.index(context, need_);
  tested_of_user_.assign(priority_.user_count(), 0);
  in_plan_.assign(context.jobs().size(), 0);
  position_.assign(context.jobs().size(), 0);
}

void SlurmScheduler::main_pass(SchedulerContext& context) {
  if (!config_.multifactor) {
    const std::vector<int>& waiting = context.waiting();  // a start removes its job
    while (!waiting.empty()) {
      context.check_time_limit();
      auto allocation = context.try_allocate(waiting.front());
      if (!allocation) break;
      context.start(waiting.front(), std::move(*allocation));
    }
    return;
  }
  for (int job_index : priority_.queue(context)) {
    context.check_time_limit();
    auto allocation = context.try_allocate(job_index);
    if (!allocation) break;
    context.start(job_index, std::move(*allocation));
    started_.push_back(job_index);
  }
  forget_started();
}

SlurmScheduler::Planned SlurmScheduler::make_planned(int job_index, double end,
                                                     const Allocation& allocation,
                                                     int machine) const {
  constexpr double kWindow = 30;  // "int time_window = 30"
  Planned job{end, NodeSet(machine), job_index, end + (kWindow - std::fmod(end, kWindow)), 0, 0};
  for (NodeId node : allocation.nodes) job.nodes.set(node);
  std::tie(job.first, job.last) = job.nodes.word_range();
  return job;
}

void SlurmScheduler::sync_planned(const SchedulerContext& context) {
  const int machine = context.topology().node_count();
  const auto& runs = context.running();
  for (std::size_t r = 0; r < runs.size(); ++r) {
    in_plan_[runs[r].job] |= 2;
    position_[runs[r].job] = static_cast<int>(r);
  }
  std::erase_if(planned_, [&](const Planned& job) {
    if (in_plan_[job.job] & 2) return false;
    in_plan_[job.job] = 0;
    return true;
  });
  for (const RunningJob& running : context.running()) {
    const bool known = in_plan_[running.job] & 1;
    in_plan_[running.job] = 1;
    if (known) continue;
    add_planned(make_planned(running.job, running.start + limit_[running.job], running.allocation,
                             machine));
  }
  // Ties (equal ends) by position: finishes move the last running job into the gap.
  for (std::size_t i = 1; i < planned_.size(); ++i) {
    if (planned_[i].end != planned_[i - 1].end) continue;
    for (std::size_t j = i; j > 0 && planned_[j].end == planned_[j - 1].end &&
                            position_[planned_[j].job] < position_[planned_[j - 1].job];
         --j)
      std::swap(planned_[j], planned_[j - 1]);
  }
}

void SlurmScheduler::add_planned(Planned job) {
  in_plan_[job.job] = 1;
  planned_.insert(std::upper_bound(planned_.begin(), planned_.end(), job.end,
                                   [](double end, const Planned& p) { return end < p.end; }),
                  std::move(job));
}

std::optional<Allocation> SlurmScheduler::choose(SchedulerContext& context, int job_index,
                                                 const NodeSet& usable, double time,
                                                 int usable_count) {
  usable.to_busy(busy_);
  scratch_ = fresh_;  // every question draws alike (a copy: cheaper than seeding anew)
  const MachineView view(context.topology(), busy_, usable_count, scratch_, &context, time);
  std::optional<Allocation> allocation;
  if (context.allocator().contiguous_only() && time > context.now()) {
    auto copy = context.allocator().clone();
    for (const RunningJob& running : context.running())
      if (running.start + limit_[running.job] <= time) copy->release(running.allocation);
    allocation = copy->allocate(context.jobs()[job_index], view);
  } else {
    allocation = context.allocator().allocate(context.jobs()[job_index], view);
  }
  if (allocation) {
    for (NodeId node : allocation->nodes)
      if (busy_[static_cast<std::size_t>(node)]) return std::nullopt;
  }
  return allocation;
}

void SlurmScheduler::select_tested(const std::vector<int>& queue, std::vector<int>& tested) {
  tested.clear();
  std::fill(tested_of_user_.begin(), tested_of_user_.end(), 0);
  for (int job_index : queue) {
    if (static_cast<long long>(tested.size()) >= config_.bf_max_job_test) break;
    const int user = priority_.user_of(job_index);
    if (config_.bf_max_job_user > 0 && tested_of_user_[user] >= config_.bf_max_job_user) continue;
    ++tested_of_user_[user];
    tested.push_back(job_index);
  }
}
std::unique_ptr<Scheduler> make_slurm_scheduler(const SlurmConfig& config) {
  return std::make_unique<SlurmScheduler>(config);
}

}  // namespace allocsim
