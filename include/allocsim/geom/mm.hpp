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
// Cost: O(centres · (n·d + k·d + Σ distinct values)); no per-centre sort (the k nearest are
// found by counting over the small integer distance range, the pairwise sum from per-axis
// histograms of the chosen points).
#include <span>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

/// Order in which MM visits its grid centres (see the file comment): it decides which of several
/// centres with the least sum wins.
enum class CentreOrder {
  sorted,  ///< values ascending, axis 0 fastest
  premas,  ///< values in order of first appearance among the points, axis 0 slowest
};

/// MM with the intersection centres (CentreOrder::sorted). Every solver here polls `time_limit`
/// (when given) while it scans centres and lets its TimeoutError through.
Selection manhattan_median(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
/// MM with the intersection centres visited in the given order.
Selection manhattan_median(const PointSet& points, int k, CentreOrder order,
                           const TimeLimit* time_limit = nullptr);
/// Gen-Alg: MM with the input points as centres.
Selection gen_alg(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
/// MM over the product grid of the given per-axis centre values (e.g. every machine position:
/// the "improved versions" Bender et al. used for their Table 1).
Selection nearest_best_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values,
                                 CentreOrder order = CentreOrder::sorted,
                                 const TimeLimit* time_limit = nullptr);
/// The k points nearest to `centre` in L1 (ties by lower index), ascending indices.
std::vector<int> k_nearest(const PointSet& points, std::span<const int> centre, int k);

}  // namespace allocsim::geom
