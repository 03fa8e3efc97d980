#pragma once
// A 4-node line whose allocator interleaves two 2-node jobs, for the network runtime tests.
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "allocsim/sim/simulation.hpp"

namespace allocsim::testing {

/// Runs `jobs` on mesh:4 (a line 0-1-2-3) with a curve allocator whose order is 0, 2, 1, 3: the
/// first 2-node job gets {0, 2}, the second {1, 3}; both cross links 1->2 and 2->1. Job records
/// are kept.
inline RunResult run_on_interleaved_line(const std::string& runtime_model, std::vector<Job> jobs,
                                         const std::string& pattern = "") {
  // One file per process: ctest runs the tests of a file in parallel processes.
  const std::string order =
      ::testing::TempDir() + "/interleaved-line-" + std::to_string(::getpid()) + ".order";
  std::ofstream(order) << "0\n2\n1\n3\n";
  RunConfig config;
  config.machine = "mesh:4";
  config.alloc = "curve:order=file:path=" + order + ",fit=none";
  config.runtime_model = runtime_model;
  config.pattern = pattern;
  config.keep_jobs = true;
  Workload workload;
  workload.jobs = std::move(jobs);
  Simulation simulation(config, std::move(workload));
  return simulation.run();
}

}  // namespace allocsim::testing
