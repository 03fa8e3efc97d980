#pragma once
// Manhattan Median (MM) and Gen-Alg of Bender et al. (Algorithmica 2008, Section 3): for every
// candidate centre take the k input points closest to it in L1 and keep the set with the least
// sum of pairwise distances. MM's centres are all intersections of the axis-parallel
// hyperplanes through the input points (every combination of coordinate values that occur on
// each axis); Gen-Alg's centres are the input points themselves (Krumke et al.'s algorithm).
//
// Guarantees (mesh axes): MM ≤ 7/4 · OPT in 2D and ≤ (2 − 1/(2d)) · OPT in d dimensions
// (Section 3, tight). Gen-Alg ≤ (2 − 2/k) · OPT in any metric, so also on tori with ring-aware
// distances; since MM's centres include every input point, MM ≤ Gen-Alg there too.
//
// Tie rules (deterministic): among points at equal distance from a centre the lower input index
// is taken first; among centres with equal sums the first in enumeration order wins. Grid
// centres are enumerated in one of two orders (CentreOrder): `sorted` (default) each axis's
// values ascending, axis 0 fastest; `premas` as the PReMAS simulator behind Bender et al.'s
// Table 1 scans them: axis 0 (x) slowest, each axis's values in order of first appearance among
// the points. Point centres (Gen-Alg): input order, duplicates skipped.
//
// Speed (same answers as the plain scan, kept as geom::reference in tests/geom/mm_reference.hpp):
// when the points are distinct and fill a good part of their bounding box, the k nearest of a
// centre are found by walking a precomputed list of L1 ball offsets, ring by ring, over an
// occupancy grid padded with copies across the torus seams (src/geom/ball_walk.hpp, which
// proves it exact), and their pairwise sum from per-axis histograms over the 2r + 1 offsets
// around the centre (r = the last ring's radius); in 2D with k small against n from line counts
// (plane_sums.hpp). With k large against n (or points off a usable grid) every point's distance
// is computed; when the distances fit a byte this runs 16 points per instruction and keeps the
// chosen set as a bitmask with histograms updated by the points that changed
// (byte_key_scan.hpp, which states why the set and sum are the plain scan's).
// Most centres of a lightly used machine see only free positions up to that radius; their sum
// is then known without a selection, from a memo (NearestMemo):
//   Claim. Let every index order be lexicographic in the coordinates (last axis most
//   significant; e.g. free processors listed by node id), let centres c and c' lie in the box
//   B (bounding box of the points, whole ring on torus axes), have the same class — per axis
//   (min(c_a − lo_a, C), min(hi_a − c_a, C)) — and let every cell of B within L1 distance r of
//   either hold a point, where r ≤ C is the radius of c's last ring. Then S(c') = S(c).
//   Proof. For offsets o with |o_a| ≤ C, whether c + o lies in B and whether its coordinate on a
//   torus axis wraps (and where) depend only on the class (an axis with both terms below C
//   fixes c_a itself). So the cells of B at each distance ≤ r are translates by c' − c, all
//   holding points: both centres' rings up to r have equal counts, so both stop at radius r
//   taking the same number m from ring r. The lexicographic order of c + o among ring points
//   is decided by o and the class alone, so the m lowest indices are translates too. Distances
//   (ring-aware) between c + o and c + o' depend on o − o' only, so the pairwise sums are
//   equal. ∎
//   Also S(c') = S(c) when the cells within r − 1 of c' all hold points and so do the
//   translates of c's chosen ring-r cells M: the ring-r cells of c' are the translates of c's
//   in the same index order, M's translates are the first m of them and all hold points, so
//   they are the m lowest-indexed points of the ring (blocked cells there only come later). ∎
// A memo entry (k, class) → (r, S, M's offsets from c) is stored on the first such centre; a
// later centre of the class is recognised by the distance transform of B's empty cells (> r,
// or = r with M's translates holding points; an axis that wraps within C fixes c_a, so the
// translate c' + o, wrapped, is M's cell for c'). Every centre's sum is
// still exact, visited in the same order with the same strict-improvement rule, so the chosen
// centre, set and sum are unchanged. `C` is the least radius at which the corner orthant of
// Z^d holds k points (classes stay few); entries with r > C are not stored. The claim holds for
// any C ≥ r, so on machines whose every axis wraps C is the least radius whose L1 ball in Z^d
// holds k points (the radius of every centre whose neighbourhood holds only points, when the
// rings are at least 2C + 1 long): fewer classes, hence fewer first evaluations per class.
//
// Between calls (a NearestMemo kept by an allocator), when the points are listed
// lexicographically on a usable grid and k ≤ 64: every centre's sums S_1 … S_m of its nearest
// points in (distance, index) order are kept, with how many of them stay exact; a call learns
// from its own points which positions changed status and lowers that count for the centres
// within reach (src/geom/prefix_cache.hpp proves the kept sums exact). Known sums no lower than
// the best are only counted; the others are walked again. Same centres in the same order, same
// strict-improvement rule and early stop, and a new best's set is computed again: every field of
// the answer is unchanged.
//
// Early stop. The scan stops once the best sum equals a lower bound valid for every k distinct
// points (only a strictly lower sum replaces the best, so later centres cannot win): on mesh
// axes the least pairwise sum of k distinct points of Z^d (distinct_points_lower_bound); with
// torus axes of lengths L_a, min(that, min_a ⌈L_a · (k − 1) / 2⌉):
//   Claim. Any k ≥ 2 distinct points of the machine have pairwise sum S ≥ min(OPT_Z^d(k),
//   min_a ⌈L_a (k − 1) / 2⌉).
//   Proof. Take a torus axis a, its ring R of length L and the points' coordinates on it.
//   (i) If two cyclically consecutive occupied positions p, p' leave a gap g = p' − p (mod L)
//   with 2g ≥ L, the positions lie on an arc of length L − g ≤ L / 2 starting at p'; the map
//   y ↦ (y − p') mod L sends them into [0, L − g], where every difference δ ≤ L / 2 equals the
//   ring distance min(δ, L − δ). (ii) Otherwise every gap is below L / 2. For θ ∈ [0, L) let
//   A_θ be the half-open arc [θ, θ + L / 2) of the circle of circumference L and N_θ the
//   number of points with their coordinate in A_θ; for two coordinates at ring distance δ the
//   θ for which exactly one lies in A_θ have measure 2δ, so S_a = ½ ∫ N_θ (k − N_θ) dθ. An
//   empty A_θ (or empty complement, also a half-open arc of length L / 2) would lie inside one
//   gap, making it longer than L / 2; so 1 ≤ N_θ ≤ k − 1, N_θ (k − N_θ) ≥ k − 1 and
//   S ≥ S_a ≥ L (k − 1) / 2. If (ii) holds on some axis, S ≥ ⌈L_a (k − 1) / 2⌉ (S is an
//   integer). Else (i) holds on every torus axis: its map is injective and keeps every
//   distance along the axis, so the points map to k distinct points of Z^d with the same
//   pairwise sum, S ≥ OPT_Z^d(k). ∎
// When this torus bound ends a scan early, Selection::nodes still reports every centre (as the
// scan without it examined), so every field of the answer is unchanged.
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

namespace detail {
struct ScanWorkspace;  // src/geom/nearest_scan.hpp
}  // namespace detail

/// Order in which MM visits its grid centres (see the file comment): it decides which of several
/// centres with the least sum wins.
enum class CentreOrder {
  sorted,  ///< values ascending, axis 0 fastest
  premas,  ///< values in order of first appearance among the points, axis 0 slowest
};

/// Sums of MM's centres whose neighbourhood holds only points (see "Speed" above), kept
/// between calls on points of the same axes (e.g. by an allocator between its decisions; a
/// call on other axes empties it). Bound: at most kCapacity entries (emptied when full). Its
/// workspace also keeps every centre's sums for k ≤ 64 (at most 2^23 sums of 5 bytes).
struct NearestMemo {
  static constexpr std::size_t kCapacity = std::size_t{1} << 16;
  struct Entry {
    int radius = 0;        ///< radius of the last ring taken
    std::int64_t sum = 0;  ///< pairwise sum of the k nearest
    /// The chosen points of the last ring, as coordinate offsets from the centre (d per
    /// point; wrapped on torus axes when used).
    std::vector<int> last_ring;
  };
  std::vector<int> rings;                            ///< the axes the entries belong to
  std::unordered_map<std::uint64_t, Entry> entries;  ///< key: k and the centre's class
  /// The scan's storage kept between calls (grids, ball offsets, buffers), so that a call does
  /// not allocate it again, and the kept sums of "Speed" (brought up to date from each call's
  /// own points). A copy of the memo starts without it (copies are never tied to each other).
  struct Workspace {
    Workspace() = default;
    Workspace(const Workspace&) {}
    Workspace(Workspace&&) = default;
    Workspace& operator=(const Workspace&) {
      state.reset();
      return *this;
    }
    Workspace& operator=(Workspace&&) = default;
    ~Workspace() = default;
    std::shared_ptr<detail::ScanWorkspace> state;
    std::int64_t reused = 0;  ///< centres whose sum came from an earlier call (statistics)
  };
  Workspace workspace;
};

/// MM with the intersection centres (CentreOrder::sorted). Every solver here polls `time_limit`
/// (when given) while it scans centres and lets its TimeoutError through.
Selection manhattan_median(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
/// MM with the intersection centres visited in the given order.
Selection manhattan_median(const PointSet& points, int k, CentreOrder order,
                           const TimeLimit* time_limit = nullptr, NearestMemo* memo = nullptr);
/// Gen-Alg: MM with the input points as centres.
Selection gen_alg(const PointSet& points, int k, const TimeLimit* time_limit = nullptr,
                  NearestMemo* memo = nullptr);
/// MM over the product grid of the given per-axis centre values (e.g. every machine position:
/// the "improved versions" Bender et al. used for their Table 1).
Selection nearest_best_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values,
                                 CentreOrder order = CentreOrder::sorted,
                                 const TimeLimit* time_limit = nullptr,
                                 NearestMemo* memo = nullptr);
/// The k points nearest to `centre` in L1 (ties by lower index), ascending indices.
std::vector<int> k_nearest(const PointSet& points, std::span<const int> centre, int k);

}  // namespace allocsim::geom
