// Experiment files: ranges, expansion order, groups, includes, excludes, placeholders, stable
// ids and seeds, problems collected at once, shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {
namespace {

Experiment parse(const std::string& text) {
  return parse_experiment(text, "test.toml", "/data");
}

std::vector<std::string> problems_of(const std::string& text) {
  try {
    parse(text);
  } catch (const ExperimentError& error) {
    std::vector<std::string> messages;
    for (const auto& p : error.problems()) messages.push_back(p.where + ": " + p.message);
    return messages;
  }
  return {};
}

bool contains(const std::vector<std::string>& messages, const std::string& piece) {
  return std::any_of(messages.begin(), messages.end(),
                     [&](const std::string& m) { return m.find(piece) != std::string::npos; });
}

TEST(RangeValues, DecimalStepHasNoDrift) {
  const auto values = range_values(0.2, 2.0, 0.05);
  ASSERT_EQ(values.size(), 37u);
  EXPECT_EQ(values[0], "0.2");
  EXPECT_EQ(values[3], "0.35");  // 0.2 + 3 * 0.05 is 0.35000000000000003 in doubles
  EXPECT_EQ(values[36], "2");
}

TEST(RangeValues, IntegerDescendingAndUneven) {
  EXPECT_EQ(range_values(1, 5, 2), (std::vector<std::string>{"1", "3", "5"}));
  EXPECT_EQ(range_values(10, 4, -3), (std::vector<std::string>{"10", "7", "4"}));
  EXPECT_EQ(range_values(0, 1, 0.3), (std::vector<std::string>{"0", "0.3", "0.6", "0.9"}));
  EXPECT_EQ(range_values(-0.5, 0.5, 0.25),
            (std::vector<std::string>{"-0.5", "-0.25", "0", "0.25", "0.5"}));
  EXPECT_EQ(range_values(3, 3, 1), (std::vector<std::string>{"3"}));
}

TEST(RangeValues, RejectsBadRanges) {
  EXPECT_THROW(range_values(0, 1, 0), InputError);
  EXPECT_THROW(range_values(0, 1, -0.1), InputError);
  EXPECT_THROW(range_values(0, 1e9, 1e-3), InputError);  // over a million values
}

TEST(FormatNumber, ShortestText) {
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(2.0), "2");
  EXPECT_EQ(format_number(0.0), "0");
  EXPECT_EQ(format_number(1e-6), "1e-06");
}

const char* kBasic = R"(
[experiment]
name = "basic"
seed = 7
replicates = 2

[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=20"
transforms = ["target_load:load={load}"]

[sweep]
alloc = ["flat", "random"]
sched = ["fcfs", "easy"]
load = {from = 0.5, to = 0.7, step = 0.1}
)";

TEST(Expand, CartesianProductFirstAxisOutermostReplicatesInnermost) {
  const Expansion x = expand(parse(kBasic));
  ASSERT_EQ(x.configs.size(), 2u * 2u * 3u * 2u);
  EXPECT_TRUE(x.problems.empty());
  EXPECT_EQ(x.configs[0].label, "alloc=flat sched=fcfs load=0.5 rep=0");
  EXPECT_EQ(x.configs[1].label, "alloc=flat sched=fcfs load=0.5 rep=1");
  EXPECT_EQ(x.configs[2].label, "alloc=flat sched=fcfs load=0.6 rep=0");
  EXPECT_EQ(x.configs[6].label, "alloc=flat sched=easy load=0.5 rep=0");
  EXPECT_EQ(x.configs[12].config.alloc, "random");
  EXPECT_EQ(x.configs[2].config.transforms, std::vector<std::string>{"target_load:load=0.6"});
  EXPECT_EQ(x.variable_names, std::vector<std::string>{"load"});
  EXPECT_EQ(x.configs[2].variables[0], (std::pair<std::string, std::string>{"load", "0.6"}));
  for (std::size_t i = 0; i < x.configs.size(); ++i) {
    EXPECT_EQ(x.configs[i].index, static_cast<std::int64_t>(i));
    EXPECT_NE(x.configs[i].id, 0u);
  }
}

TEST(Expand, SeedsComeFromExperimentSeedAndId) {
  const Expansion x = expand(parse(kBasic));
  const auto& c = x.configs[5];
  EXPECT_EQ(c.id, stable_hash(c.canonical + "\nreplicate=" + std::to_string(c.replicate)));
  EXPECT_EQ(c.config.seed, mix_seed(7, c.id));
  // Every config of one replicate shares the workload seed; replicates differ.
  EXPECT_EQ(x.configs[0].config.workload_seed, x.configs[2].config.workload_seed);
  EXPECT_NE(x.configs[0].config.workload_seed, x.configs[1].config.workload_seed);
  EXPECT_EQ(x.configs[1].config.workload_seed, workload_seed(7, 1));
}

TEST(Expand, AddingAnAxisValueKeepsTheOtherIds) {
  std::string edited = kBasic;
  edited.replace(edited.find(R"(alloc = ["flat", "random"])"), 26,
                 R"(alloc = ["flat", "sortedfreelist", "random"])");
  const Expansion before = expand(parse(kBasic)), after = expand(parse(edited));
  ASSERT_EQ(after.configs.size(), 36u);
  std::set<std::uint64_t> ids_after;
  for (const auto& c : after.configs) ids_after.insert(c.id);
  for (const auto& c : before.configs) EXPECT_TRUE(ids_after.count(c.id)) << c.label;
  EXPECT_NE(before.fingerprint, after.fingerprint);
  // Same text, same fingerprint.
  EXPECT_EQ(before.fingerprint, expand(parse(kBasic)).fingerprint);
}

TEST(Expand, GroupsIncludesExcludes) {
  const Expansion x = expand(parse(R"(
[base]
trace = "synthetic:jobs=10"
[sweep]
workload = [
  {trace = "a.swf", machine = "mesh:8x8"},
  {trace = "b.swf", machine = "torus:4x4x4"},
]
alloc = ["flat", "mbs"]
[[exclude]]
alloc = "mbs*"
machine = "torus:*"
[[include]]
alloc = "random"
machine = "flat:16"
)"));
  ASSERT_EQ(x.configs.size(), 4u);
  EXPECT_EQ(x.excluded, 1);
  EXPECT_EQ(x.configs[0].label, "workload=a.swf/mesh:8x8 alloc=flat");
  EXPECT_EQ(x.configs[1].config.alloc, "mbs");
  EXPECT_EQ(x.configs[1].config.machine, "mesh:8x8");
  EXPECT_EQ(x.configs[2].config.trace, "b.swf");
  EXPECT_EQ(x.configs[2].config.machine, "torus:4x4x4");
  EXPECT_EQ(x.configs[2].config.alloc, "flat");
  EXPECT_EQ(x.configs[3].label, "include#1");
  EXPECT_EQ(x.configs[3].config.machine, "flat:16");
  EXPECT_EQ(x.configs[3].config.trace, "synthetic:jobs=10");
}

TEST(Expand, DuplicatesAreDroppedByCanonicalId) {
  // "flat" and "flat" through an include canonicalize identically.
  const Expansion x = expand(parse(R"(
[base]
trace = "synthetic:jobs=10"
machine = "mesh:4x4"
[sweep]
alloc = ["flat", "random"]
[[include]]
alloc = "flat"
)"));
  EXPECT_EQ(x.configs.size(), 2u);
  EXPECT_EQ(x.duplicates, 1);
}

TEST(Expand, ExperimentDefaultsReachConfigs) {
  const Expansion x = expand(parse(R"(
[experiment]
timeout = 2.5
keep_jobs = true
[base]
trace = "synthetic:jobs=10"
strict = true
bsd_threshold = 60
[[include]]
alloc = "random"
timeout = 9
[[include]]
timeout = 1
)"));
  // The second include differs from the base config only by its timeout, which is not part
  // of a config's identity: it is the same config, dropped as a duplicate.
  ASSERT_EQ(x.configs.size(), 2u);
  EXPECT_EQ(x.duplicates, 1);
  EXPECT_DOUBLE_EQ(x.configs[0].config.timeout_seconds, 2.5);
  EXPECT_TRUE(x.configs[0].config.keep_jobs);
  EXPECT_TRUE(x.configs[0].config.strict);
  EXPECT_DOUBLE_EQ(x.configs[0].config.bsd_threshold, 60);
  EXPECT_EQ(x.configs[1].config.alloc, "random");
  EXPECT_DOUBLE_EQ(x.configs[1].config.timeout_seconds, 9);
}

TEST(Parse, AllProblemsAtOnce) {
  const auto problems = problems_of(R"(
[experiment]
sede = 3
replicates = 0
[base]
machine = 5
trace = "synthetic:jobs=10"
shed = "easy"
transforms = ["target_load:load={lod}"]
[sweep]
alloc = []
bsd_threshold = {from = 1, to = 2}
[[exclude]]
allocator = "mbs"
[oops]
)");
  EXPECT_TRUE(contains(problems, "unknown key 'sede' in [experiment] (did you mean 'seed'?)"));
  EXPECT_TRUE(contains(problems, "replicates must be"));
  EXPECT_TRUE(contains(problems, "'machine' must be a string"));
  EXPECT_TRUE(contains(problems,
                       "'shed' is not a config field and no value uses {shed} (did you "
                       "mean 'sched'?)"));
  EXPECT_TRUE(contains(problems, "{lod} names no variable"));
  EXPECT_TRUE(contains(problems, "axis 'alloc' has no values"));
  EXPECT_TRUE(contains(problems, "needs from, to and step"));
  EXPECT_TRUE(contains(problems, "[[exclude]] key 'allocator'"));
  EXPECT_TRUE(contains(problems, "unknown section 'oops'"));
  EXPECT_EQ(problems.size(), 9u);
  EXPECT_TRUE(contains(problems, "test.toml:3:1: unknown key 'sede'"));
}

TEST(Parse, TomlSyntaxErrorHasAPosition) {
  const auto problems = problems_of("[base]\nmachine = \"mesh:8x8\n");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_TRUE(contains(problems, "test.toml:2:")) << problems[0];
}

TEST(Parse, KeySetByTwoAxes) {
  const auto problems = problems_of(R"(
[sweep]
machine = ["mesh:4x4"]
pair = [{machine = "mesh:8x8", trace = "a.swf"}]
)");
  EXPECT_TRUE(contains(problems, "'machine' is set by two axes, 'machine' and 'pair'"));
}

TEST(Expand, UnresolvableSpecIsRecordedNotThrown) {
  const Expansion x = expand(parse(R"(
[base]
trace = "synthetic:jobs=10"
[sweep]
alloc = ["flat", "no_such_allocator"]
)"));
  ASSERT_EQ(x.configs.size(), 2u);
  EXPECT_TRUE(x.configs[0].problem.empty());
  EXPECT_EQ(x.configs[1].id, 0u);
  EXPECT_NE(x.configs[1].problem.find("no_such_allocator"), std::string::npos);
}

TEST(Shard, PartitionIsDisjointCompleteAndStable) {
  const Expansion x = expand(parse(kBasic));
  std::vector<int> owner(x.configs.size(), 0);
  for (int k = 1; k <= 5; ++k)
    for (std::size_t i = 0; i < x.configs.size(); ++i)
      if (in_shard(x.configs[i].id, k, 5)) ++owner[i];
  for (int count : owner) EXPECT_EQ(count, 1);
  EXPECT_EQ(parse_shard("3/8"), (std::pair<int, int>{3, 8}));
  EXPECT_THROW(parse_shard("0/8"), InputError);
  EXPECT_THROW(parse_shard("9/8"), InputError);
  EXPECT_THROW(parse_shard("3-8"), InputError);
  EXPECT_THROW(parse_shard("3/8x"), InputError);
}

TEST(IdHex, SixteenDigits) {
  EXPECT_EQ(id_hex(0x1a2bULL), "0000000000001a2b");
}

}  // namespace
}  // namespace allocsim::sweep
