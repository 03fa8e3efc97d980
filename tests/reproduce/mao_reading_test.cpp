// Readings of the Mao et al. study (src/sweep/reproduce/mao_reading.hpp) on hand-made curves.
#include "mao_reading.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace allocsim::sweep::measure::mao_reading {
namespace {

/// Utilization follows load up to 0.55, then stays there (the shape of the paper's Fig. 7).
std::vector<CurvePoint> flattening() {
  std::vector<CurvePoint> curve;
  for (int i = 1; i <= 10; ++i) {
    const double load = 0.1 * i;
    curve.push_back({0.2 * i, std::min(load, 0.55) - 0.002, 1 + 20 * load * load, load});
  }
  return curve;
}

TEST(MaoReading, SaturationIsWhereUtilizationStopsFollowingLoad) {
  // Paper, Section 4.4: "The system utilization for FCFS with the Equal Partition saturates at
  // 55% starting at a low system load value of 0.56."
  const Saturation s = load_saturation(flattening(), 0.02);
  EXPECT_EQ(s.kind, Saturation::crossing);
  // Gap 0.002 at load 0.5, 0.052 at 0.6: 0.02 is crossed 0.36 of the way, at load 0.536.
  EXPECT_NEAR(s.load, 0.536, 1e-9);
  EXPECT_NEAR(s.utilization, 0.498 + 0.36 * 0.05, 1e-9);
  // A larger margin reads later and higher, never above the plateau.
  const Saturation wide = load_saturation(flattening(), 0.10);
  EXPECT_GT(wide.load, s.load);
  EXPECT_LE(wide.utilization, 0.548 + 1e-12);
}

TEST(MaoReading, BoundsAreMarked) {
  auto curve = flattening();
  EXPECT_EQ(load_saturation(curve, 0.9).kind, Saturation::at_least);
  EXPECT_NEAR(load_saturation(curve, 0.9).utilization, 0.548, 1e-12);
  for (auto& p : curve) p.utilization = p.load / 2;
  EXPECT_EQ(load_saturation(curve, 0.02).kind, Saturation::at_most);
  EXPECT_TRUE(std::isnan(load_saturation({}, 0.02).utilization));
}

TEST(MaoReading, SlowdownCrossing) {
  // Slowdown 1 + 20 L^2 passes 10 between L = 0.6 (8.2) and 0.7 (10.8).
  const Saturation s = slowdown_saturation(flattening(), 10);
  EXPECT_EQ(s.kind, Saturation::crossing);
  EXPECT_NEAR(s.load, 0.6 + 0.1 * 1.8 / 2.6, 1e-9);
}

TEST(MaoReading, SimilarSlowdownIsTheLargestRatioUpToALevel) {
  // Paper, Section 4.4: "All four processor allocation and job scheduling combinations provide
  // similar mean job bounded slowdown for utilization up to 50%."
  auto a = flattening(), b = flattening();
  for (auto& p : b) p.slowdown *= p.load < 0.35 ? 3 : 1.5;
  // Compared at the c values where both curves are at or below 50 %: loads 0.1 ... 0.5.
  EXPECT_NEAR(slowdown_spread({a, b}, 0.50), 3, 1e-12);
  EXPECT_NEAR(slowdown_spread({a, a}, 0.50), 1, 1e-12);
  EXPECT_TRUE(std::isnan(slowdown_spread({a, b}, 0.01)));
}

}  // namespace
}  // namespace allocsim::sweep::measure::mao_reading
