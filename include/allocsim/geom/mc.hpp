#pragma once
// MC and MC1x1 (Mache, Lo and Windisch's shell allocator, as used by Bender et al., Algorithmica
// 2008, Section 5): around each candidate, shell 0 is a box and shell s holds the points at L∞
// distance s from it; the k points are taken from the innermost shells and the cost is the sum
// of their shell numbers. The lowest cost wins.
//
// MC1x1: shell 0 is the candidate point itself (so shells are L∞ distances from it), candidates
// are the input points. MC: shell 0 is a box of the requested shape (a×b or a×b×c) whose lowest
// corner is the candidate point, in every distinct orientation (axis permutation) of the shape.
//
// Whole inner shells are taken. Tie rules (ShellTies): the paper's (`first`, MC1x1's default):
// among centres of equal cost the first in candidate order wins, and the outermost shell needed
// (only partly taken) gives its points in input-index order, as the PReMAS simulator that
// produced Bender et al.'s Table 1 does; `sum`: among centres of equal cost the lower sum of
// pairwise distances wins (then candidate order), and the partial shell gives the points nearest
// in L1 to shell 0 first (then lower index). MC (shaped) always uses `sum`. Guarantee (Bender et
// al.): MC1x1 ≤ (2 − 2/k) · d · OPT on meshes (L1 ≤ d·L∞); the same argument holds on tori with
// ring-aware distances.
//
// Speed (exact: every answer equals the point-by-point scan, kept as the reference in
// tests/geom/mc_reference.hpp). For distinct points on a grid not much larger than the point set
// (a machine's free processors) the cost of a candidate comes from counts of points in boxes: with
// C(s) the number of points within L∞ distance s of shell 0, cost = Σ_{s≥0} max(0, k − C(s))
// (each chosen point of shell t is counted once for every s < t), each C(s) one summed-area-table
// lookup of 2^d (3^d across a torus seam) entries; a candidate is dropped as soon as a partial
// sum, or (s*+1)·(k − C(s*)) for a probe shell s*, already loses (costs only grow). A centre has
// the least possible cost Σ_s max(0, k − (2s+1)^d) iff its ball of radius R0 − 1 is full and
// C(R0) ≥ k (R0 = min{s : (2s+1)^d ≥ k}); under `first` the first such centre is the answer,
// under `sum` only such centres are evaluated when one exists. Only the winner's points are listed
// under `first`; under `sum` a candidate whose grown box is fully occupied and crosses no seam
// repeats the set of the first such candidate (translated) when the input is in machine order,
// so its sum cannot be strictly lower and it is skipped. Proofs in mc.cpp (CountedShellScan);
// per job O(grid cells + centres · shells · 2^d).
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

/// Tie rules of the shell allocators (see the file comment).
enum class ShellTies {
  first,  ///< first centre of least cost; partial shell by input index (paper, PReMAS)
  sum,    ///< least pairwise sum among centres of least cost; partial shell by L1, then index
};

/// MC1x1 with the input points as candidate centres, the paper's tie rules. Every solver here
/// polls `time_limit` (when given) while it scans centres and lets its TimeoutError through.
Selection mc1x1(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
/// MC1x1 with the input points as candidate centres and the given tie rules.
Selection mc1x1(const PointSet& points, int k, ShellTies ties,
                const TimeLimit* time_limit = nullptr);
/// MC1x1 with centres on the product grid of the given per-axis values (e.g. every machine
/// position), visited with axis 0 fastest.
Selection mc1x1_over_grid(const PointSet& points, int k,
                          const std::vector<std::vector<int>>& axis_values,
                          ShellTies ties = ShellTies::first, const TimeLimit* time_limit = nullptr);
/// MC with shell 0 of the given shape (one side per axis; missing axes are 1).
Selection mc_shaped(const PointSet& points, int k, std::vector<int> shape,
                    const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::geom
