// `allocsim list orderings --machine SPEC`: the ordering table with each ordering's quality
// figures on that machine (Leung et al., CLUSTER 2002, curve orderings: close on the curve should
// mean close in the network). Called by the `list` command.
#include <cstdio>
#include <sstream>

#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

std::string describe_orderings(const Topology& machine) {
  std::ostringstream out;
  out << "orderings on " << machine.spec() << " (" << machine.node_count() << " nodes)\n"
      << "  max step  = largest hop distance between consecutive nodes (wrap links count on a "
         "torus)\n"
      << "  mean step = mean hop distance between consecutive nodes\n"
      << "  locality  = sum over k=1.." << kLocalityMaxOffset
      << " of 2^-k * sum_i dist(node i, node i+k) (lower is better), and per node\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-10s %8s %9s %14s %9s  %s\n", "name", "max step", "mean step",
                "locality", "per node", "summary");
  out << line;
  for (const auto& entry : ordering_registry().entries()) {
    bool needs_value = false;
    for (const auto& param : entry.params) needs_value |= param.default_value.empty();
    if (needs_value) {
      std::string keys;
      for (const auto& param : entry.params) keys += (keys.empty() ? "" : ",") + param.key + "=...";
      std::snprintf(line, sizeof line, "%-10s %8s %9s %14s %9s  ", entry.name.c_str(), "-", "-",
                    "-", "-");
      out << line << entry.summary << " [" << entry.name << ':' << keys << "]\n";
      continue;
    }
    try {
      const std::vector<NodeId> order = make_ordering(entry.name, machine);
      const OrderingQuality quality = ordering_quality(machine, order);
      std::snprintf(line, sizeof line, "%-10s %8d %9.3f %14.1f %9.3f  ", entry.name.c_str(),
                    quality.max_step, quality.mean_step, quality.locality,
                    quality.locality_per_node);
      out << line << entry.summary << '\n';
    } catch (const InputError& error) {
      std::snprintf(line, sizeof line, "%-10s ", entry.name.c_str());
      out << line << "unavailable: " << error.what() << '\n';
    }
  }
  return out.str();
}

}  // namespace allocsim
