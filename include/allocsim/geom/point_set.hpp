#pragma once
// Point sets for the communication-aware allocation problem of Bender et al. ("Communication-aware
// processor allocation for supercomputers: finding point sets of small average distance",
// Algorithmica 50(2), 2008; WADS 2005): given n integer points in d dimensions, choose k of them
// whose sum of pairwise L1 distances is minimal. Shared types and helpers of the solvers in geom/.
#include <chrono>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "allocsim/util/time_limit.hpp"

namespace allocsim::geom {

/// A multiset of integer points in d dimensions (duplicates allowed), stored point-major.
/// Each axis has an optional ring length: 0 = a line (mesh axis, distance |a-b|); L > 0 = a ring
/// of L positions (torus axis, distance min(|a-b|, L-|a-b|); coordinates must lie in [0, L)).
class PointSet {
 public:
  PointSet() = default;
  /// An empty set of `dims`-dimensional points; `rings` is empty (all lines) or one per axis.
  explicit PointSet(int dims, std::vector<int> rings = {});
  /// One row per point, all of the same length.
  static PointSet from_rows(const std::vector<std::vector<int>>& rows, std::vector<int> rings = {});

  void add(std::span<const int> point);
  /// Appends many points at once: `coords` holds them point-major (a multiple of dims()).
  void add_rows(std::span<const int> coords);
  /// Appends, for each id in `ids`, the point at table[id · dims()] (a per-node coordinate
  /// table, e.g. the free nodes of a machine), with add_rows' checks.
  void add_gathered(std::span<const int> table, std::span<const int> ids);
  void reserve(int points) { coords_.reserve(static_cast<std::size_t>(points) * dims_); }
  int dims() const { return dims_; }
  int size() const { return dims_ == 0 ? 0 : static_cast<int>(coords_.size()) / dims_; }
  int coord(int point, int axis) const { return coords_[point * dims_ + axis]; }
  std::span<const int> point(int i) const {
    return {coords_.data() + i * dims_, std::size_t(dims_)};
  }
  std::vector<int> row(int i) const { return {point(i).begin(), point(i).end()}; }
  int ring(int axis) const { return rings_[axis]; }
  bool wraps(int axis) const { return rings_[axis] > 0; }
  bool any_wrap() const;
  const std::vector<int>& rings() const { return rings_; }

  /// The positions a grid over the points needs on `axis`: the whole ring on a wrapped axis,
  /// else the smallest interval holding every coordinate. Requires size() > 0.
  struct AxisWindow {
    int low = 0;
    int length = 0;
  };
  AxisWindow axis_window(int axis) const;

  /// Distance along `axis` between coordinates a and b (ring-aware).
  int axis_distance(int axis, int a, int b) const {
    const int d = a > b ? a - b : b - a;
    const int ring = rings_[axis];
    return ring > 0 && ring - d < d ? ring - d : d;
  }
  /// L1 (per-axis ring-aware) distance between points i and j.
  std::int64_t distance(int i, int j) const;
  /// The same between point i and an arbitrary location.
  std::int64_t distance_to(int i, std::span<const int> location) const;

 private:
  int dims_ = 0;
  std::vector<int> coords_;
  std::vector<int> rings_;
};

/// Sum over unordered pairs of chosen points of their distance: O(d · k log k) by sorting each
/// axis (the L1 sum separates by axis; ring axes use a two-pointer sweep).
std::int64_t pairwise_sum(const PointSet& points, std::span<const int> indices);
/// The same by brute force over all pairs (reference for tests).
std::int64_t pairwise_sum_brute(const PointSet& points, std::span<const int> indices);
/// One axis: sum over pairs of |a-b| (ring distance when ring > 0) of `values`, which must be
/// sorted ascending. O(len).
std::int64_t sorted_axis_pair_sum(std::span<const int> values, int ring);

/// What a solver returns. `indices` are positions in the input PointSet, ascending.
struct Selection {
  std::vector<int> indices;
  std::int64_t sum = 0;  ///< sum of pairwise distances of the chosen points
  /// A proven lower bound on the optimum: equal to `sum` when exact proved optimality; for the
  /// PTAS, sum × (1 − 1/(m−2) − 2/(m−1)) when its enumeration completed; otherwise a cheap bound.
  std::int64_t lower_bound = 0;
  /// exact: optimality proven; ptas: the guarantee holds (enumeration complete); heuristics: false.
  bool proven = false;
  std::int64_t nodes = 0;  ///< search nodes / configurations examined
  double seconds = 0;      ///< wall time of the solver

  /// A heuristic's answer: the chosen indices, their pairwise sum and how many candidates were
  /// examined (no bound proven).
  static Selection heuristic(std::vector<int> indices, std::int64_t sum, std::int64_t examined) {
    Selection selection;
    selection.indices = std::move(indices);
    selection.sum = sum;
    selection.nodes = examined;
    return selection;
  }
};

/// Work limit of the budgeted solvers (exact, ptas). Zero means unlimited. A node budget gives
/// deterministic results; a time budget depends on the machine's speed.
struct Budget {
  double seconds = 0;
  std::int64_t nodes = 0;
  /// Not a budget but the run's wall-clock limit (null: none): polled every 256 nodes, it throws
  /// TimeoutError out of the search instead of returning a best-so-far answer, so it never
  /// changes a result.
  const TimeLimit* time_limit = nullptr;
};

/// Tracks a Budget during a search (checks the clocks every 256 nodes).
class BudgetClock {
 public:
  explicit BudgetClock(const Budget& budget);
  /// Counts one node; true when the budget is exhausted (sticky). Throws TimeoutError when the
  /// run's time limit is spent.
  bool tick() {
    ++nodes_;
    if (exhausted_) return true;
    if (budget_.nodes > 0 && nodes_ > budget_.nodes) return exhausted_ = true;
    if ((nodes_ & 255) == 0) {
      if (budget_.time_limit) budget_.time_limit->check_time_limit();
      if (budget_.seconds > 0 && elapsed() > budget_.seconds) return exhausted_ = true;
    }
    return false;
  }
  /// The run's time limit (may be null), for the search's set-up loops.
  const TimeLimit* time_limit() const { return budget_.time_limit; }
  bool exhausted() const { return exhausted_; }
  std::int64_t nodes() const { return nodes_; }
  double elapsed() const;

 private:
  Budget budget_;
  std::chrono::steady_clock::time_point start_;
  std::int64_t nodes_ = 0;
  bool exhausted_ = false;
};

/// Chooses the k smallest keys (non-negative integers below `key_limit`), ties broken by lower
/// index, by counting: O(n + key_limit). Writes chosen indices ascending into `out`.
void select_smallest_keys(std::span<const std::int32_t> keys, int k, int key_limit,
                          std::vector<int>& histogram, std::vector<int>& out);

/// Cheap lower bound on the optimum for any k-subset (valid on mesh axes; ring axes contribute
/// 0): the L1 sum separates by axis and in one dimension the best k-subset of a multiset is a
/// window of k consecutive sorted values (Bender et al., proof of the 1D case), so
/// Σ_axis min_window W_axis is a bound. O(d · n log n).
std::int64_t axis_window_lower_bound(const PointSet& points, int k);

/// A proven lower bound on the sum of pairwise L1 distances of k distinct integer points in
/// `dims` dimensions (no ring axes): the unconstrained optimum. d = 1: (k³ − k)/6; d = 2: the
/// published optima for k ≤ 49 (Bender et al. Figure 2 for k ≤ 10; Demaine et al. 2011 beyond;
/// exact_optimum proves the same for k ≤ 38); d = 3: k ≤ 13 (OEIS A290190); beyond a table,
/// OPT(K)·C(k,2)/C(K,2) (the optimal average distance never decreases with k: dropping the
/// point with the largest distance sum keeps the average at most the same); other d: 0.
std::int64_t distinct_points_lower_bound(int dims, int k);
/// The least MC1x1 cost (sum of L∞ shell numbers) of k distinct points in Z^d around a point.
std::int64_t least_shell_cost(int dims, int k);
/// True when no two points have equal coordinates.
bool all_distinct(const PointSet& points);

/// Number of unordered pairs among k points.
inline std::int64_t pair_count(std::int64_t k) {
  return k * (k - 1) / 2;
}

}  // namespace allocsim::geom
