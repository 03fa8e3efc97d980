// {replicate} in experiment files (issue 29, item 1): each replicate gets its own value (a
// different trace window), the configs show the value as written, and a variable cannot take
// the reserved name.
#include <gtest/gtest.h>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {
namespace {

constexpr const char* kWindows = R"(
[experiment]
seed = 3
replicates = 3
[base]
trace = "synthetic:jobs=40"
machine = "mesh:4x4"
transforms = ["window:jobs=10,index={replicate}"]
[sweep]
alloc = ["sortedfreelist", "mc1x1"]
)";

TEST(ReplicatePlaceholder, EachReplicateGetsItsOwnWindow) {
  const Expansion x = expand(parse_experiment(kWindows, "w.toml", "/data"));
  ASSERT_TRUE(x.problems.empty());
  ASSERT_EQ(x.configs.size(), 6u);
  for (const auto& entry : x.configs) {
    EXPECT_EQ(entry.config.transforms,
              std::vector<std::string>{"window:jobs=10,index=" + std::to_string(entry.replicate)});
    // /configs shows the value as written, so the replicates of one alloc group together.
    ASSERT_EQ(entry.as_written.size(), 1u);
    EXPECT_EQ(entry.as_written[0].first, "transforms");
    EXPECT_EQ(entry.as_written[0].second, "window:jobs=10,index={replicate}");
  }
  EXPECT_EQ(x.configs[0].replicate, 0);
  EXPECT_EQ(x.configs[2].replicate, 2);
  EXPECT_EQ(x.configs[3].config.alloc, "mc1x1");
  // Both allocators of one replicate share the window and the workload seed.
  EXPECT_EQ(x.configs[1].config.transforms, x.configs[4].config.transforms);
  EXPECT_EQ(x.configs[1].config.workload_seed, x.configs[4].config.workload_seed);
  // The windows of replicates 0, 1 and 2 are jobs 0-9, 10-19 and 20-29 of one stream (the
  // workload seed is fixed here so that the three read the same generated stream).
  RunConfig base = x.configs[0].config;
  base.workload_seed = 5;
  const Workload stream = load_workload(base, "");
  for (int r = 0; r < 3; ++r) {
    RunConfig c = x.configs[static_cast<std::size_t>(r)].config;
    c.workload_seed = 5;
    const Workload window = transform_workload(c, stream);
    ASSERT_EQ(window.jobs.size(), 10u);
    for (std::size_t j = 0; j < 10; ++j)
      EXPECT_EQ(window.jobs[j].id, stream.jobs[static_cast<std::size_t>(10 * r) + j].id);
    EXPECT_EQ(window.jobs[0].submit, 0);
  }
}

TEST(ReplicatePlaceholder, WorksThroughAVariableAndWithoutReplicates) {
  const Expansion x = expand(parse_experiment(R"(
[experiment]
replicates = 2
[base]
trace = "synthetic:jobs=40"
machine = "mesh:4x4"
alloc = "mc1x1"
transforms = ["{window}"]
window = "window:jobs=5,index={replicate}"
)",
                                              "v.toml", "/data"));
  ASSERT_TRUE(x.problems.empty());
  ASSERT_EQ(x.configs.size(), 2u);
  EXPECT_EQ(x.configs[1].config.transforms, std::vector<std::string>{"window:jobs=5,index=1"});
  EXPECT_EQ(x.configs[1].variables[0].second, "window:jobs=5,index={replicate}");
  EXPECT_NE(x.configs[0].id, x.configs[1].id);
}

TEST(ReplicatePlaceholder, IsReservedAndKnown) {
  try {
    parse_experiment("[base]\nreplicate = 3\ntrace = \"x{replicate}\"\n", "r.toml", "/data");
    FAIL() << "expected ExperimentError";
  } catch (const ExperimentError& error) {
    ASSERT_EQ(error.problems().size(), 1u) << error.what();
    EXPECT_NE(error.problems()[0].message.find("'replicate' is reserved"), std::string::npos);
  }
  // Used without a variable of that name: no problem.
  EXPECT_NO_THROW(parse_experiment("[base]\ntrace = \"x{replicate}\"\n", "r.toml", "/data"));
}

}  // namespace
}  // namespace allocsim::sweep
