// `allocsim optimum`: the point-set problem of Bender et al. (choose k points with the least sum
// of pairwise L1 distances) on a point file or on the free processors of a machine. On an empty
// mesh this is the unconstrained problem (the optimal clusters of the paper's Figure 2).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "allocsim/geom/solve.hpp"
#include "allocsim/output/json.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/error.hpp"
#include "commands.hpp"

namespace allocsim::cli {

namespace {

struct OptimumArgs {
  std::string points_file, machine, busy_file, method = "exact", budget = "10s", format = "text";
  long long nodes = 0;
  int k = -1;
};

/// Integers of one line separated by spaces, tabs or commas; empty for blank or `#` lines.
std::vector<int> parse_line(const std::string& line, const std::string& file, int number) {
  std::string text = line.substr(0, line.find('#'));
  std::replace(text.begin(), text.end(), ',', ' ');
  std::replace(text.begin(), text.end(), '\t', ' ');
  std::istringstream in(text);
  std::vector<int> values;
  std::string token;
  while (in >> token) {
    std::size_t used = 0;
    long value = 0;
    try {
      value = std::stol(token, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != token.size() || value < -1000000000L || value > 1000000000L)
      throw InputError(file + ":" + std::to_string(number) + ": '" + token +
                       "' is not an integer coordinate");
    values.push_back(static_cast<int>(value));
  }
  return values;
}

/// Rows of integers; with `same_length`, every row must have as many as the first.
std::vector<std::vector<int>> read_rows(const std::string& file, bool same_length = true) {
  std::ifstream in(file);
  if (!in) throw InputError("cannot open '" + file + "'");
  std::vector<std::vector<int>> rows;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    auto values = parse_line(line, file, number);
    if (values.empty()) continue;
    if (same_length && !rows.empty() && values.size() != rows.front().size())
      throw InputError(file + ":" + std::to_string(number) + ": " + std::to_string(values.size()) +
                       " coordinates, but the first point has " +
                       std::to_string(rows.front().size()));
    rows.push_back(std::move(values));
  }
  return rows;
}

/// ASCII picture of a 2D selection: '#' chosen, '.' available, ' ' neither.
void draw(const geom::PointSet& points, const std::vector<int>& chosen, std::ostream& out) {
  if (points.dims() != 2 || points.size() == 0) return;
  int x0 = points.coord(0, 0), x1 = x0, y0 = points.coord(0, 1), y1 = y0;
  for (int i = 0; i < points.size(); ++i) {
    x0 = std::min(x0, points.coord(i, 0)), x1 = std::max(x1, points.coord(i, 0));
    y0 = std::min(y0, points.coord(i, 1)), y1 = std::max(y1, points.coord(i, 1));
  }
  if (x1 - x0 >= 100 || y1 - y0 >= 60) return;
  std::vector<std::string> grid(y1 - y0 + 1, std::string(x1 - x0 + 1, ' '));
  for (int i = 0; i < points.size(); ++i)
    grid[points.coord(i, 1) - y0][points.coord(i, 0) - x0] = '.';
  for (const int i : chosen) grid[points.coord(i, 1) - y0][points.coord(i, 0) - x0] = '#';
  for (auto row = grid.rbegin(); row != grid.rend(); ++row) out << "  " << *row << '\n';
}

void run_optimum(const OptimumArgs& args) {
  if (args.points_file.empty() == args.machine.empty())
    throw InputError("give exactly one of --points FILE and --machine SPEC");
  if (!args.busy_file.empty() && args.machine.empty()) throw InputError("--busy needs --machine");
  if (args.k < 0) throw InputError("-k must not be negative");
  geom::PointSet points;
  std::vector<NodeId> node_of;  // machine mode: point -> node id
  if (!args.points_file.empty()) {
    const auto rows = read_rows(args.points_file);
    if (rows.empty()) throw InputError("'" + args.points_file + "' holds no points");
    points = geom::PointSet::from_rows(rows);
  } else {
    const Topology topology = Topology::parse(args.machine);
    if (topology.graph()) topology.require_grid("optimum");  // names the graph's kind
    if (!topology.has_coordinates()) throw InputError("optimum needs a mesh or torus machine");
    std::vector<char> busy(topology.node_count(), 0);
    if (!args.busy_file.empty()) {
      for (const auto& row : read_rows(args.busy_file, false)) {
        NodeId node = -1;
        if (row.size() == 1 && topology.dims() != 1) {
          node = row[0];
        } else if (static_cast<int>(row.size()) == topology.dims()) {
          for (int axis = 0; axis < topology.dims(); ++axis)
            if (row[axis] < 0 || row[axis] >= topology.side(axis))
              throw InputError("busy coordinate outside " + topology.spec());
          node = topology.id(row);
        } else {
          throw InputError("busy lines must hold a node id or " + std::to_string(topology.dims()) +
                           " coordinates");
        }
        if (node < 0 || node >= topology.node_count())
          throw InputError("busy node " + std::to_string(node) + " outside " + topology.spec());
        busy[node] = 1;
      }
    }
    std::vector<int> rings;
    for (int axis = 0; axis < topology.dims(); ++axis)
      rings.push_back(topology.wraps(axis) ? topology.side(axis) : 0);
    points = geom::PointSet(topology.dims(), rings);
    for (NodeId node = 0; node < topology.node_count(); ++node)
      if (!busy[node]) {
        points.add(topology.coords(node));
        node_of.push_back(node);
      }
  }
  geom::Budget budget;
  budget.seconds = geom::parse_duration_seconds(args.budget);
  budget.nodes = args.nodes;
  const geom::Selection result = geom::solve(args.method, points, args.k, budget);
  const double average =
      args.k >= 2 ? static_cast<double>(result.sum) / static_cast<double>(geom::pair_count(args.k))
                  : 0.0;
  std::ostream& out = std::cout;
  if (args.format == "json") {
    nlohmann::ordered_json json = {
        {"method", args.method}, {"k", args.k}, {"sum", result.sum}, {"average", average}};
    auto chosen = nlohmann::ordered_json::array();
    for (const int index : result.indices) {
      std::vector<int> point;
      for (int axis = 0; axis < points.dims(); ++axis) point.push_back(points.coord(index, axis));
      chosen.push_back(point);
    }
    json["points"] = chosen;
    json["proven"] = result.proven;
    json["lower_bound"] = result.lower_bound;
    json["seconds"] = result.seconds;
    if (!node_of.empty()) {
      std::vector<long long> nodes;
      for (const int index : result.indices) nodes.push_back(node_of[index]);
      json["nodes"] = nodes;
    }
    out << output::json_text(json) << '\n';
    return;
  }
  out << "method       " << args.method << '\n'
      << "k            " << args.k << '\n'
      << "sum          " << result.sum << '\n'
      << "average      " << std::setprecision(6) << average << '\n'
      << "proven       " << (result.proven ? "yes" : "no") << '\n'
      << "lower bound  " << result.lower_bound << '\n'
      << "seconds      " << std::setprecision(4) << result.seconds << '\n'
      << "points      ";
  for (const int i : result.indices) {
    out << " (";
    for (int axis = 0; axis < points.dims(); ++axis)
      out << (axis ? "," : "") << points.coord(i, axis);
    out << ')';
  }
  out << '\n';
  draw(points, result.indices, out);
}

}  // namespace

void add_optimum_command(CLI::App& app) {
  auto args = std::make_shared<OptimumArgs>();
  auto* command = app.add_subcommand(
      "optimum", "choose k points (or free processors) with the least sum of pairwise distances");
  command->add_option("--points", args->points_file,
                      "file with one point per line (integers separated by spaces or commas)");
  command->add_option("--machine", args->machine,
                      "machine, e.g. mesh:20x20 (all nodes free; grids only)");
  command->add_option("--busy", args->busy_file,
                      "file of busy nodes with --machine: a node id or coordinates per line");
  command->add_option("-k", args->k, "number of points to choose")->required();
  command
      ->add_option("--method", args->method,
                   "exact | ptas:m=4 | mm | genalg | mc1x1 | mc:shape=AxB | mm-inc")
      ->capture_default_str();
  command->add_option("--budget", args->budget, "time budget of exact and ptas, e.g. 10s, 500ms")
      ->capture_default_str();
  command->add_option("--nodes", args->nodes,
                      "search-node budget of exact and ptas (0 = unlimited; deterministic)");
  command->add_option("--format", args->format, "text | json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  command->callback([args] { run_optimum(*args); });
}

}  // namespace allocsim::cli
