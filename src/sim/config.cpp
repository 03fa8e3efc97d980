#include "allocsim/sim/config.hpp"

#include <charconv>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

namespace {
std::string shortest(double value) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, end);
}

std::string canonical_trace(const std::string& trace) {
  if (trace.rfind("synthetic:", 0) != 0) return trace;
  const AlgoSpec spec = AlgoSpec::parse(trace);
  return "synthetic:" + Params(synthetic_params(), spec.params, "synthetic workload").canonical();
}
}  // namespace

std::string RunConfig::canonical() const {
  std::string text = "machine=" + Topology::parse(machine).spec();
  text += ";trace=" + canonical_trace(trace);
  text += ";sched=" + scheduler_registry().canonical(sched);
  text += ";alloc=" + allocator_registry().canonical(alloc);
  text += ";transforms=[";
  for (std::size_t i = 0; i < transforms.size(); ++i)
    text += (i ? " | " : "") + transform_registry().canonical(transforms[i]);
  text += "];runtime_model=" + runtime_model_registry().canonical(runtime_model);
  text += ";bsd_threshold=" + shortest(bsd_threshold);
  text += ";estimate_factor=" + shortest(estimate_factor);
  text += std::string(";strict=") + (strict ? "1" : "0");
  if (!decisions.empty()) {
    text += ";decisions=[";
    for (std::size_t i = 0; i < decisions.size(); ++i)
      text += (i ? " | " : "") + allocator_registry().canonical(decisions[i]);
    text += "]";
  }
  return text;
}

}  // namespace allocsim
