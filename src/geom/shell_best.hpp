#pragma once
// What the two MC1x1 / MC centre scans share (the point-set scan of mc.cpp and the free-grid
// scan of mc_grid.cpp): the running best under the tie rules and the listing of a partly used
// outer shell. Tie rules and proofs: allocsim/geom/mc.hpp.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace allocsim::geom::detail {

/// The best candidate so far under the tie rules (mc.hpp), and MC1x1's early stop.
struct Best {
  explicit Best(bool first) : first_wins(first) {}

  bool first_wins;  // ShellTies::first
  std::int64_t cost = std::numeric_limits<std::int64_t>::max();
  std::int64_t sum = std::numeric_limits<std::int64_t>::max();
  std::vector<int> set;
  /// Lower bounds on any candidate's cost and pairwise sum (-1: none known).
  std::int64_t least_cost = -1, least_sum = -1;

  /// True when a candidate of shell cost `c` (or more) cannot replace the best: a higher cost
  /// never does, an equal one only under ShellTies::sum (by a lower pairwise sum).
  bool loses(std::int64_t c) const { return first_wins ? c >= cost : c > cost; }
  /// Keeps the sorted set `chosen` of shell cost `c` (not losing) and sum `s` if it is better.
  void keep_if_better(std::int64_t c, const std::vector<int>& chosen, std::int64_t s) {
    if (c < cost || s < sum) {
      cost = c;
      sum = s;
      set = chosen;
    }
  }
  /// True when no later candidate can replace the best (its cost, and under ShellTies::sum its
  /// sum, reached the lower bounds), so the scan may stop without changing the answer.
  bool done() const { return cost <= least_cost && (first_wins || sum <= least_sum); }
};

/// Sort key of a node of the partly used outer shell: by index alone under ShellTies::first
/// (`first_wins`), else L1-nearest to the centre, then by index.
inline std::uint64_t shell_key(bool first_wins, std::int64_t l1, int index) {
  const std::uint64_t key = first_wins ? 0 : static_cast<std::uint64_t>(l1);
  return (key << 32) | static_cast<std::uint32_t>(index);
}

/// Appends to `chosen` the `need` nodes of `partial` (shell_key values) that come first, then
/// sorts `chosen`.
inline void take_first_of_shell(std::vector<std::uint64_t>& partial, std::int64_t need,
                                std::vector<int>& chosen) {
  std::nth_element(partial.begin(), partial.begin() + (need - 1), partial.end());
  for (std::int64_t j = 0; j < need; ++j)
    chosen.push_back(static_cast<int>(partial[j] & 0xffffffffu));
  std::sort(chosen.begin(), chosen.end());
}

}  // namespace allocsim::geom::detail
