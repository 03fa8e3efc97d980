#pragma once
// Small writers shared by the commands: JSON text (no JSON library is a dependency) and CSV.
#include <ostream>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim::cli {

/// `"text"` with JSON escapes.
std::string json_string(const std::string& text);
/// A finite number as JSON (NaN/inf become null).
std::string json_number(double value);
/// The summary as a JSON object keyed by summary_columns() names.
std::string summary_json(const RunSummary& summary);
/// The diagnostics as a JSON object {reason: {count, first_lines}, ..., "notes": [...]}.
std::string diagnostics_json(const Diagnostics& diagnostics);
/// One CSV header + one row per job (job_id, then job_columns()).
void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs);

}  // namespace allocsim::cli
