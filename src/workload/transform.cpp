// Workload transforms: one row per transform in an explicit table.
#include "allocsim/workload/transform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/comm_classes.hpp"
#include "trace_variants.hpp"

namespace allocsim {

namespace {

double first_submit(const Workload& workload) {
  return workload.jobs.empty() ? 0 : workload.jobs.front().submit;
}

/// Scales every submit time's distance from the first submit by `factor`.
void scale_arrivals(Workload& workload, double factor) {
  const double origin = first_submit(workload);
  for (Job& job : workload.jobs) job.submit = origin + (job.submit - origin) * factor;
}

void restore_order(Workload& workload) {
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(),
                   [](const Job& a, const Job& b) { return a.submit < b.submit; });
}

ParamSpec real_param(const char* key, const char* default_value, const char* help,
                     NumberRule range) {
  return {key, ParamKind::real, default_value, help, {}, range};
}
ParamSpec int_param(const char* key, const char* default_value, const char* help, double min,
                    double max) {
  return {key, ParamKind::integer, default_value, help, {}, integer_rule(min, max)};
}

/// Largest job count of truncate.
constexpr double kMaxCount = 1e15;

/// Largest scale factor of runtime_scale, arrival_scale and size_scale.
constexpr double kMaxFactor = 1e6;

/// Processor count after scaling or rounding, capped at kMaxProcs (such a job is larger than
/// any machine and is dropped and counted later, not wrapped around).
int capped_procs(double procs) {
  return procs >= kMaxProcs ? static_cast<int>(kMaxProcs) : std::max(1, static_cast<int>(procs));
}

std::vector<RegistryEntry<TransformFn>> transform_entries() {
  return {
      {"runtime_scale",
       "multiply runtimes and estimates by factor (the Cplant study's work multiple)",
       {real_param("factor", "1", "work multiple", positive_rule(kMaxFactor))},
       [](Workload& w, const Params& p, TransformContext&) {
         const double factor = p.real("factor");
         for (Job& job : w.jobs) {
           job.runtime *= factor;
           job.estimate *= factor;
         }
       }},
      {"estimate",
       "set every estimate to factor x runtime, replacing the trace's requested times (1: the "
       "exact execution times a simulator of Mao et al. knows)",
       {real_param("factor", "1", "estimate multiple of the runtime", positive_rule(kMaxFactor))},
       [](Workload& w, const Params& p, TransformContext&) {
         for (Job& job : w.jobs) job.estimate = p.real("factor") * job.runtime;
       }},
      {"arrival_scale",
       "multiply inter-arrival times by factor (< 1 raises the load)",
       {real_param("factor", "1", "inter-arrival multiple", positive_rule(kMaxFactor))},
       [](Workload& w, const Params& p, TransformContext&) {
         scale_arrivals(w, p.real("factor"));
       }},
      {"target_load",
       "rescale inter-arrival times so the offered load sum(s*t)/(N*span of submits) is load",
       {real_param("load", "0.7", "offered load to reach", positive_rule(1e3))},
       [](Workload& w, const Params& p, TransformContext& context) {
         const double current = offered_load(w.jobs, context.machine_nodes);
         if (current <= 0) throw InputError("target_load: workload has no submit-time span");
         const double factor = current / p.real("load");
         if (!std::isfinite(factor))
           throw InputError(
               "target_load: the workload's submit-time span is too short to reach "
               "load " +
               p.text("load"));
         scale_arrivals(w, factor);
       }},
      {"replicate",
       "n copies of every job; copies after the first arrive uniformly later in [0, jitter]",
       {int_param("copies", "1", "total copies per job", 1, 1000),
        real_param("jitter", "0", "maximum arrival delay of a copy", real_rule(0, kMaxTime)),
        allow_large_param()},
       [](Workload& w, const Params& p, TransformContext& context) {
         const auto copies = p.integer("copies");
         check_job_count(w.jobs.size() * static_cast<std::uint64_t>(copies),
                         p.integer("allow_large") != 0, "replicate");
         std::int64_t max_id = 0;
         for (const Job& job : w.jobs) max_id = std::max(max_id, job.id);
         std::vector<Job> result;
         result.reserve(w.jobs.size() * copies);
         for (const Job& job : w.jobs)
           for (std::int64_t copy = 0; copy < copies; ++copy) {
             Job duplicate = job;
             if (copy > 0) {
               duplicate.id = job.id + copy * (max_id + 1);
               duplicate.submit += context.rng->uniform() * p.real("jitter");
             }
             result.push_back(duplicate);
           }
         w.jobs = std::move(result);
         restore_order(w);
       }},
      {"size_scale",
       "multiply processor counts by factor (rounded up)",
       {real_param("factor", "1", "size multiple", positive_rule(kMaxFactor))},
       [](Workload& w, const Params& p, TransformContext&) {
         for (Job& job : w.jobs)
           job.procs = capped_procs(std::ceil(job.procs * p.real("factor") - 1e-9));
       }},
      {"size_round",
       "round processor counts up to a power of two",
       {{"to", ParamKind::choice, "pow2", "rounding rule", {"pow2"}}},
       [](Workload& w, const Params&, TransformContext&) {
         for (Job& job : w.jobs) {
           std::int64_t rounded = 1;
           while (rounded < job.procs) rounded *= 2;
           job.procs = capped_procs(static_cast<double>(rounded));
         }
       }},
      {"truncate",
       "skip the first `skip` jobs, then keep at most max_jobs",
       {int_param("max_jobs", "1000", "jobs kept", 0, kMaxCount),
        int_param("skip", "0", "jobs skipped first", 0, kMaxCount)},
       [](Workload& w, const Params& p, TransformContext&) {
         const auto skip = std::min<std::size_t>(p.integer("skip"), w.jobs.size());
         const auto keep = std::min<std::size_t>(p.integer("max_jobs"), w.jobs.size() - skip);
         w.jobs.erase(w.jobs.begin(), w.jobs.begin() + static_cast<std::ptrdiff_t>(skip));
         w.jobs.resize(keep);
       }},
      // Variance from a real trace (issue 29: "a transform that takes a different window of the
      // trace per replicate ... and seeded perturbations (arrival jitter, runtime noise) -- each
      // documented with what it preserves"). A window keeps the trace's own jobs, their order,
      // inter-arrival times, sizes, runtimes and estimates, and the job ids; it loses the queue
      // and the running jobs at the window's start: the simulated machine starts empty.
      {"window",
       "the index-th window of `jobs` consecutive jobs (jobs skip+index*jobs on, in submit "
       "order), submit times shifted to start at 0; index={replicate} in an experiment gives "
       "each replicate a disjoint window. Keeps order, inter-arrival times, sizes, runtimes, "
       "ids; the machine starts empty (no queue carried in)",
       {int_param("jobs", "1000", "jobs in the window", 1, 1e9),
        int_param("index", "0", "window number: the window starts at job skip + index*jobs", 0,
                  1e6),
        int_param("skip", "0", "jobs skipped before the first window", 0, kMaxCount)},
       [](Workload& w, const Params& p, TransformContext&) {
         const std::int64_t jobs = p.integer("jobs");
         trace_variants::keep_window(w, p.integer("skip") + p.integer("index") * jobs, jobs,
                                     "window");
       }},
      {"random_window",
       "a window of `jobs` consecutive jobs at a seeded uniform start (the workload seed: one "
       "window per replicate, the same for every config of a replicate; windows may overlap), "
       "submit times shifted to start at 0; keeps what `window` keeps",
       {int_param("jobs", "1000", "jobs in the window", 1, 1e9)},
       [](Workload& w, const Params& p, TransformContext& context) {
         const std::int64_t jobs = p.integer("jobs");
         const auto available = static_cast<std::int64_t>(w.jobs.size());
         const std::int64_t first =
             available >= jobs ? context.rng->uniform_int(0, available - jobs) : 0;
         trace_variants::keep_window(w, first, jobs, "random_window");
       }},
      {"jitter",
       "add a seeded normal delay of standard deviation sd seconds to every submit time "
       "(clamped at 0), then re-sort by submit; keeps the jobs, sizes, runtimes, estimates and "
       "ids, and the mean arrival rate (up to the clamp)",
       {real_param("sd", "60", "standard deviation of the arrival shift (s)",
                   real_rule(0, kMaxTime))},
       [](Workload& w, const Params& p, TransformContext& context) {
         trace_variants::jitter_arrivals(w, p.real("sd"), *context.rng);
       }},
      {"runtime_noise",
       "multiply every runtime by a seeded lognormal factor of mean 1 and coefficient of "
       "variation cv; cap=estimate keeps a job that ran within its requested time within it "
       "(the trace's estimate stays an upper bound, so the mean factor is slightly below 1); "
       "keeps arrivals, sizes, estimates, ids and the job order",
       {real_param("cv", "0.1", "coefficient of variation of the runtime factor",
                   real_rule(0, 100)),
        {"cap",
         ParamKind::choice,
         "estimate",
         "estimate: runtime <= requested time; none",
         {"estimate", "none"}}},
       [](Workload& w, const Params& p, TransformContext& context) {
         trace_variants::noisy_runtimes(w, p.real("cv"), p.text("cap") == "estimate", *context.rng);
       }},
      {"comm_classes",
       "seeded communication classes: heavy and light communicators, their comm shares and "
       "patterns, read by the flow model (workload/comm_classes.hpp)",
       comm_classes_params(), apply_comm_classes},
  };
}

}  // namespace

const TransformRegistry& transform_registry() {
  static const TransformRegistry registry("transform", transform_entries());
  return registry;
}

void apply_transform(Workload& workload, const std::string& spec, TransformContext& context) {
  auto [entry, params] = transform_registry().resolve(spec);
  entry->factory(workload, params, context);
  const std::string rest = params.canonical();
  workload.transforms.push_back(rest.empty() ? entry->name : entry->name + ":" + rest);
}

void check_job_count(std::uint64_t jobs, bool allow_large, const std::string& what) {
  if (allow_large || jobs <= kMaxJobsWithoutOverride) return;
  const double gigabytes = static_cast<double>(jobs) * kBytesPerJob / 1e9;
  char estimate[64];
  if (gigabytes < 1000)
    std::snprintf(estimate, sizeof estimate, "%.1f GB", gigabytes);
  else
    std::snprintf(estimate, sizeof estimate, "%.1f TB", gigabytes / 1000);
  throw InputError(what + ": " + std::to_string(jobs) + " jobs is more than the limit of " +
                   std::to_string(kMaxJobsWithoutOverride) + " (a run needs about " + estimate +
                   " at ~" + std::to_string(kBytesPerJob) +
                   " bytes per job); add allow_large=1 to go ahead");
}

ParamSpec allow_large_param() {
  return {"allow_large",
          ParamKind::integer,
          "0",
          "1 = allow more than 10^7 jobs (about 320 bytes each); not part of the config id",
          {},
          integer_rule(0, 1),
          false};
}

std::string machine_size_warning(const Workload& workload, int machine_nodes,
                                 const std::string& machine) {
  const int header = std::max(workload.header_max_procs, workload.header_max_nodes);
  if (machine_nodes <= 0 || header <= machine_nodes) return "";
  const auto oversized = std::count_if(workload.jobs.begin(), workload.jobs.end(),
                                       [&](const Job& job) { return job.procs > machine_nodes; });
  if (oversized == 0) return "";  // e.g. already scaled or truncated to small jobs
  // Four significant digits, rounded down: size_scale rounds sizes up, so the trace's largest
  // job (header processors) scaled by this factor still fits the machine.
  const double exact = static_cast<double>(machine_nodes) / header;
  const double unit = std::pow(10.0, std::floor(std::log10(exact)) - 3);
  const double factor = std::floor(exact / unit + 1e-9) * unit;
  std::ostringstream text;
  text << "warning: machine " << machine << " has " << machine_nodes
       << " nodes, fewer than the trace header's";
  if (workload.header_max_procs > 0) text << " MaxProcs " << workload.header_max_procs;
  if (workload.header_max_procs > 0 && workload.header_max_nodes > 0) text << ',';
  if (workload.header_max_nodes > 0) text << " MaxNodes " << workload.header_max_nodes;
  text << ": " << oversized << " jobs larger than " << machine_nodes
       << " processors are dropped; to fit the trace to the machine, scale sizes with"
          " --transform size_scale:factor="
       << factor << " (or choose a machine of at least " << header << " nodes)";
  return text.str();
}

void drop_oversized(Workload& workload, int machine_nodes) {
  const std::string reason =
      "processors > machine size " + std::to_string(machine_nodes) + " (dropped)";
  std::erase_if(workload.jobs, [&](const Job& job) {
    if (job.procs <= machine_nodes) return false;
    workload.diagnostics.count(reason, job.line);
    return true;
  });
}

double offered_load(const std::vector<Job>& jobs, int machine_nodes) {
  if (jobs.size() < 2 || machine_nodes <= 0) return 0;
  double work = 0, first = jobs.front().submit, last = jobs.front().submit;
  for (const Job& job : jobs) {
    work += static_cast<double>(job.procs) * job.runtime;
    first = std::min(first, job.submit);
    last = std::max(last, job.submit);
  }
  return last > first ? work / (machine_nodes * (last - first)) : 0;
}

}  // namespace allocsim
