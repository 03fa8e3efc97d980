// `allocsim report`: group, average and format sweep results.
#include "allocsim/sweep/report/report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "allocsim/output/csv.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/output/table.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/spec.hpp"

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

/// Two-sided 95 % Student t quantile for `df` degrees of freedom (normal beyond 30).
double t_quantile_975(std::int64_t df) {
  static const double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  return df <= 30 ? table[df - 1] : 1.960;
}

}  // namespace

std::vector<std::string> descriptive_columns(const Table& configs) {
  std::vector<std::string> names;
  for (const auto& c : configs.columns())
    if (!bookkeeping_columns().count(c.name)) names.push_back(c.name);
  return names;
}

Table report_table(const ResultTables& tables, const ReportOptions& options) {
  const Table& configs = tables.configs;
  const Table& summary = tables.summary;
  std::vector<std::string> config_names, summary_names;
  for (const auto& c : configs.columns()) config_names.push_back(c.name);
  for (const auto& c : summary.columns()) summary_names.push_back(c.name);

  std::vector<std::string> group_by = options.group_by;
  if (group_by.empty()) {  // the descriptive columns that take more than one value
    for (const auto& name : descriptive_columns(configs)) {
      const auto c = static_cast<std::size_t>(configs.find(name));
      std::set<std::string> values;
      for (std::size_t r = 0; r < configs.rows() && values.size() < 2; ++r)
        values.insert(configs.display(r, c));
      if (values.size() > 1) group_by.push_back(name);
    }
  }
  std::vector<std::size_t> group_columns;
  for (const auto& name : group_by)
    group_columns.push_back(column_of(configs, name, "group-by column", config_names));
  std::vector<std::string> metrics =
      options.metrics.empty() ? default_metrics(summary) : options.metrics;
  for (auto& m : metrics)  // short names used in the papers' tables
    if (m == "mean_bsd" || m == "bsd") m = "mean_bounded_slowdown";
  std::vector<std::size_t> metric_columns;
  for (const auto& name : metrics)
    metric_columns.push_back(column_of(summary, name, "metric", summary_names));

  const std::size_t id_col = column_of(configs, "config_id", "column", config_names);
  const std::size_t status_col = column_of(configs, "status", "column", config_names);
  const std::size_t summary_id = column_of(summary, "config_id", "column", summary_names);
  std::map<std::uint64_t, std::size_t> summary_row;
  for (std::size_t r = 0; r < summary.rows(); ++r) summary_row[summary.u64(r, summary_id)] = r;

  struct Group {
    std::size_t first_row = 0;
    std::int64_t done = 0, failed = 0;
    std::vector<double> sums, squares;
  };
  std::vector<Group> groups;
  std::map<std::vector<std::string>, std::size_t> group_of;
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    std::vector<std::string> key;
    for (auto c : group_columns) key.push_back(configs.display(r, c));
    auto [it, inserted] = group_of.try_emplace(key, groups.size());
    if (inserted)
      groups.push_back({r, 0, 0, std::vector<double>(metrics.size(), 0.0),
                        std::vector<double>(metrics.size(), 0.0)});
    Group& g = groups[it->second];
    const std::string& status = configs.text(r, status_col);
    if (status == "failed" || status == "timed_out") ++g.failed;
    auto s = summary_row.find(configs.u64(r, id_col));
    if (status != "done" || s == summary_row.end()) continue;
    ++g.done;
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const double value = summary.number(s->second, metric_columns[m]);
      g.sums[m] += value;
      g.squares[m] += value * value;
    }
  }
  // With replicates, groups also get the half-width of a 95 % confidence interval of each
  // mean across their configs: t(0.975, n-1) * s / sqrt(n).
  bool with_ci = false;
  if (const int replicate = configs.find("replicate"); replicate >= 0)
    for (std::size_t r = 0; r < configs.rows(); ++r)
      with_ci |= configs.number(r, static_cast<std::size_t>(replicate)) > 0;

  std::vector<ColumnDef> columns;
  for (std::size_t i = 0; i < group_by.size(); ++i)
    columns.push_back({group_by[i], configs.columns()[group_columns[i]].type});
  columns.push_back({"configs", ColumnType::i64});
  columns.push_back({"failed", ColumnType::i64});
  for (const auto& m : metrics) {
    columns.push_back({m, ColumnType::f64});
    if (with_ci) columns.push_back({m + "_ci95", ColumnType::f64});
  }
  Table out(columns);
  for (const auto& g : groups) {
    std::vector<Table::Cell> row;
    for (auto c : group_columns) row.push_back(configs.cell(g.first_row, c));
    row.emplace_back(g.done);
    row.emplace_back(g.failed);
    const auto n = static_cast<double>(g.done);
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const double mean = g.done > 0 ? g.sums[m] / n : std::nan("");
      row.emplace_back(mean);
      if (!with_ci) continue;
      const double variance =
          g.done > 1 ? std::max(0.0, (g.squares[m] - n * mean * mean) / (n - 1)) : std::nan("");
      row.emplace_back(g.done > 1 ? t_quantile_975(g.done - 1) * std::sqrt(variance / n)
                                  : std::nan(""));
    }
    out.add_row(std::move(row));
  }
  return out;
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
    out << "[";
    for (std::size_t r = 0; r < table.rows(); ++r) {
      out << (r ? ",\n " : "\n ") << "{";
      for (std::size_t c = 0; c < columns.size(); ++c) {
        out << (c ? ", " : "") << output::json_string(columns[c].name) << ": ";
        if (columns[c].type == ColumnType::text) {
          out << output::json_string(table.text(r, c));
        } else if (columns[c].type == ColumnType::f64 && !std::isfinite(table.number(r, c))) {
          out << "null";
        } else {
          out << table.display(r, c);
        }
      }
      out << "}";
    }
    out << "\n]\n";
  } else if (format == "table") {
    std::vector<std::string> header;
    std::vector<bool> left;
    for (const auto& column : columns) {
      header.push_back(column.name);
      left.push_back(column.type == ColumnType::text);
    }
    std::vector<std::vector<std::string>> cells(table.rows());
    for (std::size_t r = 0; r < table.rows(); ++r)
      for (std::size_t c = 0; c < columns.size(); ++c)
        cells[r].push_back(columns[c].type == ColumnType::f64
                               ? output::table_number(table.number(r, c))
                               : table.display(r, c));
    out << output::aligned_table(header, cells, left);
  } else {
    throw InputError("unknown report format '" + format + "' (table, csv or json)");
  }
  return out.str();
}

}  // namespace allocsim::sweep
