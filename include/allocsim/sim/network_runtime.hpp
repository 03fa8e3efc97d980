#pragma once
// Runtime models backed by the network layer (issue "flow and wormhole network models"):
// `flow` (max-min fair link sharing among running jobs, network/flow_model.hpp) and `distance`
// (SST's time-per-distance form, network/distance_model.hpp). The registry rows are in
// runtime_model.cpp.
#include <memory>
#include <span>

#include "allocsim/network/distance_model.hpp"
#include "allocsim/network/flow_model.hpp"
#include "allocsim/sim/runtime_model.hpp"

namespace allocsim {

/// The nodes a job's tasks run on: the first min(procs, |nodes|) nodes of its allocation, in
/// the allocator's order (block allocators' excess nodes stay idle).
std::span<const NodeId> task_nodes(const Job& job, const Allocation& allocation);

/// `flow`: work = trace runtime; after every start and end all running jobs are re-rated to
/// 1 / ((1 − comm) + comm·s) with s their max-min fair communication slowdown.
/// Cost per start or end: one FlowNetwork::solve, which re-solves only the running jobs
/// connected to the change through shared links.
/// `bandwidth` scales every link's capacity (1: the bandwidth at which comm holds); `load`
/// chooses what paces a job's communication (flow_model.hpp: max, its most loaded link, for
/// oblivious routing; mean, its hop-bytes over all links, Agarwal et al. §5.3's argument).
/// `switches`: the machine's first axis lists the processors of one switch (topo/switches.hpp):
/// messages are routed on the switches, so a switch's links are shared by its processors; a
/// job's reference is its k processors on the ceil(k / side(0)) switches of the most compact
/// switch box, and each processor's own link to its switch (k − 1 messages each way in an
/// all-to-all, whatever the placement) bounds its rate through the cap (load=max only).
std::unique_ptr<RuntimeModel> make_flow_runtime(double comm, double bandwidth = 1,
                                                FlowLoad load = FlowLoad::max,
                                                bool switches = false);

/// Parameters of `wormhole` (GABL paper §4.2 defaults: plen 8 flits, ts 3, num_mes 5).
struct WormholeRuntimeParams {
  int plen = 8;               ///< flits per message
  int ts = 3;                 ///< time units to route a header through a node
  double num_mes = 5;         ///< mean number of messages each task sends (exponential, rounded)
  bool fixed_count = false;   ///< every task sends exactly round(num_mes) messages instead
  double cycle = 1;           ///< simulated seconds per network time unit (flit hop)
  double stall_limit = 1000;  ///< watchdog: network time units without a move = a deadlock
};

/// `wormhole`: the GABL paper's message-level model (§4.2; network/wormhole.hpp for the
/// network's exact rules, dateline virtual channels on tori). At its start each task of a job
/// sends round(Exp(num_mes)) messages of plen flits, to every other task in turn (all-to-all)
/// or to its neighbours in the run's pattern, all released at the start and injected one
/// after another; messages of all running jobs contend for the channels. The job then
/// computes for its trace runtime T: it ends at (its last delivery, or its start if it sends
/// nothing) + T. Why this reading: the paper gives both an execution time (exponential, mean
/// 1) and a message count and says nothing of overlap, so a job holds its processors for both;
/// with `num_mes` = 0 the model is `fixed`.
/// End times: at every start and end the model brings the network to the current time (all
/// events up to it; new messages come after those), copies it, and runs the copy of record on,
/// without new messages, until the earliest end of a running job is known; it sets that end
/// exactly (RateContext::set_end) and the others after it. If a job starts before that end the
/// model goes back to the copy; otherwise the run ahead stands. Deterministic; cost about twice
/// the network's own (O(S log E) for S worm shifts) plus one copy of the messages in flight per
/// start or end.
std::unique_ptr<RuntimeModel> make_wormhole_runtime(WormholeRuntimeParams params);

/// `distance`: runtime T·(1 + a·H^e)/(1 + a·H0^e), fixed at start (no re-rating).
/// Cost per start O(k·d + Σ sides) (pairwise_hop_sum), the reference once per job size.
std::unique_ptr<RuntimeModel> make_distance_runtime(DistanceModelParams params);

}  // namespace allocsim
