#pragma once
// Private helper of mm.cpp: MM's k nearest points of a centre and their pairwise sum by walking
// a precomputed list of L1 ball offsets, ring by ring, over an occupancy grid padded by a halo
// of width R (copies of the cells across each torus seam, empty cells beyond a mesh's box).
//
// Claim. Let the points be distinct, every torus axis at least 2R + 1 long and the centre c in
// the box. If the rings up to ρ ≤ R hold at least k points, the walk returns the k nearest
// points of c (ties by lower index), their k-th distance ρ and their pairwise sum S.
// Proof. An offset o with |o|₁ ≤ R reaches the padded cell of c + o, which holds the point at
// c + o (wrapped on torus axes) or nothing; on a torus axis |o_a| ≤ R < L/2, so the cell's
// ring distance from c along a is |o_a| and two offsets of the ball never reach the same
// point (their difference along a is below L). So the offsets of ring r reach exactly the
// points at distance r, each once. The walk takes whole rings while they fit and from ring ρ
// the k − (points nearer) lowest indices: the tie rule. The pair sum separates over axes;
// along a, a chosen point sits at offset o_a ∈ [−ρ, ρ] and two points' distance is
// |o_a − o'_a| on a mesh axis and min(|o_a − o'_a|, L − |o_a − o'_a|) on a torus axis (the
// coordinates differ by o_a − o'_a mod L): consecutive_pair_sum of the offset histogram. ∎
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "allocsim/geom/point_set.hpp"
#include "nearest_grid.hpp"

namespace allocsim::geom::detail {

class BallWalk {
 public:
  /// Prepares the walk for radii up to the largest halo in [least, most] (1 ≤ dims ≤ 3) with
  /// every torus axis at least 2·halo + 1 long and at most `max_cells` padded cells; usable()
  /// is false when there is none. `lexicographic` tells that the indices list the points
  /// lexicographically.
  BallWalk(const PointSet& points, const NearestGrid& grid, int least, int most,
           std::int64_t max_cells, bool lexicographic) {
    prepare(points, grid, least, most, max_cells, lexicographic);
  }
  /// A walk to prepare() later (it keeps its storage, and its ball offsets while the padded
  /// box keeps its shape, between preparations).
  BallWalk() = default;

  /// As the constructor, for new points (kept by the caller while the walk is used).
  void prepare(const PointSet& points, const NearestGrid& grid, int least, int most,
               std::int64_t max_cells, bool lexicographic) {
    points_ = &points;
    d_ = points.dims();
    lexicographic_ = lexicographic;
    usable_ = false;
    if (d_ < 1 || d_ > 3 || least < 0 || !grid.usable()) return;
    max_cells = std::min<std::int64_t>(max_cells, std::int64_t{1} << 30);
    auto padded_volume = [&](int h) {
      std::int64_t v = 1;
      for (int axis = 0; axis < d_; ++axis) {
        if (points.wraps(axis) && points.ring(axis) < 2 * h + 1) return max_cells + 1;
        v *= grid.length(axis) + 2 * h;
        if (v > max_cells) return v;
      }
      return v;
    };
    int halo = std::min(most, 100);
    while (halo >= least && padded_volume(halo) > max_cells) --halo;
    if (halo < least) return;
    std::int64_t volume = 1;
    bool same_offsets = halo == halo_ && d_ == offsets_dims_;
    for (int axis = 0; axis < d_; ++axis) {
      lo_[axis] = grid.low(axis);
      len_[axis] = grid.length(axis);
      same_offsets = same_offsets && stride_[axis] == volume;
      stride_[axis] = volume;
      volume *= len_[axis] + 2 * halo;
    }
    halo_ = halo;
    cells_.assign(static_cast<std::size_t>(volume), -1);
    // Every padded cell: the box cell at its location (wrapped on torus axes), if any.
    for (int axis = 0; axis < 3; ++axis) {
      source_[axis].clear();
      const int padded = axis < d_ ? len_[axis] + 2 * halo : 1;
      for (int p = 0; p < padded; ++p) {
        int x = axis < d_ ? p - halo : 0;
        if (axis < d_ && points.wraps(axis)) x = ((x % len_[axis]) + len_[axis]) % len_[axis];
        const bool inside = x >= 0 && x < (axis < d_ ? len_[axis] : 1);
        source_[axis].push_back(inside ? x * (axis < d_ ? grid_stride(axis) : 0) : -1);
      }
    }
    // Row by row along axis 0: a box row's cells, their torus copies or nothing.
    const std::int32_t* box = grid.cells();
    const std::int64_t* along = source_[0].data();
    const std::size_t row_length = source_[0].size();
    std::int32_t* row = cells_.data();
    for (const std::int64_t z : source_[2])
      for (const std::int64_t y : source_[1]) {
        if (y >= 0 && z >= 0) {
          const std::int32_t* from = box + y + z;
          // The box row itself is contiguous (padded positions halo … halo + len − 1).
          for (int p = 0; p < halo; ++p) row[p] = along[p] >= 0 ? from[along[p]] : -1;
          std::copy_n(from, len_[0], row + halo);
          for (std::size_t p = static_cast<std::size_t>(halo) + len_[0]; p < row_length; ++p)
            row[p] = along[p] >= 0 ? from[along[p]] : -1;
        }
        row += row_length;
      }
    if (!same_offsets) build_offsets();
    usable_ = true;
  }

  bool usable() const { return usable_; }

  /// The k nearest points of `centre` (in the box) into `chosen` (unsorted) and their pair sum
  /// into `sum`; returns ρ, or −1 when the rings up to the halo hold fewer than k points.
  int evaluate(const int* centre, int k, std::vector<int>& chosen, std::int64_t& sum) {
    std::int64_t base = 0;
    for (int axis = 0; axis < d_; ++axis) {
      const int x = centre[axis] - lo_[axis];
      if (x < 0 || x >= len_[axis]) return -1;
      base += static_cast<std::int64_t>(x + halo_) * stride_[axis];
    }
    const std::int32_t* cells = cells_.data() + base;
    chosen.clear();
    taken_.clear();
    for (int r = 0; r <= halo_; ++r) {
      std::uint64_t* ring = ring_.data();
      std::size_t found = gather_ring(cells, r);
      const std::size_t need = static_cast<std::size_t>(k) - chosen.size();
      if (found > need) {
        // Already in index order (see the offsets' order) unless the ring crosses a seam.
        if (!lexicographic_ || crosses_seam(centre, r))
          std::nth_element(ring, ring + (need - 1), ring + found);
        found = need;
      }
      for (std::size_t i = 0; i < found; ++i) {
        chosen.push_back(static_cast<int>(ring[i] >> 32));
        taken_.push_back(static_cast<int>(ring[i] & 0xffffffffu));
      }
      if (chosen.size() == static_cast<std::size_t>(k)) {
        sum = pair_sum(r);
        return r;
      }
    }
    return -1;
  }

  /// The first `m` points of `centre` (in the box) in order of (distance, index), each as
  /// (index << 32 | offset number) into `out` and its distance into `radii`: whole rings in
  /// index order while they fit, up to the halo (so fewer than m when the rings up to the halo
  /// hold fewer). Exact by the claim of the file comment (ring r's offsets reach exactly the
  /// points at distance r, each once).
  void ordered_nearest(const int* centre, int m, std::vector<std::uint64_t>& out,
                       std::vector<std::uint8_t>& radii) {
    out.clear();
    radii.clear();
    std::int64_t base = 0;
    for (int axis = 0; axis < d_; ++axis) {
      const int x = centre[axis] - lo_[axis];
      if (x < 0 || x >= len_[axis]) return;
      base += static_cast<std::int64_t>(x + halo_) * stride_[axis];
    }
    const std::int32_t* cells = cells_.data() + base;
    for (int r = 0; r <= halo_ && out.size() < static_cast<std::size_t>(m); ++r) {
      std::uint64_t* ring = ring_.data();
      std::size_t found = gather_ring(cells, r);
      // In index order already (the offsets' order) unless the ring crosses a seam.
      if (!lexicographic_ || crosses_seam(centre, r)) std::sort(ring, ring + found);
      found = std::min(found, static_cast<std::size_t>(m) - out.size());
      out.insert(out.end(), ring, ring + found);
      radii.insert(radii.end(), found, static_cast<std::uint8_t>(r));
    }
  }

  int halo() const { return halo_; }
  /// The step along `axis` of ball offset number j (|step| ≤ halo).
  int step(int axis, std::size_t j) const { return steps_[axis][j]; }

 private:
  /// Lists in ring_ the points on ring r around the cell `cells` points at, as (point index <<
  /// 32 | offset number) in offset order, and returns how many. Branch-free: every offset is
  /// written, the count advances on cells holding a point.
  std::size_t gather_ring(const std::int32_t* cells, int r) {
    std::uint64_t* ring = ring_.data();
    const std::int32_t* delta = delta_.data();
    std::size_t found = 0;
    for (int j = ring_start_[r]; j < ring_start_[r + 1]; ++j) {
      const std::int32_t index = cells[delta[j]];
      ring[found] = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(index)) << 32) |
                    static_cast<std::uint32_t>(j);
      found += static_cast<std::size_t>(index >= 0);
    }
    return found;
  }

  /// The ball's offsets up to the halo (they depend only on d, the halo and the strides).
  void build_offsets() {
    // The ball's offsets ring by ring, each ring lexicographically (last axis most
    // significant): the order of the points' indices around a centre whose ring does not cross
    // a torus seam, when the points are listed lexicographically. Generated in that order.
    const int halo = halo_;
    offsets_dims_ = d_;
    delta_.clear();
    for (auto& steps : steps_) steps.clear();
    ring_start_.assign(halo + 2, 0);
    std::size_t widest = 0;
    auto add = [&](int s0, int s1, int s2) {
      delta_.push_back(static_cast<std::int32_t>(s0 * stride_[0] + (d_ > 1 ? s1 * stride_[1] : 0) +
                                                 (d_ > 2 ? s2 * stride_[2] : 0)));
      steps_[0].push_back(static_cast<std::int8_t>(s0));
      steps_[1].push_back(static_cast<std::int8_t>(s1));
      steps_[2].push_back(static_cast<std::int8_t>(s2));
    };
    auto last_axis = [&](int rest, int s1, int s2) {  // axis 0 takes what is left: −rest, +rest
      add(-rest, s1, s2);
      if (rest > 0) add(rest, s1, s2);
    };
    for (int r = 0; r <= halo; ++r) {
      const std::size_t before = delta_.size();
      if (d_ == 1) {
        last_axis(r, 0, 0);
      } else if (d_ == 2) {
        for (int s1 = -r; s1 <= r; ++s1) last_axis(r - std::abs(s1), s1, 0);
      } else {
        for (int s2 = -r; s2 <= r; ++s2)
          for (int s1 = -(r - std::abs(s2)); s1 <= r - std::abs(s2); ++s1)
            last_axis(r - std::abs(s2) - std::abs(s1), s1, s2);
      }
      ring_start_[r + 1] = static_cast<int>(delta_.size());
      widest = std::max(widest, delta_.size() - before);
    }
    ring_.resize(widest);
  }

  std::int64_t grid_stride(int axis) const {
    std::int64_t s = 1;
    for (int a = 0; a < axis; ++a) s *= len_[a];
    return s;
  }

  /// True when the ring of radius r around `centre` reaches across a torus seam.
  bool crosses_seam(const int* centre, int r) const {
    for (int axis = 0; axis < d_; ++axis)
      if (points_->wraps(axis) && (centre[axis] < r || centre[axis] + r >= len_[axis])) return true;
    return false;
  }

  /// Σ_axes consecutive_pair_sum of the taken offsets' histogram over [−ρ, ρ].
  std::int64_t pair_sum(int rho) {
    const int size = 2 * rho + 1;
    const std::size_t slots = 3 * static_cast<std::size_t>(size + 1);
    if (counts_.size() < 3 * slots) counts_.resize(3 * slots);
    for (int axis = 0; axis < 3; ++axis)
      std::fill_n(counts_.begin() + static_cast<std::ptrdiff_t>(axis * slots), size, 0);
    std::int64_t* h0 = counts_.data() + rho;
    std::int64_t* h1 = h0 + slots;
    std::int64_t* h2 = h1 + slots;
    const std::int8_t* s0 = steps_[0].data();
    const std::int8_t* s1 = steps_[1].data();
    const std::int8_t* s2 = steps_[2].data();
    for (const int j : taken_) {
      ++h0[s0[j]];
      ++h1[s1[j]];
      ++h2[s2[j]];
    }
    std::int64_t total = 0;
    const auto count = static_cast<std::int64_t>(taken_.size());
    for (int axis = 0; axis < d_; ++axis) {
      std::int64_t* h = counts_.data() + axis * slots;
      // Offsets at most L / 2 apart are as far apart on the ring as on a line.
      const int ring = points_->ring(axis) >= 2 * (size - 1) ? 0 : points_->ring(axis);
      total += consecutive_pair_sum(h, size, count, ring, h + size + 1);
    }
    return total;
  }

  const PointSet* points_ = nullptr;
  int d_ = 0;
  int halo_ = -1;
  int offsets_dims_ = 0;  // d of the offsets built (0: none)
  bool lexicographic_ =
      false;  // indices list the points lexicographically (last axis most significant)
  int lo_[3] = {0, 0, 0}, len_[3] = {1, 1, 1};
  std::int64_t stride_[3] = {0, 0, 0};
  std::vector<std::int32_t> cells_;      // padded grid: point index or −1
  std::vector<std::int64_t> source_[3];  // per axis and padded position: box cell offset or −1
  // The ball's offsets, by radius: padded-cell offset and per-axis steps.
  std::vector<std::int32_t> delta_;
  std::vector<std::int8_t> steps_[3];
  std::vector<int> ring_start_;      // offsets of radius r: [ring_start_[r], ring_start_[r + 1])
  std::vector<std::uint64_t> ring_;  // (point index << 32 | offset) of the current ring
  std::vector<int> taken_;           // offsets of the chosen points
  std::vector<std::int64_t> counts_;
  bool usable_ = false;
};

}  // namespace allocsim::geom::detail
