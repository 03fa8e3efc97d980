// Fuzz target: `name:key=value,...` specs (issue 16) resolved against every registry, the
// synthetic generator (small job counts only) and the workload transforms applied to a small
// workload. Any input must resolve or raise InputError; generated and transformed jobs must
// stay usable.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/geom/solve.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/workload/transform.hpp"

namespace {

using namespace allocsim;

void check_jobs(const Workload& workload) {
  for (const Job& job : workload.jobs)
    if (!std::isfinite(job.submit) || !std::isfinite(job.runtime) || !std::isfinite(job.estimate) ||
        job.runtime < 0 || job.procs < 1)
      std::abort();
}

template <class Registry>
void resolve(const Registry& registry, const std::string& text) {
  try {
    const std::string canonical = registry.canonical(text);
    // The canonical spelling must resolve to itself.
    if (registry.canonical(canonical) != canonical) std::abort();
  } catch (const InputError&) {
  }
}

/// The synthetic generator, when the spec asks for few enough jobs to stay fast.
void generate(const std::string& text) {
  try {
    const AlgoSpec spec = AlgoSpec::parse(text);
    if (spec.name != "synthetic") return;
    const Params params(synthetic_params(), spec.params, "synthetic");
    if (params.integer("jobs") > 2000) return;
    Rng rng(7);
    check_jobs(generate_synthetic(text, rng));
  } catch (const InputError&) {
  }
}

void transform(const std::string& text) {
  Workload workload;
  for (int i = 0; i < 24; ++i)
    workload.jobs.push_back(Job{i + 1, i * 3.0, 10.0 + i, 20.0 + i, 1 + i % 9, 0, 0, 1});
  Rng rng(11);
  TransformContext context{64, &rng};
  try {
    apply_transform(workload, text, context);
    check_jobs(workload);
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  resolve(allocator_registry(), text);
  resolve(scheduler_registry(), text);
  resolve(transform_registry(), text);
  resolve(runtime_model_registry(), text);
  resolve(ordering_registry(), text);
  resolve(geom::solver_registry(), text);
  generate(text);
  transform(text);
  return 0;
}
