// Scheduler speed on whole traces (needs $ALLOCSIM_TRACE_DIR; skipped without it). Parsing is
// excluded (the trace is read once); each case runs EASY and conservative backfilling on the
// same workload so their ratio is measured in one run:
// - SDSC-BLUE (232,562 jobs) on mesh:36x32, flat allocator (target: conservative <= 2x EASY);
// - the same with arrival_scale:factor=0.8 (target: conservative <= 3x EASY);
// - CEA-Curie (312,807 jobs) on mesh:288x324 (target: conservative <= 3x EASY);
// - Mao et al.'s longest-queue case: SDSC-SP2 on torus:2x2x2x4x4x8, subtorus NEP, sizes x8
//   rounded to powers of two, runtimes x2 (EASY only; target: well under a minute).
// Run: build/bench/bench_sched --benchmark_repetitions=5 --benchmark_report_aggregates_only
//      (--benchmark_filter=Sched/0 for one case)
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "allocsim/sim/simulation.hpp"
#include "bench_main.hpp"

using namespace allocsim;

namespace {

std::string trace_dir() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

RunConfig case_config(std::int64_t which) {
  RunConfig config;
  config.alloc = "flat";
  switch (which) {
    case 0:
      config.machine = "mesh:36x32";
      config.trace = "SDSC-BLUE-2000-4.2-cln";
      break;
    case 1:
      config.machine = "mesh:36x32";
      config.trace = "SDSC-BLUE-2000-4.2-cln";
      config.transforms = {"arrival_scale:factor=0.8"};
      break;
    case 2:
      config.machine = "mesh:288x324";
      config.trace = "CEA-Curie-2011-2.1-cln";
      break;
    default:
      config.machine = "torus:2x2x2x4x4x8";
      config.trace = "SDSC-SP2-1998-4.2-cln";
      config.alloc = "subtorus:scheme=nep";
      config.transforms = {"size_scale:factor=8", "size_round:to=pow2", "runtime_scale:factor=2.0"};
      break;
  }
  return config;
}

/// Arguments: case (see above) and scheduler (0 = easy, 1 = conservative).
void Sched(benchmark::State& state) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  RunConfig config = case_config(state.range(0));
  config.sched = state.range(1) == 0 ? "easy" : "conservative";
  const Workload base = load_workload(config, trace_dir());
  std::string label = config.trace + " " + config.machine + " " + config.alloc;
  for (const auto& transform : config.transforms) label += " " + transform;
  state.SetLabel(label + " " + config.sched);
  double jobs = 0;
  for (auto _ : state) jobs = simulate(config, base).summary.jobs;
  state.counters["jobs"] = jobs;
}

}  // namespace

BENCHMARK(Sched)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Args({3, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
int main(int argc, char** argv) {
  return allocsim::bench::run_benchmarks(argc, argv);
}
