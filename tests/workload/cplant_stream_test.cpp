// Leung et al. (CLUSTER 2002) §4 test stream (workload/cplant_stream.hpp) and its synthetic
// spelling `synthetic:stream=cplant`: the job counts and the order rules the paper states.
#include "allocsim/workload/cplant_stream.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {
namespace {

bool is_large(int size) {
  return size >= kCplantLargeSize;
}

// "Our test job stream had 91 jobs of size 2, 33 jobs of size 5, 31 jobs of size 25, and 33
// jobs of size 30."
TEST(CplantStream, HasSection4sJobCounts) {
  for (const std::uint64_t seed : {1, 2, 3, 77}) {
    const std::vector<int> sizes = cplant_stream_sizes(4, seed);
    ASSERT_EQ(sizes.size(), 188u);
    std::map<int, int> count;
    for (const int size : sizes) ++count[size];
    EXPECT_EQ(count, (std::map<int, int>{{2, 91}, {5, 33}, {25, 31}, {30, 33}}));
  }
}

// "The stream starts with some large jobs to fill up the machine. Small jobs are interspersed
// among the large ones to cause fragmentation. The last job submitted is small"
TEST(CplantStream, StartsLargeIntersperseSmallEndsSmall) {
  for (const std::uint64_t seed : {1, 2, 3, 77}) {
    const std::vector<int> sizes = cplant_stream_sizes(4, seed);
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(is_large(sizes[i])) << "seed " << seed << " job " << i;
    EXPECT_FALSE(is_large(sizes.back()));
    // Interspersed, not bunched: after the opening large jobs, most large jobs follow a small
    // one, and small jobs appear in every quarter of the stream.
    int large_after_small = 0, later_large = 0;
    for (std::size_t i = 4; i < sizes.size(); ++i)
      if (is_large(sizes[i])) {
        ++later_large;
        large_after_small += !is_large(sizes[i - 1]);
      }
    EXPECT_EQ(later_large, 60);
    EXPECT_GT(large_after_small, later_large / 2) << "seed " << seed;
    for (int quarter = 0; quarter < 4; ++quarter) {
      const auto begin = sizes.begin() + 4 + quarter * 46, end = begin + 46;
      EXPECT_GT(std::count_if(begin, end, [](int s) { return !is_large(s); }), 10);
      EXPECT_GT(std::count_if(begin, end, is_large), 5);
    }
  }
}

// "All runs use identical job streams": the order is a function of order_seed alone; replicate
// seeds change only the drawn runtimes.
TEST(CplantStream, OrderIsFixedBySeedAndRuntimesScaleWithSize) {
  EXPECT_EQ(cplant_stream_sizes(4, 5), cplant_stream_sizes(4, 5));
  EXPECT_NE(cplant_stream_sizes(4, 5), cplant_stream_sizes(4, 6));
  const std::string spec =
      "synthetic:stream=cplant,jobs=188,order_seed=2,runtime=uniform:90,110,size_exp=1,"
      "arrival=const:60";
  Rng a(1), b(2);
  const Workload first = generate_synthetic(spec, a), second = generate_synthetic(spec, b);
  ASSERT_EQ(first.jobs.size(), 188u);
  const std::vector<int> order = cplant_stream_sizes(4, 2);
  bool runtimes_differ = false;
  for (std::size_t i = 0; i < first.jobs.size(); ++i) {
    EXPECT_EQ(first.jobs[i].procs, order[i]);
    EXPECT_EQ(second.jobs[i].procs, order[i]);
    EXPECT_DOUBLE_EQ(first.jobs[i].submit, 60.0 * static_cast<double>(i + 1));
    // runtime = draw in [90, 110] x (procs / 30)^1
    const double scale = first.jobs[i].procs / 30.0;
    EXPECT_GE(first.jobs[i].runtime, 90 * scale - 1e-9);
    EXPECT_LE(first.jobs[i].runtime, 110 * scale + 1e-9);
    runtimes_differ = runtimes_differ || first.jobs[i].runtime != second.jobs[i].runtime;
  }
  EXPECT_TRUE(runtimes_differ);
  // size_exp = 0 (default): every job draws the same distribution, whatever its size.
  Rng c(1);
  const Workload flat = generate_synthetic("synthetic:stream=cplant,jobs=188,runtime=const:100", c);
  for (const Job& job : flat.jobs) EXPECT_DOUBLE_EQ(job.runtime, 100);
  // The stream has 188 jobs: any other count is refused rather than silently changed.
  Rng d(1);
  EXPECT_THROW(generate_synthetic("synthetic:stream=cplant,jobs=100", d), InputError);
}

}  // namespace
}  // namespace allocsim
