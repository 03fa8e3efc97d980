#pragma once
// Task graphs of Agarwal, Sharma and Kalé §3: a weighted undirected graph whose vertices are
// tasks (vertex weight = compute load) and whose edges carry the bytes two tasks exchange per
// iteration. Stored in CSR form, each undirected edge once in each endpoint's list.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocsim/metrics/hop_bytes.hpp"

namespace allocsim::mapping {

using TaskId = std::int32_t;

/// Size guards of task graphs (issue 25), checked before any memory is taken: a pattern spec or
/// a file header that declares more tasks or edges is refused with a memory estimate, as
/// machines of more than 10^7 nodes are (topology_registry.hpp). A 3D stencil of 10^7 tasks
/// fits; an all-to-all pattern stops near 7,700 tasks.
inline constexpr std::int64_t kMaxTasks = 10000000;
inline constexpr std::int64_t kMaxEdges = 30000000;
/// Memory of a task graph while it is built (TaskGraph::from_edges: the edge list, both
/// directions sorted, the CSR arrays) and read (the reader's own lists), per task and per edge.
inline constexpr double kBytesPerTask = 48;
inline constexpr double kBytesPerEdge = 96;
/// Largest bytes of one edge (pattern `bytes`, file weights and values): with at most kMaxEdges
/// edges and hop distances below 2^31, hop-bytes, link loads and every mapper's cost sums stay
/// finite in a double (a larger value would print `null` and hops per byte 0).
inline constexpr double kMaxEdgeBytes = 1e18;
/// Largest load of one task (vertex weight): group loads stay finite and exact enough.
inline constexpr double kMaxTaskLoad = 1e18;

/// Throws InputError "`what`: N tasks and M edges would take about X GB of memory; task graphs
/// are limited to ..." when `tasks` > kMaxTasks or `edges` > kMaxEdges. Doubles, so that callers
/// can pass products that would overflow an integer (k·(k−1)/2 of an all-to-all pattern).
void check_task_graph_size(double tasks, double edges, const std::string& what);

/// One undirected edge before assembly (`bytes` per iteration, both directions together).
struct TaskEdge {
  TaskId a = 0, b = 0;
  double bytes = 0;
};

/// A task graph in CSR form (§3 "Task Graph"). Self loops are not edges: bytes a task exchanges
/// with itself (or, after coalescing, between tasks of one group) are its `internal_bytes`,
/// which never travel (and count neither in hop-bytes nor in hops per byte's denominator).
class TaskGraph {
 public:
  TaskGraph() = default;
  /// Assembles a graph from an edge list: parallel edges are merged (bytes added), self loops
  /// go to internal bytes, zero-byte edges are dropped. `loads` empty means unit loads.
  /// Throws InputError on an endpoint outside [0, tasks), bytes that are negative, not finite or
  /// above kMaxEdgeBytes, a load that is negative, not finite or above kMaxTaskLoad, or a graph
  /// beyond the size guards (check_task_graph_size). O(m log m).
  static TaskGraph from_edges(int tasks, std::vector<TaskEdge> edges,
                              std::vector<double> loads = {});

  int size() const { return static_cast<int>(loads_.size()); }
  /// Undirected edges (each counted once).
  std::int64_t edge_count() const { return static_cast<std::int64_t>(targets_.size()) / 2; }
  std::span<const TaskId> neighbours(TaskId task) const {
    return {targets_.data() + offsets_[task], targets_.data() + offsets_[task + 1]};
  }
  /// Bytes on the edges listed by neighbours(task), in the same order.
  std::span<const double> edge_bytes(TaskId task) const {
    return {bytes_.data() + offsets_[task], bytes_.data() + offsets_[task + 1]};
  }
  int degree(TaskId task) const { return static_cast<int>(offsets_[task + 1] - offsets_[task]); }
  double load(TaskId task) const { return loads_[task]; }
  double internal_bytes(TaskId task) const { return internal_[task]; }
  /// Bytes on `task`'s edges (its total communication with other tasks).
  double communication(TaskId task) const { return communication_[task]; }
  /// Bytes over all edges plus all internal bytes (hops per byte divides by the bytes that
  /// leave their processor: metrics/hop_bytes.hpp).
  double total_bytes() const { return total_bytes_; }
  double average_degree() const {
    return size() ? 2.0 * static_cast<double>(edge_count()) / size() : 0.0;
  }

  const std::vector<std::int64_t>& offsets() const { return offsets_; }
  const std::vector<TaskId>& targets() const { return targets_; }
  const std::vector<double>& all_edge_bytes() const { return bytes_; }
  const std::vector<double>& loads() const { return loads_; }

  /// The graph as the communication metrics see it (valid while the graph lives).
  CommGraphView comm_view() const { return {offsets_, targets_, bytes_, total_bytes_}; }

  /// Short description, e.g. "64 tasks, 112 edges, 114688 bytes".
  std::string describe() const;

 private:
  std::vector<std::int64_t> offsets_{0};
  std::vector<TaskId> targets_;
  std::vector<double> bytes_;
  std::vector<double> loads_;
  std::vector<double> internal_;
  std::vector<double> communication_;
  double total_bytes_ = 0;
};

/// Hop-bytes and hops per byte of a placement (task -> node), metrics/hop_bytes.hpp.
inline HopBytes hop_bytes(const TaskGraph& graph, const Topology& topology,
                          std::span<const NodeId> placement) {
  return allocsim::hop_bytes(graph.comm_view(), topology, placement);
}
/// Link load under dimension-ordered routing of a placement, metrics/hop_bytes.hpp.
inline LinkLoad link_load(const TaskGraph& graph, const Topology& topology,
                          std::span<const NodeId> placement) {
  return allocsim::link_load(graph.comm_view(), topology, placement);
}

}  // namespace allocsim::mapping
