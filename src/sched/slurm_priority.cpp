// Slurm's priority order (sched/slurm_priority.hpp); the formulas are quoted in sched/slurm.hpp.
#include "allocsim/sched/slurm_priority.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace allocsim {

void SlurmPriority::index(const SchedulerContext& context, std::span<const int> need) {
  need_.assign(need.begin(), need.end());
  for (const Job& job : context.jobs()) users_.push_back(job.user);
  std::sort(users_.begin(), users_.end());
  users_.erase(std::unique(users_.begin(), users_.end()), users_.end());
  if (users_.empty()) users_.push_back(-1);
  user_of_.reserve(context.jobs().size());
  for (const Job& job : context.jobs())
    user_of_.push_back(static_cast<int>(std::lower_bound(users_.begin(), users_.end(), job.user) -
                                        users_.begin()));
  usage_.assign(users_.size(), 0.0);
  queued_.assign(context.jobs().size(), 0);
}

/// Decays every user's usage to `time` and adds the usage of the jobs that ran since the last
/// update (every start and end is a pass, so each ran over the whole interval):
/// nodes × ∫ 2^(−(time − s)/h) ds over it, or nodes × seconds without decay.
void SlurmPriority::advance_usage(double time) {
  const double elapsed = time - usage_time_;
  if (!(elapsed > 0)) return;
  const double half_life = config_.decay_half_life;
  const double factor = half_life > 0 ? std::exp2(-elapsed / half_life) : 1.0;
  const double gain = half_life > 0 ? half_life / std::numbers::ln2 * (1 - factor) : elapsed;
  if (factor != 1.0) {
    for (double& usage : usage_) usage *= factor;
    total_usage_ *= factor;
  }
  for (const auto& [user, nodes] : accruing_) {
    usage_[user] += nodes * gain;
    total_usage_ += nodes * gain;
  }
  usage_time_ = time;
}

void SlurmPriority::remember_running(const SchedulerContext& context) {
  if (!accounting()) return;
  accruing_.clear();
  for (const RunningJob& running : context.running())
    accruing_.emplace_back(user_of_[running.job],
                           static_cast<double>(running.allocation.nodes.size()));
}

double SlurmPriority::priority(const SchedulerContext& context, int job_index, double time) const {
  const Job& job = context.jobs()[job_index];
  double value = 0;
  if (config_.weight_age > 0) {
    const double age = std::max(0.0, time - job.submit);
    value += config_.weight_age *
             (config_.max_age > 0 ? std::min(age, config_.max_age) / config_.max_age : 1.0);
  }
  if (config_.weight_job_size > 0) {
    const double machine = static_cast<double>(context.topology().node_count());
    double size = static_cast<double>(need_[job_index]) / machine;
    if (config_.favor_small) size = 1 - size;
    value += config_.weight_job_size * size;
  }
  if (config_.weight_fairshare > 0) {
    const double share = 1.0 / static_cast<double>(users_.size());
    const double used =
        total_at_tick_ > 0 ? usage_at_tick_[user_of_[job_index]] / total_at_tick_ : 0.0;
    value += config_.weight_fairshare * std::exp2(-used / share);
  }
  return std::max(1.0, std::floor(value));
}

void SlurmPriority::update_order(const SchedulerContext& context) {
  const auto& waiting = context.waiting();
  if (!config_.multifactor) return;  // priority/basic: the waiting list, first come first served
  const double now = context.now();
  const double period = config_.calc_period;
  const double tick = period > 0 ? std::floor(now / period) * period : now;
  const bool recompute = tick != tick_;
  if (recompute) {
    if (accounting()) {
      if (tick > usage_time_) advance_usage(tick);
      usage_at_tick_ = usage_;
      total_at_tick_ = total_usage_;
    }
    tick_ = tick;
  }
  if (accounting()) advance_usage(now);
  // Drop the jobs no longer waiting (dropped by the simulation); add the new ones at their
  // priority of the tick. queued_: 1 = in ranked_, 2 = waiting now.
  for (int job_index : waiting) queued_[job_index] |= 2;
  std::erase_if(ranked_, [&](const std::pair<double, int>& entry) {
    if (queued_[entry.second] & 2) return false;
    queued_[entry.second] = 0;
    return true;
  });
  if (recompute) {
    for (auto& entry : ranked_) entry.first = -priority(context, entry.second, tick);
    std::sort(ranked_.begin(), ranked_.end());
  }
  for (int job_index : waiting) {
    if (!(queued_[job_index] & 1)) {
      const std::pair<double, int> entry{-priority(context, job_index, tick), job_index};
      ranked_.insert(std::upper_bound(ranked_.begin(), ranked_.end(), entry), entry);
    }
    queued_[job_index] = 1;
  }
  queue_.clear();
  for (const auto& entry : ranked_) queue_.push_back(entry.second);
}

void SlurmPriority::forget(const std::vector<int>& started) {
  if (started.empty() || !config_.multifactor) return;
  auto was_started = [&](int job_index) {
    return std::find(started.begin(), started.end(), job_index) != started.end();
  };
  std::erase_if(queue_, was_started);
  std::erase_if(ranked_, [&](const auto& entry) { return was_started(entry.second); });
  for (int job_index : started) queued_[job_index] = 0;
}

}  // namespace allocsim
