// MC1x1 and MC (box-count shell scan, geom/mc.cpp) against machine size: EASY on synthetic
// jobs of 1-64 processors at offered load 0.8, as in the scale issue's table.
// First prints a table of CPU µs per job against the machine size N (median of 5 runs each)
// with the exponent e of a least-squares fit µs/job ∝ N^e, then runs the Google benchmarks.
// Then (--compare=1, the default) the same runs with the first implementation
// (tests/geom/mc_reference.hpp, behind the same answer memo) against today's, alternately in one
// process: CPU µs per job, medians of 5, and the ratio of the medians.
// Run: build/bench/bench_mc --benchmark_repetitions=5 --benchmark_report_aggregates_only
//      (--table=0 skips the table, --compare=0 the comparison, --table=only the benchmarks).
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

#include "allocsim/alloc/comm_aware.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/heap.hpp"
#include "bench_main.hpp"
#include "geom/mc_reference.hpp"

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

/// MC1x1 over the free processors as the first implementation answered it: the free list turned
/// into points and geom::reference::mc1x1 per question, behind the same answer memo.
class ReferenceMc1x1 final : public CloneableAllocator<ReferenceMc1x1> {
 public:
  ReferenceMc1x1(const Topology& topology, geom::ShellTies ties) : ties_(ties) {
    for (int axis = 0; axis < topology.dims(); ++axis)
      rings_.push_back(topology.wraps(axis) ? topology.side(axis) : 0);
  }
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    const int k = job.procs;
    if (machine.free_count() < k) return std::nullopt;
    Allocation allocation;
    if (k <= 0) return allocation;
    const std::vector<NodeId> free = machine.free_nodes();
    const SelectionCache::Key key{k, 0, 0};
    const SelectionCache::Answer* answer = cache_.find(free, key);
    if (!answer) {
      const Topology& topology = machine.topology();
      geom::PointSet points(topology.dims(), rings_);
      std::vector<int> coords(topology.dims());
      for (const NodeId node : free) {
        topology.coords(node, coords);
        points.add(coords);
      }
      answer = &cache_.store(key, false, geom::reference::mc1x1(points, k, ties_));
    }
    for (const int index : answer->selection.indices) allocation.nodes.push_back(free[index]);
    return allocation;
  }

 private:
  geom::ShellTies ties_;
  std::vector<int> rings_;
  mutable SelectionCache cache_;
};

/// CPU seconds of one whole run of the transformed workload, with the reference allocator when
/// `old`.
double run_seconds(const RunConfig& config, const Workload& transformed, bool old, double& jobs) {
  const double start = cpu_seconds();
  Simulation simulation(config, transformed);
  if (old) {
    const geom::ShellTies ties = config.alloc.find("sum") != std::string::npos
                                     ? geom::ShellTies::sum
                                     : geom::ShellTies::first;
    simulation.set_allocator(std::make_unique<ReferenceMc1x1>(simulation.topology(), ties));
  }
  jobs = simulation.run().summary.jobs;
  return cpu_seconds() - start;
}

/// Old (first implementation) against new on the small machines, same process.
void print_comparison() {
  std::printf(
      "mc1x1 first implementation (old) vs today's (new), EASY, synthetic 1-64, load 0.8:"
      " CPU us/job, median of 5, runs alternating\n");
  std::printf("%-16s %-16s %10s %10s %8s\n", "machine", "allocator", "old", "new", "old/new");
  for (const int m : {2, 3}) {
    for (const char* alloc : {"mc1x1", "mc1x1:ties=sum"}) {
      const RunConfig config = synthetic_config(kMachines[m], alloc);
      const Workload transformed = transform_workload(config, load_workload(config, ""));
      std::vector<double> old_runs, new_runs;
      double jobs = 0;
      for (int run = 0; run < 5; ++run) {
        old_runs.push_back(run_seconds(config, transformed, true, jobs) * 1e6 / jobs);
        new_runs.push_back(run_seconds(config, transformed, false, jobs) * 1e6 / jobs);
      }
      std::sort(old_runs.begin(), old_runs.end());
      std::sort(new_runs.begin(), new_runs.end());
      std::printf("%-16s %-16s %10.1f %10.1f %8.1f\n", kMachines[m].spec, alloc, old_runs[2],
                  new_runs[2], old_runs[2] / new_runs[2]);
      std::fflush(stdout);
    }
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  std::string table = "1", compare = "1";
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--table=", 8) == 0) {
      table = argv[i] + 8;
      continue;
    }
    if (std::strncmp(argv[i], "--compare=", 10) == 0) {
      compare = argv[i] + 10;
      continue;
    }
    rest.push_back(argv[i]);
  }
  keep_freed_memory_for_reuse();  // as the allocsim binary does, also for the table
  if (table != "0") print_scaling_table();
  if (compare != "0") print_comparison();
  if (table == "only") return 0;
  int rest_count = static_cast<int>(rest.size());
  return allocsim::bench::run_benchmarks(rest_count, rest.data());
}
