// The ordering table (row, snake, hilbert, ghilbert, file), ordering files, and the quality
// measures of an ordering (Leung et al., CLUSTER 2002, curve orderings: processors close on the
// curve should be close in the network). The curves themselves are in ordering_hilbert.cpp.
#include "allocsim/topo/ordering.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "allocsim/util/error.hpp"

namespace allocsim {

std::vector<NodeId> snake_order(const Topology& topology) {
  if (topology.graph()) topology.require_grid("ordering 'snake'");
  const int dims = topology.dims();
  std::vector<NodeId> order(topology.node_count());
  std::vector<int> digits(dims), coords(dims);
  for (NodeId rank = 0; rank < topology.node_count(); ++rank) {
    NodeId rest = rank;
    for (int axis = 0; axis < dims; ++axis) {
      digits[axis] = rest % topology.side(axis);
      rest /= topology.side(axis);
    }
    // Boustrophedon: an axis runs backwards when the higher coordinates sum to an odd number.
    int higher_sum = 0;
    for (int axis = dims - 1; axis >= 0; --axis) {
      coords[axis] = (higher_sum % 2) ? topology.side(axis) - 1 - digits[axis] : digits[axis];
      higher_sum += coords[axis];
    }
    order[rank] = topology.id(coords);
  }
  return order;
}

namespace {

std::vector<RegistryEntry<OrderingFactory>> ordering_entries() {
  std::vector<RegistryEntry<OrderingFactory>> entries;
  entries.push_back(
      {"row",
       "row-major: ranks are node ids (first dimension fastest; on graph machines the "
       "builder's or file's node order)",
       {},
       [](const Params&, const Topology& topology) { return row_order(topology); }});
  entries.push_back({"snake",
                     "boustrophedon in every dimension (consecutive nodes adjacent)",
                     {},
                     [](const Params&, const Topology& topology) {
                       // Flat: node id order (kept: golden runs of `curve` on flat:64 use it);
                       // graphs: snake_order refuses them.
                       if (topology.fully_connected()) return row_order(topology);
                       return snake_order(topology);
                     }});
  entries.push_back(
      {"hilbert",
       "Hilbert curve of the enclosing power-of-two cube, clipped to the box",
       {},
       [](const Params&, const Topology& topology) { return hilbert_order(topology); }});
  entries.push_back({"ghilbert",
                     "generalized Hilbert curve (Gilbert) for boxes of any side lengths",
                     {},
                     [](const Params&, const Topology& topology) {
                       return generalized_hilbert_order(topology);
                     }});
  entries.push_back(
      {"file",
       "read from a file: one node id per line ('#' comments), a permutation of all nodes",
       {ParamSpec{"path", ParamKind::text, "", "ordering file (required)", {}}},
       [](const Params& params, const Topology& topology) {
         const std::string& path = params.text("path");
         if (path.empty()) throw InputError("ordering 'file' needs a path: file:path=FILE");
         return read_ordering_file(path, topology);
       }});
  return entries;
}

}  // namespace

const OrderingRegistry& ordering_registry() {
  static const OrderingRegistry registry("ordering", ordering_entries());
  return registry;
}

std::vector<NodeId> make_ordering(const std::string& spec, const Topology& topology) {
  auto [entry, params] = ordering_registry().resolve(spec);
  return entry->factory(params, topology);
}

std::vector<NodeId> row_order(const Topology& topology) {
  std::vector<NodeId> order(topology.node_count());
  for (NodeId node = 0; node < topology.node_count(); ++node) order[node] = node;
  return order;
}

std::vector<NodeId> parse_ordering(std::istream& in, const Topology& topology,
                                   const std::string& source) {
  const int n = topology.node_count();
  std::vector<NodeId> order;
  std::vector<int> line_of(n, 0);
  std::string line;
  int line_number = 0;
  auto fail = [&](const std::string& what) {
    throw InputError("ordering file " + source + ", line " + std::to_string(line_number) + ": " +
                     what);
  };
  while (std::getline(in, line)) {
    ++line_number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    long long id = 0;
    if (!(fields >> id)) {
      std::string rest;
      fields.clear();
      if (fields >> rest) fail("expected a node id, found '" + rest + "'");
      continue;  // blank or comment-only line
    }
    std::string extra;
    if (fields >> extra) fail("expected one node id per line, found '" + extra + "' after it");
    if (id < 0 || id >= n)
      fail("node id " + std::to_string(id) + " is outside 0.." + std::to_string(n - 1) + " of " +
           topology.spec());
    if (line_of[id] != 0)
      fail("node " + std::to_string(id) + " already listed on line " + std::to_string(line_of[id]));
    line_of[id] = line_number;
    order.push_back(static_cast<NodeId>(id));
  }
  if (static_cast<int>(order.size()) != n) {
    std::ostringstream message;
    message << "ordering file " << source << " lists " << order.size() << " of the " << n
            << " nodes of " << topology.spec() << "; missing:";
    int shown = 0;
    for (int node = 0; node < n && shown < 5; ++node)
      if (line_of[node] == 0) {
        message << ' ' << node;
        ++shown;
      }
    if (n - static_cast<int>(order.size()) > shown) message << " ...";
    throw InputError(message.str());
  }
  return order;
}

std::vector<NodeId> read_ordering_file(const std::string& path, const Topology& topology) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open ordering file '" + path + "'");
  return parse_ordering(in, topology, "'" + path + "'");
}

bool is_node_permutation(std::span<const NodeId> order, int node_count) {
  if (static_cast<int>(order.size()) != node_count) return false;
  std::vector<char> seen(node_count, 0);
  for (NodeId node : order) {
    if (node < 0 || node >= node_count || seen[node]) return false;
    seen[node] = 1;
  }
  return true;
}

std::vector<int> ranks_of_nodes(std::span<const NodeId> order) {
  std::vector<int> rank(order.size(), -1);
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int>(r);
  return rank;
}

int max_consecutive_distance(const Topology& topology, std::span<const NodeId> order) {
  int result = 0;
  for (std::size_t i = 1; i < order.size(); ++i)
    result = std::max(result, topology.distance(order[i - 1], order[i]));
  return result;
}

double weighted_locality_sum(const Topology& topology, std::span<const NodeId> order,
                             int max_offset) {
  double total = 0;
  double weight = 1;
  const auto n = static_cast<int>(order.size());
  for (int k = 1; k <= max_offset && k < n; ++k) {
    weight *= 0.5;
    std::int64_t sum = 0;
    for (int i = 0; i + k < n; ++i) sum += topology.distance(order[i], order[i + k]);
    total += weight * static_cast<double>(sum);
  }
  return total;
}

OrderingQuality ordering_quality(const Topology& topology, std::span<const NodeId> order) {
  OrderingQuality quality;
  std::int64_t steps = 0;
  for (std::size_t i = 1; i < order.size(); ++i) {
    const int d = topology.distance(order[i - 1], order[i]);
    steps += d;
    quality.max_step = std::max(quality.max_step, d);
  }
  if (order.size() > 1)
    quality.mean_step = static_cast<double>(steps) / static_cast<double>(order.size() - 1);
  quality.locality = weighted_locality_sum(topology, order);
  if (!order.empty())
    quality.locality_per_node = quality.locality / static_cast<double>(order.size());
  return quality;
}

}  // namespace allocsim
