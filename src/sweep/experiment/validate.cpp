// Validation of an expanded experiment against the registries and the
// checks of the config field table.
#include "allocsim/sweep/experiment/validate.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/workload/reader.hpp"
#include "allocsim/workload/transform.hpp"
#include "fields.hpp"

namespace allocsim::sweep {

namespace fs = std::filesystem;

std::string resolve_trace(const std::string& trace, const std::string& base_dir,
                          const std::string& trace_dir) {
  if (trace.rfind("synthetic", 0) == 0) return trace;
  if (trace.empty()) throw InputError("no trace given (set 'trace' in [base] or an axis)");
  const fs::path path(trace);
  std::error_code ec;
  if (path.is_absolute()) {
    if (fs::is_regular_file(path, ec)) return trace;
    throw InputError("trace file '" + trace + "' does not exist");
  }
  const fs::path beside = fs::path(base_dir) / path;
  if (fs::is_regular_file(beside, ec)) return fs::absolute(beside, ec).lexically_normal().string();
  try {
    return resolve_trace_path(trace, trace_dir);
  } catch (const InputError& error) {
    throw InputError("trace '" + trace + "' is not in the experiment's folder (" + base_dir +
                     ") and not found as a NAME: " + error.what());
  }
}

double estimate_cost(const RunConfig& config, std::int64_t jobs, int machine_nodes) {
  const std::string sched = config.sched.substr(0, config.sched.find(':'));
  const std::string alloc = config.alloc.substr(0, config.alloc.find(':'));
  double weight = 1;
  if (sched == "conservative")
    weight *= 4;
  else if (sched == "easy")
    weight *= 2;
  if (alloc != "flat" && alloc != "random" && alloc != "sortedfreelist") weight *= 3;
  weight *= 1.0 + static_cast<double>(config.decisions.size());
  return static_cast<double>(std::max<std::int64_t>(jobs, 1)) *
         (1.0 + std::log2(1.0 + std::max(machine_nodes, 1))) * weight;
}

namespace {

/// Number of job lines of a trace file (comments and blank lines aside).
std::int64_t count_job_lines(const std::string& path) {
  std::int64_t count = 0;
  for (const auto& line : read_lines(path)) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != ';' && line[first] != '#') ++count;
  }
  return count;
}

/// Jobs of a synthetic spec (its `jobs` parameter, default filled in).
std::int64_t synthetic_jobs(const std::string& trace) {
  const AlgoSpec spec = AlgoSpec::parse(trace);
  if (spec.name != "synthetic")
    throw InputError("unknown workload '" + spec.name +
                     "' (a trace path, a NAME or synthetic:...)");
  const Params params(synthetic_params(), spec.params, "synthetic workload");
  return params.has("jobs") ? params.integer("jobs") : 0;
}

/// Jobs left after the transforms that change the count (truncate, replicate, window); a window
/// past the end of the job lines counted is a problem in `problem` (the count is of job lines,
/// an upper bound of the jobs read, so a window that fits here may still fail at run time).
std::int64_t jobs_after_transforms(std::int64_t jobs, const std::vector<std::string>& transforms,
                                   std::string& problem) {
  for (const auto& spec : transforms) {
    try {
      const auto [entry, params] = transform_registry().resolve(spec);
      if ((entry->name == "window" || entry->name == "random_window") && params.has("jobs")) {
        const std::int64_t size = params.integer("jobs");
        const std::int64_t first =
            entry->name == "window" ? params.integer("skip") + params.integer("index") * size : 0;
        if (jobs > 0 && first + size > jobs && problem.empty())
          problem = "transform '" + spec + "' needs " + std::to_string(first + size) +
                    " jobs but the trace has at most " + std::to_string(jobs) +
                    " job lines (at most " + std::to_string(jobs / size) +
                    " disjoint windows of this size)";
        jobs = std::min(jobs, size);
      } else if (entry->name == "truncate" && params.has("max_jobs"))
        jobs = std::clamp<std::int64_t>(jobs - (params.has("skip") ? params.integer("skip") : 0), 0,
                                        params.integer("max_jobs"));
      else if (entry->name == "replicate" && params.has("copies"))
        jobs *= std::max<long long>(params.integer("copies"), 1);
    } catch (const std::exception&) {
      // reported by the name check
    }
  }
  return jobs;
}

}  // namespace

/// The caches of a validation: each distinct value is checked once; configs sharing it share
/// the verdict.
struct ConfigValidator::State {
  const Experiment* experiment = nullptr;
  std::string trace_dir;
  Validation v;
  ConfigProblems problems;
  std::map<std::pair<const char*, std::string>, std::string> field_checks;  // -> problem
  std::map<std::string, std::optional<Topology>> topologies;
  std::map<std::string, std::pair<std::int64_t, std::string>> workloads;  // jobs, error
  std::map<std::pair<std::string, std::string>, std::optional<std::string>> compat;
  std::set<std::string> machines;

  /// The problem of one value of a field ("" when valid), from its check in config_fields().
  const std::string& field_problem_of(const ConfigField& field, const std::string& item) {
    auto key = std::pair(field.name, item);
    auto it = field_checks.find(key);
    if (it == field_checks.end()) it = field_checks.emplace(key, field.check(item)).first;
    return it->second;
  }
};

ConfigValidator::ConfigValidator(const Experiment& experiment, std::string trace_dir)
    : state_(std::make_unique<State>()) {
  state_->experiment = &experiment;
  state_->trace_dir = std::move(trace_dir);
}

ConfigValidator::~ConfigValidator() = default;

void ConfigValidator::check(const ConfigEntry& entry) {
  State& st = *state_;
  const ConfigField& alloc_field = *find_config_field("alloc");
  const ConfigField& decisions_field = *find_config_field("decisions");
  const RunConfig& c = entry.config;
  bool field_problem = false;
  auto report = [&](const std::string& message) {
    st.problems.add(config_where(entry), message);
    field_problem = true;
  };
  // Field values: machine, names and parameters (each distinct value checked once).
  for (const auto& field : config_fields()) {
    if (field.check == nullptr) continue;
    for (const auto& item : field_items(c, field))
      if (const std::string& problem = st.field_problem_of(field, item); !problem.empty())
        report(problem);
  }
  if (!st.topologies.count(c.machine)) {
    try {
      check_machine_size(c.machine);  // before building gigabytes of machine
      st.topologies.emplace(c.machine, Topology::parse(c.machine));
    } catch (const std::exception&) {
      st.topologies.emplace(c.machine, std::nullopt);  // reported by the machine field's check
    }
  }
  const auto& topology = st.topologies.at(c.machine);
  st.machines.insert(c.machine);
  const bool alloc_error = !st.field_problem_of(alloc_field, c.alloc).empty();
  std::vector<std::string> decision_ok;
  for (const auto& d : c.decisions)
    if (st.field_problem_of(decisions_field, d).empty()) decision_ok.push_back(d);
  // Allocator / machine compatibility (the factory throws InputError when unsupported).
  if (topology) {
    std::vector<std::string> allocs = decision_ok;
    if (!alloc_error) allocs.insert(allocs.begin(), c.alloc);
    for (const auto& alloc : allocs) {
      auto key = std::pair(alloc, c.machine);
      auto it = st.compat.find(key);
      if (it == st.compat.end()) {
        std::optional<std::string> error;
        try {
          make_allocator(alloc, *topology);
        } catch (const std::exception& e) {
          error = "allocator '" + alloc + "' cannot run on '" + c.machine + "': " + e.what();
        }
        it = st.compat.emplace(key, error).first;
      }
      if (it->second) report(*it->second);
    }
  }
  // Workload.
  const std::string workload_key = c.trace.rfind("synthetic", 0) == 0 ? c.trace : "file:" + c.trace;
  auto wit = st.workloads.find(workload_key);
  if (wit == st.workloads.end()) {
    std::pair<std::int64_t, std::string> info{0, ""};
    try {
      const std::string path = resolve_trace(c.trace, st.experiment->base_dir, st.trace_dir);
      info.first = path.rfind("synthetic", 0) == 0 ? synthetic_jobs(path) : count_job_lines(path);
    } catch (const std::exception& error) {
      info.second = error.what();
    }
    wit = st.workloads.emplace(workload_key, info).first;
  }
  if (!wit->second.second.empty()) report(wit->second.second);
  std::string window_problem;
  const std::int64_t jobs = jobs_after_transforms(wit->second.first, c.transforms, window_problem);
  if (!window_problem.empty() && wit->second.second.empty()) report(window_problem);
  st.v.jobs.push_back(jobs);
  st.v.costs.push_back(estimate_cost(c, jobs, topology ? topology->node_count() : 1));
  if (!field_problem && !entry.problem.empty()) st.problems.add(config_where(entry), entry.problem);
}

Validation ConfigValidator::finish(const std::vector<Problem>& expansion_problems) {
  State& st = *state_;
  Validation v = std::move(st.v);
  v.problems = expansion_problems;
  st.problems.append_to(v.problems);
  v.workloads = static_cast<std::int64_t>(st.workloads.size());
  v.machines = static_cast<std::int64_t>(st.machines.size());
  return v;
}

Validation validate(const Experiment& experiment, const Expansion& expansion,
                    const std::string& trace_dir) {
  ConfigValidator validator(experiment, trace_dir);
  for (const ConfigEntry& entry : expansion.configs) validator.check(entry);
  return validator.finish(expansion.problems);
}

namespace {
std::string thousands(std::int64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(static_cast<std::size_t>(i), 1, ',');
  return digits;
}
}  // namespace

std::string Validation::summary(const Expansion& expansion) const {
  std::ostringstream out;
  out << thousands(static_cast<std::int64_t>(jobs.size())) << " configs";
  if (expansion.excluded || expansion.duplicates)
    out << " (" << expansion.excluded << " excluded, " << expansion.duplicates
        << " duplicates dropped)";
  out << "; " << workloads << (workloads == 1 ? " workload, " : " workloads, ") << machines
      << (machines == 1 ? " machine" : " machines") << "\n";
  std::int64_t total_jobs = 0;
  double total_cost = 0, max_cost = 0;
  for (auto j : jobs) total_jobs += j;
  for (auto c : costs) {
    total_cost += c;
    max_cost = std::max(max_cost, c);
  }
  out << "estimated work: " << thousands(total_jobs) << " simulated jobs";
  if (total_cost > 0) {
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", 100 * max_cost / total_cost);
    out << "; the costliest config is " << share << " of the total";
  }
  out << "\n";
  return out.str();
}

}  // namespace allocsim::sweep
