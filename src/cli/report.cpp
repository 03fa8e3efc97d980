// `allocsim report results.h5 [--group-by alloc,sched] [--metrics ...] [--format ...]
// [--baseline KEY=VALUE [--paired ratio|difference]]`
#include <iostream>
#include <memory>

#include "allocsim/output/table.hpp"
#include "allocsim/sweep/report/report.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {

/// `text` word-wrapped to lines of at most `width` characters, continuation lines indented.
std::string wrapped(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line = indent;
    }
    line += (line.empty() || line == indent ? "" : " ") + word;
    start = end + 1;
  }
  return out + line + '\n';
}

struct ReportArgs {
  std::string path;
  sweep::ReportOptions options;
  bool columns = false;
  bool decisions = false;
  bool paired_given = false;  ///< --paired on the command line
};

void report(const ReportArgs& args) {
  if (args.paired_given && args.options.baseline.empty())
    throw InputError("--paired needs --baseline KEY=VALUE (e.g. --baseline alloc=sortedfreelist)");
  if (args.decisions && !args.options.baseline.empty())
    throw InputError("--baseline does not apply to --decisions");
  sweep::ResultTables tables;
  try {
    tables = sweep::read_result_tables(args.path);
  } catch (const std::runtime_error& error) {
    throw InputError(error.what());
  }
  if (args.columns) {
    std::cout << "group-by columns:";
    for (const auto& c : tables.configs.columns()) std::cout << ' ' << c.name;
    std::cout << "\nmetrics:";
    for (const auto& c : tables.summary.columns())
      if (c.name != "config_id") std::cout << ' ' << c.name;
    std::cout << '\n';
    return;
  }
  if (args.decisions) {
    // The caption goes under a text table's title, or to stderr so that CSV/JSON stay pure.
    const bool table = args.options.format == "table";
    (table ? std::cout : std::cerr)
        << "mean sum of pairwise distances of each decision allocator's answer, over the "
           "placements made by the situation allocator\n"
        << (table ? "\n" : "");
    std::cout << sweep::format_report(
        sweep::decision_matrix(args.path, tables, args.options.group_by), args.options.format);
    return;
  }
  const sweep::Report report = sweep::build_report(tables, args.options);
  if (args.options.format == "table") {
    const auto& i = tables.info;
    std::cout << "experiment '" << i.experiment << "'"
              << (i.shard.empty() ? "" : " shard " + i.shard) << ": " << tables.configs.rows()
              << " configs, " << i.done << " done, " << i.failed << " failed, " << i.timed_out
              << " timed out, " << i.pending << " pending (" << i.status << ")\n\n";
  }
  std::cout << sweep::format_report(report.table, args.options.format);
  // What the spread columns mean: under the table, or on stderr so that CSV/JSON stay pure.
  for (std::size_t n = 0; n < report.notes.size(); ++n) {
    if (args.options.format == "table")
      std::cout << (n == 0 ? "\n" : "")
                << wrapped("note: " + report.notes[n], output::console_width, "      ");
    else
      std::cerr << "note: " << report.notes[n] << '\n';
  }
  if (args.options.format == "table") {
    const int status = tables.configs.find("status"), error = tables.configs.find("error"),
              label = tables.configs.find("label"), index = tables.configs.find("index");
    int shown = 0;
    for (std::size_t r = 0; r < tables.configs.rows(); ++r) {
      const std::string& s = tables.configs.text(r, status);
      if (s != "failed" && s != "timed_out") continue;
      if (shown++ == 0) std::cout << "\nnot done:\n";
      if (shown > 10) continue;
      std::cout << "  config #" << tables.configs.i64(r, index) << " ["
                << tables.configs.text(r, label) << "] " << s << ": "
                << tables.configs.text(r, error) << '\n';
    }
    if (shown > 10) std::cout << "  ... and " << shown - 10 << " more\n";
  }
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* command = app.add_subcommand("report", "summarize a sweep's HDF5 result file");
  command->add_option("results", args->path, "result file written by allocsim sweep or merge")
      ->required()
      ->check(CLI::ExistingFile);
  command
      ->add_option("--group-by", args->options.group_by,
                   "/configs columns to group by (default: the columns that vary)")
      ->delimiter(',');
  command
      ->add_option("--metrics", args->options.metrics,
                   "/summary columns to average (default: utilization, makespan, mean_wait, "
                   "mean_bounded_slowdown, mean_pairwise_hops)")
      ->delimiter(',');
  command->add_option("--format", args->options.format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  command->add_option("--baseline", args->options.baseline,
                      "paired comparison against this config column value, e.g. "
                      "alloc=sortedfreelist: per replicate, each group's metric against the "
                      "group differing only in that column (same replicate), with paired 95 % "
                      "Student-t intervals (the definitions of tools/plot_sweep.py --baseline)");
  command
      ->add_option("--paired", args->options.paired,
                   "with --baseline: ratio (value / baseline) or difference (value - baseline)")
      ->check(CLI::IsMember({"ratio", "difference"}))
      ->capture_default_str();
  command->add_flag("--columns", args->columns, "list the columns usable above");
  command->add_flag("--decisions", args->decisions,
                    "situation/decision matrix (rows: --group-by columns, default alloc)");
  command->callback([args, command] {
    args->paired_given = command->count("--paired") > 0;
    report(*args);
  });
}

}  // namespace allocsim::cli
