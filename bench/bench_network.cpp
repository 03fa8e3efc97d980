// Cost of the network runtime models (issue "flow and wormhole network models", speed targets):
// - NASA iPSC/860 on mesh:16x8 with EASY and the sorted free list (snake), all-to-all traffic:
//   `fixed` against `flow:comm=0.5` (target: flow ≤ 10 × fixed; needs $ALLOCSIM_TRACE_DIR);
// - one `wormhole` GABL config: 16x16 mesh, FCFS, GABL, 1,000 jobs, sides uniform on [1, 16],
//   execution times Exp(1), mean inter-arrival 333 time units (load 0.003, beyond saturation),
//   plen 8, ts 3, num_mes 5 (target: ≤ 30 s).
// Run: build/bench/bench_network --benchmark_repetitions=5 --benchmark_report_aggregates_only
// Measured on a shared 2-core machine under load (CPU-time medians of 5, three rounds
// alternating with the previous build): fixed 15.0-15.2 ms, flow 135-140 ms (8.9-9.2 ×;
// previous build 159-167 ms, 10.1-10.8 ×, and 363 ms before flow re-solved only the jobs
// connected to a change), wormhole 1.5 s.
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "allocsim/sim/simulation.hpp"

using namespace allocsim;

namespace {

std::string trace_dir() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

/// Argument: 0 = fixed, 1 = flow:comm=0.5. Parsing excluded.
void NasaEasySnakeRuntimeModel(benchmark::State& state) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  RunConfig config;
  config.machine = "mesh:16x8";
  config.trace = "NASA-iPSC-1993-3.1-cln";
  config.sched = "easy";
  config.alloc = "sortedfreelist:order=snake";
  config.runtime_model = state.range(0) == 0 ? "fixed" : "flow:comm=0.5";
  const Workload base = load_workload(config, trace_dir());
  double jobs = 0;
  for (auto _ : state) jobs = simulate(config, base).summary.jobs;
  state.SetLabel(config.runtime_model);
  state.counters["jobs"] = jobs;
}

void GablWormholeHighLoad(benchmark::State& state) {
  RunConfig config;
  config.machine = "mesh:16x16";
  config.trace = "synthetic:jobs=1000,arrival=exp:333.33333,runtime=exp:1,size=sides:16";
  config.sched = "fcfs";
  config.alloc = "gabl";
  config.runtime_model = "wormhole";
  const Workload base = load_workload(config, "");
  double latency = 0;
  for (auto _ : state) latency = simulate(config, base).summary.mean_message_latency;
  state.counters["mean_message_latency"] = latency;
}

}  // namespace

BENCHMARK(NasaEasySnakeRuntimeModel)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(GablWormholeHighLoad)->Unit(benchmark::kSecond)->Iterations(1);

BENCHMARK_MAIN();
