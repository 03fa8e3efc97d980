// MM, Gen-Alg and MM+Inc: hand-made cases, a naive reference, the paper's tight example and its
// approximation bounds against the exact optimum.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mm.hpp"
#include "geom_test_util.hpp"

namespace allocsim::geom {
namespace {

/// MM by its definition: every centre of the candidate grid, all points sorted by
/// (L1 distance, index), the first k, brute-force pairwise sum; first strict best wins.
Selection naive_nearest(const PointSet& points, int k, const std::vector<std::vector<int>>& grid) {
  const int d = points.dims();
  Selection best;
  best.sum = std::numeric_limits<std::int64_t>::max();
  std::vector<int> pos(d, 0), centre(d);
  while (true) {
    for (int axis = 0; axis < d; ++axis) centre[axis] = grid[axis][pos[axis]];
    std::vector<int> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return points.distance_to(a, centre) < points.distance_to(b, centre);
    });
    order.resize(k);
    std::sort(order.begin(), order.end());
    const auto sum = pairwise_sum_brute(points, order);
    if (sum < best.sum) best.sum = sum, best.indices = order;
    int axis = 0;
    while (axis < d && ++pos[axis] == static_cast<int>(grid[axis].size())) pos[axis++] = 0;
    if (axis == d) break;
  }
  return best;
}

std::vector<std::vector<int>> intersections(const PointSet& points) {
  std::vector<std::vector<int>> grid(points.dims());
  for (int axis = 0; axis < points.dims(); ++axis) {
    for (int i = 0; i < points.size(); ++i) grid[axis].push_back(points.coord(i, axis));
    std::sort(grid[axis].begin(), grid[axis].end());
    grid[axis].erase(std::unique(grid[axis].begin(), grid[axis].end()), grid[axis].end());
  }
  return grid;
}

TEST(ManhattanMedian, HandMadeLShape) {
  // Free processors of an L: around the first centre (0,0) the nearest three are the corner
  // {(0,0), (1,0), (0,1)} (ties at distance 1 by index); the line around (1,0) also sums 4 but
  // a later centre must be strictly better to win.
  const PointSet points = PointSet::from_rows({{0, 0}, {1, 0}, {2, 0}, {0, 1}, {0, 2}, {5, 5}});
  const Selection mm = manhattan_median(points, 3);
  EXPECT_EQ(mm.sum, 4);
  EXPECT_EQ(mm.indices, (std::vector<int>{0, 1, 3}));
  const std::vector<int> all{0, 1, 2, 3, 4, 5};
  EXPECT_EQ(manhattan_median(points, 6).sum, pairwise_sum_brute(points, all));
  EXPECT_EQ(manhattan_median(points, 1).indices.size(), 1u);
  EXPECT_EQ(manhattan_median(points, 1).sum, 0);
}

TEST(ManhattanMedian, KNearestBreaksTiesByIndex) {
  const PointSet points = PointSet::from_rows({{2, 0}, {0, 2}, {1, 1}, {1, 0}});
  const int centre[2] = {1, 1};
  EXPECT_EQ(k_nearest(points, centre, 1), (std::vector<int>{2}));
  EXPECT_EQ(k_nearest(points, centre, 2), (std::vector<int>{2, 3}));  // (1,0) at distance 1
  EXPECT_EQ(k_nearest(points, centre, 3), (std::vector<int>{0, 2, 3}));
}

TEST(ManhattanMedian, MatchesDefinitionOnRandomInstances) {
  Rng rng(3);
  for (int trial = 0; trial < 240; ++trial) {
    const int dims = 1 + trial % 3;
    const int side = dims == 1 ? 20 : dims == 2 ? 7 : 4;
    std::vector<int> rings;
    if (trial % 8 >= 6) rings.assign(dims, side);
    // Odd trials: distinct points (free processors; the occupancy-grid path), even: multisets.
    const PointSet points = trial % 2 ? testing::random_free_grid(rng, dims, side, 14, rings)
                                      : testing::random_points(rng, dims, 14, side, rings);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 10));
    const Selection fast = manhattan_median(points, k);
    const Selection slow = naive_nearest(points, k, intersections(points));
    EXPECT_EQ(fast.sum, slow.sum) << "trial " << trial;
    EXPECT_EQ(fast.indices, slow.indices) << "trial " << trial;
    EXPECT_EQ(pairwise_sum_brute(points, fast.indices), fast.sum);
    // Every machine position as centre: never worse than the intersections.
    std::vector<std::vector<int>> box(dims);
    for (auto& values : box)
      for (int c = 0; c < side; ++c) values.push_back(c);
    const Selection boxed = nearest_best_over_grid(points, k, box);
    EXPECT_EQ(boxed.sum, naive_nearest(points, k, box).sum);
  }
}

/// MM over an explicit list of centres, visited in list order (k nearest by (L1, index)).
Selection naive_over_centres(const PointSet& points, int k,
                             const std::vector<std::vector<int>>& centres) {
  Selection best;
  best.sum = std::numeric_limits<std::int64_t>::max();
  for (const auto& centre : centres) {
    const std::vector<int> chosen = k_nearest(points, centre, k);
    const auto sum = pairwise_sum_brute(points, chosen);
    if (sum < best.sum) best.sum = sum, best.indices = chosen;
  }
  return best;
}

/// PReMAS's centre order: x slowest, each axis's values in order of first appearance.
std::vector<std::vector<int>> premas_centres(const PointSet& points) {
  std::vector<std::vector<int>> values(points.dims());
  for (int axis = 0; axis < points.dims(); ++axis)
    for (int i = 0; i < points.size(); ++i) {
      const int v = points.coord(i, axis);
      if (std::find(values[axis].begin(), values[axis].end(), v) == values[axis].end())
        values[axis].push_back(v);
    }
  std::vector<std::vector<int>> centres{{}};
  for (int axis = 0; axis < points.dims(); ++axis) {  // x first = outermost
    std::vector<std::vector<int>> longer;
    for (const auto& prefix : centres)
      for (const int v : values[axis]) {
        longer.push_back(prefix);
        longer.back().push_back(v);
      }
    centres = std::move(longer);
  }
  return centres;
}

TEST(ManhattanMedian, PremasCentreOrderDecidesEqualSums) {
  // Two pairs at distance 1 each: every order finds sum 1; sorted order (x fastest, ascending)
  // meets (0,0) first, PReMAS's order meets the first point's coordinates (5,5) first.
  const PointSet points = PointSet::from_rows({{5, 5}, {6, 5}, {0, 0}, {1, 0}});
  EXPECT_EQ(manhattan_median(points, 2).indices, (std::vector<int>{2, 3}));
  EXPECT_EQ(manhattan_median(points, 2, CentreOrder::premas).indices, (std::vector<int>{0, 1}));
  // A vertical pair at x = 0 (y 1, 2) listed first, then a horizontal pair at y = 0 (x 1, 2):
  // sorted order meets (0,0) (sum 2) and then (1,0), the horizontal pair (sum 1); PReMAS's
  // order (x slowest, y values 1, 2, 0) meets (0,1) first, the vertical pair (sum 1).
  const PointSet pairs = PointSet::from_rows({{0, 1}, {0, 2}, {1, 0}, {2, 0}});
  EXPECT_EQ(manhattan_median(pairs, 2).indices, (std::vector<int>{2, 3}));
  const Selection premas = manhattan_median(pairs, 2, CentreOrder::premas);
  EXPECT_EQ(premas.indices, (std::vector<int>{0, 1}));
  EXPECT_EQ(premas.sum, 1);
}

TEST(ManhattanMedian, PremasOrderMatchesDefinition) {
  Rng rng(8);
  for (int trial = 0; trial < 120; ++trial) {
    const int dims = 1 + trial % 3;
    const int side = dims == 1 ? 20 : dims == 2 ? 7 : 4;
    const PointSet points = trial % 2 ? testing::random_free_grid(rng, dims, side, 14)
                                      : testing::random_points(rng, dims, 14, side);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 10));
    const Selection fast = manhattan_median(points, k, CentreOrder::premas);
    const Selection slow = naive_over_centres(points, k, premas_centres(points));
    EXPECT_EQ(fast.indices, slow.indices) << "trial " << trial;
    EXPECT_EQ(fast.sum, slow.sum) << "trial " << trial;
  }
}

TEST(ManhattanMedian, RingsPathMatchesDefinition) {
  // Many free processors and small k: the nearest points are found by L1 rings of the grid.
  Rng rng(4);
  for (int trial = 0; trial < 40; ++trial) {
    const int dims = 2 + trial % 2;
    const int side = dims == 2 ? 10 : 5;
    std::vector<int> rings;
    if (trial % 4 >= 2) rings.assign(dims, side);
    const PointSet points = testing::random_free_grid(rng, dims, side, 64, rings);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 6));
    const Selection fast = manhattan_median(points, k);
    const Selection slow = naive_nearest(points, k, intersections(points));
    EXPECT_EQ(fast.sum, slow.sum) << "trial " << trial;
    EXPECT_EQ(fast.indices, slow.indices) << "trial " << trial;
  }
}

TEST(GenAlg, IsMMWithPointCentres) {
  Rng rng(5);
  for (int trial = 0; trial < 60; ++trial) {
    const PointSet points = testing::random_points(rng, 2, 12, 6);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 8));
    const Selection ga = gen_alg(points, k);
    Selection best;
    best.sum = std::numeric_limits<std::int64_t>::max();
    for (int c = 0; c < points.size(); ++c) {
      const auto chosen = k_nearest(points, points.point(c), k);
      best.sum = std::min(best.sum, pairwise_sum_brute(points, chosen));
    }
    EXPECT_EQ(ga.sum, best.sum);
    EXPECT_LE(manhattan_median(points, k).sum, ga.sum);  // MM's centres include the points
  }
}

/// The paper's tight example for MM (Section 3): k/2 points at (0,0) and at (1,0), k/8 at
/// (0,±(1−ε)), (1,±(1−ε)), (2−ε,0), (−1+ε,0); scaled by S (ε = 1/S).
PointSet tight_example(int k, int scale) {
  std::vector<std::vector<int>> rows;
  auto put = [&](int count, int x, int y) {
    for (int i = 0; i < count; ++i) rows.push_back({x, y});
  };
  const int near = scale - 1;
  put(k / 2, 0, 0);
  put(k / 2, scale, 0);
  put(k / 8, 0, near);
  put(k / 8, 0, -near);
  put(k / 8, scale, near);
  put(k / 8, scale, -near);
  put(k / 8, 2 * scale - 1, 0);
  put(k / 8, -scale + 1, 0);
  return PointSet::from_rows(rows);
}

TEST(ManhattanMedian, TightExampleApproachesSevenQuarters) {
  double previous = 0;
  for (const int scale : {4, 40, 400, 4000}) {
    const int k = 32;
    const PointSet points = tight_example(k, scale);
    const Selection mm = manhattan_median(points, k);
    const Selection opt = exact_optimum(points, k);
    ASSERT_TRUE(opt.proven);
    EXPECT_EQ(opt.sum, static_cast<std::int64_t>(k / 2) * (k / 2) * scale);  // both big clusters
    const double ratio = static_cast<double>(mm.sum) / static_cast<double>(opt.sum);
    EXPECT_LE(ratio, 7.0 / 4.0);
    EXPECT_GT(ratio, previous);  // grows towards 7/4 as ε → 0
    previous = ratio;
  }
  EXPECT_GT(previous, 1.749);
}

TEST(ApproximationBounds, MMGenAlgAndMMIncAgainstExact) {
  Rng rng(17);
  int instances = 0;
  for (int trial = 0; trial < 90; ++trial) {
    const int dims = 1 + trial % 3;
    const int side = dims == 1 ? 40 : dims == 2 ? 8 : 4;
    const int n = 14 + static_cast<int>(rng.uniform_int(0, 10));
    const PointSet points = testing::random_free_grid(rng, dims, side, n);
    const int k = 2 + static_cast<int>(rng.uniform_int(0, 9));
    const Selection opt = exact_optimum(points, k);
    ASSERT_TRUE(opt.proven);
    const double o = static_cast<double>(opt.sum);
    const Selection mm = manhattan_median(points, k);
    const Selection inc = mm_inc(points, k);
    const Selection ga = gen_alg(points, k);
    const double mm_bound = dims == 2 ? 7.0 / 4.0 : 2.0 - 1.0 / (2.0 * dims);
    EXPECT_LE(static_cast<double>(mm.sum), mm_bound * o + 1e-9) << "trial " << trial;
    EXPECT_LE(static_cast<double>(ga.sum), (2.0 - 2.0 / k) * o + 1e-9) << "trial " << trial;
    EXPECT_LE(inc.sum, mm.sum);
    EXPECT_GE(inc.sum, opt.sum);
    EXPECT_EQ(pairwise_sum_brute(points, inc.indices), inc.sum);
    ++instances;
  }
  EXPECT_EQ(instances, 90);
}

TEST(MMInc, StopsAtALocalMinimum) {
  Rng rng(23);
  for (int trial = 0; trial < 40; ++trial) {
    const PointSet points = testing::random_points(rng, 2, 16, 6);
    const int k = 3 + static_cast<int>(rng.uniform_int(0, 8));
    const Selection inc = mm_inc(points, k);
    std::vector<char> in(points.size(), 0);
    for (const int p : inc.indices) in[p] = 1;
    for (const int a : inc.indices)
      for (int b = 0; b < points.size(); ++b) {
        if (in[b]) continue;
        std::vector<int> swapped = inc.indices;
        std::replace(swapped.begin(), swapped.end(), a, b);
        EXPECT_GE(pairwise_sum_brute(points, swapped), inc.sum);
      }
  }
}

}  // namespace
}  // namespace allocsim::geom
