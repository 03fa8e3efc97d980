#pragma once
// Dragonfly machines (Kim, Dally, Scott, Abts, ISCA 2008); spec `dragonfly:p=..,a=..,h=..`
// (parameters: topology_registry.cpp).
#include <memory>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/util/spec.hpp"

namespace allocsim {

/// Builds the dragonfly of the registry entry's validated parameters; throws InputError when
/// they do not make one (g beyond a·h + 1, more than kMaxNodesWithoutOverride nodes without
/// `allow_large`).
std::shared_ptr<const GraphMachine> make_dragonfly(const Params& params, bool allow_large);

}  // namespace allocsim
