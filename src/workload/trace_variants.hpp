#pragma once
// Internal to the workload module: transforms that make replicates of one real trace differ
// (issue 29, item 1): windows of the trace, arrival jitter and runtime noise. Their rows are
// in the transform table (transform.cpp); what each preserves is written beside it.
#include <cstdint>

#include "allocsim/util/rng.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim::trace_variants {

/// Keeps jobs [first, first + jobs) of the submit-ordered stream and shifts submit times so the
/// first kept job arrives at 0. Throws InputError when the stream has fewer than first + jobs
/// jobs (`what` names the transform in the message).
void keep_window(Workload& workload, std::int64_t first, std::int64_t jobs, const char* what);

/// Adds a normal draw of standard deviation `sd` seconds to every submit time, clamps to
/// [0, kMaxTime] and restores stable submit order.
void jitter_arrivals(Workload& workload, double sd, Rng& rng);

/// Multiplies every runtime by a lognormal factor of mean 1 and coefficient of variation `cv`;
/// with `cap_at_estimate`, a job that ran within its estimate still does (capped at it); never
/// above kMaxTime.
void noisy_runtimes(Workload& workload, double cv, bool cap_at_estimate, Rng& rng);

}  // namespace allocsim::trace_variants
