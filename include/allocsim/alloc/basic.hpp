#pragma once
// Topology-oblivious baselines: `random` (seeded),
// `sortedfreelist:order=row|snake|hilbert|ghilbert` (Cplant's baseline: first p free processors in
// that order), `flat` (any p free processors).
#include <memory>
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends the rows of the basic allocators to the allocator table.
void append_basic_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// The `flat` allocator (the p lowest free ids); also SST's `simple` row (alloc/graph_alloc.hpp).
std::unique_ptr<Allocator> make_flat_allocator();

}  // namespace allocsim
