// `allocsim map`: place a task graph (a pattern or a graph file) on a machine or on a list of
// its nodes with a mapper chain, and report hop-bytes, hops per byte, link load and seconds
// (Agarwal, Sharma and Kalé's TopoLB and friends; see include/allocsim/mapping/).
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "allocsim/mapping/graph_io.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/metrics/records.hpp"
#include "allocsim/output/file.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/util/time_limit.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {

struct MapArgs {
  std::string machine, nodes_file, pattern, graph_file, mapper = "topolb:order=2", format = "text",
                                                        out_file;
  std::uint64_t seed = 1;
  double timeout_seconds = 0;
};

/// The wall-clock limit of one `allocsim map` (the TimeLimit the simulations' watchdog uses):
/// the mappers poll it and it throws TimeoutError (exit 4) once `seconds` have passed.
class MapDeadline final : public TimeLimit {
 public:
  explicit MapDeadline(double seconds)
      : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
  void check_time_limit() const override {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
    if (elapsed.count() > seconds_)
      throw TimeoutError("map exceeded its timeout of " + number_text(seconds_) + " s (--timeout)");
  }

 private:
  double seconds_;
  std::chrono::steady_clock::time_point start_;
};

/// Longest line of a --nodes file: a line of an endless input (/dev/zero, a FIFO) stops here.
constexpr std::size_t kMaxNodesLine = std::size_t{1} << 20;

/// Appends the node ids of `text` (ids and first-last ranges, the interval notation allocsim
/// prints: node_interval_set) to `nodes`; `where` names the file and line (or the option) in
/// errors. At most one id per machine node.
void add_node_words(const std::string& text, const Topology& topology, const std::string& where,
                    std::vector<NodeId>& nodes) {
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    std::vector<int> ids;
    try {
      ids = parse_node_interval_set(word, static_cast<int>(topology.node_count()));
    } catch (const InputError&) {
      throw InputError(where + ": '" + word + "' is not a node id or first-last range of " +
                       topology.spec() + " (nodes 0-" + std::to_string(topology.node_count() - 1) +
                       ")");
    }
    if (static_cast<long long>(nodes.size() + ids.size()) > topology.node_count())
      throw InputError(where + ": more node ids than the " + std::to_string(topology.node_count()) +
                       " nodes of " + topology.spec());
    nodes.insert(nodes.end(), ids.begin(), ids.end());
  }
}

/// Node ids, one per line (or several per line, or first-last ranges); `#` starts a comment. At
/// most one id per machine node and kMaxNodesLine bytes per line, so an endless input stops with an
/// error.
std::vector<NodeId> read_nodes(const std::string& file, const Topology& topology) {
  std::ifstream in(file);
  if (!in) throw InputError("cannot open '" + file + "'");
  std::vector<NodeId> nodes;
  std::string line;
  int number = 0;
  while (true) {
    line.clear();
    char c = 0;
    bool any = false;
    while (in.get(c) && c != '\n') {
      any = true;
      if (c == '\0')
        throw InputError(file + ":" + std::to_string(number + 1) +
                         ": binary data (a NUL byte); expected node ids");
      if (line.size() >= kMaxNodesLine)
        throw InputError(file + ":" + std::to_string(number + 1) + ": line longer than " +
                         std::to_string(kMaxNodesLine) + " bytes");
      line += c;
    }
    if (!any && !in) break;
    ++number;
    add_node_words(line.substr(0, line.find('#')), topology, file + ":" + std::to_string(number),
                   nodes);
    if (!in) break;
  }
  return nodes;
}

/// The --nodes value: a file of node ids when such a file exists, else the ids written inline
/// in the interval notation allocsim prints ("0-3 8 10-11").
std::vector<NodeId> nodes_of(const std::string& value, const Topology& topology) {
  std::error_code error;
  const bool inline_ids = !std::filesystem::exists(value, error) && !value.empty() &&
                          value.find_first_not_of("0123456789- \t,") == std::string::npos;
  if (!inline_ids) return read_nodes(value, topology);
  std::string words = value;
  std::replace(words.begin(), words.end(), ',', ' ');
  std::vector<NodeId> nodes;
  add_node_words(words, topology, "--nodes '" + value + "'", nodes);
  return nodes;
}

void run_map(const MapArgs& args) {
  if (args.pattern.empty() == args.graph_file.empty())
    throw InputError("give exactly one of --pattern SPEC and --graph FILE");
  require_number(args.timeout_seconds, timeout_rule(), "--timeout");
  const MapDeadline deadline(args.timeout_seconds);
  const TimeLimit* limit = args.timeout_seconds > 0 ? &deadline : nullptr;
  const Topology topology = Topology::parse(args.machine);
  std::vector<NodeId> nodes;
  if (args.nodes_file.empty()) {
    for (NodeId node = 0; node < topology.node_count(); ++node) nodes.push_back(node);
  } else {
    nodes = nodes_of(args.nodes_file, topology);
  }
  const mapping::TaskGraph graph = args.pattern.empty() ? mapping::read_task_graph(args.graph_file)
                                                        : mapping::make_pattern(args.pattern);
  const auto outcome = mapping::map_graph(graph, topology, nodes, args.mapper, args.seed, limit);
  if (!args.out_file.empty()) {
    output::OutputFile file(args.out_file, "--out file");
    std::ostream& out = file.stream();
    out << "# task node\n";
    for (std::size_t t = 0; t < outcome.placement.size(); ++t)
      out << t << ' ' << outcome.placement[t] << '\n';
    file.finish();
  }
  std::ostream& out = std::cout;
  out << std::setprecision(10);
  const double seconds = outcome.partition_seconds + outcome.map_seconds;
  if (args.format == "json") {
    const nlohmann::ordered_json json = {{"machine", topology.spec()},
                                         {"processors", nodes.size()},
                                         {"tasks", graph.size()},
                                         {"mapper", outcome.mapper},
                                         {"seed", args.seed},
                                         {"partitioned", outcome.partitioned},
                                         {"groups", outcome.groups},
                                         {"rebalanced_tasks", outcome.rebalanced_tasks},
                                         {"group_average_degree", outcome.group_average_degree},
                                         {"hop_bytes", outcome.hop_bytes.hop_bytes},
                                         {"total_bytes", outcome.hop_bytes.total_bytes},
                                         {"hops_per_byte", outcome.hop_bytes.hops_per_byte()},
                                         {"max_link_load", outcome.link_load.max},
                                         {"mean_link_load", outcome.link_load.mean},
                                         {"partition_seconds", outcome.partition_seconds},
                                         {"map_seconds", outcome.map_seconds},
                                         {"seconds", seconds}};
    out << output::json_text(json) << '\n';
    return;
  }
  out << "machine          " << topology.spec() << " (" << nodes.size() << " processors)\n"
      << "tasks            " << graph.describe() << '\n'
      << "mapper           " << outcome.mapper << '\n';
  if (outcome.partitioned)
    out << "groups           " << outcome.groups << " (METIS), average degree "
        << outcome.group_average_degree << ", max load " << outcome.max_group_load << ", mean load "
        << outcome.mean_group_load << '\n';
  if (outcome.rebalanced_tasks > 0)
    out << "rebalanced       " << outcome.rebalanced_tasks
        << (outcome.rebalanced_tasks == 1 ? " task" : " tasks")
        << " moved after METIS, whose groups exceeded the balance bound " << outcome.balance_bound
        << " (partition.hpp)\n";
  out << "hop-bytes        " << outcome.hop_bytes.hop_bytes << '\n'
      << "hops per byte    " << outcome.hop_bytes.hops_per_byte() << '\n'
      << "max link load    " << outcome.link_load.max << " bytes\n"
      << "mean link load   " << outcome.link_load.mean << " bytes (over "
      << outcome.link_load.machine_links << " channels)\n"
      << "seconds          " << seconds << " (partition " << outcome.partition_seconds << ", map "
      << outcome.map_seconds << ")\n";
}

}  // namespace

void add_map_command(CLI::App& app) {
  auto args = std::make_shared<MapArgs>();
  auto* command =
      app.add_subcommand("map", "map a task graph onto processors (TopoLB, TopoCentLB, ...)");
  command->footer(
      "Cost of the mappers, p processors (or groups), m edges of the mapped graph:\n"
      "  topolb      O(p^2 + p*m) time, an n*p table of doubles (refused above 4e8 entries);\n"
      "              quadratic in p: twice the processors take about 4x as long (a torus of\n"
      "              16^3 to one of 32^3, 8x the processors: about 50x as long), see --timeout\n"
      "  topocentlb  O(p^2 + p*m) time\n"
      "  refine      O(passes * m * d) (scope=near) or O(passes * n * p * d) (scope=all)\n"
      "  scotch      Scotch's static mapping, about O(m log p)\n"
      "  identity, random  O(n)\n"
      "With more tasks than processors METIS partitions first (O(m)); groups above the balance\n"
      "bound (METIS's 3 % or one task's load above the mean) are rebalanced and reported.");
  command
      ->add_option("--machine", args->machine,
                   "machine, e.g. torus:16x16 or any machine kind (allocsim list topologies)")
      ->required();
  command->add_option(
      "--nodes", args->nodes_file,
      "node ids to map onto, inline in the interval notation allocsim prints ('0-3 8 10-11') "
      "or a file of them (default: the whole machine)");
  command->add_option("--pattern", args->pattern,
                      "pattern, e.g. mesh2d:16x16, leanmd:cells=6x6x6,procs=512");
  command->add_option("--graph", args->graph_file, "METIS .graph or Matrix Market .mtx file");
  command->add_option("--mapper", args->mapper, "mapper chain, e.g. topolb:order=2+refine")
      ->capture_default_str();
  command->add_option("--seed", args->seed, "seed of random choices")->capture_default_str();
  command->add_option("--format", args->format, "text | json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command->add_option("--out", args->out_file, "write the mapping (task node per line)");
  command
      ->add_option("--timeout", args->timeout_seconds,
                   "wall-clock limit in seconds (0 = none), checked inside the mappers' loops; "
                   "exit status 4 when it is reached")
      ->capture_default_str();
  command->callback([args] { run_map(*args); });
}

}  // namespace allocsim::cli
