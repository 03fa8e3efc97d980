#include <gtest/gtest.h>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/util/spec.hpp"

using namespace allocsim;

TEST(Spec, SplitsNameAndParametersKeepingCommaValues) {
  const AlgoSpec spec = AlgoSpec::parse("synthetic:jobs=10,size=uniform:1,64,arrival=exp:5");
  EXPECT_EQ(spec.name, "synthetic");
  ASSERT_EQ(spec.params.size(), 3u);
  EXPECT_EQ(spec.params[1].second, "uniform:1,64");
  EXPECT_EQ(spec.params[2].second, "exp:5");
  EXPECT_TRUE(AlgoSpec::parse("fcfs").params.empty());
}

TEST(Spec, UnknownNamesSuggestTheClosest) {
  try {
    allocator_registry().find("sortedfreelst");
    FAIL();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("did you mean 'sortedfreelist'"), std::string::npos) << message;
    EXPECT_NE(message.find("random"), std::string::npos) << message;
  }
}

TEST(Spec, UnknownKeyAndBadValueAreErrors) {
  EXPECT_THROW(scheduler_registry().resolve("easy:ordr=fifo"), InputError);
  EXPECT_THROW(scheduler_registry().resolve("easy:order=sideways"), InputError);
  EXPECT_EQ(scheduler_registry().canonical("easy"), "easy:order=fifo");
  EXPECT_EQ(allocator_registry().canonical("sortedfreelist:order=snake"),
            "sortedfreelist:order=snake");
}

TEST(Rng, IsDeterministicAndInRange) {
  Rng a(42), b(42);
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.uniform_int(3, 9);
    EXPECT_EQ(x, b.uniform_int(3, 9));
    EXPECT_GE(x, 3);
    EXPECT_LE(x, 9);
  }
  Rng c(7);
  double sum = 0;
  for (int i = 0; i < 20000; ++i) sum += c.exponential(2.0);
  EXPECT_NEAR(sum / 20000, 2.0, 0.1);
  EXPECT_NE(mix_seed(1, 2), mix_seed(2, 1));
  EXPECT_EQ(stable_hash("abc"), stable_hash("abc"));
}
