#pragma once
// Private helper of nearest_scan.hpp: MM's sums S_k(c) kept between calls (e.g. an allocator's
// consecutive decisions, where the free set changes only by the nodes of the jobs that started
// or ended), per centre cell c of the occupancy grid's box and for every k up to a cap, so that
// a call re-walks only the centres near a change.
//
// Let T_c be the order of the box's cells by (L1 distance from c, cell number), the cell number
// being lexicographic in the coordinates (last axis most significant). When the points' indices
// are lexicographic too, the k nearest points of c with ties by lower index are the first k
// free cells of T_c, so S_k(c) = P_k(c), the pairwise sum of the first k free cells of T_c; the
// cache holds P_1(c) … P_m(c) and the distances ρ_1 ≤ … ≤ ρ_m of those cells.
//   Claim. Let the box and the rings be the same at two calls, and let δ be the L1 distance
//   (ring-aware, within the box) from c to the nearest cell whose status (free or not) differs
//   between them. Then for every j with ρ_j < δ, P_j(c) is the same at both calls.
//   Proof. The cells up to the j-th free one in T_c are at distance ≤ ρ_j < δ from c, so each
//   has the same status at both calls: the free cells among them, and so the first j free cells
//   of T_c, are the same. Distances between cells do not change, so neither does their sum. ∎
//   Cells outside the box hold no point at either call (on mesh axes the box is the points'
//   bounding box, a change of which empties the cache; on torus axes it is the whole ring), so
//   only the box's cells can differ. Applied call after call, with δ the distance to the nearest
//   change since the prefix was computed, the prefix stays exact for the j with ρ_j below it: the
//   cache keeps per cell the number of such j (`valid`), lowered at each call by a search from the
//   changed cells outward to the largest stored ρ (a breadth-first search over the box is exact
//   for L1 distance: every axis step costs 1, the box is convex on mesh axes and whole on torus
//   axes; a cell farther than the largest ρ keeps every entry). Its first `valid` points are
//   then still the same, so a recomputation adds only the later ones to P_valid. So a centre
//   with k ≤ valid gets S_k(c) exactly; the scan visits the centres in the
//   same order with the same strict-improvement rule and early stop, and recomputes the set of a
//   new best exactly, so every field of the answer is unchanged.
// Bound. A centre whose kept sums are exact only up to v < k has S_k(c) ≥ P_v(c) + Σ_{j=v+1..k}
// β(j − 1), β(t) the sum of the t least distances from a point of Z^d to others. Proof. The
// first v of its k nearest are still those of P_v (the claim), and S_k(c) − P_v(c) = Σ_{j>v}
// Σ_{i<j} d(x_i, x_j); the x_i are j − 1 points other than x_j, and for every r a point of a
// mesh or torus has at most as many others within distance r as a point of Z^d (the ball of
// Z^d maps onto the torus's), so the t-th least distance from x_j to others is at least Z^d's
// and that inner sum at least β(j − 1). ∎ A centre with a bound no lower than the best is
// counted without a walk (only a strictly lower sum replaces the best): the answer is unchanged.
// A prefix is computed by the ball walk (ball_walk.hpp, exact up to its halo: beyond it fewer
// than m points are stored and larger k take the scan's other paths), each point's distances to
// the earlier ones added to the running sum. Memory: at most kMaxEntries prefix entries (5 bytes
// each: about 40 MB) plus 7 + 4·d bytes per cell; larger boxes keep shorter prefixes (none
// below 2). Boxes under kMinBox cells do without (nearest_scan.hpp). A cell whose walk stopped
// short of k at the halo is not walked again for k until something near it changes (the
// scan's other, exact paths evaluate it meanwhile).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "allocsim/geom/point_set.hpp"
#include "ball_walk.hpp"
#include "nearest_grid.hpp"

namespace allocsim::geom::detail {

/// Sums up to this bound fit the 32-bit comparison of all_known_no_better.
inline constexpr std::int64_t kSkipLimit = 0xffffffffLL;

/// True when the 16 cells from `valid` / `sums` (PrefixCache::valid_counts, sums_of(k)) all
/// know their sum for k and none is below `best` (≤ kSkipLimit).
inline bool all_known_no_better(const std::uint8_t* valid, const std::uint32_t* sums, int k,
                                std::int64_t best) {
#if defined(__SSE2__)
  const __m128i counts = _mm_loadu_si128(reinterpret_cast<const __m128i*>(valid));
  const __m128i least = _mm_set1_epi8(static_cast<char>(k));
  // counts ≥ k (unsigned) ⟺ max(counts, k) = counts.
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(counts, least), counts)) != 0xffff)
    return false;
  // sums ≥ best (unsigned) ⟺ not best > sums, compared with the sign bits flipped.
  const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m128i bound = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(best)), flip);
  __m128i below = _mm_setzero_si128();
  for (int i = 0; i < 16; i += 4) {
    const __m128i v =
        _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(sums + i)), flip);
    below = _mm_or_si128(below, _mm_cmpgt_epi32(bound, v));
  }
  return _mm_movemask_epi8(below) == 0;
#else
  for (int i = 0; i < 16; ++i)
    if (valid[i] < k || sums[i] < best) return false;
  return true;
#endif
}

class PrefixCache {
 public:
  static constexpr int kMaxPrefix = 64;
  static constexpr std::int64_t kMaxEntries = std::int64_t{1} << 23;
  static constexpr std::int64_t kMinBox = 512;  // boxes of fewer cells do without the cache

  /// Forgets everything (the next sync starts afresh).
  void clear() {
    dims_ = 0;
    capacity_ = 0;
  }

  /// Brings the cache to the free cells of `grid` (usable, built on `points` listed
  /// lexicographically): another box, rings or dimension empties it, else the cells whose status
  /// changed since the last sync lower the valid prefixes they can affect (see the claim).
  void sync(const PointSet& points, const NearestGrid& grid) {
    const int d = points.dims();
    std::int64_t volume = 1;
    bool same = d == dims_;
    for (int axis = 0; axis < d; ++axis) {
      volume *= grid.length(axis);
      same = same && lo_[axis] == grid.low(axis) && len_[axis] == grid.length(axis) &&
             ring_[axis] == points.ring(axis);
    }
    if (!same || volume != volume_) {
      reset(points, grid, volume);
      return;
    }
    if (capacity_ == 0) return;
    changed_.clear();
    const std::int32_t* cells = grid.cells();
    std::int64_t cell = 0;
#if defined(__SSE2__)
    // 16 cells at a time: their status packed to bytes (0 / 1) against the kept ones.
    const __m128i one = _mm_set1_epi8(1), none = _mm_set1_epi32(-1);
    for (; cell + 16 <= volume_; cell += 16) {
      __m128i words[4];
      for (int i = 0; i < 4; ++i)
        words[i] =
            _mm_cmpgt_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(cells + cell) + i),
                            none);  // all ones where the cell holds a point
      const __m128i now = _mm_and_si128(
          _mm_packs_epi16(_mm_packs_epi32(words[0], words[1]), _mm_packs_epi32(words[2], words[3])),
          one);
      const __m128i before = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&occupied_[cell]));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(now, before)) == 0xffff) continue;
      for (std::int64_t c = cell; c < cell + 16; ++c) note_status(c, cells[c] >= 0);
    }
#endif
    for (; cell < volume_; ++cell) note_status(cell, cells[cell] >= 0);
    if (!changed_.empty()) lower_validity();
  }

  /// A lower bound on S_k(c) for the centre in `cell` (k ≤ capacity()), from its still-exact
  /// P_v (v = the valid count, below k) and, for each later point j, the least sum of
  /// distances from a point of Z^d to j − 1 others (see "Bound" in the file comment).
  std::int64_t lower_bound(std::int64_t cell, int k) const {
    const int v = std::min<int>(valid_[cell], k);
    return (v > 0 ? static_cast<std::int64_t>(sums_[(v - 1) * volume_ + cell]) : 0) + least_[k] -
           least_[v];
  }

  /// The longest prefix kept (0: the cache is not in use).
  int capacity() const {
    return capacity_;
  }

  /// S_k of the centre in `cell`, or −1 when not known.
  std::int64_t known_sum(std::int64_t cell, int k) const {
    return valid_[cell] >= k ? static_cast<std::int64_t>(sums_[(k - 1) * volume_ + cell]) : -1;
  }
  /// Per cell, how many leading sums are known (index by cell); the sums P_k by cell.
  const std::uint8_t* valid_counts() const {
    return valid_.data();
  }
  const std::uint32_t* sums_of(int k) const {
    return sums_.data() + (k - 1) * volume_;
  }
  /// True when the cell's last prefix stopped short of k at the walk's halo and nothing near
  /// it changed since (computing it again would stop there again: the other paths are used).
  bool short_of(std::int64_t cell, int k) const {
    return k > short_[cell];
  }
  /// P_j of the cell (j ≤ the count compute() returned).
  std::int64_t sum(std::int64_t cell, int j) const {
    return sums_[(j - 1) * volume_ + cell];
  }

  /// Computes the prefix of the centre in `cell` (up to the largest k asked so far, at least k,
  /// at most capacity()) with `walk` (prepared on the synced points); `order` gets its points
  /// as the walk lists them (index << 32 | offset number). Returns how many were computed.
  int compute(BallWalk& walk, const int* centre, std::int64_t cell, int k,
              std::vector<std::uint64_t>& order) {
    target_ = std::min(capacity_, std::max(target_, k));
    walk.ordered_nearest(centre, target_, order, radii_);
    const int m = static_cast<int>(order.size());
    for (int axis = 0; axis < dims_; ++axis)
      for (int j = 0; j < m; ++j) steps_[axis][j] = walk.step(axis, order[j] & 0xffffffffu);
    // The entries still valid are the same points (the claim): only the later ones are summed.
    const int kept = std::min<int>(valid_[cell], m);
    pair_increments(kept, m, walk.halo());
    std::uint32_t total = kept > 0 ? sums_[(kept - 1) * volume_ + cell] : 0;
    for (int j = kept; j < m; ++j) {
      total += added_[j];
      sums_[j * volume_ + cell] = total;
      radii_store_[cell * capacity_ + j] = radii_[j];
    }
    valid_[cell] = static_cast<std::uint8_t>(m);
    short_[cell] = static_cast<std::uint8_t>(m < target_ ? m : kMaxPrefix + 1);
    if (m > 0) largest_radius_ = std::max<int>(largest_radius_, radii_[m - 1]);
    return m;
  }

 private:
  /// Keeps the cell's status, listing it as changed when it differs from the kept one.
  void note_status(std::int64_t cell, bool holds) {
    const std::uint8_t now = holds ? 1 : 0;
    if (now == occupied_[cell]) return;
    occupied_[cell] = now;
    changed_.push_back(cell);
  }

  /// added_[j] = Σ_{i<j} d(point i, point j) for from ≤ j < m over the prefix's points, from their
  /// steps (steps_): per axis |s_i − s_j|, folded to L − |s_i − s_j| when shorter around a ring of
  /// length L (|s_i − s_j| ≤ 2·halo < L: the walk's rings are at least 2·halo + 1 long). With
  /// SSE2, 16 points at a time on bytes (steps + 128), summed by psadbw.
  void pair_increments(int from, int m, int halo) {
    bool bytes = true;
    int fold[3] = {0, 0, 0};  // ring length to fold at, or 0
    for (int axis = 0; axis < dims_; ++axis) {
      const int ring = ring_[axis];
      if (ring > 0 && ring < 4 * halo) fold[axis] = ring;  // else |Δ| ≤ ring / 2 always
      bytes = bytes && fold[axis] <= 255 && halo <= 100;
    }
    for (int j = 0; j < m; ++j) added_[j] = 0;
#if defined(__SSE2__)
    if (bytes) {
      alignas(16) std::uint8_t shifted[kMaxPrefix] = {};
      alignas(16) static constexpr std::uint8_t kMask[32] = {
          255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0};
      const __m128i zero = _mm_setzero_si128();
      for (int axis = 0; axis < dims_; ++axis) {
        for (int j = 0; j < m; ++j) shifted[j] = static_cast<std::uint8_t>(steps_[axis][j] + 128);
        const __m128i ring = _mm_set1_epi8(static_cast<char>(fold[axis]));
        for (int j = std::max(from, 1); j < m; ++j) {
          const __m128i x = _mm_set1_epi8(static_cast<char>(shifted[j]));
          __m128i total = zero;
          for (int c = 0; c < j; c += 16) {
            const __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(shifted + c));
            __m128i gap = _mm_or_si128(_mm_subs_epu8(v, x), _mm_subs_epu8(x, v));
            if (fold[axis] > 0) gap = _mm_min_epu8(gap, _mm_sub_epi8(ring, gap));
            if (j - c < 16) {  // only the points before j
              const __m128i keep =
                  _mm_loadu_si128(reinterpret_cast<const __m128i*>(kMask + 16 - (j - c)));
              gap = _mm_and_si128(gap, keep);
            }
            total = _mm_add_epi64(total, _mm_sad_epu8(gap, zero));
          }
          added_[j] += static_cast<std::uint32_t>(_mm_cvtsi128_si32(total) +
                                                  _mm_cvtsi128_si32(_mm_srli_si128(total, 8)));
        }
      }
      return;
    }
#endif
    for (int axis = 0; axis < dims_; ++axis) {
      const int* seen = steps_[axis];
      for (int j = std::max(from, 1); j < m; ++j) {
        std::uint32_t along = 0;
        for (int i = 0; i < j; ++i) {
          const int gap = std::abs(seen[i] - seen[j]);
          along +=
              static_cast<std::uint32_t>(fold[axis] > 0 ? std::min(gap, fold[axis] - gap) : gap);
        }
        added_[j] += along;
      }
    }
  }

  void reset(const PointSet& points, const NearestGrid& grid, std::int64_t volume) {
    dims_ = points.dims();
    volume_ = volume;
    std::int64_t stride = 1;
    for (int axis = 0; axis < dims_; ++axis) {
      lo_[axis] = grid.low(axis);
      len_[axis] = grid.length(axis);
      ring_[axis] = points.ring(axis);
      stride_[axis] = stride;
      stride *= len_[axis];
    }
    // least_[j] = Σ_{t<j} β(t), β(t) the sum of the t least distances from a point of Z^d to
    // others: N(r) points at distance r, N(r) = 2 (d = 1), 4r (d = 2), 4r² + 2 (d = 3).
    least_[0] = 0;
    std::int64_t beta = 0;
    for (int t = 0, r = 1, left = 0; t < kMaxPrefix; ++t) {
      least_[t + 1] = least_[t] + beta;  // β(t) for the points t + 1 (t before it)
      while (left == 0) {
        left = dims_ == 1 ? 2 : dims_ == 2 ? 4 * r : 4 * r * r + 2;
        ++r;
      }
      beta += r - 1;  // the (t + 1)-th nearest other point is at distance r − 1
      --left;
    }
    capacity_ = static_cast<int>(std::min<std::int64_t>(kMaxPrefix, kMaxEntries / volume));
    if (capacity_ < 2) capacity_ = 0;
    target_ = 0;
    largest_radius_ = 0;
    const std::size_t entries = static_cast<std::size_t>(volume) * capacity_;
    sums_.resize(entries);
    radii_store_.resize(entries);
    valid_.assign(static_cast<std::size_t>(capacity_ > 0 ? volume : 0), 0);
    short_.assign(valid_.size(), kMaxPrefix + 1);
    occupied_.resize(valid_.size());
    for (std::size_t cell = 0; cell < occupied_.size(); ++cell)
      occupied_[cell] = grid.holds(static_cast<std::int64_t>(cell)) ? 1 : 0;
    seen_.assign(valid_.size(), 0);
    stamp_ = 0;
    for (int axis = 0; axis < dims_; ++axis) {
      position_[axis].resize(valid_.size());
      for (std::size_t cell = 0; cell < valid_.size(); ++cell)
        position_[axis][cell] = static_cast<std::int32_t>(
            (static_cast<std::int64_t>(cell) / stride_[axis]) % len_[axis]);
    }
  }

  /// Breadth-first from the changed cells up to the largest stored radius: a cell at distance
  /// δ keeps valid only its prefix entries with ρ_j < δ.
  void lower_validity() {
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    frontier_.clear();
    for (const std::int64_t cell : changed_) {
      seen_[cell] = stamp_;
      frontier_.push_back(cell);
    }
    for (int depth = 0; depth <= largest_radius_ && !frontier_.empty(); ++depth) {
      next_.clear();
      for (const std::int64_t cell : frontier_) {
        short_[cell] = kMaxPrefix + 1;
        // ρ_j ascends with j: keep the entries below `depth`.
        int valid = valid_[cell];
        while (valid > 0 && radii_store_[cell * capacity_ + valid - 1] >= depth) --valid;
        valid_[cell] = static_cast<std::uint8_t>(valid);
        if (depth == largest_radius_) continue;
        for (int axis = 0; axis < dims_; ++axis) {
          const int x = position_[axis][cell];
          const int len = len_[axis];
          const bool wraps = ring_[axis] > 0;
          for (const int step : {-1, 1}) {
            int y = x + step;
            if (y < 0 || y >= len) {
              if (!wraps) continue;
              y = (y + len) % len;
            }
            const std::int64_t neighbour = cell + (y - x) * stride_[axis];
            if (seen_[neighbour] == stamp_) continue;
            seen_[neighbour] = stamp_;
            next_.push_back(neighbour);
          }
        }
      }
      frontier_.swap(next_);
    }
  }

  int dims_ = 0;
  int lo_[3] = {0, 0, 0}, len_[3] = {0, 0, 0}, ring_[3] = {0, 0, 0};
  std::int64_t stride_[3] = {0, 0, 0};
  std::int64_t volume_ = 0;
  int capacity_ = 0;        // prefix entries per cell (0: not in use)
  int target_ = 0;          // prefix length computed: the largest k asked, up to capacity_
  int largest_radius_ = 0;  // the largest ρ stored
  // By j, then cell (a scan reads consecutive centres' sums for one k side by side).
  std::vector<std::uint32_t> sums_;        // [(j − 1) · volume + cell]: P_j
  std::vector<std::uint8_t> radii_store_;  // [cell · capacity_ + j − 1]: ρ_j
  std::vector<std::uint8_t> valid_;        // per cell: leading entries still exact
  std::vector<std::uint8_t> short_;        // per cell: prefix length if the walk stopped short
  std::vector<std::uint8_t> occupied_;     // per cell: free at the last sync
  std::vector<std::uint32_t> seen_;        // per cell: stamp_ when reached by this sync's search
  std::vector<std::int32_t> position_[3];  // per axis and cell: the cell's coordinate in the box
  std::uint32_t stamp_ = 0;
  std::vector<std::int64_t> changed_, frontier_, next_;
  std::vector<std::uint8_t> radii_;          // compute()'s walk output
  std::int64_t least_[kMaxPrefix + 1] = {};  // least_[j]: Σ_{t<j} β(t) (see "Bound")
  int steps_[3][kMaxPrefix] = {};            // compute(): the points' steps per axis
  std::uint32_t added_[kMaxPrefix] = {};     // compute(): pair_increments' output
};

}  // namespace allocsim::geom::detail
