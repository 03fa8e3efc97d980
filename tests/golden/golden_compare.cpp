// Capturing a run's result as a GoldenOutput and comparing two of them field by field:
// integer-valued columns exactly, the others within a tight relative tolerance.
#include <cmath>
#include <set>
#include <sstream>

#include "golden_file.hpp"

namespace allocsim::golden {

namespace {

/// Replaces every occurrence of `from` in `text` by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string full_precision(double value) {
  std::ostringstream out;
  out.precision(17);
  out << value;
  return out.str();
}

bool same_value(const std::string& column, double expected, double actual) {
  if (std::isnan(expected) || std::isnan(actual)) return std::isnan(expected) && std::isnan(actual);
  if (is_integer_column(column) || std::isinf(expected)) return expected == actual;
  return std::fabs(actual - expected) <= kRelativeTolerance * std::max(std::fabs(expected), 1.0);
}

/// Collects difference lines, keeping the first `limit` and counting the rest.
class Differences {
 public:
  Differences(std::string entry, std::size_t limit) : entry_(std::move(entry)), limit_(limit) {}

  void add(const std::string& line) {
    if (lines_.size() < limit_)
      lines_.push_back(entry_ + ": " + line);
    else
      ++omitted_;
  }
  void value(const std::string& where, const std::string& column, double expected, double actual) {
    if (!same_value(column, expected, actual))
      add(where + "field '" + column + "': expected " + full_precision(expected) + ", actual " +
          full_precision(actual) + (is_integer_column(column) ? " (exact)" : ""));
  }
  /// Both lists must name the same columns in the same order.
  bool columns(const std::string& what, const std::vector<std::string>& expected,
               const std::vector<std::string>& actual) {
    if (expected == actual) return true;
    const std::set<std::string> stored(expected.begin(), expected.end());
    const std::set<std::string> fresh(actual.begin(), actual.end());
    std::string missing, added;
    for (const auto& name : expected)
      if (!fresh.count(name)) missing += " " + name;
    for (const auto& name : actual)
      if (!stored.count(name)) added += " " + name;
    add(what + " columns differ (no longer produced:" + (missing.empty() ? " none" : missing) +
        "; new:" + (added.empty() ? " none" : added) + "; or reordered)");
    return false;
  }
  std::vector<std::string> finish() {
    if (omitted_) lines_.push_back(entry_ + ": ... and " + std::to_string(omitted_) + " more");
    return std::move(lines_);
  }

 private:
  std::string entry_;
  std::size_t limit_;
  std::vector<std::string> lines_;
  std::size_t omitted_ = 0;
};

}  // namespace

bool is_integer_column(const std::string& column) {
  static const std::set<std::string> integers{
      // per job
      "job_id", "procs", "nodes", "internal_fragmentation", "pieces", "components", "bbox_volume",
      "bbox_sides", "linear_span", "ring_span",
      // per run and per decision row
      "jobs", "external_fragmentation", "allocator_fallbacks", "refusals"};
  return integers.count(column) > 0;
}

GoldenOutput capture(const std::string& family, const std::string& name, const RunConfig& config,
                     const RunResult& result, const std::string& golden_dir) {
  GoldenOutput output;
  output.family = family;
  output.name = name;
  output.config = replace_all(config.canonical(), golden_dir, "${GOLDEN_DIR}");
  output.seed = config.seed;
  output.workload_seed = config.workload_seed;
  for (const auto& column : summary_columns())
    output.summary.emplace_back(column.name, result.summary.*column.member);
  output.job_columns.push_back("job_id");
  for (const auto& column : job_columns()) output.job_columns.push_back(column.name);
  for (const auto& record : result.jobs) {
    std::vector<double> row{static_cast<double>(record.job_id)};
    for (const auto& column : job_columns()) row.push_back(record.*column.member);
    output.jobs.push_back(std::move(row));
  }
  output.decision_columns = {"mean_pairwise_sum", "mean_avg_pairwise", "jobs", "refusals"};
  for (const auto& row : result.decisions)
    output.decisions.emplace_back(
        row.decision,
        std::vector<double>{row.mean_pairwise_sum, row.mean_avg_pairwise, row.jobs, row.refusals});
  for (const auto& [reason, entry] : result.diagnostics.entries)
    output.diagnostics[reason] = entry.count;
  output.notes = result.diagnostics.notes;
  return output;
}

std::vector<std::string> compare(const GoldenOutput& expected, const GoldenOutput& actual,
                                 std::size_t limit) {
  Differences diff(expected.family + "/" + expected.name, limit);
  if (expected.config != actual.config)
    diff.add("config text changed (config ids change with it):\n  expected " + expected.config +
             "\n  actual   " + actual.config);
  if (expected.seed != actual.seed || expected.workload_seed != actual.workload_seed)
    diff.add("seeds changed");

  std::vector<std::string> expected_names, actual_names;
  for (const auto& field : expected.summary) expected_names.push_back(field.first);
  for (const auto& field : actual.summary) actual_names.push_back(field.first);
  if (diff.columns("summary", expected_names, actual_names))
    for (std::size_t i = 0; i < expected.summary.size(); ++i)
      diff.value("summary ", expected.summary[i].first, expected.summary[i].second,
                 actual.summary[i].second);

  if (expected.diagnostics != actual.diagnostics) {
    std::string line = "diagnostics differ: expected {";
    for (const auto& [reason, count] : expected.diagnostics)
      line += " " + reason + "=" + std::to_string(count);
    line += " }, actual {";
    for (const auto& [reason, count] : actual.diagnostics)
      line += " " + reason + "=" + std::to_string(count);
    diff.add(line + " }");
  }
  if (expected.notes != actual.notes) diff.add("diagnostic notes differ");

  if (diff.columns("decision", expected.decision_columns, actual.decision_columns)) {
    if (expected.decisions.size() != actual.decisions.size())
      diff.add("decision rows: expected " + std::to_string(expected.decisions.size()) +
               ", actual " + std::to_string(actual.decisions.size()));
    for (std::size_t i = 0; i < std::min(expected.decisions.size(), actual.decisions.size()); ++i) {
      const auto& [spec, values] = expected.decisions[i];
      if (spec != actual.decisions[i].first) {
        diff.add("decision row " + std::to_string(i) + ": expected '" + spec + "', actual '" +
                 actual.decisions[i].first + "'");
        continue;
      }
      for (std::size_t c = 0; c < expected.decision_columns.size(); ++c)
        diff.value("decision '" + spec + "' ", expected.decision_columns[c], values.at(c),
                   actual.decisions[i].second.at(c));
    }
  }

  if (diff.columns("job", expected.job_columns, actual.job_columns)) {
    if (expected.jobs.size() != actual.jobs.size())
      diff.add("job records: expected " + std::to_string(expected.jobs.size()) + ", actual " +
               std::to_string(actual.jobs.size()));
    for (std::size_t i = 0; i < std::min(expected.jobs.size(), actual.jobs.size()); ++i) {
      const auto& stored = expected.jobs[i];
      const auto& fresh = actual.jobs[i];
      const std::string where = "record " + std::to_string(i) + " (job " +
                                full_precision(stored.empty() ? -1 : stored[0]) + ") ";
      if (stored.size() != expected.job_columns.size() || fresh.size() != stored.size()) {
        diff.add(where + "has the wrong number of values");
        continue;
      }
      for (std::size_t c = 0; c < stored.size(); ++c)
        diff.value(where, expected.job_columns[c], stored[c], fresh[c]);
    }
  }
  return diff.finish();
}

}  // namespace allocsim::golden
