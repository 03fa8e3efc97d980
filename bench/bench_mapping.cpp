// Task-mapping speed (Agarwal, Sharma and Kalé §4.4–4.5 complexity): a 64x64 2D-mesh pattern
// onto a 16x16x16 torus (p = 4,096) with TopoLB order 2 (goal: under 10 s and 1 GB peak memory;
// the n×p cost table alone is 134 MB), TopoCentLB, random, refinement and Scotch.
// Peak memory: `/usr/bin/time -v build/allocsim map --machine torus:16x16x16 --pattern
// mesh2d:64x64 --mapper topolb:order=2` (maximum resident set size).
// Run: build/bench/bench_mapping --benchmark_repetitions=3 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/metrics/hop_bytes.hpp"
#include "bench_main.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

void MapMeshOntoTorus(benchmark::State& state, const std::string& mapper,
                      const std::string& pattern, const std::string& machine) {
  const TaskGraph graph = make_pattern(pattern);
  const Topology topology = Topology::parse(machine);
  std::vector<NodeId> nodes(topology.node_count());
  for (NodeId n = 0; n < topology.node_count(); ++n) nodes[n] = n;
  const MapperChain chain(mapper);
  double hops_per_byte = 0;
  for (auto _ : state) {
    Rng rng(1);
    const auto placement = chain.map({graph, topology, nodes}, rng);
    benchmark::DoNotOptimize(placement.data());
    state.PauseTiming();
    hops_per_byte = hop_bytes(graph, topology, placement).hops_per_byte();
    state.ResumeTiming();
  }
  state.counters["hops_per_byte"] = hops_per_byte;
}

}  // namespace

BENCHMARK_CAPTURE(MapMeshOntoTorus, topolb_order2_p4096, std::string("topolb:order=2"),
                  std::string("mesh2d:64x64"), std::string("torus:16x16x16"))
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(MapMeshOntoTorus, topocentlb_p4096, std::string("topocentlb"),
                  std::string("mesh2d:64x64"), std::string("torus:16x16x16"))
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(MapMeshOntoTorus, random_p4096, std::string("random"),
                  std::string("mesh2d:64x64"), std::string("torus:16x16x16"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(MapMeshOntoTorus, topolb_refine_p4096, std::string("topolb:order=2+refine"),
                  std::string("mesh2d:64x64"), std::string("torus:16x16x16"))
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(MapMeshOntoTorus, scotch_p4096, std::string("scotch"),
                  std::string("mesh2d:64x64"), std::string("torus:16x16x16"))
    ->Unit(benchmark::kSecond)
    ->Iterations(1);
BENCHMARK_CAPTURE(MapMeshOntoTorus, topolb_order3_p1024, std::string("topolb:order=3"),
                  std::string("mesh2d:32x32"), std::string("torus:8x8x16"))
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

int main(int argc, char** argv) {
  return allocsim::bench::run_benchmarks(argc, argv);
}
