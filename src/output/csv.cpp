// CSV writers for per-job records and configs.
#include "allocsim/output/csv.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

#include "allocsim/metrics/records.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::output {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs,
                    const Topology* machine) {
  const bool names = machine && machine->graph() && machine->graph()->names_its_nodes();
  const bool killed =
      std::any_of(jobs.begin(), jobs.end(), [](const JobRecord& job) { return job.killed; });
  out << "job_id";
  for (const auto& column : job_columns()) out << ',' << column.name;
  out << ",allocated_nodes" << (names ? ",allocated_node_names" : "") << (killed ? ",killed" : "")
      << '\n';
  for (const auto& job : jobs) {
    out << job.job_id;
    for (const auto& column : job_columns()) out << ',' << json_number(job.*column.member);
    out << ',' << csv_field(job.allocated_nodes);
    if (names) out << ',' << csv_field(node_names_hostlist(*machine, job.allocated_nodes));
    if (killed) out << ',' << (job.killed ? 1 : 0);
    out << '\n';
  }
}

void write_timeline_csv(std::ostream& out, const std::vector<TimelineRow>& rows) {
  for (std::size_t c = 0; c < timeline_columns().size(); ++c)
    out << (c ? "," : "") << timeline_columns()[c].name;
  out << '\n';
  for (const auto& row : rows)
    out << json_number(row.time) << ',' << row.busy_nodes << ',' << json_number(row.utilization)
        << ',' << row.queued_jobs << ',' << row.running_jobs << '\n';
}

void write_configs_csv(std::ostream& out, const std::vector<RunConfig>& configs) {
  const auto& fields = config_fields();
  for (std::size_t f = 0; f < fields.size(); ++f) out << (f ? "," : "") << fields[f].name;
  out << '\n';
  for (const auto& config : configs) {
    for (std::size_t f = 0; f < fields.size(); ++f)
      out << (f ? "," : "") << csv_field(field_text(config, fields[f]));
    out << '\n';
  }
}

}  // namespace allocsim::output
