#pragma once
// The table of point-set methods (`allocsim optimum --method ...`): exact, ptas:m=M, mm, genalg,
// mc1x1, mc:shape=AxB, mm-inc. One row per method, as in every registry of the project.
#include <functional>
#include <string>

#include "allocsim/geom/point_set.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim::geom {

/// Runs one method on a point set for k points within a budget (ignored by the heuristics).
using SolverFn = std::function<Selection(const PointSet&, int, const Params&, const Budget&)>;
using SolverRegistry = Registry<SolverFn>;

const SolverRegistry& solver_registry();

/// Resolves `method` (e.g. `ptas:m=4`) and runs it. Heuristics report proven = false and the
/// cheap per-axis window lower bound; `seconds` is filled in for every method.
Selection solve(const std::string& method, const PointSet& points, int k, const Budget& budget);

/// Parses a duration such as `10s`, `500ms`, `2m`, `1.5` (seconds). Throws InputError.
double parse_duration_seconds(const std::string& text);

}  // namespace allocsim::geom
