// Point sets and shared helpers of the geom/ solvers (see point_set.hpp).
#include "allocsim/geom/point_set.hpp"

#include <algorithm>
#include <stdexcept>

#include "allocsim/util/error.hpp"

namespace allocsim::geom {

PointSet::PointSet(int dims, std::vector<int> rings) : dims_(dims), rings_(std::move(rings)) {
  if (dims < 1) throw InputError("a point set needs at least one dimension");
  if (rings_.empty()) rings_.assign(dims, 0);
  if (static_cast<int>(rings_.size()) != dims)
    throw InputError("a point set needs one ring length per axis");
}

PointSet PointSet::from_rows(const std::vector<std::vector<int>>& rows, std::vector<int> rings) {
  if (rows.empty()) {
    const int dims = rings.empty() ? 1 : static_cast<int>(rings.size());
    return PointSet(dims, std::move(rings));
  }
  PointSet result(static_cast<int>(rows.front().size()), std::move(rings));
  result.reserve(static_cast<int>(rows.size()));
  for (const auto& row : rows) result.add(row);
  return result;
}

void PointSet::add(std::span<const int> point) {
  if (static_cast<int>(point.size()) != dims_)
    throw InputError("point of " + std::to_string(point.size()) + " coordinates in a " +
                     std::to_string(dims_) + "-dimensional point set");
  for (int axis = 0; axis < dims_; ++axis)
    if (rings_[axis] > 0 && (point[axis] < 0 || point[axis] >= rings_[axis]))
      throw InputError("coordinate " + std::to_string(point[axis]) + " outside ring of length " +
                       std::to_string(rings_[axis]));
  coords_.insert(coords_.end(), point.begin(), point.end());
}

PointSet::AxisWindow PointSet::axis_window(int axis) const {
  if (wraps(axis)) return {0, ring(axis)};
  int lo = coord(0, axis), hi = lo;
  for (int i = 1; i < size(); ++i) {
    lo = std::min(lo, coord(i, axis));
    hi = std::max(hi, coord(i, axis));
  }
  return {lo, hi - lo + 1};
}

namespace {
/// Throws unless every coordinate of `coords` (point-major, `rings.size()` per point) lies in
/// its axis's ring.
void check_in_rings(std::span<const int> coords, const std::vector<int>& rings) {
  const std::size_t dims = rings.size();
  for (std::size_t axis = 0; axis < dims; ++axis) {
    const int ring = rings[axis];
    if (ring <= 0) continue;
    for (std::size_t i = axis; i < coords.size(); i += dims)
      if (coords[i] < 0 || coords[i] >= ring)
        throw InputError("coordinate " + std::to_string(coords[i]) + " outside ring of length " +
                         std::to_string(ring));
  }
}
}  // namespace

void PointSet::add_rows(std::span<const int> coords) {
  if (dims_ == 0 || coords.size() % static_cast<std::size_t>(dims_) != 0)
    throw InputError(std::to_string(coords.size()) + " coordinates are not whole points of a " +
                     std::to_string(dims_) + "-dimensional point set");
  check_in_rings(coords, rings_);
  coords_.insert(coords_.end(), coords.begin(), coords.end());
}

void PointSet::add_gathered(std::span<const int> table, std::span<const int> ids) {
  const auto dims = static_cast<std::size_t>(dims_);
  if (dims == 0) throw InputError("points added to a 0-dimensional point set");
  const std::size_t rows = table.size() / dims, first = coords_.size();
  coords_.resize(first + ids.size() * dims);
  int* to = coords_.data() + first;
  for (const int id : ids) {
    if (id < 0 || static_cast<std::size_t>(id) >= rows) {
      coords_.resize(first);
      throw InputError("point " + std::to_string(id) + " is not in a table of " +
                       std::to_string(rows) + " points");
    }
    const int* from = table.data() + static_cast<std::size_t>(id) * dims;
    // Whole points at a time (a copy of a few ints is a memmove call per point).
    if (dims == 3) {
      to[0] = from[0], to[1] = from[1], to[2] = from[2];
    } else if (dims == 2) {
      to[0] = from[0], to[1] = from[1];
    } else {
      std::copy_n(from, dims, to);
    }
    to += dims;
  }
  try {
    check_in_rings(std::span<const int>(coords_).subspan(first), rings_);
  } catch (...) {
    coords_.resize(first);
    throw;
  }
}

bool PointSet::any_wrap() const {
  return std::any_of(rings_.begin(), rings_.end(), [](int r) { return r > 0; });
}

std::int64_t PointSet::distance(int i, int j) const {
  std::int64_t total = 0;
  for (int axis = 0; axis < dims_; ++axis)
    total += axis_distance(axis, coord(i, axis), coord(j, axis));
  return total;
}

std::int64_t PointSet::distance_to(int i, std::span<const int> location) const {
  std::int64_t total = 0;
  for (int axis = 0; axis < dims_; ++axis)
    total += axis_distance(axis, coord(i, axis), location[axis]);
  return total;
}

std::int64_t sorted_axis_pair_sum(std::span<const int> values, int ring) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  if (ring <= 0) {
    std::int64_t total = 0;
    for (std::int64_t i = 0; i < n; ++i) total += (2 * i - n + 1) * values[i];
    return total;
  }
  // Ring: for each i, partners j > i with 2(v_j - v_i) <= ring are at distance v_j - v_i, the
  // others at ring - (v_j - v_i). The split index only moves forward (two pointers).
  std::vector<std::int64_t> prefix(n + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + values[i];
  std::int64_t total = 0, split = 0;  // split = last index with 2(v_split - v_i) <= ring
  for (std::int64_t i = 0; i < n; ++i) {
    if (split < i) split = i;
    while (split + 1 < n && 2LL * (values[split + 1] - values[i]) <= ring) ++split;
    const std::int64_t near = split - i, far = n - 1 - split;
    total += prefix[split + 1] - prefix[i + 1] - values[i] * near;
    total +=
        static_cast<std::int64_t>(ring) * far - (prefix[n] - prefix[split + 1]) + values[i] * far;
  }
  return total;
}

std::int64_t pairwise_sum(const PointSet& points, std::span<const int> indices) {
  std::vector<int> values(indices.size());
  std::int64_t total = 0;
  for (int axis = 0; axis < points.dims(); ++axis) {
    for (std::size_t i = 0; i < indices.size(); ++i) values[i] = points.coord(indices[i], axis);
    std::sort(values.begin(), values.end());
    total += sorted_axis_pair_sum(values, points.ring(axis));
  }
  return total;
}

std::int64_t pairwise_sum_brute(const PointSet& points, std::span<const int> indices) {
  std::int64_t total = 0;
  for (std::size_t i = 0; i < indices.size(); ++i)
    for (std::size_t j = i + 1; j < indices.size(); ++j)
      total += points.distance(indices[i], indices[j]);
  return total;
}

BudgetClock::BudgetClock(const Budget& budget)
    : budget_(budget), start_(std::chrono::steady_clock::now()) {}

double BudgetClock::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void select_smallest_keys(std::span<const std::int32_t> keys, int k, int key_limit,
                          std::vector<int>& histogram, std::vector<int>& out) {
  out.clear();
  const int n = static_cast<int>(keys.size());
  if (k <= 0) return;
  if (k >= n) {
    for (int i = 0; i < n; ++i) out.push_back(i);
    return;
  }
  if (key_limit > 8 * n + 4096) {
    // Wide key range (large coordinates): select on (key, index) pairs instead of counting.
    std::vector<std::uint64_t> packed(n);
    for (int i = 0; i < n; ++i)
      packed[i] = (static_cast<std::uint64_t>(keys[i]) << 32) | static_cast<std::uint32_t>(i);
    std::nth_element(packed.begin(), packed.begin() + (k - 1), packed.end());
    for (int i = 0; i < k; ++i) out.push_back(static_cast<int>(packed[i] & 0xffffffffu));
    std::sort(out.begin(), out.end());
    return;
  }
  histogram.assign(key_limit + 1, 0);
  for (const auto key : keys) ++histogram[key];
  int below = 0, threshold = 0;
  while (below + histogram[threshold] < k) below += histogram[threshold++];
  int at_threshold = k - below;  // how many keys equal to the threshold to take (lowest index)
  for (int i = 0; i < n; ++i) {
    if (keys[i] < threshold) {
      out.push_back(i);
    } else if (keys[i] == threshold && at_threshold > 0) {
      out.push_back(i);
      --at_threshold;
    }
  }
}

std::int64_t axis_window_lower_bound(const PointSet& points, int k) {
  const int n = points.size();
  if (k <= 1 || n < k) return 0;
  std::int64_t total = 0;
  std::vector<int> values(n);
  for (int axis = 0; axis < points.dims(); ++axis) {
    if (points.wraps(axis)) continue;
    for (int i = 0; i < n; ++i) values[i] = points.coord(i, axis);
    std::sort(values.begin(), values.end());
    // W(window starting at l) = 2·S2 - (k-1)·S1 with S1 = Σ v, S2 = Σ i·v over the window.
    std::int64_t s1 = 0, s2 = 0;
    for (int i = 0; i < k; ++i) s1 += values[i], s2 += static_cast<std::int64_t>(i) * values[i];
    std::int64_t best = 2 * s2 - (k - 1) * s1;
    for (int l = 0; l + k < n; ++l) {
      s2 = s2 - s1 + values[l] + static_cast<std::int64_t>(k - 1) * values[l + k];
      s1 = s1 - values[l] + values[l + k];
      best = std::min(best, 2 * s2 - (k - 1) * s1);
    }
    total += best;
  }
  return total;
}

std::int64_t distinct_points_lower_bound(int dims, int k) {
  if (k <= 1) return 0;
  const std::int64_t kk = k;
  if (dims == 1) return (kk * kk * kk - kk) / 6;
  // Unconstrained optima ("optimal n-towns"), index k: 2D for k <= 49 from Demaine, Fekete,
  // Rote et al. (Comput. Geom. 44(2), 2011, Table 1; OEIS A193452), equal to what
  // exact_optimum proves for k <= 38 (bench_geom); 3D for k <= 13 from OEIS A290190 (exact_optimum
  // agrees for k <= 13).
  static const std::int64_t kPlane[] = {0,    0,    1,    4,    8,    16,   25,   38,   54,   72,
                                        96,   124,  152,  188,  227,  272,  318,  374,  433,  496,
                                        563,  632,  716,  804,  895,  992,  1091, 1204, 1318, 1442,
                                        1570, 1704, 1840, 1996, 2153, 2318, 2486, 2656, 2847, 3040,
                                        3241, 3446, 3662, 3886, 4112, 4360, 4612, 4868, 5128, 5398};
  static const std::int64_t kSpace[] = {0, 0, 1, 4, 8, 16, 25, 36, 48, 68, 89, 112, 136, 168};
  const std::int64_t* table = nullptr;
  int known = 0;
  if (dims == 2) table = kPlane, known = 49;
  if (dims == 3) table = kSpace, known = 13;
  if (!table) return 0;
  if (k <= known) return table[k];
  // Average distance is nondecreasing in k: OPT(k) >= OPT(known) · C(k,2) / C(known,2).
  const std::int64_t numerator = table[known] * pair_count(kk);
  const std::int64_t denominator = pair_count(known);
  return (numerator + denominator - 1) / denominator;
}

std::int64_t least_shell_cost(int dims, int k) {
  std::int64_t cost = 0, remaining = k;
  for (std::int64_t r = 0; remaining > 0; ++r) {
    std::int64_t outer = 1, inner = 1;
    for (int axis = 0; axis < dims; ++axis) outer *= 2 * r + 1, inner *= 2 * r - 1;
    const std::int64_t shell = r == 0 ? 1 : outer - inner;
    const std::int64_t take = std::min(remaining, shell);
    cost += r * take;
    remaining -= take;
  }
  return cost;
}

bool all_distinct(const PointSet& points) {
  const int n = points.size(), d = points.dims();
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  auto less = [&](int a, int b) {
    for (int axis = 0; axis < d; ++axis)
      if (points.coord(a, axis) != points.coord(b, axis))
        return points.coord(a, axis) < points.coord(b, axis);
    return false;
  };
  std::sort(order.begin(), order.end(), less);
  for (int i = 1; i < n; ++i)
    if (!less(order[i - 1], order[i])) return false;
  return true;
}

}  // namespace allocsim::geom
