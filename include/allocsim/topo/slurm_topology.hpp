#pragma once
// A cluster described by Slurm's topology.conf or topology.yaml; spec `slurm-topology:FILE`.
#include <memory>
#include <string>

#include "allocsim/topo/graph_machine.hpp"

namespace allocsim {

/// Reads `path`; throws InputError naming `path:line`, the field and what was expected.
std::shared_ptr<const GraphMachine> make_slurm_topology(const std::string& path);

}  // namespace allocsim
