// The mapper table (one row per mapper; add rows here, there is no self-registration) and
// '+'-composition of mapping stages.
#include "allocsim/mapping/mapper.hpp"

#include "allocsim/mapping/basic.hpp"
#include "allocsim/mapping/refine.hpp"
#include "allocsim/mapping/scotch.hpp"
#include "allocsim/mapping/topocentlb.hpp"
#include "allocsim/mapping/topolb.hpp"
#include "geometry.hpp"

namespace allocsim::mapping {

namespace {
std::vector<RegistryEntry<MapperFactory>> mapper_entries() {
  std::vector<RegistryEntry<MapperFactory>> entries;
  append_basic_mappers(entries);       // identity, random (mapping/basic.cpp)
  append_topocentlb_mappers(entries);  // topocentlb (mapping/topocentlb.cpp)
  append_topolb_mappers(entries);      // topolb (mapping/topolb.cpp)
  append_refine_mappers(entries);      // refine (mapping/refine.cpp)
  append_scotch_mappers(entries);      // scotch (mapping/scotch.cpp)
  return entries;
}
}  // namespace

const MapperRegistry& mapper_registry() {
  static const MapperRegistry registry("mapper", mapper_entries());
  return registry;
}

MapperChain::MapperChain(const std::string& spec) {
  std::size_t start = 0;
  while (true) {
    const auto plus = spec.find('+', start);
    const std::string stage = spec.substr(start, plus == std::string::npos ? plus : plus - start);
    if (stage.empty()) throw InputError("mapper '" + spec + "': empty stage around '+'");
    auto [entry, params] = mapper_registry().resolve(stage);
    stages_.push_back(entry->factory(params));
    if (!canonical_.empty()) canonical_ += '+';
    canonical_ += mapper_registry().canonical(stage);
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
}

std::vector<NodeId> MapperChain::map(const MappingProblem& problem, Rng& rng) const {
  check_problem(problem);
  std::vector<NodeId> placement;
  for (std::size_t i = 0; i < stages_.size(); ++i) {
    if (problem.time_limit) problem.time_limit->check_time_limit();
    // A chain that starts with `refine` refines the identity placement.
    if (i == 0 && canonical_.rfind("refine", 0) == 0)
      placement.assign(problem.processors.begin(),
                       problem.processors.begin() + problem.graph.size());
    stages_[i]->map(problem, rng, placement);
  }
  return placement;
}

void check_problem(const MappingProblem& problem) {
  const auto p = problem.processors.size();
  if (static_cast<std::size_t>(problem.graph.size()) > p)
    throw InputError("mapping " + std::to_string(problem.graph.size()) + " tasks onto " +
                     std::to_string(p) + " processors needs partitioning first");
  std::vector<char> used(problem.topology.node_count(), 0);
  for (const NodeId node : problem.processors) {
    if (node < 0 || node >= problem.topology.node_count())
      throw InputError("processor " + std::to_string(node) + " outside " + problem.topology.spec());
    if (used[node]) throw InputError("processor " + std::to_string(node) + " listed twice");
    used[node] = 1;
  }
}

std::vector<double> mean_distances(const Topology& topology, std::span<const NodeId> processors,
                                   const TimeLimit* time_limit) {
  const ProcessorGeometry geometry(topology, processors);
  const int p = geometry.size();
  std::vector<double> result(p, 0.0);
  TimeLimitPoll poll(time_limit);
  for (int q = 0; q < p; ++q) {
    poll.add(p);
    double sum = 0;
    for (int r = 0; r < p; ++r) sum += geometry.distance(q, r);
    result[q] = sum / p;
  }
  return result;
}

}  // namespace allocsim::mapping
