#pragma once
// Slurm's node selection (issue 27): `slurm-tree` (with `--switches=N@T` as the options
// `switches=N,max_wait=T`), `slurm-dragonfly` and `slurm-block`. Sources, read and not copied:
// Slurm 22.05's select/cons_tres (src/plugins/select/cons_tres/job_test.c: _eval_nodes_topo,
// _eval_nodes_dfly, _topo_choose_best_switch, _topo_compare_switches, _topo_add_dist; the switch
// distances of topology/tree's _validate_switches), Slurm 24's topology/block
// (src/plugins/topology/block/eval_nodes_block.c), topology.conf(5), sbatch(1), slurm.conf(5)
// and the Topology Guide.
//
// Common model. A job asks for `procs` whole nodes; Slurm's CPU, GRES and required-node logic
// is left out. No node carries a Weight (slurm.conf's node weight), so Slurm's first step, the
// free nodes grouped by weight with "All of the lower priority nodes should be included in the
// job's allocation. Nodes from the next highest weight nodes are included only as needed"
// (job_test.c), is a single group of every free node. "Nodes within a leaf": Slurm adds them "in
// order of bitmap position" (job_test.c), node id order here.
//
// Machines. slurm-topology files of the tree form (its switches in file order, Slurm's switch
// record order) and fat trees (fattree:, topo/fattree.hpp). A fat tree is read as the tree that
// Slurm's topology.conf of it would give: the leaves are its leaf switches (router_of), in index
// order; above them one switch per pod at each level (the hosts that share the digits
// a_h .. a_(i+1), fattree.hpp), then the top; several physical parents of a switch are one
// logical parent. The implicit top switch that SlurmTopology adds over several top-level
// switches is not a switch here: "Jobs can only span nodes connected by the same switch fabric,
// even if there are available idle nodes in other areas of the cluster" (topology.conf(5)).
// A dragonfly is read as the three-level topology.conf a site would write for it: one leaf switch
// per router (its p nodes), in router order; one switch per group over its a routers; one top
// switch over the groups (so a job may span groups). Distances between switches are switch hops
// in the tree (Slurm's switches_dist).
//
// `slurm-tree` — topology/tree. "The basic algorithm is to identify the lowest level switch in
// the hierarchy that can satisfy a job's request and then allocate resources on its underlying
// leaf switches using a best-fit algorithm" (Topology Guide). As _eval_nodes_topo does it:
//  1. Top: among the switches with at least `procs` free nodes below them, the highest level
//     (Slurm's level: 0 for a leaf, else 1 + its highest child), the last in switch order among
//     equals ("Identify the highest level switch to be used"). None: not now. Only its nodes count
//     from here on; the free counts of the switches are taken once, here.
//  2. Leaves one at a time, while nodes are still needed (r of them): every unused leaf with free
//     nodes, in switch order, may replace the best so far: "If closer and fit request OR same
//     distance and tightest fit (less resource waste)" — its distance (the sum of its switch hops
//     to the leaves already chosen) is smaller and it compares at least as well, or the distance
//     is equal and it compares better. Compare(a, b): when both hold r nodes, fewer free nodes is
//     better (best fit; equal: undecided); when one does, it is better; when neither does, both
//     climb to their parents while the parents differ and compare again there (so the leaf below
//     the lowest switch that can hold the rest wins); where the climb stops, more free nodes is
//     better, then the lower level, else undecided. The chosen leaf gives its free nodes in node
//     order, up to r.
//  3. `switches=N,max_wait=T` (sbatch --switches=N@T): "When a tree topology is used, this defines
//     the maximum count of leaf switches desired for the job allocation and optionally the
//     maximum time to wait for that number of switches" (sbatch(1)). A selection that spans more
//     than N leaves is refused ("not now") while the job has waited less than T seconds; from
//     then on it is accepted (job_test.c sets best_switch false only when time_waiting <
//     wait4switch). The wait is now − submit (Slurm counts from the first evaluation of the job,
//     wait4switch_start); the time comes from MachineView::now(), and wake_up() tells the
//     simulation to try again at submit + T. Without a time (NaN) the limit does not apply.
// Departure from Slurm 22.05: a top switch's parent is itself (job_test.c's climb stops when
// `parent == self`, but topology/tree leaves a top switch's parent at index 0, xcalloc's zero).
//
// `slurm-dragonfly` — TopologyParam=Dragonfly ("Optimize allocation for Dragonfly network",
// slurm.conf(5)), _eval_nodes_dfly: "Allocate resources to the job on one leaf switch if possible,
// otherwise distribute the job allocation over many leaf switches." Top: the highest-level switch
// with any free node below it, the first in switch order among equals; fewer than `procs` free
// nodes below it: not now. The leaf with the most free nodes (the first among equals); if it holds
// the job, its first `procs` free nodes; else passes over the leaves in switch order, each pass
// taking one node (its lowest free id not yet taken) from every leaf that has one, until `procs`.
//
// `slurm-block` — topology/block on slurm-topology files of the block form. BlockSizes: "List of
// the planning base block size, alongside any higher-level block sizes that would be enforced"
// (topology.conf(5)); the file's blocks are the base blocks (SlurmTopology::block_sizes). For a
// request of m nodes: b = ceil(m / base size) base blocks, level ceil(log2 b); the smallest
// BlockSizes level at or above it (2^level consecutive base blocks in file order make one block);
// no such level: the whole machine is one block. The block: among those with at least m free
// nodes, "with lowest sufficient count of nodes - to minimize fragmentation" (the last in order
// among equals); none: not now. Within it, base blocks one at a time while r nodes are needed:
// one that holds r beats one that does not; among those that hold r, fewer free nodes; among
// those that do not, more free nodes (the last in order among equals: eval_nodes_block's
// _choose_best_bblock); its free nodes in node order, up to r. `segment=S` (sbatch --segment):
// a job of a multiple of S nodes is placed as procs / S segments of S nodes, one after the other,
// each by the rule above on the nodes left. Slurm ignores a segment larger than the job and
// refuses a job whose size is not a multiple of it; here such a job is placed whole. Left out:
// the later limit on lower-level blocks (llblock), segment spreading and consolidation.
//
// Every one refuses other machines by name with the kinds it supports (InputError). All are
// contiguous_only(): they may refuse although enough nodes are free. Allocation::pieces: leaf
// switches (base blocks) used.
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// Appends slurm-tree, slurm-dragonfly and slurm-block to the allocator table.
void append_slurm_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// The slurm-block row (src/alloc/slurm_block.cpp); append_slurm_allocators calls it.
void append_slurm_block_allocator(std::vector<RegistryEntry<AllocatorFactory>>& entries);

}  // namespace allocsim
