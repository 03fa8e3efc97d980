#pragma once
// Golden whole-simulation outputs (the idea of SimGrid's .tesh files): what one small run
// produced, written as diff-friendly JSON under tests/golden/<family>/<case>.json, read back and
// compared field by field. See tests/golden/README.md.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "allocsim/sim/config.hpp"

namespace allocsim::golden {

/// Everything a golden file stores about one run: the configuration that produced it and every
/// result column (summary, per-job records, decision rows, diagnostics).
struct GoldenOutput {
  std::string family;  ///< registry family, e.g. "allocator"
  std::string name;    ///< case name = file stem, e.g. "mm" or "curve.fit-first"
  std::string config;  ///< RunConfig::canonical(), source-tree paths replaced by ${GOLDEN_DIR}
  std::uint64_t seed = 0;
  std::uint64_t workload_seed = 0;
  std::vector<std::pair<std::string, double>> summary;  ///< summary_columns() order
  std::vector<std::string> job_columns;                 ///< "job_id", then job_columns()
  std::vector<std::vector<double>> jobs;                ///< one row per JobRecord, in order
  std::vector<std::string> decision_columns;            ///< numeric DecisionRow fields
  std::vector<std::pair<std::string, std::vector<double>>> decisions;  ///< spec -> values
  std::map<std::string, std::int64_t> diagnostics;                     ///< reason -> count
  std::vector<std::string> notes;                                      ///< Diagnostics::notes
};

/// Builds the stored form of a run's result. `golden_dir` is replaced by ${GOLDEN_DIR} in the
/// config text so that files do not depend on where the source tree lives.
GoldenOutput capture(const std::string& family, const std::string& name, const RunConfig& config,
                     const RunResult& result, const std::string& golden_dir);

/// The JSON text of a golden file (stable layout: one summary field, one job per line; doubles
/// in their shortest round-trip form).
std::string to_json(const GoldenOutput& output);
/// Parses what to_json wrote. Throws std::runtime_error with a position on malformed input.
GoldenOutput from_json(const std::string& text);

/// Relative tolerance for non-integer columns: |actual - expected| <= kRelativeTolerance *
/// max(|expected|, 1). Integer-valued columns (is_integer_column) must match exactly.
inline constexpr double kRelativeTolerance = 1e-9;

/// Columns whose values are integers by construction (ids, counts of nodes, pieces, ...).
bool is_integer_column(const std::string& column);

/// Field-by-field differences between a stored and a fresh output, one readable line each
/// (entry, field, job id, expected, actual); empty when they agree. At most `limit` lines are
/// listed, followed by a count of the rest.
std::vector<std::string> compare(const GoldenOutput& expected, const GoldenOutput& actual,
                                 std::size_t limit = 25);

}  // namespace allocsim::golden
