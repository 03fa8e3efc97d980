// Slurm's topology/tree node selection and TopologyParam=Dragonfly (alloc/slurm_select.hpp has
// the definitions and the sentences of Slurm's source and manuals they follow).
#include "allocsim/alloc/slurm_select.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "allocsim/topo/dragonfly.hpp"
#include "allocsim/topo/fattree.hpp"
#include "allocsim/topo/slurm_topology.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim {

namespace {

/// A switch tree as Slurm's topology/tree sees it: switches in switch record order, each with its
/// level, parent and, for a leaf, its compute nodes.
struct SwitchTree {
  struct Switch {
    int level = 0;              ///< Slurm's level: 0 for a leaf, 1 + the highest child level
    int parent = -1;            ///< -1 for a top switch
    int depth = 0;              ///< links up to its top switch
    int top = 0;                ///< its top switch
    std::vector<NodeId> nodes;  ///< a leaf's compute nodes, in id order
    NodeId first = -1;          ///< its first node when `nodes` are consecutive ids, else -1
  };
  std::vector<Switch> switches;
  std::vector<int> leaves;        ///< leaf switches, in switch order
  std::vector<int> leaf_parents;  ///< the distinct parents of leaves, in switch order
  std::vector<int> parent_of;     ///< every switch's parent (-1 for a top), flat for scans
  std::vector<int> bottom_up;     ///< the switches with a parent, lowest level first
  int tops = 0;

  /// Fills depth, top, leaves and tops once the switches are set.
  void finish() {
    for (Switch& s : switches) {
      s.depth = 0;
      s.top = static_cast<int>(&s - switches.data());
      while (switches[s.top].parent != -1) s.top = switches[s.top].parent, ++s.depth;
    }
    for (int s = 0; s < static_cast<int>(switches.size()); ++s) {
      if (switches[s].parent == -1) ++tops;
      if (switches[s].level == 0) leaves.push_back(s);
    }
    for (Switch& s : switches) {
      parent_of.push_back(s.parent);
      const bool consecutive = !s.nodes.empty() &&
                               s.nodes.back() - s.nodes.front() + 1 == NodeId(s.nodes.size()) &&
                               std::adjacent_find(s.nodes.begin(), s.nodes.end()) == s.nodes.end();
      s.first = consecutive ? s.nodes.front() : -1;  // sorted, distinct and spanning: a range
    }
    std::vector<char> seen(switches.size(), 0);
    for (int leaf : leaves) {
      const int parent = switches[leaf].parent;
      if (parent != -1 && !seen[parent]) seen[parent] = 1, leaf_parents.push_back(parent);
    }
    std::sort(leaf_parents.begin(), leaf_parents.end());
    for (int s = 0; s < static_cast<int>(switches.size()); ++s)
      if (switches[s].parent != -1) bottom_up.push_back(s);
    std::stable_sort(bottom_up.begin(), bottom_up.end(),
                     [&](int a, int b) { return switches[a].level < switches[b].level; });
  }
  /// Switch hops between two switches of one tree (Slurm's switches_dist).
  int hops(int a, int b) const {
    int n = 0;
    while (switches[a].depth > switches[b].depth) a = switches[a].parent, ++n;
    while (switches[b].depth > switches[a].depth) b = switches[b].parent, ++n;
    while (a != b) a = switches[a].parent, b = switches[b].parent, n += 2;
    return n;
  }
  /// The parent, or the switch itself for a top switch.
  int parent_or_self(int s) const { return switches[s].parent == -1 ? s : switches[s].parent; }
  /// Free nodes below every switch.
  std::vector<int> free_counts(const MachineView& machine) const {
    std::vector<int> count(switches.size(), 0);
    for (int leaf : leaves) {
      const Switch& sw = switches[leaf];
      int free = 0;
      if (sw.first >= 0) {  // a range of ids: a plain count over the busy flags
        const char* busy = machine.busy().data() + sw.first;
        free = static_cast<int>(std::count(busy, busy + sw.nodes.size(), 0));
      } else {
        for (NodeId node : sw.nodes) free += machine.is_free(node) ? 1 : 0;
      }
      count[leaf] = free;
    }
    for (int s : bottom_up) count[parent_of[s]] += count[s];
    return count;
  }
};

std::string supported_kinds() {
  return "slurm-topology files of the tree form (SwitchName= lines), fat trees (fattree) and "
         "dragonflies (dragonfly)";
}

[[noreturn]] void refuse(const std::string& name, const Topology& topology) {
  std::string machine = "grids or flat machines such as " + topology.spec();
  if (const auto* slurm = dynamic_cast<const SlurmTopology*>(topology.graph());
      slurm && slurm->block_form())
    machine = "block files such as " + topology.spec() + " (BlockName= lines; use slurm-block)";
  else if (topology.graph())
    machine = topology.kind_name() + " machines such as " + topology.spec() +
              ", nor on grids or flat machines";
  throw InputError("allocator '" + name + "' works on " + supported_kinds() + " only, not on " +
                   machine);
}

/// The switch tree of a supported machine (see the header), or an InputError naming `name`.
std::shared_ptr<const SwitchTree> switch_tree(const std::string& name, const Topology& topology) {
  const GraphMachine* graph = topology.graph();
  if (!graph) refuse(name, topology);
  auto tree = std::make_shared<SwitchTree>();
  if (const auto* slurm = dynamic_cast<const SlurmTopology*>(graph)) {
    if (slurm->block_form()) refuse(name, topology);
    const int implicit = slurm->implicit_top();
    for (const SlurmSwitch& s : slurm->switches()) {
      if (s.implicit) continue;  // the implicit top is always the last switch
      SwitchTree::Switch sw;
      sw.level = s.level;
      sw.parent = s.parent == implicit ? -1 : s.parent;
      sw.nodes = s.nodes;
      std::sort(sw.nodes.begin(), sw.nodes.end());
      tree->switches.push_back(std::move(sw));
    }
  } else if (const auto* fat = dynamic_cast<const FatTree*>(graph)) {
    // Level i (1 .. h) groups the hosts that share a_h .. a_(i+1): host d is in group
    // d / (M1 .. Mi); the leaves first, then each level up, the top last.
    const int levels = fat->levels();
    std::vector<int> offset(levels + 2, 0);
    long long below = 1;
    std::vector<long long> hosts_below(levels + 1, 1);
    for (int i = 1; i <= levels; ++i) {
      below *= fat->down(i);
      hosts_below[i] = below;
      offset[i + 1] = offset[i] + static_cast<int>(fat->node_count() / below);
    }
    tree->switches.resize(offset[levels + 1]);
    for (int i = 1; i <= levels; ++i)
      for (int g = 0; g < offset[i + 1] - offset[i]; ++g) {
        SwitchTree::Switch& sw = tree->switches[offset[i] + g];
        sw.level = i - 1;
        sw.parent = i < levels ? offset[i + 1] + g / fat->down(i + 1) : -1;
      }
    for (NodeId host = 0; host < fat->node_count(); ++host)
      tree->switches[static_cast<int>(host / hosts_below[1])].nodes.push_back(host);
  } else if (const auto* dfly = dynamic_cast<const Dragonfly*>(graph)) {
    // The topology.conf a site would write for it: one leaf switch per router (its p nodes), in
    // router order; one switch per group over its a routers; one top switch over the groups.
    const int p = dfly->nodes_per_router();
    const int a = dfly->routers_per_group();
    const int routers = static_cast<int>(dfly->node_count() / p);
    const int groups = routers / a;
    tree->switches.resize(routers + groups + 1);
    for (int r = 0; r < routers; ++r) {
      SwitchTree::Switch& sw = tree->switches[r];
      sw.parent = routers + r / a;
      for (int i = 0; i < p; ++i) sw.nodes.push_back(static_cast<NodeId>(r * p + i));
    }
    for (int g = 0; g < groups; ++g) {
      tree->switches[routers + g].level = 1;
      tree->switches[routers + g].parent = routers + groups;
    }
    tree->switches[routers + groups].level = 2;
  } else {
    refuse(name, topology);
  }
  tree->finish();
  return tree;
}

/// The number of distinct values in `leaves` (the leaf switch of each picked node).
int distinct_count(std::vector<int> leaves) {
  std::sort(leaves.begin(), leaves.end());
  return static_cast<int>(std::unique(leaves.begin(), leaves.end()) - leaves.begin());
}

/// topology/tree selection (_eval_nodes_topo), with the optional --switches=N@T limit.
class SlurmTreeAllocator final : public CloneableAllocator<SlurmTreeAllocator> {
 public:
  SlurmTreeAllocator(std::shared_ptr<const SwitchTree> tree, int switches, double max_wait)
      : tree_(std::move(tree)), switches_(switches), max_wait_(max_wait) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    const SwitchTree& tree = *tree_;
    const int n = job.procs;
    if (n <= 0 || machine.free_count() < n) return std::nullopt;
    std::vector<int> count = tree.free_counts(machine);
    // 1. "Identify the highest level switch to be used": enough free nodes, highest level, the
    // last in switch order among equals.
    int top = -1;
    for (int s = 0; s < static_cast<int>(count.size()); ++s)
      if (count[s] >= n && (top == -1 || tree.switches[s].level >= tree.switches[top].level))
        top = s;
    if (top == -1) return std::nullopt;  // no switch fabric holds the job
    for (int leaf : tree.leaves)
      if (tree.switches[leaf].top != top) count[leaf] = 0;  // only nodes below the top count
    // 2. Leaves by least distance to those chosen, then best fit.
    // A leaf's distance to the chosen leaves depends only on its parent P: for a leaf L other
    // than c, hops(c, L) = hops(c, P) + 1. So the sums are kept per leaf parent below the top
    // (distance[P]); a leaf without a parent is the top itself, the only leaf, distance 0.
    std::vector<long long> distance(count.size(), 0);
    // Leaves below the top with free nodes, in switch order, cut into runs of one parent: every
    // leaf of a run is at the run's distance, so a run farther than the best is skipped whole,
    // which changes nothing.
    struct Run {
      int begin, end, parent;
    };
    std::vector<int> candidates;
    std::vector<Run> runs;
    for (int leaf : tree.leaves) {
      if (count[leaf] == 0) continue;
      const int parent = tree.parent_of[leaf];
      if (runs.empty() || runs.back().parent != parent)
        runs.push_back({static_cast<int>(candidates.size()), 0, parent});
      candidates.push_back(leaf);
      runs.back().end = static_cast<int>(candidates.size());
    }
    auto distance_of_run = [&](const Run& run) {
      return run.parent == -1 ? 0LL : distance[run.parent];
    };
    Allocation allocation;
    std::vector<int> picked_leaves;
    int remaining = n;
    for (int before = remaining + 1; before != remaining && remaining > 0;) {
      before = remaining;
      int best = -1;
      long long best_distance = 0;
      for (const Run& run : runs) {
        const long long here = distance_of_run(run);
        if (best != -1 && here > best_distance) continue;  // farther than the best
        for (int i = run.begin; i < run.end; ++i) {
          const int leaf = candidates[i];
          if (count[leaf] == 0) continue;  // chosen already
          if (best == -1) {
            best = leaf, best_distance = here;
            continue;
          }
          // "If closer and fit request OR same distance and tightest fit (less resource waste)"
          const int verdict = compare(leaf, best, remaining, count);
          if ((here < best_distance && verdict >= 0) || (here == best_distance && verdict > 0))
            best = leaf, best_distance = here;
        }
      }
      if (best == -1) break;
      for (int parent : tree.leaf_parents)
        if (tree.switches[parent].top == top) distance[parent] += tree.hops(best, parent) + 1;
      for (NodeId node : tree.switches[best].nodes) {
        if (remaining == 0) break;
        if (!machine.is_free(node)) continue;
        allocation.nodes.push_back(node);
        picked_leaves.push_back(best);
        --remaining;
      }
      count[best] = 0;  // "Used all"
    }
    if (remaining > 0) return std::nullopt;
    allocation.pieces = distinct_count(std::move(picked_leaves));
    // 3. --switches=N@T: more than N leaves only once the job has waited T.
    if (switches_ > 0 && allocation.pieces > switches_) {
      const double waited = machine.now() - job.submit;
      if (waited < max_wait_) return std::nullopt;  // false for an unknown (NaN) time
    }
    std::sort(allocation.nodes.begin(), allocation.nodes.end());
    return allocation;
  }

  bool contiguous_only() const override { return switches_ > 0 || tree_->tops > 1; }
  std::optional<double> wake_up(const Job& job) const override {
    if (switches_ <= 0) return std::nullopt;
    return job.submit + max_wait_;
  }

 private:
  /// _topo_compare_switches: > 0 when leaf i is better than leaf j for `remaining` nodes.
  int compare(int i, int j, int remaining, const std::vector<int>& count) const {
    const SwitchTree& tree = *tree_;
    for (;;) {
      const bool i_fits = count[i] >= remaining, j_fits = count[j] >= remaining;
      if (i_fits && j_fits) {
        if (count[i] != count[j]) return count[i] < count[j] ? 1 : -1;
        break;
      }
      if (i_fits) return 1;
      if (j_fits) return -1;
      const int pi = tree.parent_or_self(i), pj = tree.parent_or_self(j);
      if ((pi != i || pj != j) && pi != pj) {
        i = pi, j = pj;
        continue;
      }
      break;
    }
    if (count[i] != count[j]) return count[i] > count[j] ? 1 : -1;
    const int li = tree.switches[i].level, lj = tree.switches[j].level;
    if (li != lj) return li < lj ? 1 : -1;
    return 0;
  }

  std::shared_ptr<const SwitchTree> tree_;
  int switches_;     ///< N of --switches=N@T; 0: no limit
  double max_wait_;  ///< T in seconds
};

/// TopologyParam=Dragonfly (_eval_nodes_dfly).
class SlurmDragonflyAllocator final : public CloneableAllocator<SlurmDragonflyAllocator> {
 public:
  explicit SlurmDragonflyAllocator(std::shared_ptr<const SwitchTree> tree)
      : tree_(std::move(tree)) {}

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override {
    const SwitchTree& tree = *tree_;
    const int n = job.procs;
    if (n <= 0 || machine.free_count() < n) return std::nullopt;
    std::vector<int> count = tree.free_counts(machine);
    // The highest-level switch with any free node, the first in switch order among equals.
    int top = -1;
    for (int s = 0; s < static_cast<int>(count.size()); ++s)
      if (count[s] > 0 && (top == -1 || tree.switches[s].level > tree.switches[top].level)) top = s;
    if (top == -1 || count[top] < n) return std::nullopt;
    int best = -1;  // the leaf with the most free nodes, the first among equals
    for (int leaf : tree.leaves) {
      if (tree.switches[leaf].top != top) count[leaf] = 0;
      if (best == -1 || count[leaf] > count[best]) best = leaf;
    }
    Allocation allocation;
    allocation.nodes.reserve(n);
    if (count[best] >= n) {  // "on one leaf switch if possible"
      for (NodeId node : tree.switches[best].nodes)
        if (static_cast<int>(allocation.nodes.size()) < n && machine.is_free(node))
          allocation.nodes.push_back(node);
      return allocation;
    }
    // "otherwise distribute the job allocation over many leaf switches": one node per leaf per
    // pass, each leaf from its lowest free node not yet taken.
    std::vector<std::size_t> next(tree.switches.size(), 0);
    std::vector<int> picked_leaves;
    for (int before = -1; static_cast<int>(allocation.nodes.size()) < n;) {
      if (before == static_cast<int>(allocation.nodes.size())) return std::nullopt;  // stalled
      before = static_cast<int>(allocation.nodes.size());
      for (int leaf : tree.leaves) {
        if (count[leaf] == 0) continue;
        const std::vector<NodeId>& nodes = tree.switches[leaf].nodes;
        std::size_t& at = next[leaf];
        while (at < nodes.size() && !machine.is_free(nodes[at])) ++at;
        if (at == nodes.size()) continue;
        allocation.nodes.push_back(nodes[at++]);
        picked_leaves.push_back(leaf);
        if (static_cast<int>(allocation.nodes.size()) == n) break;
      }
    }
    allocation.pieces = distinct_count(std::move(picked_leaves));
    std::sort(allocation.nodes.begin(), allocation.nodes.end());
    return allocation;
  }

  bool contiguous_only() const override { return tree_->tops > 1; }

 private:
  std::shared_ptr<const SwitchTree> tree_;
};

}  // namespace

void append_slurm_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"slurm-tree",
       "Slurm topology/tree: the lowest switch that holds the job, then leaf switches by least "
       "distance to those chosen and best fit; switches=N,max_wait=T is --switches=N@T",
       {{"switches",
         ParamKind::integer,
         "0",
         "--switches=N: at most N leaf switches while the job has waited less than max_wait "
         "(0: no limit)",
         {},
         integer_rule(0, 1e9)},
        {"max_wait",
         ParamKind::real,
         "300",
         "--switches=N@T: T, the seconds a job waits for N leaf switches (Slurm's "
         "max_switch_wait, 300 by default)",
         {},
         real_rule(0, 1e15)}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<SlurmTreeAllocator>(switch_tree("slurm-tree", topology),
                                                     static_cast<int>(params.integer("switches")),
                                                     params.real("max_wait"));
       }});
  entries.push_back(
      {"slurm-dragonfly",
       "Slurm TopologyParam=Dragonfly: the whole job on the leaf switch with the most free nodes "
       "if it fits, else one node per leaf switch per pass",
       {},
       [](const Params&, const Topology& topology) -> std::unique_ptr<Allocator> {
         return std::make_unique<SlurmDragonflyAllocator>(switch_tree("slurm-dragonfly", topology));
       }});
  append_slurm_block_allocator(entries);
}

}  // namespace allocsim
