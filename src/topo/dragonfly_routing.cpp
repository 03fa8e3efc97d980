// Routing on a dragonfly (topo/dragonfly.hpp): minimal, Valiant and UGAL, as weighted path sets
// for the flow model. Every path is the source's injection link, router-to-router links that
// depend only on the two routers, and the destination's ejection link; paths are built in
// fixed-size arrays on the stack (no allocation per call).
//
// Minimal (Kim et al., ISCA 2008, abstract: "With this organization, each minimally routed
// packet traverses at most one global channel"; the route is a local hop in the source group, the
// global hop, a local hop in the destination group): within a router nothing;
// within a group the direct local link; between groups local (to the router owning a global link
// to the destination group, unless the source router owns it), the global link, local (to the
// destination router, unless the link lands on it): at most 3 router-to-router hops. When several
// global links join the two groups (g < a·h + 1) the traffic is split evenly over all of them,
// each with its own local hops (as ECMP over the group pair's global links; an adaptive router
// would spread it too).
//
// Valiant (Valiant & Brebner 1981, as Kim et al. apply it, paraphrased: minimally to a randomly
// chosen intermediate group, then minimally to the destination): in the flow model an even split
// over the g − 2 intermediate groups (neither the source's nor the destination's), each leg
// minimal (itself split evenly over a pair's several global links): up to 5 router hops.
// Traffic within one group, and any traffic when g = 2 (no intermediate group), is routed
// minimally.
//
// UGAL (Kim et al., UGAL-L, paraphrased: choose between the minimal path and a Valiant path by
// queue length × hop count): per (source router, destination), over router-to-router links only
// (injection and ejection are the same either way), with loads = the LinkLoadView (load /
// capacity per link), for each choice C (its paths P with weights w_P):
//   q(C) = Σ_P w_P · max_{l ∈ P} load_l     (expected bottleneck load)
//   H(C) = Σ_P w_P · |P|                    (expected router-to-router hops)
// and route minimally iff (q(min) + 1)·H(min) ≤ (q(valiant) + 1)·H(valiant), else by Valiant.
// No loads (an empty view), a pair within one group or g = 2: minimal.
//
// Speed: the flow model routes a job's all-to-all (and a pattern job's edges) through one batch
// (Dragonfly::path_batch; UGAL's in dragonfly_ugal_batch.cpp, with its figures).
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "allocsim/topo/dragonfly.hpp"
#include "dragonfly_paths.hpp"

namespace allocsim {

using namespace dragonfly_paths;

int Dragonfly::distance(NodeId a, NodeId b) const {
  if (a == b) return 0;
  const VertexId rs = router_of(a), rd = router_of(b);
  if (rs == rd) return 2;
  const int gs = router_group(rs), gd = router_group(rd);
  if (gs == gd) return 3;
  const int i = router_index(rs), j = router_index(rd);
  int best = kMaxRouterHops;
  for_each_global_link(gs, gd, [&](LinkId global) {
    const int hops = (router_index(links_[global].from) != i ? 1 : 0) + 1 +
                     (router_index(links_[global].to) != j ? 1 : 0);
    best = std::min(best, hops);
  });
  return 2 + best;
}

void Dragonfly::for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView loads) const {
  if (a == b) return;
  const VertexId rs = router_of(a), rd = router_of(b);
  const int gs = router_group(rs), gd = router_group(rd);
  const int i = router_index(rs), j = router_index(rd);
  bool valiant = false;
  if (gs != gd && group_count_ > 2) {
    if (shape_.routing == DragonflyRouting::valiant) {
      valiant = true;
    } else if (ugal_decides(*this, gs, gd, loads)) {
      Cost minimal, detour;
      minimal_paths(*this, gs, i, gd, j,
                    [&](const Hops& hops, double weight) { minimal.add(hops, weight, loads); });
      valiant_paths(*this, gs, i, gd, j,
                    [&](const Hops& hops, double weight) { detour.add(hops, weight, loads); });
      valiant = (minimal.bottleneck + 1) * minimal.hops > (detour.bottleneck + 1) * detour.hops;
    }
  }
  emit_paths(*this, a, b, gs, i, gd, j, valiant, visit);
}

std::unique_ptr<GraphMachine::PathBatch> Dragonfly::path_batch(LinkLoadView loads) const {
  if (shape_.routing != DragonflyRouting::ugal || loads.empty() || group_count_ <= 2)
    return GraphMachine::path_batch(loads);
  return make_ugal_batch(*this, loads);
}

bool Dragonfly::all_to_all_router_loads(std::span<const NodeId> nodes, LinkLoadSums& touch) const {
  if (shape_.routing != DragonflyRouting::minimal) return false;
  // minimal_paths summed over every pair of the set's nodes, by router and group: m_r nodes on
  // router r, M_G in group G. Within G the local link r -> s carries m_r·m_s; between G and H
  // each of the n global links joining them carries M_G·M_H / n, the local hop to its owner o
  // in G m_r·M_H / n from each router r ≠ o, and the hop from where it lands, t in H, M_G·m_s
  // / n to each router s ≠ t.
  std::vector<double> per_router;            // m_r, by router vertex − node_count_
  std::vector<int> used_groups;              // ascending
  std::vector<std::vector<int>> used_index;  // per used group, its used router indexes
  std::vector<double> per_group;             // M_G, per used group
  std::vector<int> slot_of_group(static_cast<std::size_t>(shape_.g), -1);
  per_router.assign(static_cast<std::size_t>(router_count()), 0.0);
  for (const NodeId node : nodes) per_router[static_cast<std::size_t>(node / shape_.p)] += 1;
  for (int group = 0; group < shape_.g; ++group)
    for (int index = 0; index < shape_.a; ++index) {
      const double m = per_router[static_cast<std::size_t>(shape_.a * group + index)];
      if (m == 0) continue;
      int& slot = slot_of_group[static_cast<std::size_t>(group)];
      if (slot < 0) {
        slot = static_cast<int>(used_groups.size());
        used_groups.push_back(group);
        used_index.emplace_back();
        per_group.push_back(0);
      }
      used_index[static_cast<std::size_t>(slot)].push_back(index);
      per_group[static_cast<std::size_t>(slot)] += m;
    }
  const auto m_of = [&](int group, int index) {
    return per_router[static_cast<std::size_t>(shape_.a * group + index)];
  };
  for (std::size_t u = 0; u < used_groups.size(); ++u) {
    const int group = used_groups[u];
    for (const int i : used_index[u])
      for (const int j : used_index[u])
        if (i != j) touch(local_link(group, i, j), m_of(group, i) * m_of(group, j));
    for (std::size_t v = 0; v < used_groups.size(); ++v) {
      if (v == u) continue;
      const int other = used_groups[v];
      const double n = global_link_count(group, other);
      for_each_global_link(group, other, [&](LinkId global) {
        const int owner = router_index(links_[global].from);
        const int lands = router_index(links_[global].to);
        touch(global, per_group[u] * per_group[v] / n);
        for (const int i : used_index[u])
          if (i != owner) touch(local_link(group, i, owner), m_of(group, i) * per_group[v] / n);
        for (const int j : used_index[v])
          if (j != lands) touch(local_link(other, lands, j), per_group[u] * m_of(other, j) / n);
      });
    }
  }
  return true;
}

std::string Dragonfly::routing_description() const {
  switch (shape_.routing) {
    case DragonflyRouting::minimal:
      break;
    case DragonflyRouting::valiant:
      return "Valiant: between groups an even split over every intermediate group, each leg "
             "minimal (up to 5 router hops); within a group minimal";
    case DragonflyRouting::ugal:
      return "UGAL: per source router and destination, minimal unless (expected bottleneck "
             "load + 1) x expected router hops of the minimal paths exceeds that of the Valiant "
             "paths; within a group, without loads or with 2 groups minimal";
  }
  return "minimal: local, global, local (at most 3 router hops), split evenly over the global "
         "links joining the two groups";
}

}  // namespace allocsim
