#pragma once
// The table of machine topologies, like the other families: each entry has a name, a one-line
// summary, its parameters and a factory. A machine spec is, by the entry's form:
//   grids     `KIND:WxH[x...][:key=value,...]`: sides first, then parameters (mesh:16x16,
//             torus:8x8:per_router=2);
//   graphs    `KIND:key=value,...` (dragonfly:p=2,a=4,h=2, fattree:k=4);
//   files     `KIND:PATH` (slurm-topology:topology.conf).
//
// Adding a kind is one entry here and a GraphMachine subclass (topo/graph_machine.hpp); callers
// only use Topology's interface and its capability queries.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/registry.hpp"

namespace allocsim {

/// How the text after `KIND:` reads (see the file comment).
enum class MachineSpecForm { sides, parameters, file };

/// What a factory gets: the sides (form `sides`, already checked positive and small enough),
/// the validated parameters (forms `sides` and `parameters`) or the file's path (form `file`).
struct MachineArgs {
  std::vector<int> sides;
  Params params;
  std::string file;
  /// `allow_large=1` was given: graph builders refuse more than kMaxNodesWithoutOverride nodes
  /// without it, before allocating anything.
  bool allow_large = false;
};

/// Builds a topology from its spec's parts; throws InputError with the reason when they do not
/// fit the kind.
struct TopologyFactory {
  MachineSpecForm form = MachineSpecForm::sides;
  std::function<Topology(const MachineArgs&)> build;
};
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
