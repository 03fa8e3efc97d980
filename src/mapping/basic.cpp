#include "allocsim/mapping/basic.hpp"

#include <numeric>
#include <vector>

#include "allocsim/metrics/locality.hpp"

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
  if (topology.graph()) {
    // Graphs: the exact mean over distinct pairs, from the locality meter's per-router sum.
    std::vector<NodeId> all(static_cast<std::size_t>(topology.node_count()));
    std::iota(all.begin(), all.end(), 0);
    return static_cast<double>(LocalityMeter(topology).pairwise_sum(all)) / (p * (p - 1) / 2);
  }
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
