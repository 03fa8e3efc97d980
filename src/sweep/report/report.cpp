// `allocsim report`: group, average and format sweep results.
#include "allocsim/sweep/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "allocsim/output/csv.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/output/table.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sweep/report/statistics.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/spec.hpp"
#include "report_columns.hpp"

namespace allocsim::sweep {

using h5::ColumnDef;
using h5::ColumnType;
using h5::Table;

namespace {

/// /configs columns that do not describe a config: bookkeeping, and the config fields that do
/// not change results (FieldRole other than identity: seeds, keep_jobs, timeout).
const std::set<std::string>& bookkeeping_columns() {
  static const std::set<std::string> names = [] {
    std::set<std::string> list = {"config_id",    "index", "replicate", "status",    "error",
                                  "wall_seconds", "rank",  "label",     "canonical", "diagnostics"};
    for (const auto& field : config_fields())
      if (field.role != FieldRole::identity) list.insert(field.name);
    return list;
  }();
  return names;
}

}  // namespace

std::vector<std::string> default_metrics(const Table& summary) {
  std::vector<std::string> metrics;
  for (const char* name :
       {"utilization", "makespan", "mean_wait", "mean_bounded_slowdown", "mean_pairwise_hops"})
    if (summary.find(name) >= 0) metrics.push_back(name);
  return metrics;
}

std::size_t column_of(const Table& table, const std::string& name, const std::string& what,
                      const std::vector<std::string>& valid) {
  const int c = table.find(name);
  if (c >= 0) return static_cast<std::size_t>(c);
  std::ostringstream message;
  message << "unknown " << what << " '" << name << "'";
  const std::string near = closest_match(name, valid);
  if (!near.empty()) message << " (did you mean '" << near << "'?)";
  message << "; valid:";
  for (const auto& v : valid) message << ' ' << v;
  throw InputError(message.str());
}

std::vector<std::string> descriptive_columns(const Table& configs) {
  std::vector<std::string> names;
  for (const auto& c : configs.columns())
    if (!bookkeeping_columns().count(c.name)) names.push_back(c.name);
  return names;
}

std::vector<std::string> unique_names(const std::vector<std::string>& names) {
  std::vector<std::string> unique;
  for (const auto& name : names)
    if (std::find(unique.begin(), unique.end(), name) == unique.end()) unique.push_back(name);
  return unique;
}

std::vector<std::string> varying_columns(const Table& configs) {
  std::vector<std::string> varying;
  for (const auto& name : descriptive_columns(configs)) {
    const auto c = static_cast<std::size_t>(configs.find(name));
    std::set<std::string> values;
    for (std::size_t r = 0; r < configs.rows() && values.size() < 2; ++r)
      values.insert(configs.display(r, c));
    if (values.size() > 1) varying.push_back(name);
  }
  return varying;
}

std::vector<std::string> report_metrics(const Table& summary,
                                        const std::vector<std::string>& requested) {
  std::vector<std::string> metrics = requested.empty() ? default_metrics(summary) : requested;
  for (auto& m : metrics)  // short names used in the papers' tables
    if (m == "mean_bsd" || m == "bsd") m = "mean_bounded_slowdown";
  return unique_names(metrics);
}

namespace {

/// Joins names as "a, b and c".
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

}  // namespace

Report build_report(const ResultTables& tables, const ReportOptions& options) {
  if (!options.baseline.empty()) return build_paired_report(tables, options);
  const Table& configs = tables.configs;
  const Table& summary = tables.summary;
  std::vector<std::string> config_names, summary_names;
  for (const auto& c : configs.columns()) config_names.push_back(c.name);
  for (const auto& c : summary.columns()) summary_names.push_back(c.name);

  const std::vector<std::string> descriptive = descriptive_columns(configs);
  std::vector<std::string> group_by =
      options.group_by.empty() ? varying_columns(configs) : unique_names(options.group_by);
  std::vector<std::size_t> group_columns;
  for (const auto& name : group_by)
    group_columns.push_back(column_of(configs, name, "group-by column", config_names));
  const std::vector<std::string> metrics = report_metrics(summary, options.metrics);
  std::vector<std::size_t> metric_columns;
  for (const auto& name : metrics)
    metric_columns.push_back(column_of(summary, name, "metric", summary_names));

  const std::size_t id_col = column_of(configs, "config_id", "column", config_names);
  const std::size_t status_col = column_of(configs, "status", "column", config_names);
  const std::size_t summary_id = column_of(summary, "config_id", "column", summary_names);
  std::map<std::uint64_t, std::size_t> summary_row;
  for (std::size_t r = 0; r < summary.rows(); ++r) summary_row[summary.u64(r, summary_id)] = r;

  // Descriptive columns outside the grouping: configs of one group that differ in any of them
  // are different settings, not replicates.
  std::vector<std::size_t> other_columns;
  std::vector<std::string> other_names;
  for (const auto& name : descriptive)
    if (std::find(group_by.begin(), group_by.end(), name) == group_by.end()) {
      other_columns.push_back(static_cast<std::size_t>(configs.find(name)));
      other_names.push_back(name);
    }

  struct Group {
    std::size_t first_row = 0;
    std::int64_t done = 0, failed = 0;
    std::vector<RunningStats> stats;
    std::vector<std::string> settings;  ///< other columns' values of its first done config
  };
  std::vector<Group> groups;
  std::map<std::vector<std::string>, std::size_t> group_of;
  std::vector<bool> pooled_by(other_columns.size(), false);
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    std::vector<std::string> key;
    for (auto c : group_columns) key.push_back(configs.display(r, c));
    auto [it, inserted] = group_of.try_emplace(key, groups.size());
    if (inserted) groups.push_back({r, 0, 0, std::vector<RunningStats>(metrics.size()), {}});
    Group& g = groups[it->second];
    const std::string& status = configs.text(r, status_col);
    if (status == "failed" || status == "timed_out") ++g.failed;
    auto s = summary_row.find(configs.u64(r, id_col));
    if (status != "done" || s == summary_row.end()) continue;
    std::vector<std::string> settings;
    for (auto c : other_columns) settings.push_back(configs.display(r, c));
    if (g.done == 0) g.settings = settings;
    for (std::size_t i = 0; i < settings.size(); ++i)
      if (settings[i] != g.settings[i]) pooled_by[i] = true;
    ++g.done;
    for (std::size_t m = 0; m < metrics.size(); ++m)
      g.stats[m].add(summary.number(s->second, metric_columns[m]));
  }
  std::vector<std::string> pooled_names;
  for (std::size_t i = 0; i < other_names.size(); ++i)
    if (pooled_by[i]) pooled_names.push_back(other_names[i]);
  // Spreads only for experiments with replicates (as before: without them a spread would
  // only measure how much the pooled settings differ).
  bool some_group_has_two = false, with_replicates = false;
  for (const auto& g : groups) some_group_has_two |= g.done > 1;
  if (const int replicate = configs.find("replicate"); replicate >= 0)
    for (std::size_t r = 0; r < configs.rows(); ++r)
      with_replicates |= configs.number(r, static_cast<std::size_t>(replicate)) > 0;
  some_group_has_two &= with_replicates;

  Report report;
  report.spread = !some_group_has_two    ? Spread::none
                  : pooled_names.empty() ? Spread::replicates
                                         : Spread::pooled;
  std::vector<ColumnDef> columns;
  for (std::size_t i = 0; i < group_by.size(); ++i)
    columns.push_back(configs.columns()[group_columns[i]]);  // with its unit and description
  columns.push_back({"configs", ColumnType::i64});
  columns.push_back({"failed", ColumnType::i64});
  if (report.spread == Spread::replicates) columns.push_back({"replicates", ColumnType::text});
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    const std::string& unit = summary.columns()[metric_columns[m]].unit;
    columns.push_back({metrics[m], ColumnType::f64, unit});
    if (report.spread == Spread::replicates)
      columns.push_back({metrics[m] + "_ci95", ColumnType::f64, unit});
    if (report.spread == Spread::pooled)
      columns.push_back({metrics[m] + "_pooled_sd", ColumnType::f64, unit});
  }
  Table out(columns);
  std::size_t identical_groups = 0, replicated_groups = 0;
  for (const auto& g : groups) {
    std::vector<Table::Cell> row;
    for (auto c : group_columns) row.push_back(configs.cell(g.first_row, c));
    row.emplace_back(g.done);
    row.emplace_back(g.failed);
    if (report.spread == Spread::replicates) {
      const bool identical = g.done > 1 && std::all_of(g.stats.begin(), g.stats.end(),
                                                       [](const auto& s) { return s.identical(); });
      replicated_groups += g.done > 1;
      identical_groups += identical;
      row.emplace_back(std::string(g.done < 2 ? "single" : identical ? "identical" : "differ"));
    }
    for (const auto& stats : g.stats) {
      row.emplace_back(stats.mean());
      if (report.spread == Spread::replicates) row.emplace_back(t_interval_half_width(stats));
      if (report.spread == Spread::pooled) row.emplace_back(std::sqrt(stats.variance()));
    }
    out.add_row(std::move(row));
  }
  report.table = std::move(out);

  if (report.spread == Spread::replicates) {
    report.notes.push_back(
        "_ci95: half-width of the 95 % Student-t confidence interval of the mean across each "
        "group's replicates (configs identical but for replicate and seeds)");
    if (identical_groups == replicated_groups)
      report.notes.push_back(
          "replicates identical: every replicate gave the same results (a deterministic trace "
          "without random transform), so the intervals are 0; more replicates add nothing");
    else if (identical_groups > 0)
      report.notes.push_back("replicates identical in " + std::to_string(identical_groups) +
                             " of " + std::to_string(replicated_groups) +
                             " groups (column replicates): their intervals are 0");
  } else if (!pooled_names.empty() && report.spread == Spread::none) {
    report.notes.push_back("pooled groups: configs of one group differ in " +
                           name_list(pooled_names) +
                           ", so each mean is taken across those settings");
  } else if (report.spread == Spread::pooled) {
    report.notes.push_back(
        "pooled groups: configs of one group differ in " + name_list(pooled_names) +
        ", so _pooled_sd is the standard deviation across those settings and replicates, not a "
        "confidence interval; add them to --group-by for intervals across replicates");
  }
  return report;
}

Table report_table(const ResultTables& tables, const ReportOptions& options) {
  return build_report(tables, options).table;
}

Table decision_matrix(const std::string& path, const ResultTables& tables,
                      const std::vector<std::string>& row_by) {
  const Table& configs = tables.configs;
  std::vector<std::string> config_names;
  for (const auto& c : configs.columns()) config_names.push_back(c.name);
  std::vector<std::size_t> row_columns;
  for (const auto& name : row_by.empty() ? std::vector<std::string>{"alloc"} : row_by)
    row_columns.push_back(column_of(configs, name, "row column", config_names));
  const std::size_t id_col = column_of(configs, "config_id", "column", config_names);
  const h5::File file(path, h5::File::Mode::read);
  std::vector<std::string> decisions;  // columns, in order of first appearance
  std::vector<std::pair<std::string, std::map<std::string, double>>> rows;
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    const std::string object = "/decisions/" + id_hex(configs.u64(r, id_col));
    if (!file.exists(object)) continue;
    const Table answers = file.read_table(object);
    const auto name_col = static_cast<std::size_t>(answers.find("decision"));
    const auto sum_col = static_cast<std::size_t>(answers.find("mean_pairwise_sum"));
    std::string label;
    for (auto c : row_columns) {
      if (!label.empty()) label += ' ';
      label += configs.display(r, c);
    }
    rows.emplace_back(label, std::map<std::string, double>{});
    for (std::size_t a = 0; a < answers.rows(); ++a) {
      const std::string& decision = answers.text(a, name_col);
      if (std::find(decisions.begin(), decisions.end(), decision) == decisions.end())
        decisions.push_back(decision);
      rows.back().second[decision] = answers.number(a, sum_col);
    }
  }
  if (rows.empty())
    throw InputError("'" + path + "' has no /decisions tables (no config set `decisions`)");
  std::vector<ColumnDef> columns{{"situation \\ decision", ColumnType::text}};
  for (const auto& d : decisions) columns.push_back({d, ColumnType::f64});
  Table out(columns);
  for (const auto& [label, values] : rows) {
    std::vector<Table::Cell> row{label};
    for (const auto& d : decisions) {
      auto found = values.find(d);
      row.emplace_back(found == values.end() ? std::nan("") : found->second);
    }
    out.add_row(std::move(row));
  }
  return out;
}

std::string format_report(const Table& table, const std::string& format) {
  std::ostringstream out;
  const auto& columns = table.columns();
  if (format == "csv") {
    for (std::size_t c = 0; c < columns.size(); ++c)
      out << (c ? "," : "") << output::csv_field(columns[c].name);
    out << "\n";
    for (std::size_t r = 0; r < table.rows(); ++r) {
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const bool nan = columns[c].type == ColumnType::f64 && std::isnan(table.number(r, c));
        out << (c ? "," : "") << (nan ? "" : output::csv_field(table.display(r, c)));
      }
      out << "\n";
    }
  } else if (format == "json") {
    // One object per row, keys in column order; NaN (no value) as null.
    auto rows = nlohmann::ordered_json::array();
    for (std::size_t r = 0; r < table.rows(); ++r) {
      nlohmann::ordered_json row = nlohmann::ordered_json::object();
      for (std::size_t c = 0; c < columns.size(); ++c) {
        switch (columns[c].type) {
          case ColumnType::text:
            row[columns[c].name] = table.text(r, c);
            break;
          case ColumnType::u64:
            row[columns[c].name] = table.u64(r, c);
            break;
          case ColumnType::i64:
            row[columns[c].name] = table.i64(r, c);
            break;
          case ColumnType::f64: {
            const double value = table.number(r, c);
            row[columns[c].name] = std::isfinite(value) ? nlohmann::ordered_json(value)
                                                        : nlohmann::ordered_json(nullptr);
          }
        }
      }
      rows.push_back(std::move(row));
    }
    out << "[";  // one row per line
    for (std::size_t r = 0; r < rows.size(); ++r)
      out << (r ? ",\n " : "\n ") << output::json_text(rows[r]);
    out << "\n]\n";
  } else if (format == "table") {
    std::vector<std::string> header;
    std::vector<bool> left;
    for (const auto& column : columns) {  // units in the header: "makespan (s)"
      header.push_back(column.unit.empty() || column.unit == "1"
                           ? column.name
                           : column.name + " (" + column.unit + ")");
      left.push_back(column.type == ColumnType::text);
    }
    std::vector<std::vector<std::string>> cells(table.rows());
    for (std::size_t c = 0; c < columns.size(); ++c) {  // one precision per column
      std::vector<double> numbers;
      if (columns[c].type == ColumnType::f64)
        for (std::size_t r = 0; r < table.rows(); ++r) numbers.push_back(table.number(r, c));
      const auto texts = output::table_numbers(numbers);
      for (std::size_t r = 0; r < table.rows(); ++r)
        cells[r].push_back(columns[c].type == ColumnType::f64 ? texts[r] : table.display(r, c));
    }
    std::size_t key_columns = 0;  // the group columns (before "configs"), repeated on every block
    while (key_columns < columns.size() && columns[key_columns].name != "configs") ++key_columns;
    if (key_columns == columns.size()) key_columns = 1;
    out << output::wrapped_table(header, cells, left, std::max<std::size_t>(key_columns, 1),
                                 output::console_width);
  } else {
    throw InputError("unknown report format '" + format + "' (table, csv or json)");
  }
  return out.str();
}

}  // namespace allocsim::sweep
