// The config field table (sim/config_fields.hpp) drives every reader and writer of configs:
// each field, set to its table example, survives TOML -> RunConfig -> HDF5 /configs ->
// RunConfig and the Boost binary encoding sent over MPI. The test walks the table only, so a
// field added to it is covered without touching this file.
#include <gtest/gtest.h>

#include <set>

#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/store/outcome.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

std::vector<std::string> example_items(const ConfigField& field) {
  if (field.type() == FieldType::text_list) return split_list(field.example);
  return {field.example};
}

/// The example written as a TOML value of the field's type.
std::string toml_value(const ConfigField& field) {
  auto quoted = [](const std::string& text) { return "\"" + text + "\""; };
  switch (field.type()) {
    case FieldType::text:
      return quoted(field.example);
    case FieldType::text_list: {
      std::string out = "[";
      for (const auto& item : example_items(field))
        out += (out.size() > 1 ? ", " : "") + quoted(item);
      return out + "]";
    }
    case FieldType::real:
    case FieldType::boolean:
    case FieldType::unsigned_integer:
      break;
  }
  return field.example;
}

/// Every field's example, on top of the defaults.
RunConfig example_config() {
  RunConfig config;
  for (const auto& field : config_fields())
    EXPECT_EQ(set_field(config, field, example_items(field)), "") << field.name;
  return config;
}

void expect_same_fields(const RunConfig& actual, const RunConfig& expected,
                        const std::string& step) {
  for (const auto& field : config_fields())
    EXPECT_EQ(field_text(actual, field), field_text(expected, field))
        << step << ": field '" << field.name << "'";
  EXPECT_TRUE(actual == expected) << step;
}

TEST(ConfigFields, TableIsWellFormed) {
  std::set<std::string> names;
  std::set<FieldType> types;
  const RunConfig defaults;
  for (const auto& field : config_fields()) {
    EXPECT_TRUE(names.insert(field.name).second) << "duplicate field " << field.name;
    types.insert(field.type());
    EXPECT_NE(std::string(field.help), "") << field.name;
    EXPECT_NE(field.unit, nullptr) << field.name;
    ASSERT_NE(field.example, nullptr) << field.name;
    RunConfig changed;
    ASSERT_EQ(set_field(changed, field, example_items(field)), "") << field.name;
    EXPECT_NE(field_text(changed, field), field_text(defaults, field))
        << field.name << ": the example must differ from the default";
    EXPECT_EQ(field_text(changed, field), field.example) << field.name;
    EXPECT_EQ(find_config_field(field.name), &field);
  }
  // Every type's code path (visitors of TOML, HDF5, JSON, MPI) is exercised by some field.
  EXPECT_EQ(types.size(), 5u);
}

TEST(ConfigFields, EveryFieldRoundTripsTomlH5AndSerialization) {
  const RunConfig expected = example_config();
  // TOML: every field an experiment file may set, in [base].
  std::string toml = "[experiment]\nname = \"fields\"\n[base]\n";
  for (const auto& field : config_fields())
    if (field.role != FieldRole::derived)
      toml += std::string(field.name) + " = " + toml_value(field) + "\n";
  const Expansion x = expand(parse_experiment(toml, "fields.toml", "."));
  ASSERT_EQ(x.configs.size(), 1u);
  ASSERT_TRUE(x.problems.empty()) << x.problems.front().message;
  ConfigEntry entry = x.configs.front();
  EXPECT_EQ(entry.problem, "");
  for (const auto& field : config_fields())  // the sweep sets these from the experiment seed
    if (field.role == FieldRole::derived) set_field(entry.config, field, example_items(field));
  expect_same_fields(entry.config, expected, "TOML");

  // HDF5 /configs row and back.
  const TempDir temp_path("allocsim_config_fields_test");
  const std::string path = temp_path("fields.h5");
  Expansion one = x;
  one.configs = {entry};
  {
    ResultWriter writer(path, FileInfo{}, one, {0});
    writer.add_pending(entry);
    writer.close();
  }
  const ResultTables tables = read_result_tables(path);
  ASSERT_EQ(tables.configs.rows(), 1u);
  expect_same_fields(read_config(tables.configs, 0), expected, "HDF5");

  // Boost binary encoding (MPI messages, journal).
  expect_same_fields(decode_config(encode_config(expected)), expected, "serialization");

  // report groups by the identity fields only.
  const auto descriptive = descriptive_columns(tables.configs);
  for (const auto& field : config_fields()) {
    const bool listed =
        std::find(descriptive.begin(), descriptive.end(), field.name) != descriptive.end();
    EXPECT_EQ(listed, field.role == FieldRole::identity) << field.name;
  }
}

TEST(ConfigFields, CanonicalKeepsTheIdsOfExistingConfigs) {
  RunConfig config;
  config.trace = "t.swf";
  // The form hashed into config ids before the table existed: fields added later (decisions
  // and any new one) appear only when they differ from their default.
  EXPECT_EQ(config.canonical(),
            "machine=mesh:16x16;trace=t.swf;sched=fcfs:order=fifo;alloc=flat;transforms=[];"
            "runtime_model=fixed;bsd_threshold=10;estimate_factor=2;strict=0");
  config.decisions = {"mc1x1"};
  EXPECT_NE(config.canonical().find(";decisions=[mc1x1"), std::string::npos);
}

TEST(ConfigFields, ChecksGiveFullMessages) {
  RunConfig config;
  config.machine = "mesh:0x3";
  config.alloc = "mc1xl";
  config.decisions = {"flat", "nope"};
  config.timeout_seconds = -1;
  const auto problems = check_fields(config);
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].rfind("machine 'mesh:0x3': ", 0), 0u) << problems[0];
  EXPECT_NE(problems[1].find("mc1xl"), std::string::npos) << problems[1];
  EXPECT_EQ(problems[2], "timeout: expected a finite number in [0, 1e+12], got '-1'");
  EXPECT_EQ(problems[3].rfind("decisions: ", 0), 0u) << problems[3];
  EXPECT_EQ(set_field(config, *find_config_field("bsd_threshold"), {"ten"}),
            "'ten' is not a number");
  EXPECT_EQ(set_field(config, *find_config_field("strict"), {"yes"}), "'yes' is not true or false");
}

}  // namespace
}  // namespace allocsim::sweep
