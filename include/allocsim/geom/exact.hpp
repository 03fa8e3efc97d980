#pragma once
// The exact optimum of Bender et al.'s problem (choose k of n points minimizing the sum of
// pairwise L1 distances), by branch and bound for any dimension; the reference against which
// the paper's approximation algorithms are judged. Budgeted: when the budget runs out the best
// set found is returned with a proven lower bound and proven = false.
//
// Search: points with equal coordinates are merged into sites with a multiplicity; sites are
// taken in lexicographic order (each subset is built once, by its chosen sites in order, with a
// count per site). The incumbent starts from MM+Inc. Lower bounds at a node with chosen set I,
// candidates C (sites after the last chosen) and r points still to choose, where
// f(c) = Σ_{i∈I} d(c, i):
//   (A) per axis: the L1 sum separates by axis, and in one dimension the best r values to add
//       to fixed values I are a window of consecutive sorted candidates (exchange argument), so
//       Σ_axis min_window [Σ_{t∈T} f_axis(t) + W_axis(T)] is exact per axis (mesh axes only).
//   (B) Russian doll: W(I) + (r smallest f over C) + OPT(r), with OPT(r) the optimum (or a
//       proven lower bound) for r points, solved first for r = 2 … k−1.
//   (C) Gilmore–Lawler: W(I) + r smallest of f(c) + ½·(sum of the r−1 smallest distances from
//       c to other points).
// Symmetry breaking for a full box of distinct points (an empty mesh or torus): translation
// (the lexicographically first chosen point lies on the box's first slab of axis 0), and on
// mesh axes a width bound — an optimal set has contiguous projections (closing a gap lowers
// every cross distance), and a set of width w along an axis has W ≥ the sum of the w−1
// smallest values of L(k−L) — so the box is cut to the widest width the incumbent allows.
//
// On tori (ring axes) the search stays exact: bound (A) is replaced on ring axes by the r
// smallest per-axis f values, (B) and (C) hold in any metric; only the width cut is skipped.
#include <cstdint>
#include <vector>

#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

struct ExactOptions {
  Budget budget;
  /// Proven lower bounds on the optimum for r points of this point set (index r); entries
  /// present are not recomputed by the Russian-doll phase (e.g. known unconstrained optima).
  std::vector<std::int64_t> known_bounds;
  /// Start from this k-subset instead of MM+Inc (must be a valid selection of k points).
  const Selection* incumbent = nullptr;
  /// Solve r = 2 … k−1 first for bound (B).
  bool russian_doll = true;
};

/// The optimum (proven = true, lower_bound = sum) or, when the budget ran out, the best set
/// found, a proven lower bound and proven = false.
Selection exact_optimum(const PointSet& points, int k, const ExactOptions& options = {});
/// All C(n, k) subsets (tests only; n ≤ ~20).
Selection brute_force_optimum(const PointSet& points, int k);
/// Largest width (number of consecutive coordinate values) an optimal set of k distinct points
/// can have along a mesh axis of a full box when some set of sum `upper` exists.
int max_optimal_width(int k, std::int64_t upper);

}  // namespace allocsim::geom
