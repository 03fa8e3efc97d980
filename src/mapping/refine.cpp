#include "allocsim/mapping/refine.hpp"

#include <algorithm>
#include <cmath>

#include "geometry.hpp"

namespace allocsim::mapping {

namespace {

class RefineMapper final : public Mapper {
 public:
  RefineMapper(int passes, bool everywhere) : passes_(passes), everywhere_(everywhere) {}

  void map(const MappingProblem& problem, Rng&, std::vector<NodeId>& placement) override {
    const TaskGraph& graph = problem.graph;
    const Topology& topology = problem.topology;
    const ProcessorGeometry geometry(topology, problem.processors);
    const int n = graph.size(), p = geometry.size();
    std::vector<int> index_of_node(topology.node_count(), -1);
    for (int q = 0; q < p; ++q) index_of_node[problem.processors[q]] = q;
    std::vector<int> at(n), task_on(p, -1);
    for (TaskId t = 0; t < n; ++t) {
      at[t] = index_of_node[placement[t]];
      task_on[at[t]] = t;
    }
    double largest = 0;
    for (const double b : graph.all_edge_bytes()) largest = std::max(largest, b);
    const double tolerance = 1e-9 * largest;  // guards against rounding-only "improvements"

    // Change in t's hop-bytes when it moves to q, ignoring its edge to `partner` (if any).
    auto move_delta = [&](TaskId t, int q, TaskId partner) {
      double delta = 0;
      const auto neighbours = graph.neighbours(t);
      const auto bytes = graph.edge_bytes(t);
      for (std::size_t i = 0; i < neighbours.size(); ++i) {
        if (neighbours[i] == partner) continue;
        const int there = at[neighbours[i]];
        delta += bytes[i] * (geometry.distance(q, there) - geometry.distance(at[t], there));
      }
      return delta;
    };
    std::vector<int> candidates;
    std::vector<int> seen(p, -1);
    int stamp = 0;
    TimeLimitPoll poll(problem.time_limit);
    for (int pass = 0; pass < passes_; ++pass) {
      bool moved = false;
      for (TaskId t = 0; t < n; ++t) {
        poll.add(everywhere_ ? p : 1 + graph.degree(t));
        candidates.clear();
        ++stamp;
        auto add = [&](int q) {
          if (q >= 0 && q != at[t] && seen[q] != stamp) seen[q] = stamp, candidates.push_back(q);
        };
        if (everywhere_) {
          for (int q = 0; q < p; ++q) add(q);
        } else {
          for (const TaskId j : graph.neighbours(t)) {
            const int q = at[j];
            add(q);
            if (!topology.fully_connected())  // grids and graphs: a node's near nodes
              topology.for_each_neighbour(problem.processors[q],
                                          [&](NodeId node) { add(index_of_node[node]); });
          }
        }
        int best_q = -1;
        double best_delta = -tolerance;
        for (const int q : candidates) {
          const TaskId other = task_on[q];
          double delta = move_delta(t, q, other);
          if (other >= 0) {
            const int mine = at[t];
            // The other task moves to t's processor; the t–other edge keeps its length.
            double other_delta = 0;
            const auto neighbours = graph.neighbours(other);
            const auto bytes = graph.edge_bytes(other);
            for (std::size_t i = 0; i < neighbours.size(); ++i) {
              if (neighbours[i] == t) continue;
              const int there = at[neighbours[i]];
              other_delta +=
                  bytes[i] * (geometry.distance(mine, there) - geometry.distance(q, there));
            }
            delta += other_delta;
          }
          if (delta < best_delta || (delta == best_delta && best_q >= 0 && q < best_q))
            best_delta = delta, best_q = q;
        }
        if (best_q < 0) continue;
        const TaskId other = task_on[best_q];
        const int mine = at[t];
        task_on[mine] = other;
        if (other >= 0) at[other] = mine;
        task_on[best_q] = t;
        at[t] = best_q;
        moved = true;
      }
      if (!moved) break;
    }
    for (TaskId t = 0; t < n; ++t) placement[t] = problem.processors[at[t]];
  }

 private:
  int passes_;
  bool everywhere_;
};

}  // namespace

void append_refine_mappers(std::vector<RegistryEntry<MapperFactory>>& entries) {
  entries.push_back(
      {"refine",
       "swap tasks only when hop-bytes strictly drop (RefineTopoLB, §5.2.3)",
       {{"passes",
         ParamKind::integer,
         "20",
         "maximum passes over all tasks",
         {},
         integer_rule(0, 1000000)},
        {"scope", ParamKind::choice, "near", "candidate processors", {"near", "all"}}},
       [](const Params& p) -> std::unique_ptr<Mapper> {
         const long long passes = p.integer("passes");
         if (passes < 0 || passes > 1000000) throw InputError("refine: passes must be 0..1000000");
         return std::make_unique<RefineMapper>(static_cast<int>(passes), p.text("scope") == "all");
       }});
}

}  // namespace allocsim::mapping
