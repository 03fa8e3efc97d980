// Experiment size guard: configs are counted before the expansion, and more than a
// million need --allow-large.
#include <gtest/gtest.h>

#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {
namespace {

const char* const kBillion = R"(
[experiment]
name = "huge"
replicates = 2
[base]
trace = "synthetic:jobs={a},runtime=const:{b},arrival=const:{c}"
[sweep]
a = {from = 1, to = 1000, step = 1}
b = {from = 1, to = 1000, step = 1}
c = {from = 1, to = 1000, step = 1}
)";

TEST(ExperimentSize, CountedWithoutExpanding) {
  const Experiment e = parse_experiment(kBillion, "huge.toml", "/data");
  EXPECT_EQ(planned_configs(e), 2000000000);
  try {
    check_experiment_size(e, false);
    FAIL() << "2e9 configs accepted without --allow-large";
  } catch (const ExperimentError& error) {
    ASSERT_EQ(error.problems().size(), 1u);
    EXPECT_EQ(error.problems()[0].where, "huge.toml");
    const std::string& message = error.problems()[0].message;
    EXPECT_NE(message.find("expands to 2000000000 configs (a (1000) x b (1000) x c (1000), x 2 "
                           "replicates)"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("--allow-large"), std::string::npos) << message;
  }
  EXPECT_NO_THROW(check_experiment_size(e, true));
}

TEST(ExperimentSize, SmallExperimentsAndTheLimitItselfPass) {
  const Experiment e = parse_experiment(R"(
[experiment]
name = "limit"
[base]
trace = "synthetic:jobs={a},runtime=const:{b}"
[sweep]
a = {from = 1, to = 1000, step = 1}
b = {from = 1, to = 1000, step = 1}
)",
                                        "limit.toml", "/data");
  EXPECT_EQ(planned_configs(e), kMaxConfigsWithoutOverride);
  EXPECT_NO_THROW(check_experiment_size(e, false));
}

}  // namespace
}  // namespace allocsim::sweep
