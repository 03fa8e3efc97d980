// `allocsim list [family]`: prints the registry tables.
#include <algorithm>
#include <iostream>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {
/// The config field table: name, type, default and help of every RunConfig field.
std::string describe_fields() {
  std::string out = "config fields (experiment-file keys, /configs columns):\n";
  const RunConfig defaults;
  for (const auto& field : config_fields()) {
    std::string head = "  " + std::string(field.name);
    head.resize(std::max<std::size_t>(head.size() + 1, 18), ' ');
    const std::string value = field_text(defaults, field);
    out += head + field_type_text(field.type()) + ", default " + (value.empty() ? "none" : value) +
           (*field.unit ? std::string(" ") + field.unit : std::string()) +
           (field.role == FieldRole::derived ? ", set by the sweep" : "") + "\n" +
           std::string(18, ' ') + field.help + "\n";
  }
  return out;
}

void list(const std::string& family, const std::string& machine) {
  const std::vector<std::string> families{"allocators", "schedulers",     "topologies", "orderings",
                                          "transforms", "runtime-models", "workloads",  "fields",
                                          "mappers",    "patterns"};
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
  if (want("mappers")) std::cout << mapping::mapper_registry().describe() << '\n';
  if (want("patterns")) std::cout << mapping::pattern_registry().describe() << '\n';
  if (want("workloads"))
    std::cout << describe_registry("workload", {"synthetic"},
                                   {"seeded synthetic job stream (also: a trace path or NAME)"},
                                   {synthetic_params()})
              << '\n';
  if (family == "fields") {  // not part of the full listing
    std::cout << describe_fields();
    known = true;
  }
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
      "allocators | schedulers | topologies | orderings | transforms | runtime-models | workloads "
      "| fields | mappers | patterns");
  command->add_option("--machine", *machine, "machine for per-machine figures (orderings)");
  command->callback([family, machine] { list(*family, *machine); });
}

}  // namespace allocsim::cli
