#pragma once
// Observers hear a simulation's events and record what they measure (design sketch: per-job
// records, run summary, decision matrix). Every hook has an empty default.
// Per job: on_submit when it joins the queue; per start the hooks run in the order
// before_commit, (commit), on_start; per end on_finish, (release), after_release. Observers are
// called in the order they were added.
#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Listener on one Simulation.
class SimulationObserver {
 public:
  virtual ~SimulationObserver() = default;
  /// `chosen` is about to be committed for `job` on the machine as `machine` shows it.
  virtual void before_commit(const Job& /*job*/, const MachineView& /*machine*/,
                             const Allocation& /*chosen*/) {}
  /// Job `job_index` started at `now` on `allocation` (already committed).
  virtual void on_start(int /*job_index*/, const Job& /*job*/, double /*now*/,
                        const Allocation& /*allocation*/) {}
  /// Job `job_index` ended at `now` (its end is final only here: rates may change while a
  /// job runs); its allocation is released right after.
  virtual void on_finish(int /*job_index*/, const Job& /*job*/, double /*now*/,
                         const Allocation& /*allocation*/) {}
  /// A job ended and `allocation` was released.
  virtual void after_release(const Allocation& /*allocation*/) {}
  /// Job `job_index` will never run (no allocator answer even on an idle machine); it leaves
  /// the queue at `now`.
  virtual void on_drop(int /*job_index*/, double /*now*/) {}
  /// Job `job_index` arrived at `now` (its submit time) and joined the queue (event order step
  /// 3 of sim/simulation.hpp; before the scheduling pass that may start it at once).
  virtual void on_submit(int /*job_index*/, const Job& /*job*/, double /*now*/) {}
};

}  // namespace allocsim
