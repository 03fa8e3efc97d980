#pragma once
// Fat trees: k-ary three-level (Al-Fares et al., SIGCOMM 2008) and XGFT(M; W); spec
// `fattree:k=K` or `fattree:down=..,up=..` (parameters: topology_registry.cpp).
#include <memory>

#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/util/spec.hpp"

namespace allocsim {

/// Builds the fat tree of the registry entry's validated parameters; throws InputError when
/// they do not make one.
std::shared_ptr<const GraphMachine> make_fattree(const Params& params, bool allow_large);

}  // namespace allocsim
