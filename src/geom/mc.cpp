// MC and MC1x1 shell allocators (Mache, Lo, Windisch; Bender et al. Section 5); see mc.hpp.
#include "allocsim/geom/mc.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "axis_index.hpp"
#include "box_counts.hpp"
#include "shell_best.hpp"

namespace allocsim::geom {

namespace {

using detail::AxisIndex;

using detail::Best;
using detail::BoxCounts;

/// The shell scan by visiting every point per candidate box, O(n·d) per candidate: the fallback
/// for repeated points and for grids far larger than the point set (see CountedShellScan).
class ShellScan {
 public:
  ShellScan(const PointSet& points, int k, ShellTies ties, const TimeLimit* time_limit)
      : points_(points),
        k_(k),
        first_wins_(ties == ShellTies::first),
        index_(points),
        poll_(time_limit) {
    const int d = points.dims();
    axis_dist_.resize(d);
    shell_.resize(points.size());
    l1_.resize(points.size());
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
        dist[v] = BoxCounts::distance(vals[v], lo[axis], len[axis], points_.ring(axis));
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
    if (best_.loses(cost)) return;
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
    best_.keep_if_better(cost, chosen_,
                         detail::indexed_pair_sum(points_, index_, chosen_, scratch_));
  }

  Selection result() const { return Selection::heuristic(best_.set, best_.sum, evaluated_); }
  bool done() const { return best_.done(); }
  /// MC1x1: every centre centre_at(0 … count−1) in order, until the early stop.
  template <class CentreAt>
  void scan_centres(std::int64_t count, CentreAt&& centre_at, std::span<const int> ones) {
    for (std::int64_t i = 0; i < count && !done(); ++i) evaluate(centre_at(i), ones);
  }
  /// MC1x1 only (the candidates are points).
  void enable_early_stop() {
    if (points_.any_wrap() || points_.dims() > 3) return;
    if (!all_distinct(points_)) return;
    best_.least_cost = least_shell_cost(points_.dims(), k_);
    best_.least_sum = distinct_points_lower_bound(points_.dims(), k_);
  }

 private:
  const PointSet& points_;
  int k_;
  bool first_wins_;  // ShellTies::first
  Best best_{first_wins_};
  AxisIndex index_;
  std::vector<std::vector<int>> axis_dist_;
  std::vector<std::int32_t> shell_, l1_, partial_keys_;
  std::vector<int> histogram_, chosen_, partial_, picked_, scratch_;
  std::int64_t evaluated_ = 0;
  TimeLimitPoll poll_;
};

/// MC and MC1x1 from box counts (box_counts.hpp), for distinct points on a grid of bounded size;
/// the same answers as ShellScan, proofs below.
///
/// Cost. With C(s) the number of points at L∞ distance ≤ s from shell 0, a candidate takes the
/// whole shells s < R and part of shell R, R = min{s : C(s) ≥ k}. A chosen point of shell t adds
/// t = #{s : 0 ≤ s < t}, and for every s the chosen points beyond shell s number k − min(k, C(s)),
/// so cost = Σ_{s≥0} max(0, k − C(s)) = Σ_{s<R} (k − C(s)): R + 1 box counts instead of a scan,
/// the same value as ShellScan's histogram.
/// Pruning. The partial sums only grow with s and Best::loses is monotone in the cost, so a
/// candidate abandoned when a partial sum loses would have lost with its whole cost.
/// Sets. Under ShellTies::first a candidate that does not lose has a strictly lower cost and
/// replaces the best whatever its set, so only the final winner's points are listed. Under
/// ShellTies::sum every candidate that does not lose is listed and summed, as in ShellScan, except
/// repeats of a full pattern:
/// Full patterns (ShellTies::sum). When the box grown by R is entirely occupied (C(R) =
/// Π(len + 2R)), hence inside the grid on line axes, does not cross a seam on ring axes, and the
/// input order of the points is lexicographic (last axis slowest, as a machine's free list), the
/// chosen set is a translate of one set fixed by (len, k): the same shells, the same L1 keys (in
/// the grown box ring distances equal line distances since len + 2R ≤ L) and the same index order.
/// Translation keeps every (ring) distance, so cost and sum repeat. Once one such candidate with
/// these sides was listed, the best has a lower cost, or the same cost and a sum no larger, and
/// both only improve; a repeat needs a lower cost or a strictly lower sum, so it never replaces
/// the best and is skipped.
/// Early stop (MC1x1). A ball of radius s holds at most (2s+1)^d distinct positions on a mesh and
/// on a torus, so every cost is ≥ Σ_s max(0, k − (2s+1)^d) = least_shell_cost(d, k); under
/// ShellTies::first a best of that cost is final on meshes and tori, in any dimension. Under
/// ShellTies::sum its sum must also reach distinct_points_lower_bound (meshes, d ≤ 3), as before.
class CountedShellScan {
 public:
  CountedShellScan(const PointSet& points, int k, ShellTies ties, const BoxCounts& counts,
                   TimeLimitPoll& poll)
      : points_(points),
        k_(k),
        first_wins_(ties == ShellTies::first),
        counts_(counts),
        poll_(poll),
        lookups_(std::int64_t{1} << std::min(points.dims(), 20)) {
    ordered_ = !first_wins_;
    const int d = points.dims();
    for (int i = 1; i < points.size() && ordered_; ++i) {
      int axis = d - 1;
      while (axis > 0 && points.coord(i, axis) == points.coord(i - 1, axis)) --axis;
      ordered_ = points.coord(i, axis) > points.coord(i - 1, axis);
    }
  }

  /// Evaluates shell 0 = box with lowest corner `lo` and sides `len`.
  void evaluate(std::span<const int> lo, std::span<const int> len) {
    ++evaluated_;
    std::int64_t cost = 0, before = 0, count = 0;
    if (probe_ > 0) {  // shells 0..probe_ hold at most C(probe_) points each
      count = counts_.count_near_box(lo.data(), len.data(), probe_);
      poll_.add(lookups_);
      if (best_.loses((probe_ + 1) * std::max<std::int64_t>(0, k_ - count))) return;
    }
    int shell = 0;
    while (true) {
      count = counts_.count_near_box(lo.data(), len.data(), shell);
      poll_.add(lookups_);
      if (count >= k_) break;
      cost += k_ - count;
      if (best_.loses(cost)) return;
      before = count;
      ++shell;
    }
    if (best_.loses(cost)) return;
    probe_ = shell - 1;
    if (first_wins_) {  // strictly lower cost: the new best, its points listed at the end
      best_.cost = cost;
      winner_lo_.assign(lo.begin(), lo.end());
      winner_len_.assign(len.begin(), len.end());
      winner_shell_ = shell;
      winner_before_ = before;
      return;
    }
    if (ordered_ && full_pattern(lo, len, shell, count)) {
      const std::vector<int> sides(len.begin(), len.end());
      if (std::find(seen_.begin(), seen_.end(), sides) != seen_.end()) return;
      seen_.push_back(sides);
    }
    list(lo.data(), len.data(), shell, k_ - before);
    best_.keep_if_better(cost, chosen_, pairwise_sum(points_, chosen_));
  }

  bool done() const { return best_.done(); }

  /// MC1x1: centres centre_at(0 … count−1) in order. First the centres of the least possible
  /// cost, found with one or two counts each (least_cost_at): under ShellTies::first the first
  /// of them is the answer; under ShellTies::sum only they can win, and they are evaluated in
  /// order as the whole scan would. Only when none exists are all centres evaluated.
  template <class CentreAt>
  void scan_centres(std::int64_t count, CentreAt&& centre_at, std::span<const int> ones) {
    std::vector<std::int64_t> least;
    std::int64_t hint = -1, hint_count = -1;  // the first centre with the fullest inner ball
    for (std::int64_t i = 0; i < count; ++i) {
      std::int64_t inner = 0;
      if (!least_cost_at(centre_at(i).data(), inner)) {
        if (inner > hint_count) hint = i, hint_count = inner;
        continue;
      }
      if (first_wins_) return evaluate(centre_at(i), ones);
      least.push_back(i);
    }
    if (least.empty()) {
      // The hint's cost U bounds the least cost: start the scan with a best of cost U (ties at
      // U still replace it: cost U + 1 under ShellTies::first, an infinite sum under
      // ShellTies::sum), so centres above U are dropped early; the hint itself is met in order,
      // so the answer is the one the scan without the bound gives.
      if (hint >= 0) {
        const std::int64_t bound = cost_of(centre_at(hint).data(), ones.data());
        best_.cost = first_wins_ ? bound + 1 : bound;
      }
      for (std::int64_t i = 0; i < count && !done(); ++i) evaluate(centre_at(i), ones);
      return;
    }
    for (std::size_t j = 0; j < least.size() && !done(); ++j) evaluate(centre_at(least[j]), ones);
  }

  /// MC1x1 only (shell 0 is one position).
  void enable_early_stop() {
    ones_.assign(points_.dims(), 1);
    least_radius_ = 0;
    while (ball(least_radius_) < k_) ++least_radius_;
    best_.least_cost = least_shell_cost(points_.dims(), k_);
    if (!points_.any_wrap() && points_.dims() <= 3)
      best_.least_sum = distinct_points_lower_bound(points_.dims(), k_);
  }

  Selection result() {
    if (first_wins_ && !winner_lo_.empty()) {
      list(winner_lo_.data(), winner_len_.data(), winner_shell_, k_ - winner_before_);
      best_.set = chosen_;
      best_.sum = pairwise_sum(points_, chosen_);
    }
    return Selection::heuristic(best_.set, best_.sum, evaluated_);
  }

 private:
  /// (2r+1)^d, capped above k.
  std::int64_t ball(int r) const {
    std::int64_t volume = 1;
    for (int axis = 0; axis < points_.dims() && volume <= k_; ++axis) volume *= 2 * r + 1;
    return volume;
  }

  /// True when the centre has the least possible cost. Proof: with R0 = min{s : (2s+1)^d ≥ k}
  /// and C(s) ≤ (2s+1)^d (distinct points), cost = Σ_s max(0, k − C(s)) ≥ least, with equality
  /// iff C(s) = (2s+1)^d for s < R0 (the ball of radius R0 − 1 is full, hence all smaller ones)
  /// and C(R0) ≥ k (hence all larger).
  bool least_cost_at(const int* centre, std::int64_t& inner) {
    poll_.add(lookups_);
    if (least_radius_ > 0) {
      inner = counts_.count_near_box(centre, ones_.data(), least_radius_ - 1);
      if (inner != ball(least_radius_ - 1)) return false;
    }
    poll_.add(lookups_);
    return counts_.count_near_box(centre, ones_.data(), least_radius_) >= k_;
  }

  /// The shell cost of the box (lo, len), and in probe_ its last shell − 1.
  std::int64_t cost_of(const int* lo, const int* len) {
    std::int64_t cost = 0;
    for (int shell = 0;; ++shell) {
      const std::int64_t count = counts_.count_near_box(lo, len, shell);
      poll_.add(lookups_);
      if (count >= k_) {
        probe_ = shell - 1;
        return cost;
      }
      cost += k_ - count;
    }
  }

  /// True when the box grown by `shell` is entirely occupied and crosses no ring seam.
  bool full_pattern(std::span<const int> lo, std::span<const int> len, int shell,
                    std::int64_t count) const {
    std::int64_t volume = 1;
    for (int axis = 0; axis < points_.dims(); ++axis) {
      const int ring = points_.ring(axis);
      const std::int64_t first = static_cast<std::int64_t>(lo[axis]) - shell;
      const std::int64_t last = static_cast<std::int64_t>(lo[axis]) + len[axis] - 1 + shell;
      if (ring > 0 && (first < 0 || last >= ring)) return false;
      volume *= last - first + 1;
    }
    return count == volume;
  }

  /// chosen_ = the points of shells below `shell` and `need` of shell `shell` by the tie rule
  /// (lowest indices, or L1-nearest then lowest index), sorted.
  void list(const int* lo, const int* len, int shell, std::int64_t need) {
    chosen_.clear();
    partial_.clear();
    counts_.for_each_near_box(lo, len, shell, [&](int index, int at, int l1) {
      if (at < shell) {
        chosen_.push_back(index);
      } else {
        partial_.push_back(detail::shell_key(first_wins_, l1, index));
      }
    });
    poll_.add(static_cast<std::int64_t>(chosen_.size() + partial_.size()));
    detail::take_first_of_shell(partial_, need, chosen_);
  }

  const PointSet& points_;
  int k_;
  bool first_wins_;
  const BoxCounts& counts_;
  TimeLimitPoll& poll_;
  std::int64_t lookups_;
  bool ordered_ = false;  // input order lexicographic, last axis slowest
  Best best_{first_wins_};
  std::vector<std::vector<int>> seen_;  // sides of the full patterns already listed
  std::vector<int> winner_lo_, winner_len_, chosen_;
  int winner_shell_ = 0;
  int probe_ = 0;
  int least_radius_ = 0;  // R0 of least_cost_at
  std::vector<int>
      ones_;  // the shell counted first (the last best's shell − 1): a quick lower bound
  std::int64_t winner_before_ = 0;
  std::vector<std::uint64_t> partial_;
  std::int64_t evaluated_ = 0;
};

/// Grids up to this many cells get box counts (MC1x1 on a 256³ machine).
constexpr std::int64_t kMaxCountedCells = std::int64_t{1} << 24;

/// Runs `visit(scan, distinct)` on a CountedShellScan when the points are distinct and their grid
/// is not much larger than the points' pairs (building it costs less than scanning all points
/// per candidate), else on a ShellScan. `early_stop`: MC1x1's (candidates are positions).
template <class Visit>
Selection scan_shells(const PointSet& points, int k, ShellTies ties, bool early_stop,
                      const TimeLimit* time_limit, Visit&& visit) {
  TimeLimitPoll poll(time_limit);
  poll.check();
  const std::int64_t n = points.size();
  const BoxCounts counts(points, std::min(kMaxCountedCells, std::max(8 * n + 256, n * n)));
  if (counts.usable()) {
    poll.add(counts.cells());
    CountedShellScan scan(points, k, ties, counts, poll);
    if (early_stop) scan.enable_early_stop();
    visit(scan, true);
    return scan.result();
  }
  ShellScan scan(points, k, ties, time_limit);
  if (early_stop) scan.enable_early_stop();
  visit(scan, false);
  return scan.result();
}

Selection trivial(const PointSet& points, int k) {
  Selection s;
  for (int i = 0; i < std::min(k, points.size()); ++i) s.indices.push_back(i);
  s.sum = pairwise_sum(points, s.indices);
  return s;
}

/// Input points in order, skipping repeats of an earlier point (they give the same shells).
std::vector<int> distinct_points(const PointSet& points) {
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

}  // namespace

Selection mc_shaped(const PointSet& points, int k, std::vector<int> shape,
                    const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return trivial(points, points.size());
  const int d = points.dims();
  shape.resize(d, 1);
  for (auto& side : shape) side = std::max(side, 1);
  std::sort(shape.begin(), shape.end());
  std::vector<std::vector<int>> orientations;
  do orientations.push_back(shape);
  while (std::next_permutation(shape.begin(), shape.end()));
  return scan_shells(points, k, ShellTies::sum, false, time_limit, [&](auto& scan, bool distinct) {
    std::vector<int> centres;
    if (!distinct) centres = distinct_points(points);
    const int count = distinct ? points.size() : static_cast<int>(centres.size());
    for (int c = 0; c < count; ++c) {
      const auto lo = points.point(distinct ? c : centres[c]);
      for (const auto& len : orientations) scan.evaluate(lo, len);
    }
  });
}

Selection mc1x1(const PointSet& points, int k, const TimeLimit* time_limit) {
  return mc1x1(points, k, ShellTies::first, time_limit);
}

Selection mc1x1(const PointSet& points, int k, ShellTies ties, const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return trivial(points, points.size());
  const std::vector<int> ones(points.dims(), 1);
  return scan_shells(points, k, ties, true, time_limit, [&](auto& scan, bool distinct) {
    std::vector<int> centres;
    if (!distinct) centres = distinct_points(points);
    const std::int64_t count = distinct ? points.size() : static_cast<int>(centres.size());
    auto centre_at = [&](std::int64_t c) {
      return points.point(distinct ? static_cast<int>(c) : centres[static_cast<std::size_t>(c)]);
    };
    scan.scan_centres(count, centre_at, ones);
  });
}

Selection mc1x1_over_grid(const PointSet& points, int k,
                          const std::vector<std::vector<int>>& axis_values, ShellTies ties,
                          const TimeLimit* time_limit) {
  if (k <= 0) return {};
  if (k >= points.size()) return trivial(points, points.size());
  const int d = points.dims();
  for (const auto& vals : axis_values)
    if (vals.empty()) return {};
  const std::vector<int> ones(d, 1);
  std::int64_t count = 1;
  for (const auto& vals : axis_values) count *= static_cast<std::int64_t>(vals.size());
  return scan_shells(points, k, ties, true, time_limit, [&](auto& scan, bool) {
    std::vector<int> lo(d);
    auto centre_at = [&](std::int64_t i) {  // the i-th grid position, axis 0 fastest
      for (int axis = 0; axis < d; ++axis) {
        const auto size = static_cast<std::int64_t>(axis_values[axis].size());
        lo[axis] = axis_values[axis][i % size];
        i /= size;
      }
      return std::span<const int>(lo);
    };
    scan.scan_centres(count, centre_at, ones);
  });
}

}  // namespace allocsim::geom
