#pragma once
// Private helper of mm.cpp and nearest_scan.hpp: what MM's scan keeps between calls
// (ScanWorkspace, held by a NearestMemo) and the radii that size its classes and walks.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "allocsim/geom/mm.hpp"
#include "axis_index.hpp"
#include "ball_walk.hpp"
#include "byte_key_scan.hpp"
#include "nearest_grid.hpp"
#include "prefix_cache.hpp"

namespace allocsim::geom::detail {

/// True when the indices list the points in lexicographic order of their coordinates, last
/// axis most significant (e.g. free processors by node id, axis 0 fastest).
inline bool lexicographic_order(const PointSet& points) {
  const int n = points.size(), d = points.dims();
  for (int i = 1; i < n; ++i) {
    int axis = d - 1;
    while (axis >= 0 && points.coord(i, axis) == points.coord(i - 1, axis)) --axis;
    if (axis < 0 || points.coord(i, axis) < points.coord(i - 1, axis)) return false;
  }
  return true;
}

/// The class cap C of mm.hpp: the least r with C(r + d, d) ≥ k points of the corner orthant of
/// Z^d within L1 distance r.
inline int class_cap(int dims, int k) {
  for (int r = 0;; ++r) {
    std::int64_t count = 1;
    for (int i = 1; i <= dims; ++i) count = count * (r + i) / i;
    if (count >= k) return r;
  }
}

/// The least r whose L1 ball in Z^d holds k points: Σ_i 2^i · C(d, i) · C(r, i) ≥ k. The radius
/// of every centre of a torus whose neighbourhood holds only points (when the rings are at
/// least 2r + 1 long), so the class cap on machines whose every axis wraps.
inline int ball_cap(int dims, int k) {
  for (int r = 0;; ++r) {
    std::int64_t count = 0, choose_d = 1, choose_r = 1, power = 1;
    for (int i = 0; i <= dims; ++i) {
      if (i > 0) {
        choose_d = choose_d * (dims - i + 1) / i;
        choose_r = choose_r * (r - i + 1) / i;
        power *= 2;
      }
      count += power * choose_d * choose_r;
    }
    if (count >= k) return r;
  }
}

/// What MM's scan keeps between calls (held by a NearestMemo): the occupancy grid, the ball
/// walk (whose ball offsets stay while the padded box keeps its shape), the byte-key scan, the
/// axis indices and the buffers, so that a call reuses their storage; every call rebuilds
/// their contents from its points. The kept sums (prefix_cache.hpp) carry over, brought up to
/// date from each call's own points and used only where proven exact: an answer never depends
/// on what a workspace held before.
struct ScanWorkspace {
  NearestGrid grid;
  BallWalk walk;
  ByteKeyScan byte_scan;
  AxisIndex index;                              // the caller's (manhattan_median, gen_alg)
  AxisIndex ranked_index;                       // with ranks, when the scan by distances needs them
  std::vector<std::vector<int>> centre_values;  // the grid centres, when normalised
  std::vector<int> centre, ring_centre, ring, previous, histogram, chosen, scratch, best;
  std::vector<int> previous_centre;
  std::vector<std::vector<int>> tables;
  std::vector<std::int32_t> keys;
  std::vector<std::int64_t> wide_scratch;
  std::vector<std::vector<std::uint64_t>> class_part;
  std::vector<std::vector<std::int64_t>> cell_part;
  std::vector<std::uint64_t> order;  // a prefix's points (PrefixCache::compute)
  PrefixCache prefix_cache;          // kept between calls (prefix_cache.hpp)
};

/// The workspace a memo holds (made on first use), or `fallback` without a memo.
inline ScanWorkspace& workspace_of(NearestMemo* memo, std::optional<ScanWorkspace>& fallback) {
  if (!memo) return fallback.emplace();
  if (!memo->workspace.state) memo->workspace.state = std::make_shared<ScanWorkspace>();
  return *memo->workspace.state;
}

}  // namespace allocsim::geom::detail
