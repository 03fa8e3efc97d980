// Flow model rates on hand-made cases, and the distance model formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "allocsim/network/distance_model.hpp"
#include "allocsim/network/flow_model.hpp"

using namespace allocsim;

TEST(FlowModel, JobAloneOnACompactAllocationRunsItsTraceRuntime) {
  const Topology t = Topology::parse("mesh:16x16");
  for (int k : {1, 2, 4, 8, 16, 30}) {
    FlowNetwork network(t, 0.6);
    network.add_job(1, reference_compact_nodes(t, k));
    network.solve();
    EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 1) << k;
    EXPECT_DOUBLE_EQ(network.rate(1).progress, 1) << k;
  }
  // The same 4x4 box elsewhere on the mesh, and on a torus.
  FlowNetwork network(t, 0.6);
  std::vector<NodeId> box;
  for (int y = 5; y < 9; ++y)
    for (int x = 7; x < 11; ++x) box.push_back(x + 16 * y);
  network.add_job(3, box);
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(3).progress, 1);
  const Topology torus = Topology::parse("torus:8x8");
  FlowNetwork on_torus(torus, 0.6);
  on_torus.add_job(1, std::vector<NodeId>{63, 56, 7, 0});  // a 2x2 box across both wraps
  on_torus.solve();
  EXPECT_DOUBLE_EQ(on_torus.rate(1).progress, 1);
}

TEST(FlowModel, ScatteredJobAloneIsSlowedByItsBottleneck) {
  // A row of 4 on a 16x16 mesh: its middle link carries 2·2 = 4 messages; the reference 2x2 box
  // carries at most 2 per link. s = 4/2 = 2; comm 0.5: runtime x (0.5 + 0.5·2) = 1.5.
  const Topology t = Topology::parse("mesh:16x16");
  FlowNetwork network(t, 0.5);
  network.add_job(1, std::vector<NodeId>{0, 1, 2, 3});
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 2);
  EXPECT_DOUBLE_EQ(1 / network.rate(1).progress, 1.5);
}

TEST(FlowModel, TwoAllToAllJobsSharingALinkSlowEachOther) {
  // mesh:4, a line 0-1-2-3. Job 1 on {0, 2}, job 2 on {1, 3}: each alone crosses each of its
  // links with one message (the reference {0, 1} does too: s = 1). Together both cross 1->2
  // and 2->1: capacity 1 shared by two messages at rate 1/2 each, s = 2. comm = 0.5:
  // runtime T·(0.5 + 0.5·2) = 1.5·T.
  const Topology t = Topology::parse("mesh:4");
  FlowNetwork network(t, 0.5);
  network.add_job(1, std::vector<NodeId>{0, 2});
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).progress, 1);
  network.add_job(2, std::vector<NodeId>{1, 3});
  network.solve();
  for (int job : {1, 2}) {
    EXPECT_DOUBLE_EQ(network.rate(job).comm_slowdown, 2);
    EXPECT_DOUBLE_EQ(1 / network.rate(job).progress, 1.5);
  }
  // Utilization: each job communicates comm·s/((1-comm)+comm·s) = 2/3 of its time, at 1/2 on
  // each of its 4 links: 1/3 per job-link; links 1->2, 2->1 carry both: max 2/3; mean over the
  // 6 links (4/3 + 4/3)/6 = 4/9.
  EXPECT_DOUBLE_EQ(network.utilization().max, 2.0 / 3);
  EXPECT_DOUBLE_EQ(network.utilization().mean, 4.0 / 9);
  network.remove_job(2);
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).progress, 1);
}

TEST(FlowModel, SmallJobSharingWithALargeOne) {
  // mesh:6 line. Job 1 on {0, 3} (alone: one message per link, reference rate 1, s = 1).
  // Job 2 on {1, 2, 4, 5}: link 2->3 carries 2·2 = 4 of its messages, as does its reference
  // {0..3}'s middle link: reference rate 1/4, alone s = 1. Sharing 2->3 (and 3->2):
  // r1·1 + r2·4 ≤ 1 with equal rates: r = 1/5. Job 1: s = 1/(1/5) = 5; job 2: s = (1/4)/(1/5)
  // = 1.25. comm 0.5: runtimes 3·T and 1.125·T.
  const Topology t = Topology::parse("mesh:6");
  FlowNetwork network(t, 0.5);
  network.add_job(1, std::vector<NodeId>{0, 3});
  network.add_job(2, std::vector<NodeId>{1, 2, 4, 5});
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 5);
  EXPECT_DOUBLE_EQ(network.rate(2).comm_slowdown, 1.25);
  EXPECT_DOUBLE_EQ(1 / network.rate(1).progress, 3);
  EXPECT_DOUBLE_EQ(1 / network.rate(2).progress, 1.125);
}

// The two pacing loads (flow_model.hpp) on a case worked by hand. mesh:8 is a line of 8 nodes,
// N = 14 directed links. All-to-all among {0, 2, 4, 6}: the link x -> x+1 carries (nodes <= x)
// · (nodes > x) messages, 3, 3, 4, 4, 3, 3, 0 rightwards and the same leftwards: most loaded 4,
// hop-bytes 40. The reference {0, 1, 2, 3}: 3, 4, 3 each way: most loaded 4, hop-bytes 20.
// max: s = 4 / 4 = 1 (the spread-out job's bottleneck is the reference's), runtime x 1.
// mean: s = (40 / 14) / (20 / 14) = 2 (twice the bytes x hops on the same 14 links), with
// comm = 0.5 runtime x (0.5 + 0.5 · 2) = 1.5.
TEST(FlowModel, MaxAndMeanLoadGiveTheirHandComputedTimes) {
  const Topology t = Topology::parse("mesh:8");
  ASSERT_EQ(t.link_count(), 14);
  const std::vector<NodeId> spread{0, 2, 4, 6};
  FlowNetwork bottleneck(t, 0.5, 1, FlowLoad::max);
  bottleneck.add_job(1, spread);
  bottleneck.solve();
  EXPECT_DOUBLE_EQ(bottleneck.reference_rate(4), 1.0 / 4);
  EXPECT_DOUBLE_EQ(bottleneck.rate(1).comm_slowdown, 1);
  EXPECT_DOUBLE_EQ(1 / bottleneck.rate(1).progress, 1);
  FlowNetwork mean(t, 0.5, 1, FlowLoad::mean);
  mean.add_job(1, spread);
  mean.solve();
  EXPECT_DOUBLE_EQ(mean.reference_rate(4), 14.0 / 20);
  EXPECT_DOUBLE_EQ(mean.rate(1).comm_slowdown, 2);
  EXPECT_DOUBLE_EQ(1 / mean.rate(1).progress, 1.5);
  // At bandwidth 0.1 the bottleneck form gives s = 10 (capped: 1 / bandwidth), the mean form
  // s = 2 / 0.1 = 20: runtimes x 5.5 and x 10.5.
  FlowNetwork slow_max(t, 0.5, 0.1, FlowLoad::max), slow_mean(t, 0.5, 0.1, FlowLoad::mean);
  slow_max.add_job(1, spread);
  slow_mean.add_job(1, spread);
  slow_max.solve();
  slow_mean.solve();
  EXPECT_DOUBLE_EQ(1 / slow_max.rate(1).progress, 5.5);
  EXPECT_DOUBLE_EQ(1 / slow_mean.rate(1).progress, 10.5);
}

// Under the mean form all jobs' loads share the pool of all N links. mesh:4, N = 6: jobs on
// {0, 2} and {1, 3} each cross 4 links once (hop-bytes 4; the reference {0, 1}: 2, so alone
// s = 2). Together, equal rates r with 2 · r · 4/6 <= 1: r = 3/4, against the reference's
// 1 / (2/6) = 3: s = 4, comm 0.5: runtime x 2.5 (the bottleneck form gives s = 2: they share
// two links). Each communicates 0.5·4 / 2.5 = 4/5 of its time, using r · 4/6 = 1/2 of every
// link: the pool's utilization is 2 · 1/2 · 4/5 = 4/5 on every link (mean = max).
TEST(FlowModel, MeanLoadJobsShareThePoolOfAllLinks) {
  const Topology t = Topology::parse("mesh:4");
  FlowNetwork network(t, 0.5, 1, FlowLoad::mean);
  network.add_job(1, std::vector<NodeId>{0, 2});
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 2);
  network.add_job(2, std::vector<NodeId>{1, 3});
  network.solve();
  for (int job : {1, 2}) {
    EXPECT_DOUBLE_EQ(network.rate(job).comm_slowdown, 4);
    EXPECT_DOUBLE_EQ(1 / network.rate(job).progress, 2.5);
  }
  EXPECT_DOUBLE_EQ(network.utilization().mean, 0.8);
  EXPECT_DOUBLE_EQ(network.utilization().max, 0.8);
  network.remove_job(2);
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 2);
}

// flow:cap=none (set_reference_cap(false)) on dragonfly:p=2,a=4,h=2 (minimal routing): node n
// on router n / 2, 4 routers per group joined all to all by local links, every capacity 1. The
// reference of 4 nodes is {0, 1, 2, 3} on routers G0r0 and G0r1: the local link G0r0->G0r1
// carries 0->2, 0->3, 1->2, 1->3 (4 messages), each injection link 3: r_ref = 1/4. The job
// {0, 2, 4, 6}, one node per router of group 0: each injection and ejection link carries 3
// messages, each local link 1, so its links allow 1/3. Capped (the default): min(1/4, 1/3), s =
// 1. Uncapped: r = 1/3, s = (1/4) / (1/3) = 3/4, progress 1 / (0.5 + 0.5 x 3/4) = 8/7: it runs
// faster than its trace runtime. The compact job itself is at s = 1 either way, and two
// uncapped jobs on one link share it max-min fairly as before.
TEST(FlowModel, WithoutTheReferenceCapASpreadJobCommunicatesFasterThanCompact) {
  const Topology t = Topology::parse("dragonfly:p=2,a=4,h=2");
  for (const bool cap : {true, false}) {
    FlowNetwork network(t, 0.5);
    network.set_reference_cap(cap);
    EXPECT_DOUBLE_EQ(network.reference_rate(4), 0.25);
    network.add_job(1, std::vector<NodeId>{0, 2, 4, 6});
    network.solve();
    EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, cap ? 1.0 : 0.75) << cap;
    EXPECT_DOUBLE_EQ(network.rate(1).progress, cap ? 1.0 : 8.0 / 7) << cap;
    EXPECT_DOUBLE_EQ(network.alone_rate(1).comm_slowdown, cap ? 1.0 : 0.75) << cap;
    // The compact job {8, 9, 10, 11} (group 1, its first two routers): its links allow r_ref.
    network.add_job(2, std::vector<NodeId>{8, 9, 10, 11});
    network.solve();
    EXPECT_DOUBLE_EQ(network.rate(2).comm_slowdown, 1.0) << cap;
    EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, cap ? 1.0 : 0.75) << cap;
  }
  // Two uncapped jobs {0, 2} and {1, 3}: each of the local link G0r0->G0r1's two messages is one
  // job's, so max-min gives each 1/2; alone each would have 1 (every link 1 message), against
  // r_ref(2) = 1 ({0, 1}: injection 1). s = 2, as with the cap.
  FlowNetwork shared(t, 0.5);
  shared.set_reference_cap(false);
  shared.add_job(1, std::vector<NodeId>{0, 2});
  shared.add_job(2, std::vector<NodeId>{1, 3});
  shared.solve();
  EXPECT_DOUBLE_EQ(shared.rate(1).comm_slowdown, 2.0);
  EXPECT_DOUBLE_EQ(shared.rate(2).comm_slowdown, 2.0);
  EXPECT_DOUBLE_EQ(shared.alone_rate(1).comm_slowdown, 1.0);
}

TEST(FlowModel, PacingLoadIsTheMaximumOrTheSumOverAllLinks) {
  const std::vector<std::pair<LinkId, double>> loads{{3, 2.0}, {7, 5.0}, {9, 1.0}};
  EXPECT_EQ(pacing_load(loads, FlowLoad::max, 16), 5.0);
  EXPECT_EQ(pacing_load(loads, FlowLoad::mean, 16), 8.0 / 16);
  EXPECT_EQ(pacing_load({}, FlowLoad::mean, 16), 0.0);
}

TEST(FlowModel, CommZeroIgnoresTheNetwork) {
  const Topology t = Topology::parse("mesh:4");
  FlowNetwork network(t, 0.0);
  network.add_job(1, std::vector<NodeId>{0, 2});
  network.add_job(2, std::vector<NodeId>{1, 3});
  network.solve();
  EXPECT_DOUBLE_EQ(network.rate(1).progress, 1);
}

// Per-class peaks on dragonfly:p=1,a=2,h=1 (absolute): 3 groups of 2 routers, one node per
// router; node 2G + i on router i of group G. Global links (one per router): G0r0-G1r0,
// G0r1-G2r0, G1r1-G2r1 (group G's port l leads to the l-th other group, router l owns port l).
// The reference of k nodes is nodes 0 .. k-1.
TEST(FlowModel, UtilizationPerLinkClassOnASmallDragonfly) {
  const Topology t = Topology::parse("dragonfly:p=1,a=2,h=1");
  const auto at = [](const FlowNetwork& n, LinkClass c) {
    return n.utilization().max_by_class[static_cast<std::size_t>(c)];
  };
  {
    // One job on nodes 0, 2, 4 (router 0 of each group). Minimal routes: 0->2 global G0r0->G1r0;
    // 0->4 local G0r0->G0r1, global G0r1->G2r0; 2->0 global; 2->4 local G1r0->G1r1, global
    // G1r1->G2r1, local G2r1->G2r0; 4->0 global G2r0->G0r1, local G0r1->G0r0; 4->2 local
    // G2r0->G2r1, global G2r1->G1r1, local G1r1->G1r0. Every router link carries 1 message,
    // every injection and ejection link 2. The reference {0, 1, 2} also loads its injection
    // links with 2 (and G0r0->G1r0 with 0->2 and 1->2): r_ref = 1/2, the job's own rate
    // min(1/2, 1/2): s = 1 and with comm 0.5 it communicates half the time. Use = rate x load x
    // 1/2: 0.5 on injection and ejection links, 0.25 on local and global ones.
    FlowNetwork network(t, 0.5);
    network.add_job(1, std::vector<NodeId>{0, 2, 4});
    network.solve();
    EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 1);
    EXPECT_DOUBLE_EQ(network.utilization().max, 0.5);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::injection), 0.5);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::ejection), 0.5);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::local), 0.25);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::global), 0.25);
    EXPECT_EQ(at(network, LinkClass::up), 0);  // no fat-tree links
    // Under load=mean every link carries the pool's use: each class of the machine gets max.
    FlowNetwork mean(t, 0.5, 1, FlowLoad::mean);
    mean.add_job(1, std::vector<NodeId>{0, 2, 4});
    mean.solve();
    EXPECT_GT(mean.utilization().max, 0);
    EXPECT_EQ(at(mean, LinkClass::local), mean.utilization().max);
    EXPECT_EQ(at(mean, LinkClass::global), mean.utilization().max);
    EXPECT_EQ(at(mean, LinkClass::down), 0);
  }
  {
    // Jobs {0, 3} and {1, 2}: 0->3 global G0r0->G1r0, local G1r0->G1r1; 3->0 local G1r1->G1r0,
    // global G1r0->G0r0; 1->2 local G0r1->G0r0, global G0r0->G1r0; 2->1 global G1r0->G0r0, local
    // G0r0->G0r1. Both global links between G0r0 and G1r0 carry one message of each job: max-min
    // r = 1/2 each (cap r_ref = 1), s = 2, communicating 0.5 x 2 / 1.5 = 2/3 of the time. Use per
    // job and link 1/2 x 2/3 = 1/3: 2/3 on the shared global links, 1/3 elsewhere.
    FlowNetwork network(t, 0.5);
    network.add_job(1, std::vector<NodeId>{0, 3});
    network.add_job(2, std::vector<NodeId>{1, 2});
    network.solve();
    EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 2);
    EXPECT_DOUBLE_EQ(network.utilization().max, 2.0 / 3);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::global), 2.0 / 3);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::local), 1.0 / 3);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::injection), 1.0 / 3);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::ejection), 1.0 / 3);
    // Job 2 ends: job 1 alone, s = 1, communicating 1/2, use 1/2 on each of its links. The
    // peaks: the global links' stays 2/3, the local links' rises to 1/2.
    network.remove_job(2);
    network.solve();
    EXPECT_DOUBLE_EQ(at(network, LinkClass::global), 2.0 / 3);
    EXPECT_DOUBLE_EQ(at(network, LinkClass::local), 0.5);
  }
  {
    // Weighted sharing (share=weighted), the same two jobs with shares 0.6 and 0.1: on the
    // shared global links r1 + r2 = 1 with r1 / 0.6 = r2 / 0.1, so r1 = 6/7, r2 = 1/7 (below
    // their caps r_ref = 1): s1 = 7/6, s2 = 7. Equal sharing: 1/2 each, s = 2.
    for (const bool weighted : {false, true}) {
      FlowNetwork network(t, 0.5);
      network.set_weighted_sharing(weighted);
      network.add_job(1, std::vector<NodeId>{0, 3});
      network.set_comm(1, 0.6);
      network.add_job(2, std::vector<NodeId>{1, 2});
      network.set_comm(2, 0.1);
      network.solve();
      EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, weighted ? 7.0 / 6 : 2.0);
      EXPECT_DOUBLE_EQ(network.rate(2).comm_slowdown, weighted ? 7.0 : 2.0);
      // Alone, each is at its alone rate whatever the rule.
      network.remove_job(2);
      network.solve();
      EXPECT_DOUBLE_EQ(network.rate(1).comm_slowdown, 1.0);
    }
  }
  // Grids have no link classes.
  const Topology mesh = Topology::parse("mesh:4x4");
  FlowNetwork grid(mesh, 0.5);
  grid.add_job(1, std::vector<NodeId>{0, 5});
  grid.solve();
  EXPECT_GT(grid.utilization().max, 0);
  for (const double peak : grid.utilization().max_by_class) EXPECT_EQ(peak, 0);
}

TEST(DistanceModel, Formula) {
  // T = 100, a = 0.5, e = 2, H = 3, H0 = 1: 100·(1 + 4.5)/(1 + 0.5) = 366.66...
  EXPECT_DOUBLE_EQ(distance_model_runtime(100, 3, 1, {0.5, 2}), 100 * 5.5 / 1.5);
  EXPECT_DOUBLE_EQ(distance_model_runtime(100, 1, 1, {0.5, 2}), 100);
  EXPECT_DOUBLE_EQ(distance_model_runtime(100, 0, 0, {}), 100);
}

// solve() re-solves only the jobs connected to a change; the rates and the link utilization
// must equal, bit for bit, those of one progressive filling over all running jobs (a fresh
// network given every running job at once), after every start and end of a random sequence
// (the peak utilization: the largest of the fresh networks' so far).
// Graph machines too (non-adaptive routing): their jobs share global and core links, so the
// contended/private bookkeeping of each job is exercised. The fourth round of each machine shares
// links weighted by each job's own communication share (set_comm, share=weighted); the last two
// lift the compact-reference cap (set_reference_cap(false), cap=none).
TEST(FlowModel, IncrementalSolveEqualsSolvingAllJobs) {
  std::mt19937 rng(13);
  for (const char* spec : {"mesh:8x8", "torus:4x4x4", "mesh:16x4", "dragonfly:p=2,a=4,h=2",
                           "fattree:k=4", "fattree:k=4,routing=ecmp"}) {
    const Topology t = Topology::parse(spec);
    for (const auto& [bandwidth, load, weighted, cap] :
         {std::tuple{1.0, FlowLoad::max, false, true},
          {0.5, FlowLoad::max, false, true},
          {0.5, FlowLoad::mean, false, true},
          {1.0, FlowLoad::max, true, true},
          {1.0, FlowLoad::max, false, false},
          {0.5, FlowLoad::mean, true, false}}) {
      FlowNetwork incremental(t, 0.7, bandwidth, load);
      incremental.set_weighted_sharing(weighted);
      incremental.set_reference_cap(cap);
      std::map<FlowNetwork::JobKey, std::vector<NodeId>> running;
      std::map<FlowNetwork::JobKey, double> shares;  // weighted rounds: each job's own
      std::vector<NodeId> all(t.node_count());
      std::iota(all.begin(), all.end(), 0);
      double peak = 0;  // the largest link utilization of the fresh networks so far
      std::array<double, kLinkClassCount> peak_by_class{};  // the same per link class
      for (int step = 0; step < 150; ++step) {
        const bool start = running.size() < 3 || (running.size() < 12 && rng() % 2 == 0);
        if (start) {
          std::shuffle(all.begin(), all.end(), rng);
          const int k = 1 + static_cast<int>(rng() % 10);
          std::vector<NodeId> nodes(all.begin(), all.begin() + k);
          if (rng() % 2 == 0) {  // a run of ids: jobs far apart share no link
            const auto first = static_cast<NodeId>(rng() % (t.node_count() - k));
            std::iota(nodes.begin(), nodes.end(), first);
          }
          const auto key = static_cast<FlowNetwork::JobKey>(rng() % 1000);
          running[key] = nodes;
          incremental.add_job(key, nodes);
          if (weighted) {
            shares[key] = 0.1 + 0.1 * static_cast<double>(rng() % 8);
            incremental.set_comm(key, shares[key]);
          }
        } else {
          auto victim = running.begin();
          std::advance(victim, rng() % running.size());
          incremental.remove_job(victim->first);
          running.erase(victim);
        }
        incremental.solve();
        FlowNetwork fresh(t, 0.7, bandwidth, load);
        fresh.set_weighted_sharing(weighted);
        fresh.set_reference_cap(cap);
        for (const auto& [key, nodes] : running) {
          fresh.add_job(key, nodes);
          if (weighted) fresh.set_comm(key, shares.at(key));
        }
        fresh.solve();
        for (const auto& [key, nodes] : running) {
          EXPECT_EQ(incremental.rate(key).progress, fresh.rate(key).progress) << spec << step;
          EXPECT_EQ(incremental.rate(key).comm_slowdown, fresh.rate(key).comm_slowdown);
        }
        EXPECT_EQ(incremental.utilization().mean, fresh.utilization().mean) << spec << step;
        peak = std::max(peak, fresh.utilization().max);
        EXPECT_EQ(incremental.utilization().max, peak) << spec << step;
        for (std::size_t c = 0; c < kLinkClassCount; ++c)
          peak_by_class[c] = std::max(peak_by_class[c], fresh.utilization().max_by_class[c]);
        EXPECT_EQ(incremental.utilization().max_by_class, peak_by_class) << spec << step;
      }
    }
  }
}

// Exclusive nodes (the simulation's case) keep injection and ejection links out of the per-link
// registers: rates, mean and peak utilization (per class too) must equal, bit for bit, those of
// a network that registers every link, after every start and end of a random sequence of jobs
// on disjoint nodes; and a node taken twice is refused.
TEST(FlowModel, ExclusiveNodesGiveWhatRegisteringEveryLinkGives) {
  std::mt19937 rng(31);
  for (const char* spec : {"dragonfly:p=2,a=4,h=2", "fattree:k=4", "fattree:k=6",
                           "fattree:k=4,routing=ecmp", "dragonfly:p=2,a=4,h=2,routing=ugal"}) {
    const Topology t = Topology::parse(spec);
    for (const auto& [bandwidth, load] :
         {std::pair{1.0, FlowLoad::max}, {0.5, FlowLoad::max}, {0.5, FlowLoad::mean}}) {
      FlowNetwork exclusive(t, 0.7, bandwidth, load), every(t, 0.7, bandwidth, load);
      exclusive.set_exclusive_nodes(true);
      std::map<FlowNetwork::JobKey, std::vector<NodeId>> running;
      std::vector<NodeId> free(t.node_count());
      std::iota(free.begin(), free.end(), 0);
      FlowNetwork::JobKey next_key = 0;
      for (int step = 0; step < 150; ++step) {
        const bool start = running.size() < 3 || (running.size() < 10 && rng() % 2 == 0);
        if (start && free.size() >= 2) {
          std::shuffle(free.begin(), free.end(), rng);
          const auto k = std::min<std::size_t>(free.size(), 1 + rng() % 12);
          std::vector<NodeId> nodes(free.end() - static_cast<std::ptrdiff_t>(k), free.end());
          free.resize(free.size() - k);
          const FlowNetwork::JobKey key = next_key++;
          running[key] = nodes;
          exclusive.add_job(key, nodes);
          every.add_job(key, nodes);
          const double share = 0.1 + 0.1 * static_cast<double>(rng() % 8);
          exclusive.set_comm(key, share);
          every.set_comm(key, share);
        } else {
          auto victim = running.begin();
          std::advance(victim, rng() % running.size());
          exclusive.remove_job(victim->first);
          every.remove_job(victim->first);
          free.insert(free.end(), victim->second.begin(), victim->second.end());
          running.erase(victim);
        }
        EXPECT_EQ(exclusive.solve(), every.solve());
        for (const auto& [key, nodes] : running) {
          EXPECT_EQ(exclusive.rate(key).progress, every.rate(key).progress) << spec << step;
          EXPECT_EQ(exclusive.alone_rate(key).progress, every.alone_rate(key).progress);
        }
        EXPECT_EQ(exclusive.utilization().mean, every.utilization().mean) << spec << step;
        EXPECT_EQ(exclusive.utilization().max, every.utilization().max) << spec << step;
        EXPECT_EQ(exclusive.utilization().max_by_class, every.utilization().max_by_class)
            << spec << step;
      }
      // (Under FlowLoad::mean a job's only link is the pool: nothing is kept out or checked.)
      for (const auto& [key, nodes] : running)
        if (load == FlowLoad::max && nodes.size() >= 2) {
          EXPECT_THROW(exclusive.add_job(next_key, nodes), std::logic_error) << spec;
          break;
        }
    }
  }
}

// The flow model gives the solver one private link per job (its heaviest) and the contended
// links (on graph machines not the shared links that cannot saturate); the rates must equal,
// bit for bit, progressive filling over every loaded link (loads over link capacities).
TEST(FlowModel, PrivateLinksLeftOutGiveTheRatesOfTheFullSolve) {
  std::mt19937 rng(29);
  for (const char* spec :
       {"mesh:8x8", "torus:4x4x4", "torus:6x5", "dragonfly:p=2,a=4,h=2", "dragonfly:p=1,a=2,h=1",
        "fattree:k=4", "fattree:k=4,routing=ecmp", "dragonfly:p=2,a=4,h=2,routing=valiant"}) {
    const Topology t = Topology::parse(spec);
    std::vector<NodeId> all(t.node_count());
    std::iota(all.begin(), all.end(), 0);
    for (int round = 0; round < 100; ++round) {
      const double bandwidth = round % 3 == 0 ? 0.5 : 1.0;
      FlowNetwork network(t, 0.5, bandwidth);
      FlowSet flows;
      std::vector<int> compact(t.link_slot_count(), -1);
      int links = 0;
      const int jobs = 1 + static_cast<int>(rng() % 10);
      std::vector<double> reference;
      for (int job = 0; job < jobs; ++job) {
        std::shuffle(all.begin(), all.end(), rng);
        const int k = 2 + static_cast<int>(rng() % std::min<std::size_t>(9, all.size() - 1));
        std::vector<NodeId> nodes(all.begin(), all.begin() + k);
        network.add_job(job, nodes);
        std::vector<FlowUse> uses;
        for (const LoadedLink& load : all_to_all_link_loads(t, nodes)) {
          if (compact[load.link] < 0) compact[load.link] = links++;
          uses.push_back({compact[load.link], load.load / t.link_capacity(load.link)});
        }
        reference.push_back(network.reference_rate(k));
        flows.add_flow(uses, bandwidth * reference.back());
      }
      network.solve();
      const std::vector<double> capacities(links, bandwidth);
      const std::vector<double> rates = max_min_rates(capacities, flows);
      for (int job = 0; job < jobs; ++job) {
        const double slowdown = std::max(1.0 / bandwidth, reference[job] / rates[job]);
        EXPECT_EQ(network.rate(job).comm_slowdown, slowdown) << spec << " round " << round;
      }
    }
  }
}
