// Communication-aware allocators: the geom/ solvers on the free processors of a machine.
#include <gtest/gtest.h>

#include "allocsim/alloc/comm_aware.hpp"
#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/ptas.hpp"
#include "allocsim/metrics/locality.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

/// A machine with some busy nodes and a view on it.
struct Machine {
  Topology topology;
  std::vector<char> busy;
  int free_count;
  Rng rng{1};

  Machine(const std::string& spec, const std::vector<NodeId>& busy_nodes)
      : topology(Topology::parse(spec)), busy(topology.node_count(), 0) {
    for (const NodeId node : busy_nodes) busy[node] = 1;
    free_count = topology.node_count() - static_cast<int>(busy_nodes.size());
  }
  MachineView view() { return MachineView(topology, busy, free_count, rng); }
  geom::PointSet free_points() const {
    std::vector<int> rings;
    for (int axis = 0; axis < topology.dims(); ++axis)
      rings.push_back(topology.wraps(axis) ? topology.side(axis) : 0);
    geom::PointSet points(topology.dims(), rings);
    for (NodeId node = 0; node < topology.node_count(); ++node)
      if (!busy[node]) points.add(topology.coords(node));
    return points;
  }
  std::vector<NodeId> nodes_of(const geom::Selection& selection) const {
    std::vector<NodeId> free;
    for (NodeId node = 0; node < topology.node_count(); ++node)
      if (!busy[node]) free.push_back(node);
    std::vector<NodeId> result;
    for (const int i : selection.indices) result.push_back(free[i]);
    return result;
  }
};

Job job_of(int procs, int a = 0, int b = 0) {
  Job job;
  job.procs = procs;
  job.shape_a = a;
  job.shape_b = b;
  return job;
}

/// A checkerboard-ish pattern of busy nodes on an 8x8 mesh.
std::vector<NodeId> scattered_busy() {
  std::vector<NodeId> busy;
  for (NodeId node = 0; node < 64; ++node)
    if ((node * 7 + node / 8) % 3 == 0) busy.push_back(node);
  return busy;
}

TEST(CommAwareAllocators, AreTheSolversOnFreeCoordinates) {
  Machine machine("mesh:8x8", scattered_busy());
  const geom::PointSet points = machine.free_points();
  for (const int k : {1, 2, 5, 9, 17}) {
    const Job job = job_of(k);
    auto mm = make_allocator("mm", machine.topology)->allocate(job, machine.view());
    ASSERT_TRUE(mm);
    EXPECT_EQ(mm->nodes, machine.nodes_of(geom::manhattan_median(points, k)));
    auto genalg = make_allocator("genalg", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(genalg->nodes, machine.nodes_of(geom::gen_alg(points, k)));
    auto mc1x1 = make_allocator("mc1x1", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(mc1x1->nodes, machine.nodes_of(geom::mc1x1(points, k)));
    auto inc = make_allocator("mm-inc", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(inc->nodes, machine.nodes_of(geom::mm_inc(points, k)));
    EXPECT_LE(pairwise_hop_sum(machine.topology, inc->nodes),
              pairwise_hop_sum(machine.topology, mm->nodes));
    auto free_centres =
        make_allocator("mm:centers=free", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(free_centres->nodes, genalg->nodes);
    auto everywhere =
        make_allocator("mc1x1:centers=all", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(static_cast<int>(everywhere->nodes.size()), k);
    for (const NodeId node : everywhere->nodes) EXPECT_FALSE(machine.busy[node]);
  }
}

TEST(CommAwareAllocators, TieRuleOptions) {
  Machine machine("mesh:8x8", scattered_busy());
  const geom::PointSet points = machine.free_points();
  for (const int k : {2, 5, 9, 17}) {
    const Job job = job_of(k);
    auto sum = make_allocator("mc1x1:ties=sum", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(sum->nodes, machine.nodes_of(geom::mc1x1(points, k, geom::ShellTies::sum)));
    auto premas = make_allocator("mm:ties=premas", machine.topology)->allocate(job, machine.view());
    EXPECT_EQ(premas->nodes,
              machine.nodes_of(geom::manhattan_median(points, k, geom::CentreOrder::premas)));
  }
  // The tie options are left out of the canonical spelling at their defaults (config ids of
  // earlier experiments stay), and kept otherwise.
  EXPECT_EQ(allocator_registry().canonical("mc1x1"), "mc1x1:centers=free");
  EXPECT_EQ(allocator_registry().canonical("mc1x1:ties=first"), "mc1x1:centers=free");
  EXPECT_EQ(allocator_registry().canonical("mc1x1:ties=sum"), "mc1x1:centers=free,ties=sum");
  EXPECT_EQ(allocator_registry().canonical("mm-inc"), "mm-inc:centers=intersections");
  EXPECT_EQ(allocator_registry().canonical("mm:ties=premas"),
            "mm:centers=intersections,ties=premas");
}

TEST(CommAwareAllocators, GreedyOptimalIsExactWithinBudgetAndCountsFallbacks) {
  Machine machine("mesh:8x8", scattered_busy());
  const geom::PointSet points = machine.free_points();
  const Job job = job_of(7);
  auto optimal = make_allocator("greedy-optimal", machine.topology);
  auto chosen = optimal->allocate(job, machine.view());
  ASSERT_TRUE(chosen);
  EXPECT_EQ(pairwise_hop_sum(machine.topology, chosen->nodes), geom::exact_optimum(points, 7).sum);
  auto* typed = dynamic_cast<CommAwareAllocator*>(optimal.get());
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->fallbacks(), 0);
  EXPECT_TRUE(typed->last_selection().proven);

  auto starved = make_allocator("greedy-optimal:nodes=1", machine.topology);
  auto fallback = starved->allocate(job_of(20), machine.view());
  ASSERT_TRUE(fallback);
  EXPECT_EQ(fallback->nodes, machine.nodes_of(geom::mm_inc(points, 20)));
  starved->commit(*fallback);  // fallbacks are counted when committed
  EXPECT_EQ(dynamic_cast<CommAwareAllocator*>(starved.get())->fallbacks(), 1);
  // Clones copy the counter and keep counting on their own.
  auto copy = starved->clone();
  copy->commit(*copy->allocate(job_of(20), machine.view()));
  EXPECT_EQ(dynamic_cast<CommAwareAllocator*>(copy.get())->fallbacks(), 2);
  EXPECT_EQ(dynamic_cast<CommAwareAllocator*>(starved.get())->fallbacks(), 1);
}

TEST(CommAwareAllocators, PtasWithinBudgetOrFallsBack) {
  Machine machine("mesh:4x4", {0, 5, 10, 15, 3});
  const geom::PointSet points = machine.free_points();
  auto ptas = make_allocator("ptas:m=2", machine.topology);
  auto chosen = ptas->allocate(job_of(4), machine.view());
  ASSERT_TRUE(chosen);
  EXPECT_EQ(pairwise_hop_sum(machine.topology, chosen->nodes), geom::ptas(points, 4, 2).sum);
  EXPECT_EQ(dynamic_cast<CommAwareAllocator*>(ptas.get())->fallbacks(), 0);
  auto starved = make_allocator("ptas:m=3,nodes=2", machine.topology);
  auto fallback = starved->allocate(job_of(6), machine.view());
  EXPECT_EQ(fallback->nodes, machine.nodes_of(geom::mm_inc(points, 6)));
  starved->commit(*fallback);
  EXPECT_EQ(dynamic_cast<CommAwareAllocator*>(starved.get())->fallbacks(), 1);
}

TEST(CommAwareAllocators, McUsesTheRequestedShape) {
  // 6x5 mesh whose free area is a 2x3 block (x 4..5, y 2..4) and the bottom row (y = 0).
  std::vector<NodeId> busy;
  Topology topology = Topology::parse("mesh:6x5");
  for (NodeId node = 0; node < topology.node_count(); ++node) {
    const int x = topology.coord(node, 0), y = topology.coord(node, 1);
    const bool block = x >= 4 && y >= 2;
    if (y > 0 && !block) busy.push_back(node);
  }
  Machine machine("mesh:6x5", busy);
  auto mc = make_allocator("mc", machine.topology);
  auto chosen = mc->allocate(job_of(6, 2, 3), machine.view());
  ASSERT_TRUE(chosen);
  for (const NodeId node : chosen->nodes) {
    EXPECT_GE(machine.topology.coord(node, 0), 4);
    EXPECT_GE(machine.topology.coord(node, 1), 2);
  }
  auto row = mc->allocate(job_of(6, 6, 1), machine.view());
  for (const NodeId node : row->nodes) EXPECT_EQ(machine.topology.coord(node, 1), 0);
  EXPECT_EQ(CommAwareAllocator::near_cube_shape(7, 2), (std::vector<int>{3, 3}));
  EXPECT_EQ(CommAwareAllocator::near_cube_shape(6, 2), (std::vector<int>{3, 2}));
  EXPECT_EQ(CommAwareAllocator::near_cube_shape(5, 3), (std::vector<int>{2, 2, 2}));
}

TEST(CommAwareAllocators, TorusDistancesWrap) {
  // Ring of 8 with nodes 3, 4 busy: the best four free nodes (sum 10) are adjacent only through
  // the wrap, e.g. 7, 0, 1, 2; without the wrap the best would sum 14.
  Machine machine("torus:8x1", {3, 4});
  for (const std::string spec : {"mm", "mm-inc", "mc1x1", "greedy-optimal", "genalg"}) {
    auto chosen = make_allocator(spec, machine.topology)->allocate(job_of(4), machine.view());
    ASSERT_TRUE(chosen) << spec;
    EXPECT_EQ(pairwise_hop_sum(machine.topology, chosen->nodes), 10) << spec;  // 1+1+1+2+2+3
  }
}

TEST(CommAwareAllocators, RefusalsAndErrors) {
  Machine machine("mesh:4x4", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto mm = make_allocator("mm", machine.topology);
  EXPECT_FALSE(mm->allocate(job_of(5), machine.view()));  // only 4 free
  EXPECT_EQ(mm->allocate(job_of(4), machine.view())->nodes, (std::vector<NodeId>{12, 13, 14, 15}));
  EXPECT_FALSE(mm->contiguous_only());
  EXPECT_THROW(make_allocator("mm", Topology::parse("flat:16")), InputError);
  EXPECT_THROW(make_allocator("mm:centers=nowhere", machine.topology), InputError);
  EXPECT_THROW(make_allocator("ptas:m=0", machine.topology), InputError);
  EXPECT_THROW(make_allocator("greedy-optimal:budget=3", machine.topology), InputError);
}

TEST(CommAwareAllocators, RepeatedQuestionsAreAnsweredAlikeAndCountNothing) {
  Machine machine("mesh:8x8", scattered_busy());
  for (const std::string spec : {"greedy-optimal:nodes=1", "ptas:m=3,nodes=2", "mm", "mc1x1"}) {
    auto allocator = make_allocator(spec, machine.topology);
    const Allocator& asked = *allocator;  // allocate() is const
    const bool budgeted = spec.rfind("mm", 0) != 0 && spec.rfind("mc1x1", 0) != 0;
    const auto first = asked.allocate(job_of(20), machine.view());
    ASSERT_TRUE(first) << spec;
    EXPECT_EQ(first->used_fallback, budgeted) << spec;
    for (int repeat = 0; repeat < 5; ++repeat) {
      const auto again = asked.allocate(job_of(20), machine.view());
      ASSERT_TRUE(again) << spec;
      EXPECT_EQ(again->nodes, first->nodes) << spec;
      EXPECT_EQ(again->used_fallback, first->used_fallback) << spec;
      EXPECT_EQ(asked.fallbacks(), 0) << spec;  // questions are not counted
    }
    // A fresh allocator (empty cache) answers the same.
    const auto fresh = make_allocator(spec, machine.topology)->allocate(job_of(20), machine.view());
    EXPECT_EQ(fresh->nodes, first->nodes) << spec;
    // Only committing an allocation that used the fallback counts.
    Allocation without = *first;
    without.used_fallback = false;
    allocator->commit(without);
    EXPECT_EQ(allocator->fallbacks(), 0) << spec;
    allocator->commit(*first);
    EXPECT_EQ(allocator->fallbacks(), budgeted ? 1 : 0) << spec;
    allocator->release(*first);
    EXPECT_EQ(allocator->fallbacks(), budgeted ? 1 : 0) << spec;
    asked.allocate(job_of(20), machine.view());
    EXPECT_EQ(allocator->fallbacks(), budgeted ? 1 : 0) << spec;
  }
}

TEST(CommAwareAllocators, AnswerCacheStaysWithinItsBound) {
  Machine machine("torus:16x16", {});
  auto allocator = make_allocator("mm-inc", machine.topology);
  const auto& typed = dynamic_cast<const CommAwareAllocator&>(*allocator);
  Rng draws(7);
  // Many distinct free sets, several sizes each.
  for (int round = 0; round < 300; ++round) {
    const auto node = static_cast<NodeId>(draws.uniform_int(0, machine.topology.node_count() - 1));
    machine.busy[node] = !machine.busy[node];
    machine.free_count += machine.busy[node] ? -1 : 1;
    for (const int k : {1, 3, 8}) {
      const auto chosen = typed.allocate(job_of(k), machine.view());
      ASSERT_TRUE(chosen);
      EXPECT_EQ(chosen->nodes, typed.allocate(job_of(k), machine.view())->nodes);
      EXPECT_LE(typed.cache().size(), SelectionCache::kCapacity);
      EXPECT_EQ(typed.last_selection().indices.size(), static_cast<std::size_t>(k));
    }
  }
  // Many sizes on one free set: more questions than the capacity.
  const int asked = static_cast<int>(SelectionCache::kCapacity) * 2 + 5;
  ASSERT_GE(machine.free_count, asked);
  for (int k = 1; k <= asked; ++k) {
    const auto chosen = typed.allocate(job_of(k), machine.view());
    ASSERT_TRUE(chosen);
    EXPECT_EQ(static_cast<int>(chosen->nodes.size()), k);
    EXPECT_LE(typed.cache().size(), SelectionCache::kCapacity);
  }
  // The answers after eviction are those of a fresh allocator.
  for (const int k : {1, 40, asked}) {
    auto fresh = make_allocator("mm-inc", machine.topology);
    EXPECT_EQ(typed.allocate(job_of(k), machine.view())->nodes,
              fresh->allocate(job_of(k), machine.view())->nodes);
  }
}

}  // namespace
}  // namespace allocsim
