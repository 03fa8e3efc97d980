#pragma once
// The partitioning phase of Agarwal, Sharma and Kalé §4 (and §5.2.3 for LeanMD): when tasks
// outnumber processors, METIS (Debian's libmetis-dev, k-way) splits the task graph into p
// groups of balanced load with few bytes between groups; the groups are coalesced into a
// p-vertex graph that the mappers place. Then everything is put together in map_graph().
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocsim/mapping/task_graph.hpp"
#include "allocsim/metrics/hop_bytes.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim::mapping {

/// Group of every task, in [0, parts).
struct Partition {
  std::vector<int> group_of;
  int parts = 0;
  /// Tasks moved by rebalance() after METIS (0 when METIS's groups were balanced).
  int rebalanced_tasks = 0;
  /// The bound every group's load is held to (balance_bound()), and the largest group load.
  double bound = 0, max_load = 0;
};

/// METIS's balance tolerance (its ufactor semantics: a part may weigh (1 + ufactor/1000) times
/// its target, the mean load): 1.03 for k-way (ufactor 30), 1.001 for recursive bisection.
double metis_ubfactor(bool recursive);

/// The largest group load accepted: max(ubfactor^L · mean, mean + L · (1 − 1/parts) · largest
/// task load), L = 1 for k-way and ⌈log2 parts⌉ for recursive bisection (METIS applies its
/// tolerance to each bisection, so it compounds over the levels). The first term is METIS's own
/// tolerance; the second is what indivisible tasks always allow (greedy placement reaches it
/// with L = 1, and for unit loads it is then ⌈tasks / parts⌉, the best any partition does), so
/// the bound can always be met. `mean` = total load / parts.
double balance_bound(const TaskGraph& graph, int parts, bool recursive);

/// Repairs a partition with a group above `bound` (METIS gives up balance when tasks outnumber
/// parts by less than about 2×: every task in one group, hop-bytes 0): while a group is over,
/// moves its task whose move costs the fewest cut bytes to a group that stays within the bound
/// (one always exists: some group is at or below the mean). Records the moves in
/// `rebalanced_tasks` and sets `bound` and `max_load`. Deterministic; O(moves · group size ·
/// degree).
void rebalance(const TaskGraph& graph, Partition& partition, double bound);

/// METIS_PartGraphKway into `parts` groups balanced on load (METIS's default tolerance,
/// ufactor 30 = 3 %), seeded. Loads and bytes become METIS integers, each at least 1: loads
/// scaled so the smallest is 1 (the largest at most 1e6), bytes so the smallest is 1 and the
/// largest at most 100 — METIS 5.1's k-way refinement gives up balance when edge weights dwarf
/// vertex weights (LeanMD with 1 KiB edges: 2.4× the mean load and half the parts empty). Special
/// cases without METIS: parts = 1 (one group) and tasks ≤ parts (task i alone in group i, the rest
/// empty). Groups METIS leaves empty stay empty. `recursive`: METIS_PartGraphRecursive
/// (recursive bisection, as the CHARM++ TopoLB.C and TopoCentLB.C of Agarwal et al. call)
/// instead of k-way; same weights and seed. METIS does not promise balance: its groups are
/// checked against balance_bound() and, when one is over, repaired by rebalance() (the
/// outcome says so: Partition::rebalanced_tasks), never returned unbalanced.
Partition partition_metis(const TaskGraph& graph, int parts, std::uint64_t seed,
                          bool recursive = false);

/// The group graph: group load = Σ task loads; bytes between groups = Σ of the edges between
/// them; bytes inside a group (edges and internal bytes) become the group's internal bytes.
/// O(m log m).
TaskGraph coalesce(const TaskGraph& graph, const Partition& partition);

/// Outcome of mapping a graph onto processors (tasks, or their groups after partitioning).
struct MapOutcome {
  std::vector<NodeId> placement;  // node of every task of the original graph
  bool partitioned = false;
  int groups = 0;
  int rebalanced_tasks = 0;         // tasks moved after METIS to meet the balance bound
  double balance_bound = 0;         // largest group load accepted (partition.hpp)
  double group_average_degree = 0;  // of the coalesced graph (paper: 12.7 at p=18, 19.5 at 512)
  double max_group_load = 0, mean_group_load = 0;
  HopBytes hop_bytes;
  LinkLoad link_load;
  double partition_seconds = 0, map_seconds = 0;  // wall-clock, not simulated time
  std::string mapper;                             // canonical chain
};

/// Partitions when tasks outnumber processors, maps with the '+'-chain `mapper` (seeded from
/// `seed`), and measures hop-bytes and link load on the original graph. `time_limit` (may be
/// null) is polled by the mappers and between the phases; METIS runs uninterrupted.
MapOutcome map_graph(const TaskGraph& graph, const Topology& topology,
                     std::span<const NodeId> processors, const std::string& mapper,
                     std::uint64_t seed, const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::mapping
