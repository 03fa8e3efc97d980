#include "allocsim/mapping/topocentlb.hpp"

#include <algorithm>
#include <numeric>
#include <queue>
#include <tuple>

#include "geometry.hpp"

namespace allocsim::mapping {

namespace {

class TopoCentLBMapper final : public Mapper {
 public:
  void map(const MappingProblem& problem, Rng&, std::vector<NodeId>& placement) override {
    const TaskGraph& graph = problem.graph;
    const ProcessorGeometry geometry(problem.topology, problem.processors);
    const int n = graph.size(), p = geometry.size();
    TimeLimitPoll poll(problem.time_limit);
    std::vector<double> spread(p, 0.0);  // Σ distance to every processor (tie-breaker)
    for (int q = 0; q < p; ++q) {
      poll.add(p);
      for (int r = 0; r < p; ++r) spread[q] += geometry.distance(q, r);
    }
    std::vector<int> by_spread(p);
    std::iota(by_spread.begin(), by_spread.end(), 0);
    std::stable_sort(by_spread.begin(), by_spread.end(),
                     [&](int a, int b) { return spread[a] < spread[b]; });
    std::size_t spread_cursor = 0;

    std::vector<int> free(p), free_position(p), processor_of(n, -1);
    std::iota(free.begin(), free.end(), 0);
    std::iota(free_position.begin(), free_position.end(), 0);
    std::vector<double> to_placed(n, 0.0);
    using Key = std::tuple<double, double, int>;  // (bytes to placed, communication, -task)
    std::priority_queue<Key> heap;
    for (TaskId t = 0; t < n; ++t) heap.emplace(0.0, graph.communication(t), -t);

    for (int step = 0; step < n; ++step) {
      TaskId task = -1;
      while (task < 0) {
        const auto [placed_bytes, communication, negative] = heap.top();
        heap.pop();
        if (processor_of[-negative] < 0 && placed_bytes == to_placed[-negative]) task = -negative;
      }
      const auto neighbours = graph.neighbours(task);
      const auto bytes = graph.edge_bytes(task);
      poll.add(static_cast<std::int64_t>(free.size()) *
               (1 + static_cast<std::int64_t>(neighbours.size())));
      int best = -1;
      if (to_placed[task] == 0) {
        while (free_position[by_spread[spread_cursor]] < 0) ++spread_cursor;
        best = by_spread[spread_cursor];
      } else {
        double best_cost = 0;
        for (const int q : free) {
          double cost = 0;
          for (std::size_t i = 0; i < neighbours.size(); ++i)
            if (processor_of[neighbours[i]] >= 0)
              cost += bytes[i] * geometry.distance(q, processor_of[neighbours[i]]);
          if (best < 0 || cost < best_cost ||
              (cost == best_cost &&
               (spread[q] < spread[best] || (spread[q] == spread[best] && q < best)))) {
            best = q;
            best_cost = cost;
          }
        }
      }
      processor_of[task] = best;
      const int at = free_position[best];
      free[at] = free.back();
      free_position[free[at]] = at;
      free.pop_back();
      free_position[best] = -1;
      for (std::size_t i = 0; i < neighbours.size(); ++i) {
        const TaskId j = neighbours[i];
        if (processor_of[j] >= 0) continue;
        to_placed[j] += bytes[i];
        heap.emplace(to_placed[j], graph.communication(j), -j);
      }
    }
    placement.resize(n);
    for (TaskId t = 0; t < n; ++t) placement[t] = problem.processors[processor_of[t]];
  }
};

}  // namespace

void append_topocentlb_mappers(std::vector<RegistryEntry<MapperFactory>>& entries) {
  entries.push_back({"topocentlb",
                     "most bytes to placed tasks first, on the cheapest processor (§4.5)",
                     {},
                     [](const Params&) -> std::unique_ptr<Mapper> {
                       return std::make_unique<TopoCentLBMapper>();
                     }});
}

}  // namespace allocsim::mapping
