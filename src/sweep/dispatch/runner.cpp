// Worker-side execution of one config, with the per-worker trace cache.
#include "allocsim/sweep/dispatch/runner.hpp"

#include <chrono>
#include <map>
#include <memory>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/sweep/experiment/validate.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {

LoadFn core_load() {
  // Each synthetic spec is parsed once (a sweep's replicates differ only in the seed).
  auto specs = std::make_shared<std::map<std::string, SyntheticSpec>>();
  return [specs](const RunConfig& config, const std::string& trace_dir) {
    if (is_synthetic_trace(config.trace)) {
      auto found = specs->find(config.trace);
      if (found == specs->end())
        found = specs->emplace(config.trace, SyntheticSpec(config.trace)).first;
      return synthetic_workload(config, found->second);
    }
    RunConfig untransformed = config;
    untransformed.transforms.clear();
    return load_workload(untransformed, trace_dir);
  };
}

SimulateFn core_simulate() {
  // Each machine is parsed and checked once.
  auto machines = std::make_shared<std::map<std::string, Topology>>();
  return [machines](const RunConfig& config, const Workload& base) {
    auto found = machines->find(config.machine);
    if (found == machines->end())
      found = machines->emplace(config.machine, machine_topology(config)).first;
    return simulate(config, base, found->second);
  };
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
  // synthetic workloads the workload seed (transforms are applied later, per config). The
  // options go into the key as their bytes (no number formatting per config).
  const bool synthetic = is_synthetic_trace(config.trace);
  std::string& key = key_;
  key.assign(config.trace);
  auto append = [&](const auto& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  key += '\n';
  append(config.strict);
  append(config.estimate_factor);
  if (synthetic) append(config.workload_seed);
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
  if (synthetic) {
    // A synthetic workload is cheap to generate again and each replicate has its own seed:
    // keep only the latest few (a worker's memory would otherwise grow with every replicate).
    synthetic_keys_.push_back(key);
    if (synthetic_keys_.size() > kSyntheticKept) {
      cache_.erase(synthetic_keys_.front());
      synthetic_keys_.pop_front();
    }
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
