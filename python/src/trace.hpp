#pragma once
// allocsim.Trace: a workload read (or generated) once and simulated any number of times.
#include <pybind11/pybind11.h>

#include <string>

#include "allocsim/sim/config.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim::python {

namespace py = pybind11;

/// A workload before the run's transforms, with the reading settings it was read with (a run
/// on it must use the same ones: they change what was read).
struct TraceHandle {
  RunConfig reading;  ///< trace, strict, estimate_factor and workload_seed as read
  Workload base;
};

/// Binds allocsim.Trace.
void bind_trace(py::module_& module);

}  // namespace allocsim::python
