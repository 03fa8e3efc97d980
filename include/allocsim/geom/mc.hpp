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
//
// On a persistent free grid (mc1x1_on_grid; free_grid.hpp): an allocator keeps the free nodes as
// one bit word per axis-0 line, brought up to date from the busy map between decisions (only
// changed nodes touched), so nothing of size N is rebuilt per call. The candidates are the free
// nodes in node order, which is the order of the free list (node ids ascending, axis 0 fastest),
// and a node's rank in that list is its point index: so node ids may stand for indices in every
// tie rule above (first centre, partial shell by index, L1 then index), and the answer (node
// ids) maps to the point-set answer by that rank. C(s) is Σ over the lines within L∞ distance s
// on axes 1 … d−1 of the line's free nodes in the axis-0 window (two ranges across the seam of a
// ring, the whole ring once 2s+1 ≥ L), two lookups in the line's running counts each: exactly
// the points of the box grown by s, as BoxCounts counts them. The least-cost test needs the ball of
// radius R0 − 1 full: E(0) = the free nodes, E(r) = E(r−1) eroded by ±1 on one axis after the
// other, each pass ANDing the previous pass's result with its shifts by ±1 (bitwise on axis 0,
// neighbouring lines on the others; out of the mesh counts as busy, and E(r)
// is empty when 2r+1 exceeds a ring, where a ball repeats positions). By induction a node is in
// E(r) iff every position at L∞ distance ≤ r exists, is distinct and is free, since the ball of
// radius r is the union of the radius-(r−1) balls around the ball of radius 1; that is
// C(r) = (2r+1)^d. So the centres of least cost are the nodes of E(R0−1) with C(R0) ≥ k, tested in
// node order; the rest (bound from a hint, pruned scan, early stop) is CountedShellScan's with
// the same proofs, since they hold for any centre order that is the candidate order and any hint
// centre. The full-pattern skip is widened to repeated patterns: under `sum`, when the ball of
// radius R (the candidate's last shell) lies inside the grid without crossing a seam, the
// candidate's cost, chosen set and its order are fixed by the free positions of that ball
// relative to the centre (shells, L1 keys and the relative node order, axis 0 fastest, are kept
// by translation), so a candidate whose ball repeats the pattern of one listed before has the
// same cost and sum translated (translation keeps ring distances) and, as for full patterns,
// cannot replace the best: it is skipped. With every position a centre (mc1x1_over_grid over the
// whole machine, node order) the centres of least cost are the same nodes (a full ball of
// radius R0 − 1 ≥ 0, or C(0) ≥ 1 when R0 = 0, holds the centre, so it is free), and only the
// pruned scan also visits busy positions (C(0) = 0 there; never a full pattern). The early stop
// under `sum` also holds on tori whose every ring has L ≥ 4·R0 (d ≤ 3): only centres of least
// cost can be the best when it stops, and such a centre's points lie in its ball of radius R0,
// where two coordinates differ by at most 2·R0 ≤ L/2 per ring axis, so ring distances are line
// distances of the unwrapped ball: the set is isometric to k distinct mesh points, whose sum is at
// least distinct_points_lower_bound; a later centre never has a strictly lower sum. The probe there
// is strengthened: C(s) ≤ (2s+1)^d (distinct positions) and C(s) ≤ C(p) for s ≤ p, so cost = Σ_s
// max(0, k − C(s)) ≥ Σ_s max(0, k − m(s)) with m(s) = min((2s+1)^d, C(p)) for s ≤ p and (2s+1)^d
// beyond, a bound at least (p+1)·(k − C(p)); a centre whose bound already loses would lose with its
// cost.
#include <span>
#include <vector>

#include "allocsim/geom/free_grid.hpp"
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
/// MC1x1 with the free nodes of `grid` as points and centres (in node order), the given tie
/// rules: Selection::indices are node ids, ascending; the same answer as mc1x1 on the free nodes'
/// coordinates listed by node id, with each index i there being the i-th free node here.
/// With `all_positions`, every position is a centre (node order), as mc1x1_over_grid with every
/// machine position. Requires grid.usable().
Selection mc1x1_on_grid(const FreeGrid& grid, int k, ShellTies ties,
                        const TimeLimit* time_limit = nullptr, bool all_positions = false);
/// Sum of pairwise (ring-aware) L1 distances of the given nodes of `grid`'s machine.
std::int64_t grid_pairwise_sum(const FreeGrid& grid, std::span<const int> nodes);
/// MC with shell 0 of the given shape (one side per axis; missing axes are 1).
Selection mc_shaped(const PointSet& points, int k, std::vector<int> shape,
                    const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::geom
