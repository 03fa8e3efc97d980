#include "allocsim/mapping/partition.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <metis.h>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::mapping {

namespace {
/// Positive METIS integers proportional to `values`, the largest becoming at most `ceiling`
/// and the smallest positive value at least 1 (where the ceiling allows).
std::vector<idx_t> to_metis_integers(const std::vector<double>& values, double ceiling) {
  double largest = 0, smallest = 0;
  for (const double v : values) {
    largest = std::max(largest, v);
    if (v > 0 && (smallest == 0 || v < smallest)) smallest = v;
  }
  double scale = smallest > 0 ? 1.0 / smallest : 1.0;
  if (largest * scale > ceiling) scale = ceiling / largest;
  std::vector<idx_t> result;
  result.reserve(values.size());
  for (const double v : values)
    result.push_back(std::max<idx_t>(1, static_cast<idx_t>(std::llround(v * scale))));
  return result;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

double metis_ubfactor(bool recursive) {
  return recursive ? 1.001 : 1.03;  // METIS 5.1 defaults: ufactor 1 (rb) and 30 (k-way)
}

double balance_bound(const TaskGraph& graph, int parts, bool recursive) {
  double total = 0, largest = 0;
  for (const double load : graph.loads()) {
    total += load;
    largest = std::max(largest, load);
  }
  const double mean = total / parts;
  // Recursive bisection applies the tolerance to each of its ⌈log2 parts⌉ bisections, each
  // also off by up to one task: the tolerance and the task term compound over the levels.
  const double levels = recursive ? std::ceil(std::log2(static_cast<double>(parts))) : 1.0;
  return std::max(std::pow(metis_ubfactor(recursive), levels) * mean,
                  mean + levels * (1.0 - 1.0 / parts) * largest);
}

void rebalance(const TaskGraph& graph, Partition& partition, double bound) {
  const int n = graph.size(), parts = partition.parts;
  std::vector<double> load(parts, 0.0);
  for (TaskId t = 0; t < n; ++t) load[partition.group_of[t]] += graph.load(t);
  // A tolerance for rounding in the sums (the bound is met exactly in exact arithmetic).
  const double slack = 1e-9 * std::max(1.0, bound);
  std::vector<double> bytes_to(parts, 0.0);
  std::vector<int> touched;
  std::vector<TaskId> members;
  for (int g = 0; g < parts; ++g) {
    if (load[g] <= bound + slack) continue;
    members.clear();
    for (TaskId t = 0; t < n; ++t)
      if (partition.group_of[t] == g && graph.load(t) > 0) members.push_back(t);
    while (load[g] > bound + slack) {
      // The lightest group: it has room for any task (the bound's second term).
      const int lightest =
          static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
      TaskId best_task = -1;
      int best_group = -1;
      double best_cost = 0;
      for (const TaskId t : members) {
        const auto neighbours = graph.neighbours(t);
        const auto bytes = graph.edge_bytes(t);
        for (std::size_t i = 0; i < neighbours.size(); ++i) {
          const int h = partition.group_of[neighbours[i]];
          if (bytes_to[h] == 0) touched.push_back(h);
          bytes_to[h] += bytes[i];
        }
        auto consider = [&](int h) {
          if (h == g || load[h] + graph.load(t) > bound + slack) return;
          const double cost = bytes_to[g] - bytes_to[h];  // cut bytes added by the move
          if (best_task < 0 || cost < best_cost ||
              (cost == best_cost && (t < best_task || (t == best_task && h < best_group)))) {
            best_task = t;
            best_group = h;
            best_cost = cost;
          }
        };
        for (const int h : touched) consider(h);
        consider(lightest);
        for (const int h : touched) bytes_to[h] = 0;
        touched.clear();
      }
      if (best_task < 0)  // impossible by the bound's construction; never loop forever
        throw std::logic_error("rebalance: no group has room within the balance bound");
      partition.group_of[best_task] = best_group;
      members.erase(std::find(members.begin(), members.end(), best_task));
      load[g] -= graph.load(best_task);
      load[best_group] += graph.load(best_task);
      ++partition.rebalanced_tasks;
    }
  }
  partition.bound = bound;
  partition.max_load = *std::max_element(load.begin(), load.end());
}

Partition partition_metis(const TaskGraph& graph, int parts, std::uint64_t seed, bool recursive) {
  if (parts < 1) throw InputError("partition: need at least one part");
  const int n = graph.size();
  Partition result;
  result.parts = parts;
  result.group_of.assign(n, 0);
  if (parts == 1) return result;
  if (n <= parts) {
    for (TaskId t = 0; t < n; ++t) result.group_of[t] = t;
    return result;
  }
  idx_t vertices = n, constraints = 1, nparts = parts, cut = 0;
  std::vector<idx_t> offsets(graph.offsets().begin(), graph.offsets().end());
  std::vector<idx_t> targets(graph.targets().begin(), graph.targets().end());
  // METIS sums the weights in idx_t (32 bits in Debian's build): the ceilings keep the total
  // vertex weight and the total edge weight below 2^30 (each weight is at least 1; the size
  // guards keep n and 2m below 2^30 too).
  const double budget = static_cast<double>(std::numeric_limits<idx_t>::max() / 2);
  std::vector<idx_t> loads = to_metis_integers(graph.loads(), std::min(1e6, budget / n));
  std::vector<idx_t> bytes = to_metis_integers(
      graph.all_edge_bytes(),
      std::min(100.0, budget / std::max<double>(1, static_cast<double>(graph.targets().size()))));
  std::vector<idx_t> part(n, 0);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed & 0x7fffffff);
  options[METIS_OPTION_NUMBERING] = 0;
  const auto metis = recursive ? METIS_PartGraphRecursive : METIS_PartGraphKway;
  const int status = metis(&vertices, &constraints, offsets.data(), targets.data(), loads.data(),
                           nullptr, bytes.empty() ? nullptr : bytes.data(), &nparts, nullptr,
                           nullptr, options, &cut, part.data());
  if (status != METIS_OK)
    throw std::runtime_error(
        std::string(recursive ? "METIS_PartGraphRecursive" : "METIS_PartGraphKway") +
        " failed with status " + std::to_string(status));
  for (TaskId t = 0; t < n; ++t) result.group_of[t] = static_cast<int>(part[t]);
  rebalance(graph, result, balance_bound(graph, parts, recursive));
  return result;
}

TaskGraph coalesce(const TaskGraph& graph, const Partition& partition) {
  std::vector<double> loads(partition.parts, 0.0);
  std::vector<TaskEdge> edges;
  for (TaskId t = 0; t < graph.size(); ++t) {
    const int g = partition.group_of[t];
    loads[g] += graph.load(t);
    if (graph.internal_bytes(t) > 0) edges.push_back({g, g, graph.internal_bytes(t)});
    const auto neighbours = graph.neighbours(t);
    const auto bytes = graph.edge_bytes(t);
    for (std::size_t i = 0; i < neighbours.size(); ++i)
      if (neighbours[i] > t) edges.push_back({g, partition.group_of[neighbours[i]], bytes[i]});
  }
  return TaskGraph::from_edges(partition.parts, std::move(edges), std::move(loads));
}

MapOutcome map_graph(const TaskGraph& graph, const Topology& topology,
                     std::span<const NodeId> processors, const std::string& mapper,
                     std::uint64_t seed, const TimeLimit* time_limit) {
  const TimeLimitPoll poll(time_limit);
  MapOutcome outcome;
  const MapperChain chain(mapper);
  outcome.mapper = chain.canonical();
  const int p = static_cast<int>(processors.size());
  if (p == 0 && graph.size() > 0) throw InputError("no processors to map onto");
  Rng rng(mix_seed(seed, 0x6d6170706572));
  if (graph.size() <= p) {
    const auto start = std::chrono::steady_clock::now();
    outcome.placement = chain.map({graph, topology, processors, time_limit}, rng);
    outcome.map_seconds = seconds_since(start);
    outcome.groups = graph.size();
    outcome.group_average_degree = graph.average_degree();
  } else {
    auto start = std::chrono::steady_clock::now();
    const Partition partition = partition_metis(graph, p, mix_seed(seed, 0x6d65746973));
    poll.check();
    const TaskGraph groups = coalesce(graph, partition);
    outcome.partition_seconds = seconds_since(start);
    outcome.partitioned = true;
    outcome.groups = p;
    outcome.rebalanced_tasks = partition.rebalanced_tasks;
    outcome.balance_bound = partition.bound;
    outcome.group_average_degree = groups.average_degree();
    start = std::chrono::steady_clock::now();
    const auto group_nodes = chain.map({groups, topology, processors, time_limit}, rng);
    outcome.map_seconds = seconds_since(start);
    outcome.placement.resize(graph.size());
    for (TaskId t = 0; t < graph.size(); ++t)
      outcome.placement[t] = group_nodes[partition.group_of[t]];
    double total = 0;
    for (TaskId g = 0; g < groups.size(); ++g) {
      outcome.max_group_load = std::max(outcome.max_group_load, groups.load(g));
      total += groups.load(g);
    }
    outcome.mean_group_load = total / p;
  }
  poll.check();
  outcome.hop_bytes = hop_bytes(graph, topology, outcome.placement);
  outcome.link_load = link_load(graph, topology, outcome.placement);
  return outcome;
}

}  // namespace allocsim::mapping
