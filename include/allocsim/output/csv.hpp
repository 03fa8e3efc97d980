#pragma once
// CSV writers (RFC 4180 quoting) for per-job records and configs.
#include <ostream>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/config.hpp"

namespace allocsim::output {

/// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& text);
/// One CSV header + one row per job (job_id, then job_columns(), then allocated_nodes: the
/// job's node ids as an interval set "0-3 8").
void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs);
/// One CSV header (config_fields() names) + one row per config (field_text of each field).
void write_configs_csv(std::ostream& out, const std::vector<RunConfig>& configs);

}  // namespace allocsim::output
