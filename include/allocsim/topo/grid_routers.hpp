#pragma once
// Grids with several compute nodes per router (`torus:8x8:per_router=2`): the routers form the
// grid, each with per_router nodes attached.
#include <memory>

#include "allocsim/topo/graph_machine.hpp"

namespace allocsim {

class Topology;

/// The graph machine of `routers` (a mesh or torus) with `per_router` nodes on each router.
std::shared_ptr<const GraphMachine> make_grid_routers(const Topology& routers, int per_router,
                                                      bool allow_large);

}  // namespace allocsim
