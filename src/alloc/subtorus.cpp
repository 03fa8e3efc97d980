// Pure subtorus algorithms (Mao, Chen, Watson): preprocessing, EP and NEP partitions, conversion
// of a semitorus into a torus shape. The allocator itself is in subtorus_allocator.cpp.
#include <algorithm>
#include <bit>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

bool is_power_of_two(std::int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

int log2_exact(std::int64_t n) {
  // Smallest k with 2^k >= n, for n >= 1.
  return static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1)));
}

/// Coordinates of `rank` in a box of `sides`, first dimension fastest.
void decode(std::int64_t rank, const std::vector<int>& sides, std::vector<int>& out) {
  out.resize(sides.size());
  for (std::size_t d = 0; d < sides.size(); ++d) {
    out[d] = static_cast<int>(rank % sides[d]);
    rank /= sides[d];
  }
}

/// Boustrophedon (reflected mixed-radix) order of a box: consecutive indices are neighbours.
void snake_decode(std::int64_t index, const std::vector<int>& sides, std::vector<int>& out) {
  decode(index, sides, out);
  int parity = 0;
  for (int d = static_cast<int>(sides.size()) - 1; d >= 0; --d) {
    if (parity % 2 == 1) out[d] = sides[d] - 1 - out[d];
    parity += out[d];
  }
}

}  // namespace

std::int64_t Semitorus::size() const {
  std::int64_t n = 1;
  for (int side : sides) n *= side;
  return n;
}

int ceil_log2(std::int64_t n) {
  return n <= 1 ? 0 : log2_exact(n);
}

std::int64_t round_up_power_of_two(std::int64_t procs) {
  return std::int64_t{1} << ceil_log2(procs);
}

std::string format_sides(const std::vector<int>& sides) {
  std::size_t last = sides.size();
  while (last > 1 && sides[last - 1] == 1) --last;
  std::ostringstream out;
  for (std::size_t d = 0; d < last; ++d) out << (d ? "x" : "") << sides[d];
  return out.str();
}

Semitorus sub_semitorus(const Semitorus& parent, std::vector<int> origin, std::vector<int> sides) {
  Semitorus piece{std::move(origin), std::move(sides), {}};
  piece.wrap.resize(piece.sides.size());
  for (int d = 0; d < piece.dims(); ++d)
    piece.wrap[d] = piece.sides[d] <= 2 || (piece.sides[d] == parent.sides[d] && parent.wrap[d]);
  return piece;
}

std::vector<Semitorus> preprocess(const std::vector<int>& sides, const std::vector<bool>& wrap) {
  if (sides.empty() || sides.size() != wrap.size())
    throw InputError("subtorus preprocessing needs one wrap flag per machine side");
  int odd_axis = -1;
  for (int d = 0; d < static_cast<int>(sides.size()); ++d) {
    if (sides[d] < 1) throw InputError("subtorus preprocessing: machine sides must be positive");
    if (is_power_of_two(sides[d])) continue;
    if (odd_axis >= 0) {
      std::ostringstream message;
      message << "subtorus allocation needs a torus whose sides are powers of two except at most "
                 "one (paper's preprocessing assumption); sides "
              << sides[odd_axis] << " and " << sides[d] << " are both not powers of two";
      throw InputError(message.str());
    }
    odd_axis = d;
  }
  Semitorus machine{std::vector<int>(sides.size(), 0), sides, wrap};
  for (int d = 0; d < machine.dims(); ++d) machine.wrap[d] = wrap[d] || sides[d] <= 2;
  if (odd_axis < 0) return {machine};
  // side = 2^a * p with p odd: one piece of 2^a * 2^j for every set bit j of p, largest first.
  const int side = sides[odd_axis];
  const int unit = side & -side;
  std::vector<Semitorus> pieces;
  int offset = 0;
  const int p = side / unit;
  for (int bit = 30; bit >= 0; --bit) {
    if (((p >> bit) & 1) == 0) continue;
    std::vector<int> origin(sides.size(), 0), piece_sides = sides;
    origin[odd_axis] = offset;
    piece_sides[odd_axis] = unit << bit;
    offset += unit << bit;
    pieces.push_back(sub_semitorus(machine, std::move(origin), std::move(piece_sides)));
  }
  return pieces;
}

std::vector<Semitorus> preprocess(const Topology& topology) {
  if (topology.kind() != Topology::Kind::torus)
    throw InputError("subtorus allocators need a torus machine (torus:AxBx...), got '" +
                     topology.spec() + "'; use `flat` or a mesh allocator instead");
  std::vector<bool> wrap(topology.dims());
  for (int d = 0; d < topology.dims(); ++d) wrap[d] = topology.wraps(d);
  return preprocess(topology.sides(), wrap);
}

std::vector<int> ep_piece_sides(const std::vector<int>& sides, std::int64_t m) {
  std::vector<int> room(sides.size()), exponent(sides.size(), 0);
  for (std::size_t d = 0; d < sides.size(); ++d) room[d] = log2_exact(sides[d]);
  int k = ceil_log2(m);
  if (!is_power_of_two(m) || k > std::accumulate(room.begin(), room.end(), 0))
    throw std::invalid_argument("ep_piece_sides: m must be a power of two no larger than S");
  // Water-filling by levels: every dimension with room gets one more doubling per level; on the
  // last, partial level the dimensions with the least room left go first (then lowest index).
  while (k > 0) {
    std::vector<int> open;
    for (std::size_t d = 0; d < sides.size(); ++d)
      if (room[d] > 0) open.push_back(static_cast<int>(d));
    std::stable_sort(open.begin(), open.end(), [&](int a, int b) { return room[a] < room[b]; });
    for (int d : open) {
      if (k == 0) break;
      ++exponent[d];
      --room[d];
      --k;
    }
  }
  std::vector<int> piece(sides.size());
  for (std::size_t d = 0; d < sides.size(); ++d) piece[d] = 1 << exponent[d];
  return piece;
}

std::vector<Semitorus> ep_split(const Semitorus& s, std::int64_t m) {
  const std::vector<int> piece = ep_piece_sides(s.sides, m);
  std::vector<int> counts(s.sides.size()), index, origin(s.sides.size());
  for (int d = 0; d < s.dims(); ++d) counts[d] = s.sides[d] / piece[d];
  const std::int64_t total = s.size() / m;
  std::vector<Semitorus> pieces;
  pieces.reserve(total);
  for (std::int64_t i = 0; i < total; ++i) {
    decode(i, counts, index);
    for (int d = 0; d < s.dims(); ++d) origin[d] = s.origin[d] + index[d] * piece[d];
    pieces.push_back(sub_semitorus(s, origin, piece));
  }
  return pieces;
}

int nep_halving_axis(const std::vector<int>& sides) {
  for (int d = static_cast<int>(sides.size()) - 1; d >= 0; --d)
    if (sides[d] > 1) return d;
  return -1;
}

std::vector<Semitorus> nep_split(const Semitorus& s, std::int64_t m) {
  if (!is_power_of_two(m) || m > s.size())
    throw std::invalid_argument("nep_split: m must be a power of two no larger than S");
  std::vector<Semitorus> halves;  // given-away halves, largest first
  Semitorus kept = s;
  while (kept.size() > m) {
    const int axis = nep_halving_axis(kept.sides);
    std::vector<int> sides = kept.sides, other = kept.origin;
    sides[axis] /= 2;
    other[axis] += sides[axis];
    halves.push_back(sub_semitorus(kept, other, sides));
    kept = sub_semitorus(kept, kept.origin, sides);
  }
  std::vector<Semitorus> pieces{kept};
  pieces.insert(pieces.end(), halves.rbegin(), halves.rend());
  return pieces;
}

TorusShape convert_to_torus(const Semitorus& s, ConvertMode mode) {
  std::vector<int> missing, full;  // axes without a ring (side >= 4), ringed axes with side >= 2
  for (int d = 0; d < s.dims(); ++d) {
    if (!s.wrap[d] && s.sides[d] > 2)
      missing.push_back(d);
    else if (s.sides[d] >= 2)
      full.push_back(d);
  }
  std::vector<std::vector<int>> groups;
  std::vector<char> used(s.dims(), 0);
  auto add_group = [&](std::vector<int> group) {
    for (int d : group) used[d] = 1;
    groups.push_back(std::move(group));
  };
  // Partners: ringed axes by increasing side (then index).
  std::stable_sort(full.begin(), full.end(), [&](int a, int b) { return s.sides[a] < s.sides[b]; });
  if (mode == ConvertMode::collapse) {
    if (missing.size() >= 2)
      add_group(missing);
    else if (missing.size() == 1 && !full.empty())
      add_group({missing[0], full[0]});
  } else {
    // Largest wrap-less axis with the smallest ringed axis, and so on.
    std::vector<int> order = missing;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return s.sides[a] > s.sides[b]; });
    const std::size_t pairs = std::min(order.size(), full.size());
    for (std::size_t i = 0; i < pairs; ++i) add_group({order[i], full[i]});
    std::vector<int> left(order.begin() + static_cast<std::ptrdiff_t>(pairs), order.end());
    std::sort(left.begin(), left.end());
    if (left.size() >= 2) {
      add_group(left);
    } else if (left.size() == 1 && !groups.empty()) {
      groups.back().push_back(left[0]);
      used[left[0]] = 1;
    }
  }
  for (int d = 0; d < s.dims(); ++d)
    if (!used[d] && s.sides[d] >= 2) groups.push_back({d});
  if (groups.empty()) groups.push_back({0});  // a single node
  std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return *std::min_element(a.begin(), a.end()) < *std::min_element(b.begin(), b.end());
  });
  TorusShape shape;
  for (const auto& group : groups) {
    int side = 1;
    for (int d : group) side *= s.sides[d];
    shape.sides.push_back(side);
    shape.wrap.push_back(group.size() > 1 || s.wrap[group[0]] || s.sides[group[0]] <= 2);
  }
  shape.groups = std::move(groups);
  return shape;
}

namespace {

/// Calls f(rank, coords) for every torus rank (first torus dimension fastest) with the local
/// coordinates of that rank in the semitorus. A multi-axis group of an x axis (even side a) and
/// the rest (snake path of length b >= 2) is walked as a ring: columns x = 0..a-1 snaking over
/// rest positions 1..b-1, then back along rest position 0 (a Hamiltonian cycle of the sub-mesh).
template <class F>
void for_each_torus_rank(const Semitorus& s, const TorusShape& shape, F&& f) {
  const int dims = s.dims();
  // tables[j] holds, per ring position p of torus dimension j, the group's coordinates.
  std::vector<std::vector<int>> tables(shape.groups.size());
  std::vector<int> rest_sides, rest_coords;
  for (std::size_t j = 0; j < shape.groups.size(); ++j) {
    const auto& group = shape.groups[j];
    const int width = static_cast<int>(group.size());
    auto& table = tables[j];
    table.resize(static_cast<std::size_t>(shape.sides[j]) * width);
    if (width == 1) {
      for (int p = 0; p < shape.sides[j]; ++p) table[p] = p;
      continue;
    }
    const int a = s.sides[group[0]];
    rest_sides.clear();
    for (int i = 1; i < width; ++i) rest_sides.push_back(s.sides[group[i]]);
    const int b = shape.sides[j] / a;
    for (int p = 0; p < shape.sides[j]; ++p) {
      int x, y;
      if (p < a * (b - 1)) {
        x = p / (b - 1);
        const int t = p % (b - 1);
        y = x % 2 == 0 ? 1 + t : (b - 1) - t;
      } else {
        x = a - 1 - (p - a * (b - 1));
        y = 0;
      }
      snake_decode(y, rest_sides, rest_coords);
      table[static_cast<std::size_t>(p) * width] = x;
      for (int i = 1; i < width; ++i)
        table[static_cast<std::size_t>(p) * width + i] = rest_coords[i - 1];
    }
  }
  std::vector<int> digits(shape.sides.size(), 0), coords(dims, 0);
  const std::int64_t total = s.size();
  for (std::int64_t rank = 0; rank < total; ++rank) {
    for (std::size_t j = 0; j < shape.groups.size(); ++j) {
      const auto& group = shape.groups[j];
      const int* entry = &tables[j][static_cast<std::size_t>(digits[j]) * group.size()];
      for (std::size_t i = 0; i < group.size(); ++i) coords[group[i]] = entry[i];
    }
    f(rank, coords);
    for (std::size_t j = 0; j < digits.size(); ++j) {  // next rank, first dimension fastest
      if (++digits[j] < shape.sides[j]) break;
      digits[j] = 0;
    }
  }
}

}  // namespace

std::vector<std::vector<int>> torus_local_coords(const Semitorus& s, const TorusShape& shape) {
  std::vector<std::vector<int>> result(s.size());
  for_each_torus_rank(
      s, shape, [&](std::int64_t rank, const std::vector<int>& coords) { result[rank] = coords; });
  return result;
}

std::vector<NodeId> torus_ordered_nodes(const Semitorus& s, const TorusShape& shape,
                                        const std::vector<int>& machine_sides) {
  std::vector<NodeId> nodes(s.size());
  for_each_torus_rank(s, shape, [&](std::int64_t rank, const std::vector<int>& coords) {
    std::int64_t id = 0, stride = 1;
    for (int d = 0; d < s.dims(); ++d) {
      id += (s.origin[d] + coords[d]) * stride;
      stride *= machine_sides[d];
    }
    nodes[rank] = static_cast<NodeId>(id);
  });
  return nodes;
}

std::vector<NodeId> semitorus_nodes(const Semitorus& s, const std::vector<int>& machine_sides) {
  std::vector<NodeId> nodes;
  nodes.reserve(s.size());
  std::vector<int> local;
  for (std::int64_t i = 0; i < s.size(); ++i) {
    decode(i, s.sides, local);
    std::int64_t id = 0, stride = 1;
    for (int d = 0; d < s.dims(); ++d) {
      id += (s.origin[d] + local[d]) * stride;
      stride *= machine_sides[d];
    }
    nodes.push_back(static_cast<NodeId>(id));
  }
  return nodes;  // increasing: the box is enumerated with dimension 0 fastest
}

}  // namespace allocsim
