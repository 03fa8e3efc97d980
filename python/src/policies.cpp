// Adapters that run Python allocators and schedulers inside a simulation (policies.hpp).
#include "policies.hpp"

#include <pybind11/stl.h>

#include <sstream>

#include "allocsim/util/numbers.hpp"

namespace allocsim::python {

PolicyFailure::PolicyFailure(py::object error_)
    : std::runtime_error(py::str(error_).cast<std::string>()), error(std::move(error_)) {}

namespace {

std::string class_name(const py::handle& object) {
  return py::str(object.get_type().attr("__name__")).cast<std::string>();
}

/// The Python exception `value` with its traceback, as the interpreter prints it.
std::string traceback_text(const py::handle& value) {
  py::object format = py::module_::import("traceback").attr("format_exception");
  std::string text;
  for (const auto& line : format(value.get_type(), value, value.attr("__traceback__")))
    text += line.cast<std::string>();
  return text;
}

/// " on job 12", " in the scheduling pass" (a scheduler's), or "" (an allocator's commit).
std::string subject_text(const std::string& what, std::int64_t job_id) {
  if (job_id >= 0) return " on job " + std::to_string(job_id);
  return what.ends_with(".schedule") ? " in the scheduling pass" : "";
}

}  // namespace

PolicyFailure policy_failure(const std::string& what, std::int64_t job_id, double time,
                             const std::string& detail, py::object cause) {
  std::string message = "Python " + what + " failed" + subject_text(what, job_id) +
                        " at simulated time " + number_text(time) + " s: " + detail;
  if (!cause.is_none()) message += "\n" + traceback_text(cause);
  py::object type = py::module_::import("allocsim._allocsim").attr("PolicyError");
  py::object error = type(message);
  error.attr("job_id") = job_id >= 0 ? py::object(py::int_(job_id)) : py::object(py::none());
  error.attr("time") = time;
  error.attr("__cause__") = cause;
  return PolicyFailure(std::move(error));
}

PolicyFailure failure_from_python(py::error_already_set& error, const std::string& what,
                                  std::int64_t job_id, double time) {
  py::object value = error.value();
  // pybind11 keeps the traceback beside the exception; the exception carries it from here on.
  if (error.trace() && py::getattr(value, "__traceback__", py::none()).is_none())
    PyException_SetTraceback(value.ptr(), error.trace().ptr());
  py::object type = py::module_::import("allocsim._allocsim").attr("PolicyError");
  if (py::isinstance(value, type)) return PolicyFailure(value);  // already names its job
  const std::string detail = class_name(value) + ": " + py::str(value).cast<std::string>();
  return policy_failure(what, job_id, time, detail, value);
}

// ---- PythonAllocator -----------------------------------------------------------------------

PythonAllocator::PythonAllocator(py::object policy, std::shared_ptr<RunState> run)
    : policy_(std::move(policy)),
      allocate_(policy_.attr("allocate")),
      name_(class_name(policy_)),
      contiguous_only_(py::bool_(py::getattr(policy_, "contiguous_only", py::bool_(false)))),
      run_(std::move(run)),
      machine_(std::make_shared<MachineState>()) {
  machine_->topology = run_->topology;
  machine_object_ = py::cast(machine_);
}

py::object PythonAllocator::call(const char* method, std::int64_t job_id,
                                 const py::object& argument) const {
  try {
    return policy_.attr(method)(argument);
  } catch (py::error_already_set& error) {
    throw failure_from_python(error, "allocator " + name_ + "." + method, job_id, run_->now());
  }
}

std::optional<Allocation> PythonAllocator::allocate(const Job& job,
                                                    const MachineView& machine) const {
  py::object answer;
  machine_->view = &machine;
  try {
    answer = allocate_(JobView{job, run_->job_index(job)}, machine_object_);
  } catch (py::error_already_set& error) {
    machine_->view = nullptr;
    throw failure_from_python(error, "allocator " + name_ + ".allocate", job.id, run_->now());
  }
  machine_->view = nullptr;
  if (answer.is_none()) return std::nullopt;
  return checked(answer, job, machine);
}

Allocation PythonAllocator::checked(const py::handle& answer, const Job& job,
                                    const MachineView& machine) const {
  const std::string what = "allocator " + name_ + ".allocate";
  Allocation allocation;
  if (py::isinstance<py::str>(answer) || py::isinstance<py::bytes>(answer) ||
      !py::hasattr(answer, "__iter__"))
    throw policy_failure(what, job.id, run_->now(),
                         "allocate() must return a list of node ids or None, not " +
                             class_name(answer) + " (" + py::repr(answer).cast<std::string>() + ")",
                         py::none());
  for (const auto& item : answer) {
    if (PyBool_Check(item.ptr()) || !PyIndex_Check(item.ptr()))
      throw policy_failure(what, job.id, run_->now(),
                           "allocate() returned " + py::repr(item).cast<std::string>() + " (" +
                               class_name(item) + ") among its node ids; node ids are ints",
                           py::none());
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
    long long node = index ? PyLong_AsLongLong(index.ptr()) : -1;
    if (PyErr_Occurred()) PyErr_Clear(), node = -1;  // too large for a long long
    if (node < 0 || node >= machine.node_count())
      throw policy_failure(what, job.id, run_->now(),
                           "allocate() returned node " + py::repr(item).cast<std::string>() +
                               ", which does not exist (node ids are 0 to " +
                               std::to_string(machine.node_count() - 1) + ")",
                           py::none());
    allocation.nodes.push_back(static_cast<NodeId>(node));
  }
  const std::string problem = check_nodes(allocation.nodes, machine.busy(), job.procs, true);
  if (!problem.empty())
    throw policy_failure(what, job.id, run_->now(),
                         "allocate() returned an unusable answer: " + problem + " (job " +
                             std::to_string(job.id) + " needs " + std::to_string(job.procs) +
                             " free nodes)",
                         py::none());
  return allocation;
}

void PythonAllocator::commit(const Allocation& allocation) {
  call("commit", -1, py::cast(allocation.nodes));
}

void PythonAllocator::release(const Allocation& allocation) {
  call("release", -1, py::cast(allocation.nodes));
}

std::unique_ptr<Allocator> PythonAllocator::clone() const {
  py::object copy;
  try {
    copy = policy_.attr("clone")();
  } catch (py::error_already_set& error) {
    throw failure_from_python(error, "allocator " + name_ + ".clone", -1, run_->now());
  }
  return std::make_unique<PythonAllocator>(copy, run_);
}

// ---- PythonScheduler -----------------------------------------------------------------------

PythonScheduler::PythonScheduler(py::object policy, std::shared_ptr<RunState> run)
    : policy_(std::move(policy)),
      schedule_(policy_.attr("schedule")),
      name_(class_name(policy_)),
      run_(std::move(run)),
      context_(std::make_shared<ContextState>()) {
  context_->run = run_.get();
  context_object_ = py::cast(context_);
}

void PythonScheduler::schedule(SchedulerContext& context) {
  context_->context = &context;
  try {
    schedule_(context_object_);
  } catch (py::error_already_set& error) {
    context_->context = nullptr;
    throw failure_from_python(error, "scheduler " + name_ + ".schedule", -1, context.now());
  }
  context_->context = nullptr;
}

}  // namespace allocsim::python
