#include "allocsim/topo/topology.hpp"

#include <charconv>
#include <limits>

#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {
const char* const kAcceptedForms =
    "accepted forms: mesh:WxH[xD...] (e.g. mesh:16x16, mesh:8x8x5), torus:WxH[x...] "
    "(e.g. torus:4x4x4, torus:2x2x2x6x8), flat:N (e.g. flat:256); every side a positive integer";

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
  throw InputError("bad machine '" + std::string(spec) + "': " + why + "; " + kAcceptedForms);
}

std::vector<int> parse_sides(std::string_view spec, std::string_view text) {
  std::vector<int> sides;
  long long volume = 1;
  while (true) {
    const auto x = text.find('x');
    const std::string_view part = text.substr(0, x);
    int side = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), side);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
      bad_spec(spec, "'" + std::string(part) + "' is not a side length");
    if (side <= 0) bad_spec(spec, "side " + std::to_string(side) + " must be positive");
    volume *= side;
    if (volume > std::numeric_limits<NodeId>::max() / 2) bad_spec(spec, "too many nodes");
    sides.push_back(side);
    if (x == std::string_view::npos) break;
    text = text.substr(x + 1);
  }
  return sides;
}
}  // namespace

Topology Topology::parse(std::string_view spec) {
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) bad_spec(spec, "missing ':'");
  const std::string_view kind = spec.substr(0, colon);
  const std::vector<int> sides = parse_sides(spec, spec.substr(colon + 1));
  if (kind == "flat") {
    if (sides.size() != 1) bad_spec(spec, "flat takes one node count");
    return flat(sides[0]);
  }
  if (kind != "mesh" && kind != "torus") bad_spec(spec, "unknown kind '" + std::string(kind) + "'");
  return Topology(sides, std::vector<bool>(sides.size(), kind == "torus"));
}

Topology::Topology(std::vector<int> sides, std::vector<bool> wrap)
    : sides_(std::move(sides)), wrap_(std::move(wrap)) {
  if (sides_.empty() || sides_.size() != wrap_.size())
    throw InputError("topology needs one wrap flag per side");
  kind_ = Kind::mesh;
  for (bool w : wrap_)
    if (w) kind_ = Kind::torus;
  finish();
}

Topology Topology::flat(int nodes) {
  if (nodes <= 0) bad_spec("flat:" + std::to_string(nodes), "node count must be positive");
  Topology topology;
  topology.kind_ = Kind::flat;
  topology.sides_ = {nodes};
  topology.wrap_ = {false};
  topology.finish();
  return topology;
}

void Topology::finish() {
  strides_.assign(sides_.size(), 1);
  nodes_ = 1;
  for (std::size_t axis = 0; axis < sides_.size(); ++axis) {
    strides_[axis] = nodes_;
    nodes_ *= sides_[axis];
  }
}

std::string Topology::spec() const {
  std::string text = kind_ == Kind::flat    ? "flat:"
                     : kind_ == Kind::torus ? "torus:"
                                            : "mesh:";
  for (std::size_t axis = 0; axis < sides_.size(); ++axis)
    text += (axis ? "x" : "") + std::to_string(sides_[axis]);
  // A semitorus (some wraps missing) is spelled with its wrap flags.
  bool mixed = false;
  for (bool w : wrap_) mixed |= (w != wrap_[0]);
  if (mixed) {
    text += ":wrap=";
    for (bool w : wrap_) text += w ? '1' : '0';
  }
  return text;
}

void Topology::coords(NodeId node, std::span<int> out) const {
  for (int axis = 0; axis < dims(); ++axis) {
    out[axis] = node % sides_[axis];
    node /= sides_[axis];
  }
}

std::vector<int> Topology::coords(NodeId node) const {
  std::vector<int> out(sides_.size());
  coords(node, out);
  return out;
}

NodeId Topology::id(std::span<const int> coords) const {
  NodeId node = 0;
  for (int axis = dims() - 1; axis >= 0; --axis) node = node * sides_[axis] + coords[axis];
  return node;
}

int Topology::distance(NodeId a, NodeId b) const {
  if (kind_ == Kind::flat) return a == b ? 0 : 1;
  int total = 0;
  for (int axis = 0; axis < dims(); ++axis) {
    total += axis_distance(axis, a % sides_[axis], b % sides_[axis]);
    a /= sides_[axis];
    b /= sides_[axis];
  }
  return total;
}

std::vector<NodeId> Topology::neighbours(NodeId node) const {
  std::vector<NodeId> result;
  if (kind_ == Kind::flat) {
    for (NodeId other = 0; other < nodes_; ++other)
      if (other != node) result.push_back(other);
    return result;
  }
  for_each_neighbour(node, [&](NodeId other) { result.push_back(other); });
  return result;
}

}  // namespace allocsim
