// MM+Inc's local improvement (Bender et al. Section 5); see local_search.hpp.
#include "allocsim/geom/local_search.hpp"

#include <algorithm>
#include <limits>

#include "allocsim/geom/mm.hpp"
#include "axis_index.hpp"

namespace allocsim::geom {

Selection improve_by_swaps(const PointSet& points, Selection start, const TimeLimit* time_limit) {
  const int n = points.size();
  const int k = static_cast<int>(start.indices.size());
  if (k == 0 || k >= n) return start;
  TimeLimitPoll poll(time_limit);
  std::vector<char> in(n, 0);
  for (const int p : start.indices) in[p] = 1;
  // D(p) = Σ_{s chosen} d(p, s) = Σ_axis f_axis(p's coordinate), f_axis(v) = Σ_s d_axis(v, s):
  // one table per axis over its distinct values (exactly the same integers as summing per pair).
  const detail::AxisIndex index(points);
  std::vector<std::int64_t> dsum(n, 0), table;
  std::vector<int> chosen_at;
  for (int axis = 0; axis < points.dims(); ++axis) {
    const auto& values = index.values[axis];
    const int m = static_cast<int>(values.size());
    chosen_at.assign(m, 0);
    for (const int s : start.indices) ++chosen_at[index.rank[axis][s]];
    table.assign(m, 0);
    for (int w = 0; w < m; ++w) {
      if (chosen_at[w] == 0) continue;
      for (int v = 0; v < m; ++v)
        table[v] += static_cast<std::int64_t>(chosen_at[w]) *
                    points.axis_distance(axis, values[v], values[w]);
      poll.add(m);
    }
    const auto& rank = index.rank[axis];
    for (int p = 0; p < n; ++p) dsum[p] += table[rank[p]];
    poll.add(n);
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
    // Only unchosen b with D(b) < max_a D(a) + diameter can give a positive gain
    // (gain ≤ D(a) − D(b) + diameter): the others are skipped by the test below anyway.
    std::int64_t max_in = 0;
    for (const int a : chosen) max_in = std::max(max_in, dsum[a]);
    outside.clear();
    std::int64_t min_out = std::numeric_limits<std::int64_t>::max();
    for (int p = 0; p < n; ++p) {
      if (in[p]) continue;
      min_out = std::min(min_out, dsum[p]);
      if (dsum[p] < max_in + diameter) outside.push_back(p);
    }
    poll.add(n);
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

Selection mm_inc(const PointSet& points, int k, const TimeLimit* time_limit) {
  return improve_by_swaps(points, manhattan_median(points, k, time_limit), time_limit);
}

}  // namespace allocsim::geom
