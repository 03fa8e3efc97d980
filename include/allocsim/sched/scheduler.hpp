#pragma once
// Schedulers decide which waiting jobs start now. Each is an entry of the scheduler table:
// fcfs, easy (aggressive backfilling), conservative, cplant (Cplant simulator's queue), slurm
// (Slurm 22.05's main and backfill scheduling, sched/slurm.hpp).
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sched/context.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim {

/// One scheduling policy. A scheduler may keep state between passes (conservative keeps its
/// plan and reuses it when the queue and the running jobs are as it planned them), but its
/// decisions must be those it would make from the context alone: kept state is a cache, checked
/// against the context before use (sched/conservative.hpp says when its plan is reused).
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// One scheduling pass at context.now(): start every job that should start now.
  virtual void schedule(SchedulerContext& context) = 0;
  /// Seconds after its start at which `job`, if still running, is ended there (killed at its
  /// time limit, as Slurm does); infinity (the default) lets every job run to its end.
  virtual double time_limit(const Job& job) const {
    (void)job;
    return std::numeric_limits<double>::infinity();
  }
};

/// The waiting jobs in a queue order: fifo (arrival), smallfirst/largefirst (processors),
/// shortfirst/longfirst (estimate), cplant (processors, then estimate). Ties keep arrival order.
std::vector<int> ordered_queue(const SchedulerContext& context, const std::string& order);

using SchedulerFactory = std::function<std::unique_ptr<Scheduler>(const Params&)>;
using SchedulerRegistry = Registry<SchedulerFactory>;
const SchedulerRegistry& scheduler_registry();

}  // namespace allocsim
