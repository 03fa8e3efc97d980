// Worker-side execution of one config, with the per-worker trace cache.
#include "allocsim/sweep/dispatch/runner.hpp"

#include <chrono>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/sweep/experiment/validate.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {

LoadFn core_load() {
  return [](const RunConfig& config, const std::string& trace_dir) {
    RunConfig untransformed = config;
    untransformed.transforms.clear();
    return load_workload(untransformed, trace_dir);
  };
}

SimulateFn core_simulate() {
  return [](const RunConfig& config, const Workload& base) { return simulate(config, base); };
}

ConfigRunner::ConfigRunner(const std::vector<ConfigEntry>& configs, std::string base_dir,
                           std::string trace_dir, LoadFn load, SimulateFn simulate)
    : configs_(&configs),
      base_dir_(std::move(base_dir)),
      trace_dir_(std::move(trace_dir)),
      load_(std::move(load)),
      simulate_(std::move(simulate)) {}

const ConfigRunner::Cached& ConfigRunner::base_workload(const RunConfig& config) {
  // What load_workload() reads depends on: the source and the reader options, and for
  // synthetic workloads the workload seed (transforms are applied later, per config).
  const bool synthetic = config.trace.rfind("synthetic", 0) == 0;
  std::string key = config.trace;
  for (const std::string& part :
       {std::to_string(config.strict), std::to_string(config.estimate_factor),
        synthetic ? std::to_string(config.workload_seed) : std::string()}) {
    key += '\n';
    key += part;
  }
  auto it = cache_.find(key);
  if (it != cache_.end()) return it->second;
  Cached cached;
  try {
    RunConfig resolved = config;
    resolved.trace = resolve_trace(config.trace, base_dir_, trace_dir_);
    cached.workload = std::make_shared<const Workload>(load_(resolved, trace_dir_));
  } catch (const std::exception& error) {
    cached.error = error.what();
  }
  return cache_.emplace(key, std::move(cached)).first->second;
}

ConfigOutcome synthetic_outcome(std::uint64_t config_id, std::int64_t index, int rank) {
  ConfigOutcome outcome;
  outcome.config_id = config_id;
  outcome.index = index;
  outcome.rank = rank;
  outcome.status = ConfigStatus::done;
  std::uint64_t column = 0;
  for (const auto& c : summary_columns())
    outcome.result.summary.*c.member =
        static_cast<double>(mix_seed(config_id, ++column) % 100000) / 1000.0;
  return outcome;
}

ConfigOutcome ConfigRunner::run(std::int64_t index, int rank) {
  return run(configs_->at(static_cast<std::size_t>(index)), rank);
}

ConfigOutcome ConfigRunner::run(const ConfigEntry& entry, int rank) {
  ConfigOutcome outcome;
  outcome.config_id = entry.id;
  outcome.index = entry.index;
  outcome.rank = rank;
  const auto start = std::chrono::steady_clock::now();
  try {
    const Cached& base = base_workload(entry.config);
    if (!base.error.empty()) throw InputError(base.error);
    outcome.result = simulate_(entry.config, *base.workload);
    outcome.status = ConfigStatus::done;
  } catch (const TimeoutError& error) {
    outcome.status = ConfigStatus::timed_out;
    outcome.error = error.what();
  } catch (const std::exception& error) {
    outcome.status = ConfigStatus::failed;
    outcome.error = error.what();
  } catch (...) {
    outcome.status = ConfigStatus::failed;
    outcome.error = "unknown exception";
  }
  if (outcome.status != ConfigStatus::done) outcome.result = RunResult{};
  outcome.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return outcome;
}

}  // namespace allocsim::sweep
