#pragma once
// The test job stream of Leung et al., "Processor allocation on Cplant" (CLUSTER 2002), §4
// (Table 1): 188 replicas of one communication test suite in four sizes, released in a fixed
// order. Used by the synthetic generator as `synthetic:stream=cplant,...` (transform.hpp).
#include <cstdint>
#include <vector>

namespace allocsim {

/// The stream's mix, §4: "Our test job stream had 91 jobs of size 2, 33 jobs of size 5, 31 jobs
/// of size 25, and 33 jobs of size 30."
struct CplantStreamMix {
  int size = 0;
  int count = 0;
};
inline constexpr CplantStreamMix kCplantStreamMix[] = {{2, 91}, {5, 33}, {25, 31}, {30, 33}};
inline constexpr int kCplantStreamJobs = 188;
/// Sizes at or above this are the stream's "large" jobs ("approximately 1/4 or 1/5 of the
/// machine"); 2 and 5 are the small ones.
inline constexpr int kCplantLargeSize = 25;
/// The largest size (30): runtimes scale as (size / kCplantLargestSize)^size_exp.
inline constexpr int kCplantLargestSize = 30;

/// Job sizes in release order, a pure function of `order_seed` (the paper's stream is
/// "identical" in every run). §4: "The stream starts with some large jobs to fill up the
/// machine. Small jobs are interspersed among the large ones to cause fragmentation. The last
/// job submitted is small". The order: `head` large jobs (sizes 25 and 30 drawn at random from
/// the mix), then the other large jobs in random order with the small jobs but one merged among
/// them uniformly at random (every interleaving equally likely), then the last small job.
/// `head` is clamped to [0, 64] (the number of large jobs).
std::vector<int> cplant_stream_sizes(int head, std::uint64_t order_seed);

}  // namespace allocsim
