#pragma once
// Runtime models backed by the network layer (issue "flow and wormhole network models"):
// `flow` (max-min fair link sharing among running jobs, network/flow_model.hpp) and `distance`
// (SST's time-per-distance form, network/distance_model.hpp). The registry rows are in
// runtime_model.cpp.
#include <memory>
#include <span>

#include "allocsim/network/distance_model.hpp"
#include "allocsim/sim/runtime_model.hpp"

namespace allocsim {

/// The nodes a job's tasks run on: the first min(procs, |nodes|) nodes of its allocation, in
/// the allocator's order (block allocators' excess nodes stay idle).
std::span<const NodeId> task_nodes(const Job& job, const Allocation& allocation);

/// `flow`: work = trace runtime; after every start and end all running jobs are re-rated to
/// 1 / ((1 − comm) + comm·s) with s their max-min fair communication slowdown.
/// Cost per start or end: one FlowNetwork::solve over the running jobs.
std::unique_ptr<RuntimeModel> make_flow_runtime(double comm);

/// `distance`: runtime T·(1 + a·H^e)/(1 + a·H0^e), fixed at start (no re-rating).
/// Cost per start O(k·d + Σ sides) (pairwise_hop_sum), the reference once per job size.
std::unique_ptr<RuntimeModel> make_distance_runtime(DistanceModelParams params);

}  // namespace allocsim
