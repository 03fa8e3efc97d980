#pragma once
// Private helpers of the geom/ solvers: per-axis compression of coordinates to the distinct
// values that occur, and pairwise sums from per-axis histograms.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom::detail {

/// Per axis: the sorted distinct coordinate values and, for every point, the position of its
/// coordinate among them (only when asked for: `with_ranks`).
struct AxisIndex {
  std::vector<std::vector<int>> values;         // [axis][rank] -> coordinate
  std::vector<std::vector<std::int32_t>> rank;  // [axis][point] -> rank (empty without ranks)

  explicit AxisIndex(const PointSet& points, bool with_ranks = true) { build(points, with_ranks); }
  /// An empty index, to build() later (keeps its storage between builds).
  AxisIndex() = default;

  /// Rebuilds the index for `points`, reusing the storage of the previous build.
  void build(const PointSet& points, bool with_ranks = true) {
    const int n = points.size();
    values.resize(points.dims());
    rank.resize(points.dims());
    for (int axis = 0; axis < points.dims(); ++axis) {
      auto& vals = values[axis];
      vals.clear();
      rank[axis].clear();
      if (n == 0) continue;
      // A ring's coordinates lie in [0, L): no need to look for the least and largest.
      const bool ring_range = points.wraps(axis) && points.ring(axis) <= 4LL * n + 64;
      int lo = ring_range ? 0 : points.coord(0, axis), hi = ring_range ? points.ring(axis) - 1 : lo;
      for (int i = 1; i < n && !ring_range; ++i) {
        lo = std::min(lo, points.coord(i, axis));
        hi = std::max(hi, points.coord(i, axis));
      }
      if (static_cast<std::int64_t>(hi) - lo <= 4LL * n + 64) {
        // Small range (integer grids): mark the values that occur, rank by a lookup table.
        std::vector<std::int32_t>& lookup = lookup_;
        lookup.assign(static_cast<std::size_t>(hi - lo + 1), -1);
        // Without ranks the marking may stop once every value of the range occurs; a first
        // pass over a spread of the points (the last axis changes slowest along a
        // lexicographic list) usually finds them all.
        int unmarked = hi - lo + 1;
        const int spread = with_ranks ? 1 : std::max(1, n / 1024);
        for (int step : {spread, 1}) {
          for (int i = 0; i < n && (with_ranks || unmarked > 0); i += step) {
            std::int32_t& mark = lookup[points.coord(i, axis) - lo];
            unmarked -= mark < 0 ? 1 : 0;
            mark = 0;
          }
          if (step == 1) break;
        }
        for (int v = 0; v <= hi - lo; ++v)
          if (lookup[v] == 0) {
            lookup[v] = static_cast<std::int32_t>(vals.size());
            vals.push_back(v + lo);
          }
        if (!with_ranks) continue;
        auto& r = rank[axis];
        r.resize(n);
        for (int i = 0; i < n; ++i) r[i] = lookup[points.coord(i, axis) - lo];
        continue;
      }
      vals.resize(n);
      for (int i = 0; i < n; ++i) vals[i] = points.coord(i, axis);
      std::sort(vals.begin(), vals.end());
      vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
      if (!with_ranks) continue;
      auto& r = rank[axis];
      r.resize(n);
      for (int i = 0; i < n; ++i)
        r[i] = static_cast<std::int32_t>(
            std::lower_bound(vals.begin(), vals.end(), points.coord(i, axis)) - vals.begin());
    }
  }

 private:
  std::vector<std::int32_t> lookup_;  // build()'s table from coordinate to rank
};

/// Sum over pairs of the (ring) distance between values, given sorted distinct `values` and the
/// number of chosen points at each. O(len).
inline std::int64_t histogram_pair_sum(std::span<const int> values, std::span<const int> counts,
                                       int ring) {
  const int m = static_cast<int>(values.size());
  std::int64_t total_count = 0;
  for (int i = 0; i < m; ++i) total_count += counts[i];
  if (ring <= 0) {
    std::int64_t left = 0, total = 0;
    for (int i = 0; i + 1 < m; ++i) {
      left += counts[i];
      total += static_cast<std::int64_t>(values[i + 1] - values[i]) * left * (total_count - left);
    }
    return total;
  }
  // Ring: prefix sums of counts and count·value; for each i, partners j > i split into those
  // within half the ring (distance v_j - v_i) and the rest (ring - (v_j - v_i)).
  std::vector<std::int64_t> pc(m + 1, 0), pv(m + 1, 0);
  for (int i = 0; i < m; ++i) {
    pc[i + 1] = pc[i] + counts[i];
    pv[i + 1] = pv[i] + static_cast<std::int64_t>(counts[i]) * values[i];
  }
  std::int64_t total = 0;
  int split = 0;
  for (int i = 0; i < m; ++i) {
    if (counts[i] == 0) continue;
    if (split < i) split = i;
    while (split + 1 < m && 2LL * (values[split + 1] - values[i]) <= ring) ++split;
    const std::int64_t near_c = pc[split + 1] - pc[i + 1], near_v = pv[split + 1] - pv[i + 1];
    const std::int64_t far_c = pc[m] - pc[split + 1], far_v = pv[m] - pv[split + 1];
    const std::int64_t per_point = (near_v - static_cast<std::int64_t>(values[i]) * near_c) +
                                   (static_cast<std::int64_t>(ring) * far_c - far_v +
                                    static_cast<std::int64_t>(values[i]) * far_c);
    total += counts[i] * per_point;
  }
  return total;
}

/// Sum of pairwise distances of `chosen` using the axis index (histograms per axis).
inline std::int64_t indexed_pair_sum(const PointSet& points, const AxisIndex& index,
                                     std::span<const int> chosen, std::vector<int>& scratch) {
  std::int64_t total = 0;
  for (int axis = 0; axis < points.dims(); ++axis) {
    const auto& vals = index.values[axis];
    scratch.assign(vals.size(), 0);
    for (const int p : chosen) ++scratch[index.rank[axis][p]];
    total += histogram_pair_sum(vals, scratch, points.ring(axis));
  }
  return total;
}

}  // namespace allocsim::geom::detail
