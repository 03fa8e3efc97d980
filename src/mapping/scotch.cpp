#include "allocsim/mapping/scotch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "geometry.hpp"

extern "C" {
#include <scotch.h>
}

namespace allocsim::mapping {

namespace {

/// Releases Scotch objects however the mapping ends.
struct ScotchObjects {
  SCOTCH_Graph graph;
  SCOTCH_Graph bound;
  SCOTCH_Arch machine;
  SCOTCH_Arch subset;
  SCOTCH_Strat strategy;
  SCOTCH_Context context;
  bool has_graph = false, has_bound = false, has_machine = false, has_subset = false,
       has_strategy = false, has_context = false;
  ~ScotchObjects() {
    if (has_bound) SCOTCH_graphExit(&bound);
    if (has_graph) SCOTCH_graphExit(&graph);
    if (has_subset) SCOTCH_archExit(&subset);
    if (has_machine) SCOTCH_archExit(&machine);
    if (has_strategy) SCOTCH_stratExit(&strategy);
    if (has_context) SCOTCH_contextExit(&context);
  }
};

void check(int status, const char* what) {
  if (status != 0) throw std::runtime_error(std::string("scotch: ") + what + " failed");
}

class ScotchMapper final : public Mapper {
 public:
  explicit ScotchMapper(bool quality) : quality_(quality) {}

  void map(const MappingProblem& problem, Rng& rng, std::vector<NodeId>& placement) override {
    const TaskGraph& graph = problem.graph;
    const Topology& topology = problem.topology;
    const int n = graph.size(), p = static_cast<int>(problem.processors.size());
    placement.assign(n, -1);
    if (n == 0) return;
    if (p == 1) {  // Scotch 7.0 crashes building a one-terminal sub-architecture
      placement[0] = problem.processors[0];
      return;
    }
    // Integer edge weights: bytes scaled so the largest is at most 1e6, each at least 1.
    double largest = 0;
    for (const double b : graph.all_edge_bytes()) largest = std::max(largest, b);
    const double scale = largest > 1e6 ? 1e6 / largest : 1.0;
    std::vector<SCOTCH_Num> offsets(graph.offsets().begin(), graph.offsets().end());
    std::vector<SCOTCH_Num> targets(graph.targets().begin(), graph.targets().end());
    std::vector<SCOTCH_Num> weights;
    for (const double b : graph.all_edge_bytes())
      weights.push_back(std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::llround(b * scale))));

    ScotchObjects s;
    check(SCOTCH_contextInit(&s.context), "contextInit");
    s.has_context = true;
    check(SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "option");
    check(SCOTCH_contextRandomClone(&s.context), "contextRandomClone");
    SCOTCH_contextRandomSeed(&s.context, static_cast<SCOTCH_Num>(rng.next() & 0x7fffffff));
    check(SCOTCH_contextThreadSpawn(&s.context, 1, nullptr), "contextThreadSpawn");
    check(SCOTCH_graphInit(&s.graph), "graphInit");
    s.has_graph = true;
    check(SCOTCH_graphBuild(&s.graph, 0, n, offsets.data(), nullptr, nullptr, nullptr,
                            static_cast<SCOTCH_Num>(targets.size()), targets.data(),
                            weights.empty() ? nullptr : weights.data()),
          "graphBuild");
    check(SCOTCH_contextBindGraph(&s.context, &s.graph, &s.bound), "contextBindGraph");
    s.has_bound = true;

    check(SCOTCH_archInit(&s.machine), "archInit");
    s.has_machine = true;
    std::vector<SCOTCH_Num> part(n, -1);  // each task's terminal (processor index)
    if (const GraphMachine* machine = topology.graph()) {
      map_onto_graph(*machine, problem, s, part);
      repair(problem, part, placement);
      return;
    }
    if (topology.fully_connected()) {
      check(SCOTCH_archCmplt(&s.machine, topology.node_count()), "archCmplt");
    } else {
      std::vector<SCOTCH_Num> sides(topology.sides().begin(), topology.sides().end());
      bool all_wrap = true;
      for (int axis = 0; axis < topology.dims(); ++axis)
        all_wrap = all_wrap && topology.wraps(axis);
      check(all_wrap ? SCOTCH_archTorusX(&s.machine, topology.dims(), sides.data())
                     : SCOTCH_archMeshX(&s.machine, topology.dims(), sides.data()),
            "arch");
    }
    check(SCOTCH_archInit(&s.subset), "archInit");
    s.has_subset = true;
    std::vector<SCOTCH_Num> terminals(problem.processors.begin(), problem.processors.end());
    check(SCOTCH_archSub(&s.subset, &s.machine, p, terminals.data()), "archSub");

    map_with(s, s.subset, p, part);
    repair(problem, part, placement);
  }

 private:
  /// Maps the bound task graph onto `target` (p terminals) into `part`.
  void map_with(ScotchObjects& s, SCOTCH_Arch& target, int p, std::vector<SCOTCH_Num>& part) {
    check(SCOTCH_stratInit(&s.strategy), "stratInit");
    s.has_strategy = true;
    const SCOTCH_Num flags = quality_ ? SCOTCH_STRATQUALITY : SCOTCH_STRATDEFAULT;
    check(SCOTCH_stratGraphMapBuild(&s.strategy, flags | SCOTCH_STRATBALANCE, p, 0.0),
          "stratGraphMapBuild");
    check(SCOTCH_graphMap(&s.bound, &target, &s.strategy, part.data()), "graphMap");
  }

  /// Graph machines: the target is a decomposition-defined architecture built from the
  /// machine's own graph (Scotch user's guide 7.0, SCOTCH_archBuild2: "type-2
  /// decomposition-defined architecture" from a source graph and a list of its vertices): its
  /// vertices are the compute nodes and the routers/switches, an edge joins two vertices with a
  /// link between them (either direction; unweighted, so distances are hop counts as in
  /// Topology::distance), and the listed vertices, the terminals, are the job's processors.
  /// Scotch numbers the terminals by their index in that list, the processor index the repair
  /// step expects (checked on hand-made trees: tests/mapping/graph_machine_test.cpp).
  void map_onto_graph(const GraphMachine& machine, const MappingProblem& problem, ScotchObjects& s,
                      std::vector<SCOTCH_Num>& part) {
    const int vertices = machine.vertex_count();
    std::vector<std::vector<SCOTCH_Num>> adjacent(vertices);
    for (const GraphLink& link : machine.links()) {
      if (link.from == link.to) continue;
      adjacent[link.from].push_back(link.to);
      adjacent[link.to].push_back(link.from);
    }
    std::vector<SCOTCH_Num> offsets{0}, targets;
    for (auto& list : adjacent) {  // symmetric, without parallel edges, as Scotch requires
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
      targets.insert(targets.end(), list.begin(), list.end());
      offsets.push_back(static_cast<SCOTCH_Num>(targets.size()));
    }
    SCOTCH_Graph network;
    check(SCOTCH_graphInit(&network), "graphInit");
    struct Release {
      SCOTCH_Graph* graph;
      ~Release() { SCOTCH_graphExit(graph); }
    } release{&network};
    check(SCOTCH_graphBuild(&network, 0, vertices, offsets.data(), nullptr, nullptr, nullptr,
                            static_cast<SCOTCH_Num>(targets.size()), targets.data(), nullptr),
          "graphBuild (machine)");
    std::vector<SCOTCH_Num> terminals(problem.processors.begin(), problem.processors.end());
    check(SCOTCH_archBuild2(&s.machine, &network, static_cast<SCOTCH_Num>(terminals.size()),
                            terminals.data()),
          "archBuild2");
    map_with(s, s.machine, static_cast<int>(terminals.size()), part);
  }

  /// Turns Scotch's part numbers (indices into the processor list) into an injective placement.
  static void repair(const MappingProblem& problem, const std::vector<SCOTCH_Num>& part,
                     std::vector<NodeId>& placement) {
    const TaskGraph& graph = problem.graph;
    const ProcessorGeometry geometry(problem.topology, problem.processors);
    const int n = graph.size(), p = geometry.size();
    std::vector<int> owner(p, -1), at(n, -1), displaced;
    for (TaskId t = 0; t < n; ++t) {
      const SCOTCH_Num q = part[t];
      if (q >= 0 && q < p && owner[q] < 0) {
        owner[q] = t;
        at[t] = static_cast<int>(q);
      } else {
        displaced.push_back(t);
      }
    }
    for (const TaskId t : displaced) {
      const auto neighbours = graph.neighbours(t);
      const auto bytes = graph.edge_bytes(t);
      int best = -1;
      double best_cost = 0;
      for (int q = 0; q < p; ++q) {
        if (owner[q] >= 0) continue;
        double cost = 0;
        for (std::size_t i = 0; i < neighbours.size(); ++i)
          if (at[neighbours[i]] >= 0) cost += bytes[i] * geometry.distance(q, at[neighbours[i]]);
        if (best < 0 || cost < best_cost) best = q, best_cost = cost;
      }
      owner[best] = t;
      at[t] = best;
    }
    for (TaskId t = 0; t < n; ++t) placement[t] = problem.processors[at[t]];
  }

  bool quality_;
};

}  // namespace

void append_scotch_mappers(std::vector<RegistryEntry<MapperFactory>>& entries) {
  entries.push_back({"scotch",
                     "Scotch static mapping onto the machine (torus, mesh, complete graph, or the "
                     "graph machine's own graph), clashes repaired",
                     {{"strategy",
                       ParamKind::choice,
                       "quality",
                       "Scotch strategy flags",
                       {"quality", "default"}}},
                     [](const Params& p) -> std::unique_ptr<Mapper> {
                       return std::make_unique<ScotchMapper>(p.text("strategy") == "quality");
                     }});
}

}  // namespace allocsim::mapping
