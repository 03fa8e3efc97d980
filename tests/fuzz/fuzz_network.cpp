// Fuzz target: network-model specs (issue 25). The first byte picks a tiny machine, the second
// a job pattern (none, ring, alltoall), the rest is a runtime-model spec (`wormhole:plen=...`),
// run on that machine with a fixed set of small jobs. Any input must run or raise InputError;
// a run must give finite, ordered times. Wormhole specs whose estimated cost
// (wormhole_cost) is over a small bound are only resolved, not run, so every input stays fast.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "allocsim/sim/network_runtime.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"

namespace {

using namespace allocsim;

/// Network events a fuzzed run may take: about 0.3 s under ASan on a quiet core, so a loaded
/// machine stays far below libFuzzer's per-input limit (-timeout=10, which catches hangs).
constexpr double kMaxEvents = 2e5;

std::vector<Job> tiny_jobs() {
  std::vector<Job> jobs;
  const int procs[] = {1, 2, 3, 4, 8, 2, 5};
  for (int i = 0; i < 7; ++i) {
    Job job;
    job.id = i + 1;
    job.submit = i * 2.5;
    job.procs = procs[i];
    job.runtime = 1 + 7 * i;
    job.estimate = job.runtime * 2;
    jobs.push_back(job);
  }
  return jobs;
}

/// False for a wormhole spec too costly to run here (its params as the registry builds them).
bool small_enough(const std::string& spec, const Topology& machine, const std::vector<Job>& jobs) {
  auto [entry, params] = runtime_model_registry().resolve(spec);
  if (entry->name != "wormhole") return true;
  WormholeRuntimeParams p;
  p.plen = static_cast<int>(params.integer("plen"));
  p.num_mes = params.real("num_mes");
  p.fixed_count = params.text("count") == "fixed";
  const WormholeCost cost = wormhole_cost(p, machine, jobs);
  return cost.events <= kMaxEvents && cost.bytes <= 1e8;
}

void check_result(const RunResult& result) {
  if (!std::isfinite(result.summary.makespan)) std::abort();
  for (const JobRecord& record : result.jobs)
    if (!std::isfinite(record.start) || !std::isfinite(record.end) || record.end < record.start ||
        !std::isfinite(record.comm_slowdown))
      std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  static const char* const kMachines[] = {"mesh:4x4", "torus:4x4", "mesh:2x2x2",
                                          "flat:8",   "mesh:8",    "torus:3x3"};
  static const char* const kPatterns[] = {"", "ring", "alltoall"};
  RunConfig config;
  config.machine = kMachines[data[0] % 6];
  config.pattern = kPatterns[data[1] % 3];
  config.runtime_model.assign(reinterpret_cast<const char*>(data) + 2, size - 2);
  config.keep_jobs = true;
  // No wall-clock --timeout: its expiry depends on the machine's load (a loaded machine once
  // turned a 1.7 s input into a TimeoutError); libFuzzer's -timeout catches a real hang.
  try {
    const Topology machine = Topology::parse(config.machine);
    Workload workload;
    workload.jobs = tiny_jobs();
    if (!small_enough(config.runtime_model, machine, workload.jobs)) return 0;
    Simulation simulation(config, std::move(workload));
    check_result(simulation.run());
  } catch (const InputError&) {
  }
  return 0;
}
