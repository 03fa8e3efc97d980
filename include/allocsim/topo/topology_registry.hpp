#pragma once
// The table of machine topologies (mesh, torus, semitorus, flat), like the other families:
// each entry has a name, a one-line summary, its parameters and a factory. A machine spec is
// `KIND:WxH[x...][:key=value,...]`; the sides come first, then the entry's parameters.
//
// Adding a grid variant is one entry here. A topology without grid coordinates (a fat tree, a
// dragonfly) also needs its own Topology::Kind with cases in distance(), for_each_neighbour(),
// is_link(), link(), route() and spec(); callers only use those and the capability queries.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim {

/// Builds a topology from its side lengths (already checked positive and small enough) and
/// validated parameters; throws InputError with the reason when they do not fit the kind.
using TopologyFactory = std::function<Topology(const std::vector<int>& sides, const Params&)>;
using TopologyRegistry = Registry<TopologyFactory>;

/// Simulations on machines of more nodes need the spec parameter `allow_large=1` (any kind,
/// e.g. `mesh:4000x4000:allow_large=1`), which Topology::parse accepts and ignores: a size
/// guard against specs that would take gigabytes before the first job.
constexpr long long kMaxNodesWithoutOverride = 10000000;
/// Memory a simulation takes per machine node (topology, allocator state, ordering), measured
/// on mesh:3000x3000 with mc1x1 (about 68 bytes; some allocators take more); used for the
/// estimate in the refusal.
constexpr double kBytesPerNode = 70;

/// The table of topologies (src/topo/topology_registry.cpp); `allocsim list topologies`.
const TopologyRegistry& topology_registry();

/// Throws InputError (bad machine, with a memory estimate) when `spec` has more than
/// kMaxNodesWithoutOverride nodes without `allow_large=1`; also every error of Topology::parse
/// about the kind, sides and parameter syntax. Called before a simulation builds its machine.
void check_machine_size(std::string_view spec);

/// Throws InputError "bad machine 'SPEC': WHY; accepted forms: ...".
[[noreturn]] void throw_bad_machine(std::string_view spec, const std::string& why);

}  // namespace allocsim
