// Paths on a dragonfly shared by its routing (dragonfly_routing.cpp) and UGAL's batch
// (dragonfly_ugal_batch.cpp): the minimal and Valiant path sets, UGAL's cost, emitting a path
// with its injection and ejection links. Internal: not installed. The rules are in
// dragonfly_routing.cpp's file comment.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <span>

#include "allocsim/topo/dragonfly.hpp"

namespace allocsim::dragonfly_paths {

constexpr int kMaxRouterHops = 5;  ///< Valiant: local, global, local, global, local
constexpr int kMaxPathLinks = kMaxRouterHops + 2;

/// The router-to-router links of one path, on the stack.
struct Hops {
  std::array<LinkId, kMaxRouterHops> link{};
  int size = 0;
  void push(LinkId id) { link[size++] = id; }
};

/// Appends, from router `at` of `group`, the local hop to the router owning `global` (if it is
/// not `at`) and `global` itself; `at` becomes the router index where `global` lands.
inline void cross(const Dragonfly& df, Hops& hops, int group, int& at, LinkId global) {
  const GraphLink& link = df.links()[global];
  const int owner = df.router_index(link.from);
  if (owner != at) hops.push(df.local_link(group, at, owner));
  hops.push(global);
  at = df.router_index(link.to);
}

/// Calls f(hops, weight) for every minimal path from router i of group gs to router j of gd.
template <class F>
void minimal_paths(const Dragonfly& df, int gs, int i, int gd, int j, F&& f) {
  if (gs == gd) {
    Hops hops;
    if (i != j) hops.push(df.local_link(gs, i, j));
    f(hops, 1.0);
    return;
  }
  const double weight = 1.0 / df.global_link_count(gs, gd);
  df.for_each_global_link(gs, gd, [&](LinkId global) {
    Hops hops;
    int at = i;
    cross(df, hops, gs, at, global);
    if (at != j) hops.push(df.local_link(gd, at, j));
    f(hops, weight);
  });
}

/// Calls f(hops, weight) for every Valiant path (gs ≠ gd, g > 2): an even split over the
/// intermediate groups, each leg minimal.
template <class F>
void valiant_paths(const Dragonfly& df, int gs, int i, int gd, int j, F&& f) {
  const int g = df.group_count();
  const double share = 1.0 / (g - 2);
  for (int mid = 0; mid < g; ++mid) {
    if (mid == gs || mid == gd) continue;
    const double weight = share / df.global_link_count(gs, mid) / df.global_link_count(mid, gd);
    df.for_each_global_link(gs, mid, [&](LinkId first) {
      df.for_each_global_link(mid, gd, [&](LinkId second) {
        Hops hops;
        int at = i;
        cross(df, hops, gs, at, first);
        cross(df, hops, mid, at, second);
        if (at != j) hops.push(df.local_link(gd, at, j));
        f(hops, weight);
      });
    });
  }
}

/// The load of `link` in the view (0 past its end).
inline double load_of(LinkLoadView loads, LinkId link) {
  const auto id = static_cast<std::size_t>(link);
  return id < loads.size() ? loads[id] : 0.0;
}

/// q(C) + 1 and H(C) of the UGAL rule (file comment) for a set of paths.
struct Cost {
  double bottleneck = 0;
  double hops = 0;
  void add(const Hops& path, double weight, LinkLoadView loads) {
    double worst = 0;
    for (int k = 0; k < path.size; ++k) worst = std::max(worst, load_of(loads, path.link[k]));
    bottleneck += weight * worst;
    hops += weight * path.size;
  }
};

/// UGAL's choice (file comment) applies to this pair of groups: else routing is fixed.
inline bool ugal_decides(const Dragonfly& df, int gs, int gd, LinkLoadView loads) {
  return gs != gd && df.group_count() > 2 && df.shape().routing == DragonflyRouting::ugal &&
         !loads.empty();
}

/// Calls visit for every path from a to b (a ≠ b; on router i of group gs and router j of gd,
/// as the caller has them): by Valiant or minimally.
inline void emit_paths(const Dragonfly& df, NodeId a, NodeId b, int gs, int i, int gd, int j,
                       bool valiant, PathVisitor visit) {
  const LinkId first = df.injection_link(a), last = df.ejection_link(b);
  const auto emit = [&](const Hops& hops, double weight) {
    std::array<LinkId, kMaxPathLinks> path{};
    path[0] = first;
    std::copy_n(hops.link.begin(), hops.size, path.begin() + 1);
    path[hops.size + 1] = last;
    visit(std::span<const LinkId>(path.data(), static_cast<std::size_t>(hops.size) + 2), weight);
  };
  if (valiant)
    valiant_paths(df, gs, i, gd, j, emit);
  else
    minimal_paths(df, gs, i, gd, j, emit);
}

/// UGAL's routes for many pairs against one fixed view of loads (Dragonfly::path_batch):
/// dragonfly_ugal_batch.cpp.
std::unique_ptr<GraphMachine::PathBatch> make_ugal_batch(const Dragonfly& df, LinkLoadView loads);

}  // namespace allocsim::dragonfly_paths
