#pragma once
// The priority order of the `slurm` scheduler: Slurm's priority/basic (first come first served)
// or priority/multifactor with classic fair share. The formulas and what is left out are in
// sched/slurm.hpp ("Priorities"); the scheduler that uses this order is
// src/sched/slurm_scheduler.hpp.
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sched/slurm.hpp"

namespace allocsim {

/// The waiting jobs in Slurm's priority order, with the users' decayed usage behind the
/// fair-share factor. One per run: index() once, then update_order() at every pass.
class SlurmPriority {
 public:
  explicit SlurmPriority(const SlurmConfig& config) : config_(config) {}

  /// True once index() ran.
  bool indexed() const { return !users_.empty(); }
  /// Indexes the run's users (one share per SWF user id; unknown = one user) and keeps `need`
  /// (job index -> nodes the allocator needs) for the job-size factor.
  void index(const SchedulerContext& context, std::span<const int> need);
  /// Brings the order up to date at context.now(): priorities of the last PriorityCalcPeriod
  /// tick, new waiting jobs inserted, jobs no longer waiting dropped.
  void update_order(const SchedulerContext& context);
  /// The waiting jobs in priority order (priority/basic: the context's waiting list).
  const std::vector<int>& queue(const SchedulerContext& context) const {
    return config_.multifactor ? queue_ : context.waiting();
  }
  /// Drops the jobs of `started` (just started) from the order.
  void forget(const std::vector<int>& started);
  /// After a pass: the running jobs accrue usage until the next one (fair share only).
  void remember_running(const SchedulerContext& context);

  /// Index of a job's user, 0 .. user_count() - 1.
  int user_of(int job_index) const { return user_of_[job_index]; }
  std::size_t user_count() const { return users_.size(); }

 private:
  /// Usage is kept only when fair share weighs.
  bool accounting() const { return config_.multifactor && config_.weight_fairshare > 0; }
  void advance_usage(double time);
  /// Priority of `job_index` at `time` (multifactor), truncated to an integer as Slurm's is.
  double priority(const SchedulerContext& context, int job_index, double time) const;

  SlurmConfig config_;
  std::vector<int> need_;      ///< job index -> nodes the allocator needs
  std::vector<int> users_;     ///< SWF user ids, sorted
  std::vector<int> user_of_;   ///< job index -> index into users_
  std::vector<double> usage_;  ///< decayed usage per user at usage_time_ (node seconds)
  double total_usage_ = 0, usage_time_ = 0;
  std::vector<double> usage_at_tick_;
  double total_at_tick_ = 0;
  std::vector<std::pair<int, double>> accruing_;  ///< (user, nodes) running since the last pass
  double tick_ = -std::numeric_limits<double>::infinity();
  std::vector<std::pair<double, int>> ranked_;  ///< multifactor: (-priority, job index), sorted
  std::vector<char> queued_;                    ///< 1: in ranked_; 2: seen waiting in this pass
  std::vector<int> queue_;  ///< multifactor: waiting job indices in priority order
};

}  // namespace allocsim
