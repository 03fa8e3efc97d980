// `allocsim report` averages replicates and gives the 95 % confidence interval of each mean
// (Welford variance, Student-t quantiles from Boost.Math), says when replicates are identical,
// and labels a spread across pooled settings as such.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/report/statistics.hpp"

using namespace allocsim::sweep;
using h5::ColumnType;

namespace {

/// Result tables of configs (alloc, load, replicate) with one metric value each.
struct Sample {
  std::string alloc;
  double load;
  std::int64_t replicate;
  double value;
};
ResultTables tables_of(const std::vector<Sample>& samples, const std::string& metric) {
  ResultTables tables;
  tables.configs = h5::Table({{"config_id", ColumnType::u64},
                              {"replicate", ColumnType::i64},
                              {"status", ColumnType::text},
                              {"alloc", ColumnType::text},
                              {"load", ColumnType::f64}});
  tables.summary = h5::Table({{"config_id", ColumnType::u64}, {metric, ColumnType::f64}});
  std::uint64_t id = 0;
  for (const auto& s : samples) {
    tables.configs.add_row({id, s.replicate, std::string("done"), s.alloc, s.load});
    tables.summary.add_row({id, s.value});
    ++id;
  }
  return tables;
}

std::size_t column(const h5::Table& table, const std::string& name) {
  const int c = table.find(name);
  EXPECT_GE(c, 0) << name;
  return static_cast<std::size_t>(c);
}

bool has_note(const Report& report, const std::string& text) {
  for (const auto& note : report.notes)
    if (note.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

// Two-sided 95 % quantiles as printed in statistical tables (t_{0.975, df}).
TEST(StudentT, QuantilesMatchPublishedTables) {
  EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062047362, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 2), 4.30265272975, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 4), 2.77644510520, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 30), 2.04227245630, 1e-9);
  EXPECT_NEAR(student_t_quantile(0.975, 1000), 1.96233908083, 1e-9);  // no jump to 1.960
}

TEST(RunningStats, WelfordIsExactWhereTheTextbookFormulaIsNot) {
  // Large values close together: Σx² − n·mean² cancels catastrophically in doubles.
  RunningStats stats;
  for (double x : {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16}) stats.add(x);
  EXPECT_DOUBLE_EQ(stats.mean(), 1e9 + 10);
  EXPECT_DOUBLE_EQ(stats.variance(), 30.0);  // (36 + 9 + 9 + 36) / 3
  RunningStats same;
  for (int i = 0; i < 3; ++i) same.add(4266044.66);
  EXPECT_TRUE(same.identical());
  EXPECT_EQ(same.variance(), 0.0);
  EXPECT_EQ(t_interval_half_width(same), 0.0);
  RunningStats one;
  one.add(1);
  EXPECT_TRUE(std::isnan(one.variance()));
  EXPECT_TRUE(std::isnan(t_interval_half_width(one)));
}

TEST(ReportConfidenceInterval, StudentTHalfWidthAcrossReplicates) {
  const ResultTables tables =
      tables_of({{"gabl", 0.5, 0, 1}, {"gabl", 0.5, 1, 2}, {"gabl", 0.5, 2, 3}, {"mbs", 0.5, 0, 5}},
                "utilization");
  ReportOptions options;
  options.group_by = {"alloc"};
  options.metrics = {"utilization"};
  const Report report = build_report(tables, options);
  EXPECT_EQ(report.spread, Spread::replicates);
  const h5::Table& t = report.table;
  ASSERT_EQ(t.rows(), 2u);
  const auto mean = column(t, "utilization"), ci = column(t, "utilization_ci95");
  EXPECT_DOUBLE_EQ(t.number(0, mean), 2.0);
  // s = 1, n = 3: t_{0.975,2} · 1 / √3.
  EXPECT_NEAR(t.number(0, ci), 4.30265272975 / std::sqrt(3.0), 1e-9);
  EXPECT_EQ(t.text(0, column(t, "replicates")), "differ");
  EXPECT_DOUBLE_EQ(t.number(1, mean), 5.0);
  EXPECT_TRUE(std::isnan(t.number(1, ci)));  // one replicate: no interval
  EXPECT_EQ(t.text(1, column(t, "replicates")), "single");
  EXPECT_FALSE(has_note(report, "replicates identical"));
}

TEST(ReportConfidenceInterval, KnownSampleGivesHandComputedInterval) {
  // 10.1, 10.5, 9.8, 10.3, 10.6: mean 10.26, deviations −.16 .24 −.46 .04 .34, squares sum
  // 0.412, s² = 0.103; half-width = t_{0.975,4} · √(0.103 / 5) = 2.7764451052 · 0.14352700...
  std::vector<Sample> samples;
  std::int64_t replicate = 0;
  for (double x : {10.1, 10.5, 9.8, 10.3, 10.6}) samples.push_back({"mbs", 0.7, replicate++, x});
  const Report report = build_report(tables_of(samples, "mean_wait"), {});
  const h5::Table& t = report.table;
  ASSERT_EQ(t.rows(), 1u);
  EXPECT_NEAR(t.number(0, column(t, "mean_wait")), 10.26, 1e-12);
  EXPECT_NEAR(t.number(0, column(t, "mean_wait_ci95")), 2.7764451052 * std::sqrt(0.103 / 5), 1e-9);
  EXPECT_NEAR(t.number(0, column(t, "mean_wait_ci95")), 0.398494839235, 1e-9);
}

TEST(ReportConfidenceInterval, IdenticalReplicatesHaveNoIntervalAndANote) {
  // A real trace without random transform: three replicates, one makespan.
  const ResultTables tables = tables_of({{"mbs", 0.5, 0, 4266044.66},
                                         {"mbs", 0.5, 1, 4266044.66},
                                         {"mbs", 0.5, 2, 4266044.66},
                                         {"gabl", 0.5, 0, 4266050.0},
                                         {"gabl", 0.5, 1, 4266050.0},
                                         {"gabl", 0.5, 2, 4266050.0}},
                                        "makespan");
  ReportOptions options;
  options.metrics = {"makespan"};
  const Report report = build_report(tables, options);
  const h5::Table& t = report.table;
  ASSERT_EQ(t.rows(), 2u);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(t.number(r, column(t, "makespan_ci95")), 0.0);  // not ±0.155 of rounding
    EXPECT_EQ(t.text(r, column(t, "replicates")), "identical");
  }
  EXPECT_EQ(t.number(0, column(t, "makespan")), 4266044.66);
  EXPECT_TRUE(has_note(report, "replicates identical"));
}

TEST(ReportConfidenceInterval, PooledGroupsAreLabelledNotCalledIntervals) {
  // --group-by alloc over two loads: the spread mixes settings, so it is a pooled SD.
  const ResultTables tables =
      tables_of({{"mbs", 0.5, 0, 1}, {"mbs", 0.5, 1, 2}, {"mbs", 0.9, 0, 3}, {"mbs", 0.9, 1, 6}},
                "utilization");
  ReportOptions options;
  options.group_by = {"alloc"};
  const Report report = build_report(tables, options);
  EXPECT_EQ(report.spread, Spread::pooled);
  const h5::Table& t = report.table;
  EXPECT_LT(t.find("utilization_ci95"), 0);
  EXPECT_LT(t.find("replicates"), 0);
  EXPECT_DOUBLE_EQ(t.number(0, column(t, "utilization")), 3.0);
  // Deviations −2 −1 0 3: squares 14, / 3.
  EXPECT_NEAR(t.number(0, column(t, "utilization_pooled_sd")), std::sqrt(14.0 / 3.0), 1e-12);
  EXPECT_TRUE(has_note(report, "differ in load"));
  EXPECT_TRUE(has_note(report, "not a confidence interval"));
  // Grouping by load too makes the groups replicate groups again.
  options.group_by = {"alloc", "load"};
  EXPECT_EQ(build_report(tables, options).spread, Spread::replicates);
}
