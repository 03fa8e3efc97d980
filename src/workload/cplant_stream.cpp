// Leung et al.'s §4 test stream: sizes in release order (see workload/cplant_stream.hpp).
#include "allocsim/workload/cplant_stream.hpp"

#include <algorithm>

#include "allocsim/util/rng.hpp"

namespace allocsim {

std::vector<int> cplant_stream_sizes(int head, std::uint64_t order_seed) {
  Rng rng(mix_seed(order_seed, stable_hash("cplant-stream")));
  std::vector<int> large, small;
  for (const CplantStreamMix& mix : kCplantStreamMix)
    for (int i = 0; i < mix.count; ++i)
      (mix.size >= kCplantLargeSize ? large : small).push_back(mix.size);
  rng.shuffle(large);
  rng.shuffle(small);
  head = std::clamp(head, 0, static_cast<int>(large.size()));
  // "The stream starts with some large jobs to fill up the machine."
  std::vector<int> sizes(large.begin(), large.begin() + head);
  // "The last job submitted is small": one small job is kept for the end.
  const int last = small.back();
  small.pop_back();
  // "Small jobs are interspersed among the large ones": a uniformly random merge of the other
  // large jobs and the small ones (which positions are small: a shuffled 0/1 pattern).
  std::vector<char> is_small(large.size() - head + small.size(), 0);
  std::fill(is_small.begin(), is_small.begin() + static_cast<std::ptrdiff_t>(small.size()), 1);
  rng.shuffle(is_small);
  std::size_t next_large = static_cast<std::size_t>(head), next_small = 0;
  for (const char s : is_small) sizes.push_back(s ? small[next_small++] : large[next_large++]);
  sizes.push_back(last);
  return sizes;
}

}  // namespace allocsim
