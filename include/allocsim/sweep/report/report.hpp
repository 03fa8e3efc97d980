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
  /// Paired comparison: "KEY=VALUE" (e.g. "alloc=sortedfreelist"), empty = none; see
  /// build_paired_report.
  std::string baseline;
  std::string paired = "ratio";  ///< with a baseline: ratio (value / baseline) | difference
};

/// What the spread column next to each metric's mean is.
enum class Spread {
  none,        ///< no replicates in the experiment, or no group has two done configs
  replicates,  ///< `<metric>_ci95`: groups hold replicates of one config (identical settings)
  pooled,      ///< `<metric>_pooled_sd`: groups pool configs with different settings
};

/// A report table and the notes that say what its spread columns mean.
struct Report {
  h5::Table table;
  Spread spread = Spread::none;
  std::vector<std::string> notes;  ///< one line each: what the spread is, identical replicates
};

/// One row per group (in order of first appearance): the group columns, `configs` (done),
/// `failed` (failed or timed out), then the mean of each metric over the done configs and its
/// spread:
/// - when every group holds only replicates of one config (configs equal in every descriptive
///   column, e.g. the default grouping), `<metric>_ci95` is the half-width of the 95 % Student-t
///   confidence interval of the mean (Welford variance, Boost.Math quantile), NaN for one
///   config and exactly 0 when the replicates are identical; a `replicates` column then says
///   `identical` (every metric equal across the group's replicates: a deterministic trace
///   without random transform), `differ` or `single`;
/// - when a group pools configs that differ in other columns (e.g. `--group-by alloc` over
///   several loads), `<metric>_pooled_sd` is the standard deviation across all its configs, and
///   a note names the pooled columns: it is not a confidence interval.
/// Throws InputError naming an unknown column and the closest valid one.
/// With options.baseline set, build_paired_report instead.
Report build_report(const ResultTables& tables, const ReportOptions& options);

/// `report --baseline KEY=VALUE --paired ratio|difference`: each group (grouped as
/// build_report, KEY always among the group columns) is compared with the group that differs
/// from it only in KEY = VALUE, replicate by replicate (same `replicate`, hence same workload
/// seed). Per replicate, a group's configs are first averaged (one config per replicate with the
/// default grouping), then `<metric>_ratio` = value / baseline value, or `<metric>_difference`
/// = value − baseline value; the row gives the mean over the replicates present and
/// `<metric>_<mode>_ci95`, the paired 95 % Student-t half-width of those per-replicate ratios or
/// differences (NaN for one pair, 0 when all are equal). These are the definitions of
/// tools/plot_sweep.py's `--baseline KEY=VALUE --paired ratio|difference` (function paired()),
/// so a report and a figure agree. The baseline's own rows give ratio 1 (difference 0).
/// A ratio whose baseline value is 0 is not finite: that mean and interval are NaN.
/// Throws InputError for a malformed baseline, an unknown KEY (naming the valid columns), a
/// VALUE no done config has (naming those present) and a replicate without its baseline run
/// (naming the group and replicate).
Report build_paired_report(const ResultTables& tables, const ReportOptions& options);

/// build_report's table alone.
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
