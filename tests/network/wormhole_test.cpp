// Wormhole network: closed-form latency, exact blocking delays, the watchdog, determinism.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "allocsim/network/wormhole.hpp"
#include "allocsim/util/error.hpp"

using namespace allocsim;

TEST(Wormhole, OneMessageInAnEmptyNetworkTakesTheClosedFormLatency) {
  const Topology mesh = Topology::parse("mesh:16x16");
  std::mt19937 rng(5);
  for (int trial = 0; trial < 100; ++trial) {
    const WormholeParams params{1 + static_cast<int>(rng() % 64), static_cast<int>(rng() % 5),
                                1000};
    WormholeNetwork network(mesh, params);
    const NodeId from = static_cast<NodeId>(rng() % 256);
    NodeId to = static_cast<NodeId>(rng() % 256);
    if (to == from) to = (to + 1) % 256;
    const double release = static_cast<double>(rng() % 400) * 0.25;  // fractional, too
    network.add_message(from, to, release);
    network.run();
    const int hops = mesh.distance(from, to);
    ASSERT_EQ(network.results()[0].delivered - release, hops * (params.ts + 1) + params.plen - 1);
    EXPECT_EQ(network.results()[0].blocked, 0);
  }
}

TEST(Wormhole, ABlockedHeaderWaitsForTheTailOfTheWormAhead) {
  // mesh:4 (a line), ts 3, plen 8. Message B: 1 -> 2, released at 0: routed at node 1 until 3,
  // holds link 1->2 from 3, header arrives at 4, tail at 4 + 7 = 11, freeing link 1->2 at 11.
  // Message A: 0 -> 3, released at 0: routed until 3, link 0->1 (shift to 4), routed until 7,
  // asks for link 1->2 at 7 — busy until 11 — so it waits 4 units, and every later step is 4
  // later than alone: delivered at 3·(3 + 1) + 8 − 1 + 4 = 23 instead of 19.
  const Topology line = Topology::parse("mesh:4");
  WormholeNetwork network(line, {8, 3, 1000});
  const int b = network.add_message(1, 2, 0, 2);
  const int a = network.add_message(0, 3, 0, 1);
  network.run();
  EXPECT_EQ(network.results()[b].delivered, 11);
  EXPECT_EQ(network.results()[a].delivered, 23);
  EXPECT_EQ(network.results()[a].blocked, 4);
  EXPECT_EQ(network.stats().delivered, 2);
  EXPECT_DOUBLE_EQ(network.stats().mean_latency, (11 + 23) / 2.0);
  EXPECT_DOUBLE_EQ(network.stats().mean_blocked, 2);
}

TEST(Wormhole, OneWormAtATimeLeavesANode) {
  // Two messages 0 -> 1 released together: the second waits for the first's tail to leave the
  // source (its last shift, at 1·4 + 7 = 11), then takes 11 itself.
  const Topology line = Topology::parse("mesh:4");
  WormholeNetwork network(line, {8, 3, 1000});
  network.add_message(0, 1, 0);
  network.add_message(0, 1, 0);
  network.run();
  EXPECT_EQ(network.results()[0].delivered, 11);
  EXPECT_EQ(network.results()[1].delivered, 22);
  EXPECT_EQ(network.results()[1].blocked, 11);
}

TEST(Wormhole, WatchdogFailsADeadlockInsteadOfHanging) {
  // mesh:2x2, four worms each holding one link of the ring 0 -> 1 -> 3 -> 2 -> 0 and waiting
  // for the next (explicit paths: dimension-ordered routing itself cannot do this).
  const Topology t = Topology::parse("mesh:2x2");
  const LinkId l01 = t.link_id(0, 0, +1), l13 = t.link_id(1, 1, +1), l32 = t.link_id(3, 0, -1),
               l20 = t.link_id(2, 1, -1);
  WormholeNetwork network(t, {8, 3, 100});
  network.add_message_on_path(0, {l01, l13}, 0);
  network.add_message_on_path(1, {l13, l32}, 0);
  network.add_message_on_path(3, {l32, l20}, 0);
  network.add_message_on_path(2, {l20, l01}, 0);
  const int later = network.add_message(0, 1, 5000);
  network.run();
  EXPECT_EQ(network.stats().stalls, 1);
  EXPECT_EQ(network.stats().failed, 4);
  EXPECT_EQ(network.results()[0].delivered, -1);
  // The network is free again afterwards: the later message takes its closed-form latency.
  EXPECT_EQ(network.results()[later].delivered, 5000 + 1 * 4 + 7);
  EXPECT_EQ(network.in_flight(), 0);
}

TEST(Wormhole, ManyMessagesOnAMeshAllArriveDeterministically) {
  const Topology mesh = Topology::parse("mesh:8x8");
  const auto simulate = [&](std::uint32_t seed) {
    std::mt19937 rng(seed);
    WormholeNetwork network(mesh, {8, 3, 1000});
    for (int m = 0; m < 3000; ++m) {
      const NodeId from = static_cast<NodeId>(rng() % 64);
      NodeId to = static_cast<NodeId>(rng() % 64);
      if (to == from) to = (to + 1) % 64;
      network.add_message(from, to, static_cast<double>(rng() % 8000) * 0.25, m % 3);
    }
    network.run();
    return network;
  };
  const WormholeNetwork first = simulate(9), second = simulate(9);
  EXPECT_EQ(first.stats().failed, 0);
  EXPECT_EQ(first.stats().delivered, 3000);
  EXPECT_GT(first.stats().mean_blocked, 0);  // there was contention
  for (std::size_t m = 0; m < first.results().size(); ++m) {
    const auto& r = first.results()[m];
    ASSERT_EQ(r.delivered, second.results()[m].delivered);
    ASSERT_GE(r.delivered - r.release, r.hops * 4 + 7);
    ASSERT_EQ(r.delivered - r.release, r.hops * 4 + 7 + r.blocked);
  }
}

TEST(Wormhole, RefusesFlatMachinesAndBadParameters) {
  EXPECT_THROW(WormholeNetwork(Topology::parse("flat:16"), {}), InputError);
  EXPECT_THROW(WormholeNetwork(Topology::parse("mesh:4x4"), {0, 3, 1000}), InputError);
  EXPECT_THROW(WormholeNetwork(Topology::parse("mesh:4x4"), {8, 3, 4}), InputError);
}

TEST(Wormhole, AllToAllTrafficOfAJob) {
  // Job 7 on {0, 1} of mesh:4, one message each way: independent links and ports, both take
  // 1·4 + 7 = 11. Job 8 on {2, 3}, node 2 sends 2 messages (both to 3, serialized by its port:
  // 11 and 22), node 3 none.
  const Topology line = Topology::parse("mesh:4");
  WormholeNetwork network(line, {8, 3, 1000});
  EXPECT_EQ(network.add_all_to_all(std::vector<NodeId>{0, 1}, std::vector<int>{1, 1}, 0, 7), 2);
  EXPECT_EQ(network.add_all_to_all(std::vector<NodeId>{2, 3}, std::vector<int>{2, 0}, 0, 8), 2);
  EXPECT_EQ(network.outstanding(7), 2);
  network.run_until(11);
  EXPECT_EQ(network.outstanding(7), 0);
  EXPECT_EQ(network.last_finish(7), 11);
  EXPECT_EQ(network.outstanding(8), 1);
  network.run();
  EXPECT_EQ(network.last_finish(8), 22);
  EXPECT_EQ(network.last_finish(9), -1);
}

TEST(Wormhole, TorusMessagesTakeTheWrapLinkAtTheClosedFormLatency) {
  // torus:8x8: from (7, 0) to (1, 0) the shorter way is + over the wrap link, 2 hops.
  const Topology torus = Topology::parse("torus:8x8");
  WormholeNetwork network(torus, {8, 3, 1000});
  network.add_message(7, 1, 0);
  network.run();
  EXPECT_EQ(network.results()[0].delivered, 2 * 4 + 7);
}

TEST(Wormhole, DatelineChannelsKeepATorusRingFreeOfDeadlock) {
  // Every node of a ring of 8 sends to the node 4 hops on (+ on the tie): eight worms of 64
  // flits chase each other round the ring. Without the dateline's second class they would
  // hold every link and wait for each other; with it all are delivered.
  const Topology ring = Topology::parse("torus:8");
  WormholeNetwork network(ring, {64, 3, 1000});
  for (NodeId node = 0; node < 8; ++node) network.add_message(node, (node + 4) % 8, 0);
  network.run();
  EXPECT_EQ(network.stats().failed, 0);
  EXPECT_EQ(network.stats().delivered, 8);
}

TEST(Wormhole, ManyMessagesOnATorusAllArrive) {
  const Topology torus = Topology::parse("torus:6x6");
  std::mt19937 rng(4);
  WormholeNetwork network(torus, {16, 2, 1000});
  for (int m = 0; m < 4000; ++m) {
    const NodeId from = static_cast<NodeId>(rng() % 36);
    NodeId to = static_cast<NodeId>(rng() % 36);
    if (to == from) to = (to + 1) % 36;
    network.add_message(from, to, static_cast<double>(rng() % 2000), 0);
  }
  network.run();
  EXPECT_EQ(network.stats().failed, 0);
  EXPECT_EQ(network.stats().delivered, 4000);
}

TEST(Wormhole, RecycledSlotsGiveTheSameTimesAndReportFinishedTags) {
  const Topology mesh = Topology::parse("mesh:6x6");
  const auto simulate = [&](bool keep) {
    std::mt19937 rng(3);
    WormholeNetwork network(mesh, {8, 3, 1000, keep});
    std::vector<double> finish(10, -1);
    for (int step = 0; step < 10; ++step) {
      for (int m = 0; m < 50; ++m) {
        const NodeId from = static_cast<NodeId>(rng() % 36);
        const NodeId to = static_cast<NodeId>((from + 1 + rng() % 35) % 36);
        network.add_message(from, to, step * 40.0, step);
      }
      network.run_until(step * 40.0 + 39);
      for (int tag : network.take_finished_tags()) finish[tag] = network.last_finish(tag);
    }
    network.run();
    for (int tag : network.take_finished_tags()) finish[tag] = network.last_finish(tag);
    return std::pair{finish, network.results().size()};
  };
  const auto [kept, kept_slots] = simulate(true);
  const auto [recycled, recycled_slots] = simulate(false);
  EXPECT_EQ(kept, recycled);
  EXPECT_EQ(kept_slots, 500u);
  EXPECT_LT(recycled_slots, 500u);
  for (double f : kept) EXPECT_GT(f, 0);
}
