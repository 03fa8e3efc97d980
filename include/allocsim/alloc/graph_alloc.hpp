#pragma once
// Allocators for graph machines with routers and groups (issue 27): SST's dragonfly family,
// Level-Spread, Jokanovic's group allocation and a graph `nearest`. They work on every graph
// machine (alloc/graph_layout.hpp: "routers" are the routers with compute nodes — dragonfly
// routers, fat-tree leaf switches, Slurm leaf switches, grid routers with per_router — and
// "groups" are GraphMachine groups — dragonfly groups, fat-tree pods, Slurm switch groups, the
// whole machine for per_router grids); grids without routers and flat are refused by name. A
// router's "index within its group" is its position among the group's routers in vertex order
// (the dragonfly's router index i). Node order inside a router: ids ascending. Each answer lists
// the nodes in the order they were chosen (the job's ranks follow it). Every allocator refuses
// (nullopt) only when fewer than p nodes are free.
//
// SST scheduler element, dragonfly allocators (sst-elements src/sst/elements/scheduler/
// allocators, last version before their removal in December 2020; read, not copied):
//   simple       the p lowest free node ids (fills routers, then groups): the same choice as
//                `flat`, listed under SST's name (SimpleAllocator).
//   random       already a row (alloc/basic.hpp), not repeated here.
//   dfly-rdr     DflyRDRAllocator, "Dragonfly Random Router Allocator": routers in a uniformly
//                random order, each giving all its free nodes (the last one its lowest free ids
//                until p are taken). SST draws routers with replacement among all routers and
//                skips those with nothing left; the order of first visits of such a draw is a
//                uniformly random order of the routers with free nodes, which is what is drawn
//                here (same distribution, without wasted draws).
//   dfly-rdg     DflyRDGAllocator, "Random Group": the same with groups; a group gives its free
//                nodes in index order (routers in order, each router's nodes in id order).
//   dfly-rrn     DflyRRNAllocator, "Round Robin Nodes": starting at group 0, one node per group
//                in turn (each group's lowest free node not taken yet), skipping groups with
//                none left, until p are taken.
//   dfly-rrr     DflyRRRAllocator, "Round Robin Routers": starting at group 0, per group in
//                turn all free nodes of its first router that still has any, skipping groups
//                with none left.
//   dfly-spread  SimpleSpreadAllocator: the p first free nodes in the order router index 0 of
//                group 0, 1, .., g − 1, then router index 1 of every group, ... ("use the same
//                local ID in the next group"), a router's nodes in id order.
//
// level-spread (Zhang, Tuncer, Kaplan, Olcoz, Leung, Coskun, "Level-Spread: A New Job
//   Allocation Policy for Dragonfly Networks", IPDPS 2018; SST DflyHybridAllocator): a job that
//   fits in the free nodes of one router goes to the router with the most free nodes (ties:
//   lowest), its lowest free ids; else one that fits in one group's free nodes goes to the group
//   with the most free nodes (ties: lowest), one node per router round-robin from the group's
//   first router; else one node per group round-robin as dfly-rrn.
// jokanovic (Jokanovic, Sancho, Rodriguez, Lucero, Minkenberg, Labarta, "Quiet Neighborhoods:
//   Key to Protect Job Performance Predictability", IPDPS 2015; SST DflyJokanovicAllocator): a
//   job no larger than a group goes to the first group (lowest index) with p free nodes, its
//   free nodes in index order; if no group has p free nodes, the p lowest free ids; a job larger
//   than a group takes the p highest free ids, from the top down. SST's version runs its
//   "lowest free ids" fallback after finding the group too and overwrites the group's nodes
//   with it, so every small job gets the lowest free ids; the paper's intent (a small job inside
//   one group) is implemented here.
// nearest (the communication-aware greedy of Bender et al.'s MM / SST's NearestAllocator, by
//   hop distance on the graph): the router distance D(c, s) of leaf routers c and s is 0 when
//   c = s, else GraphMachine::distance(x, y) − 2 for the lowest nodes x of c and y of s (the
//   router-to-router hops of a minimal route; on every graph machine here it does not depend on
//   which nodes of the two routers are taken). Candidate centres, to keep the cost bounded: for
//   each of the (at most) 8 groups with the most free nodes (ties: lower group), its router with
//   the most free nodes (ties: lower), in that order of groups. For a centre c the candidate
//   allocation is the p free nodes smallest in (D(c, router of n), router of n in another group
//   than c, n) — nearest first, and among equally near ones the centre's own group (local links)
//   first, then node id; its cost is the sum of D(c, router of n) over them. The allocation of
//   the cheapest centre wins (ties: the earlier candidate), listed in that order.
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends the rows of the graph allocators (simple, dfly-rdr, dfly-rdg, dfly-rrn, dfly-rrr,
/// dfly-spread, level-spread, jokanovic, nearest) to the allocator table.
void append_graph_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

}  // namespace allocsim
