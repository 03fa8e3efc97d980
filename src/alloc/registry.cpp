// The allocator table: one row per allocator, used by `allocsim list allocators`, by spec
// validation and by error messages. Each family appends its rows from its own file; a new family
// adds one append_* line here (there is no self-registration). Every allocator's allocate() is a
// const, pure choice (see alloc/allocator.hpp).
#include "allocsim/alloc/basic.hpp"
#include "allocsim/alloc/comm_aware.hpp"
#include "allocsim/alloc/curve.hpp"
#include "allocsim/alloc/graph_alloc.hpp"
#include "allocsim/alloc/mesh2d.hpp"
#include "allocsim/alloc/slurm_select.hpp"
#include "allocsim/alloc/submesh3d.hpp"
#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {
std::vector<RegistryEntry<AllocatorFactory>> allocator_entries() {
  std::vector<RegistryEntry<AllocatorFactory>> entries;
  append_basic_allocators(entries);       // random, sortedfreelist, flat (alloc/basic.cpp)
  append_comm_aware_allocators(entries);  // mm genalg mc1x1 mc mm-inc greedy-optimal ptas
  // Further families append their rows here, each from its own file:
  append_curve_allocators(entries);      // curve (alloc/curve.cpp)
  append_subtorus_allocators(entries);   // subtorus (alloc/subtorus_allocator.cpp)
  append_mesh2d_allocators(entries);     // submesh buddy2d paging mbs anca gabl (alloc/mesh2d.cpp)
  append_submesh3d_allocators(entries);  // submesh3d (alloc/submesh3d.cpp)
  append_graph_allocators(entries);  // simple dfly-* level-spread jokanovic nearest (graph_alloc)
  append_slurm_allocators(entries);  // slurm-tree slurm-dragonfly slurm-block (slurm_select)
  return entries;
}

/// Processor orderings typed as allocators (`--alloc hilbert`) suggest the curve allocator.
std::vector<std::pair<std::string, std::string>> allocator_hints() {
  std::vector<std::pair<std::string, std::string>> hints;
  for (const std::string& name : ordering_registry().names())
    hints.emplace_back(name, "curve:order=" + name);
  return hints;
}

/// Names of the allocators whose default spec builds on `topology` (for refusal messages).
std::vector<std::string> allocators_supporting(const Topology& topology) {
  std::vector<std::string> names;
  for (const auto& entry : allocator_registry().entries()) {
    try {
      auto [found, params] = allocator_registry().resolve(entry.name);
      found->factory(params, topology);
      names.push_back(entry.name);
    } catch (const InputError&) {
    }
  }
  return names;
}
}  // namespace

const AllocatorRegistry& allocator_registry() {
  static const AllocatorRegistry registry("allocator", allocator_entries(), allocator_hints());
  return registry;
}

std::unique_ptr<Allocator> make_allocator(const std::string& spec, const Topology& topology) {
  auto [entry, params] = allocator_registry().resolve(spec);
  try {
    return entry->factory(params, topology);
  } catch (const InputError& refusal) {
    // A machine the allocator does not support (a 2D-only allocator on a 3D machine, ...):
    // name those that do.
    std::string message = refusal.what();
    const std::vector<std::string> supporting = allocators_supporting(topology);
    if (supporting.empty()) throw;
    if (!message.empty() && message.back() != '.') message += '.';
    message += " Allocators that work on " + topology.spec() + ":";
    for (const std::string& name : supporting) message += " " + name;
    throw InputError(message + ".");
  }
}

}  // namespace allocsim
