// Placeholder until the grid-with-routers builder lands.
#include "allocsim/topo/grid_routers.hpp"

#include "allocsim/util/error.hpp"

namespace allocsim {
std::shared_ptr<const GraphMachine> make_grid_routers(const Topology&, int, bool) {
  throw InputError("per_router: not built yet");
}
}  // namespace allocsim
