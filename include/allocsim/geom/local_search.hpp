#pragma once
// MM+Inc (Bender et al., Algorithmica 2008, Section 5): MM followed by local improvement. A
// chosen point is swapped for an unchosen one while that strictly lowers the sum of pairwise
// distances; the search stops at a local minimum, so MM+Inc ≤ MM always.
//
// Each step takes the best swap (largest decrease; ties by lower chosen index, then lower
// unchosen index), using for every point p its distance sum D(p) to the chosen set:
// swapping a out for b changes the sum by D(b) − d(a,b) − D(a). A step costs O(k·(n−k)) with
// pruning, an update O(n·d).
#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

/// Improves `start` (a k-subset of `points`) by best-improvement swaps until none helps. Polls
/// `time_limit` (when given) once per step's work and lets its TimeoutError through.
Selection improve_by_swaps(const PointSet& points, Selection start,
                           const TimeLimit* time_limit = nullptr);
/// MM+Inc: manhattan_median followed by improve_by_swaps.
Selection mm_inc(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::geom
