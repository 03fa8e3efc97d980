// `allocsim report` averages replicates and gives the 95 % confidence interval of each mean.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/sweep/report/report.hpp"

using namespace allocsim::sweep;
using h5::ColumnType;

TEST(ReportConfidenceInterval, StudentTHalfWidthAcrossReplicates) {
  ResultTables tables;
  tables.configs = h5::Table({{"config_id", ColumnType::u64},
                              {"replicate", ColumnType::i64},
                              {"status", ColumnType::text},
                              {"alloc", ColumnType::text}});
  tables.summary = h5::Table({{"config_id", ColumnType::u64}, {"utilization", ColumnType::f64}});
  const double values[] = {1, 2, 3, 5};
  for (std::uint64_t id = 0; id < 4; ++id) {
    const auto replicate = static_cast<std::int64_t>(id < 3 ? id : 0);
    tables.configs.add_row(
        {id, replicate, std::string("done"), std::string(id < 3 ? "gabl" : "mbs")});
    tables.summary.add_row({id, values[id]});
  }
  ReportOptions options;
  options.group_by = {"alloc"};
  options.metrics = {"utilization"};
  const h5::Table report = report_table(tables, options);
  ASSERT_EQ(report.rows(), 2u);
  const auto mean = static_cast<std::size_t>(report.find("utilization"));
  const auto ci = static_cast<std::size_t>(report.find("utilization_ci95"));
  EXPECT_DOUBLE_EQ(report.number(0, mean), 2.0);
  EXPECT_NEAR(report.number(0, ci), 4.303 * 1.0 / std::sqrt(3.0), 1e-9);  // s = 1, n = 3
  EXPECT_DOUBLE_EQ(report.number(1, mean), 5.0);
  EXPECT_TRUE(std::isnan(report.number(1, ci)));  // one replicate: no interval
}
