#pragma once
// Private helper of mm.cpp: MM's sum S(c) for a centre c of a 2D point set (mesh or torus) in
// O(ρ + d·ρ) from per-line prefix counts, where ρ is the distance of c's k-th nearest point,
// instead of visiting the ≈ 2ρ² cells of the ball.
//
// Claim. Let Q be the k nearest points to c (ties by lower index), ρ the k-th distance, I the
// points at distance < ρ and M the k − |I| lowest indices among the points at distance ρ.
// Then Q = I ∪ M, and S(c) = Σ_axes pair sum of the histogram of Q's coordinates on that axis,
// where the histogram is (count of I in each line across the axis) + (M's coordinates).
// Proof. |I| < k ≤ |I| + |ring ρ| by the definition of ρ, and the tie rule takes the whole of
// I and the lowest indices of ring ρ: Q = I ∪ M. The L1 (ring-aware per axis) sum separates
// over axes, and an axis's share depends only on how many points of Q sit at each coordinate.
// I's points at coordinate x on axis a are those of the line x within distance ρ − 1 − e of c
// along the other axis, e being x's distance from c_a: a prefix-count difference. ∎
// ρ itself comes from counts of balls (sums of line counts), searched upwards from a lower
// bound: the k-th distance changes by at most the distance between two centres.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/geom/point_set.hpp"
#include "nearest_grid.hpp"

namespace allocsim::geom::detail {

class PlaneSums {
 public:
  /// Prefix counts of the points along every row and column of the box [lo, lo + len) (whole
  /// ring on torus axes). The points must be 2D.
  PlaneSums(const PointSet& points, const int* lo, const int* len) : points_(points) {
    for (int axis = 0; axis < 2; ++axis) lo_[axis] = lo[axis], len_[axis] = len[axis];
    for (int along = 0; along < 2; ++along) {
      const int other = 1 - along;
      auto& pre = prefix_[along];
      pre.assign(static_cast<std::size_t>(len_[other]) * (len_[along] + 1), 0);
      for (int i = 0; i < points.size(); ++i) {
        const int a = points.coord(i, along) - lo_[along], b = points.coord(i, other) - lo_[other];
        ++pre[static_cast<std::size_t>(b) * (len_[along] + 1) + a + 1];
      }
      for (int b = 0; b < len_[other]; ++b) {
        int* line = pre.data() + static_cast<std::size_t>(b) * (len_[along] + 1);
        for (int a = 0; a < len_[along]; ++a) line[a + 1] += line[a];
      }
    }
  }

  /// Distance of the k-th nearest point to `centre`, searched upwards from `at_least` (which
  /// must not exceed it); sets `inside` to the number of points at a smaller distance.
  int kth_distance(const int* centre, int k, int at_least, int& inside) const {
    int r = std::max(0, at_least);
    inside = r == 0 ? 0 : ball_count(centre, r - 1);
    for (;; ++r) {
      const int count = ball_count(centre, r);
      if (count >= k) return r;
      inside = count;
    }
  }

  /// S(c) by the claim of the file comment: `chosen_on_ring` are M's point indices.
  std::int64_t sum(const int* centre, int k, int rho, std::span<const int> chosen_on_ring) {
    std::int64_t total = 0;
    for (int axis = 0; axis < 2; ++axis) {
      const int ring = points_.ring(axis);
      const bool whole_ring = ring > 0 && ring <= 2 * rho + 1;
      const int size = whole_ring ? ring : 2 * rho + 1;
      counts_.assign(3 * static_cast<std::size_t>(size + 1), 0);
      // Lines across the axis at distance e < ρ from the centre: I's points on them.
      for (int e = 0; e < rho; ++e) {
        if (ring > 0 && 2 * e > ring) break;
        for (const int sign : {1, -1}) {
          if (sign < 0 && (e == 0 || (ring > 0 && 2 * e == ring))) continue;
          const int offset = sign * e;
          const int at = wrap(axis, centre[axis] + offset);
          const int slot = whole_ring ? at : offset + rho;
          counts_[slot] += segment(1 - axis, at, centre[1 - axis], rho - 1 - e);
        }
      }
      for (const int p : chosen_on_ring) {
        int value = points_.coord(p, axis);
        if (!whole_ring) {
          value -= centre[axis];
          if (ring > 0 && value > rho) value -= ring;
          if (ring > 0 && value < -rho) value += ring;
          value += rho;
        }
        ++counts_[value];
      }
      total += consecutive_pair_sum(counts_.data(), size, k, ring, counts_.data() + size + 1);
    }
    return total;
  }

 private:
  /// A coordinate on a torus axis brought into [0, ring); mesh coordinates unchanged.
  int wrap(int axis, int x) const {
    const int ring = points_.ring(axis);
    return ring > 0 ? ((x % ring) + ring) % ring : x;
  }

  /// Points of the line along `along` at coordinate `fixed` on the other axis, within distance
  /// `half` of `centre` along it (ring-aware).
  int segment(int along, int fixed, int centre, int half) const {
    const int other = 1 - along;
    const int b = fixed - lo_[other];
    if (half < 0 || b < 0 || b >= len_[other]) return 0;
    const int* line = prefix_[along].data() + static_cast<std::size_t>(b) * (len_[along] + 1);
    const int len = len_[along];
    if (points_.ring(along) > 0) {
      if (2 * half + 1 >= len) return line[len];
      const int s = ((centre - half) % len + len) % len, e = (centre + half) % len;
      return s <= e ? line[e + 1] - line[s] : line[len] - line[s] + line[e + 1];
    }
    const int s = std::max(centre - half - lo_[along], 0);
    const int e = std::min(centre + half - lo_[along], len - 1);
    return s <= e ? line[e + 1] - line[s] : 0;
  }

  /// Points within L1 distance r of `centre` (ring-aware), by lines along axis 1.
  int ball_count(const int* centre, int r) const {
    int count = 0;
    const int ring = points_.ring(0);
    for (int e = 0; e <= r; ++e) {
      if (ring > 0 && 2 * e > ring) break;
      count += segment(1, wrap(0, centre[0] + e), centre[1], r - e);
      if (e != 0 && !(ring > 0 && 2 * e == ring))
        count += segment(1, wrap(0, centre[0] - e), centre[1], r - e);
    }
    return count;
  }

  const PointSet& points_;
  int lo_[2] = {0, 0}, len_[2] = {0, 0};
  std::vector<int> prefix_[2];  // [along][other coordinate · (len_along + 1) + position]
  std::vector<std::int64_t> counts_;
};

}  // namespace allocsim::geom::detail
