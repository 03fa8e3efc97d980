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
// Gain (§4.4): "we maintain the minimum and average value of f_est for each unassigned task
// over all unassigned processors. Let us call these arrays FMIn[t] and FAvg[t], respectively.
// In the k-th iteration we need to select the unassigned task t_k, which maximizes the value
// of FAvg[t] − FMIn[t]." So gain = Σ_free f_est(t, q) / F − min_free f_est(t, q), F the free
// count (the authors' CHARM++ TopoLB.C divides the running total by the processors left, too).
// Algorithm 1's box prints the divisor n − k = F − 1, which is not an average and divides by
// zero at k = n; it would add Σ f_est / (F(F − 1)) to each gain, i.e. favour tasks whose least
// cost is large. Compared multiplied by F: F·gain = Σ f_est − F·min f_est (exact in integers).
// Ties, as Algorithm 1's strict comparisons: the lowest task id among equal gains, the earliest
// processor in the list among equal costs. No randomness.
#include <vector>

#include "allocsim/mapping/mapper.hpp"

namespace allocsim::mapping {

void append_topolb_mappers(std::vector<RegistryEntry<MapperFactory>>& entries);

}  // namespace allocsim::mapping
