#pragma once
// JSON text of results and configs, built with nlohmann-json (header only, Debian
// nlohmann-json3-dev), so every `--format json` output is valid JSON.
// Used by `allocsim run --format json` and `allocsim report --format json`.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/config.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim::output {

/// One-line JSON text of a value built with nlohmann-json, with ", " and ": " between items
/// and doubles in shortest round-trip form ("5", not "5.0"); invalid UTF-8 is replaced.
std::string json_text(const nlohmann::ordered_json& value);
/// `"text"` with JSON escapes.
std::string json_string(const std::string& text);
/// A finite number as JSON (NaN/inf become null).
std::string json_number(double value);
/// The summary as a JSON object keyed by summary_columns() names.
std::string summary_json(const RunSummary& summary);
/// The diagnostics as a JSON object {reason: {count, first_lines}, ..., "notes": [...]}.
std::string diagnostics_json(const Diagnostics& diagnostics);
/// Situation/decision rows as a JSON array of objects.
std::string decisions_json(const std::vector<DecisionRow>& rows);
/// The config as a JSON object keyed by config_fields() names, values typed (lists as arrays,
/// booleans as true/false).
std::string config_json(const RunConfig& config);

}  // namespace allocsim::output
