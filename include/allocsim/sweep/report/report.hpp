#pragma once
// `allocsim report results.h5`: joins /configs and /summary, groups configs
// by config columns (default: those that vary, replicates averaged) and prints the mean of
// chosen metrics as an aligned table, CSV or JSON.
#include <string>
#include <vector>

#include "allocsim/sweep/store/h5.hpp"
#include "allocsim/sweep/store/results.hpp"

namespace allocsim::sweep {

struct ReportOptions {
  std::vector<std::string> group_by;  ///< /configs columns; empty = those that vary
  std::vector<std::string> metrics;   ///< /summary columns; empty = a default set
  std::string format = "table";       ///< table | csv | json
};

/// One row per group (in order of first appearance): the group columns, `configs` (done),
/// `failed` (failed or timed out), then the mean of each metric over the done configs (and,
/// when the experiment has replicates, `<metric>_ci95`: the 95 % confidence half-width).
/// Throws InputError naming an unknown column and the closest valid one.
h5::Table report_table(const ResultTables& tables, const ReportOptions& options);

/// The situation/decision matrix of Bender et al.'s Table 1: one row per config that has a
/// /decisions table (named by the `row_by` columns, default `alloc`: the situation allocator),
/// one column per decision allocator holding its mean sum of pairwise distances.
h5::Table decision_matrix(const std::string& path, const ResultTables& tables,
                          const std::vector<std::string>& row_by);

/// Formats a report table as text.
std::string format_report(const h5::Table& table, const std::string& format);

/// The /configs columns that describe a config (not bookkeeping), in file order.
std::vector<std::string> descriptive_columns(const h5::Table& configs);

}  // namespace allocsim::sweep
