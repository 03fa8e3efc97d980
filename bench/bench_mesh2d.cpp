// Performance of the 2D mesh allocators: free-submesh search over the busy list (Right-of-Busy-
// Submeshes) against the bitmap scan, and one allocate() per allocator on a half-busy 16x16
// mesh. After the benchmarks, a small preview of the GABL study (Bani-Mohammad et al. 2007 §4:
// 16x16 mesh, FCFS, exponential inter-arrival and running times with mean 1, sides uniform in
// [1, 16]) prints utilization, mean turnaround and pieces per job for each allocator.
// Run: build-*/bench/bench_mesh2d [--benchmark_filter=...] [--study-replicas=N]
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/alloc/mesh2d.hpp"
#include "allocsim/alloc/submesh.hpp"
#include "allocsim/sim/simulation.hpp"

namespace allocsim {
namespace {

/// A 16x16 busy list with `count` random busy rectangles (sides 1..4), and its bitmap.
struct RandomMap {
  BusyList list{Mesh2D{16, 16}};
  BusyGrid grid{Mesh2D{16, 16}};
};

RandomMap random_map(std::uint64_t seed, int count) {
  Rng rng(seed);
  RandomMap map;
  for (int placed = 0, tries = 0; placed < count && tries < 10000; ++tries) {
    const int w = static_cast<int>(rng.uniform_int(1, 4)),
              h = static_cast<int>(rng.uniform_int(1, 4));
    const Rect r{static_cast<int>(rng.uniform_int(0, 16 - w)),
                 static_cast<int>(rng.uniform_int(0, 16 - h)), w, h};
    if (!map.list.is_free(r)) continue;
    map.list.add(r);
    map.grid.mark(r, true);
    ++placed;
  }
  return map;
}

void BM_FindBusyList(benchmark::State& state) {
  const RandomMap map = random_map(7, static_cast<int>(state.range(0)));
  const Fit fit = state.range(1) == 0 ? Fit::first : Fit::best;
  int w = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(map.list.find(w, 5 - w % 4, fit));
    w = w % 6 + 1;
  }
}
BENCHMARK(BM_FindBusyList)->ArgsProduct({{4, 16, 32}, {0, 1}});

void BM_FindBitmap(benchmark::State& state) {
  const RandomMap map = random_map(7, static_cast<int>(state.range(0)));
  const Fit fit = state.range(1) == 0 ? Fit::first : Fit::best;
  int w = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(map.grid.find(w, 5 - w % 4, fit));
    w = w % 6 + 1;
  }
}
BENCHMARK(BM_FindBitmap)->ArgsProduct({{4, 16, 32}, {0, 1}});

const char* const kSpecs[] = {"submesh", "submesh:fit=best", "buddy2d", "paging", "mbs", "anca",
                              "gabl"};

/// One allocate() of random study jobs on a 16x16 mesh filled to about half by the allocator.
void BM_Allocate(benchmark::State& state) {
  const Topology topology = Topology::parse("mesh:16x16");
  auto allocator = make_allocator(kSpecs[state.range(0)], topology);
  std::vector<char> busy(256, 0);
  int free = 256;
  Rng rng(3), jobs(5);
  auto random_job = [&] {
    Job job;
    job.shape_a = static_cast<int>(jobs.uniform_int(1, 16));
    job.shape_b = static_cast<int>(jobs.uniform_int(1, 16));
    job.procs = job.shape_a * job.shape_b;
    return job;
  };
  for (int tries = 0; tries < 200 && free > 128; ++tries) {
    const auto chosen = allocator->allocate(random_job(), MachineView(topology, busy, free, rng));
    if (!chosen || free - static_cast<int>(chosen->nodes.size()) < 96) continue;
    for (NodeId node : chosen->nodes) busy[node] = 1;
    free -= static_cast<int>(chosen->nodes.size());
    allocator->commit(*chosen);
  }
  const MachineView view(topology, busy, free, rng);
  for (auto _ : state) benchmark::DoNotOptimize(allocator->allocate(random_job(), view));
  state.SetLabel(kSpecs[state.range(0)]);
}
BENCHMARK(BM_Allocate)->DenseRange(0, 6);

/// Mean and 95% half-width (normal approximation) of replica values.
std::pair<double, double> mean_ci(const std::vector<double>& values) {
  double sum = 0, squares = 0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  for (double v : values) squares += (v - mean) * (v - mean);
  if (values.size() < 2) return {mean, 0};
  const double n = static_cast<double>(values.size());
  return {mean, 1.96 * std::sqrt(squares / (n - 1) / n)};
}

void study_preview(int replicas) {
  std::printf(
      "\nGABL study preview: mesh:16x16, fcfs, 1000 jobs, runtime exp:1, sides uniform "
      "[1,16], %d replicas (mean +- 95%% half-width)\n",
      replicas);
  std::printf("%-18s %5s %17s %19s %14s %10s\n", "allocator", "load", "utilization",
              "mean turnaround", "mean pieces", "int.frag");
  for (const char* spec : kSpecs) {
    for (const double load : {1.0, 2.0, 3.0, 4.0, 6.0}) {
      std::vector<double> util, response, pieces, fragmentation;
      for (int replica = 0; replica < replicas; ++replica) {
        RunConfig config;
        config.machine = "mesh:16x16";
        config.alloc = spec;
        config.sched = "fcfs";
        char trace[160];
        std::snprintf(trace, sizeof trace,
                      "synthetic:jobs=1000,arrival=exp:%.6g,runtime=exp:1,size=sides:16",
                      1.0 / load);
        config.trace = trace;
        config.seed = config.workload_seed = static_cast<std::uint64_t>(replica + 1);
        const RunResult result = simulate(config, std::string());
        util.push_back(result.summary.utilization);
        response.push_back(result.summary.mean_response);
        pieces.push_back(result.summary.mean_pieces);
        fragmentation.push_back(result.summary.mean_internal_fragmentation);
      }
      const auto [u, du] = mean_ci(util);
      const auto [r, dr] = mean_ci(response);
      const auto [p, dp] = mean_ci(pieces);
      std::printf("%-18s %5.1f %9.3f +- %.3f %11.2f +- %5.2f %7.2f +- %.2f %10.2f\n", spec, load, u,
                  du, r, dr, p, dp, mean_ci(fragmentation).first);
    }
  }
}

}  // namespace
}  // namespace allocsim

int main(int argc, char** argv) {
  int replicas = 3;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--study-replicas=", 17) == 0) {
      replicas = std::atoi(argv[i] + 17);
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (replicas > 0) allocsim::study_preview(replicas);
  return 0;
}
