#pragma once
// TopoLB (Agarwal, Sharma and Kalé §4.1–4.4): place tasks one at a time, always the task whose
// placement is most critical — the largest gap between its expected cost on an arbitrary free
// processor and its cost on its best free processor — on that best processor.
//
// Estimation function f_est(t, q) (§4.3), for task t on free processor q:
//   order 1: Σ over placed neighbours j of c_tj·d(q, P(j));
//   order 2: order 1 + (bytes to unplaced neighbours)·(mean distance from q to all processors);
//   order 3: order 1 + (bytes to unplaced neighbours)·(mean distance from q to free processors).
// Internally every f_est is scaled by a positive per-step constant (p for order 2, the free
// count for order 3) so that, with integer bytes, every comparison is exact integer arithmetic.
//
// Table (§4.4): A[t][q] = the placed-neighbour part, an n×p table of doubles (8·n·p bytes:
// 134 MB at p = 4,096), updated incrementally — placing t_k on q_k adds c·d(q, q_k) to the
// rows of t_k's unplaced neighbours only (O(p) each) and removes column q_k from the running
// sums of the tasks that already have a placed neighbour ("frontier"). Tasks with no placed
// neighbour share one closed form (their best processor is the free one with least mean
// distance), so each step costs O(p·δ(t_k) + frontier) and the whole run O(p·|E| + n·frontier)
// for orders 1 and 2; order 3 rescans every frontier task each step, O(n·p·frontier) worst.
//
// Gain (Algorithm 1, §4.2, taken literally): Σ_free f_est(t, q) / (n − k) − min_free f_est(t, q),
// where n − k is one less than the free count (§4.4's FAvg − FMin divides by the free count;
// the two differ by Σ f_est / ((n − k)(n − k + 1)), which favours the task with more unplaced
// bytes when FAvg − FMin ties, as it often does on a regular stencil). At the last step one task
// is left and taken.
// Ties, as Algorithm 1's strict comparisons: the lowest task id among equal gains, the earliest
// processor in the list among equal costs. No randomness.
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_topolb_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

}  // namespace allocsim::mapping
