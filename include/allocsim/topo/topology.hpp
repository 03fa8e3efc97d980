#pragma once
// Machine interconnects: meshes and tori of any dimension (with per-dimension wrap, so a
// semitorus is a torus with some wraps missing) and the flat complete graph.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace allocsim {

using NodeId = std::int32_t;

/// A mesh/torus/flat machine. Node ids number the first dimension fastest:
/// id = x + W*y + W*H*z + ... (as Scotch and most allocation simulators do).
class Topology {
 public:
  enum class Kind { mesh, torus, flat };

  /// Parses `mesh:16x16`, `mesh:8x8x5`, `torus:4x4x4`, `torus:2x2x2x6x8`, `flat:256`.
  /// Throws InputError showing the accepted forms.
  static Topology parse(std::string_view spec);
  /// A box with explicit per-dimension wrap flags (kind is torus if any wrap is set).
  Topology(std::vector<int> sides, std::vector<bool> wrap);
  /// The complete graph on `nodes` nodes.
  static Topology flat(int nodes);

  Kind kind() const { return kind_; }
  bool is_flat() const { return kind_ == Kind::flat; }
  int dims() const { return static_cast<int>(sides_.size()); }
  const std::vector<int>& sides() const { return sides_; }
  int side(int axis) const { return sides_[axis]; }
  bool wraps(int axis) const { return wrap_[axis]; }
  int node_count() const { return nodes_; }
  /// Canonical spec text, e.g. `torus:4x4x4`.
  std::string spec() const;

  /// Coordinate of `node` along `axis`.
  int coord(NodeId node, int axis) const { return (node / strides_[axis]) % sides_[axis]; }
  void coords(NodeId node, std::span<int> out) const;
  std::vector<int> coords(NodeId node) const;
  NodeId id(std::span<const int> coords) const;

  /// Hop distance along one axis between coordinates a and b (wrap-aware).
  int axis_distance(int axis, int a, int b) const {
    const int d = a > b ? a - b : b - a;
    return wrap_[axis] && sides_[axis] - d < d ? sides_[axis] - d : d;
  }
  /// Hop distance: L1 on a mesh, wrap-aware per dimension on a torus, 1 on flat (0 to itself).
  int distance(NodeId a, NodeId b) const;
  /// Direct neighbours of `node` (every other node on flat).
  std::vector<NodeId> neighbours(NodeId node) const;
  /// Calls f(neighbour) for every neighbour without allocating (not for flat machines).
  template <class F>
  void for_each_neighbour(NodeId node, F&& f) const {
    for (int axis = 0; axis < dims(); ++axis) {
      const int c = coord(node, axis), n = sides_[axis], stride = strides_[axis];
      if (n == 1) continue;
      if (c + 1 < n) f(node + stride);
      else if (wrap_[axis] && n > 2) f(node - (n - 1) * stride);
      if (c > 0) f(node - stride);
      else if (wrap_[axis] && n > 2) f(node + (n - 1) * stride);  // n == 2: links coincide
    }
  }

 private:
  Topology() = default;
  void finish();

  Kind kind_ = Kind::mesh;
  std::vector<int> sides_;
  std::vector<bool> wrap_;
  std::vector<int> strides_;
  int nodes_ = 0;
};

}  // namespace allocsim
