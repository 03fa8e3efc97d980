// Golden whole-simulation test (SimGrid's .tesh idea): every case of golden_cases() is run and
// its summary, per-job records, decision rows and diagnostics are compared with the stored file
// tests/golden/<family>/<case>.json. A case without a file fails, and so does a file without a
// case. With ALLOCSIM_REGEN_GOLDEN=1 the files are (re)written instead: scripts/regen-golden.sh.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"
#include "golden_cases.hpp"
#include "golden_file.hpp"

using namespace allocsim;
using namespace allocsim::golden;
namespace fs = std::filesystem;

namespace {

const std::string kGoldenDir = ALLOCSIM_GOLDEN_DIR;
const char* const kRegenHint =
    "regenerate with scripts/regen-golden.sh and review the diff (tests/golden/README.md)";

bool regenerating() {
  const char* flag = std::getenv("ALLOCSIM_REGEN_GOLDEN");
  return flag && *flag && std::string(flag) != "0";
}

fs::path golden_path(const std::string& family, const std::string& name) {
  return fs::path(kGoldenDir) / family / (name + ".json");
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// gtest parameter names allow only letters, digits and '_'.
std::string test_name(const GoldenCase& golden_case) {
  std::string name = golden_case.family + "_" + golden_case.name;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, MatchesStoredOutput) {
  GoldenCase golden_case = GetParam();
  const std::string entry = golden_case.family + " '" + golden_case.name + "'";
  try {
    golden_case.config.machine = choose_machine(golden_case);
  } catch (const InputError& error) {
    FAIL() << entry << ": " << error.what();
  }
  RunResult result;
  try {
    result = simulate(golden_case.config, std::string());
  } catch (const std::exception& error) {
    FAIL() << entry << " on " << golden_case.config.machine << ": " << error.what();
  }
  const GoldenOutput actual =
      capture(golden_case.family, golden_case.name, golden_case.config, result, kGoldenDir);
  const fs::path path = golden_path(golden_case.family, golden_case.name);
  const std::string relative =
      "tests/golden/" + golden_case.family + "/" + golden_case.name + ".json";

  if (regenerating()) {
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << to_json(actual);
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << entry << " (" << golden_case.family << " entry '"
                                << golden_case.entry << "') has no golden file " << relative << ": "
                                << kRegenHint;
  GoldenOutput expected;
  try {
    expected = from_json(read_text(path));
  } catch (const std::exception& error) {
    FAIL() << relative << ": " << error.what() << "; " << kRegenHint;
  }
  EXPECT_EQ(expected.family, golden_case.family) << relative;
  EXPECT_EQ(expected.name, golden_case.name) << relative;
  const std::vector<std::string> differences = compare(expected, actual);
  for (const auto& line : differences) ADD_FAILURE() << line;
  if (!differences.empty())
    ADD_FAILURE() << relative << " differs from today's result. If the change is intended, "
                  << kRegenHint;
}

INSTANTIATE_TEST_SUITE_P(Registry, Golden, ::testing::ValuesIn(golden_cases(kGoldenDir)),
                         [](const auto& param_info) { return test_name(param_info.param); });

/// Every entry of every registry has its own case (the case list is derived from the
/// registries; this guards against a family being left out).
TEST(GoldenCases, CoverEveryRegistryEntry) {
  std::set<std::pair<std::string, std::string>> covered;
  for (const auto& golden_case : golden_cases(kGoldenDir))
    // Topology cases are named by their machine (several per kind: mesh-8x8, mesh-4x4x4, ...).
    if (golden_case.name == golden_case.entry || golden_case.family == "topology")
      covered.emplace(golden_case.family, golden_case.entry);
  auto check = [&](const std::string& family, const std::vector<std::string>& names) {
    for (const auto& name : names)
      EXPECT_TRUE(covered.count({family, name})) << family << " '" << name << "' has no case";
  };
  check("allocator", allocator_registry().names());
  check("scheduler", scheduler_registry().names());
  check("topology", topology_registry().names());
  check("ordering", ordering_registry().names());
  check("runtime_model", runtime_model_registry().names());
  check("transform", transform_registry().names());
  check("mapper", mapping::mapper_registry().names());
  auto job_patterns = mapping::pattern_registry().names();
  std::erase(job_patterns, "leanmd");  // sized by its cells, not by a job (add_mapping_cases)
  check("pattern", job_patterns);
}

/// A stored file whose case no longer exists (entry removed or renamed) fails; regeneration
/// deletes it.
TEST(GoldenCases, EveryStoredFileHasACase) {
  std::set<fs::path> expected;
  for (const auto& golden_case : golden_cases(kGoldenDir))
    expected.insert(golden_path(golden_case.family, golden_case.name));
  const std::set<std::string> families(golden_families().begin(), golden_families().end());
  std::size_t files = 0;
  for (const auto& item : fs::directory_iterator(kGoldenDir)) {
    if (!item.is_directory()) continue;
    const std::string family = item.path().filename().string();
    if (family == "inputs") continue;  // files the cases read, e.g. an ordering file
    EXPECT_TRUE(families.count(family))
        << "tests/golden/" << family << "/ is not a golden family; remove it or add the family";
    for (const auto& file : fs::directory_iterator(item.path())) {
      ++files;
      if (expected.count(file.path())) continue;
      if (regenerating()) {
        std::cout << "removing stale golden file " << file.path().filename().string()
                  << " (no case " << family << "/" << file.path().stem().string() << ")\n";
        fs::remove(file.path());
      } else {
        ADD_FAILURE() << "tests/golden/" << family << "/" << file.path().filename().string()
                      << " belongs to no case (entry removed or renamed?): " << kRegenHint;
      }
    }
  }
  if (!regenerating()) {
    EXPECT_EQ(files, expected.size()) << "golden files missing: " << kRegenHint;
  }
}

}  // namespace
