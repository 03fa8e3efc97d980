// `allocsim report --baseline KEY=VALUE --paired ratio|difference`: paired comparisons against
// a baseline, replicate by replicate; see build_paired_report in sweep/report/report.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/report/statistics.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/spec.hpp"
#include "report_columns.hpp"

namespace allocsim::sweep {

using h5::ColumnDef;
using h5::ColumnType;
using h5::Table;

namespace {

/// One group of the paired report: its configs' metric values summed per replicate.
struct PairGroup {
  std::size_t first_row = 0;
  std::vector<std::string> key;  ///< the group columns' display values
  std::int64_t done = 0, failed = 0;
  /// replicate -> per metric (sum, count) over the group's done configs of that replicate
  std::map<std::int64_t, std::vector<std::pair<double, std::int64_t>>> replicates;
  std::vector<std::string> settings;  ///< other descriptive columns of its first done config
};

/// "alloc=mbs, load=0.5".
std::string describe(const std::vector<std::string>& names, const std::vector<std::string>& key) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i] + "=" + key[i];
  return out;
}

}  // namespace

Report build_paired_report(const ResultTables& tables, const ReportOptions& options) {
  const Table& configs = tables.configs;
  const Table& summary = tables.summary;
  const std::string& mode = options.paired;
  if (mode != "ratio" && mode != "difference")
    throw InputError("--paired " + mode + ": expected ratio or difference");
  const std::size_t equals = options.baseline.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == options.baseline.size())
    throw InputError("--baseline " + options.baseline +
                     ": expected KEY=VALUE, e.g. --baseline alloc=sortedfreelist");
  const std::string key = options.baseline.substr(0, equals);
  const std::string value = options.baseline.substr(equals + 1);

  std::vector<std::string> config_names, summary_names;
  for (const auto& c : configs.columns()) config_names.push_back(c.name);
  for (const auto& c : summary.columns()) summary_names.push_back(c.name);
  const std::vector<std::string> descriptive = descriptive_columns(configs);
  if (std::find(descriptive.begin(), descriptive.end(), key) == descriptive.end()) {
    std::string message = "--baseline " + options.baseline + ": unknown column '" + key + "'";
    const std::string near = closest_match(key, descriptive);
    if (!near.empty()) message += " (did you mean '" + near + "'?)";
    message += "; valid:";
    for (const auto& name : descriptive) message += " " + name;
    throw InputError(message);
  }
  const auto key_col = static_cast<std::size_t>(configs.find(key));
  const int replicate_found = configs.find("replicate");
  if (replicate_found < 0)
    throw InputError("--baseline needs the /configs replicate column (a sweep result file)");
  const auto replicate_col = static_cast<std::size_t>(replicate_found);

  // The group columns: as build_report, with KEY always one of them.
  std::vector<std::string> group_by =
      options.group_by.empty() ? varying_columns(configs) : unique_names(options.group_by);
  if (std::find(group_by.begin(), group_by.end(), key) == group_by.end()) group_by.push_back(key);
  std::vector<std::size_t> group_columns;
  for (const auto& name : group_by)
    group_columns.push_back(column_of(configs, name, "group-by column", config_names));
  const auto key_index =
      static_cast<std::size_t>(std::find(group_by.begin(), group_by.end(), key) - group_by.begin());
  const std::vector<std::string> metrics = report_metrics(summary, options.metrics);
  std::vector<std::size_t> metric_columns;
  for (const auto& name : metrics)
    metric_columns.push_back(column_of(summary, name, "metric", summary_names));

  const std::size_t id_col = column_of(configs, "config_id", "column", config_names);
  const std::size_t status_col = column_of(configs, "status", "column", config_names);
  const std::size_t summary_id = column_of(summary, "config_id", "column", summary_names);
  std::map<std::uint64_t, std::size_t> summary_row;
  for (std::size_t r = 0; r < summary.rows(); ++r) summary_row[summary.u64(r, summary_id)] = r;
  std::vector<std::size_t> other_columns;
  std::vector<std::string> other_names;
  for (const auto& name : descriptive)
    if (std::find(group_by.begin(), group_by.end(), name) == group_by.end()) {
      other_columns.push_back(static_cast<std::size_t>(configs.find(name)));
      other_names.push_back(name);
    }

  std::vector<PairGroup> groups;
  std::map<std::vector<std::string>, std::size_t> group_of;
  std::vector<bool> pooled_by(other_columns.size(), false);
  std::set<std::string> key_values;
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    std::vector<std::string> group_key;
    for (auto c : group_columns) group_key.push_back(configs.display(r, c));
    auto [it, inserted] = group_of.try_emplace(group_key, groups.size());
    if (inserted) groups.push_back({r, group_key, 0, 0, {}, {}});
    PairGroup& g = groups[it->second];
    const std::string& status = configs.text(r, status_col);
    if (status == "failed" || status == "timed_out") ++g.failed;
    auto s = summary_row.find(configs.u64(r, id_col));
    if (status != "done" || s == summary_row.end()) continue;
    key_values.insert(configs.display(r, key_col));
    std::vector<std::string> settings;
    for (auto c : other_columns) settings.push_back(configs.display(r, c));
    if (g.done == 0) g.settings = settings;
    for (std::size_t i = 0; i < settings.size(); ++i)
      if (settings[i] != g.settings[i]) pooled_by[i] = true;
    ++g.done;
    const auto replicate = static_cast<std::int64_t>(configs.number(r, replicate_col));
    auto& sums = g.replicates[replicate];
    sums.resize(metrics.size());
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      sums[m].first += summary.number(s->second, metric_columns[m]);
      ++sums[m].second;
    }
  }
  if (!key_values.count(value)) {
    std::string present;
    for (const auto& v : key_values) present += (present.empty() ? "" : ", ") + v;
    throw InputError("--baseline " + key + "=" + value + ": no done config has " + key + " = " +
                     value + " (values: " + (present.empty() ? "none" : present) + ")");
  }

  std::vector<ColumnDef> columns;
  for (std::size_t i = 0; i < group_by.size(); ++i)
    columns.push_back({group_by[i], configs.columns()[group_columns[i]].type});
  columns.push_back({"configs", ColumnType::i64});
  columns.push_back({"failed", ColumnType::i64});
  columns.push_back({"pairs", ColumnType::i64});
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const std::string unit = mode == "ratio" ? "1" : summary.columns()[metric_columns[m]].unit;
    columns.push_back({metrics[m] + "_" + mode, ColumnType::f64, unit});
    columns.push_back({metrics[m] + "_" + mode + "_ci95", ColumnType::f64, unit});
  }
  Table out(columns);
  bool not_finite = false;
  const auto mean_of = [](const std::pair<double, std::int64_t>& sum) {
    return sum.first / static_cast<double>(sum.second);
  };
  for (const PairGroup& g : groups) {
    if (g.done == 0) continue;  // nothing to pair (its failures are in the baseline's row count)
    std::vector<std::string> base_key = g.key;
    base_key[key_index] = value;
    const auto base = group_of.find(base_key);
    std::vector<RunningStats> stats(metrics.size());
    std::vector<bool> finite(metrics.size(), true);
    for (const auto& [replicate, sums] : g.replicates) {
      const auto* base_sums = [&]() -> const std::vector<std::pair<double, std::int64_t>>* {
        if (base == group_of.end()) return nullptr;
        const auto& reps = groups[base->second].replicates;
        const auto found = reps.find(replicate);
        return found == reps.end() ? nullptr : &found->second;
      }();
      if (!base_sums)
        throw InputError("--baseline " + key + "=" + value + ": replicate " +
                         std::to_string(replicate) + " of " + describe(group_by, g.key) +
                         " has no baseline run to pair with (no done config with " +
                         describe(group_by, base_key) + ", replicate " + std::to_string(replicate) +
                         ")");
      for (std::size_t m = 0; m < metrics.size(); ++m) {
        const double x = mean_of(sums[m]), b = mean_of((*base_sums)[m]);
        const double paired = mode == "ratio" ? x / b : x - b;
        if (!std::isfinite(paired)) finite[m] = false;
        stats[m].add(paired);
      }
    }
    std::vector<Table::Cell> row;
    for (auto c : group_columns) row.push_back(configs.cell(g.first_row, c));
    row.emplace_back(g.done);
    row.emplace_back(g.failed);
    row.emplace_back(static_cast<std::int64_t>(g.replicates.size()));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      not_finite |= !finite[m];
      row.emplace_back(finite[m] ? stats[m].mean() : nan);
      row.emplace_back(finite[m] ? t_interval_half_width(stats[m]) : nan);
    }
    out.add_row(std::move(row));
  }

  Report report;
  report.table = std::move(out);
  report.spread = Spread::replicates;
  const std::string formula = mode == "ratio" ? "value / baseline value" : "value - baseline value";
  report.notes.push_back(
      "paired " + mode + "s against " + key + "=" + value + ": per replicate, " + formula +
      " of the run with the same replicate and the other group columns equal; each column is "
      "the mean over the pairs, _ci95 the half-width of the paired 95 % Student-t interval of "
      "the per-replicate " +
      mode + "s (NaN for one pair), as tools/plot_sweep.py --baseline " + key + "=" + value +
      " --paired " + mode + " draws them");
  std::vector<std::string> pooled_names;
  for (std::size_t i = 0; i < other_names.size(); ++i)
    if (pooled_by[i]) pooled_names.push_back(other_names[i]);
  if (!pooled_names.empty()) {
    std::string names;
    for (const auto& n : pooled_names) names += (names.empty() ? "" : ", ") + n;
    report.notes.push_back("pooled groups: configs of one group differ in " + names +
                           "; per replicate they are averaged before pairing (add them to "
                           "--group-by to compare them one by one)");
  }
  if (not_finite)
    report.notes.push_back("a baseline value of 0 gives no finite ratio: those cells are empty");
  return report;
}

}  // namespace allocsim::sweep
