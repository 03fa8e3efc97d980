// `allocsim list [family]`: prints the registry tables.
#include <iostream>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {
void list(const std::string& family, const std::string& machine) {
  const std::vector<std::string> families{"allocators", "schedulers",     "topologies", "orderings",
                                          "transforms", "runtime-models", "workloads"};
  bool all = family.empty();
  bool known = all;
  auto want = [&](const char* name) {
    const bool match = all || family == name;
    known |= match;
    return match;
  };
  if (want("allocators")) std::cout << allocator_registry().describe() << '\n';
  if (want("schedulers")) std::cout << scheduler_registry().describe() << '\n';
  if (want("topologies")) std::cout << topology_registry().describe() << '\n';
  if (want("orderings")) {
    std::cout << ordering_registry().describe() << '\n';
    if (!all) std::cout << describe_orderings(Topology::parse(machine)) << '\n';
  }
  if (want("transforms")) std::cout << transform_registry().describe() << '\n';
  if (want("runtime-models")) std::cout << runtime_model_registry().describe() << '\n';
  if (want("workloads"))
    std::cout << describe_registry("workload", {"synthetic"},
                                   {"seeded synthetic job stream (also: a trace path or NAME)"},
                                   {synthetic_params()})
              << '\n';
  if (!known) {
    std::string message = "unknown family '" + family + "'";
    const std::string suggestion = closest_match(family, families);
    if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
    message += "; valid families:";
    for (const auto& f : families) message += " " + f;
    throw InputError(message);
  }
}
}  // namespace

void add_list_command(CLI::App& app) {
  auto family = std::make_shared<std::string>();
  auto machine = std::make_shared<std::string>("mesh:16x16");
  auto* command = app.add_subcommand("list", "print the tables of allocators, schedulers, ...");
  command->add_option(
      "family", *family,
      "allocators | schedulers | topologies | orderings | transforms | runtime-models | workloads");
  command->add_option("--machine", *machine, "machine for per-machine figures (orderings)");
  command->callback([family, machine] { list(*family, *machine); });
}

}  // namespace allocsim::cli
