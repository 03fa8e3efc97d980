// Exact optimum: brute force agreement, published unconstrained sums, budgets, tori.
#include <gtest/gtest.h>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "geom_test_util.hpp"

namespace allocsim::geom {
namespace {

TEST(Exact, EqualsBruteForceOnSixHundredSmallInstances) {
  Rng rng(2024);
  int compared = 0;
  for (int trial = 0; trial < 600; ++trial) {
    const int dims = 1 + trial % 3;
    const int n = 3 + static_cast<int>(rng.uniform_int(0, 11));  // n <= 14
    const int side = 2 + static_cast<int>(rng.uniform_int(0, 6));
    const PointSet points = testing::random_points(rng, dims, n, side);  // duplicates allowed
    const int k = 1 + static_cast<int>(rng.uniform_int(0, n - 1));
    const Selection exact = exact_optimum(points, k);
    const Selection brute = brute_force_optimum(points, k);
    ASSERT_TRUE(exact.proven);
    EXPECT_EQ(exact.sum, brute.sum) << "trial " << trial;
    EXPECT_EQ(exact.lower_bound, exact.sum);
    EXPECT_EQ(static_cast<int>(exact.indices.size()), k);
    EXPECT_EQ(pairwise_sum_brute(points, exact.indices), exact.sum);
    ++compared;
  }
  EXPECT_EQ(compared, 600);
}

TEST(Exact, EqualsBruteForceOnTori) {
  Rng rng(99);
  for (int trial = 0; trial < 150; ++trial) {
    const int dims = 1 + trial % 3;
    const int ring = 3 + static_cast<int>(rng.uniform_int(0, 5));
    std::vector<int> rings(dims, ring);
    if (dims > 1) rings[0] = 0;  // a semitorus: one mesh axis
    const PointSet points = testing::random_points(rng, dims, 12, ring, rings);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 8));
    const Selection exact = exact_optimum(points, k);
    ASSERT_TRUE(exact.proven);
    EXPECT_EQ(exact.sum, brute_force_optimum(points, k).sum) << "trial " << trial;
  }
}

TEST(Exact, FullTorusIsTranslationInvariant) {
  // An empty 6x6 torus: 4 points form a 2x2 square (sum 8) wherever they are.
  PointSet torus(2, {6, 6});
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 6; ++x) {
      const int p[2] = {x, y};
      torus.add(p);
    }
  const Selection exact = exact_optimum(torus, 4);
  EXPECT_TRUE(exact.proven);
  EXPECT_EQ(exact.sum, 8);
}

TEST(Exact, PublishedUnconstrainedSumsOnAnEmptyMesh) {
  // Bender et al., Figure 2: optimal sums of pairwise distances of k points on the free grid.
  const std::vector<std::int64_t> published{1, 4, 8, 16, 25, 38, 54, 72, 96};
  const PointSet mesh = testing::full_grid(20, 20);
  for (int k = 2; k <= 10; ++k) {
    const Selection exact = exact_optimum(mesh, k);
    ASSERT_TRUE(exact.proven) << "k = " << k;
    EXPECT_EQ(exact.sum, published[k - 2]) << "k = " << k;
    EXPECT_EQ(pairwise_sum_brute(mesh, exact.indices), exact.sum);
  }
}

TEST(Exact, PublishedUnconstrainedSumsInThreeDimensions) {
  // OEIS A290190 (optimal 3D n-towns), k = 2 … 10, on an empty 4x4x4 mesh.
  const std::vector<std::int64_t> published{1, 4, 8, 16, 25, 36, 48, 68, 89};
  PointSet cube(3);
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int p[3] = {x, y, z};
        cube.add(p);
      }
  for (int k = 2; k <= 10; ++k) {
    const Selection exact = exact_optimum(cube, k);
    ASSERT_TRUE(exact.proven) << "k = " << k;
    EXPECT_EQ(exact.sum, published[k - 2]) << "k = " << k;
  }
}

TEST(Exact, BudgetGivesBestFoundAndAValidLowerBound) {
  const PointSet mesh = testing::full_grid(12, 12);
  ExactOptions options;
  options.budget.nodes = 5;
  options.russian_doll = false;
  const Selection limited = exact_optimum(mesh, 20, options);
  EXPECT_FALSE(limited.proven);
  EXPECT_LE(limited.lower_bound, 563);  // the optimum for k = 20
  EXPECT_GE(limited.sum, 563);
  EXPECT_LE(limited.sum, mm_inc(mesh, 20).sum);
  EXPECT_EQ(static_cast<int>(limited.indices.size()), 20);
  // Known bounds for smaller k are used instead of recomputing them.
  ExactOptions known;
  known.known_bounds = {0, 0, 1, 4, 8, 16, 25, 38, 54, 72};
  const Selection ten = exact_optimum(mesh, 10, known);
  EXPECT_TRUE(ten.proven);
  EXPECT_EQ(ten.sum, 96);
}

TEST(Exact, RandomFreeProcessorsOfAMesh) {
  // Situations like greedy-optimal's: a 10x10 mesh with half the processors busy.
  Rng rng(5);
  for (int trial = 0; trial < 6; ++trial) {
    const PointSet points = testing::random_free_grid(rng, 2, 10, 50);
    const int k = 6 + trial;
    const Selection exact = exact_optimum(points, k);
    ASSERT_TRUE(exact.proven);
    EXPECT_LE(exact.sum, mm_inc(points, k).sum);
    EXPECT_EQ(pairwise_sum_brute(points, exact.indices), exact.sum);
  }
}

TEST(Exact, WidthBound) {
  // k = 10 with an incumbent of 96: widths 1..7 cost at least 0, 9, 18, 34, 50, 71, 92.
  EXPECT_EQ(max_optimal_width(10, 96), 7);
  EXPECT_EQ(max_optimal_width(10, 91), 6);
  EXPECT_EQ(max_optimal_width(2, 1), 2);
  EXPECT_EQ(max_optimal_width(3, 1), 1);
}

}  // namespace
}  // namespace allocsim::geom
