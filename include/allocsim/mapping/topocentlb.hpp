#pragma once
// TopoCentLB (Agarwal, Sharma and Kalé §4.5; Baba et al.'s (P3, P4) scheme): start with the most
// communicating task; then repeatedly take the unplaced task with the most bytes to placed
// tasks (a max-heap with lazy deletion) and put it on the free processor with the least
// hop-bytes to its placed neighbours (the first-order estimate of §4.3).
//
// Complexity: O(log n) per heap operation, O(p·δ(t)) to choose each processor, so
// O(p·|E| + |E| log n) in all, with O(n + p²) memory only for the mean-distance tie-breaker.
// Ties: tasks by more bytes to placed tasks, then more total communication, then lower id;
// processors by lower hop-bytes, then lower mean distance to the other processors (so the
// first task lands in the middle of a mesh), then earlier position in the processor list.
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_topocentlb_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

}  // namespace allocsim::mapping
