#pragma once
// Private helper of the geom/ solvers: the number of points in an axis-parallel box in O(2^d)
// lookups (O(3^d) when a box crosses a ring's seam), and the points of a box by cell, for a set
// of distinct integer points on a dense grid (a machine's free processors).
//
// The grid spans the points' bounding box on line axes and the whole ring [0, L) on ring axes.
// `prefix_` is the summed-area table P(i_0, …, i_{d−1}) = #points whose offset on every axis a is
// below i_a, so the points of a product of intervals [lo_a, hi_a] number
// Σ_{S ⊆ axes} (−1)^{|S|} P(i) with i_a = lo_a for a ∈ S and hi_a + 1 otherwise
// (inclusion–exclusion; terms with some i_a = 0 vanish and are skipped). An interval that crosses
// a ring's seam is [lo, L−1] ∪ [0, hi], contributing P(L) − P(lo) + P(hi+1) on its axis: the same
// expansion with three terms.
//
// "Near a box": a box is given by its lowest corner `lo` and sides `len` (one per axis); a point
// is at per-axis distance max(0, lo − x, x − (lo + len − 1)) from it on a line axis and at the
// ring distance to the nearest of its positions on a ring axis (geom/mc.cpp's interval_distance);
// its shell is the largest per-axis distance (L∞), and the points of shell ≤ s are exactly those
// in the box grown by s on every side (on a ring: the interval of len + 2s positions from lo − s,
// the whole ring once len + 2s ≥ L).
//
// Listing the points of a box needs each cell's point index: a cell table built on first use, or,
// when the points are in machine order (strictly increasing with axis 0 fastest, as cells are),
// none: a cell's point index is then the number of points in earlier cells, d box counts.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom::detail {

/// Summed-area table and cell index over the dense grid of a set of distinct points.
class BoxCounts {
 public:
  /// Builds the tables when the points are distinct and the grid has at most `max_cells` cells;
  /// otherwise usable() is false. O(cells · d).
  BoxCounts(const PointSet& points, std::int64_t max_cells) : d_(points.dims()) {
    const int n = points.size();
    if (n == 0 || d_ == 0) return;
    lo_.assign(d_, 0);
    ext_.assign(d_, 0);
    ring_.assign(d_, 0);
    cell_stride_.assign(d_, 1);
    prefix_stride_.assign(d_, 1);
    std::int64_t cells = 1, prefix_cells = 1;
    for (int axis = 0; axis < d_; ++axis) {
      const PointSet::AxisWindow window = points.axis_window(axis);
      lo_[axis] = window.low;
      ext_[axis] = window.length;
      if (points.wraps(axis)) ring_[axis] = window.length;
      cell_stride_[axis] = cells;
      prefix_stride_[axis] = prefix_cells;
      cells *= ext_[axis];
      prefix_cells *= ext_[axis] + 1;
      if (cells > max_cells) return;
    }
    // Mark the points (a repeated point ends it: counts would hold, the cell lists would not),
    // then running sums along each axis in turn give the summed-area table.
    prefix_.assign(static_cast<std::size_t>(prefix_cells), 0);
    std::array<std::int64_t, 8> stride{}, first{};
    const bool small = d_ <= 8;
    for (int axis = 0; axis < d_ && small; ++axis) {
      stride[axis] = prefix_stride_[axis];
      first[axis] = prefix_stride_[axis] - static_cast<std::int64_t>(lo_[axis]) * stride[axis];
    }
    for (int i = 0; i < n; ++i) {
      std::int64_t prefix_at = 0;
      const std::span<const int> p = points.point(i);
      if (small) {
        for (int axis = 0; axis < d_; ++axis) prefix_at += first[axis] + p[axis] * stride[axis];
      } else {
        for (int axis = 0; axis < d_; ++axis)
          prefix_at += (p[axis] - lo_[axis] + std::int64_t{1}) * prefix_stride_[axis];
      }
      if (prefix_[prefix_at] != 0) {
        prefix_.clear();
        return;
      }
      prefix_[prefix_at] = 1;
    }
    points_ = &points;
    ordered_ = d_ <= 16;  // strictly increasing, last axis slowest (a machine's free list)
    for (int i = 1; i < n && ordered_; ++i) {
      int axis = d_ - 1;
      while (axis > 0 && points.coord(i, axis) == points.coord(i - 1, axis)) --axis;
      ordered_ = points.coord(i, axis) > points.coord(i - 1, axis);
    }
    const std::int64_t row = ext_[0] + 1;
    for (std::int64_t base = 0; base < prefix_cells; base += row) {
      std::int32_t* values = prefix_.data() + base;
      for (std::int64_t j = 1; j < row; ++j) values[j] += values[j - 1];
    }
    for (int axis = 1; axis < d_; ++axis) {
      const std::int64_t inner = prefix_stride_[axis], span = inner * (ext_[axis] + 1);
      for (std::int64_t base = 0; base < prefix_cells; base += span)
        for (std::int64_t at = base + inner; at < base + span; at += inner) {
          std::int32_t* values = prefix_.data() + at;
          const std::int32_t* previous = values - inner;
          for (std::int64_t j = 0; j < inner; ++j) values[j] += previous[j];
        }
    }
    cells_ = cells;
    usable_ = true;
  }

  bool usable() const { return usable_; }
  std::int64_t cells() const { return cells_; }

  /// Number of points at L∞ distance at most s from the box (lo, len) (see the file comment).
  std::int64_t count_near_box(const int* lo, const int* len, int s) const {
    for (int axis = 0; axis < d_; ++axis)
      if (!axis_terms(axis, lo[axis], len[axis], s, terms_[axis])) return 0;
    return sum_terms(0, 0, 1);
  }

  /// Calls visit(index, shell, l1) for every point at L∞ distance at most s from the box
  /// (lo, len): its shell (L∞ distance) and L1 distance to the box. O((len + 2s)^d).
  template <class Visit>
  void for_each_near_box(const int* lo, const int* len, int s, Visit&& visit) const {
    positions_.resize(d_);
    for (int axis = 0; axis < d_; ++axis) {
      auto& list = positions_[axis];
      list.clear();
      const int ring = ring_[axis];
      if (ring > 0 && static_cast<std::int64_t>(len[axis]) + 2LL * s >= ring) {
        for (int x = 0; x < ring; ++x) list.push_back({x, distance(x, lo[axis], len[axis], ring)});
        continue;
      }
      const std::int64_t first = static_cast<std::int64_t>(lo[axis]) - s;
      const std::int64_t last = static_cast<std::int64_t>(lo[axis]) + len[axis] - 1 + s;
      for (std::int64_t x = first; x <= last; ++x) {
        std::int64_t at = x;
        if (ring > 0) {
          at = ((x % ring) + ring) % ring;
        } else if (x < lo_[axis] || x >= lo_[axis] + ext_[axis]) {
          continue;
        }
        const int coord = static_cast<int>(at);
        list.push_back({coord - lo_[axis], distance(coord, lo[axis], len[axis], ring)});
      }
      if (list.empty()) return;
    }
    // The cell table is built on first use, except for ordered points while listing by rank
    // (d + 1 box counts per cell, weighed 8 cells of the table each) costs less than building
    // it and has not yet cost more.
    if (cell_.empty()) {
      std::int64_t listed = 1;
      for (const auto& list : positions_) listed *= static_cast<std::int64_t>(list.size());
      const std::int64_t rank_cost = (listed * (d_ + 1) << std::min(d_, 20)) * 8;
      if (!ordered_ || rank_cost > cells_ ||
          (ranked_ * (d_ + 1) << std::min(d_, 20)) * 8 > cells_) {
        cell_.assign(static_cast<std::size_t>(cells_), -1);
        for (int i = 0; i < points_->size(); ++i) {
          std::int64_t at = 0;
          for (int axis = 0; axis < d_; ++axis)
            at += (points_->coord(i, axis) - lo_[axis]) * cell_stride_[axis];
          cell_[at] = i;
        }
      }
    }
    visit_cells(0, 0, 0, 0, visit);
  }

  /// Ring-aware distance from coordinate x to the `len` positions from lo (mc.cpp's rule).
  static int distance(int x, int lo, int len, int ring) {
    if (ring <= 0) return std::max({0, lo - x, x - (lo + len - 1)});
    if (len >= ring) return 0;
    const int off = ((x - lo) % ring + ring) % ring;
    if (off < len) return 0;
    return std::min(off - (len - 1), ring - off);
  }

 private:
  struct Terms {
    int count = 0;
    std::array<int, 3> sign{};
    std::array<std::int64_t, 3> offset{};
    void add(int s, std::int64_t o) {
      sign[count] = s;
      offset[count++] = o;
    }
  };
  struct Position {
    int cell;      // offset of the coordinate in the grid
    int distance;  // per-axis distance to the box
  };

  /// The prefix-table terms of one axis; false when the interval misses the grid.
  bool axis_terms(int axis, int lo, int len, int s, Terms& terms) const {
    terms.count = 0;
    const std::int64_t stride = prefix_stride_[axis];
    const int ring = ring_[axis];
    if (ring > 0) {
      if (static_cast<std::int64_t>(len) + 2LL * s >= ring) {
        terms.add(1, ring * stride);
        return true;
      }
      std::int64_t start = static_cast<std::int64_t>(lo) - s;
      if (start < 0 || start >= ring) start = (start % ring + ring) % ring;
      const std::int64_t end = start + len + 2LL * s - 1;
      if (end < ring) {
        terms.add(1, (end + 1) * stride);
        if (start > 0) terms.add(-1, start * stride);
      } else {
        terms.add(1, ring * stride);
        terms.add(-1, start * stride);
        terms.add(1, (end - ring + 1) * stride);
      }
      return true;
    }
    const std::int64_t first =
        std::max<std::int64_t>(0, static_cast<std::int64_t>(lo) - s - lo_[axis]);
    const std::int64_t last = std::min<std::int64_t>(
        ext_[axis] - 1, static_cast<std::int64_t>(lo) + len - 1 + s - lo_[axis]);
    if (first > last) return false;
    terms.add(1, (last + 1) * stride);
    if (first > 0) terms.add(-1, first * stride);
    return true;
  }

  std::int64_t sum_terms(int axis, std::int64_t offset, int sign) const {
    if (d_ == 2 && axis == 0) {  // the common cases without recursion
      const Terms &a = terms_[0], &b = terms_[1];
      std::int64_t total = 0;
      for (int i = 0; i < a.count; ++i)
        for (int j = 0; j < b.count; ++j)
          total +=
              a.sign[i] * b.sign[j] * static_cast<std::int64_t>(prefix_[a.offset[i] + b.offset[j]]);
      return total;
    }
    if (d_ == 3 && axis == 0) {
      const Terms &a = terms_[0], &b = terms_[1], &c = terms_[2];
      std::int64_t total = 0;
      for (int i = 0; i < a.count; ++i)
        for (int j = 0; j < b.count; ++j) {
          const std::int64_t at = a.offset[i] + b.offset[j];
          std::int64_t inner = 0;
          for (int l = 0; l < c.count; ++l)
            inner += c.sign[l] * static_cast<std::int64_t>(prefix_[at + c.offset[l]]);
          total += a.sign[i] * b.sign[j] * inner;
        }
      return total;
    }
    const Terms& terms = terms_[axis];
    std::int64_t total = 0;
    if (axis == d_ - 1) {
      for (int t = 0; t < terms.count; ++t)
        total += terms.sign[t] * static_cast<std::int64_t>(prefix_[offset + terms.offset[t]]);
      return sign * total;
    }
    for (int t = 0; t < terms.count; ++t)
      total += sum_terms(axis + 1, offset + terms.offset[t], sign * terms.sign[t]);
    return total;
  }

  template <class Visit>
  void visit_cells(int axis, std::int64_t at, int shell, int l1, Visit& visit) const {
    const bool last = axis == d_ - 1;
    for (const Position& p : positions_[axis]) {
      const std::int64_t here = at + static_cast<std::int64_t>(p.cell) * cell_stride_[axis];
      const int s = std::max(shell, p.distance), sum = l1 + p.distance;
      if (!last) {
        visit_cells(axis + 1, here, s, sum, visit);
      } else {
        const std::int64_t index = cell_.empty() ? rank_of_cell(here) : cell_[here];
        if (index >= 0) visit(static_cast<int>(index), s, sum);
      }
    }
  }

  /// Ordered points: the index of the point in cell `at` (-1 if none), which is the number of
  /// points in earlier cells (cells are ordered as the points: axis 0 fastest). Those are, for
  /// each axis a, the points equal to the cell on the axes above a and lower on axis a: one box
  /// count each. O(d · 2^d).
  std::int64_t rank_of_cell(std::int64_t at) const {
    ++ranked_;
    std::array<std::int64_t, 16> offset{};
    for (int axis = d_ - 1; axis >= 0; --axis) {
      offset[axis] = at / cell_stride_[axis];
      at %= cell_stride_[axis];
    }
    auto box = [&](int split, bool below) {  // axes < split: all; split: below or equal
      std::int64_t total = 0;
      const int combos = 1 << d_;
      for (int mask = 0; mask < combos; ++mask) {
        std::int64_t where = 0;
        int sign = 1;
        bool zero = false;
        for (int axis = 0; axis < d_ && !zero; ++axis) {
          const bool low = (mask >> axis) & 1;
          std::int64_t i;
          if (axis < split) {
            i = low ? 0 : ext_[axis];
          } else if (axis == split && below) {
            i = low ? 0 : offset[axis];
          } else {
            i = low ? offset[axis] : offset[axis] + 1;
          }
          if (low) sign = -sign;
          zero = i == 0;
          where += i * prefix_stride_[axis];
        }
        if (!zero) total += sign * static_cast<std::int64_t>(prefix_[where]);
      }
      return total;
    };
    if (box(-1, false) == 0) return -1;  // the cell itself is empty
    std::int64_t rank = 0;
    for (int axis = 0; axis < d_; ++axis) rank += box(axis, true);
    return rank;
  }

  int d_;
  bool ordered_ = false;
  mutable std::int64_t ranked_ = 0;  // cells listed by rank so far
  std::vector<int> lo_, ext_, ring_;
  std::vector<std::int64_t> cell_stride_, prefix_stride_;
  std::vector<std::int32_t> prefix_;
  const PointSet* points_ = nullptr;
  mutable std::vector<std::int32_t> cell_;  // point index per cell, -1 when empty
  std::int64_t cells_ = 0;
  bool usable_ = false;
  mutable std::vector<Terms> terms_ = std::vector<Terms>(static_cast<std::size_t>(d_));
  mutable std::vector<std::vector<Position>> positions_;
};

}  // namespace allocsim::geom::detail
