// Downstream use of the installed library: one simulation of a synthetic workload.
#include <cstdio>

#include "allocsim/sim/simulation.hpp"

int main() {
  allocsim::RunConfig config;
  config.machine = "mesh:4x4";
  config.trace = "synthetic:jobs=20,arrival=exp:10,runtime=exp:100,size=uniform:1,8";
  config.alloc = "flat";
  const allocsim::RunResult result = allocsim::simulate(config, "");
  std::printf("jobs %.0f\n", result.summary.jobs);
  return result.summary.jobs == 20 && result.summary.makespan > 0 ? 0 : 1;
}
