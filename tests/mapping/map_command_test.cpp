// `allocsim map` end to end: JSON figures, the mapping file and input errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

namespace {

/// Runs the allocsim binary with `arguments`; returns (exit status, stdout + stderr).
std::pair<int, std::string> run(const std::string& arguments) {
  const std::string command = std::string(ALLOCSIM_BINARY) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (pipe && fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = pipe ? pclose(pipe) : -1;
  return {WEXITSTATUS(status), output};
}

}  // namespace

TEST(MapCommand, TopoLBOnTheFourCubedTorus) {
  const auto out = (std::filesystem::temp_directory_path() /
                    ("allocsim-map-" + std::to_string(::getpid()) + ".txt"))
                       .string();
  const auto [status, text] =
      run("map --machine torus:4x4x4 --pattern mesh2d:8x8 --mapper topolb:order=2+refine "
          "--format json --out " +
          out);
  ASSERT_EQ(status, 0) << text;
  EXPECT_NE(text.find("\"hops_per_byte\": 1,"), std::string::npos) << text;
  EXPECT_NE(text.find("\"hop_bytes\": 114688,"), std::string::npos) << text;
  EXPECT_NE(text.find("\"max_link_load\": 512,"), std::string::npos) << text;
  std::ifstream mapping(out);
  std::string line;
  std::getline(mapping, line);
  EXPECT_EQ(line, "# task node");
  std::set<int> nodes;
  int task = 0, node = 0, rows = 0;
  while (mapping >> task >> node) nodes.insert(node), ++rows;
  EXPECT_EQ(rows, 64);
  EXPECT_EQ(nodes.size(), 64u);
  std::filesystem::remove(out);
}

TEST(MapCommand, PartitionsWhenTasksOutnumberProcessors) {
  const auto [status, text] =
      run("map --machine torus:4x4 --pattern mesh2d:8x8 --mapper topolb --format json");
  ASSERT_EQ(status, 0) << text;
  EXPECT_NE(text.find("\"partitioned\": true, \"groups\": 16"), std::string::npos) << text;
}

TEST(MapCommand, Errors) {
  auto [status, text] = run("map --machine torus:4x4 --pattern mesh2d:4x4 --mapper topolbb");
  EXPECT_EQ(status, 2);
  EXPECT_NE(text.find("unknown mapper 'topolbb' (did you mean 'topolb'?)"), std::string::npos);
  std::tie(status, text) = run("map --machine torus:4x4");
  EXPECT_EQ(status, 2);
  EXPECT_NE(text.find("exactly one of --pattern"), std::string::npos) << text;
  std::tie(status, text) = run("map --machine torus:4x4 --graph /nonexistent/x.graph");
  EXPECT_EQ(status, 2);
  EXPECT_NE(text.find("x.graph"), std::string::npos) << text;
}
