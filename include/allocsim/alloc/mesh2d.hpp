#pragma once
// The 2D mesh allocator family of Bani-Mohammad et al.'s GABL study: contiguous `submesh`
// (First / Best Fit) and `buddy2d`, non-contiguous `paging`, `mbs`, `anca` and `gabl`.
// Classes: alloc/submesh.hpp, alloc/mesh2d_buddy.hpp, alloc/mesh2d_paging.hpp,
// alloc/mesh2d_gabl.hpp.
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends the rows submesh, buddy2d, paging, mbs, anca and gabl to the allocator table.
/// Every factory throws InputError unless the machine is a 2D mesh (buddy2d: square, sides a
/// power of two; paging: sides multiples of the page side).
void append_mesh2d_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

}  // namespace allocsim
