// Windows of a trace, arrival jitter and runtime noise: the ways to make replicates of one real
// trace differ (issue 29, item 1).
#include "trace_variants.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim::trace_variants {

void keep_window(Workload& workload, std::int64_t first, std::int64_t jobs, const char* what) {
  const auto available = static_cast<std::int64_t>(workload.jobs.size());
  if (first < 0 || jobs < 1 || first > available - jobs)
    throw InputError(std::string(what) + ": a window of " + std::to_string(jobs) +
                     " jobs starting at job " + std::to_string(first) + " needs " +
                     std::to_string(first + jobs) + " jobs, but the workload has " +
                     std::to_string(available) + " (at most " +
                     std::to_string(jobs > 0 ? available / jobs : 0) +
                     " disjoint windows of this size: fewer replicates or a smaller jobs=)");
  workload.jobs.erase(workload.jobs.begin() + static_cast<std::ptrdiff_t>(first + jobs),
                      workload.jobs.end());
  workload.jobs.erase(workload.jobs.begin(),
                      workload.jobs.begin() + static_cast<std::ptrdiff_t>(first));
  // The jobs are in submit order (readers and transforms keep it), so the first is the earliest.
  const double origin = workload.jobs.front().submit;
  for (Job& job : workload.jobs) job.submit -= origin;
}

namespace {

/// A standard normal draw (Box-Muller, first value only: one draw of two uniforms per call keeps
/// the stream of draws simple to reason about, at no cost that matters here).
double standard_normal(Rng& rng) {
  const double u1 = 1.0 - rng.uniform();  // (0, 1]: log stays finite
  const double u2 = rng.uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

}  // namespace

void jitter_arrivals(Workload& workload, double sd, Rng& rng) {
  for (Job& job : workload.jobs)
    job.submit = std::clamp(job.submit + sd * standard_normal(rng), 0.0, kMaxTime);
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(),
                   [](const Job& a, const Job& b) { return a.submit < b.submit; });
}

void noisy_runtimes(Workload& workload, double cv, bool cap_at_estimate, Rng& rng) {
  // Lognormal exp(mu + sigma Z) with mean 1 and variance cv^2: sigma^2 = ln(1 + cv^2),
  // mu = -sigma^2 / 2.
  const double sigma2 = std::log1p(cv * cv);
  const double sigma = std::sqrt(sigma2), mu = -sigma2 / 2;
  for (Job& job : workload.jobs) {
    const double noisy =
        std::min(job.runtime * std::exp(mu + sigma * standard_normal(rng)), kMaxTime);
    const bool within = job.estimate > 0 && job.runtime <= job.estimate;
    job.runtime = cap_at_estimate && within ? std::min(noisy, job.estimate) : noisy;
  }
}

}  // namespace allocsim::trace_variants
