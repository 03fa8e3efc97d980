#pragma once
// Per-link loads of a communication pattern under the topology's dimension-ordered routing
// (Topology::route: dimension 0 first; on a wrapped dimension the shorter way, + on a tie).
// The load of a link is the number of messages (ordered node pairs) whose route crosses it.
// GABL paper §5: every processor of a job sends to every other one (all-to-all).
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/topo/topology.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim {

/// Load of one directed link slot.
struct LoadedLink {
  LinkId link = 0;
  std::int64_t load = 0;
  bool operator==(const LoadedLink&) const = default;
};

/// Loads of the all-to-all pattern among `nodes` (distinct; every ordered pair sends one
/// message), sorted by link, zero loads omitted. Computed from per-line prefix counts, never
/// from the k² pairs: along dimension i a message from a to b travels on the line whose
/// coordinates below i are b's and above i are a's, so a line's loads are sums of products of
/// prefix counts of "senders with that suffix" and "receivers with that prefix" per position
/// (on a wrapped line, sliding windows of length ⌊n/2⌋ (+) and ⌊(n−1)/2⌋ (−)).
/// Cost per dimension O(k log k + lines·n_i), where lines = (distinct receiver prefixes) ×
/// (distinct sender suffixes) ≤ node_count / n_i, so at most O(d·(k log k + node_count)); on a
/// 2D machine lines ≤ k, i.e. O(k log k + k·side). Flat: each node's injection and ejection
/// link carries k − 1. `poll`, when given, is asked once per line with its length (it throws
/// TimeoutError once the run's wall-clock limit is spent).
std::vector<LoadedLink> all_to_all_link_loads(const Topology& topology,
                                              std::span<const NodeId> nodes,
                                              TimeLimitPoll* poll = nullptr);

/// Loads of explicit messages (from, to), each routed with Topology::route: O(Σ hops). The
/// reference for tests and the way to load patterns other than all-to-all.
std::vector<LoadedLink> routed_link_loads(const Topology& topology,
                                          std::span<const std::pair<NodeId, NodeId>> messages);

/// The reference compact allocation of k nodes: the most cubic box (every side min(s, machine
/// side) for the smallest s whose box holds k nodes) at the origin, filled with its first k
/// nodes in id order (dimension 0 fastest). Flat: nodes 0 .. k−1.
std::vector<NodeId> reference_compact_nodes(const Topology& topology, int k);

}  // namespace allocsim
