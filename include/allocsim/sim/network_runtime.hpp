#pragma once
// Runtime models backed by the network layer (issue "flow and wormhole network models"):
// `flow` (max-min fair link sharing among running jobs, network/flow_model.hpp) and `distance`
// (SST's time-per-distance form, network/distance_model.hpp). The registry rows are in
// runtime_model.cpp.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/network/distance_model.hpp"
#include "allocsim/network/flow_model.hpp"
#include "allocsim/sim/runtime_model.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim {

// Ranges of the runtime models' numeric parameters: declared in their registry rows
// (runtime_model.cpp, shown by `allocsim list runtime-models`) and checked again by the
// factories below. They keep every derived time finite for trace times up to kMaxTime on
// machines of up to kMaxNodesWithoutOverride nodes (mean hops below 10^7): dispersal stretches
// by at most 1e6 x 1e7, distance by at most 1e6 x (1e7)^10, flow slows by at most 1e6 x the
// contention; wormhole durations are whole time units that stay exact. The models still check
// each time they derive (a larger machine, a pattern of huge bytes) and name the parameters.
inline constexpr NumberRule kDispersalAlphaRule{0, 1e6};
inline constexpr NumberRule kFlowCommRule{0, 1};
inline constexpr NumberRule kFlowBandwidthRule{1e-6, 1e6};
inline constexpr NumberRule kWormholePlenRule{1, 1e6, true};
inline constexpr NumberRule kWormholeTsRule{0, 1e6, true};
inline constexpr NumberRule kWormholeNumMesRule{0, 1e6};
inline constexpr NumberRule kWormholeCycleRule{1e-6, 1e6};
inline constexpr NumberRule kWormholeStallRule{0, kMaxTime, false, true};
inline constexpr NumberRule kDistanceARule{0, 1e6};
inline constexpr NumberRule kDistanceERule{0, 10};

/// Size guard of `wormhole`, in the style of the machine guard (kMaxNodesWithoutOverride): a
/// run whose messages in flight would take more than kMaxWormholeBytes of memory, or whose
/// networks would process more than kMaxWormholeEvents events, is refused before it starts
/// unless the spec says allow_large=1. Bytes per message in flight (live network, its snapshot
/// and the alone-compact scratch network): about kWormholeBytesPerMessage plus
/// kWormholeBytesPerHop per hop, measured on mesh:16x16 (535 bytes at 10.7 hops).
inline constexpr double kMaxWormholeBytes = 4e9;
inline constexpr double kMaxWormholeEvents = 1e9;
inline constexpr double kWormholeBytesPerMessage = 400;
inline constexpr double kWormholeBytesPerHop = 12;
/// Network events per second of one core (measured: 3.5e6 to 7e6 on GABL's runs), for the
/// estimate of a refused run's duration.
inline constexpr double kWormholeEventsPerSecond = 5e6;

/// The nodes a job's tasks run on: the first min(procs, |nodes|) nodes of its allocation, in
/// the allocator's order (block allocators' excess nodes stay idle).
std::span<const NodeId> task_nodes(const Job& job, const Allocation& allocation);

/// `flow`: work = trace runtime; after every start and end all running jobs are re-rated to
/// 1 / ((1 − comm) + comm·s) with s their max-min fair communication slowdown.
/// Cost per start or end: one FlowNetwork::solve, which re-solves only the running jobs
/// connected to the change through contended links (flow_model.hpp).
/// `bandwidth` scales every link's capacity (1: the bandwidth at which comm holds); `load`
/// chooses what paces a job's communication (flow_model.hpp: max, its most loaded link, for
/// oblivious routing; mean, its hop-bytes over all links, Agarwal et al. §5.3's argument).
/// `switches`: the machine's first axis lists the processors of one switch (topo/switches.hpp):
/// messages are routed on the switches, so a switch's links are shared by its processors; a
/// job's reference is its k processors on the ceil(k / side(0)) switches of the most compact
/// switch box, and each processor's own link to its switch (k − 1 messages each way in an
/// all-to-all, whatever the placement) bounds its rate through the cap (load=max only); grids
/// only (check_size refuses other machines: "runtime model 'flow' with switch=first works on
/// grids ..."). Every machine kind otherwise: on graph machines loads are routed by the graph's
/// routing and divided by link capacities, and mapped patterns on adaptive (UGAL) machines are
/// routed at their start against the other jobs' loads (flow_model.hpp).
/// Per job (the comm_classes transform, workload/comm_classes.hpp): a job's own comm_share
/// replaces `comm` for it (0: it sends nothing and loads no link), and its own pattern
/// (CommPattern::stencil: mesh2d:auto, one message each way per neighbour pair, task i on its
/// i-th node; alltoall: the default) replaces all-to-all; a run with a mapped pattern refuses
/// jobs with their own. Alone runtime (own_alone_runtime, the interference denominator): the
/// trace runtime at FlowNetwork::alone_rate, the rate the job's own loads allow with no other
/// job, computed once at its start.
/// `weighted_sharing`: `share=weighted` (FlowNetwork::set_weighted_sharing).
/// `reference_cap`: `cap=compact` (true, the default: no job communicates faster than alone on
/// the reference compact allocation) or `cap=none` (false: only its links bound a job's rate,
/// so its comm_slowdown, actual / alone-compact runtime, may fall below 1;
/// FlowNetwork::set_reference_cap).
std::unique_ptr<RuntimeModel> make_flow_runtime(double comm, double bandwidth = 1,
                                                FlowLoad load = FlowLoad::max,
                                                bool switches = false,
                                                bool weighted_sharing = false,
                                                bool reference_cap = true);

/// Where a task's all-to-all messages go (runs without a job pattern).
/// GABL §4.2: "In all-to-all communication pattern, each processor allocated to a job sends a
/// packet to all other processors allocated to the same job. The number of messages that are
/// actually sent is exponentially distributed with a mean num-mes."
enum class AllToAllDestinations {
  /// The paper's reading: each message to one of the job's other tasks, drawn uniformly and
  /// independently (any other processor of the job can be the destination of any message).
  uniform,
  /// The old reading, kept to measure its effect: task i's j-th message to task
  /// (i + 1 + j mod (k − 1)) mod k, so with ~5 messages a task talks to its next five tasks
  /// in allocation order only (a ring of reach 5).
  ring,
};

/// Parameters of `wormhole` (GABL paper §4.2 defaults: plen 8 flits, ts 3, num_mes 5).
/// Ranges: kWormhole*Rule above; stall_limit must also exceed ts + 1.
struct WormholeRuntimeParams {
  int plen = 8;              ///< flits per message
  int ts = 3;                ///< time units to route a header through a node
  double num_mes = 5;        ///< mean number of messages each task sends (exponential, rounded)
  bool fixed_count = false;  ///< every task sends exactly round(num_mes) messages instead
  AllToAllDestinations destinations = AllToAllDestinations::uniform;  ///< without a pattern
  double cycle = 1;           ///< simulated seconds per network time unit (flit hop)
  double stall_limit = 1000;  ///< watchdog: network time units without a move = a deadlock
  bool allow_large = false;   ///< skip the size guard (kMaxWormholeBytes, kMaxWormholeEvents)
};

/// What a `wormhole` run would cost, estimated before it starts (the size guard's numbers).
struct WormholeCost {
  double messages_in_flight = 0;  ///< at most: every machine node busy, each task's mean count
  double bytes = 0;               ///< memory of those messages
  double events = 0;              ///< network events over the run (live and alone-compact)
};
/// The estimate for `jobs` on `topology`: each job of k tasks (min(procs, nodes)) sends k x
/// num_mes messages of about mean-hops (Σ sides / 3, / 4 on wrapped sides) hops, each 2 events
/// per hop plus plen.
WormholeCost wormhole_cost(const WormholeRuntimeParams& params, const Topology& topology,
                           std::span<const Job> jobs);
/// Throws InputError with the estimate when the cost is over the guard and allow_large is not
/// set.
void check_wormhole_size(const WormholeRuntimeParams& params, const Topology& topology,
                         std::span<const Job> jobs);

/// `wormhole` (grids only: check_size and the network refuse other machines with
/// Topology::require_grid("runtime model 'wormhole'")): the GABL paper's message-level model
/// (§4.2; network/wormhole.hpp for the
/// network's exact rules, dateline virtual channels on tori). At its start each task of a job
/// sends round(Exp(num_mes)) messages of plen flits, each to a uniformly drawn other task of
/// the job (all-to-all; wormhole_all_to_all_messages) or to its neighbours in the run's
/// pattern, all released at the start and injected one after another; messages of all running jobs
/// contend for the channels. The job then computes for its trace runtime T: it ends at (its last
/// delivery, or its start if it sends nothing) + T. Why this reading: the paper gives both an
/// execution time (exponential, mean 1) and a message count and says nothing of overlap, so a job
/// holds its processors for both; with `num_mes` = 0 the model is `fixed`. End times: at every
/// start and end the model brings the network to the current time (all events up to it; new
/// messages come after those), copies it, and runs the copy of record on, without new messages,
/// until the earliest end of a running job is known; it sets that end exactly
/// (RateContext::set_end) and the others after it. If a job starts before that end the model goes
/// back to the copy; otherwise the run ahead stands. Deterministic; cost about twice the network's
/// own (O(S log E) for S worm shifts) plus one copy of the messages in flight per start or end.
std::unique_ptr<RuntimeModel> make_wormhole_runtime(WormholeRuntimeParams params);

/// One message of a job, between two of its tasks (indices in allocation order).
struct TaskMessage {
  int from = 0;
  int to = 0;
  bool operator==(const TaskMessage&) const = default;
};

/// The all-to-all messages `wormhole` sends for a job of `tasks` tasks without a pattern, in
/// injection order (task 0's, then task 1's, ...). Counts: round(Exp(num_mes)) per task (or
/// round(num_mes) with fixed_count) from a generator seeded by (workload seed, job id);
/// destinations from a second generator seeded the same way, so the counts are the same under
/// either AllToAllDestinations and the draws are the same whatever the allocator.
std::vector<TaskMessage> wormhole_all_to_all_messages(const WormholeRuntimeParams& params,
                                                      std::uint64_t workload_seed,
                                                      std::int64_t job_id, int tasks);

/// `distance`: runtime T·(1 + a·H^e)/(1 + a·H0^e), fixed at start (no re-rating).
/// Cost per start O(k·d + Σ sides) (pairwise_hop_sum), the reference once per job size.
std::unique_ptr<RuntimeModel> make_distance_runtime(DistanceModelParams params);

}  // namespace allocsim
