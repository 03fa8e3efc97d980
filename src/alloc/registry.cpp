// The allocator table: one row per allocator, used by `allocsim list allocators`, by spec
// validation and by error messages. Each family appends its rows from its own file; a new family
// adds one append_* line here (there is no self-registration). Every allocator's allocate() is a
// const, pure choice (see alloc/allocator.hpp).
#include "allocsim/alloc/basic.hpp"
#include "allocsim/alloc/comm_aware.hpp"
#include "allocsim/alloc/curve.hpp"
#include "allocsim/alloc/mesh2d.hpp"
#include "allocsim/alloc/subtorus.hpp"

namespace allocsim {

namespace {
std::vector<RegistryEntry<AllocatorFactory>> allocator_entries() {
  std::vector<RegistryEntry<AllocatorFactory>> entries;
  append_basic_allocators(entries);       // random, sortedfreelist, flat (alloc/basic.cpp)
  append_comm_aware_allocators(entries);  // mm genalg mc1x1 mc mm-inc greedy-optimal ptas
  // Further families append their rows here, each from its own file:
  append_curve_allocators(entries);     // curve (alloc/curve.cpp)
  append_subtorus_allocators(entries);  // subtorus (alloc/subtorus_allocator.cpp)
  append_mesh2d_allocators(entries);    // submesh buddy2d paging mbs anca gabl (alloc/mesh2d.cpp)
  return entries;
}
}  // namespace

const AllocatorRegistry& allocator_registry() {
  static const AllocatorRegistry registry("allocator", allocator_entries());
  return registry;
}

std::unique_ptr<Allocator> make_allocator(const std::string& spec, const Topology& topology) {
  auto [entry, params] = allocator_registry().resolve(spec);
  return entry->factory(params, topology);
}

}  // namespace allocsim
