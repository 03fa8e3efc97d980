// Validation before anything runs: registry names and parameters, machines, traces and
// allocator/machine compatibility, all reported at once with their configs.
#include <gtest/gtest.h>

#include <algorithm>

#include "allocsim/sweep/experiment/validate.hpp"

namespace allocsim::sweep {
namespace {

const std::string kData = ALLOCSIM_TEST_DATA;

Validation check(const std::string& text, Expansion* out = nullptr) {
  const Experiment e = parse_experiment(text, "test.toml", kData);
  const Expansion x = expand(e);
  if (out) *out = x;
  return validate(e, x, "");
}

std::string all(const Validation& v) {
  std::string text;
  for (const auto& p : v.problems) text += p.where + ": " + p.message + "\n";
  return text;
}

TEST(Validate, GoodExperimentHasNoProblemsAndAnEstimate) {
  Expansion x;
  const Validation v = check(R"(
[base]
machine = "mesh:8x8"
[sweep]
trace = ["quickstart-a.swf", "synthetic:jobs=50"]
alloc = ["flat", "mbs"]
)",
                             &x);
  EXPECT_TRUE(v.problems.empty()) << all(v);
  ASSERT_EQ(v.jobs.size(), 4u);
  EXPECT_EQ(v.jobs[0], 300);          // job lines of the SWF file
  EXPECT_EQ(v.jobs[2], 50);           // the synthetic spec's jobs
  EXPECT_GT(v.costs[1], v.costs[0]);  // a shape-searching allocator costs more than flat
  EXPECT_EQ(v.workloads, 2);
  EXPECT_EQ(v.machines, 1);
  const std::string summary = v.summary(x);
  EXPECT_NE(summary.find("4 configs"), std::string::npos) << summary;
  EXPECT_NE(summary.find("700 simulated jobs"), std::string::npos) << summary;
}

// Windows (issue 29): each replicate's window counts its jobs, and a window past the trace's job
// lines (quickstart-a.swf: 300) is reported before anything runs, with the windows it holds.
TEST(Validate, WindowsCountTheirJobsAndAWindowPastTheEndIsAProblem) {
  const Validation v = check(R"(
[experiment]
replicates = 4
[base]
machine = "mesh:8x8"
trace = "quickstart-a.swf"
transforms = ["window:jobs=100,index={replicate}"]
)");
  EXPECT_EQ(v.jobs, (std::vector<std::int64_t>{100, 100, 100, 100}));
  ASSERT_EQ(v.problems.size(), 1u) << all(v);
  EXPECT_NE(v.problems[0].where.find("rep=3"), std::string::npos) << all(v);
  EXPECT_NE(v.problems[0].message.find("transform 'window:jobs=100,index=3' needs 400 jobs but "
                                       "the trace has at most 300 job lines (at most 3 disjoint "
                                       "windows of this size)"),
            std::string::npos)
      << all(v);
}

TEST(Validate, EstimateFollowsTransformsThatChangeTheJobCount) {
  const Validation v = check(R"(
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=100"
[sweep]
transforms = [[], ["truncate:max_jobs=30"], ["truncate:max_jobs=500,skip=80"], ["replicate:copies=3"]]
)");
  EXPECT_TRUE(v.problems.empty()) << all(v);
  EXPECT_EQ(v.jobs, (std::vector<std::int64_t>{100, 30, 20, 300}));
}

TEST(Validate, ThreeDifferentMistakesAreAllReported) {
  const Validation v = check(R"(
[base]
machine = "mesh:8x8"
trace = "quickstart-a.swf"
[sweep]
alloc = ["flat", "mc1xl"]
sched = ["fcfs", "easy"]
[[include]]
trace = "no-such-trace.swf"
[[include]]
machine = "mesh:8y8"
)");
  const std::string text = all(v);
  ASSERT_EQ(v.problems.size(), 3u) << text;
  // The misspelled allocator is used by two configs: one line, naming the first config.
  EXPECT_NE(text.find("config #2 [alloc=mc1xl sched=fcfs] (and 1 more config): unknown "
                      "allocator 'mc1xl' (did you mean 'mc1x1'?)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("config #4 [include#1]: trace 'no-such-trace.swf'"), std::string::npos)
      << text;
  EXPECT_NE(text.find("config #5 [include#2]: machine 'mesh:8y8'"), std::string::npos) << text;
}

TEST(Validate, AllocatorThatDoesNotSupportTheMachine) {
  const Validation v = check(R"(
[base]
trace = "synthetic:jobs=10"
[sweep]
machine = ["mesh:8x8", "torus:4x4x4"]
alloc = ["flat", "mbs"]
)");
  const std::string text = all(v);
  ASSERT_EQ(v.problems.size(), 1u) << text;
  EXPECT_NE(text.find("config #3 [machine=torus:4x4x4 alloc=mbs]: allocator 'mbs' cannot run on "
                      "'torus:4x4x4'"),
            std::string::npos)
      << text;
}

TEST(Validate, BadParametersTransformsAndSyntheticSpecs) {
  const Validation v = check(R"(
[base]
machine = "mesh:8x8"
[sweep]
trace = ["synthetic:jobs=10,colour=red"]
transforms = [["target_load:lod=0.5"], ["no_transform"]]
sched = ["easy:bogus=1"]
)");
  const std::string text = all(v);
  EXPECT_NE(text.find("colour"), std::string::npos) << text;
  EXPECT_NE(text.find("lod"), std::string::npos) << text;
  EXPECT_NE(text.find("no_transform"), std::string::npos) << text;
  EXPECT_NE(text.find("bogus"), std::string::npos) << text;
}

TEST(ResolveTrace, ExperimentFolderThenTraceDir) {
  EXPECT_EQ(resolve_trace("synthetic:jobs=3", "/nowhere", ""), "synthetic:jobs=3");
  EXPECT_EQ(resolve_trace("quickstart-a.swf", kData, ""), kData + "/quickstart-a.swf");
  // A NAME found in the trace folder (with its extension added).
  EXPECT_EQ(resolve_trace("quickstart-b", "/nowhere", kData), kData + "/quickstart-b.txt");
  EXPECT_THROW(resolve_trace("absent.swf", kData, kData), InputError);
  EXPECT_THROW(resolve_trace("", kData, ""), InputError);
}

}  // namespace
}  // namespace allocsim::sweep
