// TopoLB's incremental cost table against a direct transcription of Algorithm 1 (§4.2) that
// recomputes every estimate f_est (§4.3) from scratch each step, O(n²·p·δ).
#include <gtest/gtest.h>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/mapping/patterns.hpp"

using namespace allocsim;
using namespace allocsim::mapping;

namespace {

/// Algorithm 1 with §4.4's gain FAvg − FMin (first task with the largest gain, first processor
/// with the least cost), with the implementation's scaled estimates.
std::vector<NodeId> reference_topolb(const TaskGraph& graph, const Topology& topology,
                                     const std::vector<NodeId>& nodes, int order) {
  const int n = graph.size(), p = static_cast<int>(nodes.size());
  std::vector<int> at(n, -1);
  std::vector<char> taken(p, 0);
  auto d = [&](int q, int r) { return topology.distance(nodes[q], nodes[r]); };
  for (int step = 0; step < n; ++step) {
    const int free_count = p - step;
    std::vector<double> weight(p, 0.0);  // Σ distance to all (order 2) / free (order 3)
    for (int q = 0; q < p; ++q)
      for (int r = 0; r < p; ++r)
        if (order == 2 || (order == 3 && !taken[r])) weight[q] += d(q, r);
    const double alpha = order == 1 ? 1 : order == 2 ? p : free_count;
    int best_task = -1, best_proc = -1;
    double best_gain = 0;
    for (TaskId t = 0; t < n; ++t) {
      if (at[t] >= 0) continue;
      double unplaced = 0, sum = 0, minimum = 0;
      int arg = -1;
      const auto nb = graph.neighbours(t);
      const auto bytes = graph.edge_bytes(t);
      for (std::size_t i = 0; i < nb.size(); ++i)
        if (at[nb[i]] < 0) unplaced += bytes[i];
      for (int q = 0; q < p; ++q) {
        if (taken[q]) continue;
        double placed = 0;
        for (std::size_t i = 0; i < nb.size(); ++i)
          if (at[nb[i]] >= 0) placed += bytes[i] * d(q, at[nb[i]]);
        const double cost = alpha * placed + (order == 1 ? 0.0 : unplaced * weight[q]);
        sum += cost;
        if (arg < 0 || cost < minimum) minimum = cost, arg = q;  // q ascending: earliest wins
      }
      // §4.4: gain = FAvg − FMin = Σ f_est / F − min f_est over the F free processors; times F.
      const double gain = sum - free_count * minimum;
      if (best_task < 0 || gain > best_gain) best_task = t, best_gain = gain, best_proc = arg;
    }
    at[best_task] = best_proc;
    taken[best_proc] = 1;
  }
  std::vector<NodeId> placement(n);
  for (TaskId t = 0; t < n; ++t) placement[t] = nodes[at[t]];
  return placement;
}

}  // namespace

TEST(TopoLB, IncrementalTableMatchesAlgorithmOne) {
  struct Case {
    std::string pattern, machine;
  };
  const std::vector<Case> cases{{"random:36,degree=4,seed=1", "torus:6x6"},
                                {"random:48,degree=3,seed=2", "torus:4x4x3"},
                                {"mesh2d:6x5", "mesh:5x6"},
                                {"mesh2d:4x8", "torus:4x4x2"},
                                {"ring:20", "mesh:5x4"},
                                // isolated tasks and several components (unconstrained tasks)
                                {"random:24,degree=1,seed=3", "mesh:6x4"}};
  for (const auto& c : cases) {
    const auto graph = make_pattern(c.pattern);
    const auto topology = Topology::parse(c.machine);
    std::vector<NodeId> nodes(topology.node_count());
    for (NodeId i = 0; i < topology.node_count(); ++i) nodes[i] = i;
    for (const int order : {1, 2, 3}) {
      Rng rng(1);
      const auto fast =
          MapperChain("topolb:order=" + std::to_string(order)).map({graph, topology, nodes}, rng);
      EXPECT_EQ(fast, reference_topolb(graph, topology, nodes, order))
          << c.pattern << " on " << c.machine << " order " << order;
    }
  }
}
