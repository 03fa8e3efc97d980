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

namespace allocsim::mapping {

/// Group of every task, in [0, parts).
struct Partition {
  std::vector<int> group_of;
  int parts = 0;
};

/// METIS_PartGraphKway into `parts` groups balanced on load (METIS's default tolerance,
/// ufactor 30 = 3 %), seeded. Loads and bytes become METIS integers, each at least 1: loads
/// scaled so the smallest is 1 (the largest at most 1e6), bytes so the smallest is 1 and the
/// largest at most 100 — METIS 5.1's k-way refinement gives up balance when edge weights dwarf
/// vertex weights (LeanMD with 1 KiB edges: 2.4× the mean load and half the parts empty). Special
/// cases without METIS: parts = 1 (one group) and tasks ≤ parts (task i alone in group i, the rest
/// empty). Groups METIS leaves empty stay empty. `recursive`: METIS_PartGraphRecursive
/// (recursive bisection, as the CHARM++ TopoLB.C and TopoCentLB.C of Agarwal et al. call)
/// instead of k-way; same weights and seed.
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
  double group_average_degree = 0;  // of the coalesced graph (paper: 12.7 at p=18, 19.5 at 512)
  double max_group_load = 0, mean_group_load = 0;
  HopBytes hop_bytes;
  LinkLoad link_load;
  double partition_seconds = 0, map_seconds = 0;  // wall-clock, not simulated time
  std::string mapper;                             // canonical chain
};

/// Partitions when tasks outnumber processors, maps with the '+'-chain `mapper` (seeded from
/// `seed`), and measures hop-bytes and link load on the original graph.
MapOutcome map_graph(const TaskGraph& graph, const Topology& topology,
                     std::span<const NodeId> processors, const std::string& mapper,
                     std::uint64_t seed);

}  // namespace allocsim::mapping
