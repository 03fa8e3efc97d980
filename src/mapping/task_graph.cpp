#include "allocsim/mapping/task_graph.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim::mapping {

void check_task_graph_size(double tasks, double edges, const std::string& what) {
  if (tasks <= static_cast<double>(kMaxTasks) && edges <= static_cast<double>(kMaxEdges)) return;
  char text[320];
  std::snprintf(text, sizeof text,
                "%s: %.0f tasks and %.0f edges would take about %.1f GB of memory; task graphs "
                "are limited to %lld tasks and %lld edges",
                what.c_str(), tasks, edges, (tasks * kBytesPerTask + edges * kBytesPerEdge) / 1e9,
                static_cast<long long>(kMaxTasks), static_cast<long long>(kMaxEdges));
  throw InputError(text);
}

TaskGraph TaskGraph::from_edges(int tasks, std::vector<TaskEdge> edges, std::vector<double> loads) {
  if (tasks < 0) throw InputError("a task graph needs a non-negative task count");
  // Self loops become internal bytes (no edge memory): only the other edges count.
  const auto links = std::count_if(edges.begin(), edges.end(),
                                   [](const TaskEdge& edge) { return edge.a != edge.b; });
  check_task_graph_size(tasks, static_cast<double>(links), "task graph");
  if (loads.empty()) loads.assign(tasks, 1.0);
  if (static_cast<int>(loads.size()) != tasks)
    throw InputError("task graph: " + std::to_string(loads.size()) + " loads for " +
                     std::to_string(tasks) + " tasks");
  for (int t = 0; t < tasks; ++t)
    if (!(loads[t] >= 0 && loads[t] <= kMaxTaskLoad))
      throw InputError("task graph: task " + std::to_string(t) + " has load " +
                       number_text(loads[t]) + "; loads must be in [0, 1e18]");
  TaskGraph graph;
  graph.loads_ = std::move(loads);
  graph.internal_.assign(tasks, 0.0);
  graph.communication_.assign(tasks, 0.0);
  // Both directions of every edge, sorted so parallel edges become adjacent.
  std::vector<TaskEdge> directed;
  directed.reserve(edges.size() * 2);
  for (const TaskEdge& edge : edges) {
    if (edge.a < 0 || edge.a >= tasks || edge.b < 0 || edge.b >= tasks)
      throw InputError("task graph: edge (" + std::to_string(edge.a) + ", " +
                       std::to_string(edge.b) + ") outside 0.." + std::to_string(tasks - 1));
    if (!(edge.bytes >= 0 && edge.bytes <= kMaxEdgeBytes))
      throw InputError("task graph: edge (" + std::to_string(edge.a) + ", " +
                       std::to_string(edge.b) + ") has " + number_text(edge.bytes) +
                       " bytes; edge bytes must be in [0, 1e18] (so that hop-bytes and link "
                       "loads stay finite)");
    if (edge.bytes == 0) continue;
    if (edge.a == edge.b) {
      graph.internal_[edge.a] += edge.bytes;
      continue;
    }
    directed.push_back(edge);
    directed.push_back({edge.b, edge.a, edge.bytes});
  }
  std::sort(directed.begin(), directed.end(), [](const TaskEdge& x, const TaskEdge& y) {
    return x.a != y.a ? x.a < y.a : x.b < y.b;
  });
  graph.offsets_.assign(tasks + 1, 0);
  for (std::size_t i = 0; i < directed.size();) {
    std::size_t j = i;
    double bytes = 0;
    while (j < directed.size() && directed[j].a == directed[i].a && directed[j].b == directed[i].b)
      bytes += directed[j++].bytes;
    graph.targets_.push_back(directed[i].b);
    graph.bytes_.push_back(bytes);
    graph.offsets_[directed[i].a + 1]++;
    graph.communication_[directed[i].a] += bytes;
    i = j;
  }
  for (int t = 0; t < tasks; ++t) graph.offsets_[t + 1] += graph.offsets_[t];
  double edge_bytes = 0, internal = 0;
  for (const double b : graph.bytes_) edge_bytes += b;
  for (const double b : graph.internal_) internal += b;
  graph.total_bytes_ = edge_bytes / 2 + internal;
  return graph;
}

std::string TaskGraph::describe() const {
  std::ostringstream text;
  text << size() << " tasks, " << edge_count() << " edges, " << total_bytes() << " bytes";
  return text.str();
}

}  // namespace allocsim::mapping
