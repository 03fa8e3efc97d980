// The paired and unpaired intervals of the reproduce studies (src/sweep/reproduce/series.cpp)
// against hand-computed Student-t intervals.
#include <gtest/gtest.h>

#include <cmath>

#include "studies.hpp"

namespace allocsim::sweep::measure {
namespace {

// t(0.975, 2) = 4.302652729749464 (tables; Boost.Math gives it to the last digit).
constexpr double kT2 = 4.302652729749464;

TEST(ReproducePaired, DifferencesOverCommonReplicatesOnly) {
  // Replicate 3 exists only in b: it is left out. Differences 1, 2, 0: mean 1, s = 1.
  const std::map<int, double> a{{0, 10}, {1, 12}, {2, 11}};
  const std::map<int, double> b{{0, 9}, {1, 10}, {2, 11}, {3, 50}};
  const Interval d = paired_difference(a, b);
  EXPECT_EQ(d.count, 3);
  EXPECT_DOUBLE_EQ(d.mean, 1);
  EXPECT_NEAR(d.half, kT2 / std::sqrt(3.0), 1e-12);
  EXPECT_FALSE(d.above_zero());  // 1 - 2.48 < 0
  EXPECT_FALSE(d.below_zero());
}

TEST(ReproducePaired, PairingRemovesTheSharedNoise) {
  // Two strategies on three job streams of very different difficulty: unpaired intervals
  // overlap, the paired differences (5, 6, 7) are clearly above 0.
  const std::map<int, double> worse{{0, 105}, {1, 206}, {2, 307}};
  const std::map<int, double> better{{0, 100}, {1, 200}, {2, 300}};
  const Interval w = mean_interval({105, 206, 307}), b = mean_interval({100, 200, 300});
  EXPECT_GT(w.mean - w.half, b.mean - b.half);
  EXPECT_LT(w.mean - w.half, b.mean + b.half);  // the intervals overlap
  const Interval d = paired_difference(worse, better);
  EXPECT_DOUBLE_EQ(d.mean, 6);
  EXPECT_NEAR(d.half, kT2 / std::sqrt(3.0), 1e-12);
  EXPECT_TRUE(d.above_zero());
  EXPECT_TRUE(paired_difference(better, worse).below_zero());
}

TEST(ReproducePaired, OneReplicateDecidesNothing) {
  const Interval d = paired_difference({{0, 1}}, {{0, 5}});
  EXPECT_EQ(d.count, 1);
  EXPECT_FALSE(d.below_zero());
  EXPECT_FALSE(d.above_zero());
}

}  // namespace
}  // namespace allocsim::sweep::measure
