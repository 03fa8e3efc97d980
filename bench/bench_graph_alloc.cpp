// Cost of the graph allocators (issue 27: each at most 2 x `random` per job) on
// `dragonfly:p=8,a=16,h=8` (129 groups, 2,064 routers, 16,512 nodes), half busy. The machine
// state: jobs of 2^e nodes (e uniform in [0, 10], seeded) placed by `flat` until the machine
// is full, then whole jobs released in a seeded random order until half the nodes are free (free
// space in job-shaped holes, as after a while of a real schedule). Each iteration asks
// allocate() once, for a job of 2^e nodes, e cycling through 0 .. 10 (mean 186 nodes); the state
// is not changed. Every benchmark reports the time per job; the last line prints each
// allocator's ratio to `random` (medians over the repetitions when run with
// --benchmark_repetitions).
// Run: build/bench/bench_graph_alloc --benchmark_repetitions=5 --benchmark_report_aggregates_only
//
// Measured (2026-11-28, shared 2-core machine, medians of 5 repetitions, CPU time per job, 8,436
// nodes free): random 41.6 us; simple 0.45 (0.01 x), dfly-rdr 26.2 (0.63 x), dfly-rdg 17.7
// (0.43 x), dfly-rrn 19.5 (0.47 x), dfly-rrr 22.3 (0.53 x), dfly-spread 1.26 (0.03 x),
// level-spread 17.5 (0.42 x), jokanovic 14.3 (0.34 x), nearest 54.2 (1.30 x; 1.06 x in a quieter
// run). Every one is within the 2 x target. `nearest` also builds its router distance table
// once per allocator (2,064² entries, 4 MB, about 0.1 s here).
// 2026-11-29, slurm-tree and slurm-dragonfly added (a dragonfly read as routers under groups
// under a top), same command, another loaded day: random 21.4 us; simple 0.01 x, dfly-rdr
// 0.70 x, dfly-rdg 0.59 x, dfly-rrn 0.63 x, dfly-rrr 0.58 x, dfly-spread 0.02 x, level-spread
// 0.68 x, jokanovic 0.44 x, nearest 1.16 x, slurm-dragonfly 1.01 x, slurm-tree 1.95 x (12.0 x
// before its leaf distances were kept per parent switch, runs of one parent skipped whole and
// the free counts summed bottom-up; same selections on SDSC and KTH runs on fat trees and
// slurm-topology files, compared job by job against the previous binary).
// `slurm-block` takes topology/block files only: it runs on a block machine of the same size,
// 129 blocks of 128 nodes (the dragonfly's groups), BlockSizes=128,256,..,16384, written to a
// temporary file, half busy in the same way, against `random` on that machine (the last lines).
// 2026-11-29 (third session, same command, load ~2 from a study run): random 20.5 us; simple
// 0.01 x, dfly-rdr 0.70 x, dfly-rdg 0.60 x, dfly-rrn 0.65 x, dfly-rrr 0.60 x, dfly-spread 0.02 x,
// level-spread 0.66 x, jokanovic 0.44 x, nearest 1.20 x, slurm-tree 1.97 x, slurm-dragonfly
// 1.05 x; on the block machine random 20.3 us, slurm-block 11.5 us (0.56 x).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/topo/topology.hpp"

using namespace allocsim;

namespace {

const char* const kMachine = "dragonfly:p=8,a=16,h=8";
/// Allocators for topology/block files, measured on kBlockMachine against `random` there.
const std::vector<std::string> kBlockAllocators{"random", "slurm-block"};

/// A topology/block file of the dragonfly's size: 129 blocks of 128 nodes, written once.
std::string block_machine() {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "allocsim-bench-block16512.conf";
  std::ofstream file(path);
  file << "BlockSizes=128,256,512,1024,2048,4096,8192,16384\n";
  for (int b = 0; b < 129; ++b)
    file << "BlockName=b" << b << " Nodes=n[" << 128 * b << "-" << 128 * b + 127 << "]\n";
  return "slurm-topology:" + path.string();
}
const std::vector<std::string> kAllocators{
    "random",      "simple",       "dfly-rdr",  "dfly-rdg", "dfly-rrn",   "dfly-rrr",
    "dfly-spread", "level-spread", "jokanovic", "nearest",  "slurm-tree", "slurm-dragonfly"};

struct HalfBusy {
  Topology topology;
  std::vector<char> busy;
  int free_count = 0;
  explicit HalfBusy(const std::string& spec) : topology(Topology::parse(spec)) {
    const int nodes = topology.node_count();
    busy.assign(nodes, 0);
    Rng rng(2027);
    std::vector<std::pair<int, int>> jobs;  // [first, end) of each job, flat placement
    for (int at = 0; at < nodes;) {
      const int size = std::min(1 << rng.uniform_int(0, 10), nodes - at);
      jobs.emplace_back(at, at + size);
      std::fill(busy.begin() + at, busy.begin() + at + size, 1);
      at += size;
    }
    rng.shuffle(jobs);
    for (const auto& [first, end] : jobs) {
      if (free_count >= nodes / 2) break;
      std::fill(busy.begin() + first, busy.begin() + end, 0);
      free_count += end - first;
    }
  }
};

/// The half-busy state of the dragonfly (block = false) or of the block machine.
const HalfBusy& state(bool block) {
  static const HalfBusy dragonfly(kMachine);  // built once per process, read-only
  static const HalfBusy blocks(block_machine());
  return block ? blocks : dragonfly;
}

std::map<std::string, std::vector<double>>& timings() {
  static std::map<std::string, std::vector<double>> per_allocator;  // us per job, per run
  return per_allocator;
}

void Allocate(benchmark::State& bench, const std::string& name, bool block) {
  const HalfBusy& machine = state(block);
  const std::unique_ptr<Allocator> allocator = make_allocator(name, machine.topology);
  Rng rng(5);
  const MachineView view(machine.topology, machine.busy, machine.free_count, rng);
  Job job;
  job.runtime = job.estimate = 100;
  int exponent = 0;
  std::size_t nodes = 0;
  for (auto _ : bench) {
    job.procs = 1 << exponent;
    exponent = (exponent + 1) % 11;
    const std::optional<Allocation> allocation = allocator->allocate(job, view);
    nodes += allocation ? allocation->nodes.size() : 0;
    benchmark::DoNotOptimize(nodes);
  }
  bench.SetLabel(name + ", free " + std::to_string(machine.free_count));
}

/// Prints each allocator's median time per job and its ratio to random's.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name =
          run.run_name.function_name.substr(run.run_name.function_name.find('/') + 1);
      if (run.run_type == Run::RT_Iteration && run.iterations > 0)
        timings()[name].push_back(run.GetAdjustedCPUTime());
      else if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
        medians_[name] = run.GetAdjustedCPUTime();  // with --benchmark_report_aggregates_only
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const auto median = [&](const std::string& name) {
      if (const auto found = medians_.find(name); found != medians_.end()) return found->second;
      std::vector<double> v = timings()[name];
      std::sort(v.begin(), v.end());
      return v.empty() ? 0.0 : v[v.size() / 2];
    };
    const auto print = [&](const std::vector<std::string>& names, const std::string& prefix,
                           const char* machine) {
      const double random = median(prefix + "random");
      std::printf("\nmedian CPU time per job (us) and ratio to random on %s:\n", machine);
      for (const std::string& name : names) {
        const double t = median(prefix + name);
        if (t > 0) std::printf("  %-15s %10.2f  %5.2f x\n", name.c_str(), t, t / random);
      }
    };
    print(kAllocators, "", kMachine);
    print(kBlockAllocators, "block/", "129 blocks of 128 nodes (topology/block)");
  }

 private:
  std::map<std::string, double> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  for (const std::string& name : kAllocators)
    benchmark::RegisterBenchmark(("GraphAlloc/" + name).c_str(), [name](benchmark::State& s) {
      Allocate(s, name, false);
    })->Unit(benchmark::kMicrosecond);
  for (const std::string& name : kBlockAllocators)
    benchmark::RegisterBenchmark(("BlockAlloc/block/" + name).c_str(), [name](benchmark::State& s) {
      Allocate(s, name, true);
    })->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
