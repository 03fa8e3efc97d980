// UGAL on a dragonfly for many pairs against one view of loads: the same decisions and paths as
// Dragonfly::for_each_path (dragonfly_routing.cpp, whose file comment has the rule), bit for
// bit, faster.
//
// Speed: the flow model routes a job's all-to-all (and a pattern job's edges) through one
// UgalBatch (Dragonfly::path_batch): the same decisions and paths, bit for bit, with the Valiant
// paths' middle hops worked out once per pair of groups and most router pairs decided by exact
// bounds (class comment). Measured 2026-11-29 (farm-bench -n 3, whole process, paired with the
// pair-by-pair rule of main at 29581d2; per-job CSVs cmp-identical):
//   allocsim run --machine dragonfly:p=4,a=8,h=4,routing=ugal --trace
//     synthetic:jobs=1000,arrival=exp:20,runtime=exp:300,size=uniform:1,128 --alloc random
//     --runtime-model flow:comm=0.5
//   CPU median 18.1 s against 90.2 s (ratio 0.204; wall 25.4 s against 147 s, machine shared).
// On dragonfly:p=8,a=16,h=8 (129 groups, 127 intermediate ones): a hop floor in the lower bound
// (legs owned by the source router or landing on the destination's: group_pair), legs kept
// only for pairs of groups that need the exact sum, each group's global hops kept per batch;
// measured 2026-11-29 the same way, paired with main at 12ade38, per-job CSVs cmp-identical:
//   allocsim run --machine dragonfly:p=8,a=16,h=8,routing=ugal --trace
//     synthetic:jobs=60,arrival=exp:20,runtime=exp:300,size=uniform:1,512 --alloc random
//     --runtime-model flow:comm=0.5
//   CPU median 31.6 s against 53.2 s (ratio 0.590; peak memory 83 MiB against 183 MiB).
// Left: working out each pair of groups' bounds (g − 2 legs each, every pair of groups a job
// spans, every job at every re-rating) is now most of the time; every re-rating re-routes every
// running job.
#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "dragonfly_paths.hpp"

namespace allocsim::dragonfly_paths {

namespace {

/// UGAL for many pairs against one view of loads (Dragonfly::path_batch). A Valiant path from
/// router i of gs to router j of gd is [local i -> owner,] first global, [local in mid,] second
/// global[, local lands -> j]: a leg. Its middle part (first global, local hop in mid, second
/// global: largest load `middle`, 2 or 3 hops) depends on (gs, gd) only, its first end hop on
/// i, its last on j. The largest of a set of loads, starting from 0, is the same in any order,
/// and q and H are summed over the same paths in the same order with the same weights as
/// valiant_paths does: the same bits as Dragonfly::for_each_path.
///
/// Bounds per (gs, gd) decide most pairs without the per-pair sum: rounding to nearest is
/// monotone (x ≤ y gives fl(x + z) ≤ fl(y + z) and, for w > 0, fl(w·x) ≤ fl(w·y)), so the same
/// sums in the same order with each leg's load and hops replaced by a value ≤ (≥) the pair's
/// give a value ≤ (≥) the Valiant side's q and H, and (q + 1)·H likewise. Lower: the middle
/// part's loads; for H the larger of the middle part's hops and a floor from the weights of
/// the legs each router owns and each receives (the end hops are missing only from the legs
/// that start at i or end at j, a few of them; this one by a bound on the rounding, not term
/// by term: group_pair). Upper: the middle, the largest
/// load into the leg's owner in gs (any i's first hop) and the largest out of where it lands
/// in gd (any j's last hop), and 2 more hops. When the minimal side is ≤ the lower bound the
/// rule routes minimally, when it is > the upper bound by Valiant; else the exact sum over the
/// group pair's legs, kept on first need (on a machine of 129 groups the bounds decide 94 % of
/// the flow model's pairs, and a batch touches up to 2 million legs: they are not all kept).
class UgalBatch final : public GraphMachine::PathBatch {
 public:
  UgalBatch(const Dragonfly& df, LinkLoadView loads)
      : df_(&df),
        loads_(loads),
        pair_slot_(static_cast<std::size_t>(df.group_count())),
        group_slot_(static_cast<std::size_t>(df.group_count()), -1),
        out_hops_(static_cast<std::size_t>(df.group_count())),
        in_hops_(static_cast<std::size_t>(df.group_count())) {}

  void for_each_path(NodeId a, NodeId b, PathVisitor visit) override {
    if (a == b) return;
    const Dragonfly& df = *df_;
    const VertexId rs = df.router_of(a), rd = df.router_of(b);
    const int gs = df.router_group(rs), gd = df.router_group(rd);
    if (!ugal_decides(df, gs, gd, loads_)) {
      df.for_each_path(a, b, visit, loads_);
      return;
    }
    const int i = df.router_index(rs), j = df.router_index(rd);
    Cost minimal;
    minimal_paths(df, gs, i, gd, j,
                  [&](const Hops& hops, double weight) { minimal.add(hops, weight, loads_); });
    const double stay = (minimal.bottleneck + 1) * minimal.hops;
    GroupPair& pair = group_pair(gs, gd);
    bool valiant;
    if (stay <= pair.lower) {
      valiant = false;
    } else if (stay > pair.upper) {
      valiant = true;
    } else {
      // The end hops' loads from the groups' local matrices, 0 where there is no hop (the
      // diagonal): the largest with 0 added, since every `middle` is already ≥ 0.
      const int routers = df.routers_per_group();
      keep_local_loads(gd);  // (before taking pointers: a first use grows the array)
      const std::size_t source = matrix_offset(gs) + static_cast<std::size_t>(i) * routers;
      const std::size_t destination = matrix_offset(gd) + static_cast<std::size_t>(j);
      const double* from_i = local_loads_.data() + source;
      const double* to_j = local_loads_.data() + destination;  // [lands · a]
      const Leg* legs = legs_of(gs, gd, pair);
      double bottleneck = 0, hops = 0;
      for (std::size_t k = 0; k < pair.count; ++k) {
        const Leg& leg = legs[k];
        const double worst =
            std::max(std::max(leg.middle, from_i[leg.owner]), to_j[leg.lands * routers]);
        const int size = leg.middle_hops + (leg.owner != i ? 1 : 0) + (leg.lands != j ? 1 : 0);
        bottleneck += leg.weight * worst;
        hops += leg.weight * size;
      }
      valiant = stay > (bottleneck + 1) * hops;
    }
    emit_paths(df, a, b, gs, i, gd, j, valiant, visit);
  }

 private:
  /// One Valiant path between two groups without its end hops (see the class comment).
  struct Leg {
    double weight = 0;    ///< as valiant_paths computes it
    double middle = 0;    ///< largest load of first global, local hop in mid, second global
    int middle_hops = 0;  ///< 2, or 3 with a local hop in mid
    int owner = 0;        ///< index in gs of the router owning the first global link
    int lands = 0;        ///< index in gd of the router the second global link lands on
  };
  /// The bounds of (gs, gd) (class comment); its legs, legs[0 .. count), once needed.
  struct GroupPair {
    Leg* legs = nullptr;  ///< null until legs_of
    std::size_t count = 0;
    double lower = 0;  ///< ≤ (q + 1)·H of the Valiant paths of every router pair
    double upper = 0;  ///< ≥ it
  };

  /// One global hop of a leg: its link's load, the index of the router it leaves and of the
  /// one it reaches.
  struct GlobalHop {
    double load = 0;
    int leaves = 0;
    int reaches = 0;
  };
  /// A group's global hops to (out) or from (in) every other group: those of mid at
  /// hops[begin[mid] .. begin[mid + 1]), in port order (as for_each_global_hop calls them).
  struct GlobalHops {
    std::vector<int> begin;  ///< empty until first use
    std::vector<GlobalHop> hops;
  };
  /// The global hops of `group` to each other group (out) or from each (in), made on first use
  /// (the first hop's load as valiant_paths' running largest, from 0: max(0, load)).
  const GlobalHops& global_hops(int group, bool out) {
    GlobalHops& row = (out ? out_hops_ : in_hops_)[static_cast<std::size_t>(group)];
    if (!row.begin.empty()) return row;
    const Dragonfly& df = *df_;
    for (int other = 0; other < df.group_count(); ++other) {
      row.begin.push_back(static_cast<int>(row.hops.size()));
      if (other == group) continue;
      const auto keep = [&](LinkId link, int leaves, int reaches) {
        const double load = load_of(loads_, link);
        row.hops.push_back({out ? std::max(0.0, load) : load, leaves, reaches});
      };
      if (out)
        df.for_each_global_hop(group, other, keep);
      else
        df.for_each_global_hop(other, group, keep);
    }
    row.begin.push_back(static_cast<int>(row.hops.size()));
    return row;
  }

  /// Calls f(weight, middle, middle_hops, owner, lands) for every leg of (gs, gd) in
  /// valiant_paths' order (class comment): owner the index in gs of the router owning the
  /// first global link, lands the index in gd where the second lands.
  template <class F>
  void for_each_leg(int gs, int gd, F&& f) {
    const Dragonfly& df = *df_;
    const int g = df.group_count();
    const double share = 1.0 / (g - 2);
    const GlobalHops& firsts = global_hops(gs, true);  // (rows of fixed vectors: they stay put)
    const GlobalHops& seconds = global_hops(gd, false);
    for (int mid = 0; mid < g; ++mid) {
      if (mid == gs || mid == gd) continue;
      const auto m = static_cast<std::size_t>(mid);
      const int first_begin = firsts.begin[m], first_end = firsts.begin[m + 1];
      const int second_begin = seconds.begin[m], second_end = seconds.begin[m + 1];
      // share / first count / second count as valiant_paths has it; x / 1 is x exactly, so
      // a division by a count of 1 (every count when g = a·h + 1) is skipped.
      double weight = share;
      if (first_end - first_begin != 1) weight = weight / (first_end - first_begin);
      if (second_end - second_begin != 1) weight = weight / (second_end - second_begin);
      for (int x = first_begin; x < first_end; ++x) {
        const GlobalHop& first = firsts.hops[static_cast<std::size_t>(x)];
        const int at = first.reaches;
        for (int y = second_begin; y < second_end; ++y) {
          const GlobalHop& second = seconds.hops[static_cast<std::size_t>(y)];
          double middle = first.load;
          int middle_hops = 2;
          if (at != second.leaves) {
            middle = std::max(middle, load_of(loads_, df.local_link(mid, at, second.leaves)));
            ++middle_hops;
          }
          middle = std::max(middle, second.load);
          f(weight, middle, middle_hops, first.leaves, second.reaches);
        }
      }
    }
  }

  /// The loads of `group`'s local links as an a × a matrix, [from · a + to], 0 on the diagonal,
  /// filled on first use: its index (its matrix at local_loads_[index · a²], its column and row
  /// maxima at into_max_ / out_max_[index · a]).
  std::size_t keep_local_loads(int group) {
    int& slot = group_slot_[static_cast<std::size_t>(group)];
    const int a = df_->routers_per_group();
    const auto size = static_cast<std::size_t>(a) * a;
    if (slot < 0) {
      slot = static_cast<int>(local_loads_.size() / size);
      local_loads_.resize(local_loads_.size() + size, 0.0);
      into_max_.resize(into_max_.size() + static_cast<std::size_t>(a), 0.0);
      out_max_.resize(out_max_.size() + static_cast<std::size_t>(a), 0.0);
      double* row = local_loads_.data() + static_cast<std::size_t>(slot) * size;
      double* into = into_max_.data() + static_cast<std::size_t>(slot) * a;
      double* out = out_max_.data() + static_cast<std::size_t>(slot) * a;
      for (int from = 0; from < a; ++from)
        for (int to = 0; to < a; ++to)
          if (from != to) {
            const double load = load_of(loads_, df_->local_link(group, from, to));
            row[from * a + to] = load;
            into[to] = std::max(into[to], load);
            out[from] = std::max(out[from], load);
          }
    }
    return static_cast<std::size_t>(slot);
  }
  /// Where `group`'s local matrix starts in local_loads_.
  std::size_t matrix_offset(int group) {
    const auto a = static_cast<std::size_t>(df_->routers_per_group());
    return keep_local_loads(group) * a * a;
  }
  /// The largest loads into / out of each router of `group` by its local links.
  const double* into_max(int group) {
    const std::size_t offset = keep_local_loads(group) * df_->routers_per_group();
    return into_max_.data() + offset;  // (after keep_local_loads, which may grow the array)
  }
  const double* out_max(int group) {
    const std::size_t offset = keep_local_loads(group) * df_->routers_per_group();
    return out_max_.data() + offset;
  }

  /// Room for `count` legs that stay put (blocks, never moved: no copying as they grow).
  Leg* new_legs(std::size_t count) {
    if (blocks_.empty() || block_used_ + count > block_size_) {
      block_size_ = std::max<std::size_t>(kLegsPerBlock, count);
      blocks_.push_back(std::make_unique<Leg[]>(block_size_));
      block_used_ = 0;
    }
    Leg* legs = blocks_.back().get() + block_used_;
    block_used_ += count;
    return legs;
  }

  /// The legs of (gs, gd) and their bounds (class comment), worked out on first use.
  GroupPair& group_pair(int gs, int gd) {
    const Dragonfly& df = *df_;
    std::vector<int>& row = pair_slot_[static_cast<std::size_t>(gs)];
    if (row.empty()) row.assign(static_cast<std::size_t>(df.group_count()), -1);
    int& slot = row[static_cast<std::size_t>(gd)];
    if (slot >= 0) return pairs_[static_cast<std::size_t>(slot)];
    slot = static_cast<int>(pairs_.size());
    std::size_t count = 0;
    const int a = df.routers_per_group();
    keep_local_loads(gd);  // (before taking pointers: a first use grows the arrays)
    const double* into = into_max(gs);
    const double* out = out_max(gd);
    // Per router of gs, the weights of the legs it owns; per router of gd, of those landing on
    // it (the hop bound below).
    owned_.assign(static_cast<std::size_t>(a), 0.0);
    landed_.assign(static_cast<std::size_t>(a), 0.0);
    double low_q = 0, low_h = 0, high_q = 0, high_h = 0;
    for_each_leg(gs, gd, [&](double weight, double middle, int middle_hops, int owner, int lands) {
      ++count;
      low_q += weight * middle;
      low_h += weight * middle_hops;
      high_q += weight * std::max(std::max(middle, into[owner]), out[lands]);
      high_h += weight * (middle_hops + 2);
      owned_[static_cast<std::size_t>(owner)] += weight;
      landed_[static_cast<std::size_t>(lands)] += weight;
    });
    // H of router i to router j is Σ_k w_k·(middle hops + [owner_k ≠ i] + [lands_k ≠ j]) =
    // Σ_k w_k·(middle hops + 2) − (weight owned by i) − (weight landing on j) in exact
    // arithmetic, ≥ high_h − the largest owned − the largest landed. Rounded: each product and
    // each partial sum of nonnegative terms is within a factor (1 ± u) (u = 2⁻⁵³), so the
    // computed H of any (i, j) is ≥ (1 − u)^(count + 1) times that bound, and high_h and the
    // largest weights below are within (1 ± u)^(count + 1) of theirs: with count·u < 10⁻¹²,
    // subtracting 10⁻⁹·high_h more leaves a value ≤ every pair's computed H (the margin is
    // 1,000 times the rounding). Then (q + 1)·H ≥ (low_q + 1)·that by monotone rounding.
    double hops_floor = low_h;
    if (static_cast<double>(count) < 1e-12 / std::numeric_limits<double>::epsilon()) {
      const double most_owned = *std::max_element(owned_.begin(), owned_.end());
      const double most_landed = *std::max_element(landed_.begin(), landed_.end());
      hops_floor = std::max(hops_floor, high_h - most_owned - most_landed - 1e-9 * high_h);
    }
    GroupPair pair;
    pair.count = count;
    pair.lower = (low_q + 1) * hops_floor;
    pair.upper = (high_q + 1) * high_h;
    pairs_.push_back(pair);
    return pairs_.back();
  }

  /// The legs of (gs, gd) in valiant_paths' order, kept on first use (most pairs of groups
  /// never need them: their bounds decide).
  const Leg* legs_of(int gs, int gd, GroupPair& pair) {
    if (pair.legs) return pair.legs;
    Leg* const legs = new_legs(pair.count);
    std::size_t k = 0;
    for_each_leg(gs, gd, [&](double weight, double middle, int middle_hops, int owner, int lands) {
      legs[k++] = {weight, middle, middle_hops, owner, lands};
    });
    pair.legs = legs;
    return legs;
  }

  static constexpr std::size_t kLegsPerBlock = std::size_t{1} << 16;

  const Dragonfly* df_;
  LinkLoadView loads_;
  /// Per gs (a row of g, made on first use: a batch touches few groups of a large machine), per
  /// gd: index in pairs_, −1 until first use.
  std::vector<std::vector<int>> pair_slot_;
  std::vector<GroupPair> pairs_;
  std::vector<std::unique_ptr<Leg[]>> blocks_;   ///< the legs of pairs_
  std::size_t block_size_ = 0, block_used_ = 0;  ///< of blocks_.back()
  std::vector<double> owned_, landed_;           ///< group_pair's per-router weights
  std::vector<int> group_slot_;       ///< per group: its matrix's index, −1 until first use
  std::vector<double> local_loads_;   ///< the groups' local matrices, a² each
  std::vector<double> into_max_;      ///< per matrix, per router: largest load into it
  std::vector<double> out_max_;       ///< per matrix, per router: largest load out of it
  std::vector<GlobalHops> out_hops_;  ///< per group: global_hops(group, true)
  std::vector<GlobalHops> in_hops_;   ///< per group: global_hops(group, false)
};

}  // namespace

std::unique_ptr<GraphMachine::PathBatch> make_ugal_batch(const Dragonfly& df, LinkLoadView loads) {
  return std::make_unique<UgalBatch>(df, loads);
}

}  // namespace allocsim::dragonfly_paths
