#pragma once
// MC and MC1x1 (Mache, Lo and Windisch's shell allocator, as used by Bender et al., Algorithmica
// 2008, Section 5): around each candidate, shell 0 is a box and shell s holds the points at L∞
// distance s from it; the k points are taken from the innermost shells and the cost is the sum
// of their shell numbers. The lowest cost wins; ties by lower sum of pairwise distances, then by
// candidate order.
//
// MC1x1: shell 0 is the candidate point itself (so shells are L∞ distances from it), candidates
// are the input points. MC: shell 0 is a box of the requested shape (a×b or a×b×c) whose lowest
// corner is the candidate point, in every distinct orientation (axis permutation) of the shape.
//
// Whole inner shells are taken; within the outermost shell needed (only partly taken) the points
// nearest in L1 to shell 0 are preferred, then lower input index. Guarantee (Bender et al.):
// MC1x1 ≤ (2 − 2/k) · d · OPT on meshes (L1 ≤ d·L∞); the same argument holds on tori with
// ring-aware distances.
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

/// MC1x1 with the input points as candidate centres. Every solver here polls `time_limit` (when
/// given) while it scans centres and lets its TimeoutError through.
Selection mc1x1(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
/// MC1x1 with centres on the product grid of the given per-axis values (e.g. every machine
/// position).
Selection mc1x1_over_grid(const PointSet& points, int k,
                          const std::vector<std::vector<int>>& axis_values,
                          const TimeLimit* time_limit = nullptr);
/// MC with shell 0 of the given shape (one side per axis; missing axes are 1).
Selection mc_shaped(const PointSet& points, int k, std::vector<int> shape,
                    const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::geom
