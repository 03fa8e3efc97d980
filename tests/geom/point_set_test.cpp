// Point sets, pairwise sums (mesh and ring axes), selection by counting, window lower bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/point_set.hpp"
#include "allocsim/geom/solve.hpp"
#include "allocsim/util/error.hpp"
#include "geom_test_util.hpp"

namespace allocsim::geom {
namespace {

TEST(PointSet, DistancesOnLinesAndRings) {
  const PointSet mesh = PointSet::from_rows({{0, 0}, {3, 4}});
  EXPECT_EQ(mesh.distance(0, 1), 7);
  const PointSet torus = PointSet::from_rows({{0, 0}, {3, 4}}, {4, 5});
  EXPECT_EQ(torus.distance(0, 1), 1 + 1);  // 3 -> 1 on a ring of 4, 4 -> 1 on a ring of 5
  const int location[2] = {2, 2};
  EXPECT_EQ(mesh.distance_to(1, location), 3);
}

TEST(PointSet, RejectsBadInput) {
  PointSet points(2);
  const int three[3] = {1, 2, 3};
  EXPECT_THROW(points.add(three), InputError);
  PointSet ring(1, {4});
  const int outside[1] = {4};
  EXPECT_THROW(ring.add(outside), InputError);
  EXPECT_THROW(PointSet(2, {3}), InputError);
}

TEST(PairwiseSum, HandComputed) {
  // Square of side 1: four sides of 1 and two diagonals of 2.
  const PointSet square = PointSet::from_rows({{0, 0}, {1, 0}, {0, 1}, {1, 1}});
  const std::vector<int> all{0, 1, 2, 3};
  EXPECT_EQ(pairwise_sum(square, all), 8);
  // Ring of 6: values 0, 1, 5 -> distances 1, 1, 2.
  const std::vector<int> values{0, 1, 5};
  EXPECT_EQ(sorted_axis_pair_sum(values, 6), 4);
  EXPECT_EQ(sorted_axis_pair_sum(values, 0), 1 + 5 + 4);
}

TEST(PairwiseSum, MatchesBruteForceOnMeshesAndTori) {
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int dims = 1 + trial % 3;
    std::vector<int> rings(dims, 0);
    if (trial % 2) rings.assign(dims, 2 + static_cast<int>(rng.uniform_int(0, 7)));
    const int side = trial % 2 ? rings[0] : 9;
    const PointSet points = testing::random_points(rng, dims, 12, side, rings);
    std::vector<int> chosen;
    for (int i = 0; i < points.size(); ++i)
      if (rng.uniform_int(0, 2) != 0) chosen.push_back(i);
    EXPECT_EQ(pairwise_sum(points, chosen), pairwise_sum_brute(points, chosen));
  }
}

TEST(SelectSmallestKeys, TiesGoToLowerIndex) {
  const std::vector<std::int32_t> keys{3, 1, 2, 1, 2, 0};
  std::vector<int> histogram, out;
  select_smallest_keys(keys, 3, 3, histogram, out);
  EXPECT_EQ(out, (std::vector<int>{1, 3, 5}));
  select_smallest_keys(keys, 4, 3, histogram, out);
  EXPECT_EQ(out, (std::vector<int>{1, 2, 3, 5}));
  // Wide key range takes the pair-selection path, same rule.
  const std::vector<std::int32_t> wide{900000, 5, 900000, 5, 7};
  select_smallest_keys(wide, 3, 900000, histogram, out);
  EXPECT_EQ(out, (std::vector<int>{1, 3, 4}));
}

TEST(AxisWindowLowerBound, NeverAboveTheOptimumAndExactIn1D) {
  Rng rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    const int dims = 1 + trial % 3;
    const PointSet points = testing::random_points(rng, dims, 10, 6);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 6));
    const auto opt = brute_force_optimum(points, k);
    const auto bound = axis_window_lower_bound(points, k);
    EXPECT_LE(bound, opt.sum);
    if (dims == 1) {
      EXPECT_EQ(bound, opt.sum);  // in 1D the best subset is a window
    }
  }
}

TEST(DistinctPointsLowerBound, IsTheUnconstrainedOptimumAndValid) {
  // 1D: k consecutive integers. 2D: the exact optimum on a large empty grid.
  for (int k = 1; k <= 12; ++k) {
    std::vector<std::vector<int>> line;
    for (int x = 0; x < 20; ++x) line.push_back({x});
    EXPECT_EQ(distinct_points_lower_bound(1, k), exact_optimum(PointSet::from_rows(line), k).sum);
    EXPECT_EQ(distinct_points_lower_bound(2, k), exact_optimum(testing::full_grid(14, 14), k).sum);
  }
  // Valid (never above the optimum) for random distinct points, also beyond the table.
  Rng rng(13);
  for (int trial = 0; trial < 30; ++trial) {
    const PointSet points = testing::random_free_grid(rng, 2, 9, 30);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 10));
    EXPECT_LE(distinct_points_lower_bound(2, k), exact_optimum(points, k).sum);
  }
  EXPECT_EQ(distinct_points_lower_bound(2, 39), 3040);  // Demaine et al. 2011, Table 1
  EXPECT_GE(distinct_points_lower_bound(2, 50), distinct_points_lower_bound(2, 49));
  EXPECT_EQ(distinct_points_lower_bound(3, 8), 48);  // the 2x2x2 cube
  EXPECT_EQ(distinct_points_lower_bound(4, 8), 0);
}

TEST(LeastShellCost, FillsInnerShellsFirst) {
  EXPECT_EQ(least_shell_cost(2, 1), 0);
  EXPECT_EQ(least_shell_cost(2, 9), 8);
  EXPECT_EQ(least_shell_cost(2, 10), 10);
  EXPECT_EQ(least_shell_cost(1, 3), 2);
  EXPECT_EQ(least_shell_cost(3, 27), 26);
  EXPECT_TRUE(all_distinct(testing::full_grid(3, 3)));
  EXPECT_FALSE(all_distinct(PointSet::from_rows({{1, 2}, {0, 0}, {1, 2}})));
}

TEST(PointSet, GatheredRowsEqualTheRowsAndAreChecked) {
  // A per-node table of a 2x3 torus-by-line machine (axis 0 a ring of 2), node-major.
  const std::vector<int> table = {0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 1, 2};
  PointSet gathered(2, {2, 0}), rows(2, {2, 0});
  gathered.add_gathered(table, std::vector<int>{5, 0, 3});
  rows.add_rows(std::vector<int>{1, 2, 0, 0, 1, 1});
  ASSERT_EQ(gathered.size(), 3);
  for (int i = 0; i < 3; ++i)
    for (int axis = 0; axis < 2; ++axis)
      EXPECT_EQ(gathered.coord(i, axis), rows.coord(i, axis)) << i << " " << axis;
  // A node outside the table, or a coordinate outside its ring: refused, nothing appended.
  EXPECT_THROW(gathered.add_gathered(table, std::vector<int>{1, 6}), InputError);
  EXPECT_THROW(gathered.add_gathered(table, std::vector<int>{-1}), InputError);
  EXPECT_THROW(gathered.add_gathered(std::vector<int>{0, 0, 2, 0}, std::vector<int>{0, 1}),
               InputError);
  EXPECT_EQ(gathered.size(), 3);
  // Three axes (the unrolled copy) and one axis (the general copy).
  PointSet cube(3);
  cube.add_gathered(std::vector<int>{0, 0, 0, 4, 5, 6}, std::vector<int>{1, 1});
  EXPECT_EQ(cube.size(), 2);
  EXPECT_EQ(cube.coord(1, 2), 6);
  PointSet line(1);
  line.add_gathered(std::vector<int>{7, 8, 9}, std::vector<int>{2, 0});
  EXPECT_EQ(line.coord(0, 0), 9);
  EXPECT_EQ(line.coord(1, 0), 7);
}

TEST(Solve, ParsesDurationsAndMethods) {
  EXPECT_DOUBLE_EQ(parse_duration_seconds("10s"), 10);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("500ms"), 0.5);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("2m"), 120);
  EXPECT_DOUBLE_EQ(parse_duration_seconds("1.5"), 1.5);
  EXPECT_THROW(parse_duration_seconds("soon"), InputError);
  EXPECT_THROW(parse_duration_seconds("3 days"), InputError);
  const PointSet grid = testing::full_grid(6, 6);
  EXPECT_EQ(solve("exact", grid, 4, {}).sum, 8);
  EXPECT_EQ(solve("mc:shape=2x2", grid, 4, {}).sum, 8);
  EXPECT_EQ(solve("ptas:m=2", grid, 2, {}).sum, 1);
  EXPECT_FALSE(solve("mm", grid, 4, {}).proven);
  EXPECT_THROW(solve("mmm", grid, 4, {}), InputError);
  EXPECT_THROW(solve("ptas:n=3", grid, 4, {}), InputError);
  EXPECT_THROW(solve("exact", grid, 37, {}), InputError);
}

}  // namespace
}  // namespace allocsim::geom
