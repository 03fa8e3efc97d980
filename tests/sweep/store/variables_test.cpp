// The experiment's own variables in result files (issue 29, item 6): integer variables stay
// integer columns, [variables.NAME] gives a column its unit and description, a field set with
// {replicate} shows its value as written; and the root's provenance counts stay integers.
#include <gtest/gtest.h>

#include <unistd.h>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/store/h5.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

constexpr const char* kExperiment = R"(
[experiment]
seed = 4
replicates = 2
[base]
trace = "synthetic:jobs={n}"
machine = "mesh:4x4"
runtime_model = "flow:comm={comm}"
transforms = ["window:jobs=5,index={replicate}"]
[sweep]
n = [20, 40]
comm = [0.25, 0.5]
[variables.comm]
unit = "fraction"
description = "share of the runtime spent communicating"
)";

TEST(ExperimentVariables, TypesUnitsDescriptionsAndProvenanceTypes) {
  const TempDir temp_path("allocsim_variables_test");
  const Expansion x = expand(parse_experiment(kExperiment, "v.toml", "/data"));
  ASSERT_TRUE(x.problems.empty());
  ASSERT_EQ(x.configs.size(), 8u);
  const std::string path = temp_path("variables.h5");
  {
    FileInfo info;
    info.experiment = "variables";
    info.seed = 4;
    info.fingerprint = x.fingerprint;
    info.total_configs = 8;
    info.file_configs = 8;
    info.ranks = 2;
    info.done = 5;
    info.failed = 1;
    info.pending = 2;
    ResultWriter writer(path, info, x, {0, 1, 2, 3, 4, 5, 6, 7});
    for (const auto& entry : x.configs) {  // utilization 0.1 (replicate 0) or 0.3 (replicate 1)
      ConfigOutcome outcome;
      outcome.config_id = entry.id;
      outcome.index = entry.index;
      outcome.status = ConfigStatus::done;
      outcome.result.summary.utilization = entry.replicate == 0 ? 0.1 : 0.3;
      writer.add(entry, outcome);
    }
    writer.close();
  }
  const ResultTables t = read_result_tables(path);
  const int n = t.configs.find("n"), comm = t.configs.find("comm");
  const int transforms = t.configs.find("transforms"), canonical = t.configs.find("canonical");
  ASSERT_GE(n, 0);
  ASSERT_GE(comm, 0);
  const auto& n_column = t.configs.columns()[static_cast<std::size_t>(n)];
  const auto& comm_column = t.configs.columns()[static_cast<std::size_t>(comm)];
  EXPECT_EQ(n_column.type, h5::ColumnType::i64);  // TOML integers stay integers
  EXPECT_EQ(comm_column.type, h5::ColumnType::f64);
  EXPECT_EQ(comm_column.unit, "fraction");
  EXPECT_EQ(comm_column.description, "share of the runtime spent communicating");
  EXPECT_EQ(n_column.description, "value of the experiment's free variable 'n'");
  EXPECT_EQ(t.configs.i64(0, static_cast<std::size_t>(n)), 20);
  EXPECT_EQ(t.configs.i64(7, static_cast<std::size_t>(n)), 40);
  EXPECT_EQ(t.configs.number(1, static_cast<std::size_t>(comm)), 0.25);
  // Both replicates show the transform as written; the canonical text has each one's window.
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(t.configs.text(r, static_cast<std::size_t>(transforms)),
              "window:jobs=5,index={replicate}");
    EXPECT_NE(t.configs.text(r, static_cast<std::size_t>(canonical))
                  .find("window:index=" + std::to_string(r) + ",jobs=5"),
              std::string::npos);
  }
  // The report groups the replicates of each (n, comm) although their windows differ: four
  // groups of two, with the interval of {0.1, 0.3}: mean 0.2, half-width t(0.975, 1) * sd /
  // sqrt(2) = 12.7062 * 0.141421 / 1.41421 = 1.27062; comm's header carries its unit.
  ReportOptions options;  // (a table of utilization, grouped by what varies)
  options.metrics = {"utilization"};
  const Report report = build_report(t, options);
  EXPECT_EQ(report.spread, Spread::replicates);
  ASSERT_EQ(report.table.rows(), 4u);
  const int configs = report.table.find("configs"), ci = report.table.find("utilization_ci95");
  for (std::size_t g = 0; g < 4; ++g) {
    EXPECT_EQ(report.table.i64(g, static_cast<std::size_t>(configs)), 2);
    EXPECT_NEAR(report.table.number(g, static_cast<std::size_t>(report.table.find("utilization"))),
                0.2, 1e-12);
    EXPECT_NEAR(report.table.number(g, static_cast<std::size_t>(ci)), 1.27062, 1e-4);
  }
  EXPECT_EQ(report.table.columns()[static_cast<std::size_t>(report.table.find("comm"))].unit,
            "fraction");
  // Provenance: counts are integers, the seed and fingerprint unsigned, times doubles.
  const h5::File file(path, h5::File::Mode::read);
  for (const char* name :
       {"total_configs", "file_configs", "ranks", "done", "failed", "timed_out", "pending"})
    EXPECT_TRUE(std::holds_alternative<std::int64_t>(*file.attr(name))) << name;
  EXPECT_EQ(std::get<std::int64_t>(*file.attr("done")), 5);
  EXPECT_EQ(std::get<std::int64_t>(*file.attr("ranks")), 2);
  EXPECT_TRUE(std::holds_alternative<std::uint64_t>(*file.attr("seed")));
  EXPECT_TRUE(std::holds_alternative<std::uint64_t>(*file.attr("fingerprint")));
  EXPECT_TRUE(std::holds_alternative<double>(*file.attr("dispatch_seconds")));
}

TEST(ExperimentVariables, UnknownVariableTableIsAProblem) {
  try {
    parse_experiment("[base]\ntrace = \"x\"\n[variables.comm]\nunit = \"fraction\"\nwhat = 1\n",
                     "u.toml", "/data");
    FAIL() << "expected ExperimentError";
  } catch (const ExperimentError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("[variables.comm]: 'comm' is not a variable"), std::string::npos) << text;
    EXPECT_NE(text.find("unknown key 'what' in [variables.comm]"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace allocsim::sweep
