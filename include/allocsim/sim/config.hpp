#pragma once
// One simulation's full configuration and its results.
#include <cstdint>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/timeline_row.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Everything that determines one simulation. Each member has a row in config_fields()
/// (sim/config_fields.hpp), which every reader and writer of configs walks. `canonical()` is its
/// stable text form (names resolved against the registries, defaults filled in), hashed into the
/// config id.
struct RunConfig {
  std::string machine = "mesh:16x16";
  std::string trace;  ///< path, trace NAME, or `synthetic:...`
  std::string sched = "fcfs";
  std::string alloc = "flat";
  std::vector<std::string> transforms;  ///< applied in order
  std::string runtime_model = "fixed";
  std::uint64_t seed = 1;  ///< the run's generator seed (allocator/scheduler draws)
  /// Seeds the synthetic generator and random transforms. A sweep gives every config of one
  /// replicate the same workload seed, so allocators are compared on identical job streams.
  std::uint64_t workload_seed = 1;
  double bsd_threshold = 10;           ///< Δ of bounded slowdown
  double estimate_factor = 2.0;        ///< estimate = factor x runtime when the trace has none
  bool strict = false;                 ///< malformed trace lines are errors
  bool keep_jobs = false;              ///< keep per-job records in the result
  bool keep_timeline = false;          ///< keep the machine's state over time (RunResult::timeline)
  double timeout_seconds = 0;          ///< 0 = none; checked cooperatively
  std::vector<std::string> decisions;  ///< situation/decision experiment (empty = off)
  /// Each job's communication pattern, sized to the job (`mesh2d:auto`, `ring`; see
  /// mapping/job_pattern.hpp); empty = none: no mapping, communication columns stay 0.
  std::string pattern;
  std::string mapper = "identity";  ///< mapper chain placing a job's tasks on its nodes

  /// Canonical text of the identity fields of config_fields() (specs in canonical spelling).
  /// Throws InputError on bad specs.
  std::string canonical() const;
  bool operator==(const RunConfig&) const = default;
};

/// What one simulation produces.
struct RunResult {
  RunSummary summary;
  std::vector<JobRecord> jobs;         ///< when keep_jobs
  std::vector<DecisionRow> decisions;  ///< when decisions were requested
  std::vector<TimelineRow> timeline;   ///< when keep_timeline (sim/timeline.hpp)
  Diagnostics diagnostics;
  /// Wall-clock seconds spent mapping jobs' patterns (not simulated time; not part of the
  /// results: neither stored nor serialized, so results stay deterministic).
  double mapping_seconds = 0;
};

}  // namespace allocsim
