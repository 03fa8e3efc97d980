// Tests of the subtorus algorithms and allocator (Mao, Chen, Watson): the paper's examples for
// preprocessing, EP, NEP and both conversions; partitions cover their parent exactly once;
// random allocate/release sequences never overlap and return the available set to the initial one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"
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

TEST(SubtorusAllocator, DeallocationReturnsAWholePartitionOnly) {
  // Paper, Section 2.3: "we need to keep a record of the chosen semitorus S in the
  // identification step and its children (these children are siblings to each other) which are
  // obtained in the partition step. When a job return its torus to the available set A, the
  // deallocation algorithm checks to see if all its siblings are in A. If so all siblings
  // together with the returned torus are replaced by their parent S, which is put back to A."
  // NEP's partition of S = 2x4x4x8 for m = 16 has five children (Section 3): 2x4x2 (the job's),
  // 2x4x2, 2x4x4, 2x4x4x2, 2x4x4x4. While the 2x4x4x4 child is held, returning the job's piece
  // must leave the four small children apart. The old reading merged NEP's halves pairwise
  // (2x4x2 + 2x4x2 -> 2x4x4 -> 2x4x4x2 -> 2x4x4x4) and so offered a 128-node semitorus here.
  const Topology machine = Topology::parse("torus:2x4x4x8");
  std::vector<char> busy(machine.node_count(), 0);
  Rng rng(1);
  for (const MergeRule merge : {MergeRule::partition, MergeRule::halves}) {
    SubtorusAllocator alloc(machine, PartitionScheme::nep, ConvertMode::pair, PickRule::smallest,
                            merge);
    const auto small = alloc.allocate(job_of(16), view_of(machine, busy, rng));
    ASSERT_TRUE(small.has_value());
    alloc.commit(*small);
    const auto large = alloc.allocate(job_of(128), view_of(machine, busy, rng));
    ASSERT_TRUE(large.has_value());
    alloc.commit(*large);  // takes the 2x4x4x4 child, which fits exactly
    alloc.release(*small);
    auto free_sides = formats(alloc.available());
    std::sort(free_sides.begin(), free_sides.end());
    if (merge == MergeRule::partition) {
      EXPECT_EQ(free_sides, (std::vector<std::string>{"2x4x2", "2x4x2", "2x4x4", "2x4x4x2"}));
      EXPECT_FALSE(alloc.allocate(job_of(128), view_of(machine, busy, rng)).has_value());
    } else {
      EXPECT_EQ(free_sides, (std::vector<std::string>{"2x4x4x4"}));
    }
    // The last child back: S returns whole.
    alloc.release(*large);
    EXPECT_EQ(alloc.available(), std::vector<Semitorus>{whole({2, 4, 4, 8})});
  }
  // The registry's default is the paper's rule.
  auto made = make_allocator("subtorus:scheme=nep", machine);
  const auto a = made->allocate(job_of(16), view_of(machine, busy, rng));
  made->commit(*a);
  const auto b = made->allocate(job_of(128), view_of(machine, busy, rng));
  made->commit(*b);
  made->release(*a);
  EXPECT_FALSE(made->allocate(job_of(128), view_of(machine, busy, rng)).has_value());
}

TEST(SubtorusAllocator, EqualPartitionHoldsTheMachineToItsFirstPieceSize) {
  // Paper, Section 3: "Each time, the Equal Partition creates a total of p semitori, only one
  // of which is going to be allocated with the other p - 1 to be put in the available set".
  // On an idle QCDOC crate (1,024 nodes) an 8-node job cuts the machine into 128 pieces of 8;
  // a 16-node job then cannot be placed, with 1,016 nodes idle, until every piece is back
  // (Section 2.3's merge). This is why EP's slowdown is high at low load on the NASA log.
  const Topology qcdoc = Topology::parse("torus:2x2x2x4x4x8");
  std::vector<char> busy(qcdoc.node_count(), 0);
  Rng rng(1);
  for (const PickRule pick : {PickRule::smallest, PickRule::lowest, PickRule::largest}) {
    SubtorusAllocator ep(qcdoc, PartitionScheme::ep, ConvertMode::pair, pick);
    const auto a = ep.allocate(job_of(8), view_of(qcdoc, busy, rng));
    ASSERT_TRUE(a.has_value());
    ep.commit(*a);
    EXPECT_EQ(ep.available().size(), 127u);
    EXPECT_FALSE(ep.allocate(job_of(16), view_of(qcdoc, busy, rng)).has_value());
    ep.release(*a);
    EXPECT_TRUE(ep.allocate(job_of(16), view_of(qcdoc, busy, rng)).has_value());
  }
  // NEP leaves one piece of every size: the 16-node job fits at once.
  SubtorusAllocator nep(qcdoc, PartitionScheme::nep, ConvertMode::pair);
  nep.commit(*nep.allocate(job_of(8), view_of(qcdoc, busy, rng)));
  EXPECT_TRUE(nep.allocate(job_of(16), view_of(qcdoc, busy, rng)).has_value());
}

TEST(SubtorusAllocator, PickRulesChooseAsNamed) {
  // The paper names no identification rule; the three of PickRule on JLab's initial set
  // (2x2x2x4x8 at node 0, 256 nodes; 2x2x2x2x8 at node 32, 128 nodes) for a 64-node job.
  const Topology jlab = Topology::parse("torus:2x2x2x6x8");
  std::vector<char> busy(jlab.node_count(), 0);
  Rng rng(1);
  const std::map<PickRule, NodeId> expected{
      {PickRule::smallest, 32}, {PickRule::lowest, 0}, {PickRule::largest, 0}};
  for (const auto& [pick, origin] : expected) {
    SubtorusAllocator alloc(jlab, PartitionScheme::nep, ConvertMode::pair, pick);
    const auto a = alloc.allocate(job_of(64), view_of(jlab, busy, rng));
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->token, origin);
  }
  EXPECT_NO_THROW(make_allocator("subtorus:pick=largest,merge=halves", jlab));
  EXPECT_THROW(make_allocator("subtorus:pick=best", jlab), InputError);
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

TEST(SubtorusBackfilling, ReservesTheHeadWhereATorusIsFree) {
  // Paper, Section 2.2: "the first job in the queue is delayed if it starts after its earliest
  // possible start time, which is the time when there is just as many idle processors as
  // requested by the job in a toroidal topology, which can be allocated to the job for its
  // execution." On a 4x4 torus with NEP: A (4 nodes, until 100), B and C (4 nodes each, until
  // 1000) leave one 4-node piece free. The head H (8 nodes) has enough idle processors when A
  // ends at 100, but no 8-node semitorus until B and C end at 1000. E (4 nodes, until 502) fits
  // now and ends before 1000: it must backfill. A reservation by processor count alone (at
  // 100, no spare nodes) would refuse it.
  const std::string path = testing::TempDir() + "mao_backfill.txt";
  {
    std::ofstream trace(path);
    trace << "0 4 100 100\n0 4 1000 1000\n0 4 1000 1000\n1 8 10 10\n2 4 500 500\n";
  }
  RunConfig config;
  config.machine = "torus:4x4";
  config.trace = path;
  config.sched = "easy";
  config.alloc = "subtorus:scheme=nep";
  config.keep_jobs = true;
  const RunResult result = simulate(config, std::string());
  std::remove(path.c_str());
  ASSERT_EQ(result.jobs.size(), 5u);
  std::map<double, double> start_of;  // submit -> start (submits 1 and 2 are unique)
  for (const JobRecord& job : result.jobs) start_of[job.submit] = job.start;
  EXPECT_EQ(start_of[1], 1000);  // H: when an 8-node semitorus is free
  EXPECT_EQ(start_of[2], 2);     // E: backfilled at once
}

TEST(SubtorusBackfilling, StudiesGiveBackfillingTheExecutionTimes) {
  // Paper, Section 4.2: "A job log contains information on the arrival times, execution times,
  // and sizes (numbers of processors required) of all jobs." The simulator knows a job's
  // execution time and nothing else about its length, so backfilling plans with it: every
  // config of experiments/mao-*.toml sets estimate = runtime. Before, NASA jobs (no requested
  // time) got 2 x runtime and SDSC jobs their users' requested times. Checked on a small SWF
  // log with both kinds of job.
  for (const std::string study : {"mao-qcdoc", "mao-jlab"}) {
    for (const std::string folder : {"", "quick/"}) {
      const auto experiment = sweep::read_experiment(
          std::string(ALLOCSIM_TEST_DATA) + "/../../experiments/" + folder + study + ".toml");
      const auto expansion = sweep::expand(experiment);
      ASSERT_FALSE(expansion.configs.empty());
      for (std::size_t i = 0; i < expansion.configs.size(); i += 17) {
        RunConfig config = expansion.configs[i].config;
        config.trace = std::string(ALLOCSIM_TEST_DATA) + "/small.swf";
        const Workload workload = transform_workload(config, load_workload(config, std::string()));
        ASSERT_FALSE(workload.jobs.empty());
        for (const Job& job : workload.jobs)
          EXPECT_DOUBLE_EQ(job.estimate, job.runtime) << folder << study << " job " << job.id;
      }
    }
  }
}

}  // namespace
}  // namespace allocsim
