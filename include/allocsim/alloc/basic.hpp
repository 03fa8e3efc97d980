#pragma once
// Topology-oblivious baselines: `random` (seeded), `sortedfreelist:order=row|snake` (Cplant's
// baseline: first p free processors in that order), `flat` (any p free processors).
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends the rows of the basic allocators to the allocator table.
void append_basic_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// Node order used by sortedfreelist: row-major (ids as numbered) or snake (boustrophedon in
/// every dimension). Returns rank -> node id.
std::vector<NodeId> snake_order(const Topology& topology);

}  // namespace allocsim
