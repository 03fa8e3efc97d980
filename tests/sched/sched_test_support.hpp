#pragma once
// Hand-made jobs and whole runs for the schedulers' tests (schedulers_test.cpp, slurm_test.cpp,
// slurm_shortcuts_test.cpp, slurm_replay_test.cpp): flat machines with the `flat` allocator
// (lowest free ids), per-job records kept.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/sim/simulation.hpp"

namespace allocsim::testing {

/// A job of `procs` processors running `runtime` seconds, with `estimate` (the runtime when
/// negative) as its requested time.
inline Job job(std::int64_t id, double submit, int procs, double runtime, int user = -1,
               double estimate = -1) {
  Job j;
  j.id = id;
  j.submit = submit;
  j.procs = procs;
  j.runtime = runtime;
  j.estimate = estimate < 0 ? runtime : estimate;
  j.user = user;
  return j;
}

/// `jobs` on `machine` with the `flat` allocator under `sched` (or `scheduler`, when given, in
/// its place), per-job records kept, `observer` (when given) watching.
inline RunResult run_flat(std::vector<Job> jobs, const std::string& machine,
                          const std::string& sched, std::unique_ptr<Scheduler> scheduler = nullptr,
                          SimulationObserver* observer = nullptr) {
  RunConfig config;
  config.machine = machine;
  config.sched = sched;
  config.alloc = "flat";
  config.keep_jobs = true;
  Workload workload;
  workload.jobs = std::move(jobs);
  Simulation simulation(config, std::move(workload));
  if (scheduler) simulation.set_scheduler(std::move(scheduler));
  if (observer) simulation.add_observer(observer);
  return simulation.run();
}

/// `jobs` on `machine` under `slurm` with `config`, its shortcuts on or off (the fast path
/// against passes that test every job), per-job records kept.
inline RunResult run_slurm(const std::vector<Job>& jobs, SlurmConfig config, bool shortcuts,
                           const std::string& machine) {
  config.shortcuts = shortcuts;
  return run_flat(jobs, machine, "slurm", make_slurm_scheduler(config));
}

}  // namespace allocsim::testing
