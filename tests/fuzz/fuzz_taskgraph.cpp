// Fuzz target: the task-graph readers (issue 25). The first byte picks the format ('0' METIS,
// '1' Matrix Market; only its low bit counts); the rest is the file's bytes, plain or gzip.
// Any input must give a valid task graph or an InputError; a graph of at most 64 tasks is then
// mapped onto six processors (METIS partitioning, its balance repair, TopoLB, hop-bytes), whose
// groups must meet the balance bound and whose totals must be finite. Anything else (crash,
// other exception, sanitizer report) is a finding.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "allocsim/mapping/graph_io.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/util/error.hpp"

namespace {

/// Aborts unless the graph is consistent: CSR symmetric, finite non-negative bytes and loads.
void check_graph(const allocsim::mapping::TaskGraph& graph) {
  double bytes = 0;
  for (allocsim::mapping::TaskId t = 0; t < graph.size(); ++t) {
    if (!(graph.load(t) >= 0) || !std::isfinite(graph.load(t))) std::abort();
    for (const double b : graph.edge_bytes(t)) {
      if (!(b > 0) || !std::isfinite(b)) std::abort();
      bytes += b;
    }
  }
  if (static_cast<std::int64_t>(graph.targets().size()) != 2 * graph.edge_count()) std::abort();
  if (!std::isfinite(bytes) || !std::isfinite(graph.total_bytes())) std::abort();
}

/// Maps a small graph onto a 2x3 mesh and checks the outcome.
void check_mapping(const allocsim::mapping::TaskGraph& graph) {
  if (graph.size() < 1 || graph.size() > 64) return;
  const allocsim::Topology topology = allocsim::Topology::parse("mesh:2x3");
  const std::vector<allocsim::NodeId> nodes{0, 1, 2, 3, 4, 5};
  const auto outcome = allocsim::mapping::map_graph(graph, topology, nodes, "topolb", 1);
  if (!std::isfinite(outcome.hop_bytes.hop_bytes) || !std::isfinite(outcome.link_load.max))
    std::abort();
  if (outcome.partitioned && outcome.max_group_load > outcome.balance_bound * (1 + 1e-9))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool matrix_market = (data[0] & 1) != 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const std::string text = allocsim::mapping::decode_task_graph_bytes(bytes, "fuzz-input");
    const auto graph = matrix_market ? allocsim::mapping::parse_matrix_market(text, "fuzz-input")
                                     : allocsim::mapping::parse_metis_graph(text, "fuzz-input");
    check_graph(graph);
    check_mapping(graph);
  } catch (const allocsim::InputError&) {
  }
  return 0;
}
