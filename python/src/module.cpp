// The allocsim._allocsim extension module (pybind11). The Python package python/allocsim/ wraps
// it: pandas frames, policy base classes, sweeps. Nothing here is part of the core library.
#include <pybind11/pybind11.h>

#include "views.hpp"

PYBIND11_MODULE(_allocsim, module) {
  module.doc() = "allocsim's simulation engine (wrapped by the allocsim package)";
  module.attr("__version__") = ALLOCSIM_VERSION;
  allocsim::python::bind_views(module);
  allocsim::python::bind_inputs(module);
  allocsim::python::bind_run(module);
}
