// Performance of the subtorus allocators (Mao, Chen, Watson): allocate/commit/release steps and
// clones (the backfilling look-ahead copies the allocator) on the JLab and QCDOC machines, and
// whole simulations. Before the timings it prints a small synthetic comparison table of
// {fcfs, easy} x {EP, NEP, flat} (utilization, mean bounded slowdown).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/sim/simulation.hpp"
#include "bench_main.hpp"

namespace allocsim {
namespace {

const char* const kMachines[] = {"torus:2x2x2x6x8", "torus:2x2x2x4x4x8"};

Job job_of(int procs) {
  Job job;
  job.procs = procs;
  return job;
}

/// A fragmented state: random allocations until one fails, then half of them released.
struct Fragmented {
  Topology machine;
  SubtorusAllocator alloc;
  std::vector<Allocation> running;
  std::vector<char> busy;
  Rng rng{42};

  Fragmented(const std::string& spec, PartitionScheme scheme)
      : machine(Topology::parse(spec)),
        alloc(machine, scheme, ConvertMode::pair),
        busy(machine.node_count(), 0) {}

  /// One random step: release (45%) or allocate a log-uniform size. Returns nodes touched.
  std::size_t step() {
    if (!running.empty() && rng.uniform() < 0.45) {
      const auto i = static_cast<std::size_t>(rng.uniform_int(0, running.size() - 1));
      for (NodeId node : running[i].nodes) busy[node] = 0;
      alloc.release(running[i]);
      const std::size_t n = running[i].nodes.size();
      running[i] = std::move(running.back());
      running.pop_back();
      return n;
    }
    const int k = static_cast<int>(rng.uniform_int(0, ceil_log2(alloc.largest_request()) - 2));
    const int procs = k == 0 ? 1 : static_cast<int>(rng.uniform_int((1 << (k - 1)) + 1, 1 << k));
    const MachineView view(machine, busy, 0, rng);  // the allocator reads only its own state
    auto a = alloc.allocate(job_of(procs), view);
    if (!a) return 0;
    for (NodeId node : a->nodes) busy[node] = 1;
    alloc.commit(*a);
    running.push_back(std::move(*a));
    return running.back().nodes.size();
  }
};

void BM_RandomSteps(benchmark::State& state) {
  Fragmented f(kMachines[state.range(0)],
               state.range(1) ? PartitionScheme::nep : PartitionScheme::ep);
  std::size_t nodes = 0;
  for (auto _ : state) nodes += f.step();
  state.counters["nodes/step"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_RandomSteps)->ArgsProduct({{0, 1}, {0, 1}})->ArgNames({"qcdoc", "nep"});

void BM_CloneFragmented(benchmark::State& state) {
  Fragmented f(kMachines[state.range(0)],
               state.range(1) ? PartitionScheme::nep : PartitionScheme::ep);
  for (int i = 0; i < 500; ++i) f.step();
  state.counters["running"] = static_cast<double>(f.running.size());
  for (auto _ : state) benchmark::DoNotOptimize(f.alloc.clone());
}
BENCHMARK(BM_CloneFragmented)->ArgsProduct({{0, 1}, {0, 1}})->ArgNames({"qcdoc", "nep"});

RunConfig synthetic_config(int machine, const std::string& sched, const std::string& alloc) {
  RunConfig config;
  const Topology topology = Topology::parse(kMachines[machine]);
  config.machine = alloc == "flat" ? "flat:" + std::to_string(topology.node_count())
                                   : std::string(kMachines[machine]);
  const int largest = machine == 0 ? 256 : 1024;
  config.trace = "synthetic:jobs=2000,arrival=exp:" + std::string(machine == 0 ? "105" : "125") +
                 ",runtime=exp:1000,size=pow2:1," + std::to_string(largest / 2);
  config.sched = sched;
  config.alloc = alloc;
  return config;
}

void BM_Simulate(benchmark::State& state) {
  static const char* const allocs[] = {"subtorus:scheme=ep", "subtorus:scheme=nep"};
  const RunConfig config =
      synthetic_config(static_cast<int>(state.range(0)), "easy", allocs[state.range(1)]);
  for (auto _ : state) benchmark::DoNotOptimize(simulate(config, std::string()));
}
BENCHMARK(BM_Simulate)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"qcdoc", "nep"})
    ->Unit(benchmark::kMillisecond);

void print_comparison() {
  std::printf("synthetic comparison: 2000 jobs, sizes pow2 up to N/2, offered load about 0.8\n");
  std::printf("%-22s %-6s %-20s %11s %13s\n", "machine", "sched", "alloc", "utilization",
              "mean_bsld");
  for (int machine = 0; machine < 2; ++machine)
    for (const char* sched : {"fcfs", "easy"})
      for (const char* alloc : {"subtorus:scheme=ep", "subtorus:scheme=nep", "flat"}) {
        const RunResult r = simulate(synthetic_config(machine, sched, alloc), std::string());
        std::printf("%-22s %-6s %-20s %11.4f %13.2f\n", kMachines[machine], sched, alloc,
                    r.summary.utilization, r.summary.mean_bounded_slowdown);
      }
  std::fflush(stdout);
}

}  // namespace
}  // namespace allocsim

int main(int argc, char** argv) {
  allocsim::print_comparison();
  return allocsim::bench::run_benchmarks(argc, argv);
}
