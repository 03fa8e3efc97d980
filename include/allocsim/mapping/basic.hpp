#pragma once
// Reference mappers. `identity`: task i on the i-th processor in the allocator's order, O(n).
// `random`: a uniformly random injective placement (Fisher–Yates over the processor list with
// the run's Rng), O(p). On a torus of side k per axis its expected hops per byte is
// Σ_axes E|ring distance| × p/(p−1) (§5.2.1: √p/2 on 2D tori, 3∛p/4 on 3D tori).
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_basic_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

/// Expected hops per byte of a random permutation mapping onto a whole machine (for every edge
/// between distinct tasks): the mean distance between two distinct random nodes. Grids: per
/// axis, as above; flat: 1; graph machines: exact, aggregated per router pair.
double random_mapping_expectation(const Topology& topology);

}  // namespace allocsim::mapping
