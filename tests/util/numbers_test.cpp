// Number validation at the boundary (issue 16): rules, parsing, typed spec parameters.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/geom/solve.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/util/spec.hpp"
#include "allocsim/workload/transform.hpp"

using namespace allocsim;

namespace {
std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST(Numbers, RulesNameTheViolation) {
  const NumberRule procs = integer_rule(1, 64);
  EXPECT_FALSE(procs.violation(1));
  EXPECT_EQ(procs.violation(std::nan("")), "non-finite");
  EXPECT_EQ(procs.violation(-INFINITY), "non-finite");
  EXPECT_EQ(procs.violation(0.5), "non-integral");
  EXPECT_EQ(procs.violation(65), "out of range");
  EXPECT_EQ(procs.describe(), "an integer in [1, 64]");
  EXPECT_EQ(positive_rule(10).describe(), "a finite number in (0, 10]");
  EXPECT_EQ(positive_rule(10).violation(0), "out of range");
  EXPECT_EQ(real_rule(0, std::numeric_limits<double>::max()).describe(), "a finite number >= 0");
  EXPECT_EQ(NumberRule{}.describe(), "a finite number");
  EXPECT_EQ(NumberRule{}.violation(1e308), std::nullopt);
}

TEST(Numbers, ParsingIsStrictAboutTheWholeText) {
  EXPECT_EQ(parse_double("2.5"), 2.5);
  EXPECT_EQ(parse_double("+3"), 3);
  EXPECT_EQ(parse_double("-1e3"), -1000);
  EXPECT_EQ(parse_double("1e400"), INFINITY);  // out of a double's range: named as non-finite
  EXPECT_TRUE(std::isnan(*parse_double("nan")));
  for (const char* bad : {"", "+", "+-1", "++1", "5s", "1,2", " 1", "0x10", "abc"})
    EXPECT_EQ(parse_double(bad), std::nullopt) << bad;
  EXPECT_EQ(parse_number("7", integer_rule(1, 9), "copies"), 7);
  EXPECT_EQ(message_of([] { parse_number("nan", integer_rule(1, 9), "copies"); }),
            "copies: expected an integer in [1, 9], got 'nan'");
}

TEST(Numbers, RunOptionsAreValidated) {
  EXPECT_NO_THROW(validate_run_numbers(10, 2, 0));
  EXPECT_EQ(message_of([] { validate_run_numbers(-1, 2, 0, "--bsd-threshold"); }),
            "--bsd-threshold: expected a finite number in (0, 1e+12], got -1");
  EXPECT_EQ(message_of([] { validate_run_numbers(10, std::nan(""), 0, "b", "--estimate-factor"); }),
            "--estimate-factor: expected a finite number in (0, 1e+06], got nan");
  EXPECT_NE(message_of([] { validate_run_numbers(10, 2, INFINITY); }).find("timeout"),
            std::string::npos);
}

TEST(Numbers, TypedParametersRejectNonFiniteAndOutOfRangeValues) {
  const std::vector<ParamSpec> specs{
      {"n", ParamKind::integer, "1", "", {}, integer_rule(0, 10)},
      {"x", ParamKind::real, "1", "", {}},
  };
  auto make = [&](const std::string& key, const std::string& value) {
    Params(specs, {{key, value}}, "thing");
  };
  EXPECT_NO_THROW(make("n", "10"));
  EXPECT_NO_THROW(make("x", "-1e300"));
  EXPECT_EQ(message_of([&] { make("n", "11"); }),
            "thing: parameter 'n' has value '11', expected an integer in [0, 10]");
  EXPECT_EQ(message_of([&] { make("n", "99999999999999999999"); }),
            "thing: parameter 'n' has value '99999999999999999999', expected an integer in [0, "
            "10]");
  for (const char* bad : {"nan", "inf", "-inf", "1e400", "1x"})
    EXPECT_EQ(message_of([&] { make("x", bad); }),
              std::string("thing: parameter 'x' has value '") + bad + "', expected a finite number")
        << bad;
}

/// Every registry's defaults satisfy their own rules, so a spec without parameters resolves.
TEST(Numbers, EveryRegistryDefaultIsValid) {
  auto check = [](const auto& registry) {
    for (const auto& entry : registry.entries()) {
      std::vector<std::pair<std::string, std::string>> defaults;
      for (const auto& param : entry.params)
        if (!param.default_value.empty()) defaults.emplace_back(param.key, param.default_value);
      EXPECT_NO_THROW(Params(entry.params, defaults, entry.name)) << entry.name;
    }
  };
  check(allocator_registry());
  check(scheduler_registry());
  check(transform_registry());
  check(runtime_model_registry());
  check(ordering_registry());
  check(geom::solver_registry());
  std::vector<std::pair<std::string, std::string>> defaults;
  for (const auto& param : synthetic_params())
    defaults.emplace_back(param.key, param.default_value);
  EXPECT_NO_THROW(Params(synthetic_params(), defaults, "synthetic"));
}
