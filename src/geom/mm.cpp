// MM and Gen-Alg (Bender et al., Algorithmica 2008, Section 3); see mm.hpp.
#include "allocsim/geom/mm.hpp"

#include <algorithm>
#include <limits>

#include "axis_index.hpp"

namespace allocsim::geom {

namespace {

using detail::AxisIndex;

/// Scans centres given as per-axis indices into per-axis centre value lists; for each, takes the
/// k nearest points by counting and keeps the best pairwise sum.
class NearestScan {
 public:
  NearestScan(const PointSet& points, int k, std::vector<std::vector<int>> centre_values)
      : points_(points), k_(k), index_(points), centre_values_(std::move(centre_values)) {
    const int d = points.dims();
    tables_.resize(d);
    key_limit_ = 0;
    for (int axis = 0; axis < d; ++axis) {
      const auto& vals = index_.values[axis];
      const auto& centres = centre_values_[axis];
      auto& table = tables_[axis];
      table.resize(centres.size() * vals.size());
      int worst = 0;
      for (std::size_t c = 0; c < centres.size(); ++c)
        for (std::size_t v = 0; v < vals.size(); ++v) {
          table[c * vals.size() + v] = points.axis_distance(axis, centres[c], vals[v]);
          worst = std::max(worst, table[c * vals.size() + v]);
        }
      key_limit_ += worst;
    }
    keys_.resize(points.size());
  }

  const AxisIndex& index() const { return index_; }

  /// Evaluates the centre with per-axis positions `pos` (into centre_values); keeps it if its
  /// sum is strictly lower than the best so far.
  void evaluate(std::span<const int> pos) {
    const int n = points_.size(), d = points_.dims();
    for (int i = 0; i < n; ++i) keys_[i] = 0;
    for (int axis = 0; axis < d; ++axis) {
      const auto& table = tables_[axis];
      const std::size_t stride = index_.values[axis].size();
      const int* row = table.data() + pos[axis] * stride;
      const auto& rank = index_.rank[axis];
      for (int i = 0; i < n; ++i) keys_[i] += row[rank[i]];
    }
    select_smallest_keys(keys_, k_, key_limit_, histogram_, chosen_);
    const std::int64_t sum = detail::indexed_pair_sum(points_, index_, chosen_, scratch_);
    ++evaluated_;
    if (sum < best_sum_) {
      best_sum_ = sum;
      best_ = chosen_;
    }
  }

  Selection result() const {
    Selection s;
    s.indices = best_;
    s.sum = best_sum_;
    s.nodes = evaluated_;
    return s;
  }

 private:
  const PointSet& points_;
  int k_;
  AxisIndex index_;
  std::vector<std::vector<int>> centre_values_;
  std::vector<std::vector<int>> tables_;  // [axis][centre pos * distinct values + value rank]
  int key_limit_ = 0;
  std::vector<std::int32_t> keys_;
  std::vector<int> histogram_, chosen_, scratch_, best_;
  std::int64_t best_sum_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t evaluated_ = 0;
};

Selection all_points(const PointSet& points) {
  Selection s;
  for (int i = 0; i < points.size(); ++i) s.indices.push_back(i);
  s.sum = pairwise_sum(points, s.indices);
  return s;
}

Selection scan_grid(const PointSet& points, int k, std::vector<std::vector<int>> axis_values) {
  const int d = points.dims();
  for (auto& vals : axis_values) {
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
  }
  NearestScan scan(points, k, axis_values);
  std::vector<int> pos(d, 0);
  while (true) {
    scan.evaluate(pos);
    if (k == 1) break;  // every centre yields sum 0; the first wins the tie
    int axis = 0;
    while (axis < d && ++pos[axis] == static_cast<int>(axis_values[axis].size())) pos[axis++] = 0;
    if (axis == d) break;
  }
  return scan.result();
}

}  // namespace

Selection nearest_best_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  return scan_grid(points, k, axis_values);
}

Selection manhattan_median(const PointSet& points, int k) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  const AxisIndex index(points);
  return scan_grid(points, k, index.values);
}

Selection gen_alg(const PointSet& points, int k) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  const AxisIndex index(points);
  NearestScan scan(points, k, index.values);
  const int n = points.size(), d = points.dims();
  // Skip centres that repeat an earlier point: sort indices by coordinates, keep the first.
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  auto coords_less = [&](int a, int b) {
    for (int axis = 0; axis < d; ++axis)
      if (points.coord(a, axis) != points.coord(b, axis))
        return points.coord(a, axis) < points.coord(b, axis);
    return a < b;
  };
  std::sort(order.begin(), order.end(), coords_less);
  std::vector<char> duplicate(n, 0);
  for (int i = 1; i < n; ++i) {
    bool same = true;
    for (int axis = 0; axis < d && same; ++axis)
      same = points.coord(order[i], axis) == points.coord(order[i - 1], axis);
    if (same) duplicate[order[i]] = 1;
  }
  std::vector<int> pos(d);
  for (int i = 0; i < n; ++i) {
    if (duplicate[i]) continue;
    for (int axis = 0; axis < d; ++axis) pos[axis] = scan.index().rank[axis][i];
    scan.evaluate(pos);
    if (k == 1) break;
  }
  return scan.result();
}

std::vector<int> k_nearest(const PointSet& points, std::span<const int> centre, int k) {
  const int n = points.size();
  std::vector<std::int32_t> keys(n);
  int limit = 0;
  for (int i = 0; i < n; ++i) {
    keys[i] = static_cast<std::int32_t>(points.distance_to(i, centre));
    limit = std::max<int>(limit, keys[i]);
  }
  std::vector<int> histogram, out;
  select_smallest_keys(keys, k, limit, histogram, out);
  return out;
}

}  // namespace allocsim::geom
