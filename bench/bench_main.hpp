#pragma once
// The common end of every benchmark program's main().
#include <benchmark/benchmark.h>

#include "allocsim/util/heap.hpp"

namespace allocsim::bench {

/// Runs the registered benchmarks as the allocsim binary runs configs: many runs in one process
/// that reuse freed memory (util/heap.hpp). Returns main's exit status.
inline int run_benchmarks(int argc, char** argv) {
  keep_freed_memory_for_reuse();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace allocsim::bench
