// Conservative backfilling with compression against EASY and against the re-planning scheduler
// (conservative:replan=full), whole-trace runs in one process (needs $ALLOCSIM_TRACE_DIR;
// skipped without it). The trace is read once per case; parsing is not timed.
// - SDSC-BLUE on mesh:36x32, flat allocator (target, issue 28: conservative <= 2 x EASY);
// - the same with arrival_scale:factor=0.8 (target: conservative <= 3 x EASY; met since
//   wt-cons7, 2.9 x; 2.8 x since wt-cons8).
// The last lines print each scheduler's median CPU time and its ratio to EASY's.
// Run: ALLOCSIM_TRACE_DIR=../shared/traces build/bench/bench_conservative
//      --benchmark_repetitions=3
//
// Measured (2026-11-29, shared 2-core machine under load ~3-7, Release, medians of 3 runs, CPU
// s, one run of this program each; before = main at 82e3105, after = branch wt-conserv):
//   before  SDSC-BLUE:      easy 0.55, conservative 1.35 (2.46 x), replan=full 1.22 (2.22 x)
//           SDSC-BLUE x0.8: easy 0.86, conservative 6.42 (7.46 x), replan=full 23.57 (27.37 x)
//   after   SDSC-BLUE:      easy 0.61, conservative 1.31 (2.14 x), replan=full 1.28 (2.09 x)
//           SDSC-BLUE x0.8: easy 0.87, conservative 5.34 (6.13 x), replan=full 24.85 (28.51 x)
// (Before the failure memo of sched/failure_memo.hpp: conservative 1.70 s (3.15 x) and
// 17.79 s (20.93 x).) The targets (2 x and 3 x) are NOT met. (Simulation::run fell from 12 %
// to under 1 % once the scheduler asked the simulation for one pass time at a time.)
// Then (2026-11-29) branches wt-conserv2 and wt-cons (the staircase skip in a row over dense
// slots, one cache line per reservation, compaction by merging, the memo in start order):
// SDSC-BLUE x0.8 conservative 5.3 -> 4.7 s (paired whole process 0.91); x1.0 about 2.0-2.2 x.
// Then (2026-11-29, branch wt-cons2, same machine, load ~1.5-2.5; before = main at 1a3a3d7),
// the SDSC-BLUE x1.0 case profiled for itself (sched/compressing.hpp: its counts, the quiet
// passes and the other changes). This program run old and new in turn, twice each:
//   ALLOCSIM_TRACE_DIR=../shared/traces build/bench/bench_conservative
//       --benchmark_repetitions=3 '--benchmark_filter=easy|conservative/it'
//   before  SDSC-BLUE:      easy 0.54 0.53, conservative 1.18 1.15 s (2.18 2.17 x EASY)
//           SDSC-BLUE x0.8: easy 0.84 0.84, conservative 4.47 4.56 s (5.34 5.42 x EASY)
//   after   SDSC-BLUE:      easy 0.56 0.57, conservative 1.13 1.12 s (2.01 1.95 x EASY)
//           SDSC-BLUE x0.8: easy 0.87 0.85, conservative 4.28 4.33 s (4.91 5.12 x EASY)
// Whole process, the x1.0 conservative case alone ('--benchmark_filter=^SDSC-BLUE/conservative/it',
// its trace's parsing included), old and new in turn, 9 pairs: after/before CPU 0.960 (0.905-
// 1.060); x0.8 alone, 5 pairs: 0.972 (0.951-1.059). Mean waits and job counts printed: the same.
// The x1.0 target (2 x) is met only at the edge still (1.95-2.01 x): about 4 % off, not the
// 10-15 % aimed at; x0.8 about 5 x (target 3 x), NOT met.
// Then (2026-11-29, branch wt-cons5, load ~2-4; before = main at 5e518c7). Same schedules
// (per-job CSVs of `allocsim run` cmp-identical, x1.0, x0.8 and replan=full). This program,
// old and new in turn, twice each (the command above):
//   before  SDSC-BLUE:      easy 0.58 0.57, conservative 1.18 1.13 s (2.03 1.99 x EASY)
//           SDSC-BLUE x0.8: easy 0.86 0.84, conservative 4.38 4.36 s (5.08 5.17 x EASY)
//   after   SDSC-BLUE:      easy 0.57 0.56, conservative 0.97 0.98 s (1.70 1.74 x EASY)
//           SDSC-BLUE x0.8: easy 0.84 0.86, conservative 3.01 3.07 s (3.57 3.55 x EASY)
// Whole process, each case alone ('--benchmark_filter=^SDSC-BLUE/conservative/it', and
// '^SDSC-BLUE.x0.8/conservative/it'), old and new in turn: after/before CPU 0.864 (0.838-0.897,
// 7 pairs) and 0.669 (0.650-0.815, 5 pairs). The x1.0 target (2 x) is met with a margin of
// ~13 %; x0.8 about 3.56 x (target 3 x), NOT met. What changed (sched/compressing.hpp): a
// pass is asked only at the earliest reservation start (quiet passes 361 k -> 36 k at x1.0;
// x1.0 0.96); a settled job's search looks only at the windows left by this walk's moves, not
// by every move since it settled (its candidates' failing steps lie before its start): x0.8
// searches 14 M -> 9.7 M, failed ones 8.5 M -> 4.2 M (x0.8 0.83); the walk reads its list in
// place; a move is told its window's end by the search and gallops to its old window (0.99,
// 0.98); after a walk only the flagged slots are placed again (x0.8 0.96 and 0.975).
// Then (2026-11-29, branch wt-cons6, load ~1-2; before = main at c7fdd93). Same schedules
// (per-job CSVs cmp-identical: x1.0, x0.8, replan=full). This program, old and new in turn,
// twice each (the command above):
//   before  SDSC-BLUE:      easy 0.50 0.50, conservative 0.92 0.92 s (1.85 1.83 x EASY)
//           SDSC-BLUE x0.8: easy 0.79 0.80, conservative 2.90 2.90 s (3.67 3.62 x EASY)
//   after   SDSC-BLUE:      easy 0.50 0.50, conservative 0.87 0.87 s (1.73 1.73 x EASY)
//           SDSC-BLUE x0.8: easy 0.80 0.79, conservative 2.63 2.62 s (3.30 3.30 x EASY)
// Whole process, each case alone, new vs old in turn (farm-bench -n 5): x0.8 0.909 (0.901-
// 0.925), x1.0 0.955 (0.901-1.021). x0.8 is still NOT at 3 x (3.3 x). What changed
// (sched/compressing.hpp lists it with what was tried and not faster): compaction keeps the
// breakpoints pinned by reservations instead of listing and sorting every start and end
// (0.924); no failure record for a search that began at its fit, record without a branch
// (0.982).
// Then (2026-11-29, branch wt-cons7, load ~1.5-2; before = main at 6637140). Same schedules
// (per-job CSVs cmp-identical: x1.0, x0.8, replan=full). This program, old and new in turn,
// twice each (the command above):
//   before  SDSC-BLUE:      easy 0.50 0.51, conservative 0.87 0.88 s (1.74 1.74 x EASY)
//           SDSC-BLUE x0.8: easy 0.80 0.81, conservative 2.63 2.64 s (3.30 3.27 x EASY)
//   after   SDSC-BLUE:      easy 0.50 0.50, conservative 0.82 0.82 s (1.65 1.64 x EASY)
//           SDSC-BLUE x0.8: easy 0.79 0.79, conservative 2.29 2.28 s (2.89 2.90 x EASY)
// Whole process, each case alone, new vs old in turn (farm-bench -n 5 --vs OLD -- NEW,
// '--benchmark_filter=^SDSC-BLUE.x0.8/conservative/it', and '^SDSC-BLUE/conservative/it'):
// x0.8 0.881 (0.877-0.881), x1.0 0.956 (0.940-0.962). The x0.8 target (3 x) is met, with ~3 % to
// spare. What changed (sched/compressing.hpp, with what was tried and not faster): a search
// starting at its covering failure's start gallops from the index kept with that failure (0.933);
// the failure memo drops dominated failures in batches (0.948).
// Then (2026-11-29, branch wt-cons8, load ~1.5; before = main at 12ade38). Same schedules
// (per-job CSVs and printed summaries cmp-identical: x1.0, x0.8, replan=full, and CTC-SP2 on
// mesh:22x20 with sortedfreelist:order=snake). This program, old and new in turn, twice each
// (the command above):
//   before  SDSC-BLUE:      easy 0.50 0.51, conservative 0.83 0.83 s (1.66 1.65 x EASY)
//           SDSC-BLUE x0.8: easy 0.79 0.79, conservative 2.34 2.34 s (2.95 2.95 x EASY)
//   after   SDSC-BLUE:      easy 0.50 0.50, conservative 0.80 0.80 s (1.59 1.60 x EASY)
//           SDSC-BLUE x0.8: easy 0.79 0.79, conservative 2.21 2.20 s (2.80 2.79 x EASY)
// Whole process, each case alone, new vs old in turn (farm-bench -n 5 --vs OLD -- NEW): x0.8
// 0.952 (0.943-0.963), x1.0 0.975 (0.968-0.986). The x0.8 target (3 x) is met with ~7 % to
// spare (the 2.7 x aimed at is not reached). What changed (sched/compressing.hpp): 89 % of the
// moves go into a window overlapping the old one; a search accepts the fit once its scan meets
// the job's own window (P >= 0 there) and the move shifts only the parts not shared (0.966,
// then 0.991 for the new end found by a scan); the candidates before the own window read their
// counts as they are (0.992).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/heap.hpp"

using namespace allocsim;

namespace {

const std::vector<std::string> kSchedulers{"easy", "conservative", "conservative:replan=full"};
const std::vector<std::string> kCases{"SDSC-BLUE", "SDSC-BLUE x0.8"};

std::string trace_dir() {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  return dir ? dir : "";
}

RunConfig case_config(std::size_t which) {
  RunConfig config;
  config.alloc = "flat";
  config.machine = "mesh:36x32";
  config.trace = "SDSC-BLUE-2000-4.2-cln";
  if (which == 1) config.transforms = {"arrival_scale:factor=0.8"};
  return config;
}

const Workload& base_workload(std::size_t which) {
  static std::map<std::size_t, Workload> loaded;  // one parse per case and process
  auto found = loaded.find(which);
  if (found == loaded.end())
    found = loaded.emplace(which, load_workload(case_config(which), trace_dir())).first;
  return found->second;
}

void Run(benchmark::State& state, std::size_t which, const std::string& sched) {
  if (trace_dir().empty()) return state.SkipWithError("ALLOCSIM_TRACE_DIR not set");
  RunConfig config = case_config(which);
  config.sched = sched;
  const Workload& base = base_workload(which);
  double jobs = 0, wait = 0;
  for (auto _ : state) {
    const RunResult result = simulate(config, base);
    jobs = result.summary.jobs;
    wait = result.summary.mean_wait;
  }
  state.counters["jobs"] = jobs;
  state.counters["mean_wait"] = wait;
}

/// Keeps every run's CPU time; at the end prints medians and ratios to EASY per case.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs)
      if (run.run_type == Run::RT_Iteration && run.iterations > 0 && !run.error_occurred)
        seconds_[run.run_name.function_name].push_back(run.GetAdjustedCPUTime() / 1e3);
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    auto median = [&](const std::string& name) {
      std::vector<double> v = seconds_[name];
      if (v.empty()) return 0.0;
      std::sort(v.begin(), v.end());
      return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    };
    for (const std::string& name : kCases) {
      const double easy = median(name + "/easy");
      if (easy <= 0) continue;
      std::printf("\n%s: median CPU seconds (runs) and ratio to easy\n", name.c_str());
      for (const std::string& sched : kSchedulers) {
        const std::string key = name + "/" + sched;
        if (seconds_[key].empty()) continue;  // filtered out of this run
        std::printf("  %-26s %8.2f s (%zu)  %6.2f x\n", sched.c_str(), median(key),
                    seconds_[key].size(), median(key) / easy);
      }
    }
  }

 private:
  std::map<std::string, std::vector<double>> seconds_;
};

}  // namespace

int main(int argc, char** argv) {
  keep_freed_memory_for_reuse();
  for (std::size_t which = 0; which < kCases.size(); ++which)
    for (const std::string& sched : kSchedulers)
      benchmark::RegisterBenchmark((kCases[which] + "/" + sched).c_str(),
                                   [which, sched](benchmark::State& s) { Run(s, which, sched); })
          ->Unit(benchmark::kMillisecond)
          ->Iterations(1);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
