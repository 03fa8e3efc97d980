// The writers shared by cli/ and the sweep report: JSON, CSV and aligned tables.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "allocsim/output/csv.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/output/table.hpp"

namespace allocsim::output {
namespace {

TEST(Json, StringsAndNumbers) {
  EXPECT_EQ(json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(json_number(0.1), "0.1");
  EXPECT_EQ(json_number(std::nan("")), "null");
}

TEST(Json, ConfigHasEveryFieldTyped) {
  RunConfig config;
  config.trace = "t.swf";
  config.transforms = {"truncate:max_jobs=5", "runtime_scale"};
  EXPECT_EQ(config_json(config),
            "{\"machine\": \"mesh:16x16\", \"trace\": \"t.swf\", \"sched\": \"fcfs\", "
            "\"alloc\": \"flat\", \"transforms\": [\"truncate:max_jobs=5\", \"runtime_scale\"], "
            "\"runtime_model\": \"fixed\", \"bsd_threshold\": 10, \"estimate_factor\": 2, "
            "\"strict\": false, \"keep_jobs\": false, \"keep_timeline\": false, \"timeout\": 0, "
            "\"decisions\": [], "
            "\"pattern\": \"\", \"mapper\": \"identity\", \"seed\": 1, \"workload_seed\": 1}");
}

TEST(Csv, ConfigsAndQuoting) {
  RunConfig config;
  config.trace = "a,b";
  config.transforms = {"x", "y"};
  std::ostringstream out;
  write_configs_csv(out, {config});
  EXPECT_EQ(out.str(),
            "machine,trace,sched,alloc,transforms,runtime_model,bsd_threshold,estimate_factor,"
            "strict,keep_jobs,keep_timeline,timeout,decisions,pattern,mapper,seed,workload_seed\n"
            "mesh:16x16,\"a,b\",fcfs,flat,x; y,fixed,10,2,false,false,false,0,,,identity,1,1\n");
}

TEST(Table, AlignsAndFormatsNumbers) {
  EXPECT_EQ(table_number(std::nan("")), "-");
  EXPECT_EQ(table_number(12), "12");
  EXPECT_EQ(table_number(1234.56), "1234.6");
  EXPECT_EQ(table_number(1.23456), "1.235");
  EXPECT_EQ(table_number(0.123456), "0.1235");
  EXPECT_EQ(aligned_table({"name", "n"}, {{"a", "10"}, {"long", "2"}}, {true, false}),
            "name   n\na     10\nlong   2\n");
}

TEST(Table, OnePrecisionPerColumn) {
  EXPECT_EQ(table_numbers({0.5138, 1.73, std::nan("")}),
            (std::vector<std::string>{"0.514", "1.730", "-"}));
  EXPECT_EQ(table_numbers({63025400, 1}), (std::vector<std::string>{"63025400", "1"}));
  EXPECT_EQ(table_numbers({63025400.5, 2.25}), (std::vector<std::string>{"63025400.5", "2.2"}));
}

TEST(Table, WrapsWideTablesRepeatingKeyColumns) {
  const std::vector<std::string> header{"key", "aaaaaaaa", "bbbbbbbb", "cccccccc"};
  const std::vector<std::vector<std::string>> rows{{"x", "1", "2", "3"}};
  const std::vector<bool> left{true, false, false, false};
  EXPECT_EQ(wrapped_table(header, rows, left, 1, 120), aligned_table(header, rows, left));
  EXPECT_EQ(wrapped_table(header, rows, left, 1, 24),
            "key  aaaaaaaa  bbbbbbbb\nx           1         2\n\n"
            "key  cccccccc\nx           3\n");
}

TEST(Json, TextOfLibraryValues) {
  nlohmann::ordered_json value = {{"b", 5.0}, {"a", {1, 2}}, {"s", "q\""}, {"n", nullptr}};
  EXPECT_EQ(json_text(value), "{\"b\": 5, \"a\": [1, 2], \"s\": \"q\\\"\", \"n\": null}");
}

}  // namespace
}  // namespace allocsim::output
