// Throughput of the curve allocator (alloc/curve.hpp) under a random churn of jobs, and the cost
// of building the orderings. The target: >= 200,000 allocate+release pairs per second
// for curve:order=hilbert,fit=best on torus:32x32x32 with jobs of <= 64 processors.
//
// Churn: jobs of uniform size 1..64 fill the machine to 90 % busy; then every iteration releases
// a random running job and allocates (and commits) new jobs until the machine is 90 % busy again.
// pairs/s counts releases per second (allocations match them in the steady state).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>
#include <vector>

#include "allocsim/alloc/curve.hpp"
#include "allocsim/metrics/span.hpp"
#include "allocsim/topo/ordering.hpp"

namespace allocsim {
namespace {

constexpr double kTargetBusy = 0.9;
constexpr int kMaxProcs = 64;

/// The simulation's side of the churn: busy flags, the running jobs, the generator.
struct Churn {
  Churn(const Topology& machine, Allocator& allocator, std::uint64_t seed)
      : topology(machine), alloc(allocator), busy(machine.node_count(), 0), rng(seed) {}

  /// Linear span of `nodes` in the allocator's order (row order when it has none).
  double span_in_order(const std::vector<NodeId>& nodes) {
    const std::vector<int>* rank_of = alloc.linear_ranks();
    ranks.clear();
    for (NodeId node : nodes) ranks.push_back(rank_of ? (*rank_of)[node] : node);
    return linear_span(ranks);
  }

  /// Allocates jobs until the machine is kTargetBusy busy (or a job does not fit).
  int fill() {
    int started = 0;
    const int limit = static_cast<int>(kTargetBusy * topology.node_count());
    while (busy_count < limit) {
      Job job;
      job.procs = static_cast<int>(rng.uniform_int(1, kMaxProcs));
      const MachineView view(topology, busy, topology.node_count() - busy_count, rng);
      auto allocation = alloc.allocate(job, view);
      if (!allocation) break;
      alloc.commit(*allocation);
      for (NodeId node : allocation->nodes) busy[node] = 1;
      busy_count += static_cast<int>(allocation->nodes.size());
      span_sum += span_in_order(allocation->nodes) / job.procs;
      ++allocations;
      running.push_back(std::move(*allocation));
      ++started;
    }
    return started;
  }

  /// Releases one running job chosen at random.
  void release_one() {
    const auto index =
        static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(running.size()) - 1));
    std::swap(running[index], running.back());
    alloc.release(running.back());
    for (NodeId node : running.back().nodes) busy[node] = 0;
    busy_count -= static_cast<int>(running.back().nodes.size());
    running.pop_back();
  }

  const Topology& topology;
  Allocator& alloc;
  std::vector<char> busy;
  int busy_count = 0;
  Rng rng;
  std::vector<Allocation> running;
  std::int64_t allocations = 0;
  double span_sum = 0;     // Σ linear span / processors (stretch)
  std::vector<int> ranks;  // scratch for span_in_order
};

void churn(benchmark::State& state, const std::string& allocator_spec,
           const std::string& machine_spec) {
  const Topology machine = Topology::parse(machine_spec);
  auto allocator = make_allocator(allocator_spec, machine);
  Churn sim(machine, *allocator, 12345);
  sim.fill();
  const std::int64_t warm_allocations = sim.allocations;
  const double warm_span = sim.span_sum;
  std::int64_t pairs = 0, interval_sum = 0;
  for (auto _ : state) {
    sim.release_one();
    sim.fill();
    ++pairs;
    if (auto* curve = dynamic_cast<CurveAllocator*>(allocator.get()))
      interval_sum += static_cast<std::int64_t>(curve->free_intervals().intervals().size());
  }
  state.counters["pairs/s"] =
      benchmark::Counter(static_cast<double>(pairs), benchmark::Counter::kIsRate);
  state.counters["free_intervals"] =
      static_cast<double>(interval_sum) / static_cast<double>(std::max<std::int64_t>(pairs, 1));
  const auto churn_allocations = sim.allocations - warm_allocations;
  state.counters["stretch"] =
      churn_allocations ? (sim.span_sum - warm_span) / static_cast<double>(churn_allocations) : 0;
  state.SetLabel(allocator_spec + " on " + machine_spec);
}

void build_ordering(benchmark::State& state, const std::string& ordering,
                    const std::string& machine_spec) {
  const Topology machine = Topology::parse(machine_spec);
  for (auto _ : state) benchmark::DoNotOptimize(make_ordering(ordering, machine));
  state.SetLabel(ordering + " on " + machine_spec);
}

}  // namespace
}  // namespace allocsim

int main(int argc, char** argv) {
  using allocsim::churn;
  const std::string torus = "torus:32x32x32";
  for (const char* spec :
       {"curve:order=hilbert,fit=best", "curve:order=hilbert,fit=first",
        "curve:order=hilbert,fit=sumsq", "curve:order=hilbert,fit=none",
        "curve:order=hilbert,fit=best,span=ring", "curve:order=ghilbert,fit=best",
        "curve:order=row,fit=best", "curve:order=snake,fit=best"})
    benchmark::RegisterBenchmark(("churn/" + std::string(spec)).c_str(), churn, spec, torus);
  benchmark::RegisterBenchmark("churn/curve:order=hilbert,fit=best/mesh:8x8x5", churn,
                               "curve:order=hilbert,fit=best", "mesh:8x8x5");
  for (const char* ordering : {"hilbert", "ghilbert", "snake"})
    benchmark::RegisterBenchmark(("ordering/" + std::string(ordering)).c_str(),
                                 allocsim::build_ordering, ordering, torus)
        ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
