// Linear and ring span of a set of ranks; see metrics/span.hpp.
#include "allocsim/metrics/span.hpp"

#include <algorithm>
#include <vector>

namespace allocsim {

double linear_span(std::span<const int> ranks) {
  if (ranks.empty()) return 0;
  const auto [low, high] = std::minmax_element(ranks.begin(), ranks.end());
  return static_cast<double>(*high - *low + 1);
}

double ring_span(std::span<const int> ranks, int total) {
  if (ranks.empty()) return 0;
  std::vector<int> sorted;
  if (!std::is_sorted(ranks.begin(), ranks.end())) {
    sorted.assign(ranks.begin(), ranks.end());
    std::sort(sorted.begin(), sorted.end());
    ranks = sorted;
  }
  // Largest run of ranks outside the set, the wrapping one (last -> first) included.
  int largest_gap = ranks.front() + total - ranks.back() - 1;
  for (std::size_t i = 1; i < ranks.size(); ++i)
    largest_gap = std::max(largest_gap, ranks[i] - ranks[i - 1] - 1);
  return static_cast<double>(total - largest_gap);
}

}  // namespace allocsim
