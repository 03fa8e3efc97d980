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

/// One scheduling policy. A scheduler may keep state between passes. Either it is a cache
/// (conservative:replan=full keeps its plan and reuses it when the queue and the running jobs
/// are as it planned them; its decisions are those it would make from the context alone,
/// sched/conservative.hpp), or it is part of the policy: conservative backfilling with
/// compression keeps each job's reservation from its arrival on (sched/compressing.hpp), so one
/// scheduler object serves one run.
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
