#pragma once
// Runs one config of a sweep on a worker: each trace file is read once and
// cached (transforms are applied per config by simulate()), each synthetic spec parsed once and
// its latest workloads kept, each machine built once; the wall time is measured, and an
// exception marks the config failed (TimeoutError: timed_out) instead of stopping the sweep.
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sim/config.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/store/outcome.hpp"

namespace allocsim::sweep {

/// Reads a config's base workload (transforms not applied).
using LoadFn = std::function<Workload(const RunConfig& config, const std::string& trace_dir)>;
/// Simulates a config on its cached base workload.
using SimulateFn = std::function<RunResult(const RunConfig& config, const Workload& base)>;

/// The core's load_workload (transforms cleared; each synthetic spec parsed once) and
/// simulate(config, base) (each machine built once).
LoadFn core_load();
SimulateFn core_simulate();

/// The outcome a worker returns in `--synthetic-results` mode, at once and without simulating:
/// status done, every summary metric a value in [0, 100) drawn from a hash of the config id (so
/// the same for every rank count and batching), wall time 0.
ConfigOutcome synthetic_outcome(std::uint64_t config_id, std::int64_t index, int rank);

/// Runs configs on one worker, reading each base workload once (the trace cache).
class ConfigRunner {
 public:
  /// `configs` must outlive the runner. `base_dir` resolves relative traces, `trace_dir` NAMEs.
  ConfigRunner(const std::vector<ConfigEntry>& configs, std::string base_dir, std::string trace_dir,
               LoadFn load = core_load(), SimulateFn simulate = core_simulate());

  /// Runs config `index` and reports how it ended; never throws for a config's own failure.
  ConfigOutcome run(std::int64_t index, int rank);
  /// The same for a config given whole (a worker receives its configs one by one).
  ConfigOutcome run(const ConfigEntry& entry, int rank);

 private:
  struct Cached {
    std::shared_ptr<const Workload> workload;
    std::string error;  ///< reading failed: every config of this workload fails the same way
  };
  const Cached& base_workload(const RunConfig& config);

  /// Synthetic base workloads kept (the latest; trace files are kept for the whole run).
  static constexpr std::size_t kSyntheticKept = 8;

  const std::vector<ConfigEntry>* configs_;
  std::string base_dir_, trace_dir_;
  LoadFn load_;
  SimulateFn simulate_;
  std::map<std::string, Cached> cache_;
  std::deque<std::string> synthetic_keys_;  ///< keys of the synthetic entries, oldest first
  std::string key_;                         ///< buffer of base_workload's cache key
};

}  // namespace allocsim::sweep
