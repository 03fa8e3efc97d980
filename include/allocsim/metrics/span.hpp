#pragma once
// Span of an allocation along a linear processor ordering (Leung et al., CLUSTER 2002: the
// Cplant allocator's span measures). Ranks are positions in the ordering.
#include <span>

namespace allocsim {

/// Linear span of a set of ranks: max rank - min rank + 1 (0 for an empty set). Any order.
double linear_span(std::span<const int> ranks);
/// Ring span of a set of ranks on a cycle of `total` ranks: total minus the largest gap of ranks
/// outside the set, counting the gap that wraps from the last rank to the first (the length of
/// the shortest arc holding every rank). Any order; 0 for an empty set.
double ring_span(std::span<const int> ranks, int total);

}  // namespace allocsim
