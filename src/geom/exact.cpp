// Exact optimum by branch and bound (see exact.hpp for the bounds and symmetry breaking).
#include "allocsim/geom/exact.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "allocsim/geom/local_search.hpp"

namespace allocsim::geom {

namespace {

constexpr std::int64_t kInf = std::numeric_limits<std::int64_t>::max() / 4;

/// The points the search works on, reordered so that equal points (a site) are adjacent and
/// sites are in lexicographic order; local id -> original index.
struct Prepared {
  PointSet points;
  std::vector<int> original;
  std::vector<int> site_begin;  // sites + 1 entries
  bool full_box = false;        // distinct points filling a box

  Prepared(const PointSet& source, const std::vector<int>& keep) {
    const int d = source.dims();
    std::vector<int> order = keep;
    auto less = [&](int a, int b) {
      for (int axis = 0; axis < d; ++axis)
        if (source.coord(a, axis) != source.coord(b, axis))
          return source.coord(a, axis) < source.coord(b, axis);
      return a < b;
    };
    std::sort(order.begin(), order.end(), less);
    points = PointSet(d, source.rings());
    points.reserve(static_cast<int>(order.size()));
    for (const int i : order) points.add(source.point(i));
    original = order;
    const int n = points.size();
    for (int i = 0; i < n; ++i) {
      bool same = i > 0;
      for (int axis = 0; axis < d && same; ++axis)
        same = points.coord(i, axis) == points.coord(i - 1, axis);
      if (!same) site_begin.push_back(i);
    }
    site_begin.push_back(n);
    full_box = is_full_box(points, static_cast<int>(site_begin.size()) - 1);
  }

  static bool is_full_box(const PointSet& p, int sites) {
    if (p.size() == 0 || sites != p.size()) return false;
    std::int64_t volume = 1;
    for (int axis = 0; axis < p.dims(); ++axis) {
      int lo = p.coord(0, axis), hi = lo;
      for (int i = 1; i < p.size(); ++i) {
        lo = std::min(lo, p.coord(i, axis));
        hi = std::max(hi, p.coord(i, axis));
      }
      volume *= hi - lo + 1;
      if (volume > p.size()) return false;
    }
    return volume == p.size();
  }
};

/// Depth-first branch and bound over sites in order (see exact.hpp).
class Search {
 public:
  Search(const Prepared& prep, int k, const std::vector<std::int64_t>& doll, BudgetClock& clock,
         std::int64_t upper)
      : prep_(prep),
        pts_(prep.points),
        n_(pts_.size()),
        d_(pts_.dims()),
        k_(k),
        doll_(doll),
        clock_(clock),
        poll_(clock.time_limit()),
        ub_(upper) {
    f_.assign(n_, 0);
    fa_.assign(static_cast<std::size_t>(n_) * d_, 0);
    sites_ = static_cast<int>(prep.site_begin.size()) - 1;
    order_.resize(d_);
    for (int axis = 0; axis < d_; ++axis) {
      auto& ord = order_[axis];
      ord.resize(n_);
      std::iota(ord.begin(), ord.end(), 0);
      std::stable_sort(ord.begin(), ord.end(),
                       [&](int a, int b) { return pts_.coord(a, axis) < pts_.coord(b, axis); });
    }
    // star_[p * k + j] = sum of the j smallest distances from p to the other points.
    star_.assign(static_cast<std::size_t>(n_) * k_, 0);
    std::vector<std::int64_t> dist;
    for (int p = 0; p < n_; ++p) {
      poll_.add(n_);
      dist.clear();
      for (int q = 0; q < n_; ++q)
        if (q != p) dist.push_back(pts_.distance(p, q));
      const int take = std::min<int>(k_ - 1, static_cast<int>(dist.size()));
      std::partial_sort(dist.begin(), dist.begin() + take, dist.end());
      std::int64_t acc = 0;
      for (int j = 1; j < k_; ++j) {
        if (j <= take)
          acc += dist[j - 1];
        else
          acc = kInf;
        star_[static_cast<std::size_t>(p) * k_ + j] = acc;
      }
    }
    restrict_first_ = prep.full_box;
    if (n_ > 0) first_value_ = pts_.coord(0, 0);
    pending_.assign(k_ + 1, kInf);
    suffix_.resize(k_ + 1);
  }

  /// Lower bound for choosing r more points among local ids >= cand_begin given the current
  /// chosen set (max of bounds A, B, C).
  std::int64_t bound(int cand_begin, int r) {
    const int m = n_ - cand_begin;
    if (m < r) return kInf;
    if (r == 0) return w_;
    // (B) Russian doll.
    scratch_.assign(f_.begin() + cand_begin, f_.end());
    std::int64_t best = w_ + smallest_sum(scratch_, r) + doll_[r];
    if (best >= ub_) return best;
    // (A) per axis windows.
    std::int64_t a_total = w_;
    for (int axis = 0; axis < d_ && a_total < ub_ + 1; ++axis)
      a_total += axis_part(axis, cand_begin, r);
    best = std::max(best, a_total);
    if (best >= ub_) return best;
    // (C) Gilmore–Lawler with half stars (computed doubled to stay in integers).
    scratch_.resize(m);
    for (int i = 0; i < m; ++i) {
      const int p = cand_begin + i;
      scratch_[i] = 2 * f_[p] + star_[static_cast<std::size_t>(p) * k_ + (r - 1)];
    }
    const std::int64_t doubled = smallest_sum(scratch_, r);
    best = std::max(best, w_ + (doubled + 1) / 2);
    return best;
  }

  void run() {
    if (k_ > n_) return;
    dfs(0, k_, 0);
  }

  std::int64_t upper() const { return ub_; }
  const std::vector<int>& best_local() const { return best_; }
  bool aborted() const { return aborted_; }
  std::int64_t abort_bound() const { return abort_bound_; }

 private:
  static std::int64_t smallest_sum(std::vector<std::int64_t>& values, int r) {
    if (r < static_cast<int>(values.size()))
      std::nth_element(values.begin(), values.begin() + (r - 1), values.end());
    std::int64_t total = 0;
    for (int i = 0; i < r; ++i) total += values[i];
    return total;
  }

  /// min over r-subsets T of candidates of Σ_{t∈T} f_axis(t) + W_axis(T).
  std::int64_t axis_part(int axis, int cand_begin, int r) {
    const std::int64_t* fa = fa_.data() + static_cast<std::size_t>(axis) * n_;
    if (pts_.wraps(axis)) {
      scratch_.clear();
      for (int p = cand_begin; p < n_; ++p) scratch_.push_back(fa[p]);
      return smallest_sum(scratch_, r);
    }
    vals_.clear();
    fvals_.clear();
    for (const int p : order_[axis])
      if (p >= cand_begin) {
        vals_.push_back(pts_.coord(p, axis));
        fvals_.push_back(fa[p]);
      }
    const int m = static_cast<int>(vals_.size());
    std::int64_t s1 = 0, s2 = 0, sf = 0;
    for (int i = 0; i < r; ++i) {
      s1 += vals_[i];
      s2 += static_cast<std::int64_t>(i) * vals_[i];
      sf += fvals_[i];
    }
    std::int64_t best = sf + 2 * s2 - (r - 1) * s1;
    for (int l = 0; l + r < m; ++l) {
      s2 = s2 - s1 + vals_[l] + static_cast<std::int64_t>(r - 1) * vals_[l + r];
      s1 = s1 - vals_[l] + vals_[l + r];
      sf = sf - fvals_[l] + fvals_[l + r];
      best = std::min(best, sf + 2 * s2 - (r - 1) * s1);
    }
    return best;
  }

  void include(int rep, int count, int from, int sign) {
    for (int p = from; p < n_; ++p) {
      std::int64_t total = 0;
      for (int axis = 0; axis < d_; ++axis) {
        const std::int64_t da =
            static_cast<std::int64_t>(sign) * count *
            pts_.axis_distance(axis, pts_.coord(rep, axis), pts_.coord(p, axis));
        fa_[static_cast<std::size_t>(axis) * n_ + p] += da;
        total += da;
      }
      f_[p] += total;
    }
  }

  void dfs(int next_site, int r, int depth) {
    const auto& site_begin = prep_.site_begin;
    // Suffix bounds: (B) for "the next chosen site is >= s", nondecreasing in s.
    auto& suffix = suffix_[depth];
    suffix.assign(sites_ - next_site + 1, kInf);
    heap_.clear();
    poll_.add(n_ - site_begin[next_site] + 1);
    std::int64_t heap_sum = 0;
    for (int s = sites_ - 1; s >= next_site; --s) {
      for (int p = site_begin[s]; p < site_begin[s + 1]; ++p) {
        if (static_cast<int>(heap_.size()) < r) {
          heap_.push_back(f_[p]);
          std::push_heap(heap_.begin(), heap_.end());
          heap_sum += f_[p];
        } else if (f_[p] < heap_.front()) {
          heap_sum += f_[p] - heap_.front();
          std::pop_heap(heap_.begin(), heap_.end());
          heap_.back() = f_[p];
          std::push_heap(heap_.begin(), heap_.end());
        }
      }
      if (static_cast<int>(heap_.size()) == r) suffix[s - next_site] = w_ + heap_sum + doll_[r];
    }
    for (int s = next_site; s < sites_; ++s) {
      if (suffix[s - next_site] >= ub_) break;
      const int rep = site_begin[s];
      if (depth == 0 && restrict_first_ && pts_.coord(rep, 0) != first_value_) break;
      pending_[depth] = suffix[s - next_site];
      const int mult = site_begin[s + 1] - rep;
      for (int c = std::min(mult, r); c >= 1; --c) {
        const std::int64_t w_new = w_ + c * f_[rep];
        const int rest = r - c;
        if (rest == 0) {
          if (w_new < ub_) record(s, c, w_new);
          continue;
        }
        const int cand_begin = site_begin[s + 1];
        if (n_ - cand_begin < rest) continue;
        if (clock_.tick()) {
          abort(depth);
          return;
        }
        poll_.add(2LL * (n_ - cand_begin) * d_);  // include() twice, bound()
        include(rep, c, cand_begin, +1);
        const std::int64_t w_old = w_;
        w_ = w_new;
        chosen_.emplace_back(s, c);
        if (bound(cand_begin, rest) < ub_) dfs(s + 1, rest, depth + 1);
        chosen_.pop_back();
        w_ = w_old;
        include(rep, c, cand_begin, -1);
        if (aborted_) return;
      }
    }
  }

  void abort(int depth) {
    aborted_ = true;
    abort_bound_ = ub_;
    for (int level = 0; level <= depth; ++level)
      abort_bound_ = std::min(abort_bound_, pending_[level]);
  }

  void record(int site, int count, std::int64_t value) {
    ub_ = value;
    best_.clear();
    for (const auto& [s, c] : chosen_)
      for (int i = 0; i < c; ++i) best_.push_back(prep_.site_begin[s] + i);
    for (int i = 0; i < count; ++i) best_.push_back(prep_.site_begin[site] + i);
  }

  const Prepared& prep_;
  const PointSet& pts_;
  int n_, d_, k_, sites_ = 0;
  const std::vector<std::int64_t>& doll_;
  BudgetClock& clock_;
  TimeLimitPoll poll_;  // the run's time limit, by work done (a node's cost grows with n)
  std::int64_t ub_;
  std::int64_t w_ = 0;
  std::vector<std::int64_t> f_, fa_, star_, scratch_, fvals_, heap_, pending_;
  std::vector<int> vals_, best_;
  std::vector<std::vector<int>> order_;
  std::vector<std::vector<std::int64_t>> suffix_;
  std::vector<std::pair<int, int>> chosen_;
  bool restrict_first_ = false;
  int first_value_ = 0;
  bool aborted_ = false;
  std::int64_t abort_bound_ = 0;
};

Selection first_points(const PointSet& points, int k) {
  Selection s;
  for (int i = 0; i < std::min(k, points.size()); ++i) s.indices.push_back(i);
  s.sum = pairwise_sum(points, s.indices);
  s.lower_bound = s.sum;
  s.proven = true;
  return s;
}

Selection solve(const PointSet& points, int k, const ExactOptions& options, BudgetClock& clock) {
  const int n = points.size();
  if (k <= 1 || k >= n) return first_points(points, std::max(k, 0));
  Selection incumbent =
      options.incumbent ? *options.incumbent : mm_inc(points, k, clock.time_limit());

  // Symmetry breaking for a full box: cut mesh axes to the widest width an optimal set can have.
  std::vector<int> keep(n);
  std::iota(keep.begin(), keep.end(), 0);
  {
    const Prepared whole(points, keep);
    if (whole.full_box) {
      const int width = max_optimal_width(k, incumbent.sum);
      std::vector<int> limit(points.dims(), std::numeric_limits<int>::max());
      for (int axis = 0; axis < points.dims(); ++axis)
        if (!points.wraps(axis)) limit[axis] = whole.points.coord(0, axis) + width - 1;
      keep.clear();
      for (int i = 0; i < n; ++i) {
        bool inside = true;
        for (int axis = 0; axis < points.dims() && inside; ++axis)
          inside = points.coord(i, axis) <= limit[axis];
        if (inside) keep.push_back(i);
      }
    }
  }
  const Prepared prep(points, keep);

  // Russian doll: optima (or proven bounds) for fewer points on the same set.
  std::vector<std::int64_t> doll(k + 1, 0);
  if (!points.any_wrap() && points.dims() <= 3 && prep.site_begin.size() == keep.size() + 1)
    for (int r = 0; r < k; ++r) doll[r] = distinct_points_lower_bound(points.dims(), r);
  const int known = static_cast<int>(options.known_bounds.size());
  for (int r = 0; r < std::min(known, k); ++r) doll[r] = std::max(doll[r], options.known_bounds[r]);
  if (options.russian_doll) {
    for (int r = std::max(2, known); r < k && !clock.exhausted(); ++r) {
      ExactOptions sub;
      sub.known_bounds.assign(doll.begin(), doll.begin() + r);
      const Selection part = solve(prep.points, r, sub, clock);
      doll[r] = std::max(doll[r], part.lower_bound);
    }
  }
  for (int r = 1; r < k; ++r) doll[r] = std::max(doll[r], doll[r - 1]);
  const std::int64_t known_k = known > k ? options.known_bounds[k] : 0;
  doll[k] = 0;

  Search search(prep, k, doll, clock, incumbent.sum);
  const std::int64_t root = std::max(search.bound(0, k), known_k);
  if (!clock.exhausted() && root < incumbent.sum) search.run();

  Selection result;
  if (!search.best_local().empty()) {
    for (const int local : search.best_local()) result.indices.push_back(prep.original[local]);
    std::sort(result.indices.begin(), result.indices.end());
    result.sum = search.upper();
  } else {
    result.indices = incumbent.indices;
    result.sum = incumbent.sum;
  }
  const bool finished = !clock.exhausted() || (root >= incumbent.sum);
  if (finished && !search.aborted()) {
    result.proven = true;
    result.lower_bound = result.sum;
  } else {
    result.lower_bound =
        std::min(result.sum, std::max(root, search.aborted() ? search.abort_bound() : 0));
  }
  return result;
}

}  // namespace

int max_optimal_width(int k, std::int64_t upper) {
  std::vector<std::int64_t> costs;
  for (int left = 1; left < k; ++left)
    costs.push_back(static_cast<std::int64_t>(left) * (k - left));
  std::sort(costs.begin(), costs.end());
  int width = 1;
  std::int64_t total = 0;
  for (const auto cost : costs) {
    if (total + cost > upper) break;
    total += cost;
    ++width;
  }
  return width;
}

Selection exact_optimum(const PointSet& points, int k, const ExactOptions& options) {
  BudgetClock clock(options.budget);
  Selection result = solve(points, k, options, clock);
  result.nodes = clock.nodes();
  result.seconds = clock.elapsed();
  return result;
}

Selection brute_force_optimum(const PointSet& points, int k) {
  const int n = points.size();
  if (k <= 0 || k > n) return first_points(points, std::clamp(k, 0, n));
  Selection best;
  best.sum = kInf;
  std::vector<int> current;
  std::int64_t nodes = 0;
  // Recursive enumeration with the running sum.
  auto recurse = [&](auto&& self, int next, std::int64_t sum) -> void {
    ++nodes;
    if (static_cast<int>(current.size()) == k) {
      if (sum < best.sum) best.sum = sum, best.indices = current;
      return;
    }
    for (int i = next; i <= n - (k - static_cast<int>(current.size())); ++i) {
      std::int64_t add = 0;
      for (const int j : current) add += points.distance(i, j);
      current.push_back(i);
      self(self, i + 1, sum + add);
      current.pop_back();
    }
  };
  recurse(recurse, 0, 0);
  best.lower_bound = best.sum;
  best.proven = true;
  best.nodes = nodes;
  return best;
}

}  // namespace allocsim::geom
