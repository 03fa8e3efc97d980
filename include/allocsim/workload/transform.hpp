#pragma once
// Workload transforms (`runtime_scale:factor=2`, `target_load:load=0.7`, ...) and the synthetic
// generator, each an entry of an explicit registry table.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "allocsim/util/registry.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/workload/job.hpp"

namespace allocsim {

/// Context a transform may need: machine size (for load targeting and dropping oversized jobs).
struct TransformContext {
  int machine_nodes = 0;
  Rng* rng = nullptr;
};

using TransformFn = std::function<void(Workload&, const Params&, TransformContext&)>;
using TransformRegistry = Registry<TransformFn>;

/// The table of transforms.
const TransformRegistry& transform_registry();

/// Applies one transform spec (validated against the table) and records it in the workload.
void apply_transform(Workload& workload, const std::string& spec, TransformContext& context);

/// Empty, or a warning (text starting "warning: ") when `machine` (of `machine_nodes` nodes)
/// is smaller than the trace's header MaxProcs / MaxNodes and some job is larger than the
/// machine: the numbers, and the size_scale transform that fits the trace's largest job.
std::string machine_size_warning(const Workload& workload, int machine_nodes,
                                 const std::string& machine);

/// Drops jobs larger than the machine (counted) and restores stable submit order.
void drop_oversized(Workload& workload, int machine_nodes);

/// Offered load Σ s_j t_j / (N · span of submit times); 0 when the span is zero.
double offered_load(const std::vector<Job>& jobs, int machine_nodes);

/// Largest workload the synthetic generator and `replicate` build without `allow_large=1`: at
/// about kBytesPerJob bytes per job over a whole run (the job, its transformed copy, its record
/// and queue entries) this keeps one simulation near 3 GB.
inline constexpr std::uint64_t kMaxJobsWithoutOverride = 10'000'000;
inline constexpr std::uint64_t kBytesPerJob = 320;
/// Throws InputError naming `what`, the limit and the memory estimate when `jobs` exceeds
/// kMaxJobsWithoutOverride and `allow_large` is false.
void check_job_count(std::uint64_t jobs, bool allow_large, const std::string& what);
/// The `allow_large=0|1` parameter (a permission: not part of canonical specs).
ParamSpec allow_large_param();

/// True when `trace` names a synthetic workload (`synthetic` or `synthetic:...`), not a file.
bool is_synthetic_trace(const std::string& trace);
/// Synthetic workloads: `synthetic:jobs=1000,arrival=exp:10,runtime=exp:100,size=uniform:1,64`
/// (size: `uniform:min,max`, `pow2:min,max`, `const:P`, `sides:L` for an a x b request). Seeded
/// by `rng`. Times are finite in [0, kMaxTime]; sizes integers in [1, 2^31-1] (pow2 up to 2^30,
/// sides up to 46340); more than kMaxJobsWithoutOverride jobs need `allow_large=1`. Throws
/// InputError naming the parameter and its valid range.
Workload generate_synthetic(const std::string& spec, Rng& rng);
/// A synthetic spec parsed and checked once, then generated for any number of seeds: what
/// generate_synthetic(spec, rng) returns, without parsing the spec at every call (a sweep
/// worker generates one workload per replicate from the same spec).
class SyntheticSpec {
 public:
  /// Throws InputError as generate_synthetic does.
  explicit SyntheticSpec(const std::string& spec);
  ~SyntheticSpec();
  SyntheticSpec(SyntheticSpec&&) noexcept;
  SyntheticSpec& operator=(SyntheticSpec&&) noexcept;
  Workload generate(Rng& rng) const;

 private:
  struct Plan;
  std::unique_ptr<const Plan> plan_;
};
/// Checks a synthetic spec in full (parameters, distributions, size guard) without generating
/// it: what generate_synthetic would throw, cheaply, e.g. when an experiment is validated.
void validate_synthetic_spec(const std::string& spec);
/// The parameter table of the synthetic generator (for `allocsim list`).
const std::vector<ParamSpec>& synthetic_params();

}  // namespace allocsim
