#pragma once
// CSV writers (RFC 4180 quoting) for per-job records, timelines and configs.
#include <ostream>
#include <string>
#include <vector>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/config.hpp"
#include "allocsim/sim/timeline.hpp"
#include "allocsim/topo/topology.hpp"

namespace allocsim::output {

/// A CSV field, quoted when it holds a comma, a quote or a newline.
std::string csv_field(const std::string& text);
/// One CSV header + one row per job (job_id, then job_columns(), then allocated_nodes: the
/// job's node ids as an interval set "0-3 8"). When `machine` names its nodes
/// (GraphMachine::names_its_nodes: Slurm topology files), a last column `allocated_node_names`
/// gives the same nodes by name, in id order, as a Slurm hostlist expression ("tux[0-3,8],login1":
/// names sharing a prefix and numeric suffixes of one width folded into brackets); without names
/// the columns are as before.
void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs,
                    const Topology* machine = nullptr);
/// One CSV header (timeline_columns()) + one row per TimelineRow, times exact (shortest
/// round-trip form).
void write_timeline_csv(std::ostream& out, const std::vector<TimelineRow>& rows);
/// One CSV header (config_fields() names) + one row per config (field_text of each field).
void write_configs_csv(std::ostream& out, const std::vector<RunConfig>& configs);

}  // namespace allocsim::output
