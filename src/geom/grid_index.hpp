#pragma once
// Private helper of the geom/ solvers: an occupancy grid over the bounding box of a set of
// distinct points (e.g. free processors), to visit the points at L1 distance r (or L∞ distance r)
// from a location without scanning all n points. Used when the box is not much larger than n.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom::detail {

class GridIndex {
 public:
  /// Builds the grid when the points are distinct and the box volume is at most
  /// 8·n + 256; otherwise usable() is false.
  explicit GridIndex(const PointSet& points) : points_(points), d_(points.dims()) {
    const int n = points.size();
    if (n == 0) return;
    lo_.assign(d_, 0);
    len_.assign(d_, 0);
    stride_.assign(d_, 1);
    std::int64_t volume = 1;
    for (int axis = 0; axis < d_; ++axis) {
      const PointSet::AxisWindow window = points.axis_window(axis);
      lo_[axis] = window.low;
      len_[axis] = window.length;
      stride_[axis] = static_cast<int>(volume);
      volume *= len_[axis];
      if (volume > 8LL * n + 256) return;
    }
    cell_.assign(static_cast<std::size_t>(volume), -1);
    for (int i = 0; i < n; ++i) {
      std::int64_t at = 0;
      for (int axis = 0; axis < d_; ++axis)
        at += static_cast<std::int64_t>(points.coord(i, axis) - lo_[axis]) * stride_[axis];
      if (cell_[at] >= 0) {  // duplicate point: the grid cannot hold multiplicities
        cell_.clear();
        return;
      }
      cell_[at] = i;
    }
    usable_ = true;
  }

  bool usable() const { return usable_; }

  /// Appends to `out` the points at L1 distance exactly r from `centre`.
  void at_l1(const int* centre, int r, std::vector<int>& out) const {
    visit(centre, 0, r, 0, false, false, r, out);
  }
  /// Appends to `out` the points at L∞ distance exactly r from `centre`.
  void at_linf(const int* centre, int r, std::vector<int>& out) const {
    visit(centre, 0, r, 0, true, false, r, out);
  }

 private:
  /// Positions along `axis` at distance e from c (0, 1 or 2 of them), as offsets into the box.
  int positions(int axis, int c, int e, int* out) const {
    int count = 0;
    if (points_.wraps(axis)) {
      const int ring = len_[axis];
      if (2 * e > ring) return 0;
      out[count++] = ((c + e) % ring + ring) % ring;
      if (e != 0 && 2 * e != ring) out[count++] = ((c - e) % ring + ring) % ring;
      return count;
    }
    const int a = c + e - lo_[axis], b = c - e - lo_[axis];
    if (a >= 0 && a < len_[axis]) out[count++] = a;
    if (e != 0 && b >= 0 && b < len_[axis]) out[count++] = b;
    return count;
  }

  /// L1: the axes share the distance `budget` (the last axis takes the rest). L∞: every axis
  /// takes 0..r and some axis must take exactly r (`hit`).
  void visit(const int* centre, int axis, int budget, std::int64_t offset, bool linf, bool hit,
             int r, std::vector<int>& out) const {
    int pos[2];
    const bool last = axis == d_ - 1;
    int e_lo = 0;
    const int e_hi = linf ? r : budget;
    if (last && !linf) e_lo = budget;
    if (last && linf && !hit) e_lo = r;
    for (int e = e_lo; e <= e_hi; ++e) {
      const int count = positions(axis, centre[axis], e, pos);
      for (int j = 0; j < count; ++j) {
        const std::int64_t at = offset + static_cast<std::int64_t>(pos[j]) * stride_[axis];
        if (last) {
          const int index = cell_[at];
          if (index >= 0) out.push_back(index);
        } else {
          visit(centre, axis + 1, linf ? budget : budget - e, at, linf, hit || e == r, r, out);
        }
      }
    }
  }

  const PointSet& points_;
  int d_;
  std::vector<int> lo_, len_, stride_;
  std::vector<std::int32_t> cell_;
  bool usable_ = false;
};

}  // namespace allocsim::geom::detail
