#pragma once
// The MC1x1 / MC implementation before box counts (src/geom/mc.cpp as of f653e94), kept verbatim
// as the reference the counted scan must match answer for answer (mc_counted_test.cpp).
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "../../src/geom/axis_index.hpp"
#include "../../src/geom/grid_index.hpp"
#include "allocsim/geom/mc.hpp"

namespace allocsim::geom::reference {

namespace old {

using allocsim::geom::detail::AxisIndex;

/// Distance from coordinate x to the interval of `len` positions starting at lo (ring-aware).
inline int interval_distance(int x, int lo, int len, int ring) {
  if (ring <= 0) return std::max({0, lo - x, x - (lo + len - 1)});
  if (len >= ring) return 0;
  const int off = ((x - lo) % ring + ring) % ring;
  if (off < len) return 0;
  return std::min(off - (len - 1), ring - off);
}

class ShellScan {
 public:
  ShellScan(const PointSet& points, int k, ShellTies ties, const TimeLimit* time_limit)
      : points_(points),
        k_(k),
        first_wins_(ties == ShellTies::first),
        index_(points),
        grid_(points),
        poll_(time_limit) {
    const int d = points.dims();
    axis_dist_.resize(d);
    shell_.resize(points.size());
    l1_.resize(points.size());
  }

  const AxisIndex& index() const { return index_; }

  /// MC1x1 around `centre` by visiting L∞ shells of the occupancy grid: whole shells while
  /// they fit, then part of the last (lowest indices, or L1-nearest then lowest index under
  /// ShellTies::sum); abandoned as soon as the centre cannot win. Same answers as evaluate()
  /// with a 1x1 box.
  void evaluate_point(std::span<const int> centre) {
    if (!grid_.usable()) {
      ones_.assign(centre.size(), 1);
      evaluate(centre, ones_);
      return;
    }
    ++evaluated_;
    poll_.add(k_);
    const int d = points_.dims();
    int limit = 0;
    for (int axis = 0; axis < d; ++axis)
      limit = std::max(limit, index_.values[axis].back() - index_.values[axis].front() +
                                  std::abs(centre[axis] - index_.values[axis].front()));
    chosen_.clear();
    std::int64_t cost = 0;
    for (int r = 0; static_cast<int>(chosen_.size()) < k_ && r <= limit; ++r) {
      const std::int64_t need = k_ - static_cast<std::int64_t>(chosen_.size());
      if (loses(cost + need * r)) return;  // the rest lies in shell r or beyond
      partial_.clear();
      grid_.at_linf(centre.data(), r, partial_);
      poll_.add(2LL * d * r + 1 + static_cast<std::int64_t>(partial_.size()));  // ~ shell area
      if (static_cast<std::int64_t>(partial_.size()) <= need) {
        cost += r * static_cast<std::int64_t>(partial_.size());
        chosen_.insert(chosen_.end(), partial_.begin(), partial_.end());
        continue;
      }
      cost += r * need;
      if (first_wins_) {  // the lowest input indices of the shell (PReMAS's scan order)
        std::nth_element(partial_.begin(), partial_.begin() + (need - 1), partial_.end());
        chosen_.insert(chosen_.end(), partial_.begin(), partial_.begin() + need);
        continue;
      }
      // Order by (distance to centre, index): packed keys, each distance computed once.
      packed_.resize(partial_.size());
      for (std::size_t j = 0; j < partial_.size(); ++j)
        packed_[j] = (static_cast<std::uint64_t>(points_.distance_to(partial_[j], centre)) << 32) |
                     static_cast<std::uint32_t>(partial_[j]);
      std::nth_element(packed_.begin(), packed_.begin() + (need - 1), packed_.end());
      for (std::int64_t j = 0; j < need; ++j)
        chosen_.push_back(static_cast<int>(packed_[j] & 0xffffffffu));
    }
    if (loses(cost)) return;
    std::sort(chosen_.begin(), chosen_.end());
    keep_if_better(cost);
  }

  /// Evaluates shell 0 = box with lowest corner `lo` and sides `len`.
  void evaluate(std::span<const int> lo, std::span<const int> len) {
    const int n = points_.size(), d = points_.dims();
    poll_.add(static_cast<std::int64_t>(n) * d);
    int shell_limit = 0, l1_limit = 0;
    for (int axis = 0; axis < d; ++axis) {
      const auto& vals = index_.values[axis];
      auto& dist = axis_dist_[axis];
      dist.resize(vals.size());
      int worst = 0;
      for (std::size_t v = 0; v < vals.size(); ++v) {
        dist[v] = interval_distance(vals[v], lo[axis], len[axis], points_.ring(axis));
        worst = std::max(worst, dist[v]);
      }
      shell_limit = std::max(shell_limit, worst);
      l1_limit += worst;
    }
    for (int i = 0; i < n; ++i) {
      int shell = 0, l1 = 0;
      for (int axis = 0; axis < d; ++axis) {
        const int x = axis_dist_[axis][index_.rank[axis][i]];
        shell = std::max(shell, x);
        l1 += x;
      }
      shell_[i] = shell;
      l1_[i] = l1;
    }
    ++evaluated_;
    // Cost from the shell histogram: whole shells below the threshold, part of the threshold.
    histogram_.assign(shell_limit + 1, 0);
    for (int i = 0; i < n; ++i) ++histogram_[shell_[i]];
    std::int64_t cost = 0;
    int below = 0, threshold = 0;
    while (below + histogram_[threshold] < k_) {
      cost += static_cast<std::int64_t>(threshold) * histogram_[threshold];
      below += histogram_[threshold++];
    }
    cost += static_cast<std::int64_t>(threshold) * (k_ - below);
    if (loses(cost)) return;
    // Choose: everything inside, then the threshold shell's lowest indices (ShellTies::first) or
    // its points nearest in L1.
    chosen_.clear();
    partial_.clear();
    partial_keys_.clear();
    for (int i = 0; i < n; ++i) {
      if (shell_[i] < threshold) {
        chosen_.push_back(i);
      } else if (shell_[i] == threshold) {
        partial_.push_back(i);
        partial_keys_.push_back(l1_[i]);
      }
    }
    if (first_wins_) {
      chosen_.insert(chosen_.end(), partial_.begin(), partial_.begin() + (k_ - below));
    } else {
      select_smallest_keys(partial_keys_, k_ - below, l1_limit, histogram_, picked_);
      for (const int j : picked_) chosen_.push_back(partial_[j]);
    }
    std::sort(chosen_.begin(), chosen_.end());
    keep_if_better(cost);
  }

  Selection result() const { return Selection::heuristic(best_, best_sum_, evaluated_); }

  /// MC1x1 only: the best has the least possible cost (and, under ShellTies::sum, sum) for
  /// distinct points on a mesh, so no later centre can replace it (results unchanged).
  bool done() const {
    return best_cost_ <= least_cost_ && (first_wins_ || best_sum_ <= least_sum_);
  }
  void enable_early_stop() {
    if (points_.any_wrap() || points_.dims() > 3) return;
    if (!grid_.usable() && !all_distinct(points_)) return;
    least_cost_ = least_shell_cost(points_.dims(), k_);
    least_sum_ = distinct_points_lower_bound(points_.dims(), k_);
  }

 private:
  /// True when a centre of shell cost `cost` (or more) cannot replace the best: a higher cost
  /// never does, an equal one only under ShellTies::sum (by a lower pairwise sum).
  bool loses(std::int64_t cost) const {
    return first_wins_ ? cost >= best_cost_ : cost > best_cost_;
  }

  /// Keeps the sorted chosen_ set of shell cost `cost` (not losing) if it beats the best.
  void keep_if_better(std::int64_t cost) {
    const std::int64_t sum = detail::indexed_pair_sum(points_, index_, chosen_, scratch_);
    if (cost < best_cost_ || sum < best_sum_) {
      best_cost_ = cost;
      best_sum_ = sum;
      best_ = chosen_;
    }
  }

  const PointSet& points_;
  int k_;
  bool first_wins_;  // ShellTies::first
  std::int64_t least_cost_ = -1, least_sum_ = -1;
  AxisIndex index_;
  detail::GridIndex grid_;
  std::vector<int> ones_;
  std::vector<std::uint64_t> packed_;
  std::vector<std::vector<int>> axis_dist_;
  std::vector<std::int32_t> shell_, l1_, partial_keys_;
  std::vector<int> histogram_, chosen_, partial_, picked_, scratch_, best_;
  std::int64_t best_cost_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t best_sum_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t evaluated_ = 0;
  TimeLimitPoll poll_;
};

inline Selection trivial(const PointSet& points, int k) {
  Selection s;
  for (int i = 0; i < std::min(k, points.size()); ++i) s.indices.push_back(i);
  s.sum = pairwise_sum(points, s.indices);
  return s;
}

/// Input points in order, skipping repeats of an earlier point (they give the same shells).
inline std::vector<int> distinct_points(const PointSet& points) {
  const int n = points.size(), d = points.dims();
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    for (int axis = 0; axis < d; ++axis)
      if (points.coord(a, axis) != points.coord(b, axis))
        return points.coord(a, axis) < points.coord(b, axis);
    return a < b;
  });
  std::vector<char> keep(n, 1);
  for (int i = 1; i < n; ++i) {
    bool same = true;
    for (int axis = 0; axis < d && same; ++axis)
      same = points.coord(order[i], axis) == points.coord(order[i - 1], axis);
    if (same) keep[order[i]] = 0;
  }
  std::vector<int> result;
  for (int i = 0; i < n; ++i)
    if (keep[i]) result.push_back(i);
  return result;
}

}  // namespace old

inline Selection mc_shaped(const PointSet& points, int k, std::vector<int> shape,
                           const TimeLimit* time_limit = nullptr) {
  if (k <= 0) return {};
  if (k >= points.size()) return old::trivial(points, points.size());
  const int d = points.dims();
  shape.resize(d, 1);
  for (auto& side : shape) side = std::max(side, 1);
  std::sort(shape.begin(), shape.end());
  std::vector<std::vector<int>> orientations;
  do orientations.push_back(shape);
  while (std::next_permutation(shape.begin(), shape.end()));
  old::ShellScan scan(points, k, ShellTies::sum, time_limit);
  std::vector<int> lo(d);
  for (const int centre : old::distinct_points(points)) {
    for (int axis = 0; axis < d; ++axis) lo[axis] = points.coord(centre, axis);
    for (const auto& len : orientations) scan.evaluate(lo, len);
  }
  return scan.result();
}

inline Selection mc1x1(const PointSet& points, int k, ShellTies ties,
                       const TimeLimit* time_limit = nullptr);
inline Selection mc1x1(const PointSet& points, int k, const TimeLimit* time_limit = nullptr) {
  return reference::mc1x1(points, k, ShellTies::first, time_limit);
}

inline Selection mc1x1(const PointSet& points, int k, ShellTies ties, const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return old::trivial(points, points.size());
  old::ShellScan scan(points, k, ties, time_limit);
  scan.enable_early_stop();
  std::vector<int> centre(points.dims());
  for (const int c : old::distinct_points(points)) {
    for (int axis = 0; axis < points.dims(); ++axis) centre[axis] = points.coord(c, axis);
    scan.evaluate_point(centre);
    if (scan.done()) break;
  }
  return scan.result();
}

inline Selection mc1x1_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values, ShellTies ties,
                                 const TimeLimit* time_limit = nullptr) {
  if (k <= 0) return {};
  if (k >= points.size()) return old::trivial(points, points.size());
  const int d = points.dims();
  old::ShellScan scan(points, k, ties, time_limit);
  scan.enable_early_stop();
  std::vector<int> pos(d, 0), lo(d);
  for (const auto& vals : axis_values)
    if (vals.empty()) return {};
  while (true) {
    for (int axis = 0; axis < d; ++axis) lo[axis] = axis_values[axis][pos[axis]];
    scan.evaluate_point(lo);
    if (scan.done()) break;
    int axis = 0;
    while (axis < d && ++pos[axis] == static_cast<int>(axis_values[axis].size())) pos[axis++] = 0;
    if (axis == d) break;
  }
  return scan.result();
}

}  // namespace allocsim::geom::reference
