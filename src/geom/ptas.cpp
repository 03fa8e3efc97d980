// Bender et al.'s PTAS (Algorithmica 2008, Section 4); see ptas.hpp.
#include "allocsim/geom/ptas.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "allocsim/util/error.hpp"

namespace allocsim::geom {

namespace {

class Ptas {
 public:
  Ptas(const PointSet& points, int k, int m, const Budget& budget)
      : pts_(points),
        n_(points.size()),
        d_(points.dims()),
        k_(k),
        m_(m),
        clock_(budget),
        poll_(budget.time_limit) {
    shares_.resize(m);
    for (int i = 0; i < m; ++i) shares_[i] = k / m + (i < k % m ? 1 : 0);
    weights_.resize(m);
    for (int i = 0; i < m; ++i) {
      int before = 0, after = 0;
      for (int j = 0; j < i; ++j) before += shares_[j];
      for (int j = i + 1; j < m; ++j) after += shares_[j];
      weights_[i] = before - after;
    }
    rank_.resize(d_);
    for (int axis = 0; axis < d_; ++axis) {
      std::vector<int> order(n_);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return points.coord(a, axis) < points.coord(b, axis); });
      rank_[axis].resize(n_);
      for (int r = 0; r < n_; ++r) rank_[axis][order[r]] = r;
    }
    // All cut vectors b_0 = 0 <= b_1 <= ... <= b_m = n with b_{i+1} - b_i >= share_i.
    std::vector<int> cuts(m + 1, 0);
    cuts[m] = n_;
    enumerate_cuts(cuts, 1);
    cells_ = 1;
    for (int axis = 0; axis < d_; ++axis) cells_ *= m;
    cell_slab_.resize(static_cast<std::size_t>(cells_) * d_);
    for (int t = 0; t < cells_; ++t) {
      int rest = t;
      for (int axis = 0; axis < d_; ++axis) {
        cell_slab_[static_cast<std::size_t>(t) * d_ + axis] = rest % m;
        rest /= m;
      }
    }
    slab_of_.assign(static_cast<std::size_t>(d_) * n_, 0);
    chosen_cuts_.assign(d_, 0);
    cell_points_.resize(cells_);
    prefix_.resize(cells_);
    count_.assign(cells_, 0);
    quota_.assign(static_cast<std::size_t>(d_) * m, 0);
    suffix_cap_.assign(static_cast<std::size_t>(cells_ + 1) * d_ * m, 0);
  }

  Selection run() {
    if (!cut_vectors_.empty()) over_axes(0);
    Selection result;
    result.indices = best_;
    std::sort(result.indices.begin(), result.indices.end());
    result.sum = best_sum_;
    result.nodes = clock_.nodes();
    result.seconds = clock_.elapsed();
    result.proven = !clock_.exhausted() && !best_.empty();
    return result;
  }

 private:
  /// Slabs with a zero share (k < m: the last m − k slabs) are kept empty: OPT has no point
  /// there, and the last non-empty slab then reaches the end like an outer slab.
  void enumerate_cuts(std::vector<int>& cuts, int i) {
    poll_.add(m_);
    if (i == m_) {
      const bool empty_ok = shares_[m_ - 1] > 0 || cuts[m_ - 1] == n_;
      if (empty_ok && cuts[m_] - cuts[m_ - 1] >= shares_[m_ - 1]) cut_vectors_.push_back(cuts);
      return;
    }
    int tail = 0;
    for (int j = i; j < m_; ++j) tail += shares_[j];
    const int first = cuts[i - 1] + shares_[i - 1];
    const int last = shares_[i - 1] == 0 ? cuts[i - 1] : n_ - tail;
    for (int b = first; b <= last; ++b) {
      cuts[i] = b;
      enumerate_cuts(cuts, i + 1);
    }
  }

  void over_axes(int axis) {
    if (axis == d_) {
      evaluate_cuts();
      return;
    }
    for (std::size_t v = 0; v < cut_vectors_.size(); ++v) {
      if (clock_.exhausted()) return;
      const auto& cuts = cut_vectors_[v];
      poll_.add(n_);
      for (int p = 0; p < n_; ++p) {
        const int r = rank_[axis][p];
        // slab i holds ranks in [cuts[i], cuts[i+1]).
        const int slab = static_cast<int>(std::upper_bound(cuts.begin() + 1, cuts.end() - 1, r) -
                                          (cuts.begin() + 1));
        slab_of_[static_cast<std::size_t>(axis) * n_ + p] = slab;
      }
      over_axes(axis + 1);
    }
  }

  void evaluate_cuts() {
    if (clock_.tick()) return;
    poll_.add(static_cast<std::int64_t>(n_) * (d_ + 8));  // bucketing and sorting the cells
    for (auto& list : cell_points_) list.clear();
    for (int p = 0; p < n_; ++p) {
      int cell = 0, stride = 1;
      for (int axis = 0; axis < d_; ++axis) {
        cell += slab_of_[static_cast<std::size_t>(axis) * n_ + p] * stride;
        stride *= m_;
      }
      cell_points_[cell].push_back(p);
    }
    // Order each cell's points by the linear objective (gradient direction), ties by the
    // perturbation ε·index·Σ weights.
    for (int t = 0; t < cells_; ++t) {
      auto& list = cell_points_[t];
      if (list.size() < 2) continue;
      std::int64_t weight_sum = 0;
      for (int axis = 0; axis < d_; ++axis) weight_sum += weights_[slab(t, axis)];
      auto key = [&](int p) { return linear_key(t, p); };
      std::sort(list.begin(), list.end(), [&](int a, int b) {
        const std::int64_t ka = key(a), kb = key(b);
        if (ka != kb) return ka < kb;
        return weight_sum >= 0 ? a < b : a > b;
      });
    }
    // Prefix sums of the sorted linear keys per cell, and for pruning the least prefix each
    // remaining cell could add: W(S) = Σ linear keys + Σ within-slab sums ≥ Σ linear keys.
    suffix_min_.assign(cells_ + 1, 0);
    for (int t = cells_ - 1; t >= 0; --t) {
      auto& prefix = prefix_[t];
      const auto& list = cell_points_[t];
      prefix.assign(list.size() + 1, 0);
      std::int64_t least = 0;
      for (std::size_t j = 0; j < list.size(); ++j) {
        prefix[j + 1] = prefix[j] + linear_key(t, list[j]);
        least = std::min(least, prefix[j + 1]);
      }
      suffix_min_[t] = suffix_min_[t + 1] + least;
    }
    // Capacities of the cells still to fill, per axis slab.
    std::fill(suffix_cap_.begin(), suffix_cap_.end(), 0);
    for (int t = cells_ - 1; t >= 0; --t) {
      for (int axis = 0; axis < d_; ++axis)
        for (int i = 0; i < m_; ++i) cap(t, axis, i) = cap(t + 1, axis, i);
      for (int axis = 0; axis < d_; ++axis)
        cap(t, axis, slab(t, axis)) += static_cast<int>(cell_points_[t].size());
    }
    for (int axis = 0; axis < d_; ++axis)
      for (int i = 0; i < m_; ++i) {
        quota_[static_cast<std::size_t>(axis) * m_ + i] = shares_[i];
        if (cap(0, axis, i) < shares_[i]) return;  // a slab without enough points
      }
    fill_cell(0, 0);
  }

  std::int64_t linear_key(int cell, int p) const {
    std::int64_t value = 0;
    for (int axis = 0; axis < d_; ++axis)
      value += static_cast<std::int64_t>(weights_[slab(cell, axis)]) * pts_.coord(p, axis);
    return value;
  }
  int slab(int cell, int axis) const {
    return cell_slab_[static_cast<std::size_t>(cell) * d_ + axis];
  }
  int& cap(int cell, int axis, int i) {
    return suffix_cap_[(static_cast<std::size_t>(cell) * d_ + axis) * m_ + i];
  }
  int& quota(int axis, int i) { return quota_[static_cast<std::size_t>(axis) * m_ + i]; }

  void fill_cell(int t, std::int64_t linear) {
    if (clock_.exhausted()) return;
    poll_.add(d_);
    // The linear bound needs the L1 decomposition along lines: not on ring axes.
    if (!pts_.any_wrap() && linear + suffix_min_[t] >= best_sum_) return;
    if (t == cells_) {
      leaf();
      return;
    }
    int upper = static_cast<int>(cell_points_[t].size());
    for (int axis = 0; axis < d_; ++axis) upper = std::min(upper, quota(axis, slab(t, axis)));
    for (int c = upper; c >= 0; --c) {
      bool feasible = true;
      for (int axis = 0; axis < d_ && feasible; ++axis) {
        const int i = slab(t, axis);
        feasible = quota(axis, i) - c <= cap(t + 1, axis, i);
      }
      if (!feasible) break;  // smaller c leave even more quota for fewer cells
      for (int axis = 0; axis < d_; ++axis) quota(axis, slab(t, axis)) -= c;
      count_[t] = c;
      fill_cell(t + 1, linear + prefix_[t][c]);
      for (int axis = 0; axis < d_; ++axis) quota(axis, slab(t, axis)) += c;
    }
    count_[t] = 0;
  }

  void leaf() {
    if (clock_.tick()) return;
    poll_.add(static_cast<std::int64_t>(k_) * d_ * 4);
    chosen_.clear();
    for (int t = 0; t < cells_; ++t)
      for (int j = 0; j < count_[t]; ++j) chosen_.push_back(cell_points_[t][j]);
    std::int64_t sum = 0;
    for (int axis = 0; axis < d_; ++axis) {
      values_.clear();
      for (const int p : chosen_) values_.push_back(pts_.coord(p, axis));
      std::sort(values_.begin(), values_.end());
      sum += sorted_axis_pair_sum(values_, pts_.ring(axis));
    }
    if (sum < best_sum_) {
      best_sum_ = sum;
      best_ = chosen_;
    }
  }

  const PointSet& pts_;
  int n_, d_, k_, m_;
  BudgetClock clock_;
  TimeLimitPoll poll_;  // the run's time limit, by work done (a tick's cost grows with n)
  std::vector<int> shares_, weights_;
  std::vector<std::vector<int>> rank_;
  std::vector<std::vector<int>> cut_vectors_;
  int cells_ = 1;
  std::vector<int> cell_slab_, slab_of_, chosen_cuts_, count_, quota_, suffix_cap_;
  std::vector<std::vector<int>> cell_points_;
  std::vector<std::vector<std::int64_t>> prefix_;
  std::vector<std::int64_t> suffix_min_;
  std::vector<int> chosen_, best_, values_;
  std::int64_t best_sum_ = std::numeric_limits<std::int64_t>::max();
};

}  // namespace

double ptas_guarantee_factor(int m) {
  if (m <= 2) return -1;
  return 1.0 - 1.0 / (m - 2) - 2.0 / (m - 1);
}

Selection ptas(const PointSet& points, int k, int m, const Budget& budget, bool* completed) {
  if (m < 1) throw InputError("ptas needs m >= 1");
  const int n = points.size();
  if (k <= 1 || k >= n) {
    Selection s;
    for (int i = 0; i < std::clamp(k, 0, n); ++i) s.indices.push_back(i);
    s.sum = pairwise_sum(points, s.indices);
    s.lower_bound = s.sum;
    s.proven = true;
    if (completed) *completed = true;
    return s;
  }
  Selection result = Ptas(points, k, m, budget).run();
  if (completed) *completed = result.proven;
  if (result.indices.empty()) {  // budget ran out before any union was formed
    for (int i = 0; i < k; ++i) result.indices.push_back(i);
    result.sum = pairwise_sum(points, result.indices);
    result.proven = false;
  }
  const double factor = ptas_guarantee_factor(m);
  if (points.any_wrap()) result.proven = false;
  result.lower_bound = axis_window_lower_bound(points, k);
  if (result.proven && factor > 0)
    result.lower_bound = std::max<std::int64_t>(
        result.lower_bound,
        static_cast<std::int64_t>(std::floor(static_cast<double>(result.sum) * factor)));
  result.lower_bound = std::min(result.lower_bound, result.sum);
  return result;
}

}  // namespace allocsim::geom
