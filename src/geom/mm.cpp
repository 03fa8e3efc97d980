// MM and Gen-Alg (Bender et al., Algorithmica 2008, Section 3); see mm.hpp.
#include "allocsim/geom/mm.hpp"

#include <algorithm>
#include <optional>

#include "axis_index.hpp"
#include "nearest_scan.hpp"
#include "scan_workspace.hpp"

namespace allocsim::geom {

using detail::AxisIndex;
using detail::NearestScan;

namespace {

Selection all_points(const PointSet& points) {
  Selection s;
  for (int i = 0; i < points.size(); ++i) s.indices.push_back(i);
  s.sum = pairwise_sum(points, s.indices);
  return s;
}

/// Each axis's values once, in order of first appearance.
void keep_first_appearances(std::vector<int>& values) {
  std::vector<int> seen;
  std::size_t kept = 0;
  for (const int value : values) {
    const auto at = std::lower_bound(seen.begin(), seen.end(), value);
    if (at != seen.end() && *at == value) continue;
    seen.insert(at, value);
    values[kept++] = value;
  }
  values.resize(kept);
}

/// Scans the product grid of `given` per-axis centre values (normalised first: sorted distinct,
/// or distinct in order of first appearance for premas; `normalised` tells they already are).
Selection scan_grid(const PointSet& points, int k, const std::vector<std::vector<int>>& given,
                    bool normalised, CentreOrder order, const TimeLimit* time_limit,
                    NearestMemo* memo, detail::ScanWorkspace& workspace, const AxisIndex& index) {
  const int d = points.dims();
  if (!normalised) {
    workspace.centre_values.resize(given.size());
    for (std::size_t axis = 0; axis < given.size(); ++axis) {
      auto& vals = workspace.centre_values[axis];
      vals.assign(given[axis].begin(), given[axis].end());
      if (order == CentreOrder::premas) {
        keep_first_appearances(vals);
      } else {
        std::sort(vals.begin(), vals.end());
        vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
      }
    }
  }
  const std::vector<std::vector<int>>& axis_values = normalised ? given : workspace.centre_values;
  NearestScan scan(points, k, axis_values, index, time_limit, memo, workspace);
  // The odometer's fastest axis comes first in `axes`.
  std::vector<int> axes(d);
  for (int i = 0; i < d; ++i) axes[i] = order == CentreOrder::premas ? d - 1 - i : i;
  std::vector<int> pos(d, 0);
  if (k == 1) {
    scan.evaluate(pos);  // every centre yields 0, the first wins
  } else {
    // Rows along the fastest axis, the others as an odometer.
    while (scan.evaluate_row(pos, axes[0])) {
      int i = 1;
      while (i < d && ++pos[axes[i]] == static_cast<int>(axis_values[axes[i]].size()))
        pos[axes[i++]] = 0;
      if (i == d) break;
    }
  }
  std::int64_t centres = 1;
  for (const auto& vals : axis_values) centres *= static_cast<std::int64_t>(vals.size());
  return scan.result(centres);
}

/// Every axis's coordinate values in point order (repeats included).
std::vector<std::vector<int>> coordinates_by_axis(const PointSet& points) {
  std::vector<std::vector<int>> values(points.dims());
  for (int axis = 0; axis < points.dims(); ++axis)
    for (int i = 0; i < points.size(); ++i) values[axis].push_back(points.coord(i, axis));
  return values;
}

}  // namespace

Selection nearest_best_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values,
                                 CentreOrder order, const TimeLimit* time_limit,
                                 NearestMemo* memo) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  std::optional<detail::ScanWorkspace> own;
  detail::ScanWorkspace& workspace = detail::workspace_of(memo, own);
  workspace.index.build(points, /*with_ranks=*/false);
  return scan_grid(points, k, axis_values, false, order, time_limit, memo, workspace,
                   workspace.index);
}

Selection manhattan_median(const PointSet& points, int k, const TimeLimit* time_limit) {
  return manhattan_median(points, k, CentreOrder::sorted, time_limit);
}

Selection manhattan_median(const PointSet& points, int k, CentreOrder order,
                           const TimeLimit* time_limit, NearestMemo* memo) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  std::optional<detail::ScanWorkspace> own;
  detail::ScanWorkspace& workspace = detail::workspace_of(memo, own);
  // Ranks only when the scan by distances needs them (NearestScan computes them then).
  workspace.index.build(points, /*with_ranks=*/false);
  if (order == CentreOrder::premas)
    return scan_grid(points, k, coordinates_by_axis(points), false, order, time_limit, memo,
                     workspace, workspace.index);
  // The index's values are sorted and distinct already.
  return scan_grid(points, k, workspace.index.values, true, order, time_limit, memo, workspace,
                   workspace.index);
}

Selection gen_alg(const PointSet& points, int k, const TimeLimit* time_limit, NearestMemo* memo) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  std::optional<detail::ScanWorkspace> own;
  detail::ScanWorkspace& workspace = detail::workspace_of(memo, own);
  workspace.index.build(points);
  NearestScan scan(points, k, workspace.index.values, workspace.index, time_limit, memo, workspace);
  const int n = points.size(), d = points.dims();
  // Skip centres that repeat an earlier point: sort indices by coordinates, keep the first
  // (nothing to skip when the occupancy grid holds the points: they are distinct).
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  auto coords_less = [&](int a, int b) {
    for (int axis = 0; axis < d; ++axis)
      if (points.coord(a, axis) != points.coord(b, axis))
        return points.coord(a, axis) < points.coord(b, axis);
    return a < b;
  };
  if (!scan.distinct()) std::sort(order.begin(), order.end(), coords_less);
  std::vector<char> duplicate(n, 0);
  for (int i = 1; i < n && !scan.distinct(); ++i) {
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
    if (k == 1 || scan.done()) break;
  }
  return scan.result(n - std::count(duplicate.begin(), duplicate.end(), 1));
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
