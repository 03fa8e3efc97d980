#pragma once
// Hand-made jobs for whole-simulation tests: the estimate equals the runtime.
#include <cstdint>

#include "allocsim/workload/job.hpp"

namespace allocsim::testing {

/// A job submitted at `submit` asking for `procs` processors for `runtime` seconds.
inline Job make_job(std::int64_t id, double submit, int procs, double runtime) {
  Job job;
  job.id = id;
  job.submit = submit;
  job.procs = procs;
  job.runtime = runtime;
  job.estimate = runtime;
  return job;
}

}  // namespace allocsim::testing
