#pragma once
// The `comm_classes` workload transform (issue 27, "Jobs slowing each other down"): traces
// carry no communication data, so a seeded transform gives every job a communication class
// (heavy or light), a communication share and a pattern, so that heavy and light communicators
// coexist. Only the `flow` runtime model reads them (a job's share replaces flow's `comm`, its
// pattern the all-to-all); every model writes the class into the job's record (comm_class).
//
// `comm_classes:heavy=0.3,heavy_share=0.6,light_share=0.1,by=draw,pattern=alltoall`:
// - by=draw: each job, in workload order, is heavy with probability `heavy` (one uniform draw
//   u from the transform generator, heavy when u < heavy), light otherwise: the heavy count is
//   Binomial(n, heavy).
// - by=size: the round(heavy x n) jobs of most processors are heavy (ties: the earlier job in
//   workload order first), the rest light: exactly that fraction, and the large jobs are the
//   heavy communicators.
// - heavy jobs get comm_share = heavy_share, light ones light_share.
// - pattern: alltoall or stencil for every job; mixed: each job draws one more uniform, stencil
//   when < 0.5; by_class: heavy jobs all-to-all, light ones stencil.
// Draws come from the run's transform generator (seeded by the workload seed), so every
// allocator of a replicate sees the same classes. Preserves every other field of every job
// (times, sizes, order, count).
#include "allocsim/util/spec.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

/// The transform's parameters (its registry row in transform.cpp).
std::vector<ParamSpec> comm_classes_params();
/// Applies `comm_classes` (see the file comment).
void apply_comm_classes(Workload& workload, const Params& params, TransformContext& context);

}  // namespace allocsim
