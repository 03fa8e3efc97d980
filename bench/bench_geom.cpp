// Benchmarks of the geom/ point-set solvers (Bender et al., Algorithmica 2008).
//
// First prints the unconstrained table: the proven optimal sum of pairwise distances of k points
// of the infinite 2D grid for k = 2, 3, … (the paper's Figure 2 lists k ≤ 10), each k with a
// time budget (default 60 s, --table-seconds=S), stopping at the first k not proven in time
// (--table-max-k=K stops earlier, --table-max-k=0 skips the table). Each k runs the exact solver
// on a k×k grid: an optimal set has contiguous projections (closing a gap lowers every cross
// distance), so a translate of it fits. The optima of smaller k are passed as known bounds.
//
// Then runs Google Benchmark timings of the solvers on half-free meshes.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/ptas.hpp"
#include "allocsim/util/rng.hpp"

namespace {

using namespace allocsim;
using namespace allocsim::geom;

PointSet full_grid(int side) {
  PointSet points(2);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const int p[2] = {x, y};
      points.add(p);
    }
  return points;
}

/// `free` random distinct processors of a side×side mesh (seeded).
PointSet half_free_mesh(int side, int free, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<int> ids(side * side);
  for (int i = 0; i < side * side; ++i) ids[i] = i;
  for (int i = 0; i < free; ++i)
    std::swap(ids[i], ids[static_cast<std::size_t>(rng.uniform_int(i, side * side - 1))]);
  PointSet points(2);
  for (int i = 0; i < free; ++i) {
    const int p[2] = {ids[i] % side, ids[i] / side};
    points.add(p);
  }
  return points;
}

void print_unconstrained_table(double seconds_per_k, int max_k) {
  std::printf("Unconstrained optimum on the 2D grid (exact branch and bound, %.0f s per k)\n",
              seconds_per_k);
  std::printf("%4s %8s %10s %7s %12s %10s\n", "k", "sum", "avg", "proven", "nodes", "seconds");
  std::vector<std::int64_t> known{0, 0};
  double total = 0;
  for (int k = 2; max_k < 0 || k <= max_k; ++k) {
    const PointSet grid = full_grid(std::max(k, 2));
    ExactOptions options;
    options.budget.seconds = seconds_per_k;
    options.known_bounds = known;
    const Selection result = exact_optimum(grid, k, options);
    total += result.seconds;
    std::printf("%4d %8lld %10.4f %7s %12lld %10.3f\n", k, static_cast<long long>(result.sum),
                static_cast<double>(result.sum) / static_cast<double>(pair_count(k)),
                result.proven ? "yes" : "no", static_cast<long long>(result.nodes), result.seconds);
    std::fflush(stdout);
    if (!result.proven) {
      std::printf("k = %d not proven within %.0f s (best %lld, lower bound %lld); stopping.\n", k,
                  seconds_per_k, static_cast<long long>(result.sum),
                  static_cast<long long>(result.lower_bound));
      break;
    }
    known.push_back(result.sum);
  }
  std::printf("table time %.1f s\n\n", total);
  std::fflush(stdout);
}

void BM_ManhattanMedian(benchmark::State& state) {
  const PointSet points = half_free_mesh(16, 128, 1);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(manhattan_median(points, k).sum);
}
BENCHMARK(BM_ManhattanMedian)->Arg(2)->Arg(8)->Arg(32)->Arg(100);

void BM_GenAlg(benchmark::State& state) {
  const PointSet points = half_free_mesh(16, 128, 1);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(gen_alg(points, k).sum);
}
BENCHMARK(BM_GenAlg)->Arg(8)->Arg(32);

void BM_MC1x1(benchmark::State& state) {
  const PointSet points = half_free_mesh(16, 128, 1);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(mc1x1(points, k).sum);
}
BENCHMARK(BM_MC1x1)->Arg(2)->Arg(8)->Arg(32)->Arg(100);

void BM_MMInc(benchmark::State& state) {
  const PointSet points = half_free_mesh(16, 128, 1);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(mm_inc(points, k).sum);
}
BENCHMARK(BM_MMInc)->Arg(8)->Arg(32);

void BM_ExactHalfFree(benchmark::State& state) {
  const PointSet points = half_free_mesh(10, 50, 2);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(exact_optimum(points, k).sum);
}
BENCHMARK(BM_ExactHalfFree)->Arg(6)->Arg(10)->Arg(14)->Unit(benchmark::kMillisecond);

void BM_PtasM3(benchmark::State& state) {
  const PointSet points = half_free_mesh(6, 16, 3);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(ptas(points, k, 3).sum);
}
BENCHMARK(BM_PtasM3)->Arg(4)->Arg(6)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  double seconds_per_k = 60;
  int max_k = -1;
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--table-seconds=", 16) == 0) {
      seconds_per_k = std::atof(argv[i] + 16);
    } else if (std::strncmp(argv[i], "--table-max-k=", 14) == 0) {
      max_k = std::atoi(argv[i] + 14);
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (max_k != 0) print_unconstrained_table(seconds_per_k, max_k);
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
