#pragma once
// The previous implementation of MM and Gen-Alg (one k-nearest selection per candidate centre)
// and of MM+Inc's swap phase,
// kept unchanged as the reference the tests compare the fast one (mm.hpp) against and as the
// baseline of the benches. Same contracts as the functions of the same names in mm.hpp.
#include <vector>

#include "allocsim/geom/mm.hpp"

namespace allocsim::geom::reference {

Selection manhattan_median(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
Selection manhattan_median(const PointSet& points, int k, CentreOrder order,
                           const TimeLimit* time_limit = nullptr);
Selection gen_alg(const PointSet& points, int k, const TimeLimit* time_limit = nullptr);
Selection nearest_best_over_grid(const PointSet& points, int k,
                                 const std::vector<std::vector<int>>& axis_values,
                                 CentreOrder order = CentreOrder::sorted,
                                 const TimeLimit* time_limit = nullptr);

/// The previous MM+Inc swap phase (D(p) summed pair by pair, every unchosen point tried).
Selection improve_by_swaps(const PointSet& points, Selection start,
                           const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::geom::reference
