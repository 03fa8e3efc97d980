#pragma once
// Communication patterns of jobs inside simulations (Agarwal, Sharma and Kalé §3 task graphs,
// sized to each job). A job pattern is a pattern spec whose size comes from the job:
// `mesh2d:auto` (the most square AxB stencil with A·B = tasks), `mesh3d:auto` (most cubic),
// `ring`, `alltoall`, `random:degree=6` — `auto` or no size at all; the other parameters
// (bytes, wrap, degree, seed) as in `allocsim map`. `leanmd` and fixed sizes are rejected.
#include <string>

#include "allocsim/mapping/task_graph.hpp"

namespace allocsim::mapping {

/// The most balanced factorization of `tasks` into `dims` sides, largest first (7 -> 7x1,
/// 12 -> 4x3, 64 in 3D -> 4x4x4): the sides minimize the largest side, then the next.
std::vector<int> balanced_sides(int tasks, int dims);

/// The pattern spec with its size set for `tasks` tasks (`mesh2d:auto` at 12 ->
/// `mesh2d:size=4x3`). Throws InputError on an unknown pattern, a fixed size or `leanmd`.
std::string sized_pattern_spec(const std::string& job_pattern, int tasks);
/// The task graph of `job_pattern` for `tasks` tasks (sized_pattern_spec, then make_pattern).
TaskGraph job_pattern_graph(const std::string& job_pattern, int tasks);
/// Canonical spelling of a job pattern (`mesh2d` -> `mesh2d:bytes=1024,size=auto,wrap=0`);
/// throws InputError like sized_pattern_spec.
std::string canonical_job_pattern(const std::string& job_pattern);

}  // namespace allocsim::mapping
