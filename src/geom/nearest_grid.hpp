#pragma once
// Private helper of mm.cpp: an occupancy grid of distinct points (e.g. free processors) over
// their bounding box (the whole ring on torus axes) with what MM needs per candidate centre:
// the k nearest points in L1 by visiting rings, the sum of pairwise distances of a chosen set
// from histograms over the few coordinates around the centre, and the L1 distance from every
// cell to the nearest cell of the box without a point (a distance transform).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom::detail {

/// Σ_{i<j} h_i·h_j·dist(i, j) over consecutive positions 0..size-1 with counts h (total
/// `count`); dist = j − i on a line (ring = 0), min(j − i, ring − (j − i)) on a ring.
inline std::int64_t consecutive_pair_sum(const std::int64_t* h, int size, std::int64_t count,
                                         int ring, std::int64_t* prefix) {
  std::int64_t total = 0;
  if (ring <= 0) {
    std::int64_t left = 0;
    for (int i = 0; i + 1 < size; ++i) {
      left += h[i];
      total += left * (count - left);
    }
    return total;
  }
  // prefix[i] = Σ_{j<i} h_j and prefix[size + 1 + i] = Σ_{j<i} j·h_j.
  std::int64_t* weighted = prefix + size + 1;
  prefix[0] = weighted[0] = 0;
  for (int i = 0; i < size; ++i) {
    prefix[i + 1] = prefix[i] + h[i];
    weighted[i + 1] = weighted[i] + i * h[i];
  }
  const int half = ring / 2;
  for (int i = 0; i < size; ++i) {
    if (h[i] == 0) continue;
    const int split = std::min(size - 1, i + half);  // partners up to here: distance j − i
    const std::int64_t near_c = prefix[split + 1] - prefix[i + 1];
    const std::int64_t near_v = weighted[split + 1] - weighted[i + 1];
    const std::int64_t far_c = prefix[size] - prefix[split + 1];
    const std::int64_t far_v = weighted[size] - weighted[split + 1];
    total += h[i] * ((near_v - i * near_c) + (ring * far_c - far_v + i * far_c));
  }
  return total;
}

class NearestGrid {
 public:
  /// Usable when the points are distinct and the box volume is at most 8·n + 256.
  explicit NearestGrid(const PointSet& points) { build(points); }
  /// An empty grid, to build() later (keeps its storage between builds).
  NearestGrid() = default;

  /// Rebuilds the grid for `points` (kept by the caller while the grid is used), reusing the
  /// storage of the previous build.
  void build(const PointSet& points) {
    points_ = &points;
    d_ = points.dims();
    usable_ = false;
    cell_.clear();
    empty_distance_.clear();
    const int n = points.size();
    if (n == 0) return;
    lo_.assign(d_, 0);
    len_.assign(d_, 0);
    steps_.resize(d_);
    stride_.assign(d_, 1);
    std::int64_t volume = 1;
    for (int axis = 0; axis < d_; ++axis) {
      const PointSet::AxisWindow window = points.axis_window(axis);
      lo_[axis] = window.low;
      len_[axis] = window.length;
      stride_[axis] = volume;
      volume *= len_[axis];
      if (volume > 8LL * n + 256) return;
    }
    cell_.assign(static_cast<std::size_t>(volume), -1);
    // Locals: stores into cell_ could alias the members, which the loop would reload.
    bool increasing = true;
    std::int64_t previous = -1;
    std::int32_t* cells = cell_.data();
    const int* coords = points.point(0).data();
    if (d_ <= 3) {
      std::int64_t low[3] = {0, 0, 0}, stride[3] = {0, 0, 0};
      for (int axis = 0; axis < d_; ++axis) low[axis] = lo_[axis], stride[axis] = stride_[axis];
      for (int i = 0; i < n; ++i, coords += d_) {
        std::int64_t at = (coords[0] - low[0]) * stride[0];
        if (d_ > 1) at += (coords[1] - low[1]) * stride[1];
        if (d_ > 2) at += (coords[2] - low[2]) * stride[2];
        if (cells[at] >= 0) {  // duplicate point: the grid cannot hold multiplicities
          cell_.clear();
          return;
        }
        cells[at] = i;
        increasing = increasing && at > previous;
        previous = at;
      }
    } else {
      for (int i = 0; i < n; ++i, coords += d_) {
        const std::int64_t at = cell_at(coords);
        if (cells[at] >= 0) {
          cell_.clear();
          return;
        }
        cells[at] = i;
        increasing = increasing && at > previous;
        previous = at;
      }
    }
    increasing_ = increasing;
    usable_ = true;
  }

  /// True when the points' cells increase with their index: the indices list the points
  /// lexicographically, last axis most significant (cell numbers are mixed-radix numbers with
  /// axis 0 the least significant digit). Meaningful when usable().
  bool increasing() const { return increasing_; }

  bool usable() const { return usable_; }
  int dims() const { return d_; }
  int low(int axis) const { return lo_[axis]; }
  int length(int axis) const { return len_[axis]; }
  /// True when `centre` lies in the box (always on torus axes, whose coordinates are in range).
  bool inside(const int* centre) const {
    for (int axis = 0; axis < d_; ++axis)
      if (centre[axis] < lo_[axis] || centre[axis] >= lo_[axis] + len_[axis]) return false;
    return true;
  }
  /// True when the cell holds a point.
  bool holds(std::int64_t cell) const { return cell_[cell] >= 0; }
  /// Every cell's point index or −1, by cell number.
  const std::int32_t* cells() const { return cell_.data(); }
  /// The index of the point in the cell, or −1.
  std::int32_t point_at(std::int64_t cell) const { return cell_[cell]; }
  /// The cell of a location inside the box.
  std::int64_t cell_at(const int* location) const {
    std::int64_t at = 0;
    for (int axis = 0; axis < d_; ++axis) at += (location[axis] - lo_[axis]) * stride_[axis];
    return at;
  }

  /// The k nearest points to `centre` (k <= n) in L1, ties by lower index: whole rings while
  /// they fit, then the lowest indices of the last ring. Writes them (unsorted) to `out` and
  /// returns the radius of the last ring visited.
  int k_nearest(const int* centre, int k, std::vector<int>& out, std::vector<int>& ring) {
    out.clear();
    for (int axis = 0; axis < d_; ++axis) steps_[axis].clear();
    for (int r = 0;; ++r) {
      ring.clear();
      for (int axis = 0; axis < d_; ++axis) add_step(axis, centre[axis]);
      visit_ring(r, ring);
      const std::size_t need = static_cast<std::size_t>(k) - out.size();
      if (ring.size() >= need) {
        if (ring.size() > need) {
          std::nth_element(ring.begin(), ring.begin() + (need - 1), ring.end());
          ring.resize(need);
        }
        out.insert(out.end(), ring.begin(), ring.end());
        return r;
      }
      out.insert(out.end(), ring.begin(), ring.end());
    }
  }

  /// Appends the points at L1 distance exactly r from `centre`.
  void ring(const int* centre, int r, std::vector<int>& out) {
    for (int axis = 0; axis < d_; ++axis) {
      steps_[axis].clear();
      for (int e = 0; e <= r; ++e) add_step(axis, centre[axis]);
    }
    visit_ring(r, out);
  }

  /// Sum over pairs of `chosen` of their distance, when all lie within L1 `radius` of `centre`:
  /// per axis a histogram over the 2·radius + 1 coordinates around the centre (or the whole
  /// ring when shorter), so O(d · (k + radius)) instead of a histogram over the whole axis.
  std::int64_t pair_sum_near(const int* centre, int radius, std::span<const int> chosen,
                             std::vector<std::int64_t>& scratch) const {
    std::int64_t total = 0;
    const int width = 2 * radius + 1;
    for (int axis = 0; axis < d_; ++axis) {
      const int ring = points_->ring(axis);
      const bool whole_ring = ring > 0 && ring <= width;
      const int size = whole_ring ? ring : width;
      scratch.assign(3 * static_cast<std::size_t>(size + 1), 0);
      std::int64_t* counts = scratch.data();
      for (const int p : chosen) {
        int value = points_->coord(p, axis);
        if (!whole_ring) {
          value -= centre[axis];
          if (ring > 0 && value > radius) value -= ring;
          if (ring > 0 && value < -radius) value += ring;
          value += radius;
        }
        ++counts[value];
      }
      total += consecutive_pair_sum(counts, size, static_cast<std::int64_t>(chosen.size()), ring,
                                    counts + size + 1);
    }
    return total;
  }

  /// Computes, for every cell of the box, the L1 distance (ring-aware) to the nearest cell of
  /// the box holding no point (a large value when there is none): separable min-plus passes
  /// along each axis (twice around on rings), exact because L1 is a sum over axes.
  void build_empty_distance() {
    constexpr int kFar = std::numeric_limits<int>::max() / 4;
    const std::int64_t volume = static_cast<std::int64_t>(cell_.size());
    empty_distance_.resize(cell_.size());
    for (std::int64_t at = 0; at < volume; ++at) empty_distance_[at] = cell_[at] >= 0 ? kFar : 0;
    for (int axis = 0; axis < d_; ++axis) {
      const std::int64_t stride = stride_[axis], len = len_[axis], block = stride * len;
      const bool ring = points_->wraps(axis);
      for (std::int64_t outer = 0; outer < volume; outer += block) {
        if (stride == 1) {
          relax_line(empty_distance_.data() + outer, 1, len, ring);
        } else {
          relax_lines(empty_distance_.data() + outer, stride, len, ring);
        }
      }
    }
  }
  int empty_distance(std::int64_t cell) const { return empty_distance_[cell]; }

 private:
  /// One 1D min-plus pass (distance +1 per step) forwards and backwards along a line of `len`
  /// cells `stride` apart; on a ring each direction goes twice around.
  static void relax_line(int* line, std::int64_t stride, std::int64_t len, bool ring) {
    const std::int64_t steps = ring ? 2 * len : len;
    std::int64_t prev = 0;
    for (std::int64_t i = 1, at = 1; i < steps; ++i, ++at) {
      if (at == len) at = 0;
      int& here = line[at * stride];
      here = std::min(here, line[prev * stride] + 1);
      prev = at;
    }
    prev = len - 1;
    for (std::int64_t i = 1, at = len - 2; i < steps; ++i, --at) {
      if (at < 0) at = len - 1;
      int& here = line[at * stride];
      here = std::min(here, line[prev * stride] + 1);
      prev = at;
    }
  }

  /// relax_line on the `stride` lines of a block at once (line i: cells i + at·stride), so
  /// the inner loop runs over consecutive cells.
  static void relax_lines(int* block, std::int64_t stride, std::int64_t len, bool ring) {
    const std::int64_t steps = ring ? 2 * len : len;
    auto relax = [&](std::int64_t at, std::int64_t prev) {
      int* here = block + at * stride;
      const int* from = block + prev * stride;
      for (std::int64_t i = 0; i < stride; ++i) here[i] = std::min(here[i], from[i] + 1);
    };
    std::int64_t prev = 0;
    for (std::int64_t i = 1, at = 1; i < steps; ++i, ++at) {
      if (at == len) at = 0;
      relax(at, prev);
      prev = at;
    }
    prev = len - 1;
    for (std::int64_t i = 1, at = len - 2; i < steps; ++i, --at) {
      if (at < 0) at = len - 1;
      relax(at, prev);
      prev = at;
    }
  }

  /// Cells of one axis at distance e from the centre's coordinate (0, 1 or 2), as cell offsets.
  struct Step {
    int count = 0;
    std::int64_t at[2] = {0, 0};
  };

  /// Appends the axis's cells at the next distance e = steps_[axis].size().
  void add_step(int axis, int c) {
    const int e = static_cast<int>(steps_[axis].size());
    int pos[2];
    Step step;
    step.count = positions(axis, c, e, pos);
    for (int j = 0; j < step.count; ++j) step.at[j] = pos[j] * stride_[axis];
    steps_[axis].push_back(step);
  }

  /// Appends the points at L1 distance exactly r (each axis's steps known up to r).
  void visit_ring(int r, std::vector<int>& out) const {
    if (d_ == 1) {
      const Step& s0 = steps_[0][r];
      for (int i = 0; i < s0.count; ++i) push(s0.at[i], out);
      return;
    }
    if (d_ == 2) {
      for (int e0 = 0; e0 <= r; ++e0) {
        const Step& s0 = steps_[0][e0];
        const Step& s1 = steps_[1][r - e0];
        for (int i = 0; i < s0.count; ++i)
          for (int j = 0; j < s1.count; ++j) push(s0.at[i] + s1.at[j], out);
      }
      return;
    }
    if (d_ == 3) {
      for (int e0 = 0; e0 <= r; ++e0) {
        const Step& s0 = steps_[0][e0];
        for (int e1 = 0; e0 + e1 <= r; ++e1) {
          const Step& s1 = steps_[1][e1];
          const Step& s2 = steps_[2][r - e0 - e1];
          for (int i = 0; i < s0.count; ++i)
            for (int j = 0; j < s1.count; ++j)
              for (int l = 0; l < s2.count; ++l) push(s0.at[i] + s1.at[j] + s2.at[l], out);
        }
      }
      return;
    }
    visit(0, r, 0, out);
  }

  void push(std::int64_t at, std::vector<int>& out) const {
    const int index = cell_[at];
    if (index >= 0) out.push_back(index);
  }

  /// Appends the points at L1 distance exactly `budget` (summed over axes from `axis` on).
  void visit(int axis, int budget, std::int64_t offset, std::vector<int>& out) const {
    if (axis == d_ - 1) {
      const Step& step = steps_[axis][budget];
      for (int j = 0; j < step.count; ++j) push(offset + step.at[j], out);
      return;
    }
    for (int e = 0; e <= budget; ++e) {
      const Step& step = steps_[axis][e];
      for (int j = 0; j < step.count; ++j) visit(axis + 1, budget - e, offset + step.at[j], out);
    }
  }

  /// Positions along `axis` at distance e from c (0, 1 or 2 of them), as offsets into the box.
  int positions(int axis, int c, int e, int* out) const {
    int count = 0;
    if (points_->wraps(axis)) {
      const int ring = len_[axis];
      if (2 * e > ring) return 0;
      out[count++] = (c + e) % ring;
      if (e != 0 && 2 * e != ring) out[count++] = ((c - e) % ring + ring) % ring;
      return count;
    }
    const int a = c + e - lo_[axis], b = c - e - lo_[axis];
    if (a >= 0 && a < len_[axis]) out[count++] = a;
    if (e != 0 && b >= 0 && b < len_[axis]) out[count++] = b;
    return count;
  }

  const PointSet* points_ = nullptr;
  int d_ = 0;
  std::vector<int> lo_, len_;
  std::vector<std::int64_t> stride_;
  std::vector<std::int32_t> cell_;
  std::vector<int> empty_distance_;
  std::vector<std::vector<Step>> steps_;  // per axis, by distance: the current centre's cells
  bool usable_ = false;
  bool increasing_ = false;
};

}  // namespace allocsim::geom::detail
