// allocsim.Trace: reads a trace file, trace NAME or synthetic spec once (trace.hpp).
#include "trace.hpp"

#include <pybind11/stl.h>

#include <cstdlib>
#include <memory>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim::python {

namespace {

std::shared_ptr<TraceHandle> read(const std::string& trace, bool strict, double estimate_factor,
                                  std::uint64_t workload_seed, const py::object& trace_dir) {
  auto handle = std::make_shared<TraceHandle>();
  handle->reading.trace = trace;
  handle->reading.strict = strict;
  handle->reading.estimate_factor = estimate_factor;
  handle->reading.workload_seed = workload_seed;
  validate_run_numbers(handle->reading.bsd_threshold, estimate_factor, 0);
  std::string dir;
  if (!trace_dir.is_none()) {
    dir = py::str(trace_dir).cast<std::string>();
  } else if (const char* env = std::getenv("ALLOCSIM_TRACE_DIR")) {
    dir = env;
  }
  handle->base = load_workload(handle->reading, dir);
  return handle;
}

/// The jobs as columns (a pandas DataFrame's constructor argument).
py::dict columns(const TraceHandle& t) {
  std::vector<std::int64_t> id, line;
  std::vector<double> submit, runtime, estimate;
  std::vector<int> procs, shape_a, shape_b, user;
  for (const Job& job : t.base.jobs) {
    id.push_back(job.id);
    submit.push_back(job.submit);
    runtime.push_back(job.runtime);
    estimate.push_back(job.estimate);
    procs.push_back(job.procs);
    shape_a.push_back(job.shape_a);
    shape_b.push_back(job.shape_b);
    user.push_back(job.user);
    line.push_back(job.line);
  }
  return py::dict(py::arg("id") = id, py::arg("submit") = submit, py::arg("runtime") = runtime,
                  py::arg("estimate") = estimate, py::arg("size") = procs,
                  py::arg("shape_a") = shape_a, py::arg("shape_b") = shape_b,
                  py::arg("user") = user, py::arg("line") = line);
}

}  // namespace

void bind_trace(py::module_& module) {
  py::class_<TraceHandle, std::shared_ptr<TraceHandle>>(
      module, "Trace",
      "A workload read once (a trace path, a trace NAME in $ALLOCSIM_TRACE_DIR, or "
      "synthetic:...), to pass as run(trace=...) any number of times.")
      .def(py::init(&read), py::arg("trace"), py::arg("strict") = false,
           py::arg("estimate_factor") = RunConfig{}.estimate_factor,
           py::arg("workload_seed") = RunConfig{}.workload_seed, py::arg("trace_dir") = py::none())
      .def_property_readonly("name", [](const TraceHandle& t) { return t.reading.trace; })
      .def_property_readonly("source", [](const TraceHandle& t) { return t.base.source; })
      .def_property_readonly("strict", [](const TraceHandle& t) { return t.reading.strict; })
      .def_property_readonly("estimate_factor",
                             [](const TraceHandle& t) { return t.reading.estimate_factor; })
      .def_property_readonly("workload_seed",
                             [](const TraceHandle& t) { return t.reading.workload_seed; })
      .def_property_readonly("max_procs",
                             [](const TraceHandle& t) { return t.base.header_max_procs; })
      .def("__len__", [](const TraceHandle& t) { return t.base.jobs.size(); })
      .def("_columns", &columns)
      .def("__repr__", [](const TraceHandle& t) {
        return "<Trace " + t.reading.trace + ": " + std::to_string(t.base.jobs.size()) + " jobs>";
      });
}

}  // namespace allocsim::python
