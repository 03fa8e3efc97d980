#pragma once
// How traffic is put on links, for every consumer (issue 26, item 1): hop-bytes and link loads
// of a mapping (metrics/hop_bytes.hpp), the flow model's jobs (flow_model.hpp, network_runtime),
// the mappers through those metrics and the Agarwal reproduction all route through this file,
// and this file routes only through Topology::route_weighted, the routing function of every
// machine kind: dimension-ordered on grids (dimension 0 first; on a wrapped dimension the
// shorter way, + on a tie), a crossbar's two links on flat, the graph's own (multipath,
// weighted, possibly adaptive) routes on graph machines.
//
// The load of a link is the traffic crossing it: messages (ordered node pairs) for all-to-all
// and explicit messages, bytes for a task graph; under multipath routing a pair's traffic is
// split over its paths by their weights, so loads may be fractional on graph machines (on grids
// and flat they are whole numbers for messages, exactly as before). Loads are raw: capacities
// (Topology::link_capacity) are applied by the consumer (the flow model normalises, w_l / c_l).
// GABL paper §5: every processor of a job sends to every other one (all-to-all).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim {

/// A communication graph in CSR form, as the metrics and the network see it
/// (mapping::TaskGraph::comm_view()): each undirected edge listed from both ends with its bytes;
/// `total_bytes` is all bytes (edge bytes plus bytes that never leave a task).
struct CommGraphView {
  std::span<const std::int64_t> offsets;  // vertices + 1 entries
  std::span<const std::int32_t> targets;
  std::span<const double> bytes;
  double total_bytes = 0;
  int size() const { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
};

/// Load of one directed link.
struct LoadedLink {
  LinkId link = 0;
  double load = 0;
  bool operator==(const LoadedLink&) const = default;
};

/// Per-link loads, sorted by link, no link twice, zero loads omitted.
using LinkLoads = std::vector<std::pair<LinkId, double>>;

/// Scratch space of the functions below, owned by the caller (a FlowNetwork, a runtime model,
/// a metric call) and reused across calls so that no call allocates once it has grown; no
/// state survives a call (per_link is all zeros between calls). Not shared between threads.
struct LinkLoadScratch {
  std::vector<double> per_link;             ///< per LinkId, the load being accumulated
  std::vector<LinkId> touched;              ///< links whose per_link entry was written
  std::vector<std::uint64_t> touched_bits;  ///< take_loads: one bit per link
  // all_to_all_link_loads on grids: per-line prefix counts.
  std::vector<NodeId> prefixes, suffixes;
  std::vector<std::int64_t> senders, receivers, plus, minus;
  std::vector<std::int64_t> receivers_before, weighted_before, senders_before;
  std::vector<std::int64_t> mirrored_senders, mirrored_receivers, mirrored_loads;
  // all_to_all_link_loads on graphs: nodes per router.
  std::vector<int> per_router;
};

/// THE routing of traffic onto links: adds `amount` sent from a to b, split over the paths of
/// Topology::route_weighted(a, b) by their weights (amount · weight on each link of a path;
/// nothing when a == b), to `scratch`. `loads` informs adaptive graph routing (UGAL) only.
void add_route(const Topology& topology, NodeId a, NodeId b, double amount,
               LinkLoadScratch& scratch, LinkLoadView loads = {});
/// The loads accumulated by add_route since the last take, sorted by link, positive only;
/// leaves the scratch zeroed.
LinkLoads take_loads(LinkLoadScratch& scratch);

/// THE routing of a task graph's bytes: every edge's bytes, half from each end to the other
/// (placement[t] is task t's node), added as add_route does (Topology::route_weighted, bytes/2
/// · weight per link) to `per_link` (indexed by LinkId, link_slot_count() entries); in task
/// order, then edge order, so the sums are the same bit for bit whoever calls it. When
/// `touched` is given, each link whose entry was 0 before is appended to it. O(Σ route
/// lengths). `poll`, when given, is asked once per task with its degree + 1. The loop behind
/// route_task_graph, and link_load's (which scans its own dense array, as it always did).
void accumulate_task_graph(const Topology& topology, const CommGraphView& graph,
                           std::span<const NodeId> placement, std::span<double> per_link,
                           std::vector<LinkId>* touched = nullptr, TimeLimitPoll* poll = nullptr,
                           LinkLoadView loads = {});
/// A task graph's bytes per link (accumulate_task_graph), sorted by link, positive only. Used
/// by hop_bytes on graphs, the flow runtime's mapped patterns and the Agarwal reproduction.
LinkLoads route_task_graph(const Topology& topology, const CommGraphView& graph,
                           std::span<const NodeId> placement, LinkLoadScratch& scratch,
                           TimeLimitPoll* poll = nullptr, LinkLoadView loads = {});

/// Loads of the all-to-all pattern among `nodes` (distinct; every ordered pair sends one
/// message), sorted by link, zero loads omitted. Equal to routing every pair with add_route
/// (checked by tests/network and tests/topo/graph_routing_property_test), computed faster:
/// - Grids: from per-line prefix counts, never from the k² pairs: along dimension i a message
///   from a to b travels on the line whose coordinates below i are b's and above i are a's, so
///   a line's loads are sums of products of prefix counts of "senders with that suffix" and
///   "receivers with that prefix" per position (on a wrapped line, sliding windows of length
///   ⌊n/2⌋ (+) and ⌊(n−1)/2⌋ (−)). Cost per dimension O(k log k + lines·n_i), where lines =
///   (distinct receiver prefixes) × (distinct sender suffixes) ≤ node_count / n_i, so at most
///   O(d·(k log k + node_count)); on a 2D machine lines ≤ k, i.e. O(k log k + k·side).
/// - Flat: each node's injection and ejection link carries k − 1.
/// - Graphs: aggregated per (source router, destination node), as graph_machine.hpp's contract
///   allows: each node's injection and ejection link carry k − 1, and the links between are
///   routed once per (router r holding m_r of the nodes, destination b) with multiplicity
///   m_r − [b on r], each path's links getting that count × the path's weight (fractional
///   under multipath). Cost O(routers used · k · route length).
/// `poll`, when given, is asked once per line (grids) or per routed (router, destination) pair
/// (graphs) with its length (it throws TimeoutError once the run's wall-clock limit is spent).
/// `loads` informs adaptive graph routing (UGAL) only.
std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes,
                                              LinkLoadScratch& scratch,
                                              TimeLimitPoll* poll = nullptr,
                                              LinkLoadView loads = {});
/// The same as (link, load) pairs (LinkLoads), without converting them twice on graph machines.
LinkLoads all_to_all_loads(const Topology& topology, std::span<const NodeId> nodes,
                           LinkLoadScratch& scratch, TimeLimitPoll* poll = nullptr,
                           LinkLoadView loads = {});
/// The same with scratch space of its own (tests, one-off callers).
std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes,
                                              TimeLimitPoll* poll = nullptr);

/// Loads of explicit messages (from, to), one unit each, routed with add_route: O(Σ hops).
/// The reference for tests and the way to load patterns other than all-to-all.
std::vector<LoadedLink> routed_link_loads(const Topology& topology,
                                          std::span<const std::pair<NodeId, NodeId>> messages);

/// The reference compact allocation of k nodes. Grids: the most cubic box (every side min(s,
/// machine side) for the smallest s whose box holds k nodes) at the origin, filled with its
/// first k nodes in id order (dimension 0 fastest). Flat: nodes 0 .. k−1. Graphs: nodes
/// 0 .. k−1, the first k in id order; builders number nodes router by router and routers group
/// by group (pod by pod), so these fill one router, then the next of its group, then the next
/// group: the most local allocation the machine's numbering offers.
std::vector<NodeId> reference_compact_nodes(const Topology& topology, int k);

}  // namespace allocsim
