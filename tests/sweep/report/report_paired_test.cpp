// `allocsim report --baseline KEY=VALUE --paired ratio|difference`: per-replicate ratios or
// differences against the baseline group, their mean and paired Student-t interval, worked by
// hand on hand-made result tables (what read_result_tables returns for a sweep file).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allocsim/sweep/report/report.hpp"
#include "allocsim/util/error.hpp"

using namespace allocsim::sweep;
using h5::ColumnType;

namespace {

/// One config: (alloc, load, replicate) with its metric value.
struct Done {  // one config
  std::string alloc;
  double load;
  std::int64_t replicate;
  double value;
  std::string status = "done";
};

ResultTables tables_of(const std::vector<Done>& runs) {
  ResultTables tables;
  tables.configs = h5::Table({{"config_id", ColumnType::u64},
                              {"replicate", ColumnType::i64},
                              {"status", ColumnType::text},
                              {"alloc", ColumnType::text},
                              {"load", ColumnType::f64}});
  tables.summary = h5::Table({{"config_id", ColumnType::u64}, {"mean_wait", ColumnType::f64, "s"}});
  std::uint64_t id = 0;
  for (const auto& run : runs) {
    tables.configs.add_row({id, run.replicate, run.status, run.alloc, run.load});
    if (run.status == "done") tables.summary.add_row({id, run.value});
    ++id;
  }
  return tables;
}

ReportOptions paired(const std::string& mode, std::vector<std::string> group_by = {}) {
  ReportOptions options;
  options.metrics = {"mean_wait"};
  options.baseline = "alloc=sfl";
  options.paired = mode;
  options.group_by = std::move(group_by);
  return options;
}

std::size_t column(const h5::Table& table, const std::string& name) {
  const int c = table.find(name);
  EXPECT_GE(c, 0) << name;
  return static_cast<std::size_t>(c);
}

/// The row of `table` whose alloc and load are these.
std::size_t row_of(const h5::Table& table, const std::string& alloc, double load) {
  for (std::size_t r = 0; r < table.rows(); ++r)
    if (table.text(r, column(table, "alloc")) == alloc &&
        table.number(r, column(table, "load")) == load)
      return r;
  ADD_FAILURE() << "no row " << alloc << " " << load;
  return 0;
}

std::string error_of(const ResultTables& tables, const ReportOptions& options) {
  try {
    build_report(tables, options);
  } catch (const allocsim::InputError& error) {
    return error.what();
  }
  return "no error";
}

// Two loads x two allocators x replicates 0..2 (the first load) or 0..1 (the second).
const std::vector<Done> kRuns = {
    // load 0.5: sfl 2, 4, 10 and hil 3, 5, 12 -> ratios 1.5, 1.25, 1.2; differences 1, 1, 2.
    {"sfl", 0.5, 0, 2},
    {"sfl", 0.5, 1, 4},
    {"sfl", 0.5, 2, 10},
    {"hil", 0.5, 0, 3},
    {"hil", 0.5, 1, 5},
    {"hil", 0.5, 2, 12},
    // load 0.9: sfl 10, 20 and hil 15, 30 -> ratios 1.5, 1.5; differences 5, 10.
    {"sfl", 0.9, 0, 10},
    {"sfl", 0.9, 1, 20},
    {"hil", 0.9, 0, 15},
    {"hil", 0.9, 1, 30},
};

}  // namespace

TEST(ReportPaired, RatiosPerReplicateWithPairedStudentTInterval) {
  const Report report = build_report(tables_of(kRuns), paired("ratio"));
  const h5::Table& t = report.table;
  ASSERT_EQ(t.rows(), 4u);
  const auto ratio = column(t, "mean_wait_ratio"), ci = column(t, "mean_wait_ratio_ci95");
  EXPECT_EQ(t.columns()[ratio].unit, "1");
  // hil at load 0.5: ratios 1.5, 1.25, 1.2; mean 3.95 / 3 = 1.31666... (not the ratio of the
  // means, 20 / 16 = 1.25). Deviations 0.18333, -0.06667, -0.11667; squares sum 0.0516667,
  // s^2 = 0.0258333 (= 31/1200); half-width t(0.975, 2) * sqrt(s^2 / 3) = 4.30265272975 *
  // 0.0927961 = 0.399269.
  const std::size_t hil = row_of(t, "hil", 0.5);
  EXPECT_NEAR(t.number(hil, ratio), 3.95 / 3, 1e-12);
  EXPECT_NEAR(t.number(hil, ci), 4.30265272975 * std::sqrt(31.0 / 1200 / 3), 1e-9);
  EXPECT_NEAR(t.number(hil, ci), 0.399269, 1e-6);
  EXPECT_EQ(t.i64(hil, column(t, "pairs")), 3);
  // hil at load 0.9: ratios 1.5, 1.5 -> mean 1.5, half-width exactly 0.
  const std::size_t hil9 = row_of(t, "hil", 0.9);
  EXPECT_DOUBLE_EQ(t.number(hil9, ratio), 1.5);
  EXPECT_EQ(t.number(hil9, ci), 0.0);
  // The baseline against itself: ratio 1, half-width 0.
  const std::size_t sfl = row_of(t, "sfl", 0.5);
  EXPECT_EQ(t.number(sfl, ratio), 1.0);
  EXPECT_EQ(t.number(sfl, ci), 0.0);
  ASSERT_FALSE(report.notes.empty());
  EXPECT_NE(report.notes[0].find("tools/plot_sweep.py --baseline alloc=sfl --paired ratio"),
            std::string::npos);
}

TEST(ReportPaired, DifferencesKeepTheMetricsUnit) {
  const Report report = build_report(tables_of(kRuns), paired("difference"));
  const h5::Table& t = report.table;
  const auto diff = column(t, "mean_wait_difference"), ci = column(t, "mean_wait_difference_ci95");
  EXPECT_EQ(t.columns()[diff].unit, "s");
  // hil at load 0.9: differences 5, 10 -> mean 7.5, s = sqrt(2 * 2.5^2 / 1) = 3.5355339;
  // half-width t(0.975, 1) * s / sqrt(2) = 12.7062047362 * 2.5 = 31.7655118405.
  const std::size_t hil9 = row_of(t, "hil", 0.9);
  EXPECT_DOUBLE_EQ(t.number(hil9, diff), 7.5);
  EXPECT_NEAR(t.number(hil9, ci), 12.7062047362 * 2.5, 1e-8);
  // hil at load 0.5: differences 1, 1, 2 -> mean 4/3, s^2 = (1/9 + 1/9 + 4/9) / 2 = 1/3;
  // half-width 4.30265272975 * sqrt(1/9) = 1.43421757658.
  const std::size_t hil = row_of(t, "hil", 0.5);
  EXPECT_NEAR(t.number(hil, diff), 4.0 / 3, 1e-12);
  EXPECT_NEAR(t.number(hil, ci), 4.30265272975 / 3, 1e-9);
  EXPECT_EQ(t.number(row_of(t, "sfl", 0.9), diff), 0.0);
}

TEST(ReportPaired, PooledSettingsAreAveragedPerReplicateBeforePairing) {
  // --group-by alloc pools both loads: per replicate, hil's mean over loads against sfl's,
  // as tools/plot_sweep.py averages hidden columns per replicate before pairing.
  // Replicate 0: hil (3 + 15) / 2 = 9, sfl (2 + 10) / 2 = 6 -> 1.5; replicate 1: hil
  // (5 + 30) / 2 = 17.5, sfl (4 + 20) / 2 = 12 -> 1.458333; replicate 2: 12 / 10 = 1.2.
  const Report report = build_report(tables_of(kRuns), paired("ratio", {"alloc"}));
  const h5::Table& t = report.table;
  ASSERT_EQ(t.rows(), 2u);
  EXPECT_EQ(t.text(1, column(t, "alloc")), "hil");
  EXPECT_NEAR(t.number(1, column(t, "mean_wait_ratio")), (1.5 + 17.5 / 12 + 1.2) / 3, 1e-12);
  bool pooled_note = false;
  for (const auto& note : report.notes)
    pooled_note |= note.find("differ in load") != std::string::npos;
  EXPECT_TRUE(pooled_note);
}

TEST(ReportPaired, ClearErrorsNamingWhatIsMissing) {
  const ResultTables tables = tables_of(kRuns);
  ReportOptions options = paired("ratio");
  options.baseline = "allco=sfl";
  EXPECT_NE(error_of(tables, options).find("unknown column 'allco' (did you mean 'alloc'?)"),
            std::string::npos)
      << error_of(tables, options);
  options.baseline = "alloc=mbs";
  EXPECT_NE(error_of(tables, options).find("no done config has alloc = mbs (values: hil, sfl)"),
            std::string::npos)
      << error_of(tables, options);
  options.baseline = "alloc";
  EXPECT_NE(error_of(tables, options).find("expected KEY=VALUE"), std::string::npos);

  // sfl's replicate 1 at load 0.9 failed: hil's replicate 1 there has nothing to pair with.
  std::vector<Done> runs = kRuns;
  runs[7].status = "failed";
  const std::string message = error_of(tables_of(runs), paired("ratio"));
  EXPECT_NE(message.find("replicate 1 of alloc=hil, load=0.9 has no baseline run to pair with "
                         "(no done config with alloc=sfl, load=0.9, replicate 1)"),
            std::string::npos)
      << message;
}

TEST(ReportPaired, AZeroBaselineGivesNoFiniteRatio) {
  const Report report = build_report(
      tables_of({{"sfl", 0.5, 0, 0}, {"sfl", 0.5, 1, 0}, {"hil", 0.5, 0, 1}, {"hil", 0.5, 1, 2}}),
      paired("ratio"));
  const h5::Table& t = report.table;
  EXPECT_TRUE(std::isnan(t.number(1, column(t, "mean_wait_ratio"))));
  EXPECT_TRUE(std::isnan(t.number(0, column(t, "mean_wait_ratio"))));  // 0 / 0
}
