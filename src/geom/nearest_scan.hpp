#pragma once
// Private helper of mm.cpp: MM's scan over candidate centres (NearestScan), which takes each
// centre's k nearest points and keeps the best pairwise sum (geom/mm.hpp, "Speed"), with the
// storage and sums it keeps between calls in a ScanWorkspace (scan_workspace.hpp).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "allocsim/geom/mm.hpp"
#include "axis_index.hpp"
#include "ball_walk.hpp"
#include "byte_key_scan.hpp"
#include "nearest_grid.hpp"
#include "plane_sums.hpp"
#include "prefix_cache.hpp"
#include "scan_workspace.hpp"

namespace allocsim::geom::detail {

/// Scans centres given as per-axis indices into per-axis centre value lists; for each, takes the
/// k nearest points and keeps the best pairwise sum (see mm.hpp, "Speed").
class NearestScan {
 public:
  /// `index` and `centre_values` are kept by the caller for the scan's lifetime; so is
  /// `workspace`, whose storage the scan uses (see ScanWorkspace).
  NearestScan(const PointSet& points, int k, const std::vector<std::vector<int>>& centre_values,
              const AxisIndex& index, const TimeLimit* time_limit, NearestMemo* memo,
              ScanWorkspace& workspace)
      : points_(points),
        k_(k),
        index_(&index),
        workspace_(workspace),
        grid_(workspace.grid),
        centre_values_(centre_values),
        centre_(workspace.centre),
        ring_centre_(workspace.ring_centre),
        ring_(workspace.ring),
        previous_(workspace.previous),
        tables_(workspace.tables),
        keys_(workspace.keys),
        histogram_(workspace.histogram),
        chosen_(workspace.chosen),
        scratch_(workspace.scratch),
        best_(workspace.best),
        wide_scratch_(workspace.wide_scratch),
        previous_centre_(workspace.previous_centre),
        class_part_(workspace.class_part),
        cell_part_(workspace.cell_part),
        poll_(time_limit) {
    grid_.build(points);
    previous_.clear();
    best_.clear();
    const int d = points.dims();
    centre_.resize(d);
    ring_centre_.resize(d);
    // Early stop (results unchanged: only a strictly lower sum replaces the best). On torus
    // axes the bound of mm.hpp ("Early stop on tori").
    if (points.dims() <= 3 && (grid_.usable() || all_distinct(points))) {
      stop_at_ = distinct_points_lower_bound(points.dims(), k);
      for (int axis = 0; axis < d; ++axis) {
        if (!points.wraps(axis)) continue;
        const std::int64_t half_ring =
            (static_cast<std::int64_t>(points.ring(axis)) * (k - 1) + 1) / 2;
        stop_at_ = std::min(stop_at_, half_ring);
        stop_on_torus_ = k > 1;
      }
    }
    for (int axis = 0; axis < d; ++axis)
      every_axis_wraps_ = every_axis_wraps_ && points.wraps(axis);
    cap_ = every_axis_wraps_ ? ball_cap(d, k) : class_cap(d, k);
    // The sums kept between calls (prefix_cache.hpp), when a caller keeps the memo, the grid
    // holds the points, their indices are lexicographic, the exact evaluation is by the ball
    // walk (k small against n, not the line counts of 2D) and the walk covers the box. Not on
    // small boxes: a call there is cheap, and a mesh's box of free nodes changes often (which
    // empties the cache; measured on NASA iPSC, 16×8).
    for (int axis = 0; axis < d && grid_.usable(); ++axis) box_ *= grid_.length(axis);
    if (memo && grid_.usable() && d <= 3 && box_ >= PrefixCache::kMinBox && lexicographic()) {
      PrefixCache& cache = workspace_.prefix_cache;
      cache.sync(points, grid_);
      poll_.add(static_cast<std::int64_t>(points.size()) * d);
      const bool by_lines = d == 2 && ball_cap(d, k) > 8;
      if (k >= 2 && k <= cache.capacity() && 8LL * k <= points.size() && !by_lines) {
        prepare_walk(PrefixCache::kMaxPrefix);
        if (walk_->usable()) {
          cache_ = &cache;
          memo_of_cache_ = memo;
          build_class_parts();  // for the cells
        }
      }
    } else if (memo) {
      workspace_.prefix_cache.clear();  // its claim needs every call synced
    }
    // The memo pays when the exact evaluation is by rings or lines (k small against n); the
    // scan's cost is dominated by its pass over the points anyway.
    if (!cache_ && grid_.usable() && 8LL * k <= points.size() && d <= 3 && cap_ <= 60 &&
        k < (1 << 26) && lexicographic()) {
      memo_ = memo ? memo : &own_memo_;
      if (memo_->rings != points.rings()) {
        memo_->rings = points.rings();
        memo_->entries.clear();
      }
      if (memo_->entries.size() >= NearestMemo::kCapacity) memo_->entries.clear();
      grid_.build_empty_distance();
      build_class_parts();
      poll_.add(static_cast<std::int64_t>(points.size()) * d);
    }
    // Line counts cost O(ρ) per centre against the walk's O(ρ²) cells (src/geom/ball_walk.hpp),
    // which is cheaper up to a radius of about 8 (measured with bench_mm_scale).
    if (grid_.usable() && d == 2 && 8LL * k <= points.size() && ball_cap(d, k) > 8) {
      const int lo[2] = {grid_.low(0), grid_.low(1)}, len[2] = {grid_.length(0), grid_.length(1)};
      plane_ = std::make_unique<PlaneSums>(points, lo, len);
      previous_centre_.resize(d);
    }
  }

  /// True when the indices list the points lexicographically (computed once).
  bool lexicographic() {
    if (lexicographic_ < 0)
      lexicographic_ = (grid_.usable() ? grid_.increasing() : lexicographic_order(points_)) ? 1 : 0;
    return lexicographic_ == 1;
  }

  /// True when the best sum equals a proven lower bound: no later centre can replace it.
  bool done() const { return best_sum_ <= stop_at_; }

  const AxisIndex& index() const { return *index_; }
  /// True when the points are known to be distinct (they fit the occupancy grid).
  bool distinct() const { return grid_.usable(); }

  /// Evaluates the centres with pos[axis] = 0, 1, … in turn (the other positions fixed), each
  /// as evaluate() would, stopping after the one that makes done() true; false then. A centre
  /// whose sum the prefix cache knows to be no better than the best is only counted.
  bool evaluate_row(std::span<int> pos, int axis) {
    const int count = static_cast<int>(centre_values_[axis].size());
    if (!cache_) {
      for (int p = 0; p < count; ++p) {
        pos[axis] = p;
        evaluate(pos);
        if (done()) return false;
      }
      return true;
    }
    std::int64_t base = 0;
    bool inside = true;
    for (int other = 0; other < points_.dims(); ++other) {
      if (other == axis) continue;
      const std::int64_t part = cell_part_[other][pos[other]];
      inside = inside && part >= 0;
      base += part;
    }
    const std::int64_t* parts = cell_part_[axis].data();
    const std::uint8_t* valid = cache_->valid_counts();
    const std::uint32_t* sums = cache_->sums_of(k_);
    poll_.add(count);
    // Consecutive cells (axis 0 with every value of the box): 16 known at a time.
    const bool consecutive = inside && axis == 0 && consecutive_axis0_;
    for (int p = 0; p < count; ++p) {
      if (consecutive && p + 16 <= count && best_sum_ <= kSkipLimit &&
          all_known_no_better(valid + base + p, sums + base + p, k_, best_sum_)) {
        evaluated_ += 16;
        memo_of_cache_->workspace.reused += 16;
        p += 15;
        continue;
      }
      if (inside && parts[p] >= 0) {
        const std::int64_t cell = base + parts[p];
        if (valid[cell] >= k_ && sums[cell] >= best_sum_) {
          ++evaluated_;
          ++memo_of_cache_->workspace.reused;
          continue;
        }
      }
      pos[axis] = p;
      evaluate(pos);
      if (done()) return false;
    }
    return true;
  }

  /// Evaluates the centre with per-axis positions `pos` (into centre_values); keeps it if its
  /// sum is strictly lower than the best so far.
  void evaluate(std::span<const int> pos) {
    ++evaluated_;
    poll_.add(1);
    const int d = points_.dims();
    for (int axis = 0; axis < d; ++axis) centre_[axis] = centre_values_[axis][pos[axis]];
    if (cache_) {
      const std::int64_t cell = cell_of(pos);
      if (cell < 0 || !evaluate_cached(pos, cell)) evaluate_fast(pos);
      return;
    }
    if (memo_) {
      const std::int64_t cell = cell_of(pos);
      if (cell < 0) {
        evaluate_fast(pos);
        return;
      }
      // The class key from per-axis parts (see build_class_parts).
      std::uint64_t key = static_cast<std::uint64_t>(k_);
      for (int axis = 0; axis < d; ++axis) key = key * key_base_ + class_part_[axis][pos[axis]];
      if (key != last_key_) {
        const auto found = memo_->entries.find(key);
        last_entry_ = found == memo_->entries.end() ? nullptr : &found->second;
        last_key_ = key;
      }
      if (last_entry_ && known_by_memo(cell, *last_entry_)) {
        note_radius(last_entry_->radius);
        if (last_entry_->sum < best_sum_) evaluate_exactly(pos);  // a new best: its set is needed
        return;
      }
      used_plane_ = false;
      const int radius = evaluate_fast(pos);
      if (radius <= cap_ && grid_.empty_distance(cell) > radius) {
        last_entry_ = &memo_->entries[key];
        *last_entry_ = {radius, sum_, last_ring_offsets(radius)};
      }
      return;
    }
    evaluate_fast(pos);
  }

  /// The best set; `centres` is how many centres a scan without the early stop on tori visits
  /// (reported as examined when that stop ended the scan, as before it existed).
  Selection result(std::int64_t centres) const {
    return Selection::heuristic(best_, best_sum_, stop_on_torus_ && done() ? centres : evaluated_);
  }

 private:
  /// The grid cell of the centre with per-axis positions `pos`, from per-axis parts (as
  /// NearestGrid::cell_at); −1 when it lies outside the box.
  std::int64_t cell_of(std::span<const int> pos) const {
    std::int64_t cell = 0;
    bool inside = true;
    for (int axis = 0; axis < points_.dims(); ++axis) {
      const std::int64_t part = cell_part_[axis][pos[axis]];
      inside = inside && part >= 0;
      cell += part;
    }
    return inside ? cell : -1;
  }

  /// The centre's sum from the prefix cache, computing the cell's prefix when it is not known;
  /// keeps the centre if strictly better (a known sum's set is computed again). False when the
  /// prefix cannot reach k (the other paths evaluate the centre).
  bool evaluate_cached(std::span<const int> pos, std::int64_t cell) {
    PrefixCache& cache = *cache_;
    const std::int64_t known = cache.known_sum(cell, k_);
    if (known >= 0) {
      ++memo_of_cache_->workspace.reused;
      if (known < best_sum_) evaluate_exactly(pos);  // a new best: its set is needed
      return true;
    }
    if (cache.lower_bound(cell, k_) >= best_sum_) return true;  // cannot be strictly better
    if (cache.short_of(cell, k_)) return false;
    std::vector<std::uint64_t>& order = workspace_.order;
    const int m = cache.compute(*walk_, centre_.data(), cell, k_, order);
    poll_.add(static_cast<std::int64_t>(m) * points_.dims());
    if (m < k_) return false;
    sum_ = cache.sum(cell, k_);
    if (sum_ < best_sum_) {
      chosen_.clear();
      for (int j = 0; j < k_; ++j) chosen_.push_back(static_cast<int>(order[j] >> 32));
      keep_if_better();
    }
    return true;
  }

  /// Prepares the ball walk for radii of at least the free ball of `for_k` points.
  void prepare_walk(int for_k) {
    // Radii up to 4x the free ball's (corners, blocked neighbourhoods), or 3 more on tori.
    const int least = ball_cap(points_.dims(), for_k);
    workspace_.walk.prepare(points_, grid_, least, every_axis_wraps_ ? least + 3 : 4 * least + 3,
                            4 * box_ + 4096, lexicographic());
    walk_ = &workspace_.walk;
    poll_.add(8LL * points_.size());
  }

  /// Per axis and centre position, the centre's share of its class key — the class of mm.hpp
  /// with k, packed: per axis (min(c − lo, C), min(hi − c, C)) in base C + 1 — and of its grid
  /// cell (−1 outside the box).
  void build_class_parts() {
    const int d = points_.dims();
    const std::uint64_t base = static_cast<std::uint64_t>(cap_) + 1;
    key_base_ = base * base;
    class_part_.resize(d);
    cell_part_.resize(d);
    std::int64_t stride = 1;
    for (int axis = 0; axis < d; ++axis) {
      const int lo = grid_.low(axis), len = grid_.length(axis);
      class_part_[axis].clear();
      cell_part_[axis].clear();
      for (const int c : centre_values_[axis]) {
        const int below = c - lo, above = lo + len - 1 - c;
        class_part_[axis].push_back(static_cast<std::uint64_t>(std::min(below, cap_)) * base +
                                    static_cast<std::uint64_t>(std::min(above, cap_)));
        cell_part_[axis].push_back(below >= 0 && above >= 0 ? below * stride : -1);
      }
      stride *= len;
    }
    // Axis 0's centres are its cells 0, 1, … in order (stride 1).
    consecutive_axis0_ = true;
    for (std::size_t p = 0; p < cell_part_[0].size(); ++p)
      consecutive_axis0_ = consecutive_axis0_ && cell_part_[0][p] == static_cast<std::int64_t>(p);
  }

  /// True when the memo entry of the centre's class gives its sum (mm.hpp): every cell within
  /// the entry's radius holds a point, or every cell nearer than it does and so do the
  /// translates of the class's chosen last-ring cells.
  bool known_by_memo(std::int64_t cell, const NearestMemo::Entry& entry) {
    const int empty = grid_.empty_distance(cell);
    if (empty > entry.radius) return true;
    if (empty < entry.radius) return false;
    const int d = points_.dims();
    for (std::size_t i = 0; i < entry.last_ring.size(); i += d) {
      for (int axis = 0; axis < d; ++axis) {
        int x = centre_[axis] + entry.last_ring[i + axis];
        if (points_.wraps(axis))
          x = (x % points_.ring(axis) + points_.ring(axis)) % points_.ring(axis);
        ring_centre_[axis] = x;
      }
      if (!grid_.holds(grid_.cell_at(ring_centre_.data()))) return false;
    }
    return true;
  }

  /// The current centre's chosen points at distance `radius`, as coordinate offsets from it.
  std::vector<int> last_ring_offsets(int radius) const {
    std::vector<int> offsets;
    auto add = [&](int p) {
      for (int axis = 0; axis < points_.dims(); ++axis)
        offsets.push_back(points_.coord(p, axis) - centre_[axis]);
    };
    if (used_plane_) {
      for (std::size_t i = 0; i < plane_taken_; ++i) add(ring_[i]);
      return offsets;
    }
    for (const int p : chosen_)
      if (points_.distance_to(p, centre_) == radius) add(p);
    return offsets;
  }

  /// Remembers the k-th distance of the current centre (the next search starts from it).
  void note_radius(int radius) {
    if (!plane_) return;
    previous_radius_ = radius;
    previous_centre_ = centre_;
  }

  /// Exact evaluation; in 2D with k small against n by line counts (plane_sums.hpp), and the
  /// selection only for a new best. Sets sum_ and returns the k-th distance.
  int evaluate_fast(std::span<const int> pos) {
    // Large k against n: the scan (which skips re-scoring an unchanged set) is cheaper.
    if (!plane_) return evaluate_exactly(pos);
    int at_least = 0;
    if (previous_radius_ >= 0) {
      at_least = previous_radius_;
      for (int axis = 0; axis < points_.dims(); ++axis)
        at_least -= points_.axis_distance(axis, previous_centre_[axis], centre_[axis]);
    }
    int inside = 0;
    const int radius = plane_->kth_distance(centre_.data(), k_, at_least, inside);
    note_radius(radius);
    ring_.clear();
    grid_.ring(centre_.data(), radius, ring_);
    const std::size_t take = static_cast<std::size_t>(k_ - inside);
    if (ring_.size() > take)
      std::nth_element(ring_.begin(), ring_.begin() + (take - 1), ring_.end());
    poll_.add(8LL * radius + 8);
    sum_ = plane_->sum(centre_.data(), k_, radius, std::span<const int>(ring_.data(), take));
    used_plane_ = true;
    plane_taken_ = take;
    if (sum_ < best_sum_) {
      evaluate_exactly(pos);  // a new best: its set is needed
      used_plane_ = false;    // chosen_ holds it
    }
    return radius;
  }

  /// Exact evaluation, by rings when the grid is usable and k small against n (rings visit
  /// about k / density cells), else by computing every distance; sets sum_ and returns the
  /// distance of the k-th nearest point.
  int evaluate_exactly(std::span<const int> pos) {
    if (grid_.usable() && 8LL * k_ <= points_.size()) return evaluate_by_rings();
    poll_.add(points_.size() + k_);
    return evaluate_by_scan(pos);
  }

  /// Exact evaluation by rings; sets sum_ and returns the last ring's radius.
  int evaluate_by_rings() {
    poll_.add(k_);
    // The walk pays its set-up when it is the main evaluator (not beside the line counts, which
    // call this only for a new best).
    if (!walk_ && points_.dims() <= 3 && !plane_) prepare_walk(k_);
    if (walk_ && walk_->usable()) {
      const int radius = walk_->evaluate(centre_.data(), k_, chosen_, sum_);
      if (radius >= 0) {
        poll_.add(static_cast<std::int64_t>(chosen_.size()) * points_.dims());
        keep_if_better();
        return radius;
      }
    }
    const int radius = grid_.k_nearest(centre_.data(), k_, chosen_, ring_);
    poll_.add(static_cast<std::int64_t>(chosen_.size()) + 2LL * points_.dims() * radius);
    sum_ = grid_.pair_sum_near(centre_.data(), radius, chosen_, wide_scratch_);
    keep_if_better();
    return radius;
  }

  void keep_if_better() {
    if (sum_ < best_sum_) {
      best_sum_ = sum_;
      best_ = chosen_;
      std::sort(best_.begin(), best_.end());
    }
  }

  void build_scan_tables() {
    if (tables_built_) return;
    tables_built_ = true;
    const int d = points_.dims();
    tables_.resize(d);
    key_limit_ = 0;
    for (int axis = 0; axis < d; ++axis) {
      const auto& vals = index_->values[axis];
      const auto& centres = centre_values_[axis];
      auto& table = tables_[axis];
      table.resize(centres.size() * vals.size());
      int worst = 0;
      for (std::size_t c = 0; c < centres.size(); ++c) {
        for (std::size_t v = 0; v < vals.size(); ++v) {
          table[c * vals.size() + v] = points_.axis_distance(axis, centres[c], vals[v]);
          worst = std::max(worst, table[c * vals.size() + v]);
        }
        poll_.add(static_cast<std::int64_t>(vals.size()));
      }
      key_limit_ += worst;
    }
    keys_.resize(points_.size());
  }

  /// The scan with byte keys (byte_key_scan.hpp): the same set and radius as select_by_scan.
  int evaluate_by_small_keys(std::span<const int> pos) {
    for (int axis = 0; axis < points_.dims(); ++axis)
      centre_[axis] = centre_values_[axis][pos[axis]];
    bool changed = false;
    const int radius = byte_scan_->evaluate(centre_.data(), k_, sum_, changed);
    // As evaluate_by_scan: the previous centre's set again cannot be strictly better.
    if (changed && sum_ < best_sum_) {
      byte_scan_->chosen_indices(chosen_);
      keep_if_better();
    }
    return radius;
  }

  /// The k nearest by computing every point's distance (points not on a usable grid).
  int evaluate_by_scan(std::span<const int> pos) {
    if (byte_scan_state_ == 0) {
      workspace_.byte_scan.prepare(points_, *index_, centre_values_);
      byte_scan_ = &workspace_.byte_scan;
      byte_scan_state_ = byte_scan_->usable() ? 1 : 2;
      poll_.add(static_cast<std::int64_t>(points_.size()) * points_.dims());
    }
    if (byte_scan_state_ == 1) return evaluate_by_small_keys(pos);
    if (points_.size() > 0 && index_->rank[0].empty()) {
      workspace_.ranked_index.build(points_);
      index_ = &workspace_.ranked_index;
    }
    const int radius = select_by_scan(pos);
    // The scan lists the set in index order: the same set as the previous centre has the same
    // sum and cannot be strictly better, so it is not scored again.
    if (chosen_ == previous_) return radius;
    previous_ = chosen_;
    sum_ = indexed_pair_sum(points_, *index_, chosen_, scratch_);
    keep_if_better();
    return radius;
  }

  /// The k nearest by their distance keys (counting selection); returns the k-th distance.
  int select_by_scan(std::span<const int> pos) {
    build_scan_tables();
    const int n = points_.size(), d = points_.dims();
    const int* row0 = tables_[0].data() + pos[0] * index_->values[0].size();
    const std::int32_t* rank0 = index_->rank[0].data();
    if (d == 1) {
      for (int i = 0; i < n; ++i) keys_[i] = row0[rank0[i]];
    } else if (d == 2) {
      const int* row1 = tables_[1].data() + pos[1] * index_->values[1].size();
      const std::int32_t* rank1 = index_->rank[1].data();
      for (int i = 0; i < n; ++i) keys_[i] = row0[rank0[i]] + row1[rank1[i]];
    } else {
      for (int i = 0; i < n; ++i) keys_[i] = 0;
      for (int axis = 0; axis < d; ++axis) {
        const int* row = tables_[axis].data() + pos[axis] * index_->values[axis].size();
        const auto& rank = index_->rank[axis];
        for (int i = 0; i < n; ++i) keys_[i] += row[rank[i]];
      }
    }
    if (key_limit_ > 8 * n + 4096) {
      select_smallest_keys(keys_, k_, key_limit_, histogram_, chosen_);
      int radius = 0;
      for (const int p : chosen_) radius = std::max<int>(radius, keys_[p]);
      return radius;
    }
    // Counting selection (as select_smallest_keys): all keys below the threshold, then the
    // lowest indices at the threshold.
    histogram_.assign(key_limit_ + 1, 0);
    for (int i = 0; i < n; ++i) ++histogram_[keys_[i]];
    int below = 0, threshold = 0;
    while (below + histogram_[threshold] < k_) below += histogram_[threshold++];
    int at_threshold = k_ - below;
    chosen_.resize(k_);
    int* out = chosen_.data();
    for (int i = 0; i < n; ++i) {
      const int key = keys_[i];
      if (key < threshold) {
        *out++ = i;
      } else if (key == threshold && at_threshold > 0) {
        *out++ = i;
        --at_threshold;
      }
    }
    return threshold;
  }

  const PointSet& points_;
  int k_;
  const AxisIndex* index_;  // the caller's, or the workspace's ranked index once ranks are needed
  ScanWorkspace& workspace_;
  NearestGrid& grid_;
  const std::vector<std::vector<int>>& centre_values_;
  std::vector<int>&centre_, &ring_centre_, &ring_, &previous_;
  std::vector<std::vector<int>>& tables_;  // [axis][centre pos * distinct values + value rank]
  bool tables_built_ = false;
  int key_limit_ = 0;
  std::vector<std::int32_t>& keys_;
  ByteKeyScan* byte_scan_ = nullptr;
  int byte_scan_state_ = 0;  // 0 not yet set up, 1 used, 2 keys do not fit bytes
  std::vector<int>&histogram_, &chosen_, &scratch_, &best_;
  std::vector<std::int64_t>& wide_scratch_;
  std::int64_t sum_ = 0;
  std::int64_t best_sum_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t evaluated_ = 0;
  std::int64_t stop_at_ = -1;
  bool stop_on_torus_ = false;  // stop_at_ uses the torus bound (k > 1)
  int cap_ = 0;
  bool every_axis_wraps_ = true;
  std::int64_t box_ = 1;  // cells of the grid's box (when the grid is usable)
  NearestMemo own_memo_;
  NearestMemo* memo_ = nullptr;
  std::unique_ptr<PlaneSums> plane_;
  int lexicographic_ = -1;        // lexicographic(): not yet known, no, yes
  BallWalk* walk_ = nullptr;      // prepared at the first evaluation by rings
  PrefixCache* cache_ = nullptr;  // the workspace's, when this call uses it
  NearestMemo* memo_of_cache_ = nullptr;
  bool consecutive_axis0_ = false;  // cell_part_[0][p] = p for every p
  std::vector<int>& previous_centre_;
  int previous_radius_ = -1;
  bool used_plane_ = false;      // the last exact sum came from plane_ (M in ring_)
  std::size_t plane_taken_ = 0;  // |M| then
  std::uint64_t last_key_ = ~std::uint64_t{0};
  std::uint64_t key_base_ = 1;
  std::vector<std::vector<std::uint64_t>>& class_part_;  // [axis][centre position]
  std::vector<std::vector<std::int64_t>>& cell_part_;    // [axis][centre position]
  NearestMemo::Entry* last_entry_ = nullptr;
  TimeLimitPoll poll_;
};

}  // namespace allocsim::geom::detail
