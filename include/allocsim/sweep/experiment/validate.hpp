#pragma once
// Validation before anything runs: every name and parameter against the
// registries, allocator/machine compatibility, trace existence; all problems at once, with the
// config they come from; plus the config count and an estimate of the work.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {

/// Where a config's workload comes from: `synthetic:...` as is, a path relative to the
/// experiment's folder, or a NAME looked up in `trace_dir` ($ALLOCSIM_TRACE_DIR).
/// Throws InputError saying where it looked.
std::string resolve_trace(const std::string& trace, const std::string& base_dir,
                          const std::string& trace_dir);

/// Result of validating an expansion.
struct Validation {
  std::vector<Problem> problems;   ///< empty = the sweep may start
  std::vector<double> costs;       ///< estimated relative cost per config (index order)
  std::vector<std::int64_t> jobs;  ///< estimated jobs simulated per config
  std::int64_t workloads = 0, machines = 0;
  /// Multi-line summary: config count (one job estimate per config checked), excluded and
  /// duplicates (from `expansion`), workloads, estimated work.
  std::string summary(const Expansion& expansion) const;
};

/// Checks every config of `expansion` (registries, machines, traces, compatibility through
/// make_allocator) and estimates each config's cost for longest-first dispatch.
Validation validate(const Experiment& experiment, const Expansion& expansion,
                    const std::string& trace_dir);

/// Validates configs one at a time (what validate() does for a whole expansion), so a dry run
/// checks any number of configs without holding them (with expand_each()).
class ConfigValidator {
 public:
  ConfigValidator(const Experiment& experiment, std::string trace_dir);
  ~ConfigValidator();
  ConfigValidator(const ConfigValidator&) = delete;
  ConfigValidator& operator=(const ConfigValidator&) = delete;
  /// Checks one config and records its job count and cost estimate.
  void check(const ConfigEntry& entry);
  /// The validation of every config checked, after `expansion_problems`.
  Validation finish(const std::vector<Problem>& expansion_problems);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Estimated relative cost of one config with `jobs` jobs: jobs x log(machine size) x weights
/// for backfilling schedulers and shape-searching allocators (only the order matters).
double estimate_cost(const RunConfig& config, std::int64_t jobs, int machine_nodes);

}  // namespace allocsim::sweep
