// The `slurm` scheduler's speed against EASY on SDSC-BLUE (232,562 jobs, mesh:36x32, flat
// allocator; needs $ALLOCSIM_TRACE_DIR, skipped without it), in one run. Target (issue 28):
// slurm <= 3 x EASY. Parsing is excluded (the trace is read once). Cases:
//   easy; slurm (priority/basic, sched/backfill defaults: bf_interval=30, time limits
//   enforced); slurm.multifactor (age, size and fair-share weights, usage decayed, priorities
//   recomputed every PriorityCalcPeriod=5 minutes); slurm.multifactor.calc0 (recomputed at
//   every pass: the slow end of the model).
// Prints each case's median CPU time and its ratio to EASY's.
// Run: build/bench/bench_slurm --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/heap.hpp"

using namespace allocsim;

namespace {

const std::vector<std::pair<std::string, std::string>> kCases{
    {"easy", "easy"},
    {"slurm", "slurm"},
    {"slurm.multifactor",
     "slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,PriorityWeightJobSize=1000,"
     "PriorityWeightFairshare=10000"},
    {"slurm.multifactor.calc0",
     "slurm:PriorityType=priority/multifactor,PriorityWeightAge=1000,PriorityWeightJobSize=1000,"
     "PriorityWeightFairshare=10000,PriorityCalcPeriod=0"},
};

std::string trace_dir() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

RunConfig blue_config(const std::string& sched) {
  RunConfig config;
  config.machine = "mesh:36x32";
  config.trace = "SDSC-BLUE-2000-4.2-cln";
  config.alloc = "flat";
  config.sched = sched;
  return config;
}

void Schedule(benchmark::State& state, const std::string& sched) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  static const Workload base = load_workload(blue_config("easy"), trace_dir());
  const RunConfig config = blue_config(sched);
  double jobs = 0, wait = 0;
  for (auto _ : state) {
    const RunResult result = simulate(config, base);
    jobs = result.summary.jobs;
    wait = result.summary.mean_wait;
  }
  state.counters["jobs"] = jobs;
  state.counters["mean_wait"] = wait;
  state.SetLabel(config.trace + " " + config.machine + " " + sched);
}

/// Prints each case's median CPU time and its ratio to EASY's.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name = run.run_name.function_name.substr(std::string("Slurm/").size());
      if (run.run_type == Run::RT_Iteration && run.iterations > 0)
        timings_[name].push_back(run.GetAdjustedCPUTime());
      else if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
        medians_[name] = run.GetAdjustedCPUTime();
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const auto median = [&](const std::string& name) {
      if (const auto found = medians_.find(name); found != medians_.end()) return found->second;
      std::vector<double> v = timings_[name];
      std::sort(v.begin(), v.end());
      return v.empty() ? 0.0 : v[v.size() / 2];
    };
    const double easy = median("easy");
    if (!(easy > 0)) return;
    std::printf("\nmedian CPU time (ms) and ratio to EASY on SDSC-BLUE, mesh:36x32, flat:\n");
    for (const auto& [name, spec] : kCases)
      if (const double t = median(name); t > 0)
        std::printf("  %-24s %10.1f  %5.2f x\n", name.c_str(), t, t / easy);
  }

 private:
  std::map<std::string, std::vector<double>> timings_;
  std::map<std::string, double> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory_for_reuse();
  for (const auto& [name, spec] : kCases)
    benchmark::RegisterBenchmark(("Slurm/" + name).c_str(),
                                 [spec = spec](benchmark::State& s) { Schedule(s, spec); })
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
