#pragma once
// The `distance` runtime model: SST's time-per-distance form (the SST scheduler's
// `timeperdistance` parameter), for comparison with the flow and wormhole models (issue "flow
// and wormhole network models", item 3):
//
//   runtime = T · (1 + a·H^e) / (1 + a·H0^e)
//
// T the trace runtime, H the job's mean pairwise hop distance over its unordered node pairs
// (the wrap-aware distance of the topology; metrics' pairwise_hop_sum / (k(k−1)/2)), H0 the same
// for the reference compact allocation of its size (reference_compact_nodes). A job of one
// node has H = H0 = 0 and runs T. The model has no contention: only a job's own spread counts.
#include <cmath>

namespace allocsim {

/// Coefficients of the distance model.
struct DistanceModelParams {
  double a = 0.1;  ///< weight of the distance term
  double e = 1.0;  ///< exponent of the mean hop distance
};

/// T·(1 + a·H^e)/(1 + a·H0^e); O(1).
inline double distance_model_runtime(double trace_runtime, double mean_hops,
                                     double reference_mean_hops, const DistanceModelParams& p) {
  return trace_runtime * (1 + p.a * std::pow(mean_hops, p.e)) /
         (1 + p.a * std::pow(reference_mean_hops, p.e));
}

}  // namespace allocsim
