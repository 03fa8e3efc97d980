// The previous MM and Gen-Alg implementation, kept unchanged as the reference of the tests and
// benches (see mm_reference.hpp).
#include "geom/mm_reference.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "../../src/geom/axis_index.hpp"
#include "../../src/geom/grid_index.hpp"

namespace allocsim::geom::reference {

namespace {

using detail::AxisIndex;

/// Scans centres given as per-axis indices into per-axis centre value lists; for each, takes the
/// k nearest points by counting and keeps the best pairwise sum.
class NearestScan {
 public:
  NearestScan(const PointSet& points, int k, std::vector<std::vector<int>> centre_values,
              const TimeLimit* time_limit)
      : points_(points),
        k_(k),
        index_(points),
        grid_(points),
        centre_values_(std::move(centre_values)),
        poll_(time_limit) {
    const int d = points.dims();
    tables_.resize(d);
    key_limit_ = 0;
    for (int axis = 0; axis < d; ++axis) {
      const auto& vals = index_.values[axis];
      const auto& centres = centre_values_[axis];
      auto& table = tables_[axis];
      table.resize(centres.size() * vals.size());
      int worst = 0;
      for (std::size_t c = 0; c < centres.size(); ++c) {
        for (std::size_t v = 0; v < vals.size(); ++v) {
          table[c * vals.size() + v] = points.axis_distance(axis, centres[c], vals[v]);
          worst = std::max(worst, table[c * vals.size() + v]);
        }
        poll_.add(static_cast<std::int64_t>(vals.size()));
      }
      key_limit_ += worst;
    }
    keys_.resize(points.size());
    // Early stop (results unchanged: only a strictly lower sum replaces the best).
    if (!points.any_wrap() && points.dims() <= 3 && (grid_.usable() || all_distinct(points)))
      stop_at_ = distinct_points_lower_bound(points.dims(), k);
  }

  /// True when the best sum equals a proven lower bound: no later centre can replace it.
  bool done() const { return best_sum_ <= stop_at_; }

  const AxisIndex& index() const { return index_; }

  /// Evaluates the centre with per-axis positions `pos` (into centre_values); keeps it if its
  /// sum is strictly lower than the best so far.
  void evaluate(std::span<const int> pos) {
    ++evaluated_;
    // Rings visit about k / density positions, each costlier than a scanned point.
    const bool by_rings = grid_.usable() && 8LL * k_ <= points_.size();
    poll_.add(by_rings ? k_ : points_.size() + k_);
    if (by_rings) {
      select_by_rings(pos);
    } else {
      select_by_scan(pos);
      // The scan lists the set in index order: the same set as the previous centre cannot be
      // strictly better, so it is not scored again.
      if (chosen_ == previous_) return;
      previous_ = chosen_;
    }
    const std::int64_t sum = detail::indexed_pair_sum(points_, index_, chosen_, scratch_);
    if (sum < best_sum_) {
      best_sum_ = sum;
      best_ = chosen_;
      std::sort(best_.begin(), best_.end());
    }
  }

  /// The k nearest by visiting L1 rings of the occupancy grid around the centre: whole rings
  /// while they fit, then the lowest indices of the last ring (the same rule as the scan).
  void select_by_rings(std::span<const int> pos) {
    const int d = points_.dims();
    centre_.resize(d);
    int limit = 0;
    for (int axis = 0; axis < d; ++axis) {
      centre_[axis] = centre_values_[axis][pos[axis]];
      limit += index_.values[axis].back() - index_.values[axis].front() +
               std::abs(centre_[axis] - index_.values[axis].front());
    }
    chosen_.clear();
    for (int r = 0; static_cast<int>(chosen_.size()) < k_ && r <= limit; ++r) {
      ring_.clear();
      grid_.at_l1(centre_.data(), r, ring_);
      poll_.add(2LL * d * r + 1);  // ~ the ring's positions visited
      const std::size_t need = static_cast<std::size_t>(k_) - chosen_.size();
      if (ring_.size() > need) {
        std::sort(ring_.begin(), ring_.end());
        ring_.resize(need);
      }
      chosen_.insert(chosen_.end(), ring_.begin(), ring_.end());
    }
  }

  void select_by_scan(std::span<const int> pos) {
    const int n = points_.size(), d = points_.dims();
    const int* row0 = tables_[0].data() + pos[0] * index_.values[0].size();
    const std::int32_t* rank0 = index_.rank[0].data();
    if (d == 1) {
      for (int i = 0; i < n; ++i) keys_[i] = row0[rank0[i]];
    } else if (d == 2) {
      const int* row1 = tables_[1].data() + pos[1] * index_.values[1].size();
      const std::int32_t* rank1 = index_.rank[1].data();
      for (int i = 0; i < n; ++i) keys_[i] = row0[rank0[i]] + row1[rank1[i]];
    } else {
      for (int i = 0; i < n; ++i) keys_[i] = 0;
      for (int axis = 0; axis < d; ++axis) {
        const int* row = tables_[axis].data() + pos[axis] * index_.values[axis].size();
        const auto& rank = index_.rank[axis];
        for (int i = 0; i < n; ++i) keys_[i] += row[rank[i]];
      }
    }
    if (key_limit_ > 8 * n + 4096) {
      select_smallest_keys(keys_, k_, key_limit_, histogram_, chosen_);
      return;
    }
    // Counting selection (as select_smallest_keys): all keys below the threshold, then the
    // lowest indices at the threshold.
    histogram_.assign(key_limit_ + 1, 0);
    for (int i = 0; i < n; ++i) ++histogram_[keys_[i]];
    int below = 0, threshold = 0;
    while (below + histogram_[threshold] < k_) below += histogram_[threshold++];
    int at_threshold = k_ - below;
    chosen_.resize(k_);
    int* out = chosen_.data();
    for (int i = 0; i < n; ++i) {
      const int key = keys_[i];
      if (key < threshold) {
        *out++ = i;
      } else if (key == threshold && at_threshold > 0) {
        *out++ = i;
        --at_threshold;
      }
    }
  }

  Selection result() const { return Selection::heuristic(best_, best_sum_, evaluated_); }

 private:
  const PointSet& points_;
  int k_;
  AxisIndex index_;
  detail::GridIndex grid_;
  std::vector<std::vector<int>> centre_values_;
  std::vector<int> centre_, ring_, previous_;
  std::vector<std::vector<int>> tables_;  // [axis][centre pos * distinct values + value rank]
  int key_limit_ = 0;
  std::vector<std::int32_t> keys_;
  std::vector<int> histogram_, chosen_, scratch_, best_;
  std::int64_t best_sum_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t evaluated_ = 0;
  std::int64_t stop_at_ = -1;
  TimeLimitPoll poll_;
};

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

Selection scan_grid(const PointSet& points, int k, std::vector<std::vector<int>> axis_values,
                    CentreOrder order, const TimeLimit* time_limit) {
  const int d = points.dims();
  for (auto& vals : axis_values) {
    if (order == CentreOrder::premas) {
      keep_first_appearances(vals);
    } else {
      std::sort(vals.begin(), vals.end());
      vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    }
  }
  NearestScan scan(points, k, axis_values, time_limit);
  // The odometer's fastest axis comes first in `axes`.
  std::vector<int> axes(d);
  for (int i = 0; i < d; ++i) axes[i] = order == CentreOrder::premas ? d - 1 - i : i;
  std::vector<int> pos(d, 0);
  while (true) {
    scan.evaluate(pos);
    if (k == 1 || scan.done()) break;  // k = 1: every centre yields 0, the first wins
    int i = 0;
    while (i < d && ++pos[axes[i]] == static_cast<int>(axis_values[axes[i]].size()))
      pos[axes[i++]] = 0;
    if (i == d) break;
  }
  return scan.result();
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
                                 CentreOrder order, const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  return scan_grid(points, k, axis_values, order, time_limit);
}

Selection manhattan_median(const PointSet& points, int k, const TimeLimit* time_limit) {
  return reference::manhattan_median(points, k, CentreOrder::sorted, time_limit);
}

Selection manhattan_median(const PointSet& points, int k, CentreOrder order,
                           const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  if (order == CentreOrder::premas)
    return scan_grid(points, k, coordinates_by_axis(points), order, time_limit);
  const AxisIndex index(points);
  return scan_grid(points, k, index.values, order, time_limit);
}

Selection gen_alg(const PointSet& points, int k, const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return all_points(points);
  const AxisIndex index(points);
  NearestScan scan(points, k, index.values, time_limit);
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
    if (k == 1 || scan.done()) break;
  }
  return scan.result();
}

Selection improve_by_swaps(const PointSet& points, Selection start, const TimeLimit* time_limit) {
  const int n = points.size();
  const int k = static_cast<int>(start.indices.size());
  if (k == 0 || k >= n) return start;
  TimeLimitPoll poll(time_limit);
  std::vector<char> in(n, 0);
  for (const int p : start.indices) in[p] = 1;
  // D(p) = Σ_{s chosen} d(p, s).
  std::vector<std::int64_t> dsum(n, 0);
  for (int p = 0; p < n; ++p) {
    for (const int s : start.indices) dsum[p] += points.distance(p, s);
    poll.add(k);
  }
  std::int64_t sum = 0;
  for (const int s : start.indices) sum += dsum[s];
  sum /= 2;
  // Diameter bound for pruning: max over axes of the coordinate span (ring: half the ring).
  std::int64_t diameter = 0;
  for (int axis = 0; axis < points.dims(); ++axis) {
    int lo = points.coord(0, axis), hi = lo;
    for (int p = 1; p < n; ++p) {
      lo = std::min(lo, points.coord(p, axis));
      hi = std::max(hi, points.coord(p, axis));
    }
    diameter += points.wraps(axis) ? std::min(hi - lo, points.ring(axis) / 2) : hi - lo;
  }
  std::vector<int> chosen = start.indices, outside;
  std::int64_t steps = 0;
  while (true) {
    outside.clear();
    for (int p = 0; p < n; ++p)
      if (!in[p]) outside.push_back(p);
    std::int64_t min_out = dsum[outside.front()];
    for (const int b : outside) min_out = std::min(min_out, dsum[b]);
    std::int64_t best_gain = 0;
    int best_a = -1, best_b = -1;
    std::sort(chosen.begin(), chosen.end());
    for (const int a : chosen) {
      poll.add(static_cast<std::int64_t>(outside.size()));
      if (dsum[a] - min_out + diameter <= best_gain) continue;  // gain ≤ D(a) − D(b) + d(a,b)
      for (const int b : outside) {
        const std::int64_t base = dsum[a] - dsum[b];
        if (base + diameter <= best_gain) continue;
        const std::int64_t gain = base + points.distance(a, b);
        if (gain > best_gain) best_gain = gain, best_a = a, best_b = b;
      }
    }
    if (best_a < 0) break;
    ++steps;
    in[best_a] = 0;
    in[best_b] = 1;
    for (auto& c : chosen)
      if (c == best_a) c = best_b;
    for (int p = 0; p < n; ++p) dsum[p] += points.distance(p, best_b) - points.distance(p, best_a);
    sum -= best_gain;
  }
  std::sort(chosen.begin(), chosen.end());
  Selection result;
  result.indices = std::move(chosen);
  result.sum = sum;
  result.nodes = start.nodes + steps;
  return result;
}

}  // namespace allocsim::geom::reference
