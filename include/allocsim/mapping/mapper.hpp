#pragma once
// Task mappers (Agarwal, Sharma and Kalé §4): place the tasks of a (coalesced) task graph on a
// given list of processors — a whole machine or the nodes a job was allocated — so that bytes
// travel few hops. One explicit registry table; specs compose with '+', the later stages
// improving the earlier one's placement: `topolb:order=2+refine`.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "allocsim/mapping/task_graph.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/registry.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim::mapping {

/// What a mapper works on: the graph, the machine and the processors it may use (distinct
/// nodes, in the allocator's order). A mapper needs graph.size() <= processors.size().
/// `time_limit` (may be null): the mappers poll it in their loops (TopoLB's O(p²) setup and
/// per-task steps, TopoCentLB's, refine's passes), so `allocsim map --timeout` stops them.
struct MappingProblem {
  const TaskGraph& graph;
  const Topology& topology;
  std::span<const NodeId> processors;
  const TimeLimit* time_limit = nullptr;
};

/// One mapping stage. `placement` (task -> node) is empty for a first stage and holds the
/// previous stage's placement for later ones; the stage leaves a placement that uses each
/// processor at most once. Deterministic given the Rng state.
class Mapper {
 public:
  virtual ~Mapper() = default;
  virtual void map(const MappingProblem& problem, Rng& rng, std::vector<NodeId>& placement) = 0;
};

using MapperFactory = std::function<std::unique_ptr<Mapper>(const Params&)>;
using MapperRegistry = Registry<MapperFactory>;
const MapperRegistry& mapper_registry();

/// A '+'-separated chain of mapper specs, validated against the table.
class MapperChain {
 public:
  explicit MapperChain(const std::string& spec);
  /// Canonical spelling (defaults filled in), e.g. `topolb:order=2+refine:passes=20,scope=near`.
  const std::string& canonical() const { return canonical_; }
  /// Runs every stage; a chain starting with a refining stage starts from `identity`.
  std::vector<NodeId> map(const MappingProblem& problem, Rng& rng) const;

 private:
  std::vector<std::unique_ptr<Mapper>> stages_;
  std::string canonical_;
};

/// Throws InputError unless the processors are distinct nodes of the topology and at least as
/// many as the tasks.
void check_problem(const MappingProblem& problem);
/// Mean hop distance from each processor to all processors in the list (processors.size()
/// entries); O(p²·d).
std::vector<double> mean_distances(const Topology& topology, std::span<const NodeId> processors,
                                   const TimeLimit* time_limit = nullptr);

}  // namespace allocsim::mapping
