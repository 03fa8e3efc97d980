#pragma once
// Swap refinement after any mapper, like Charm++'s RefineTopoLB (Agarwal, Sharma and Kalé
// §5.2.3): move a task to another processor — swapping with the task there, if any — only when
// the total hop-bytes strictly drop. Passes visit tasks in id order; each task takes its best
// strictly improving move (ties: earlier position in the processor list). Passes repeat until
// one makes no move or `passes` is reached, so hop-bytes never increase.
//
// Candidates: `scope=near` tries the processors of the task's neighbours and their direct
// topology neighbours, O(δ·(2d+1)) candidates of O(δ) each, so a pass costs O(|E|·δ·d);
// `scope=all` tries every processor, O(n·p·δ) per pass.
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_refine_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

}  // namespace allocsim::mapping
