#pragma once
// What Python policies see of a running simulation: jobs (copies), the machine view handed to
// allocate() and the scheduler context handed to schedule(). The views point into the
// simulation, so each is valid only during the call it was handed to: afterwards every access
// raises a RuntimeError instead of reading freed memory.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/context.hpp"

namespace allocsim::python {

namespace py = pybind11;

/// What the adapters of one run share: the simulation's clock and jobs (through its
/// SchedulerContext, set once the simulation is built) and the machine as a Python object.
struct RunState {
  const SchedulerContext* simulation = nullptr;
  py::object topology;  ///< allocsim.Machine, a copy of the run's machine
  /// Simulated time now (0 before the simulation is built).
  double now() const { return simulation ? simulation->now() : 0; }
  /// Index of `job` in the simulation's jobs (it is one of them), or -1.
  int job_index(const Job& job) const;
};

/// A job as Python sees it: a copy of the job and its index in the run (-1 when unknown).
struct JobView {
  Job job;
  int index = -1;
};

/// The machine handed to a Python allocator's allocate(); `view` is null outside the call.
struct MachineState {
  const MachineView* view = nullptr;
  py::object topology;
  /// The view; throws a RuntimeError outside allocate().
  const MachineView& get() const;
};

/// The context handed to a Python scheduler's schedule(); `context` is null outside the call.
struct ContextState {
  SchedulerContext* context = nullptr;
  const RunState* run = nullptr;
  /// The context; throws a RuntimeError outside schedule().
  SchedulerContext& get() const;
};

/// Checks `nodes` for `job` on a machine whose busy map is `busy`: ids in range, free, each once,
/// at least `needed` of them (exactly, when `exact`). Returns the problem ("node 5 is busy"),
/// or an empty string.
std::string check_nodes(const std::vector<NodeId>& nodes, const std::vector<char>& busy, int needed,
                        bool exact);

/// Binds Job, Allocation, MachineState, ContextState (as allocsim's Job, Allocation,
/// MachineState, SchedulerContext).
void bind_views(py::module_& module);
/// Binds Machine (a Topology) and Trace, and the registry and field listings.
void bind_inputs(py::module_& module);
/// Binds run() and the policy adapters' error type.
void bind_run(py::module_& module);

}  // namespace allocsim::python
