// Fat trees: construction of XGFT(h; M; W), its numbering and up-down routing (D-mod-k, ECMP).
// The numbering and link order are documented in topo/fattree.hpp.
#include "allocsim/topo/fattree.hpp"

#include <algorithm>
#include <array>

#include <charconv>
#include <limits>

#include "allocsim/topo/topology_registry.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

constexpr long long kIntMax = std::numeric_limits<int>::max();

/// a·b, saturated just above kIntMax (the checks only need to know it is too large).
long long times(long long a, long long b) {
  return a > (kIntMax + 1) / b ? kIntMax + 1 : a * b;
}

std::string join(const std::vector<int>& values) {
  std::string text;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += 'x';
    text += std::to_string(values[i]);
  }
  return text;
}

/// `M1xM2x..` of parameter `key`: positive integers.
std::vector<int> parse_arities(const std::string& key, const std::string& text) {
  std::vector<int> values;
  std::string_view rest = text;
  while (true) {
    const auto x = rest.find('x');
    const std::string_view part = rest.substr(0, x);
    int value = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || value <= 0)
      throw InputError(key + "=" + text + ": '" + std::string(part) +
                       "' is not a positive integer (expected e.g. " + key +
                       (key == "down" ? "=24x36" : "=1x12") + ", one number per level)");
    values.push_back(value);
    if (x == std::string_view::npos) break;
    rest = rest.substr(x + 1);
  }
  return values;
}

}  // namespace

FatTree::FatTree(std::vector<int> down, std::vector<int> up, Routing routing, int k,
                 bool allow_large)
    : down_(std::move(down)), up_(std::move(up)), routing_(routing), k_(k) {
  const int h = levels();
  if (h == 0 || h != static_cast<int>(up_.size()))
    throw InputError("fattree: down=" + join(down_) + " has " + std::to_string(h) +
                     " levels but up=" + join(up_) + " has " + std::to_string(up_.size()) +
                     " (one number per switch level in both)");
  if (h > kMaxLevels)
    throw InputError("fattree: " + std::to_string(h) + " levels; at most " +
                     std::to_string(kMaxLevels) + " are supported");
  if (up_[0] != 1)
    throw InputError("fattree: up=" + join(up_) + " starts with " + std::to_string(up_[0]) +
                     "; the first entry (leaf switches per host) must be 1: every host attaches "
                     "to exactly one leaf switch");
  // Products M1..Mi and W1..Wi (saturated: too large is refused below before allocating).
  down_product_.assign(h + 1, 1);
  up_product_.assign(h + 1, 1);
  for (int i = 1; i <= h; ++i) {
    down_product_[i] = times(down_product_[i - 1], down_[i - 1]);
    up_product_[i] = times(up_product_[i - 1], up_[i - 1]);
  }
  const long long hosts = down_product_[h];
  if (hosts > kMaxNodesWithoutOverride && !allow_large)
    throw InputError("fattree: " + (hosts > kIntMax ? "more than 2^31" : std::to_string(hosts)) +
                     " hosts; machines of more than " + std::to_string(kMaxNodesWithoutOverride) +
                     " nodes need the parameter allow_large=1");
  // Level i has W1·..·Wi · M(i+1)·..·Mh switches; vertices and links must fit an int.
  long long vertices = hosts, links = 2 * hosts;
  std::vector<long long> sizes(h + 1, 0);
  for (int i = 1; i <= h; ++i) {
    sizes[i] = up_product_[i];
    for (int j = i + 1; j <= h; ++j) sizes[i] = times(sizes[i], down_[j - 1]);
    vertices += sizes[i];
    if (i < h) links += 2 * times(sizes[i], up_[i]);
  }
  if (hosts > kIntMax || vertices > kIntMax || links > kIntMax)
    throw InputError("fattree: down=" + join(down_) + ",up=" + join(up_) +
                     " has too many vertices or links (their count must fit an int)");

  node_count_ = static_cast<int>(hosts);
  level_offset_.assign(h + 1, 0);
  for (int i = 1; i <= h; ++i) level_offset_[i] = level_offset_[i - 1] + static_cast<int>(sizes[i]);
  // Pods: the hosts under one level-(h − 1) switch (sharing a_h); one pod with one level.
  group_count_ = h >= 2 ? down_[h - 1] : 1;
  router_of_.resize(node_count_);
  group_of_.resize(node_count_);
  links_.reserve(static_cast<std::size_t>(links));
  for (NodeId d = 0; d < node_count_; ++d) {
    router_of_[d] = switch_vertex(1, static_cast<int>(d / down_[0]));  // (a_h..a_2, b_1 = 0)
    group_of_[d] = h >= 2 ? static_cast<int>(d / down_product_[h - 1]) : 0;
    links_.push_back({d, router_of_[d], 1, LinkClass::injection});
    links_.push_back({router_of_[d], d, 1, LinkClass::ejection});
  }
  up_link_base_.assign(h + 1, 0);
  for (int i = 1; i < h; ++i) {
    up_link_base_[i] = static_cast<LinkId>(links_.size());
    for (int x = 0; x < level_size(i); ++x)
      for (int c = 0; c < up_[i]; ++c) {
        const VertexId from = switch_vertex(i, x), to = switch_vertex(i + 1, parent_index(i, x, c));
        links_.push_back({from, to, 1, LinkClass::up});
        links_.push_back({to, from, 1, LinkClass::down});
      }
  }
  const bool k_form = k_ > 0 && h == 3;
  const char* const k_names[] = {"edge", "agg", "core"};
  router_names_.reserve(static_cast<std::size_t>(vertices - hosts));
  for (int i = 1; i <= h; ++i)
    for (int x = 0; x < level_size(i); ++x) {
      // edge3, agg0, core1 (k form) or l2s5 (level 2, index 5); appended piecewise (GCC 12
      // warns falsely about `"l" + std::to_string(..)`).
      std::string name = k_form ? k_names[i - 1] : std::string(1, 'l');
      if (!k_form) name.append(std::to_string(i)).append(1, 's');
      router_names_.push_back(name.append(std::to_string(x)));
    }
  finish();
}

std::string FatTree::spec() const {
  std::string text = k_ > 0 ? "fattree:k=" + std::to_string(k_)
                            : "fattree:down=" + join(down_) + ",up=" + join(up_);
  if (routing_ == Routing::ecmp) text += ",routing=ecmp";
  // Only a machine built with the permission can be this large: parse(spec()) needs it too.
  if (node_count_ > kMaxNodesWithoutOverride) text += ",allow_large=1";
  return text;
}

std::string FatTree::routing_description() const {
  if (routing_ == Routing::dmodk)
    return "up to the lowest common ancestor level and down (the down path is unique); D-mod-k: "
           "at level l the up port floor(d / (W1*..*Wl)) mod W(l+1), d the destination host";
  return "up to the lowest common ancestor level and down; ECMP: traffic split evenly over all "
         "shortest up-down paths (1/W(l+1) at each upward choice)";
}

int FatTree::level_of(VertexId v) const {
  if (v < node_count_) return 0;
  const int index = v - node_count_;
  int level = 1;
  while (index >= level_offset_[level]) ++level;
  return level;
}

VertexId FatTree::parent(VertexId v, int choice) const {
  const int level = level_of(v);
  return switch_vertex(level + 1, parent_index(level, index_in_level(v), choice));
}

VertexId FatTree::child(VertexId v, int choice) const {
  const int level = level_of(v);
  if (level == 1) return nodes_of(v)[choice];
  return switch_vertex(level - 1, child_index(level, index_in_level(v), choice));
}

int FatTree::parent_index(int level, int x, int choice) const {
  // Replace digit a_(level+1) (radix M(level+1), above the b digits W1..W(level)) by `choice`
  // (radix W(level+1)).
  const auto low_radix = static_cast<int>(up_product_[level]);
  const int low = x % low_radix, high = x / low_radix / down_[level];
  return low + low_radix * (choice + up_[level] * high);
}

int FatTree::child_index(int level, int y, int a) const {
  // Replace digit b_level (radix W(level), above b_1..b_(level−1)) by a_level = a (radix
  // M(level)).
  const auto low_radix = static_cast<int>(up_product_[level - 1]);
  const int low = y % low_radix, high = y / low_radix / up_[level - 1];
  return low + low_radix * (a + down_[level - 1] * high);
}

int FatTree::common_level(NodeId a, NodeId b) const {
  if (a == b) return 0;
  int level = 1;
  while (a / down_product_[level] != b / down_product_[level]) ++level;
  return level;
}

int FatTree::distance(NodeId a, NodeId b) const {
  // Injection, L − 1 links up, L − 1 down, ejection.
  return 2 * common_level(a, b);
}

void FatTree::for_each_path(NodeId a, NodeId b, PathVisitor visit, LinkLoadView) const {
  if (a == b) return;
  const int top = common_level(a, b);
  Path path{};
  const int length = 2 * top;
  path[0] = injection_link(a);
  path[length - 1] = ejection_link(b);
  // ECMP: every path takes the product of 1/W(l+1) over its upward choices.
  double weight = 1;
  if (routing_ == Routing::ecmp)
    for (int l = 1; l < top; ++l) weight /= up_[l];
  walk(1, top, static_cast<int>(a / down_[0]), static_cast<int>(b / down_[0]), b, weight, path,
       visit);
}

void FatTree::walk(int level, int top, int x, int z, NodeId b, double weight, Path& path,
                   PathVisitor visit) const {
  const int length = 2 * top;
  if (level == top) {  // x == z: the common ancestor
    visit(std::span<const LinkId>(path.data(), static_cast<std::size_t>(length)), weight);
    return;
  }
  // D-mod-k (issue 26: "up-port ⌊d / kˡ⌋ mod k at level l" on k-ary n-trees), in the XGFT form
  // of Rodriguez et al., "Oblivious routing schemes in extended generalized fat tree
  // networks", CLUSTER 2009 (also Zahavi's D-Mod-K on real-life fat trees): at level l the up
  // port ⌊d / (W1·..·Wl)⌋ mod W(l+1); with W1 = 1 and all other Wl = k it is ⌊d / k^(l−1)⌋ mod
  // k. ECMP: every parent.
  const int first = routing_ == Routing::dmodk ? dmodk_choice(level, b) : 0;
  const int last = routing_ == Routing::dmodk ? first + 1 : up_[level];
  for (int c = first; c < last; ++c) {
    // Up from x through parent choice c; the mirror vertex z (b's side, same b digits) is
    // reached by the down link from its parent c, position length − 1 − level.
    path[level] = up_link(level, x, c);
    path[length - 1 - level] = up_link(level, z, c) + 1;
    walk(level + 1, top, parent_index(level, x, c), parent_index(level, z, c), b, weight, path,
         visit);
  }
}

bool FatTree::all_to_all_router_loads(std::span<const NodeId> nodes, LinkLoadSums& touch) const {
  if (routing_ != Routing::dmodk) return false;
  // D-mod-k chooses each up port by the destination d alone: a message from s to d climbs to
  // their common ancestor level, at level l through up port c_l(d), and the level-l switch it
  // passes depends only on s's level-l subtree S (the hosts sharing s / (M1..Ml)) and d's
  // choices below l (walk). So, per level l, per subtree S holding n_S of the set's nodes and
  // per key κ = (c_1(d), .., c_l(d)) with D(κ) destinations of the set, D_S(κ) of them in S:
  //   the up link of S's switch for κ's choices below l, port c_l, carries n_S · (D(κ) − D_S(κ))
  //   (every source in S to every destination outside it with that key), and
  //   its down link carries D_S(κ) · (n − n_S) (every source outside S to those destinations).
  // These are walk()'s routes summed message by message (whole messages: exact sums, in any
  // order); the work is O(n log n + Σ_l subtrees_l · keys_l) instead of one route per pair.
  const auto n = static_cast<double>(nodes.size());
  // Where the keys are few (k = 32: 16 at level 1, 256 at level 2), D(κ) and D_S(κ) are
  // counted in arrays indexed by κ, over the nodes in ascending order (each subtree's nodes
  // then consecutive), instead of sorting (S, κ) pairs per level: the same counts, the same
  // touches in the same order (subtrees ascending, keys ascending).
  constexpr long long kDenseKeys = 1 << 16;
  std::vector<NodeId> ascending(nodes.begin(), nodes.end());
  if (!std::is_sorted(ascending.begin(), ascending.end()))
    std::sort(ascending.begin(), ascending.end());
  std::vector<double> destinations_of, in_subtree_of;       // D(κ), D_S(κ), by κ
  std::vector<std::pair<long long, long long>> by_subtree;  // (S, κ) per node, sorted
  std::vector<long long> keys;                              // the distinct κ, sorted
  std::vector<double> destinations, in_subtree;             // D(κ), D_S(κ), by key index
  std::vector<std::size_t> node_key;                        // dense: κ of ascending[i]
  std::vector<int> switch_of_prefix;  // dense: per key prefix, the subtree's switch (−1: not yet)
  by_subtree.reserve(nodes.size());
  keys.reserve(nodes.size());
  for (int level = 1; level < levels(); ++level) {
    // κ's digits c_1..c_l read as a number: prefix (c_1..c_(l−1)) + below · c_l.
    const long long below = up_product_[level] / up_product_[1];
    // The level-l switch of subtree S (from S's leaf, any of its hosts') for the key prefix
    // (c_1..c_(l−1)) as a number; and the up link of S's switch for key κ, port c_l.
    const auto switch_of = [&](long long subtree, long long prefix) {
      auto x = static_cast<int>(subtree * down_product_[level] / down_[0]);
      for (int l = 1; l < level; ++l)
        x = parent_index(l, x,
                         static_cast<int>((prefix / (up_product_[l] / up_product_[1])) % up_[l]));
      return x;
    };
    const auto up_link_of = [&](long long subtree, long long key) {
      return up_link(level, switch_of(subtree, key % below), static_cast<int>(key / below));
    };
    const long long key_count = below * up_[level];
    if (key_count <= kDenseKeys) {
      // Each node's key and each subtree's bounds computed once per level (integer divisions
      // by machine-sized values dominated this loop), and per subtree the level-l switch of
      // each key prefix (c_1..c_(l−1)) once: up_link_of's climb for every key repeated it.
      node_key.resize(ascending.size());
      for (std::size_t i = 0; i < ascending.size(); ++i)
        node_key[i] = static_cast<std::size_t>((ascending[i] / up_product_[1]) % key_count);
      destinations_of.assign(static_cast<std::size_t>(key_count), 0.0);
      in_subtree_of.assign(static_cast<std::size_t>(key_count), 0.0);
      for (const std::size_t key : node_key) destinations_of[key] += 1;
      keys.clear();
      for (long long key = 0; key < key_count; ++key)
        if (destinations_of[static_cast<std::size_t>(key)] > 0) keys.push_back(key);
      switch_of_prefix.assign(static_cast<std::size_t>(below), -1);
      for (std::size_t first = 0; first < ascending.size();) {
        const long long subtree = ascending[first] / down_product_[level];
        const long long subtree_end = (subtree + 1) * down_product_[level];
        std::size_t last = first;
        for (; last < ascending.size() && ascending[last] < subtree_end; ++last)
          in_subtree_of[node_key[last]] += 1;
        const auto count = static_cast<double>(last - first);
        std::fill(switch_of_prefix.begin(), switch_of_prefix.end(), -1);
        for (const long long key : keys) {
          const double all = destinations_of[static_cast<std::size_t>(key)];
          const double inside = in_subtree_of[static_cast<std::size_t>(key)];
          const long long port = key / below, prefix = key - port * below;
          int& x = switch_of_prefix[static_cast<std::size_t>(prefix)];
          if (x < 0) x = switch_of(subtree, prefix);
          const LinkId up = up_link(level, x, static_cast<int>(port));
          if (all > inside) touch(up, count * (all - inside));
          if (inside > 0 && n > count) touch(up + 1, inside * (n - count));
        }
        for (std::size_t i = first; i < last; ++i) in_subtree_of[node_key[i]] = 0;
        first = last;
      }
      continue;
    }
    by_subtree.clear();
    keys.clear();
    for (const NodeId d : nodes) {
      const long long key = (d / up_product_[1]) % (below * up_[level]);
      by_subtree.emplace_back(d / down_product_[level], key);
      keys.push_back(key);
    }
    std::sort(by_subtree.begin(), by_subtree.end());
    std::sort(keys.begin(), keys.end());
    destinations.clear();
    std::size_t distinct = 0;
    for (const long long key : keys) {
      if (distinct > 0 && keys[distinct - 1] == key) {
        destinations.back() += 1;
      } else {
        keys[distinct++] = key;
        destinations.push_back(1);
      }
    }
    keys.resize(distinct);
    const auto key_index = [&](long long key) {
      return static_cast<std::size_t>(std::lower_bound(keys.begin(), keys.end(), key) -
                                      keys.begin());
    };
    for (std::size_t first = 0; first < by_subtree.size();) {
      const long long subtree = by_subtree[first].first;
      std::size_t last = first;
      in_subtree.assign(keys.size(), 0.0);
      for (; last < by_subtree.size() && by_subtree[last].first == subtree; ++last)
        in_subtree[key_index(by_subtree[last].second)] += 1;
      const auto count = static_cast<double>(last - first);
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const LinkId up = up_link_of(subtree, keys[i]);
        if (destinations[i] > in_subtree[i]) touch(up, count * (destinations[i] - in_subtree[i]));
        if (in_subtree[i] > 0 && n > count) touch(up + 1, in_subtree[i] * (n - count));
      }
      first = last;
    }
  }
  return true;
}

std::shared_ptr<const GraphMachine> make_fattree(const Params& params, bool allow_large) {
  const auto k = static_cast<int>(params.integer("k"));
  const std::string& down = params.text("down");
  const std::string& up = params.text("up");
  const FatTree::Routing routing =
      params.text("routing") == "ecmp" ? FatTree::Routing::ecmp : FatTree::Routing::dmodk;
  if (k != 0 && (!down.empty() || !up.empty()))
    throw InputError("fattree: give either k=K or down= and up=, not both");
  if (k == 0) {
    if (down.empty() && up.empty())
      throw InputError(
          "fattree needs k=K (three levels of k-port switches, e.g. k=4) or "
          "down=M1x..xMh,up=W1x..xWh (e.g. down=24x36,up=1x12)");
    if (down.empty() || up.empty())
      throw InputError(std::string("fattree: ") + (down.empty() ? "up=" : "down=") + " needs " +
                       (down.empty() ? "down=" : "up=") +
                       " too (one number per switch level in both)");
    return std::make_shared<const FatTree>(parse_arities("down", down), parse_arities("up", up),
                                           routing, 0, allow_large);
  }
  if (k % 2 != 0 || k < 2)
    throw InputError("fattree: k=" + std::to_string(k) +
                     " must be even and at least 2 (k/2 hosts per edge switch)");
  // Al-Fares et al.: k pods of k/2 edge and k/2 aggregation switches, (k/2)² cores, k/2 hosts
  // per edge switch: XGFT(3; k/2, k/2, k; 1, k/2, k/2).
  const int half = k / 2;
  return std::make_shared<const FatTree>(std::vector<int>{half, half, k},
                                         std::vector<int>{1, half, half}, routing, k, allow_large);
}

}  // namespace allocsim
