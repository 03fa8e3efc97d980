// Placeholder until the Slurm topology reader lands.
#include "allocsim/topo/slurm_topology.hpp"

#include "allocsim/util/error.hpp"

namespace allocsim {
std::shared_ptr<const GraphMachine> make_slurm_topology(const std::string& path) {
  throw InputError(path + ": slurm-topology not built yet");
}
}  // namespace allocsim
