// The `comm_classes` transform; see workload/comm_classes.hpp.
#include "allocsim/workload/comm_classes.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace allocsim {

std::vector<ParamSpec> comm_classes_params() {
  const NumberRule fraction = real_rule(0, 1);
  return {
      {"heavy", ParamKind::real, "0.3", "fraction of heavy communicators", {}, fraction},
      {"heavy_share",
       ParamKind::real,
       "0.6",
       "a heavy job's communication share (flow's comm for it)",
       {},
       fraction},
      {"light_share",
       ParamKind::real,
       "0.1",
       "a light job's communication share (flow's comm for it)",
       {},
       fraction},
      {"by",
       ParamKind::choice,
       "draw",
       "draw: each job heavy with probability `heavy`; size: the round(heavy x n) largest jobs",
       {"draw", "size"}},
      {"pattern",
       ParamKind::choice,
       "alltoall",
       "every job alltoall or stencil (mesh2d:auto); mixed: each draws one, 1/2 each; "
       "by_class: heavy all-to-all, light stencil",
       {"alltoall", "stencil", "mixed", "by_class"}},
  };
}

void apply_comm_classes(Workload& workload, const Params& params, TransformContext& context) {
  const double heavy = params.real("heavy");
  const std::string by = params.text("by");
  const std::string pattern = params.text("pattern");
  std::vector<Job>& jobs = workload.jobs;
  std::vector<char> is_heavy(jobs.size(), 0);
  if (by == "size") {
    std::vector<std::size_t> order(jobs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return jobs[a].procs > jobs[b].procs; });
    const auto count =
        static_cast<std::size_t>(std::llround(heavy * static_cast<double>(jobs.size())));
    for (std::size_t i = 0; i < count && i < order.size(); ++i) is_heavy[order[i]] = 1;
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    Job& job = jobs[i];
    if (by == "draw") is_heavy[i] = context.rng->uniform() < heavy ? 1 : 0;
    job.comm_class = is_heavy[i] ? CommClass::heavy : CommClass::light;
    job.comm_share = params.real(is_heavy[i] ? "heavy_share" : "light_share");
    if (pattern == "alltoall")
      job.comm_pattern = CommPattern::alltoall;
    else if (pattern == "stencil")
      job.comm_pattern = CommPattern::stencil;
    else if (pattern == "mixed")
      job.comm_pattern =
          context.rng->uniform() < 0.5 ? CommPattern::stencil : CommPattern::alltoall;
    else  // by_class
      job.comm_pattern = is_heavy[i] ? CommPattern::alltoall : CommPattern::stencil;
  }
}

}  // namespace allocsim
