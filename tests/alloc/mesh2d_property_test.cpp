// Property test over random allocate/release streams for every 2D mesh allocator:
// non-contiguous allocators never fail when enough processors are free, contiguous ones return
// one rectangle of the requested shape, allocate() is pure, clones answer alike, tracked state
// follows the machine, and buddy / MBS blocks merge back into the initial blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "allocsim/alloc/mesh2d.hpp"
#include "allocsim/alloc/mesh2d_buddy.hpp"
#include "allocsim/alloc/mesh2d_gabl.hpp"
#include "allocsim/alloc/submesh.hpp"

namespace allocsim {
namespace {

struct StreamCase {
  const char* spec;
  const char* machine;
};

std::ostream& operator<<(std::ostream& out, const StreamCase& c) {
  return out << c.spec << " on " << c.machine;
}

/// Jobs of the GABL study (sides uniform in [1, side]) plus some count-only jobs.
Job random_job(Rng& rng, const Mesh2D& mesh) {
  Job job;
  if (rng.uniform() < 0.8) {
    job.shape_a = static_cast<int>(rng.uniform_int(1, mesh.width));
    job.shape_b = static_cast<int>(rng.uniform_int(1, mesh.height));
    job.procs = job.shape_a * job.shape_b;
  } else {
    job.procs = static_cast<int>(rng.uniform_int(1, mesh.nodes() / 4));
  }
  return job;
}

/// The allocator's own record of busy processors, or -1 when it keeps none.
int tracked_busy(const Allocator& allocator, const Mesh2D& mesh) {
  if (auto* a = dynamic_cast<const SubmeshAllocator*>(&allocator))
    return a->busy_list().busy_area();
  if (auto* a = dynamic_cast<const GablAllocator*>(&allocator)) return a->busy_list().busy_area();
  if (auto* a = dynamic_cast<const AncaAllocator*>(&allocator)) return a->busy_list().busy_area();
  if (auto* a = dynamic_cast<const Buddy2DAllocator*>(&allocator))
    return mesh.nodes() - a->blocks().free_count();
  if (auto* a = dynamic_cast<const MbsAllocator*>(&allocator))
    return mesh.nodes() - a->blocks().free_count();
  return -1;
}

const QuadBlocks* quad_blocks(const Allocator& allocator) {
  if (auto* a = dynamic_cast<const Buddy2DAllocator*>(&allocator)) return &a->blocks();
  if (auto* a = dynamic_cast<const MbsAllocator*>(&allocator)) return &a->blocks();
  return nullptr;
}

class Mesh2DStream : public ::testing::TestWithParam<StreamCase> {};

TEST_P(Mesh2DStream, RandomAllocateReleaseStream) {
  const StreamCase c = GetParam();
  const Topology topology = Topology::parse(c.machine);
  const Mesh2D mesh{topology.side(0), topology.side(1)};
  const int n = mesh.nodes();
  std::unique_ptr<Allocator> allocator = make_allocator(c.spec, topology);
  const bool contiguous = allocator->contiguous_only();
  const bool buddy = dynamic_cast<const Buddy2DAllocator*>(allocator.get()) != nullptr;
  const std::vector<Rect> initial_blocks =
      quad_blocks(*allocator) ? quad_blocks(*allocator)->free_blocks() : std::vector<Rect>{};

  std::vector<char> busy(n, 0);
  int free = n;
  Rng rng(99), jobs(stable_hash(c.spec));
  std::vector<Allocation> running;
  std::unique_ptr<Allocator> twin;
  int placed = 0, split = 0, refused = 0;

  auto release = [&](std::size_t index) {
    for (NodeId node : running[index].nodes) busy[node] = 0;
    free += static_cast<int>(running[index].nodes.size());
    allocator->release(running[index]);
    if (twin) twin->release(running[index]);
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(index));
  };

  for (int step = 0; step < 2500; ++step) {
    if (step == 800) twin = allocator->clone();
    if (!running.empty() && (jobs.uniform() < 0.35 || free < n / 8)) {
      release(static_cast<std::size_t>(jobs.uniform_int(0, std::ssize(running) - 1)));
      const int tracked = tracked_busy(*allocator, mesh);
      ASSERT_TRUE(tracked < 0 || tracked == n - free) << "tracked state left the machine";
      continue;
    }
    const Job job = random_job(jobs, mesh);
    const int needed = allocator->nodes_needed(job);
    const MachineView view(topology, busy, free, rng);
    const std::optional<Allocation> chosen = allocator->allocate(job, view);
    const std::optional<Allocation> again = allocator->allocate(job, view);
    ASSERT_EQ(chosen.has_value(), again.has_value()) << "allocate() is not pure";
    if (twin) {
      const std::optional<Allocation> cloned = twin->allocate(job, view);
      ASSERT_EQ(chosen.has_value(), cloned.has_value()) << "clone answers differently";
      if (chosen) {
        EXPECT_EQ(chosen->nodes, cloned->nodes);
      }
    }
    if (!contiguous && free >= needed) {
      ASSERT_TRUE(chosen.has_value())
          << "step " << step << ": " << free << " free, " << needed << " needed";
    }
    if (!chosen) {
      ++refused;
      continue;
    }
    EXPECT_EQ(chosen->nodes, again->nodes);
    ASSERT_EQ(static_cast<int>(chosen->nodes.size()), needed);
    std::vector<NodeId> sorted = chosen->nodes;
    std::sort(sorted.begin(), sorted.end());
    ASSERT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "repeated node";
    for (NodeId node : sorted) ASSERT_FALSE(busy[node]) << "node " << node << " is busy";
    ASSERT_GE(chosen->pieces, 1);
    ASSERT_LE(chosen->pieces, needed);
    if (contiguous) {
      const std::vector<Rect> rects = decompose_rects(mesh, chosen->nodes);
      ASSERT_EQ(rects.size(), 1u) << "not a rectangle";
      EXPECT_EQ(chosen->pieces, 1);
      const Rect r = rects[0];
      if (buddy) {
        EXPECT_EQ(r.w, r.h);
        EXPECT_EQ(r.w & (r.w - 1), 0);
        EXPECT_EQ(r.x % r.w, 0);
        EXPECT_EQ(r.y % r.w, 0);
      } else if (job.shape_a > 0) {
        const Shape shape = job_shape(job, ShapeRule::square, mesh);
        EXPECT_TRUE((r.w == shape.w && r.h == shape.h) || (r.w == shape.h && r.h == shape.w));
      }
    }
    ++placed;
    split += chosen->pieces > 1;
    for (NodeId node : chosen->nodes) busy[node] = 1;
    free -= needed;
    allocator->commit(*chosen);
    if (twin) twin->commit(*chosen);
    running.push_back(*chosen);
    const int tracked = tracked_busy(*allocator, mesh);
    ASSERT_TRUE(tracked < 0 || tracked == n - free) << "tracked state left the machine";
  }
  EXPECT_GT(placed, 300);
  if (contiguous) {
    EXPECT_GT(refused, 0);  // external fragmentation happens at these loads
  } else {
    EXPECT_GT(split, 0);  // the non-contiguous path was exercised
  }

  while (!running.empty()) release(running.size() - 1);
  EXPECT_EQ(free, n);
  const int tracked = tracked_busy(*allocator, mesh);
  EXPECT_TRUE(tracked < 0 || tracked == 0);
  if (const QuadBlocks* blocks = quad_blocks(*allocator)) {
    EXPECT_EQ(blocks->free_blocks(), initial_blocks);
    if (mesh.width == 16 && mesh.height == 16) {
      EXPECT_EQ(blocks->free_blocks(), std::vector<Rect>{Rect({0, 0, 16, 16})});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Mesh2DAllocators, Mesh2DStream,
    ::testing::Values(
        StreamCase{"submesh", "mesh:16x16"}, StreamCase{"submesh:fit=best,rotate=1", "mesh:16x16"},
        StreamCase{"submesh:shape=row,rotate=1", "mesh:16x16"}, StreamCase{"buddy2d", "mesh:16x16"},
        StreamCase{"paging", "mesh:16x16"},
        StreamCase{"paging:size_index=1,indexing=shuffled-row", "mesh:16x16"},
        StreamCase{"paging:size_index=2,indexing=snake", "mesh:16x16"},
        StreamCase{"paging:indexing=shuffled-snake", "mesh:16x16"}, StreamCase{"mbs", "mesh:16x16"},
        StreamCase{"anca", "mesh:16x16"}, StreamCase{"anca:rotate=0", "mesh:16x16"},
        StreamCase{"gabl", "mesh:16x16"}, StreamCase{"gabl:rotate=0,shape=row", "mesh:16x16"},
        StreamCase{"submesh:fit=best", "mesh:12x10"},
        StreamCase{"paging:size_index=1", "mesh:12x10"}, StreamCase{"mbs", "mesh:12x10"},
        StreamCase{"anca", "mesh:12x10"}, StreamCase{"gabl", "mesh:12x10"}));

}  // namespace
}  // namespace allocsim
