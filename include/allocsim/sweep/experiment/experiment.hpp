#pragma once
// Experiment files (design sketch "What flows through it"): a TOML file with
// [experiment], [base], [sweep] axes, [[include]] and [[exclude]] tables, expanded into
// RunConfigs with stable ids. The format is documented in experiments/README.md.
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sim/config.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {

/// One problem found while reading, expanding or validating an experiment, and where it is
/// ("exp.toml:12:3" or "config #4 [alloc=mc1x1 machine=torus:4x4x4]").
struct Problem {
  std::string where;
  std::string message;
};

/// Thrown when an experiment has problems; what() lists every one of them.
class ExperimentError : public InputError {
 public:
  explicit ExperimentError(std::vector<Problem> problems);
  const std::vector<Problem>& problems() const { return problems_; }

 private:
  std::vector<Problem> problems_;
};

/// One value written in the experiment file: a scalar (string, number or boolean, kept as text)
/// or a list of strings (transforms, decisions).
struct Value {
  enum class Kind { text, number, boolean, list };
  Kind kind = Kind::text;
  std::string text;                ///< scalar text; numbers in shortest round-trip form
  std::vector<std::string> items;  ///< list items
  std::string where;               ///< file:line:column of the value
  bool integer = false;            ///< a TOML integer (or a range of integers): kept an integer
};

/// Keys (config fields or free variables) with their values, in file order.
using Settings = std::vector<std::pair<std::string, Value>>;

/// A [sweep] axis: a list of values, a numeric range, or a group of keys varying together
/// (an array of tables, e.g. each trace with its own machine).
struct Axis {
  std::string name;
  std::vector<Settings> values;     ///< each value sets one key (list/range) or several (group)
  std::vector<std::string> labels;  ///< short text of each value, for config labels
};

/// An [[exclude]] pattern: a config is dropped when every key matches one of its globs.
struct ExcludePattern {
  std::vector<std::pair<std::string, std::vector<std::string>>> globs;
  std::string where;
};

/// What a [variables.NAME] table says about a free variable: its unit and description, shown
/// with its /configs column by report and plot tools.
struct VariableInfo {
  std::string name;
  std::string unit;
  std::string description;
  std::string where;
};

/// A parsed experiment file (not yet expanded).
struct Experiment {
  std::string name;
  std::uint64_t seed = 1;
  int replicates = 1;
  double timeout_seconds = 0;  ///< per-config wall-clock budget, 0 = none
  bool keep_jobs = false;      ///< store /jobs/<id> per-job tables
  bool keep_timeline = false;  ///< store /timeline/<id> tables (the machine's state over time)
  std::string text;            ///< the file's full text (stored in result files)
  std::string source;          ///< file name used in messages
  std::string base_dir;        ///< folder of the file: relative trace paths start here
  Settings base;
  std::vector<Axis> axes;
  std::vector<Settings> includes;
  std::vector<ExcludePattern> excludes;
  std::vector<VariableInfo> variables;  ///< [variables.NAME] tables, in file order
};

/// Parses experiment text. Collects every problem of the file and throws ExperimentError
/// listing them all. `source` names the file in messages; `base_dir` resolves relative traces.
Experiment parse_experiment(const std::string& text, const std::string& source,
                            const std::string& base_dir);
/// Reads and parses an experiment file (base_dir = the file's folder).
Experiment read_experiment(const std::string& path);

/// The values of a numeric range axis {from, to, step}, computed in scaled integers so that
/// decimal steps do not drift (0.2..2.0 step 0.05 gives 37 values ending at exactly "2").
/// Values are returned as their shortest decimal text. Throws InputError on a bad range.
std::vector<std::string> range_values(double from, double to, double step);
/// Shortest text that reads back as `value` ("0.35", "2", "1e-06").
std::string format_number(double value);

/// One configuration of an expanded experiment.
struct ConfigEntry {
  std::int64_t index = 0;  ///< position in the full expansion (stable order of the file)
  int replicate = 0;
  std::uint64_t id = 0;   ///< stable_hash(canonical + replicate); 0 when it has problems
  std::string canonical;  ///< RunConfig::canonical() with seed 0 and no timeout
  RunConfig config;       ///< trace as written; seed = mix_seed(experiment seed, id),
                          ///< workload_seed = workload_seed(experiment seed, replicate)
  std::vector<std::pair<std::string, std::string>> variables;  ///< free variables' values
  std::string label;  ///< "alloc=flat sched=easy load=0.5 rep=1"
  /// Config fields whose value uses {replicate}: name and value as written ({replicate} kept),
  /// what /configs shows so that the replicates of a config group together in reports.
  std::vector<std::pair<std::string, std::string>> as_written;
  std::string problem;  ///< why canonical() failed (validation reports it), else empty
};

/// The full expansion of an experiment.
struct Expansion {
  std::vector<ConfigEntry> configs;
  std::vector<std::string> variable_names;  ///< every free variable, in first-use order
  /// Per variable (same order): its unit and description ([variables.NAME]), and whether every
  /// value is a TOML integer (the /configs column is then an integer column).
  std::vector<VariableInfo> variable_info;
  std::vector<bool> variable_integer;
  std::vector<Problem> problems;  ///< specs that do not resolve, bad placeholders
  std::int64_t excluded = 0;      ///< configs dropped by [[exclude]]
  std::int64_t duplicates = 0;    ///< configs with an id already produced
  /// Hash of the sorted ids of all configs: "same experiment" for merge and resume.
  std::uint64_t fingerprint = 0;
};

/// Expands the cartesian product of the axes (first axis outermost), then the includes, each
/// times the replicates; drops excluded configs and duplicate ids (first one kept). Config ids
/// hash the canonical form, so adding an axis value keeps the other configs' ids.
Expansion expand(const Experiment& experiment);
/// The same, one config at a time: `each` gets every config in order, and `header` everything
/// else (variable names, problems, counts, fingerprint; its configs stay empty). Memory: the
/// ids (for duplicates and the fingerprint), not the configs.
void expand_each(const Experiment& experiment, Expansion& header,
                 const std::function<void(ConfigEntry&&)>& each);

/// Configs an experiment expands to before excludes and duplicates are dropped (product of the
/// axis sizes plus the includes, times the replicates), counted without expanding; saturates
/// at INT64_MAX.
std::int64_t planned_configs(const Experiment& experiment);
/// The most planned configs a sweep runs without `--allow-large`: a 10^9-config
/// experiment is a clear error, not gigabytes of expansion and a bad_alloc.
constexpr std::int64_t kMaxConfigsWithoutOverride = 1000000;
/// Throws ExperimentError naming the count and the axes when planned_configs() exceeds
/// kMaxConfigsWithoutOverride and `allow_large` is false.
void check_experiment_size(const Experiment& experiment, bool allow_large);

/// The placeholder every experiment value may use: {replicate} is replaced by the config's
/// replicate number (0-based) when the experiment is expanded, e.g.
/// `transforms = ["window:jobs=500,index={replicate}"]` gives each replicate its own window.
/// No free variable may take this name.
inline constexpr const char* kReplicatePlaceholder = "replicate";

/// The workload seed shared by every config of replicate `replicate` (synthetic generator and
/// random transforms), so allocators are compared on identical job streams.
std::uint64_t workload_seed(std::uint64_t experiment_seed, int replicate);

/// Parses "K/N" (1 <= K <= N) for --shard. Throws InputError.
std::pair<int, int> parse_shard(const std::string& text);
/// True when config `id` belongs to shard K of N (a hash of the id, so membership does not
/// change when the experiment file gains configs).
bool in_shard(std::uint64_t id, int k, int n);

/// 16 lower-case hex digits of an id (the /jobs/<id> group names).
std::string id_hex(std::uint64_t id);

}  // namespace allocsim::sweep
