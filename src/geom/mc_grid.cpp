// MC1x1 on a persistent free grid (geom/free_grid.hpp): the same answers as mc1x1 on the free
// processors' points, from the running counts of axis-0 lines. Proofs in mc.hpp.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <set>
#include <vector>

#include "allocsim/geom/mc.hpp"
#include "shell_best.hpp"

namespace allocsim::geom {

namespace {

constexpr int kMaxGridDims = 8;
using Coords = std::array<int, kMaxGridDims>;

/// Bits lo … hi (0 ≤ lo ≤ hi < 64).
std::uint64_t bit_range(int lo, int hi) {
  return (~std::uint64_t{0} >> (63 - (hi - lo))) << lo;
}

/// The MC1x1 scan over the free nodes of a FreeGrid, centres in node order (mc.hpp).
class GridShellScan {
 public:
  GridShellScan(const FreeGrid& grid, int k, ShellTies ties, bool all_positions,
                TimeLimitPoll& poll)
      : grid_(grid),
        all_positions_(all_positions),
        d_(grid.dims()),
        x_side_(grid.side(0)),
        k_(k),
        first_wins_(ties == ShellTies::first),
        poll_(poll) {
    x_full_ = bit_range(0, x_side_ - 1);
    best_.least_cost = least_shell_cost(d_, k);
    while (ball(least_radius_) < k_) ++least_radius_;
    // The early stop's sum bound: on meshes, and on tori whose rings hold 4·R0 positions (the
    // sets of least cost are then mesh sets: mc.hpp).
    bool mesh_like = true;
    for (int axis = 0; axis < d_; ++axis)
      if (grid.ring(axis) > 0 && 4 * least_radius_ > grid.ring(axis)) mesh_like = false;
    if (mesh_like && d_ <= 3) best_.least_sum = distinct_points_lower_bound(d_, k);
  }

  Selection run() {
    // E(r): free nodes whose ball of radius r is entirely free (erode); the deepest level up to
    // R0 − 1 gives the hint, and the centres of the least cost are those of E(R0 − 1) with
    // C(R0) ≥ k (mc.hpp).
    std::vector<std::uint64_t> full = grid_.lines(), deeper;
    for (int r = 1; r < least_radius_; ++r) {
      if (!erode(full, r, deeper)) break;
      full.swap(deeper);
    }
    const bool full_is_least = eroded_ == std::max(0, least_radius_ - 1);
    int hint = -1;
    std::vector<int> least;
    const int lines = grid_.line_count();
    for (int row = 0; row < lines && (full_is_least || hint < 0); ++row) {
      for (std::uint64_t bits = full[row]; bits != 0; bits &= bits - 1) {
        const int node = row * x_side_ + std::countr_zero(bits);
        if (hint < 0) hint = node;
        if (!full_is_least) break;
        const Coords c = coords_of(node);
        poll_.add(1);
        if (count(c, least_radius_) < k_) continue;
        if (first_wins_) {
          evaluate(c);
          return result();
        }
        least.push_back(node);
      }
    }
    if (!least.empty()) {
      for (std::size_t j = 0; j < least.size() && !done(); ++j) evaluate(coords_of(least[j]));
      return result();
    }
    // No centre of the least cost: the hint's cost U bounds the answer's; the scan starts from
    // a best of cost U that any centre of cost U still replaces (cost U + 1 under `first`, an
    // infinite sum under `sum`), and meets the hint in order, so the bound changes nothing.
    // Any centre's cost bounds it: the least of the hint's and of the first node of the last
    // non-empty stage of the erosions (balls full on the first axes only), which is often lower.
    if (hint >= 0) {
      std::int64_t bound = cost_of(coords_of(hint));
      int probe = probe_;
      if (stage_hint_ >= 0 && stage_hint_ != hint) {
        const std::int64_t other = cost_of(coords_of(stage_hint_));
        if (other < bound) bound = other, probe = probe_;
      }
      probe_ = probe;
      best_.cost = first_wins_ ? bound + 1 : bound;
    }
    for (int row = 0; row < lines; ++row) {
      const std::uint64_t centres = all_positions_ ? x_full_ : grid_.line(row);
      if (centres == 0) continue;
      Coords c = coords_of(row * x_side_);  // the line's coordinates once; x per centre
      for (std::uint64_t bits = centres; bits != 0; bits &= bits - 1) {
        c[0] = std::countr_zero(bits);
        evaluate(c);
      }
    }
    return result();
  }

 private:
  /// (2r+1)^d, capped above k.
  std::int64_t ball(int r) const {
    std::int64_t volume = 1;
    for (int axis = 0; axis < d_ && volume <= k_; ++axis) volume *= 2 * r + 1;
    return volume;
  }

  Coords coords_of(int node) const {
    Coords c{};
    c[0] = node % x_side_;
    int row = node / x_side_;
    for (int axis = 1; axis < d_; ++axis) {
      c[axis] = row % grid_.side(axis);
      row /= grid_.side(axis);
    }
    return c;
  }

  /// The positions of axis 0 at distance ≤ s from x (ring-aware).
  std::uint64_t axis0_mask(int x, int s) const {
    const int ring = grid_.ring(0);
    if (ring <= 0) return bit_range(std::max(0, x - s), std::min(x_side_ - 1, x + s));
    if (2 * s + 1 >= ring) return x_full_;
    const int start = x - s < 0 ? x - s + ring : x - s, end = start + 2 * s;  // 2s < ring
    if (end < ring) return bit_range(start, end);
    return bit_range(start, ring - 1) | bit_range(0, end - ring);
  }

  /// On axis a ≥ 1, the coordinates at distance ≤ s from c: `first` and how many (on a ring,
  /// taken modulo the ring; each position once).
  void axis_span(int axis, int c, int s, int& first, int& count) const {
    const int side = grid_.side(axis), ring = grid_.ring(axis);
    if (ring > 0) {
      if (2 * s + 1 >= ring) {
        first = 0, count = ring;
      } else {
        first = c - s, count = 2 * s + 1;
      }
      return;
    }
    first = std::max(0, c - s);
    count = std::min(side - 1, c + s) - first + 1;
  }
  int wrap(int axis, int value) const {
    const int ring = grid_.ring(axis);
    if (ring <= 0) return value;
    return value < 0 ? value + ring : value >= ring ? value - ring : value;
  }
  int distance(int axis, int a, int b) const {
    const int diff = a > b ? a - b : b - a, ring = grid_.ring(axis);
    return ring > 0 && ring - diff < diff ? ring - diff : diff;
  }

  /// Calls visit(row, shell, l1) for every line within distance s of c on axes 1 … d−1, with
  /// the line's largest per-axis distance and their sum.
  template <class Visit>
  void for_each_line(const Coords& c, int s, Visit&& visit) const {
    std::array<int, kMaxGridDims> first{}, count{}, at{};
    for (int axis = 1; axis < d_; ++axis) axis_span(axis, c[axis], s, first[axis], count[axis]);
    while (true) {
      int row = 0, shell = 0, l1 = 0;
      for (int axis = 1; axis < d_; ++axis) {
        const int coord = wrap(axis, first[axis] + at[axis]);
        const int dist = distance(axis, coord, c[axis]);
        row += coord * grid_.line_stride(axis);
        shell = std::max(shell, dist);
        l1 += dist;
      }
      visit(row, shell, l1);
      int axis = 1;
      while (axis < d_ && ++at[axis] == count[axis]) at[axis++] = 0;
      if (axis >= d_) return;
    }
  }

  /// The axis-0 positions within s of x as one or two ranges [lo, hi] (two across a seam).
  int axis0_ranges(int x, int s, std::array<int, 4>& r) const {
    const int ring = grid_.ring(0);
    if (ring <= 0) {
      r[0] = std::max(0, x - s), r[1] = std::min(x_side_ - 1, x + s);
      return 1;
    }
    if (2 * s + 1 >= ring) {
      r[0] = 0, r[1] = ring - 1;
      return 1;
    }
    const int start = x - s < 0 ? x - s + ring : x - s, end = start + 2 * s;  // 2s < ring
    if (end < ring) {
      r[0] = start, r[1] = end;
      return 1;
    }
    r[0] = start, r[1] = ring - 1, r[2] = 0, r[3] = end - ring;
    return 2;
  }

  /// C(s): the free nodes at L∞ distance ≤ s from c.
  std::int64_t count(const Coords& c, int s) const {
    std::array<int, 4> r{};
    const int ranges = axis0_ranges(c[0], s, r);
    auto line_count = [&](int row) {
      int total = grid_.count_in(row, r[0], r[1]);
      if (ranges == 2) total += grid_.count_in(row, r[2], r[3]);
      return total;
    };
    if (d_ == 2 || d_ == 3) {  // the common machines without the general odometer
      int first_y = 0, rows_y = 0, first_z = 0, rows_z = 1;
      axis_span(1, c[1], s, first_y, rows_y);
      if (d_ == 3) axis_span(2, c[2], s, first_z, rows_z);
      const int plane = d_ == 3 ? grid_.line_stride(2) : 0;
      std::int64_t total = 0;
      for (int j = 0; j < rows_z; ++j) {
        const int base = d_ == 3 ? wrap(2, first_z + j) * plane : 0;
        for (int i = 0; i < rows_y; ++i) total += line_count(base + wrap(1, first_y + i));
      }
      return total;
    }
    std::int64_t total = 0;
    for_each_line(c, s, [&](int row, int, int) { total += line_count(row); });
    return total;
  }

  /// E(r) from E(r − 1) = `from`: the free nodes whose ball of radius r is free, holds (2r+1)^d
  /// distinct positions and lies inside the grid (erosion by one step on every axis: a ball of
  /// radius r is the union of the balls of radius r − 1 around the ball of radius 1). False
  /// when no such node exists. The erosion runs axis after axis (a box is the product of its
  /// sides), each pass on the previous pass's result.
  bool erode(const std::vector<std::uint64_t>& from, int r, std::vector<std::uint64_t>& to) {
    for (int axis = 0; axis < d_; ++axis)
      if (grid_.ring(axis) > 0 && 2 * r + 1 > grid_.ring(axis)) return false;
    const int lines = grid_.line_count(), ring0 = grid_.ring(0);
    to.resize(from.size());
    for (int row = 0; row < lines; ++row) {  // axis 0: bit shifts (rotations on a ring)
      const std::uint64_t v = from[row];
      std::uint64_t left = v << 1, right = v >> 1;
      if (ring0 > 0) left |= v >> (ring0 - 1), right |= v << (ring0 - 1);
      to[row] = v & left & right & x_full_;
    }
    note_stage(to);
    std::uint64_t any = 0;
    for (int axis = 1; axis < d_; ++axis) {  // then each further axis: neighbouring lines
      const int stride = grid_.line_stride(axis), side = grid_.side(axis);
      const bool ring = grid_.ring(axis) > 0;
      scratch_.resize(to.size());
      int coord = 0, within = 0;  // (row / stride) % side, kept without divisions
      for (int row = 0; row < lines; ++row, ++within) {
        if (within == stride) {
          within = 0;
          if (++coord == side) coord = 0;
        }
        std::uint64_t e = to[row];
        if (coord > 0)
          e &= to[row - stride];
        else
          e &= ring ? to[row + (side - 1) * stride] : 0;
        if (coord < side - 1)
          e &= to[row + stride];
        else
          e &= ring ? to[row - (side - 1) * stride] : 0;
        scratch_[row] = e;
      }
      to.swap(scratch_);
      note_stage(to);
    }
    for (int row = 0; row < lines; ++row) any |= to[row];
    poll_.add(lines);
    if (any == 0) return false;
    eroded_ = r;
    return true;
  }

  /// stage_hint_ = the first node of `stage` when it has any.
  void note_stage(const std::vector<std::uint64_t>& stage) {
    for (std::size_t row = 0; row < stage.size(); ++row)
      if (stage[row] != 0) {
        stage_hint_ = static_cast<int>(row) * x_side_ + std::countr_zero(stage[row]);
        return;
      }
  }

  bool loses(std::int64_t c) const { return best_.loses(c); }
  bool done() const { return best_.done(); }

  /// The shell cost of centre c, and in probe_ its last shell − 1.
  std::int64_t cost_of(const Coords& c) {
    std::int64_t cost = 0;
    for (int shell = 0;; ++shell) {
      const std::int64_t inside = count(c, shell);
      poll_.add(1);
      if (inside >= k_) {
        probe_ = shell - 1;
        return cost;
      }
      cost += k_ - inside;
    }
  }

  /// CountedShellScan::evaluate of mc.cpp for a one-position shell 0, with the stronger probe
  /// bound of mc.hpp.
  void evaluate(const Coords& c) {
    ++evaluated_;
    std::int64_t cost = 0, before = 0, inside = 0;
    if (probe_ > 0) {  // a lower bound on the cost from C(probe_) alone (mc.hpp)
      inside = count(c, probe_);
      poll_.add(1);
      std::int64_t bound = 0;
      for (int s = 0;; ++s) {
        const std::int64_t most = s <= probe_ ? std::min(ball(s), inside) : ball(s);
        if (most >= k_) break;
        bound += k_ - most;
      }
      if (loses(bound)) return;
    }
    const std::int64_t probed = inside;
    int shell = 0;
    while (true) {
      inside = probe_ > 0 && shell == probe_ ? probed : count(c, shell);
      poll_.add(1);
      if (inside >= k_) break;
      cost += k_ - inside;
      if (loses(cost)) return;
      before = inside;
      ++shell;
    }
    if (loses(cost)) return;
    probe_ = shell - 1;
    if (first_wins_) {  // strictly lower cost: the new best, listed at the end
      best_.cost = cost;
      winner_ = c;
      winner_shell_ = shell;
      winner_before_ = before;
      has_winner_ = true;
      return;
    }
    if (pattern_of(c, shell) && !seen_.insert(pattern_).second) return;  // a repeat (mc.hpp)
    list(c, shell, k_ - before);
    best_.keep_if_better(cost, chosen_, chosen_sum());
  }

  /// pattern_ = the shell and the free positions of the ball of radius `shell` around c, relative
  /// to c (one word per line, in for_each_line's order), when the ball lies inside the grid
  /// without crossing a seam; false otherwise.
  bool pattern_of(const Coords& c, int shell) {
    for (int axis = 0; axis < d_; ++axis)
      if (c[axis] - shell < 0 || c[axis] + shell >= grid_.side(axis)) return false;
    pattern_.assign(1, static_cast<std::uint64_t>(shell));
    const std::uint64_t window = bit_range(0, 2 * shell);
    for_each_line(c, shell, [&](int row, int, int) {
      pattern_.push_back((grid_.line(row) >> (c[0] - shell)) & window);
    });
    return true;
  }

  /// chosen_ = the free nodes of shells below `shell` and `need` of shell `shell` by the tie rule
  /// (lowest node ids, or L1-nearest then lowest id), ascending.
  void list(const Coords& c, int shell, std::int64_t need) {
    chosen_.clear();
    partial_.clear();
    const std::uint64_t mask = axis0_mask(c[0], shell);
    for_each_line(c, shell, [&](int row, int line_shell, int line_l1) {
      for (std::uint64_t bits = grid_.line(row) & mask; bits != 0; bits &= bits - 1) {
        const int x = std::countr_zero(bits);
        const int dx = distance(0, x, c[0]);
        const int node = row * x_side_ + x;
        if (std::max(line_shell, dx) < shell) {
          chosen_.push_back(node);
        } else {
          partial_.push_back(detail::shell_key(first_wins_, line_l1 + dx, node));
        }
      }
    });
    poll_.add(static_cast<std::int64_t>(chosen_.size() + partial_.size()));
    detail::take_first_of_shell(partial_, need, chosen_);
  }

  std::int64_t chosen_sum() const { return grid_pairwise_sum(grid_, chosen_); }

  Selection result() {
    if (first_wins_ && has_winner_) {
      list(winner_, winner_shell_, k_ - winner_before_);
      best_.set = chosen_;
      best_.sum = chosen_sum();
    }
    return Selection::heuristic(best_.set, best_.sum, evaluated_);
  }

  const FreeGrid& grid_;
  bool all_positions_;  // centres: every position (else the free nodes)
  int d_, x_side_, k_;
  bool first_wins_;
  TimeLimitPoll& poll_;
  std::uint64_t x_full_ = 0;
  int least_radius_ = 0;  // R0 = min{r : (2r+1)^d ≥ k}
  int eroded_ = 0;        // the radius of the last non-empty erosion
  int stage_hint_ = -1;   // first node of the last non-empty erosion stage (axis pass)
  detail::Best best_{first_wins_};
  std::vector<int> chosen_;
  std::vector<std::uint64_t> partial_, scratch_;
  Coords winner_{};
  int winner_shell_ = 0;
  std::int64_t winner_before_ = 0;
  bool has_winner_ = false;
  std::vector<std::uint64_t> pattern_;         // pattern_of's last answer
  std::set<std::vector<std::uint64_t>> seen_;  // patterns listed so far (`sum`)
  int probe_ = 0;
  std::int64_t evaluated_ = 0;
};

}  // namespace

std::int64_t grid_pairwise_sum(const FreeGrid& grid, std::span<const int> nodes) {
  const int d = grid.dims();
  PointSet points(d, grid.rings());
  points.reserve(static_cast<int>(nodes.size()));
  std::vector<int> c(d);
  for (const int node : nodes) {
    int rest = node;
    for (int axis = 0; axis < d; ++axis) c[axis] = rest % grid.side(axis), rest /= grid.side(axis);
    points.add(c);
  }
  std::vector<int> all(nodes.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  return pairwise_sum(points, all);
}

Selection mc1x1_on_grid(const FreeGrid& grid, int k, ShellTies ties, const TimeLimit* time_limit,
                        bool all_positions) {
  TimeLimitPoll poll(time_limit);
  poll.check();
  if (k <= 0) return {};
  if (k >= grid.free_count()) {
    Selection all;
    for (int row = 0; row < grid.line_count(); ++row)
      for (std::uint64_t bits = grid.line(row); bits != 0; bits &= bits - 1)
        all.indices.push_back(row * grid.side(0) + std::countr_zero(bits));
    all.sum = grid_pairwise_sum(grid, all.indices);
    return all;
  }
  GridShellScan scan(grid, k, ties, all_positions, poll);
  return scan.run();
}

}  // namespace allocsim::geom
