// PTAS: its stated guarantee against the exact optimum, budgets and small cases.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/ptas.hpp"
#include "geom_test_util.hpp"

namespace allocsim::geom {
namespace {

TEST(Ptas, GuaranteeFactor) {
  EXPECT_LE(ptas_guarantee_factor(3), 0);
  EXPECT_LE(ptas_guarantee_factor(4), 0);  // 1 − 1/2 − 2/3 < 0: no guarantee yet
  EXPECT_NEAR(ptas_guarantee_factor(5), 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(ptas_guarantee_factor(10), 1.0 - 1.0 / 8.0 - 2.0 / 9.0, 1e-12);
}

TEST(Ptas, WithinItsBoundOnRandomInstances) {
  Rng rng(41);
  for (int trial = 0; trial < 24; ++trial) {
    const int m = 5 + trial % 2;  // the first m with a guarantee: factor 1/6, then ≈ 0.35
    const int dims = 1 + (trial / 2) % 2;
    const PointSet points = testing::random_free_grid(rng, dims, dims == 1 ? 30 : 6, 12);
    const int k = 5 + static_cast<int>(rng.uniform_int(0, 3));  // k >= m: every slab used
    const Selection opt = exact_optimum(points, k);
    const Selection apx = ptas(points, k, m);
    ASSERT_TRUE(apx.proven) << "trial " << trial;
    EXPECT_EQ(static_cast<int>(apx.indices.size()), k);
    EXPECT_EQ(pairwise_sum_brute(points, apx.indices), apx.sum);
    EXPECT_GE(apx.sum, opt.sum);
    EXPECT_LE(static_cast<double>(apx.sum) * ptas_guarantee_factor(m),
              static_cast<double>(opt.sum) + 1e-9)
        << "trial " << trial;
    EXPECT_LE(apx.lower_bound, opt.sum);  // the proven bound sum·factor never exceeds OPT
  }
}

TEST(Ptas, SmallMIsValidAndOftenOptimal) {
  Rng rng(43);
  int optimal = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const PointSet points = testing::random_free_grid(rng, 2, 7, 14);
    const int k = 3 + static_cast<int>(rng.uniform_int(0, 5));
    const Selection opt = exact_optimum(points, k);
    const Selection apx = ptas(points, k, 3);
    EXPECT_TRUE(apx.proven);
    EXPECT_GE(apx.sum, opt.sum);
    EXPECT_EQ(pairwise_sum_brute(points, apx.indices), apx.sum);
    optimal += apx.sum == opt.sum;
  }
  EXPECT_GE(optimal, 20);
}

TEST(Ptas, OnePointPerSlabInOneDimension) {
  // m = k in 1D: each slab holds one chosen point; the window {3,4,5} is found.
  const PointSet points = PointSet::from_rows({{0}, {3}, {4}, {5}, {9}, {10}});
  const Selection apx = ptas(points, 3, 3);
  EXPECT_EQ(apx.sum, 4);
  EXPECT_EQ(apx.indices, (std::vector<int>{1, 2, 3}));
}

TEST(Ptas, BudgetStopsEarly) {
  const PointSet mesh = testing::full_grid(10, 10);
  Budget budget;
  budget.nodes = 50;
  bool completed = true;
  const Selection apx = ptas(mesh, 8, 4, budget, &completed);
  EXPECT_FALSE(completed);
  EXPECT_FALSE(apx.proven);
  EXPECT_EQ(static_cast<int>(apx.indices.size()), 8);
  EXPECT_EQ(pairwise_sum_brute(mesh, apx.indices), apx.sum);
}

}  // namespace
}  // namespace allocsim::geom
