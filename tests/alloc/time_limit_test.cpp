// Allocators poll the run's time limit that MachineView carries (issue 16): a search that would
// run for hours ends with TimeoutError, and a limit that never fires changes no allocation. The
// test limit counts its questions instead of reading a clock.
#include <gtest/gtest.h>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/util/error.hpp"
#include "testing/counting_limit.hpp"

namespace allocsim {
namespace {

using allocsim::testing::CountingLimit;

/// A mesh whose every third processor (by a scrambled pattern) is busy: fragmented enough that
/// contiguous requests fail and point-set searches face an irregular free set.
struct FragmentedMesh {
  Topology topology;
  std::vector<char> busy;
  int free_count = 0;
  Rng rng{3};

  explicit FragmentedMesh(const std::string& spec)
      : topology(Topology::parse(spec)), busy(topology.node_count(), 0) {
    for (NodeId node = 0; node < topology.node_count(); ++node) {
      busy[node] = (node * 7 + node / 13) % 3 == 0;
      free_count += busy[node] ? 0 : 1;
    }
  }
  MachineView view(const TimeLimit* limit) {
    return MachineView(topology, busy, free_count, rng, limit);
  }
};

Job job_of(int procs) {
  Job job;
  job.procs = procs;
  return job;
}

TEST(AllocatorTimeLimit, UnboundedExactSearchEndsWithTimeoutError) {
  FragmentedMesh mesh("mesh:32x32");
  const auto allocator = make_allocator("greedy-optimal:nodes=0", mesh.topology);
  const CountingLimit limit(3);
  EXPECT_THROW(allocator->allocate(job_of(80), mesh.view(&limit)), TimeoutError);
  EXPECT_EQ(limit.asked(), 3);
}

TEST(AllocatorTimeLimit, AncaPollsWhileHalvingAFragmentedRequest) {
  FragmentedMesh mesh("mesh:64x64");
  const auto allocator = make_allocator("anca", mesh.topology);
  const CountingLimit never;
  const auto limited = allocator->allocate(job_of(900), mesh.view(&never));
  ASSERT_TRUE(limited.has_value());
  EXPECT_GT(never.asked(), 0);
  const auto free_run = allocator->allocate(job_of(900), mesh.view(nullptr));
  ASSERT_TRUE(free_run.has_value());
  EXPECT_EQ(limited->nodes, free_run->nodes);
  EXPECT_EQ(limited->pieces, free_run->pieces);
  const CountingLimit spent(1);
  EXPECT_THROW(allocator->allocate(job_of(900), mesh.view(&spent)), TimeoutError);
}

TEST(AllocatorTimeLimit, NeverFiringLimitLeavesCommAwareAnswersUnchanged) {
  for (const std::string spec :
       {"mm", "genalg", "mc1x1", "mc", "mm-inc", "greedy-optimal:nodes=2000", "ptas:nodes=2000"}) {
    FragmentedMesh mesh("mesh:40x40");
    const auto plain =
        make_allocator(spec, mesh.topology)->allocate(job_of(60), mesh.view(nullptr));
    const CountingLimit never;
    const auto limited =
        make_allocator(spec, mesh.topology)->allocate(job_of(60), mesh.view(&never));
    ASSERT_TRUE(plain && limited) << spec;
    EXPECT_EQ(limited->nodes, plain->nodes) << spec;
    EXPECT_EQ(limited->used_fallback, plain->used_fallback) << spec;
  }
}

}  // namespace
}  // namespace allocsim
