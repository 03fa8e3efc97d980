#pragma once
// Scotch (Debian's libscotch-dev) as an independent static-mapping baseline: the task graph is
// mapped onto Scotch's torus (every axis wraps), mesh (no axis wraps; a semitorus is treated as
// a mesh) or complete-graph target architecture, restricted to the given processors with
// SCOTCH_archSub; on a graph machine (dragonfly, fat tree, ...) onto a decomposition-defined
// architecture built from the machine's graph (nodes and switches as vertices, links as edges)
// whose terminals are the given processors (SCOTCH_archBuild2). Scotch balances load but may put
// two tasks on one processor; such clashes are repaired deterministically — the lowest task id
// keeps the processor, the others (in id order) go to the free processor with the least hop-bytes
// to their already placed neighbours (ties: earlier in the processor list). Seeded through a
// private Scotch context with one thread and the deterministic option, so the result depends only
// on the seed drawn from the run's Rng. Cost: Scotch's dual recursive bipartitioning, roughly O(|E|
// log p), plus O(clashes·p·δ).
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_scotch_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

}  // namespace allocsim::mapping
