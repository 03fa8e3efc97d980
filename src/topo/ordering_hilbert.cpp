// Hilbert-type orderings: the classic Hilbert curve (Skilling 2004, clipped to the box) and the
// generalized Hilbert curve for boxes of any side lengths (Červený and Zzyzek, "A Generalized 2D
// and 3D Hilbert Curve", 2025, Algorithms 1-3 and split procedures S0-S2, J0-J2: the
// "Gilbert++" recursion, which stays adjacent-stepping on odd sides where the original 2018
// gilbert3d does not).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>

#include "allocsim/topo/ordering.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

/// The axes of a box whose side exceeds 1 (the others do not affect any curve).
std::vector<int> active_axes(const Topology& topology) {
  std::vector<int> axes;
  for (int axis = 0; axis < topology.dims(); ++axis)
    if (topology.side(axis) > 1) axes.push_back(axis);
  return axes;
}

// ---------------------------------------------------------------------------------------------
// Classic Hilbert curve, n-dimensional (Skilling, "Programming the Hilbert curve", AIP Conf.
// Proc. 707, 2004: AxestoTranspose, then the transposed bits interleaved form the index).

std::uint64_t hilbert_index(std::array<std::uint32_t, 64>& x, int n, int bits) {
  const std::uint32_t top = 1u << (bits - 1);
  for (std::uint32_t q = top; q > 1; q >>= 1) {  // inverse undo excess work
    const std::uint32_t p = q - 1;
    for (int i = 0; i < n; ++i) {
      if (x[i] & q) {
        x[0] ^= p;  // invert
      } else {
        const std::uint32_t t = (x[0] ^ x[i]) & p;  // exchange
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  for (int i = 1; i < n; ++i) x[i] ^= x[i - 1];  // Gray encode
  std::uint32_t t = 0;
  for (std::uint32_t q = top; q > 1; q >>= 1)
    if (x[n - 1] & q) t ^= q - 1;
  for (int i = 0; i < n; ++i) x[i] ^= t;
  std::uint64_t key = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < n; ++i) key = (key << 1) | ((x[i] >> b) & 1u);
  return key;
}

// ---------------------------------------------------------------------------------------------
// Generalized Hilbert curve ("Gilbert++"). Boxes are given by a corner p and three edge vectors
// (alpha, beta, gamma) along coordinate axes; the curve starts at p and heads along alpha.

struct V3 {
  int x = 0, y = 0, z = 0;
};
V3 operator+(V3 a, V3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
V3 operator-(V3 a, V3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
V3 operator-(V3 a) {
  return {-a.x, -a.y, -a.z};
}
int sgn(int v) {
  return (v > 0) - (v < 0);
}
V3 unit(V3 v) {
  return {sgn(v.x), sgn(v.y), sgn(v.z)};
}
/// Integer division of every component, truncating towards zero as the reference code does.
V3 divide(V3 v, int q) {
  return {v.x / q, v.y / q, v.z / q};
}
int length(V3 v) {
  return std::abs(v.x) + std::abs(v.y) + std::abs(v.z);
}

/// v / q (truncated), then moved one step further along v when its length has the wrong parity
/// and v is longer than 2: `want_odd` false prefers even parts, true forces an odd part.
V3 split_part(V3 v, int q, bool want_odd) {
  V3 part = divide(v, q);
  if (length(v) > 2 && (length(part) % 2 == 1) != want_odd) part = part + unit(v);
  return part;
}

/// Emits the points of the generalized Hilbert curve in order.
class GilbertWalker {
 public:
  explicit GilbertWalker(std::vector<V3>& out) : out_(out) {}

  /// Algorithm 1 (Gilbert2D) on the rectangle p + [0, alpha) x [0, beta).
  void curve2d(V3 p, V3 alpha, V3 beta) {
    const int a = length(alpha), b = length(beta);
    if (a == 0 || b == 0) return;
    if (b == 1) return line(p, unit(alpha), a);
    if (a == 1) return line(p, unit(beta), b);
    V3 alpha2 = divide(alpha, 2), beta2 = divide(beta, 2);
    if (2 * a > 3 * b) {  // long case: split alpha in two
      if (length(alpha2) % 2 == 1 && a > 2) alpha2 = alpha2 + unit(alpha);
      curve2d(p, alpha2, beta);
      curve2d(p + alpha2, alpha - alpha2, beta);
      return;
    }
    if (length(beta2) % 2 == 1 && b > 2) beta2 = beta2 + unit(beta);
    curve2d(p, beta2, alpha2);                                                          // up
    curve2d(p + beta2, alpha, beta - beta2);                                            // across
    curve2d(p + (alpha - unit(alpha)) + (beta2 - unit(beta)), -beta2, alpha2 - alpha);  // down
  }

  /// Algorithm 3 (Gilbert3D) on the cuboid p + [0, alpha) x [0, beta) x [0, gamma).
  void curve3d(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const int a = length(alpha), b = length(beta), g = length(gamma);
    if (a == 0 || b == 0 || g == 0) return;
    if (a == 2 && b == 2 && g == 2) return cube2(p, alpha, beta, gamma);
    if (a == 1) return curve2d(p, beta, gamma);
    if (b == 1) return curve2d(p, alpha, gamma);
    if (g == 1) return curve2d(p, alpha, beta);
    if (3 * a > 5 * b && 3 * a > 5 * g) return split_s0(p, alpha, beta, gamma);
    if (2 * b > 3 * g || 2 * b > 3 * a) return split_s2(p, alpha, beta, gamma);
    if (2 * g > 3 * b) return split_s1(p, alpha, beta, gamma);
    if (g % 2 == 0) return split_j0(p, alpha, beta, gamma);
    if (a % 2 == 0 || b % 2 == 0) return split_j1(p, alpha, beta, gamma);
    split_j2(p, alpha, beta, gamma);
  }

 private:
  void line(V3 p, V3 step, int count) {
    for (int i = 0; i < count; ++i, p = p + step) out_.push_back(p);
  }

  /// The 2x2x2 Hilbert cell.
  void cube2(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 da = unit(alpha), db = unit(beta), dg = unit(gamma);
    for (const V3 step : {db, dg, -db, da, db, -dg, -db}) {
      out_.push_back(p);
      p = p + step;
    }
    out_.push_back(p);
  }

  /// S0: eccentric along alpha, split it in two.
  void split_s0(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, false);
    curve3d(p, alpha2, beta, gamma);
    curve3d(p + alpha2, alpha - alpha2, beta, gamma);
  }

  /// S1: gamma long against beta; split gamma at a third and alpha in half.
  void split_s1(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, false), gamma3 = split_part(gamma, 3, false);
    const V3 da = unit(alpha), dg = unit(gamma);
    curve3d(p, gamma3, alpha2, beta);
    curve3d(p + gamma3, alpha, beta, gamma - gamma3);
    curve3d(p + (alpha - da) + (gamma3 - dg), -gamma3, -(alpha - alpha2), beta);
  }

  /// S2: beta long; split beta at a third and alpha in half.
  void split_s2(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, false), beta3 = split_part(beta, 3, false);
    const V3 da = unit(alpha), db = unit(beta);
    curve3d(p, beta3, gamma, alpha2);
    curve3d(p + beta3, alpha, beta - beta3, gamma);
    curve3d(p + (alpha - da) + (beta3 - db), -beta3, gamma, -(alpha - alpha2));
  }

  /// J0: bulk split into five blocks, gamma even.
  void split_j0(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, false), beta2 = split_part(beta, 2, false),
             gamma2 = split_part(gamma, 2, false);
    const V3 da = unit(alpha), db = unit(beta), dg = unit(gamma);
    curve3d(p, beta2, gamma2, alpha2);
    curve3d(p + beta2, gamma, alpha2, beta - beta2);
    curve3d(p + (beta2 - db) + (gamma - dg), alpha, -beta2, -(gamma - gamma2));
    curve3d(p + (alpha - da) + beta2 + (gamma - dg), -gamma, -(alpha - alpha2), beta - beta2);
    curve3d(p + (alpha - da) + (beta2 - db), -beta2, gamma2, -(alpha - alpha2));
  }

  /// J1: gamma odd and alpha or beta even; alpha's first part forced odd.
  void split_j1(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, true), beta2 = split_part(beta, 2, false),
             gamma2 = split_part(gamma, 2, false);
    const V3 da = unit(alpha), db = unit(beta), dg = unit(gamma);
    curve3d(p, gamma2, alpha2, beta2);
    curve3d(p + gamma2, beta, gamma - gamma2, alpha2);
    curve3d(p + (gamma2 - dg) + (beta - db), alpha, -(beta - beta2), -gamma2);
    curve3d(p + (alpha - da) + (beta - db) + gamma2, -beta, gamma - gamma2, -(alpha - alpha2));
    curve3d(p + (alpha - da) + (gamma2 - dg), -gamma2, -(alpha - alpha2), beta2);
  }

  /// J2: all three sides odd; alpha's first part forced odd.
  void split_j2(V3 p, V3 alpha, V3 beta, V3 gamma) {
    const V3 alpha2 = split_part(alpha, 2, true), beta2 = split_part(beta, 2, false),
             gamma2 = split_part(gamma, 2, false);
    const V3 da = unit(alpha), db = unit(beta), dg = unit(gamma);
    curve3d(p, beta2, gamma, alpha2);
    curve3d(p + beta2, gamma2, alpha, beta - beta2);
    curve3d(p + beta2 + gamma2, alpha, beta - beta2, gamma - gamma2);
    curve3d(p + (alpha - da) + (beta2 - db) + gamma2, -beta2, gamma - gamma2, -(alpha - alpha2));
    curve3d(p + (alpha - da) + (gamma2 - dg), -gamma2, -(alpha - alpha2), beta2);
  }

  std::vector<V3>& out_;
};

/// Boustrophedon over a box (first axis fastest): an axis runs backwards when the coordinates
/// of the slower axes sum to an odd number, so consecutive points differ by one step.
std::vector<std::vector<int>> snake_points(const std::vector<int>& sides) {
  std::int64_t count = 1;
  for (int side : sides) count *= side;
  std::vector<std::vector<int>> points;
  points.reserve(count);
  const int dims = static_cast<int>(sides.size());
  for (std::int64_t t = 0; t < count; ++t) {
    std::vector<int> point(dims);
    std::int64_t block = count, rest = t;
    int parity = 0;
    for (int axis = dims - 1; axis >= 0; --axis) {
      block /= sides[axis];
      const int raw = static_cast<int>(rest / block);
      rest %= block;
      point[axis] = parity % 2 ? sides[axis] - 1 - raw : raw;
      parity += point[axis];
    }
    points.push_back(std::move(point));
  }
  return points;
}

}  // namespace

std::vector<NodeId> hilbert_order(const Topology& topology) {
  if (topology.graph()) topology.require_grid("ordering 'hilbert'");
  const std::vector<int> axes = active_axes(topology);
  const int n = static_cast<int>(axes.size());
  if (!topology.has_coordinates() || n <= 1) return row_order(topology);
  int bits = 1;
  for (int axis : axes)
    while ((1LL << bits) < topology.side(axis)) ++bits;
  if (n * bits > 62)
    throw InputError("ordering 'hilbert' cannot index " + topology.spec() + " (needs " +
                     std::to_string(n * bits) + " bits, at most 62); use 'ghilbert'");
  std::vector<std::pair<std::uint64_t, NodeId>> keyed(topology.node_count());
  std::array<std::uint32_t, 64> x{};
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    for (int i = 0; i < n; ++i) x[i] = static_cast<std::uint32_t>(topology.coord(node, axes[i]));
    keyed[node] = {hilbert_index(x, n, bits), node};
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<NodeId> order(keyed.size());
  for (std::size_t r = 0; r < keyed.size(); ++r) order[r] = keyed[r].second;
  return order;
}

std::vector<NodeId> generalized_hilbert_order(const Topology& topology) {
  if (topology.graph()) topology.require_grid("ordering 'ghilbert'");
  const std::vector<int> axes = active_axes(topology);
  const int n = static_cast<int>(axes.size());
  if (!topology.has_coordinates() || n <= 1) return row_order(topology);

  // The inner curve over the first (up to) three active axes (on 2x2x2x6x8 and 3x4x5x6 this
  // scores better on weighted_locality_sum than using the three longest axes).
  std::vector<V3> inner;
  const int inner_dims = std::min(n, 3);
  inner.reserve(static_cast<std::size_t>(topology.side(axes[0])) * topology.side(axes[1]) *
                (inner_dims == 3 ? topology.side(axes[2]) : 1));
  GilbertWalker walker(inner);
  const V3 origin{0, 0, 0};
  if (inner_dims == 2)
    walker.curve2d(origin, {topology.side(axes[0]), 0, 0}, {0, topology.side(axes[1]), 0});
  else
    walker.curve3d(origin, {topology.side(axes[0]), 0, 0}, {0, topology.side(axes[1]), 0},
                   {0, 0, topology.side(axes[2])});

  // Remaining axes: a snake over them, running the inner curve forwards and backwards in turn
  // so that the last node of one block is next to the first node of the following one.
  std::vector<int> outer_sides;
  for (int i = 3; i < n; ++i) outer_sides.push_back(topology.side(axes[i]));
  const auto outer = snake_points(outer_sides);

  std::vector<NodeId> order;
  order.reserve(topology.node_count());
  std::vector<int> coords(topology.dims(), 0);
  for (std::size_t block = 0; block < outer.size(); ++block) {
    for (int i = 3; i < n; ++i) coords[axes[i]] = outer[block][i - 3];
    for (std::size_t j = 0; j < inner.size(); ++j) {
      const V3 point = block % 2 ? inner[inner.size() - 1 - j] : inner[j];
      coords[axes[0]] = point.x;
      coords[axes[1]] = point.y;
      if (inner_dims == 3) coords[axes[2]] = point.z;
      order.push_back(topology.id(coords));
    }
  }
  return order;
}

}  // namespace allocsim
