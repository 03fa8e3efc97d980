#pragma once
// Policies written in Python. A Python object (a subclass of allocsim.Allocator or
// allocsim.Scheduler, python/allocsim/__init__.py) is handed to the simulation through an adapter
// that implements the C++ interface and calls the object's methods. The adapters hold the GIL
// throughout (the module never releases it), turn every Python exception into a PolicyFailure
// that carries allocsim.PolicyError (the traceback, the job and the simulated time), and check
// every answer before the simulation uses it.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "views.hpp"

namespace allocsim::python {

namespace py = pybind11;

/// A Python policy failed: `error` is the allocsim.PolicyError instance to raise (its message
/// names the policy, the job and the simulated time; its __cause__ is the user's exception).
class PolicyFailure : public std::runtime_error {
 public:
  explicit PolicyFailure(py::object error);
  py::object error;
};

/// Builds the allocsim.PolicyError for a failure of `what` ("allocator MyAlloc.allocate") on
/// `job_id` (-1: none) at `time`; `detail` ends the message; `cause` (or None) becomes its
/// __cause__ and its traceback is appended to the message.
PolicyFailure policy_failure(const std::string& what, std::int64_t job_id, double time,
                             const std::string& detail, py::object cause);

/// Presents a Python allocator (allocate(job, machine) -> node ids or None, optional commit,
/// release, clone and contiguous_only) to the simulation.
class PythonAllocator final : public Allocator {
 public:
  PythonAllocator(py::object policy, std::shared_ptr<RunState> run);
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override;
  void release(const Allocation& allocation) override;
  bool contiguous_only() const override { return contiguous_only_; }
  std::unique_ptr<Allocator> clone() const override;

 private:
  /// Calls `method` of the policy, turning a Python exception into a PolicyFailure.
  py::object call(const char* method, std::int64_t job_id, const py::object& argument) const;
  /// The checked Allocation of `answer` (a sequence of node ids) for `job`.
  Allocation checked(const py::handle& answer, const Job& job, const MachineView& machine) const;

  py::object policy_;
  py::object allocate_;  // the bound method, looked up once
  std::string name_;     // the policy's class name, for messages
  bool contiguous_only_ = false;
  std::shared_ptr<RunState> run_;
  std::shared_ptr<MachineState> machine_;  // the view handed to allocate(), valid during a call
  py::object machine_object_;
};

/// Presents a Python scheduler (schedule(context)) to the simulation.
class PythonScheduler final : public Scheduler {
 public:
  PythonScheduler(py::object policy, std::shared_ptr<RunState> run);
  void schedule(SchedulerContext& context) override;

 private:
  py::object policy_;
  py::object schedule_;
  std::string name_;
  std::shared_ptr<RunState> run_;
  std::shared_ptr<ContextState> context_;  // the context handed to schedule(), valid during a call
  py::object context_object_;
};

/// The Python exception being handled, as a PolicyFailure: an allocsim.PolicyError passes
/// through unchanged (a Python allocator failed inside a Python scheduler's try_allocate).
PolicyFailure failure_from_python(py::error_already_set& error, const std::string& what,
                                  std::int64_t job_id, double time);

}  // namespace allocsim::python
