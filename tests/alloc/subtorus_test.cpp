// Tests of the subtorus algorithms and allocator (Mao, Chen, Watson): the paper's examples for
// preprocessing, EP, NEP and both conversions; partitions cover their parent exactly once;
// random allocate/release sequences never overlap and return the available set to the initial one.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {
namespace {

std::vector<std::string> formats(const std::vector<Semitorus>& pieces) {
  std::vector<std::string> out;
  for (const auto& piece : pieces) out.push_back(format_sides(piece.sides));
  return out;
}

Semitorus whole(const std::vector<int>& sides) {
  return Semitorus{std::vector<int>(sides.size(), 0), sides, std::vector<bool>(sides.size(), true)};
}

std::vector<bool> bools(std::initializer_list<int> values) {
  std::vector<bool> out;
  for (int v : values) out.push_back(v != 0);
  return out;
}

/// True when local coordinates a and b are neighbours in the semitorus graph.
bool adjacent(const Semitorus& s, const std::vector<int>& a, const std::vector<int>& b) {
  int differing = 0;
  bool neighbour = false;
  for (int d = 0; d < s.dims(); ++d) {
    if (a[d] == b[d]) continue;
    ++differing;
    const int gap = std::abs(a[d] - b[d]);
    neighbour = gap == 1 || (s.wrap[d] && gap == s.sides[d] - 1);
  }
  return differing == 1 && neighbour;
}

/// Every node of `parent` lies in exactly one piece, and no piece leaves the parent.
void expect_exact_cover(const Semitorus& parent, const std::vector<Semitorus>& pieces,
                        const std::vector<int>& machine) {
  const auto parent_nodes = semitorus_nodes(parent, machine);
  std::vector<NodeId> all;
  for (const auto& piece : pieces) {
    const auto nodes = semitorus_nodes(piece, machine);
    all.insert(all.end(), nodes.begin(), nodes.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, parent_nodes);
}

MachineView view_of(const Topology& topology, const std::vector<char>& busy, Rng& rng) {
  return MachineView(topology, busy, static_cast<int>(std::count(busy.begin(), busy.end(), 0)),
                     rng);
}

Job job_of(int procs) {
  Job job;
  job.procs = procs;
  return job;
}

TEST(SubtorusAlgorithms, RoundsRequestsToPowersOfTwo) {
  EXPECT_EQ(round_up_power_of_two(1), 1);
  EXPECT_EQ(round_up_power_of_two(5), 8);
  EXPECT_EQ(round_up_power_of_two(8), 8);
  EXPECT_EQ(round_up_power_of_two(129), 256);
  EXPECT_EQ(format_sides({2, 4, 2, 1}), "2x4x2");
  EXPECT_EQ(format_sides({1, 1}), "1");
}

TEST(SubtorusAlgorithms, PreprocessingJLabExample) {
  // Paper: 2x2x2x6x8 -> 2x2x2x4x8 (one wrap missing in the 6-side) and 2x2x2x2x8.
  const auto pieces = preprocess({2, 2, 2, 6, 8}, bools({1, 1, 1, 1, 1}));
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].sides, (std::vector<int>{2, 2, 2, 4, 8}));
  EXPECT_EQ(pieces[0].origin, (std::vector<int>{0, 0, 0, 0, 0}));
  EXPECT_EQ(pieces[0].wrap, bools({1, 1, 1, 0, 1}));
  EXPECT_EQ(pieces[1].sides, (std::vector<int>{2, 2, 2, 2, 8}));
  EXPECT_EQ(pieces[1].origin, (std::vector<int>{0, 0, 0, 4, 0}));
  EXPECT_EQ(pieces[1].wrap, bools({1, 1, 1, 1, 1}));
  expect_exact_cover(whole({2, 2, 2, 6, 8}), pieces, {2, 2, 2, 6, 8});
}

TEST(SubtorusAlgorithms, PreprocessingFollowsBinaryDigits) {
  // QCDOC crate: all sides powers of two, the machine itself is the one semitorus.
  const auto qcdoc = preprocess(Topology::parse("torus:2x2x2x4x4x8"));
  ASSERT_EQ(qcdoc.size(), 1u);
  EXPECT_EQ(qcdoc[0], whole({2, 2, 2, 4, 4, 8}));
  // 28 = 4 * 7 = 4 * (4 + 2 + 1): pieces 16, 8, 4 along that side, largest first.
  const auto pieces = preprocess({4, 28}, bools({1, 1}));
  EXPECT_EQ(formats(pieces), (std::vector<std::string>{"4x16", "4x8", "4x4"}));
  EXPECT_EQ(pieces[1].origin, (std::vector<int>{0, 16}));
  EXPECT_EQ(pieces[2].origin, (std::vector<int>{0, 24}));
  expect_exact_cover(whole({4, 28}), pieces, {4, 28});
  // 10 = 2 * 5 = 2 * (4 + 1): pieces 8 and 2 (the 2-side is a ring).
  const auto ten = preprocess({10}, bools({1}));
  EXPECT_EQ(formats(ten), (std::vector<std::string>{"8", "2"}));
  EXPECT_EQ(ten[0].wrap, bools({0}));
  EXPECT_EQ(ten[1].wrap, bools({1}));
}

TEST(SubtorusAlgorithms, PreprocessingRejectsMachinesOutsideTheAssumption) {
  EXPECT_THROW(preprocess({6, 6, 8}, bools({1, 1, 1})), InputError);
  EXPECT_THROW(preprocess(Topology::parse("torus:12x10")), InputError);
  EXPECT_THROW(preprocess(Topology::parse("mesh:8x8")), InputError);
  EXPECT_THROW(preprocess(Topology::parse("flat:64")), InputError);
  try {
    preprocess({6, 6}, bools({1, 1}));
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("powers of two"), std::string::npos) << e.what();
  }
}

TEST(SubtorusAlgorithms, EqualPartitionPaperExamples) {
  const Semitorus s = whole({2, 4, 4, 8});
  // m = 8 (k = 3 <= h = 4): pieces 2x2x2.
  EXPECT_EQ(ep_piece_sides(s.sides, 8), (std::vector<int>{2, 2, 2, 1}));
  const auto small = ep_split(s, 8);
  ASSERT_EQ(small.size(), 32u);
  for (const auto& piece : small) EXPECT_EQ(format_sides(piece.sides), "2x2x2");
  EXPECT_EQ(small[0].origin, (std::vector<int>{0, 0, 0, 0}));
  // m = 64 (k = 6 > h): pieces with sides 2, 2, 4, 4 (as equal as possible).
  auto big = ep_piece_sides(s.sides, 64);
  EXPECT_EQ(big, (std::vector<int>{2, 4, 4, 2}));  // full 4-sides kept: the piece is a torus
  std::sort(big.begin(), big.end());
  EXPECT_EQ(big, (std::vector<int>{2, 2, 4, 4}));
  const auto pieces = ep_split(s, 64);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].wrap, bools({1, 1, 1, 1}));
  // k <= h gives 2x...x2 in k dimensions; whole S is one piece.
  EXPECT_EQ(ep_piece_sides(s.sides, 16), (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(ep_piece_sides(s.sides, 256), s.sides);
  EXPECT_EQ(ep_split(s, 256).size(), 1u);
}

TEST(SubtorusAlgorithms, NonEqualPartitionPaperExample) {
  // Paper: S = 2x4x4x8, m = 16 -> 2x4x2, 2x4x2, 2x4x4, 2x4x4x2, 2x4x4x4.
  const Semitorus s = whole({2, 4, 4, 8});
  const auto pieces = nep_split(s, 16);
  EXPECT_EQ(formats(pieces),
            (std::vector<std::string>{"2x4x2", "2x4x2", "2x4x4", "2x4x4x2", "2x4x4x4"}));
  EXPECT_EQ(pieces[0].origin, (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(pieces[1].origin, (std::vector<int>{0, 0, 2, 0}));
  EXPECT_EQ(pieces[4].origin, (std::vector<int>{0, 0, 0, 4}));
  // Wraps: the 8-side halved to 4 loses its ring; the full 4-sides keep theirs.
  EXPECT_EQ(pieces[4].wrap, bools({1, 1, 1, 0}));
  EXPECT_EQ(pieces[0].wrap, bools({1, 1, 1, 1}));
  EXPECT_EQ(nep_split(s, 256).size(), 1u);
  EXPECT_EQ(nep_split(s, 1).size(), 9u);  // 1 + log2(256)
}

TEST(SubtorusAlgorithms, EveryPartitionCoversItsParentExactlyOnce) {
  const std::vector<int> machine = {4, 8, 2, 16, 4};
  Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    // A random power-of-two box aligned inside the machine, with semitorus wraps.
    std::vector<int> origin(machine.size()), sides(machine.size());
    for (std::size_t d = 0; d < machine.size(); ++d) {
      sides[d] = 1 << rng.uniform_int(0, ceil_log2(machine[d]));
      origin[d] = static_cast<int>(rng.uniform_int(0, machine[d] / sides[d] - 1)) * sides[d];
    }
    const Semitorus s = sub_semitorus(whole(machine), origin, sides);
    const std::int64_t m = std::int64_t{1} << rng.uniform_int(0, ceil_log2(s.size()));
    const auto ep = ep_split(s, m);
    EXPECT_EQ(static_cast<std::int64_t>(ep.size()), s.size() / m);
    for (const auto& piece : ep) {
      EXPECT_EQ(piece.size(), m);
      EXPECT_EQ(piece.sides, ep[0].sides);
    }
    expect_exact_cover(s, ep, machine);
    const auto nep = nep_split(s, m);
    EXPECT_EQ(static_cast<int>(nep.size()), 1 + ceil_log2(s.size() / m));
    EXPECT_EQ(nep[0].size(), m);
    EXPECT_EQ(nep[0].origin, s.origin);
    expect_exact_cover(s, nep, machine);
  }
}

TEST(SubtorusAlgorithms, ConversionPaperExample) {
  // 2^2 x 2^3 x 2 x 2^2 with the first two wraps missing -> 2^5x2x2^2 or 2^4x2^4.
  const Semitorus s{{0, 0, 0, 0}, {4, 8, 2, 4}, bools({0, 0, 1, 1})};
  const TorusShape collapse = convert_to_torus(s, ConvertMode::collapse);
  EXPECT_EQ(collapse.sides, (std::vector<int>{32, 2, 4}));
  EXPECT_EQ(collapse.wrap, bools({1, 1, 1}));
  const TorusShape pair = convert_to_torus(s, ConvertMode::pair);
  EXPECT_EQ(pair.sides, (std::vector<int>{16, 16}));
  EXPECT_EQ(pair.groups, (std::vector<std::vector<int>>{{0, 3}, {1, 2}}));
  // A semitorus that is already a torus converts to itself (sides of 1 dropped).
  const Semitorus torus{{0, 0, 0}, {2, 1, 4}, bools({1, 1, 1})};
  EXPECT_EQ(convert_to_torus(torus, ConvertMode::pair).sides, (std::vector<int>{2, 4}));
  // One wrap-less side: collapse also pairs it (a lone line is no ring); with no partner the
  // line stays a line.
  const Semitorus one{{0, 0}, {8, 2}, bools({0, 1})};
  EXPECT_EQ(convert_to_torus(one, ConvertMode::collapse).sides, (std::vector<int>{16}));
  const Semitorus line{{0, 0}, {8, 1}, bools({0, 1})};
  const TorusShape lone = convert_to_torus(line, ConvertMode::collapse);
  EXPECT_EQ(lone.sides, (std::vector<int>{8}));
  EXPECT_EQ(lone.wrap, bools({0}));
}

TEST(SubtorusAlgorithms, ConvertedTorusNeighboursAreSemitorusNeighbours) {
  const std::vector<Semitorus> cases = {
      {{0, 0, 0, 0}, {4, 8, 2, 4}, bools({0, 0, 1, 1})},
      {{0, 0, 0}, {4, 4, 4}, bools({0, 0, 0})},
      {{0, 0, 0}, {8, 4, 2}, bools({0, 1, 1})},
      {{0, 0, 0, 0}, {4, 4, 4, 2}, bools({0, 0, 0, 1})},
      {{0, 0}, {8, 1}, bools({0, 1})},
  };
  for (const auto& s : cases) {
    for (ConvertMode mode : {ConvertMode::collapse, ConvertMode::pair}) {
      const TorusShape shape = convert_to_torus(s, mode);
      const auto coords = torus_local_coords(s, shape);
      ASSERT_EQ(static_cast<std::int64_t>(coords.size()), s.size());
      EXPECT_EQ(std::set<std::vector<int>>(coords.begin(), coords.end()).size(), coords.size());
      std::int64_t stride = 1;
      for (std::size_t j = 0; j < shape.sides.size(); ++j) {
        const int n = shape.sides[j];
        for (std::int64_t rank = 0; rank < s.size(); ++rank) {
          const int digit = static_cast<int>(rank / stride % n);
          if (n < 2 || (digit + 1 == n && (!shape.wrap[j] || n == 2))) continue;
          const std::int64_t next = digit + 1 < n ? rank + stride : rank - (n - 1) * stride;
          EXPECT_TRUE(adjacent(s, coords[rank], coords[next]))
              << format_sides(s.sides) << " torus dim " << j << " rank " << rank;
        }
        stride *= n;
      }
    }
  }
}

TEST(SubtorusAllocator, PartitionsAsInThePaper) {
  const Topology machine = Topology::parse("torus:2x4x4x8");
  std::vector<char> busy(machine.node_count(), 0);
  Rng rng(1);
  SubtorusAllocator ep(machine, PartitionScheme::ep, ConvertMode::pair);
  const auto a = ep.allocate(job_of(7), view_of(machine, busy, rng));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->nodes.size(), 8u);
  EXPECT_EQ(ep.nodes_needed(job_of(7)), 8);
  EXPECT_EQ(ep.available().size(), 1u);  // allocate() is a pure choice
  ep.commit(*a);
  const auto ep_free = ep.available();
  EXPECT_EQ(ep_free.size(), 31u);
  for (const auto& s : ep_free) EXPECT_EQ(format_sides(s.sides), "2x2x2");

  SubtorusAllocator nep(machine, PartitionScheme::nep, ConvertMode::pair);
  const auto b = nep.allocate(job_of(16), view_of(machine, busy, rng));
  ASSERT_TRUE(b.has_value());
  nep.commit(*b);
  auto nep_free = formats(nep.available());
  std::sort(nep_free.begin(), nep_free.end());
  EXPECT_EQ(nep_free, (std::vector<std::string>{"2x4x2", "2x4x4", "2x4x4x2", "2x4x4x4"}));
  ASSERT_EQ(nep.allocated().size(), 1u);
  EXPECT_EQ(format_sides(nep.allocated()[0].sides), "2x4x2");
  // Release merges every partition back into the whole machine.
  nep.release(*b);
  EXPECT_EQ(nep.available(), std::vector<Semitorus>{whole({2, 4, 4, 8})});
  ep.release(*a);
  EXPECT_EQ(ep.available(), std::vector<Semitorus>{whole({2, 4, 4, 8})});
}

TEST(SubtorusAllocator, IdentifiesTheSmallestFittingSemitorus) {
  const Topology jlab = Topology::parse("torus:2x2x2x6x8");
  std::vector<char> busy(jlab.node_count(), 0);
  Rng rng(1);
  SubtorusAllocator alloc(jlab, PartitionScheme::nep, ConvertMode::collapse);
  EXPECT_EQ(alloc.largest_request(), 256);
  // 100 -> 128 nodes: the 2x2x2x2x8 piece (origin (0,0,0,4,0) = node 32) fits exactly.
  const auto a = alloc.allocate(job_of(100), view_of(jlab, busy, rng));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->token, 32);
  EXPECT_EQ(a->nodes.size(), 128u);
  alloc.commit(*a);
  // 3 -> 4 nodes: only the 256-piece is left; NEP halves it down to 4 nodes.
  const auto b = alloc.allocate(job_of(3), view_of(jlab, busy, rng));
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->token, 0);
  alloc.commit(*b);
  EXPECT_EQ(alloc.available().size(), 6u);  // halves of 128, 64, 32, 16, 8, 4
  // Larger than any semitorus: never fits.
  EXPECT_FALSE(alloc.allocate(job_of(257), view_of(jlab, busy, rng)).has_value());
}

TEST(SubtorusAllocator, AllocationIsListedInConvertedTorusOrder) {
  const Topology machine = Topology::parse("torus:8x16x2x4");
  std::vector<char> busy(machine.node_count(), 0);
  Rng rng(1);
  SubtorusAllocator alloc(machine, PartitionScheme::ep, ConvertMode::collapse);
  const auto a = alloc.allocate(job_of(200), view_of(machine, busy, rng));
  ASSERT_TRUE(a.has_value());
  // EP piece of 256 nodes in 8x16x2x4: 8x4x2x4, wrap-less only along the 16-side, whose 4 nodes
  // pair with the 2-side into a ring of 8: torus 8x8x4, listed with the first dimension fastest.
  const Semitorus piece{{0, 0, 0, 0}, {8, 4, 2, 4}, bools({1, 0, 1, 1})};
  EXPECT_EQ(ep_piece_sides({8, 16, 2, 4}, 256), piece.sides);
  const TorusShape shape = convert_to_torus(piece, ConvertMode::collapse);
  EXPECT_EQ(shape.sides, (std::vector<int>{8, 8, 4}));
  EXPECT_EQ(a->nodes, torus_ordered_nodes(piece, shape, machine.sides()));
  // Every torus link (wraps included) is a machine link.
  std::int64_t stride = 1;
  for (int n : shape.sides) {
    for (std::int64_t rank = 0; rank < 256; ++rank) {
      const bool last = rank / stride % n == n - 1;
      const std::int64_t next = last ? rank - (n - 1) * stride : rank + stride;
      EXPECT_EQ(machine.distance(a->nodes[rank], a->nodes[next]), 1) << rank;
    }
    stride *= n;
  }
}

TEST(SubtorusAllocator, RejectsUnsupportedMachines) {
  EXPECT_THROW(
      SubtorusAllocator(Topology::parse("mesh:8x8"), PartitionScheme::ep, ConvertMode::pair),
      InputError);
  EXPECT_THROW(
      SubtorusAllocator(Topology::parse("torus:6x6"), PartitionScheme::ep, ConvertMode::pair),
      InputError);
  EXPECT_THROW(make_allocator("subtorus", Topology::parse("flat:384")), InputError);
  EXPECT_THROW(make_allocator("subtorus:scheme=xp", Topology::parse("torus:4x4")), InputError);
  auto made =
      make_allocator("subtorus:scheme=ep,convert=collapse", Topology::parse("torus:2x2x2x6x8"));
  ASSERT_NE(made, nullptr);
  EXPECT_TRUE(made->contiguous_only());
  EXPECT_EQ(made->nodes_needed(job_of(33)), 64);
}

/// Random allocate/commit/release on `machine`: no node is ever held twice, available and
/// allocated semitori always tile the machine, and releasing everything restores the initial set.
void random_sequence(const std::string& spec, PartitionScheme scheme, std::uint64_t seed) {
  const Topology machine = Topology::parse(spec);
  const std::vector<int>& sides = machine.sides();
  std::vector<char> busy(machine.node_count(), 0);
  Rng rng(seed);
  SubtorusAllocator alloc(machine, scheme, ConvertMode::pair);
  const auto initial = alloc.available();
  EXPECT_EQ(initial, preprocess(machine));  // pieces in increasing origin order
  std::vector<Allocation> running;
  std::size_t most_running = 0;
  for (int step = 0; step < 600; ++step) {
    if (!running.empty() && rng.uniform() < 0.45) {
      const auto index = static_cast<std::size_t>(rng.uniform_int(0, running.size() - 1));
      for (NodeId node : running[index].nodes) busy[node] = 0;
      alloc.release(running[index]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(index));
    } else {
      // Log-uniform sizes: 2^(k-1) < procs <= 2^k, so small and large requests mix.
      const int k = static_cast<int>(rng.uniform_int(0, ceil_log2(alloc.largest_request())));
      const int procs = k == 0 ? 1 : static_cast<int>(rng.uniform_int((1 << (k - 1)) + 1, 1 << k));
      const auto a = alloc.allocate(job_of(procs), view_of(machine, busy, rng));
      if (!a) continue;
      ASSERT_EQ(static_cast<int>(a->nodes.size()), alloc.nodes_needed(job_of(procs)));
      for (NodeId node : a->nodes) {
        ASSERT_EQ(busy[node], 0) << "node " << node << " handed out twice";
        busy[node] = 1;
      }
      // A copy made for look-ahead does not disturb the original.
      auto copy = alloc.clone();
      alloc.commit(*a);
      running.push_back(*a);
      most_running = std::max(most_running, running.size());
      copy->commit(*a);
      copy->release(*a);
    }
    // Available plus allocated semitori tile the machine exactly once.
    auto pieces = alloc.available();
    const auto held = alloc.allocated();
    pieces.insert(pieces.end(), held.begin(), held.end());
    expect_exact_cover(whole(sides), pieces, sides);
    EXPECT_EQ(held.size(), running.size());
  }
  EXPECT_GE(most_running, 6u);  // the sequence did fragment the machine
  while (!running.empty()) {
    alloc.release(running.back());
    running.pop_back();
  }
  EXPECT_EQ(alloc.available(), initial);
}

TEST(SubtorusAllocator, RandomSequencesReturnToTheInitialSet) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    random_sequence("torus:2x2x2x6x8", PartitionScheme::ep, seed);
    random_sequence("torus:2x2x2x6x8", PartitionScheme::nep, seed);
    random_sequence("torus:2x2x2x4x4x8", PartitionScheme::ep, seed);
    random_sequence("torus:2x2x2x4x4x8", PartitionScheme::nep, seed);
    random_sequence("torus:4x28", PartitionScheme::nep, seed);
  }
}

TEST(SubtorusAllocator, RunsUnderFcfsAndBackfilling) {
  // End to end on JLab: every job runs on a power-of-two semitorus, never more nodes at once
  // than the machine has; backfilling (look-ahead on allocator clones) lowers the mean bounded
  // slowdown.
  for (const std::string alloc : {"subtorus:scheme=ep", "subtorus:scheme=nep"}) {
    double slowdown[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
      RunConfig config;
      config.machine = "torus:2x2x2x6x8";
      config.trace = "synthetic:jobs=300,arrival=exp:20,runtime=exp:400,size=uniform:1,256";
      config.sched = s == 0 ? "fcfs" : "easy";
      config.alloc = alloc;
      config.keep_jobs = true;
      const RunResult result = simulate(config, std::string());
      ASSERT_EQ(result.jobs.size(), 300u) << alloc;
      std::vector<std::pair<double, double>> events;
      for (const JobRecord& job : result.jobs) {
        EXPECT_EQ(job.nodes,
                  static_cast<double>(round_up_power_of_two(static_cast<std::int64_t>(job.procs))));
        EXPECT_EQ(job.internal_fragmentation, job.nodes - job.procs);
        events.emplace_back(job.start, job.nodes);
        events.emplace_back(job.end, -job.nodes);
      }
      std::sort(events.begin(), events.end());  // at equal times, ends (negative) first
      double busy = 0;
      for (const auto& [time, delta] : events) {
        busy += delta;
        EXPECT_LE(busy, 384) << alloc << " at " << time;
      }
      EXPECT_GT(result.summary.mean_internal_fragmentation, 0);
      slowdown[s] = result.summary.mean_bounded_slowdown;
    }
    EXPECT_LT(slowdown[1], slowdown[0]) << alloc;
  }
}

}  // namespace
}  // namespace allocsim
