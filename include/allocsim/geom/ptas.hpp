#pragma once
// The polynomial-time approximation scheme of Bender et al. (Algorithmica 2008, Section 4) for
// constant dimension d. Guess, for the optimal set OPT, m+1 cut positions per axis such that
// each of the m slabs between consecutive cuts holds an equal share of OPT's k points (shares
// differ by at most one when m does not divide k; the first k mod m slabs get the larger
// share), and the number of OPT's points in each of the m^d cells. For a point in slab i of an
// axis, the L1 sum along that axis is linear in its coordinate up to within-slab terms: its
// coefficient is (points in earlier slabs − points in later slabs) = (2i+1−m)·k/m for equal
// shares. So each cell takes its count of points extreme in the cell's gradient direction
// (minimizing Σ_axis coefficient·coordinate); the best union over all guesses is returned.
// Guarantee: w(APX) ≤ w(OPT) / (1 − 1/(m−2) − 2/(m−1)), meaningful for m ≥ 5.
//
// Implementation: cuts are positions in each axis's order by (coordinate, input index), i.e. the
// instance perturbed by ε·index so that ties at a cut are split consistently (the guarantee of
// the perturbed instance carries over as ε → 0); the outer cuts are the first and last
// position (enlarging the outer slabs only adds candidates to cells that pick by the linear
// objective). Cut vectors keep at least a share of points per slab; cell counts are enumerated
// cell by cell with per-slab quotas, pruned when a cell has fewer points than its count or a
// slab's remaining quota exceeds the capacity of its remaining cells. Budgeted like exact: when
// the budget runs out, the best union found is returned with proven = false. Mesh axes only in
// theory: on ring axes it runs with ring distances but no guarantee is claimed (proven = false).
#include "allocsim/geom/point_set.hpp"

namespace allocsim::geom {

/// The PTAS with parameter m ≥ 1 (m = 1 is a single cell: the k points extreme in no direction).
/// proven = the enumeration completed on a mesh (no ring axis); `completed`, when given, tells
/// whether the enumeration completed whatever the axes.
Selection ptas(const PointSet& points, int k, int m, const Budget& budget = {},
               bool* completed = nullptr);
/// 1 − 1/(m−2) − 2/(m−1): w(APX) ≤ w(OPT) / factor when factor > 0 (m ≥ 5); ≤ 0 means the
/// bound says nothing.
double ptas_guarantee_factor(int m);

}  // namespace allocsim::geom
