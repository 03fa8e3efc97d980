// PassTimes (sched/pass_times.hpp) against a sorted multiset on random monotone operations:
// pushes after the last time popped (with duplicates, negative times, integer and fractional
// times, and times far apart so that keys land in every bucket), pops up to a random now, and
// the minimum after every operation.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "allocsim/sched/pass_times.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim {
namespace {

TEST(PassTimes, SameAsASortedMultisetOnRandomMonotoneOperations) {
  Rng rng(2811);
  for (int round = 0; round < 300; ++round) {
    PassTimes fast;
    std::multiset<double> plain;
    double now = round % 3 == 0 ? -1000.0 : 0.0;
    const double scale = round % 4 == 0 ? 1e9 : round % 4 == 1 ? 10.0 : 1e4;
    for (int step = 0; step < 400; ++step) {
      const double draw = rng.uniform();
      if (draw < 0.55) {
        // A time after now: an integer offset, an earlier time pushed again, or a fraction.
        double time = now + 1 + static_cast<double>(rng.uniform_int(0, 20)) * scale / 20;
        if (draw < 0.1 && !plain.empty()) time = *plain.rbegin();
        if (draw > 0.5) time = now + rng.uniform() * scale + 1e-9;
        if (!(time > now)) continue;
        fast.push(time);
        plain.insert(time);
      } else {
        // Now moves forward, sometimes to exactly a pending time.
        now = draw < 0.7 && !plain.empty() ? *plain.begin() : now + rng.uniform() * scale / 5;
        fast.pop_until(now);
        plain.erase(plain.begin(), plain.upper_bound(now));
      }
      ASSERT_EQ(fast.size(), plain.size()) << "round " << round << " step " << step;
      ASSERT_EQ(fast.empty(), plain.empty());
      if (!plain.empty()) {
        ASSERT_EQ(fast.min(), *plain.begin()) << "round " << round;
      }
    }
    fast.clear();
    EXPECT_TRUE(fast.empty());
  }
}

TEST(PassTimes, HandWorkedCase) {
  PassTimes times;
  times.push(5);
  times.push(3);
  times.push(5);
  times.push(100);
  EXPECT_EQ(times.min(), 3);
  times.pop_until(3);  // 3 reached
  EXPECT_EQ(times.size(), 3u);
  EXPECT_EQ(times.min(), 5);
  times.push(4);  // after now (3), before the pending minimum
  EXPECT_EQ(times.min(), 4);
  times.pop_until(5);  // 4 and both 5s
  EXPECT_EQ(times.size(), 1u);
  EXPECT_EQ(times.min(), 100);
  times.pop_until(1000);
  EXPECT_TRUE(times.empty());
}

}  // namespace
}  // namespace allocsim
