// Simulated jobs per second for the NASA iPSC/860 trace with EASY + sorted free list (snake) on
// mesh:16x8, parsing included and excluded (issue target: whole trace, parsing included,
// < 0.09 s; the SST scheduler simulator needs 9.2 s for the same run on this machine).
// Needs $ALLOCSIM_TRACE_DIR. Run: build/bench/bench_core --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/workload/reader.hpp"

using namespace allocsim;

namespace {

RunConfig nasa_config() {
  RunConfig config;
  config.machine = "mesh:16x8";
  config.trace = "NASA-iPSC-1993-3.1-cln";
  config.sched = "easy";
  config.alloc = "sortedfreelist:order=snake";
  return config;
}

std::string trace_dir() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

void NasaEasySnakeWithParsing(benchmark::State& state) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  double jobs = 0;
  for (auto _ : state) jobs = simulate(nasa_config(), trace_dir()).summary.jobs;
  state.counters["jobs"] = jobs;
  state.counters["jobs_per_s"] = benchmark::Counter(jobs, benchmark::Counter::kIsIterationInvariantRate);
}

void NasaEasySnakeWithoutParsing(benchmark::State& state) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  const Workload base = load_workload(nasa_config(), trace_dir());
  double jobs = 0;
  for (auto _ : state) jobs = simulate(nasa_config(), base).summary.jobs;
  state.counters["jobs"] = jobs;
  state.counters["jobs_per_s"] = benchmark::Counter(jobs, benchmark::Counter::kIsIterationInvariantRate);
}

void NasaParseOnly(benchmark::State& state) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  for (auto _ : state) benchmark::DoNotOptimize(load_workload(nasa_config(), trace_dir()));
}

}  // namespace

BENCHMARK(NasaEasySnakeWithParsing)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NasaEasySnakeWithoutParsing)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NasaParseOnly)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();
