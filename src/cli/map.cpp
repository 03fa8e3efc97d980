// `allocsim map`: place a task graph (a pattern or a graph file) on a machine or on a list of
// its nodes with a mapper chain, and report hop-bytes, hops per byte, link load and seconds
// (Agarwal, Sharma and Kalé's TopoLB and friends; see include/allocsim/mapping/).
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "allocsim/mapping/graph_io.hpp"
#include "allocsim/mapping/partition.hpp"
#include "allocsim/mapping/patterns.hpp"
#include "allocsim/output/file.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {

struct MapArgs {
  std::string machine, nodes_file, pattern, graph_file, mapper = "topolb:order=2", format = "text",
                                                        out_file;
  std::uint64_t seed = 1;
};

/// Node ids, one per line (or several per line); `#` starts a comment.
std::vector<NodeId> read_nodes(const std::string& file, const Topology& topology) {
  std::ifstream in(file);
  if (!in) throw InputError("cannot open '" + file + "'");
  std::vector<NodeId> nodes;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line.substr(0, line.find('#')));
    std::string word;
    while (words >> word) {
      std::size_t used = 0;
      long value = -1;
      try {
        value = std::stol(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || value < 0 || value >= topology.node_count())
        throw InputError(file + ":" + std::to_string(number) + ": '" + word +
                         "' is not a node id of " + topology.spec());
      nodes.push_back(static_cast<NodeId>(value));
    }
  }
  return nodes;
}

void run_map(const MapArgs& args) {
  if (args.pattern.empty() == args.graph_file.empty())
    throw InputError("give exactly one of --pattern SPEC and --graph FILE");
  const Topology topology = Topology::parse(args.machine);
  std::vector<NodeId> nodes;
  if (args.nodes_file.empty()) {
    for (NodeId node = 0; node < topology.node_count(); ++node) nodes.push_back(node);
  } else {
    nodes = read_nodes(args.nodes_file, topology);
  }
  const mapping::TaskGraph graph = args.pattern.empty() ? mapping::read_task_graph(args.graph_file)
                                                        : mapping::make_pattern(args.pattern);
  const auto outcome = mapping::map_graph(graph, topology, nodes, args.mapper, args.seed);
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
  command->add_option("--machine", args->machine, "machine, e.g. torus:16x16")->required();
  command->add_option("--nodes", args->nodes_file,
                      "file of node ids to map onto (default: the whole machine)");
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
  command->callback([args] { run_map(*args); });
}

}  // namespace allocsim::cli
