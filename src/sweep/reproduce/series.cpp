// Helpers the sweep studies share: per-group means of a result file and the figure writer
// (a JSON description rendered to PNG and PDF by tools/plot_study.py). See studies.hpp.
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "allocsim/output/file.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/report/statistics.hpp"
#include "allocsim/util/error.hpp"
#include "studies.hpp"

namespace allocsim::sweep::measure {

GroupMeans group_means(const std::string& results, const std::vector<std::string>& group_by,
                       const std::vector<std::string>& metrics) {
  const ResultTables tables = read_result_tables(results);
  ReportOptions options;
  options.group_by = group_by;
  options.metrics = metrics;
  const h5::Table table = report_table(tables, options);
  GroupMeans means;
  for (std::size_t r = 0; r < table.rows(); ++r) {
    std::vector<std::string> key;
    for (const auto& column : group_by)
      key.push_back(table.display(r, static_cast<std::size_t>(table.find(column))));
    for (const auto& metric : metrics) {
      const int column = table.find(metric);
      const int ci = table.find(metric + "_ci95");
      if (column < 0) throw InputError("no metric '" + metric + "' in " + results);
      GroupMeans::Value value;
      value.mean = table.number(r, static_cast<std::size_t>(column));
      value.ci95 = ci >= 0 ? table.number(r, static_cast<std::size_t>(ci)) : 0.0;
      if (!std::isfinite(value.ci95)) value.ci95 = 0;
      means.values[key][metric] = value;
    }
  }
  return means;
}

double key_number(const std::string& results, const std::string& column, const std::string& text) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    throw InputError("'" + results + "' is damaged: its /configs column '" + column +
                     "' has the value '" + text.substr(0, 40) + "' where the study needs a number");
  return value;
}

ReplicateValues replicate_values(const std::string& results,
                                 const std::vector<std::string>& group_by,
                                 const std::vector<std::string>& metrics) {
  const ResultTables tables = read_result_tables(results);
  const h5::Table& configs = tables.configs;
  const h5::Table& summary = tables.summary;
  auto column = [&](const h5::Table& table, const std::string& name) {
    const int c = table.find(name);
    if (c < 0) throw InputError("no column '" + name + "' in " + results);
    return static_cast<std::size_t>(c);
  };
  std::map<std::uint64_t, std::size_t> summary_row;
  const std::size_t summary_id = column(summary, "config_id");
  for (std::size_t r = 0; r < summary.rows(); ++r) summary_row[summary.u64(r, summary_id)] = r;
  const std::size_t id = column(configs, "config_id"), status = column(configs, "status"),
                    replicate = column(configs, "replicate");
  ReplicateValues out;
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    const auto found = summary_row.find(configs.u64(r, id));
    if (configs.text(r, status) != "done" || found == summary_row.end()) continue;
    std::vector<std::string> key;
    for (const auto& name : group_by) key.push_back(configs.display(r, column(configs, name)));
    for (const auto& metric : metrics)
      out.values[key][metric][static_cast<int>(configs.number(r, replicate))] =
          summary.number(found->second, column(summary, metric));
  }
  return out;
}

Interval mean_interval(const std::vector<double>& values) {
  RunningStats stats;
  for (const double v : values) stats.add(v);
  Interval interval;
  interval.count = static_cast<int>(values.size());
  interval.mean = stats.mean();
  interval.half = t_interval_half_width(stats);
  return interval;
}

Interval paired_difference(const std::map<int, double>& a, const std::map<int, double>& b) {
  std::vector<double> differences;
  for (const auto& [replicate, x] : a)
    if (const auto found = b.find(replicate); found != b.end())
      differences.push_back(x - found->second);
  return mean_interval(differences);
}

std::string write_figure(const StudyContext& context, const std::string& name, const Figure& figure,
                         Measurements& m) {
  using output::json_number;
  using output::json_string;
  const std::string spec_path = context.output_dir + "/" + name + ".figure.json";
  {
    output::OutputFile file(spec_path, "figure spec");
    std::ostream& out = file.stream();
    out << "{\"title\": " << json_string(figure.title) << ", \"panels\": [";
    for (std::size_t p = 0; p < figure.panels.size(); ++p) {
      const Panel& panel = figure.panels[p];
      out << (p ? ", " : "") << "{\"title\": " << json_string(panel.title)
          << ", \"xlabel\": " << json_string(panel.xlabel)
          << ", \"ylabel\": " << json_string(panel.ylabel)
          << ", \"logy\": " << (panel.logy ? "true" : "false")
          << ", \"logx\": " << (panel.logx ? "true" : "false");
      if (!panel.xticks.empty()) {  // only then: the other figures' specs stay as they were
        out << ", \"xticks\": [";
        for (std::size_t i = 0; i < panel.xticks.size(); ++i)
          out << (i ? ", " : "") << json_string(panel.xticks[i]);
        out << "]";
      }
      out << ", \"series\": [";
      for (std::size_t s = 0; s < panel.series.size(); ++s) {
        const Series& series = panel.series[s];
        out << (s ? ", " : "") << "{\"label\": " << json_string(series.label);
        if (series.colour >= 0) out << ", \"colour\": " << series.colour;
        if (series.dash >= 0) out << ", \"dash\": " << series.dash;
        out << ", \"points\": [";
        for (std::size_t i = 0; i < series.x.size(); ++i)
          out << (i ? ", " : "") << "[" << json_number(series.x[i]) << ", "
              << json_number(series.y[i]) << ", "
              << json_number(i < series.error.size() ? series.error[i] : 0.0) << "]";
        out << "]}";
      }
      out << "]}";
    }
    out << "]}\n";
    file.finish();
  }
  const std::string stem = context.output_dir + "/" + name;
  const std::string command = "/usr/bin/python3 '" + context.tools_dir + "/plot_study.py' '" +
                              spec_path + "' '" + stem + "' >/dev/null";
  if (std::system(command.c_str()) != 0) {
    m.notes.push_back("figure " + name + " not drawn (tools/plot_study.py failed; needs " +
                      "/usr/bin/python3 with matplotlib)");
    return "";
  }
  m.figures.push_back(name + ".png");
  return name + ".png";
}

}  // namespace allocsim::sweep::measure
