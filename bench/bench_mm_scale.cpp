// MM's cost per job against machine size: the fast implementation (geom/mm.hpp, with the memo
// an allocator keeps) and the previous one (geom::reference), on meshes and tori of 256 to
// 110,592 nodes. Each run replays the same allocations: the machine is first filled to 30 %
// busy (at most 200 jobs, so the largest machines stay nearly empty, as in a short synthetic
// trace), then jobs of 1–64 nodes (uniform) are placed by MM one after the other, the oldest
// job leaving whenever more than 30 % is busy. A job's time includes turning the free list
// into points, as the allocator does. Both implementations choose the same nodes, so they
// replay the same states. The fast one's memo (the sums it keeps between calls) is first fed
// one call on the starting free list outside the timing, as an allocator's memo has seen the
// decisions before; it learns of every change only from the free lists it is given.
//
// After the Google Benchmark output (medians of 5 repetitions), prints a table of CPU µs per job
// against N with the ratio old / new and the exponent b of a least-squares fit
// µs/job ≈ a · N^b over the machines. Run: build/bench/bench_mm_scale (about a minute).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/heap.hpp"
#include "allocsim/util/rng.hpp"
#include "geom/mm_reference.hpp"

namespace {

using namespace allocsim;
using namespace allocsim::geom;

struct MachineCase {
  const char* name;
  std::vector<int> sides;
  bool torus;
  int jobs;  // timed jobs per iteration
};

const std::vector<MachineCase>& machine_cases() {
  static const std::vector<MachineCase> cases = {
      {"mesh:16x16", {16, 16}, false, 200},       {"mesh:32x32", {32, 32}, false, 100},
      {"mesh:64x64", {64, 64}, false, 40},        {"torus:16x16x16", {16, 16, 16}, true, 40},
      {"torus:24x24x24", {24, 24, 24}, true, 20}, {"torus:32x32x32", {32, 32, 32}, true, 12},
      {"torus:48x48x48", {48, 48, 48}, true, 8},
  };
  return cases;
}

/// The machine's busy map, its running jobs (oldest first) and the job sizes to place.
struct Replay {
  std::shared_ptr<const Topology> topology;
  std::vector<int> rings;
  std::vector<int> node_coords;  // every node's coordinates, node-major (as the allocator's)
  std::vector<char> busy;
  std::deque<std::vector<int>> running;
  int busy_count = 0;

  int volume() const { return static_cast<int>(busy.size()); }
  /// The free points and their node ids, as CommAwareAllocator::allocate makes them.
  PointSet free_points(std::vector<int>& ids) const {
    Rng unused(1);
    ids = MachineView(*topology, busy, volume() - busy_count, unused).free_nodes();
    PointSet points(topology->dims(), rings);
    points.add_gathered(node_coords, ids);
    return points;
  }
  /// Places one job of k nodes with MM (fast or reference), after releasing the oldest jobs
  /// while more than 30 % of the machine is busy.
  void place(int k, bool fast, NearestMemo& memo, std::vector<int>& ids) {
    while (!running.empty() && busy_count > 0.3 * volume()) {
      for (const int node : running.front()) busy[node] = 0;
      busy_count -= static_cast<int>(running.front().size());
      running.pop_front();
    }
    const PointSet points = free_points(ids);
    k = std::min(k, points.size());
    const Selection chosen = fast ? manhattan_median(points, k, CentreOrder::sorted, nullptr, &memo)
                                  : reference::manhattan_median(points, k);
    std::vector<int> job;
    for (const int i : chosen.indices) job.push_back(ids[i]), busy[ids[i]] = 1;
    busy_count += static_cast<int>(job.size());
    running.push_back(std::move(job));
  }
};

Replay prepared(const MachineCase& machine) {
  Replay replay;
  replay.topology = std::make_shared<const Topology>(Topology::parse(machine.name));
  const int volume = replay.topology->node_count(), dims = replay.topology->dims();
  for (const int side : machine.sides) replay.rings.push_back(machine.torus ? side : 0);
  replay.node_coords.resize(static_cast<std::size_t>(volume) * dims);
  for (int node = 0; node < volume; ++node)
    replay.topology->coords(
        node, std::span<int>(replay.node_coords.data() + static_cast<std::size_t>(node) * dims,
                             static_cast<std::size_t>(dims)));
  replay.busy.assign(volume, 0);
  Rng rng(7);
  NearestMemo memo;
  std::vector<int> ids;
  for (int job = 0; job < 200 && replay.busy_count < 0.3 * volume; ++job)
    replay.place(static_cast<int>(rng.uniform_int(1, 64)), true, memo, ids);
  return replay;
}

void MmPerJob(benchmark::State& state) {
  const MachineCase& machine = machine_cases()[state.range(0)];
  const bool fast = state.range(1) == 1;
  // The filled machine, built once per machine for all repetitions and both implementations.
  static std::map<long, Replay> filled;
  if (!filled.count(state.range(0))) filled.emplace(state.range(0), prepared(machine));
  const Replay& start = filled.at(state.range(0));
  Rng sizes(11);
  std::vector<int> ks;
  for (int j = 0; j < machine.jobs; ++j) ks.push_back(static_cast<int>(sizes.uniform_int(1, 64)));
  std::vector<int> ids;
  for (auto _ : state) {
    state.PauseTiming();
    Replay replay = start;
    NearestMemo memo;
    if (fast) {
      // The memo of an allocator that has been deciding on this machine (the fill's jobs, of
      // up to 64 nodes): one call on the starting free list, its answer not used.
      const PointSet points = replay.free_points(ids);
      manhattan_median(points, std::min(64, points.size()), CentreOrder::sorted, nullptr, &memo);
    }
    state.ResumeTiming();
    for (const int k : ks) replay.place(k, fast, memo, ids);
  }
  state.SetLabel(std::string(machine.name) + (fast ? " new" : " old"));
  state.counters["s_per_job"] = benchmark::Counter(
      static_cast<double>(machine.jobs),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// Keeps the medians' µs per job for the table.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      if (run.aggregate_name != "median") continue;
      const auto found = run.counters.find("s_per_job");
      if (found != run.counters.end()) medians[run.report_label] = 1e6 * found->second.value;
    }
  }
  std::map<std::string, double> medians;  // label ("<machine> new|old") -> µs per job
};

}  // namespace

BENCHMARK(MmPerJob)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

int main(int argc, char** argv) {
  allocsim::keep_freed_memory_for_reuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\n%-16s %8s %14s %14s %8s\n", "machine", "N", "old us/job", "new us/job", "old/new");
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int points = 0;
  for (const auto& machine : machine_cases()) {
    int volume = 1;
    for (const int side : machine.sides) volume *= side;
    const auto old_it = reporter.medians.find(std::string(machine.name) + " old");
    const auto new_it = reporter.medians.find(std::string(machine.name) + " new");
    if (new_it == reporter.medians.end()) continue;
    const double old_us = old_it == reporter.medians.end() ? NAN : old_it->second;
    std::printf("%-16s %8d %14.1f %14.1f %8.1f\n", machine.name, volume, old_us, new_it->second,
                old_us / new_it->second);
    const double x = std::log(volume), y = std::log(new_it->second);
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++points;
  }
  if (points >= 2)
    std::printf("fitted exponent (new): us/job ~ N^%.2f\n",
                (points * sxy - sx * sy) / (points * sxx - sx * sx));
  return 0;
}
