// MC1x1 and MC (box-count shell scan, geom/mc.cpp) against machine size: EASY on synthetic
// jobs of 1-64 processors at offered load 0.8, as in the scale issue's table.
// First prints a table of CPU µs per job against the machine size N (median of 5 runs each)
// with the exponent e of a least-squares fit µs/job ∝ N^e, then runs the Google benchmarks.
// Run: build/bench/bench_mc --benchmark_repetitions=5 --benchmark_report_aggregates_only
//      (--table=0 skips the table, --table=only skips the benchmarks).
// The same runs from the command line (e.g. against an older build):
//   allocsim run --machine torus:16x16x16 --sched easy --alloc mc1x1
//     --trace 'synthetic:jobs=2000,arrival=exp:20,runtime=exp:300,size=uniform:1,64'
//     --transform target_load:load=0.8
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/heap.hpp"
#include "bench_main.hpp"

using namespace allocsim;

namespace {

struct Machine {
  const char* spec;
  int nodes;
  int jobs;  ///< fewer on big machines: those runs stay short (and the machine nearly empty)
};

const Machine kMachines[] = {
    {"mesh:16x16", 256, 2000},       {"mesh:32x32", 1024, 2000},     {"mesh:64x64", 4096, 2000},
    {"torus:16x16x16", 4096, 2000},  {"torus:24x24x24", 13824, 600}, {"torus:32x32x32", 32768, 300},
    {"torus:48x48x48", 110592, 200},
};

const char* const kAllocators[] = {"mc1x1", "mc1x1:ties=sum", "mc1x1:centers=all", "mc"};

RunConfig synthetic_config(const Machine& machine, const std::string& alloc) {
  RunConfig config;
  config.machine = machine.spec;
  config.trace = "synthetic:jobs=" + std::to_string(machine.jobs) +
                 ",arrival=exp:20,runtime=exp:300,size=uniform:1,64";
  config.transforms = {"target_load:load=0.8"};
  config.sched = "easy";
  config.alloc = alloc;
  return config;
}

/// Whole synthetic run (generation outside the timing): arguments select the machine and the
/// allocator (kMachines, kAllocators). Counter us_per_job: wall µs per job.
void Mc1x1SyntheticEasy(benchmark::State& state) {
  const Machine& machine = kMachines[state.range(0)];
  const RunConfig config = synthetic_config(machine, kAllocators[state.range(1)]);
  const Workload base = load_workload(config, "");
  state.SetLabel(config.machine + " " + config.alloc);
  double jobs = 0;
  for (auto _ : state) jobs = simulate(config, base).summary.jobs;
  state.counters["us_per_job"] = benchmark::Counter(
      jobs * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(Mc1x1SyntheticEasy)
    ->ArgsProduct({{2, 3, 6}, {0}})
    ->ArgsProduct({{2, 3}, {1, 2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

double cpu_seconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

/// The table of µs/job against N for mc1x1 and the fitted exponent.
void print_scaling_table() {
  std::printf(
      "mc1x1, EASY, synthetic jobs of 1-64 processors, load 0.8: CPU us/job, median of 5\n");
  std::printf("%-16s %8s %6s %10s\n", "machine", "N", "jobs", "us/job");
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int count = 0;
  for (const Machine& machine : kMachines) {
    const RunConfig config = synthetic_config(machine, "mc1x1");
    const Workload base = load_workload(config, "");
    std::vector<double> per_job;
    for (int run = 0; run < 5; ++run) {
      const double start = cpu_seconds();
      const double jobs = simulate(config, base).summary.jobs;
      per_job.push_back((cpu_seconds() - start) * 1e6 / jobs);
    }
    std::sort(per_job.begin(), per_job.end());
    const double median = per_job[2];
    std::printf("%-16s %8d %6d %10.1f\n", machine.spec, machine.nodes, machine.jobs, median);
    std::fflush(stdout);
    const double x = std::log(machine.nodes), y = std::log(median);
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++count;
  }
  const double exponent = (count * sxy - sx * sy) / (count * sxx - sx * sx);
  std::printf("fitted exponent (us/job ~ N^e): e = %.2f\n\n", exponent);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::string table = "1";
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--table=", 8) == 0) {
      table = argv[i] + 8;
      continue;
    }
    rest.push_back(argv[i]);
  }
  keep_freed_memory_for_reuse();  // as the allocsim binary does, also for the table
  if (table != "0") print_scaling_table();
  if (table == "only") return 0;
  int rest_count = static_cast<int>(rest.size());
  return allocsim::bench::run_benchmarks(rest_count, rest.data());
}
