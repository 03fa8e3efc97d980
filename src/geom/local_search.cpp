// MM+Inc's local improvement (Bender et al. Section 5); see local_search.hpp.
#include "allocsim/geom/local_search.hpp"

#include <algorithm>

#include "allocsim/geom/mm.hpp"

namespace allocsim::geom {

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

Selection mm_inc(const PointSet& points, int k, const TimeLimit* time_limit) {
  return improve_by_swaps(points, manhattan_median(points, k, time_limit), time_limit);
}

}  // namespace allocsim::geom
