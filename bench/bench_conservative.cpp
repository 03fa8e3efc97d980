// Conservative backfilling with compression against EASY and against the re-planning scheduler
// (conservative:replan=full), whole-trace runs in one process (needs $ALLOCSIM_TRACE_DIR;
// skipped without it). The trace is read once per case; parsing is not timed.
// - SDSC-BLUE on mesh:36x32, flat allocator (target, issue 28: conservative <= 2 x EASY);
// - the same with arrival_scale:factor=0.8 (target: conservative <= 3 x EASY).
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
// Then (2026-11-29, branch wt-conserv2, same machine, load ~2-8; before = main at 2a4f654):
//   before  SDSC-BLUE:      easy 0.56, conservative 1.23 (2.19 x), replan=full 1.24 (2.21 x)
//           SDSC-BLUE x0.8: easy 0.84, conservative 5.28 (6.25 x), replan=full 23.58 (27.92 x)
//   after   SDSC-BLUE:      easy 0.57, conservative 1.30 (2.27 x), replan=full 1.35 (2.35 x)
//           SDSC-BLUE x0.8: easy 0.89, conservative 5.21 (5.87 x), replan=full 23.80 (26.81 x)
// The noise is larger than the change on SDSC-BLUE: the same binaries run twice more in turn
// (easy and conservative only) gave conservative 1.23 / 1.35 s before and 1.28 / 1.27 s after
// (2.00 to 2.37 x EASY for one binary), and at x0.8 5.27 / 5.62 s before against 5.13 / 5.23 s
// after; paired runs of `allocsim run` at x0.8, user time: 5.7-5.8 s before, 5.1 s after.
// The targets (2 x and 3 x) are still NOT met. What changed: 68.5 M of the 85 M revisits at
// x0.8 (3.6 M of 7.6 M on SDSC-BLUE) are of settled jobs past the reach of every logged gain;
// those are now asked of a staircase of the failures from that reach on (about 4 pairs, no
// starts) and skipped in a row while it dominates them, with a prefetch a few jobs ahead
// (~4 %); each reservation's record on one cache line (~3 %); compaction merges instead of
// sorting and bisecting (~3 %) (paired `allocsim run` user times at x0.8).
// Then (2026-11-29, branch wt-cons, same machine, load ~2-3; before = main at 97c5d45). Easy
// and conservative only, four runs of this program each, old and new in turn (all four shown:
// the first of each was the pairing's warm-up), each figure a run's median of 3:
//   ALLOCSIM_TRACE_DIR=../shared/traces build/bench/bench_conservative
//       --benchmark_repetitions=3 '--benchmark_filter=easy|conservative/it'
//   before  SDSC-BLUE:      conservative 1.24 1.28 1.31 1.28 s (2.17 2.21 2.18 2.27 x EASY)
//           SDSC-BLUE x0.8: conservative 5.26 5.09 5.38 5.32 s (5.86 5.75 4.41 6.22 x EASY)
//   after   SDSC-BLUE:      conservative 1.23 1.21 1.19 1.18 s (2.21 1.96 2.17 2.01 x EASY)
//           SDSC-BLUE x0.8: conservative 4.57 4.84 4.65 4.66 s (5.30 5.52 5.28 5.41 x EASY)
// (EASY itself ranged 0.55-0.61 s and 0.85-1.22 s over these runs: the ratios move with it.)
// Whole process, the two programs in turn (3 pairs): after/before CPU 0.908 (0.872-0.965).
// A whole run of this program (three schedulers) after: SDSC-BLUE easy 0.58, conservative
// 1.27 (2.22 x), replan=full 1.23 s; x0.8 easy 0.87, conservative 4.84 (5.56 x), replan=full
// 27.50 s (a noisier moment: 24.26 s in the run before). Mean waits and job counts printed:
// the same as before for all six cases.
// The targets (2 x and 3 x) are still NOT met: SDSC-BLUE about 2.0-2.2 x, x0.8 about 5.3-5.5 x.
// What changed (same schedules): the failure memo kept in start order, so that covered_until
// stops at the first dominating failure (~7 % at x0.8); the skip in a row past the gains'
// reach reads a dense array of slots, writes no settle stamps and asks first the staircase
// pair that dominated the job before; StepProfile::shift counts sign changes without a branch
// (move 10 % -> 7 % of x0.8 by perf); compaction at a quarter's growth.
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
