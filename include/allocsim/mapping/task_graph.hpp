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
  /// Throws InputError on an endpoint outside [0, tasks) or negative bytes. O(m log m).
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
