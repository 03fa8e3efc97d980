// Self-describing result files: column units and descriptions, string-array attributes,
// trace digests and library versions.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sweep/store/provenance.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

TEST(Sha256, KnownVectors) {
  // FIPS 180-2 examples.
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const TempDir temp_path("allocsim_provenance_test");
  const std::string path = temp_path("two-megabytes.txt");
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(2 << 20, 'a') << "abc";  // spans several read buffers
  }
  EXPECT_EQ(sha256_file(path), sha256_hex(std::string(2 << 20, 'a') + "abc"));
  EXPECT_THROW(sha256_file(temp_path("missing")), InputError);
}

TEST(Provenance, TracesResolvedOnceEachSyntheticWithoutFile) {
  const TempDir temp_path("allocsim_provenance_test");
  {
    std::ofstream out(temp_path("t.txt"));
    out << "0 1 10 20\n";
  }
  std::vector<ConfigEntry> configs(3);
  configs[0].config.trace = "t.txt";
  configs[1].config.trace = "synthetic:jobs=5";
  configs[2].config.trace = "t.txt";
  const auto traces = trace_provenance(configs, temp_path(""), "");
  ASSERT_EQ(traces.size(), 2u);
  EXPECT_EQ(traces[0].name, "t.txt");
  EXPECT_EQ(traces[0].path, temp_path("t.txt"));
  EXPECT_EQ(traces[0].sha256, sha256_hex("0 1 10 20\n"));
  EXPECT_EQ(traces[1].path, "");
  EXPECT_EQ(traces[1].sha256, "");
}

TEST(Provenance, LibraryVersions) {
  EXPECT_TRUE(std::regex_match(hdf5_version(), std::regex(R"(1\.\d+\.\d+)")));
  EXPECT_TRUE(std::regex_match(boost_version(), std::regex(R"(1\.\d+\.\d+)")));
}

TEST(ColumnTables, EveryColumnHasAUnitAndADescription) {
  for (const auto& c : job_columns()) {
    EXPECT_NE(c.unit, nullptr) << c.name;
    EXPECT_STRNE(c.description, "") << c.name;
  }
  for (const auto& c : summary_columns()) {
    EXPECT_NE(c.unit, nullptr) << c.name;
    EXPECT_STRNE(c.description, "") << c.name;
  }
  for (const auto& c : summary_table_columns()) EXPECT_NE(c.description, "") << c.name;
  for (const auto& c : job_table_columns()) EXPECT_NE(c.description, "") << c.name;
  Expansion expansion;
  expansion.variable_names = {"load"};
  for (const auto& c : config_columns(expansion)) EXPECT_NE(c.description, "") << c.name;
}

TEST(H5Attributes, UnitsDescriptionsAndProvenanceRoundTrip) {
  const TempDir temp_path("allocsim_provenance_test");
  const std::string path = temp_path("described.h5");
  FileInfo info;
  info.command_line = "allocsim sweep 'my exp.toml'";
  info.trace_dir = "/traces";
  info.traces = {{"a", "/traces/a.swf", "00ff"}, {"synthetic:jobs=5", "", ""}};
  info.hdf5_version = "1.10.8";
  info.mpi_version = "Open MPI v4.1.4";
  info.boost_version = "1.74.0";
  {
    h5::File file(path, h5::File::Mode::create);
    write_info(file, info);
    file.create_table("/t",
                      {{"id", h5::ColumnType::u64, "", "row id"},
                       {"wait", h5::ColumnType::f64, "s", "start - submit"}},
                      4, false);
  }
  const h5::File file(path, h5::File::Mode::read);
  EXPECT_EQ(file.text_array_attr("/t", "unit"), (std::vector<std::string>{"", "s"}));
  EXPECT_EQ(file.text_array_attr("/t", "description"),
            (std::vector<std::string>{"row id", "start - submit"}));
  const h5::Table table = file.read_table("/t");
  EXPECT_EQ(table.columns()[1].unit, "s");
  EXPECT_EQ(table.columns()[1].description, "start - submit");
  const FileInfo back = read_info(file);
  EXPECT_EQ(back.command_line, info.command_line);
  EXPECT_EQ(back.trace_dir, "/traces");
  ASSERT_EQ(back.traces.size(), 2u);
  EXPECT_EQ(back.traces[0].path, "/traces/a.swf");
  EXPECT_EQ(back.traces[0].sha256, "00ff");
  EXPECT_EQ(back.traces[1].name, "synthetic:jobs=5");
  EXPECT_EQ(back.mpi_version, "Open MPI v4.1.4");
  EXPECT_EQ(back.boost_version, "1.74.0");
}

}  // namespace
}  // namespace allocsim::sweep
