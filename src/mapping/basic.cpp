#include "allocsim/mapping/basic.hpp"

#include <numeric>

namespace allocsim::mapping {

namespace {

class IdentityMapper final : public Mapper {
 public:
  void map(const MappingProblem& problem, Rng&, std::vector<NodeId>& placement) override {
    placement.assign(problem.processors.begin(), problem.processors.begin() + problem.graph.size());
  }
};

class RandomMapper final : public Mapper {
 public:
  void map(const MappingProblem& problem, Rng& rng, std::vector<NodeId>& placement) override {
    std::vector<NodeId> nodes(problem.processors.begin(), problem.processors.end());
    const auto p = static_cast<std::int64_t>(nodes.size());
    const int n = problem.graph.size();
    for (std::int64_t i = 0; i < n; ++i)  // partial Fisher-Yates: the first n are uniform
      std::swap(nodes[i], nodes[rng.uniform_int(i, p - 1)]);
    placement.assign(nodes.begin(), nodes.begin() + n);
  }
};

/// Exact mean distance between two distinct nodes of a graph machine, aggregated per router:
/// with n_r nodes on router r, the ordered pairs of one router are n_r(n_r − 1) at distance 2
/// (injection, ejection), and those of routers r ≠ s are n_r·n_s at distance(r, s), which
/// depends only on the routers (graph_machine.hpp). R(R − 1)/2 distance() calls for the R
/// routers that have nodes.
double graph_mean_distance(const GraphMachine& graph) {
  std::vector<NodeId> example;  // one node per router with nodes
  std::vector<double> count;
  for (VertexId router = graph.node_count(); router < graph.vertex_count(); ++router) {
    const auto nodes = graph.nodes_of(router);
    if (nodes.empty()) continue;
    example.push_back(nodes.front());
    count.push_back(static_cast<double>(nodes.size()));
  }
  double sum = 0;
  for (std::size_t r = 0; r < example.size(); ++r) {
    sum += count[r] * (count[r] - 1) * 2;
    for (std::size_t s = r + 1; s < example.size(); ++s)
      sum += 2 * count[r] * count[s] * graph.distance(example[r], example[s]);
  }
  const double p = graph.node_count();
  return sum / (p * (p - 1));
}

}  // namespace

void append_basic_mappers(std::vector<RegistryEntry<MapperFactory>>& entries) {
  entries.push_back({"identity",
                     "task i on the i-th given processor (allocator order)",
                     {},
                     [](const Params&) -> std::unique_ptr<Mapper> {
                       return std::make_unique<IdentityMapper>();
                     }});
  entries.push_back(
      {"random",
       "seeded random permutation of the processors",
       {},
       [](const Params&) -> std::unique_ptr<Mapper> { return std::make_unique<RandomMapper>(); }});
}

double random_mapping_expectation(const Topology& topology) {
  const double p = topology.node_count();
  if (p < 2) return 0;
  if (topology.fully_connected()) return 1;
  if (const GraphMachine* graph = topology.graph()) return graph_mean_distance(*graph);
  // Grids: mean distance over ordered pairs including a node with itself, then exclude those pairs.
  double with_self = 0;
  for (int axis = 0; axis < topology.dims(); ++axis) {
    const int k = topology.side(axis);
    double sum = 0;
    for (int a = 0; a < k; ++a)
      for (int b = 0; b < k; ++b) sum += topology.axis_distance(axis, a, b);
    with_self += sum / (static_cast<double>(k) * k);
  }
  return with_self * p / (p - 1);
}

}  // namespace allocsim::mapping
