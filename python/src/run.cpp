// allocsim._allocsim.run(): one simulation from keyword arguments named as the config field
// table names them (sim/config_fields.hpp, the table the CLI and experiment files share). The
// simulation is the one `allocsim run` builds: load_workload + transform_workload + Simulation,
// so its results are the CLI's bit for bit.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdlib>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/util/spec.hpp"
#include "policies.hpp"
#include "trace.hpp"
#include "views.hpp"

namespace allocsim::python {

namespace {

/// What a run() produced, handed to Python whole; the Python Result reads it lazily.
struct RunOutput {
  RunConfig config;
  RunResult result;
};

std::string type_name(const py::handle& value) {
  return py::str(value.get_type().attr("__name__")).cast<std::string>();
}

/// The text items of a keyword value for `field` (what set_field parses), or a TypeError.
std::vector<std::string> items_of(const ConfigField& field, const py::handle& value) {
  const std::string expected = field_type_text(field.type());
  auto wrong = [&] {
    return py::type_error("run(): " + std::string(field.name) + " must be " + expected + ", not " +
                          type_name(value) + " (" + py::repr(value).cast<std::string>() + ")");
  };
  const bool is_bool = PyBool_Check(value.ptr());
  switch (field.type()) {
    case FieldType::text:
      if (!py::isinstance<py::str>(value)) throw wrong();
      return {value.cast<std::string>()};
    case FieldType::text_list: {
      if (py::isinstance<py::str>(value)) return {value.cast<std::string>()};
      if (!py::isinstance<py::list>(value) && !py::isinstance<py::tuple>(value)) throw wrong();
      std::vector<std::string> items;
      for (const auto& item : value) {
        if (!py::isinstance<py::str>(item)) throw wrong();
        items.push_back(item.cast<std::string>());
      }
      return items;
    }
    case FieldType::real:  // int, float and numpy's numbers
      if (is_bool ||
          !(PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) ||
            py::hasattr(value, "__float__")) ||
          py::isinstance<py::str>(value))
        throw wrong();
      return {number_text(py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>())};
    case FieldType::boolean:  // bool and numpy.bool_
      if (!is_bool && py::type::of(value).attr("__name__").cast<std::string>() != "bool_")
        throw wrong();
      return {py::bool_(py::reinterpret_borrow<py::object>(value)) ? "true" : "false"};
    case FieldType::unsigned_integer: {  // int and numpy's integers, >= 0
      if (is_bool || !PyIndex_Check(value.ptr())) throw wrong();
      const py::int_ number(py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr())));
      if (number < py::int_(0)) throw wrong();
      return {py::str(static_cast<const py::handle&>(number)).cast<std::string>()};
    }
  }
  throw wrong();
}

std::vector<std::string> field_names() {
  std::vector<std::string> names;
  for (const auto& field : config_fields()) names.emplace_back(field.name);
  return names;
}

/// The keyword `name` is not a config field: a TypeError with the closest field.
py::type_error unknown_keyword(const std::string& name) {
  std::string message = "run() got an unknown keyword '" + name + "'";
  const std::string suggestion = closest_match(name, field_names());
  if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
  message += "; keywords are the config fields:";
  for (const auto& field : field_names()) message += " " + field;
  return py::type_error(message);
}

/// A Trace passed as trace=: its reading settings become the run's; a different value given
/// for one of them is refused (it would change what was read).
void take_trace_settings(RunConfig& config, const TraceHandle& trace, const py::dict& given) {
  auto check = [&](const char* name, bool differs) {
    if (given.contains(name) && differs)
      throw py::value_error(std::string("run(): ") + name +
                            " differs from the Trace's (it was read with " +
                            field_text(trace.reading, *find_config_field(name)) +
                            "); read the trace again with the wanted value");
  };
  check("strict", config.strict != trace.reading.strict);
  check("estimate_factor", config.estimate_factor != trace.reading.estimate_factor);
  if (is_synthetic_trace(trace.reading.trace))
    check("workload_seed", config.workload_seed != trace.reading.workload_seed);
  config.trace = trace.reading.trace;
  config.strict = trace.reading.strict;
  config.estimate_factor = trace.reading.estimate_factor;
  if (is_synthetic_trace(trace.reading.trace)) config.workload_seed = trace.reading.workload_seed;
}

RunOutput run(const py::dict& settings, const std::string& trace_dir) {
  RunConfig config;
  config.keep_jobs = true;
  py::object allocator = py::none(), scheduler = py::none();
  std::shared_ptr<TraceHandle> trace;
  for (const auto& [key, value] : settings) {
    const std::string name = py::str(key).cast<std::string>();
    const ConfigField* field = find_config_field(name);
    if (!field) throw unknown_keyword(name);
    if (name == "alloc" && !py::isinstance<py::str>(value)) {
      allocator = py::reinterpret_borrow<py::object>(value);
      continue;
    }
    if (name == "sched" && !py::isinstance<py::str>(value)) {
      scheduler = py::reinterpret_borrow<py::object>(value);
      continue;
    }
    if (name == "trace" && py::isinstance<TraceHandle>(value)) {
      trace = value.cast<std::shared_ptr<TraceHandle>>();
      continue;
    }
    const std::string problem = set_field(config, *field, items_of(*field, value));
    if (!problem.empty()) throw py::value_error("run(): " + name + ": " + problem);
  }
  if (trace) take_trace_settings(config, *trace, settings);
  if (config.trace.empty()) throw py::type_error("run() needs trace=");
  std::string problems;
  for (const auto& problem : check_fields(config))
    problems += (problems.empty() ? "" : "; ") + problem;
  if (!problems.empty()) throw py::value_error("run(): " + problems);
  validate_run_numbers(config.bsd_threshold, config.estimate_factor, config.timeout_seconds);

  Workload workload = trace ? transform_workload(config, trace->base)
                            : transform_workload(config, load_workload(config, trace_dir));
  Simulation simulation(config, std::move(workload));
  auto state = std::make_shared<RunState>();
  state->simulation = &simulation;
  state->topology = py::cast(simulation.topology());
  if (!allocator.is_none())
    simulation.set_allocator(std::make_unique<PythonAllocator>(allocator, state));
  if (!scheduler.is_none())
    simulation.set_scheduler(std::make_unique<PythonScheduler>(scheduler, state));
  try {
    return RunOutput{config, simulation.run()};  // a PolicyFailure raises its PolicyError
  } catch (const std::logic_error& broken) {
    // The simulation's own checks of what a policy did (a scheduler that leaves placeable jobs
    // waiting on an idle machine): a Python policy's mistake, reported as one.
    if (scheduler.is_none() && allocator.is_none()) throw;
    const std::string what = !scheduler.is_none()
                                 ? "scheduler " + type_name(scheduler) + ".schedule"
                                 : "allocator " + type_name(allocator) + ".allocate";
    throw policy_failure(what, -1, simulation.now(), broken.what(), py::none());
  }
}

py::dict summary_of(const RunOutput& out) {
  py::dict summary;
  for (const auto& column : summary_columns())
    summary[column.name] = out.result.summary.*column.member;
  return summary;
}

/// The per-job records as columns of numpy arrays (job_id, job_columns(), allocated_nodes).
py::dict job_columns_of(const RunOutput& out) {
  const auto& jobs = out.result.jobs;
  const auto n = static_cast<py::ssize_t>(jobs.size());
  py::dict columns;
  py::array_t<std::int64_t> ids(n);
  for (py::ssize_t i = 0; i < n; ++i) ids.mutable_at(i) = jobs[i].job_id;
  columns["job_id"] = ids;
  for (const auto& column : job_columns()) {
    py::array_t<double> values(n);
    for (py::ssize_t i = 0; i < n; ++i) values.mutable_at(i) = jobs[i].*column.member;
    columns[column.name] = values;
  }
  py::list nodes(n);
  for (py::ssize_t i = 0; i < n; ++i) nodes[i] = py::str(jobs[i].allocated_nodes);
  columns["allocated_nodes"] = nodes;
  // As `--jobs-out` (output/csv.hpp): on a machine that names its nodes, their names too.
  const Topology machine = Topology::parse(out.config.machine);
  if (machine.graph() && machine.graph()->names_its_nodes()) {
    py::list names(n);
    for (py::ssize_t i = 0; i < n; ++i)
      names[i] = py::str(node_names_hostlist(machine, jobs[i].allocated_nodes));
    columns["allocated_node_names"] = names;
  }
  // As `--jobs-out`: when some job was ended at its time limit, a killed column (1 / 0).
  if (std::any_of(jobs.begin(), jobs.end(), [](const JobRecord& job) { return job.killed; })) {
    py::array_t<std::int64_t> killed(n);
    for (py::ssize_t i = 0; i < n; ++i) killed.mutable_at(i) = jobs[i].killed ? 1 : 0;
    columns["killed"] = killed;
  }
  return columns;
}

py::dict diagnostics_of(const Diagnostics& diagnostics) {
  py::dict out;
  for (const auto& [reason, entry] : diagnostics.entries)
    out[py::str(reason)] =
        py::dict(py::arg("count") = entry.count, py::arg("first_lines") = entry.first_lines);
  out["notes"] = diagnostics.notes;
  return out;
}

}  // namespace

void bind_run(py::module_& module) {
  py::exception<PolicyFailure>(module, "PolicyError", PyExc_RuntimeError);
  // A PolicyFailure raises the PolicyError it carries; a KeyboardInterrupt in user code stays one.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const PolicyFailure& failure) {
      const py::object cause = failure.error.attr("__cause__");
      if (PyObject_IsInstance(cause.ptr(), PyExc_KeyboardInterrupt) == 1)
        PyErr_SetObject(PyExc_KeyboardInterrupt, cause.ptr());
      else
        PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(failure.error.ptr())),
                        failure.error.ptr());
    }
  });
  module.attr("PolicyError").attr("__doc__") =
      "A Python allocator or scheduler failed: its exception (as __cause__, with the traceback in "
      "the message) or an answer the simulation cannot use. Attributes: job_id (None for a "
      "scheduling pass) and time (simulated seconds).";
  py::class_<RunOutput>(module, "RunOutput", "What one run() produced (read by allocsim.Result).")
      .def_property_readonly("config", [](const RunOutput& o) { return o.config.canonical(); })
      .def("summary", &summary_of)
      .def("units",
           [](const RunOutput&) {
             py::dict units;
             for (const auto& column : summary_columns()) units[column.name] = column.unit;
             return units;
           })
      .def("job_units",
           [](const RunOutput&) {
             py::dict units;
             for (const auto& column : job_columns()) units[column.name] = column.unit;
             return units;
           })
      .def("job_columns", &job_columns_of)
      .def("diagnostics", [](const RunOutput& o) { return diagnostics_of(o.result.diagnostics); })
      .def("decisions", [](const RunOutput& o) {
        py::list rows;
        for (const auto& row : o.result.decisions)
          rows.append(py::dict(py::arg("decision") = row.decision,
                               py::arg("mean_pairwise_sum") = row.mean_pairwise_sum,
                               py::arg("mean_avg_pairwise") = row.mean_avg_pairwise,
                               py::arg("jobs") = row.jobs, py::arg("refusals") = row.refusals));
        return rows;
      });
  module.def(
      "_run",
      [](const py::dict& settings, const py::object& trace_dir) {
        std::string dir;
        if (!trace_dir.is_none()) {
          dir = py::str(trace_dir).cast<std::string>();
        } else if (const char* env = std::getenv("ALLOCSIM_TRACE_DIR")) {
          dir = env;
        }
        return run(settings, dir);
      },
      py::arg("settings"), py::arg("trace_dir") = py::none());
}

}  // namespace allocsim::python
