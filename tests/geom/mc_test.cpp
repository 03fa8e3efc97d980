// MC1x1 and MC: hand-made shells, a naive reference, and the (2 − 2/k)·d bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/mc.hpp"
#include "geom_test_util.hpp"

namespace allocsim::geom {
namespace {

int linf(const PointSet& p, int a, int b) {
  int worst = 0;
  for (int axis = 0; axis < p.dims(); ++axis)
    worst = std::max(worst, p.axis_distance(axis, p.coord(a, axis), p.coord(b, axis)));
  return worst;
}

/// MC1x1 with ShellTies::sum by its definition: per distinct centre, sort by (shell, L1, index),
/// cost = Σ shells, lexicographically least (cost, pairwise sum), first centre on full ties.
std::pair<std::int64_t, std::int64_t> naive_mc1x1(const PointSet& points, int k) {
  std::pair<std::int64_t, std::int64_t> best{std::numeric_limits<std::int64_t>::max(), 0};
  for (int c = 0; c < points.size(); ++c) {
    std::vector<int> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return std::make_pair(linf(points, a, c), points.distance(a, c)) <
             std::make_pair(linf(points, b, c), points.distance(b, c));
    });
    order.resize(k);
    std::int64_t cost = 0;
    for (const int p : order) cost += linf(points, p, c);
    const std::pair<std::int64_t, std::int64_t> value{cost, pairwise_sum_brute(points, order)};
    best = std::min(best, value);
  }
  return best;
}

/// MC1x1 with the paper's rules (ShellTies::first) by its definition: centres in input order,
/// points sorted by (shell, index), the first centre of least cost wins.
Selection naive_mc1x1_first(const PointSet& points, int k) {
  Selection best;
  std::int64_t best_cost = std::numeric_limits<std::int64_t>::max();
  for (int c = 0; c < points.size(); ++c) {
    std::vector<int> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return linf(points, a, c) < linf(points, b, c); });
    order.resize(k);
    std::int64_t cost = 0;
    for (const int p : order) cost += linf(points, p, c);
    if (cost >= best_cost) continue;
    best_cost = cost;
    std::sort(order.begin(), order.end());
    best.indices = order;
    best.sum = pairwise_sum_brute(points, order);
  }
  return best;
}

TEST(MC1x1, HandMadeShells) {
  // 3x3 block, k = 5: the edge centre (1,0) (index 1) has five points in shell 1 and the centre
  // (1,1) eight; both cost 4, so the first centre wins (under ShellTies::sum both sum 16 when
  // taking the L1-nearest of shell 1): (1,0) with the four lowest indices of its shell 1,
  // (0,0), (2,0), (0,1) and (1,1).
  const PointSet grid = testing::full_grid(3, 3);
  EXPECT_EQ(mc1x1(grid, 9).indices.size(), 9u);
  const Selection five = mc1x1(grid, 5);
  EXPECT_EQ(five.indices, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(five.sum, 16);
  // k = 4 around the corner (0,0): the whole shell 1 (cost 3), a 2x2 square.
  EXPECT_EQ(mc1x1(grid, 4).indices, (std::vector<int>{0, 1, 3, 4}));
  EXPECT_EQ(mc1x1(grid, 4).sum, 8);
  // Whole inner shells: an isolated pair far away loses to a dense corner.
  const PointSet points = PointSet::from_rows({{0, 0}, {1, 1}, {1, 0}, {9, 9}, {9, 8}});
  EXPECT_EQ(mc1x1(points, 3).indices, (std::vector<int>{0, 1, 2}));
}

TEST(MC1x1, MatchesDefinitionOnRandomInstances) {
  Rng rng(31);
  for (int trial = 0; trial < 240; ++trial) {
    const int dims = 1 + trial % 3;
    const int side = dims == 1 ? 20 : dims == 2 ? 6 : 4;
    std::vector<int> rings;
    if (trial % 8 >= 6) rings.assign(dims, side);
    // Odd trials: distinct points (the occupancy-grid path), even: multisets (the scan path).
    const PointSet points = trial % 2 ? testing::random_free_grid(rng, dims, side, 13, rings)
                                      : testing::random_points(rng, dims, 13, side, rings);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 9));
    const Selection fast = mc1x1(points, k, ShellTies::sum);
    const auto [cost, sum] = naive_mc1x1(points, k);
    EXPECT_EQ(fast.sum, sum) << "trial " << trial;
    EXPECT_EQ(pairwise_sum_brute(points, fast.indices), fast.sum);
    EXPECT_EQ(static_cast<int>(fast.indices.size()), k);
    // With every grid position as centre the cost can only improve; sums stay valid.
    std::vector<std::vector<int>> box(dims);
    for (auto& values : box)
      for (int c = 0; c < side; ++c) values.push_back(c);
    const Selection boxed = mc1x1_over_grid(points, k, box);
    EXPECT_EQ(pairwise_sum_brute(points, boxed.indices), boxed.sum);
    (void)cost;
    // The paper's rules: the same least cost, the first such centre.
    const Selection first = mc1x1(points, k);
    const Selection reference = naive_mc1x1_first(points, k);
    EXPECT_EQ(first.indices, reference.indices) << "trial " << trial;
    EXPECT_EQ(first.sum, reference.sum) << "trial " << trial;
  }
}

TEST(MC1x1, FirstCentreOfLeastCostWinsOverLowerSum) {
  // Two centres of shell cost 2: (1,1) first, with a diagonal (sum 8), and (6,0) later, in the
  // middle of a row (sum 4). The paper keeps the first; ShellTies::sum the lower sum.
  const PointSet points = PointSet::from_rows({{1, 1}, {2, 2}, {0, 0}, {5, 0}, {6, 0}, {7, 0}});
  const Selection first = mc1x1(points, 3);
  EXPECT_EQ(first.indices, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(first.sum, 8);
  const Selection sum = mc1x1(points, 3, ShellTies::sum);
  EXPECT_EQ(sum.indices, (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(sum.sum, 4);
}

TEST(MC1x1, PartialShellByIndexOrByL1) {
  // k = 2 around (0,0): its shell 1 holds the diagonal (1,1) (index 1) and the neighbour (1,0)
  // (index 2). The paper takes the lower index, ShellTies::sum the L1-nearest.
  const PointSet points = PointSet::from_rows({{0, 0}, {1, 1}, {1, 0}});
  EXPECT_EQ(mc1x1(points, 2).indices, (std::vector<int>{0, 1}));
  EXPECT_EQ(mc1x1(points, 2).sum, 2);
  EXPECT_EQ(mc1x1(points, 2, ShellTies::sum).indices, (std::vector<int>{0, 2}));
  EXPECT_EQ(mc1x1(points, 2, ShellTies::sum).sum, 1);
  // The same on a machine-sized grid (the occupancy-grid path): the first free point (0,0)
  // of a 5x5 mesh whose free set is (0,0), (1,1), (1,0) and a far corner block.
  const PointSet grid = PointSet::from_rows({{0, 0}, {1, 1}, {1, 0}, {4, 4}, {4, 3}, {3, 4}});
  EXPECT_EQ(mc1x1(grid, 2).indices, (std::vector<int>{0, 1}));
  EXPECT_EQ(mc1x1(grid, 2, ShellTies::sum).indices, (std::vector<int>{0, 2}));
}

TEST(MC1x1, ShellsPathMatchesDefinition) {
  // Many free processors and small k: L∞ shells of the grid around each centre.
  Rng rng(6);
  for (int trial = 0; trial < 40; ++trial) {
    const int dims = 2 + trial % 2;
    const int side = dims == 2 ? 10 : 5;
    std::vector<int> rings;
    if (trial % 4 >= 2) rings.assign(dims, side);
    const PointSet points = testing::random_free_grid(rng, dims, side, 64, rings);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 6));
    const Selection fast = mc1x1(points, k, ShellTies::sum);
    EXPECT_EQ(fast.sum, naive_mc1x1(points, k).second) << "trial " << trial;
    EXPECT_EQ(pairwise_sum_brute(points, fast.indices), fast.sum);
    EXPECT_EQ(mc1x1(points, k).indices, naive_mc1x1_first(points, k).indices) << "trial " << trial;
  }
}

TEST(MC1x1, WithinTwoMinusTwoOverKTimesDOfOptimum) {
  Rng rng(37);
  for (int trial = 0; trial < 60; ++trial) {
    const int dims = 1 + trial % 3;
    const int side = dims == 1 ? 40 : dims == 2 ? 8 : 4;
    const PointSet points = testing::random_free_grid(rng, dims, side, 18);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 8));
    const Selection opt = exact_optimum(points, k);
    ASSERT_TRUE(opt.proven);
    const Selection mc = mc1x1(points, k);
    EXPECT_LE(static_cast<double>(mc.sum),
              (2.0 - 2.0 / k) * dims * static_cast<double>(opt.sum) + 1e-9)
        << "trial " << trial;
  }
}

TEST(MC, ShapedShellZero) {
  // A free 2x3 block and a free 6x1 row: the 2x3 request fills the block at cost 0.
  std::vector<std::vector<int>> rows;
  for (int x = 0; x < 6; ++x) rows.push_back({x, 0});
  for (int y = 3; y < 6; ++y)
    for (int x = 2; x < 4; ++x) rows.push_back({x, y});
  const PointSet points = PointSet::from_rows(rows);
  const Selection block = mc_shaped(points, 6, {2, 3});
  EXPECT_EQ(block.indices, (std::vector<int>{6, 7, 8, 9, 10, 11}));
  // The same request rotated (3x2) is also tried: a 3-wide, 2-high block is found too.
  const Selection rotated = mc_shaped(points, 6, {3, 2});
  EXPECT_EQ(rotated.indices, block.indices);
  // A 6x1 request prefers the row.
  const Selection row = mc_shaped(points, 6, {6, 1});
  EXPECT_EQ(row.indices, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  // 1x1 shape is MC1x1.
  EXPECT_EQ(mc_shaped(points, 4, {1, 1}).sum, mc1x1(points, 4).sum);
}

}  // namespace
}  // namespace allocsim::geom
