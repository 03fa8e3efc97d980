#pragma once
// Private helper of mm.cpp: MM's per-point scan (large k, or points off a usable grid) when
// every L1 distance is a small integer (< 255: machines of a few hundred positions per axis).
// The keys are bytes, so one SSE2 instruction compares 16 of them, and the chosen set is a
// bitmask (word w, bit b = point 64·w + b): telling whether a centre chose the same set as the
// previous one costs n / 64 word compares, and the set's per-axis histograms are updated by
// the points that entered or left rather than rebuilt.
//
// Exactness: the threshold t is the key with below(t) < k ≤ below(t) + equal(t), where below
// and equal count keys < t and = t; the set is every key < t plus the k − below(t) lowest
// indices with key = t: the same rule as select_smallest_keys (point_set.hpp). A key is the
// sum over axes of |x − c| (min(|x − c|, L − |x − c|) on a ring of length L), computed on the
// coordinates minus the least coordinate of points and centres per axis, which leaves the
// differences unchanged (rings: coordinates already in [0, L)). The pair sum of the set is
// Σ_axes consecutive_pair_sum of its histogram over those shifted coordinates.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "allocsim/geom/point_set.hpp"
#include "axis_index.hpp"
#include "nearest_grid.hpp"

namespace allocsim::geom::detail {

/// Set bits of a word (portable: without a popcount instruction std::popcount is a library call).
inline int bit_count(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

/// The k smallest byte keys, ties by lower index, as a bitmask.
class SmallKeySelection {
 public:
  static constexpr int kMaxKey = 254;  // keys ≤ kMaxKey; padding holds 255

  /// Room for n keys (rounded up to whole words; the padding never counts).
  void resize(int n) {
    n_ = n;
    words_ = (n + 63) / 64;
    keys_.assign(static_cast<std::size_t>(words_) * 64, 0);
    below_.assign(words_, 0);
    equal_.assign(words_, 0);
    chosen_.assign(words_, 0);
  }
  int size() const { return n_; }
  int words() const { return words_; }
  /// The keys to fill (n of them, each ≤ kMaxKey), then call pad().
  std::uint8_t* keys() { return keys_.data(); }
  void pad() { std::fill(keys_.begin() + n_, keys_.end(), std::uint8_t{255}); }

  /// Selects the k (1 ≤ k ≤ n) smallest keys into chosen(), searching the threshold from
  /// `hint`; returns the threshold (the k-th smallest key).
  int select(int k, int hint) {
    int t = std::clamp(hint, 0, kMaxKey);
    int below = count(t);
    while (below >= k) below = count(--t);
    while (below + equal_count_ < k) below = count(++t);
    int take = k - below;
    for (int w = 0; w < words_; ++w) {
      std::uint64_t eq = equal_[w];
      std::uint64_t taken = 0;
      while (take > 0 && eq != 0) {
        const std::uint64_t lowest = eq & (~eq + 1);
        taken |= lowest;
        eq ^= lowest;
        --take;
      }
      chosen_[w] = below_[w] | taken;
    }
    return t;
  }
  const std::vector<std::uint64_t>& chosen() const { return chosen_; }

  /// The chosen points' indices, ascending.
  void chosen_indices(std::vector<int>& out) const {
    out.clear();
    for (int w = 0; w < words_; ++w)
      for (std::uint64_t bits = chosen_[w]; bits != 0; bits &= bits - 1)
        out.push_back(64 * w + std::countr_zero(bits));
  }

 private:
  /// Fills the masks of keys < t and = t; returns the first count (the second in
  /// equal_count_).
  int count(int t) {
    int below = 0, equal = 0;
    for (int w = 0; w < words_; ++w) {
      std::uint64_t lt = 0, eq = 0;
      const std::uint8_t* block = keys_.data() + 64 * static_cast<std::size_t>(w);
#if defined(__SSE2__)
      const __m128i target = _mm_set1_epi8(static_cast<char>(t));
      const __m128i under = _mm_set1_epi8(static_cast<char>(t - 1));
      for (int j = 0; j < 4; ++j) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * j));
        const auto e = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, target)));
        // v ≤ t − 1 (unsigned) ⟺ min(v, t − 1) = v; nothing is below t = 0.
        const auto l = t == 0 ? 0u
                              : static_cast<std::uint32_t>(
                                    _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, under), v)));
        lt |= static_cast<std::uint64_t>(l) << (16 * j);
        eq |= static_cast<std::uint64_t>(e) << (16 * j);
      }
#else
      for (int b = 0; b < 64; ++b) {
        lt |= static_cast<std::uint64_t>(block[b] < t) << b;
        eq |= static_cast<std::uint64_t>(block[b] == t) << b;
      }
#endif
      below_[w] = lt;
      equal_[w] = eq;
      below += bit_count(lt);
      equal += bit_count(eq);
    }
    equal_count_ = equal;
    return below;
  }

  int n_ = 0, words_ = 0;
  int equal_count_ = 0;
  std::vector<std::uint8_t> keys_;
  std::vector<std::uint64_t> below_, equal_, chosen_;
};

/// The byte-key scan over one call's centres (see the file comment).
class ByteKeyScan {
 public:
  /// usable() tells whether every key fits a byte: per axis, mesh coordinates of points and
  /// centres spanning at most 255, rings at most 255 long, and the largest key (the sum of
  /// the spans, or half rings) at most SmallKeySelection::kMaxKey.
  ByteKeyScan(const PointSet& points, const AxisIndex& index,
              const std::vector<std::vector<int>>& centre_values) {
    prepare(points, index, centre_values);
  }
  /// A scan to prepare() later (it keeps its storage between preparations).
  ByteKeyScan() = default;

  /// As the constructor, for a new call (the points are kept by the caller meanwhile).
  void prepare(const PointSet& points, const AxisIndex& index,
               const std::vector<std::vector<int>>& centre_values) {
    points_ = &points;
    d_ = points.dims();
    usable_ = false;
    first_ = true;
    threshold_ = 0;
    const int n = points.size();
    int key_bound = 0;
    low_.assign(d_, 0);
    span_.assign(d_, 0);
    for (int axis = 0; axis < d_; ++axis) {
      const auto& vals = index.values[axis];
      const auto& centres = centre_values[axis];
      if (vals.empty() || centres.empty()) return;
      const int ring = points.ring(axis);
      int lo = std::min(vals.front(), *std::min_element(centres.begin(), centres.end()));
      const int hi = std::max(vals.back(), *std::max_element(centres.begin(), centres.end()));
      if (ring > 0) {
        if (lo < 0 || hi >= ring || ring > 255) return;
        lo = 0;
        key_bound += ring / 2;
      } else {
        if (static_cast<std::int64_t>(hi) - lo > 255) return;
        key_bound += hi - lo;
      }
      low_[axis] = lo;
      span_[axis] = ring > 0 ? ring : hi - lo + 1;
    }
    if (key_bound > SmallKeySelection::kMaxKey || d_ > kMaxAxes) return;
    selection_.resize(n);
    stride_ = static_cast<std::size_t>(selection_.words()) * 64;
    coords_.assign(d_ * stride_, 0);
    for (int axis = 0; axis < d_; ++axis)
      for (int i = 0; i < n; ++i)
        coords_[axis * stride_ + i] = static_cast<std::uint8_t>(points.coord(i, axis) - low_[axis]);
    std::size_t at = 0;
    segment_.resize(d_);
    for (int axis = 0; axis < d_; ++axis) {
      segment_[axis] = at;  // counts, then room for consecutive_pair_sum's prefix sums
      at += 3 * static_cast<std::size_t>(span_[axis] + 1);
    }
    counts_.assign(at, 0);
    previous_.assign(selection_.words(), 0);
    usable_ = true;
  }

  bool usable() const { return usable_; }

  /// The k nearest of `centre` (one of the centre values per axis); returns the k-th distance.
  /// `changed` is false when the set is the previous call's (then `sum` is left alone), else
  /// `sum` is its pair sum.
  int evaluate(const int* centre, int k, std::int64_t& sum, bool& changed) {
    // Locals only in the loops: stores through byte pointers may alias any member, which would
    // keep the loops from vectorising.
    const std::size_t stride = stride_;
    std::uint8_t* keys = selection_.keys();
    std::fill(keys, keys + stride, std::uint8_t{0});
    for (int axis = 0; axis < d_; ++axis) {
      // keys += the axis distance (ring-aware), on bytes so that the loop vectorises.
      const std::uint8_t* x = coords_.data() + axis * stride;
      const auto c = static_cast<std::uint8_t>(centre[axis] - low_[axis]);
      const int ring = points_->ring(axis);
      if (ring > 0) {
        const auto length = static_cast<std::uint8_t>(ring);
        for (std::size_t i = 0; i < stride; ++i) {
          const std::uint8_t gap = x[i] > c ? x[i] - c : c - x[i];
          const std::uint8_t around = length - gap;
          keys[i] = static_cast<std::uint8_t>(keys[i] + (around < gap ? around : gap));
        }
      } else {
        for (std::size_t i = 0; i < stride; ++i)
          keys[i] = static_cast<std::uint8_t>(keys[i] + (x[i] > c ? x[i] - c : c - x[i]));
      }
    }
    selection_.pad();
    const int radius = selection_.select(k, threshold_);
    threshold_ = radius;
    const std::vector<std::uint64_t>& now = selection_.chosen();
    // (Word loops: the masks are a few words, too short for memcmp and memmove to pay.)
    std::uint64_t differ = first_ ? 1 : 0;
    for (std::size_t w = 0; w < now.size(); ++w) differ |= now[w] ^ previous_[w];
    changed = differ != 0;
    if (!changed) return radius;
    first_ = false;
    // Per axis, the histogram to update and the points' coordinates (locals: the counts'
    // stores could alias members of the same width).
    std::int64_t* histogram[kMaxAxes];
    const std::uint8_t* coordinate[kMaxAxes];
    const int d = d_;
    for (int axis = 0; axis < d; ++axis) {
      histogram[axis] = counts_.data() + segment_[axis];
      coordinate[axis] = coords_.data() + axis * stride;
    }
    for (std::size_t w = 0; w < now.size(); ++w) {
      for (std::uint64_t diff = now[w] ^ previous_[w]; diff != 0; diff &= diff - 1) {
        const int bit = std::countr_zero(diff);
        const std::size_t p = 64 * w + static_cast<std::size_t>(bit);
        const std::int64_t step = (now[w] >> bit) & 1 ? 1 : -1;
        for (int axis = 0; axis < d; ++axis) histogram[axis][coordinate[axis][p]] += step;
      }
      previous_[w] = now[w];
    }
    std::int64_t* counts = counts_.data();
    sum = 0;
    for (int axis = 0; axis < d_; ++axis) {
      std::int64_t* h = counts + segment_[axis];
      const int size = span_[axis];
      sum += consecutive_pair_sum(h, size, k, points_->ring(axis), h + size + 1);
    }
    return radius;
  }

  /// The last chosen set's indices, ascending.
  void chosen_indices(std::vector<int>& out) const { selection_.chosen_indices(out); }

 private:
  static constexpr int kMaxAxes = 8;

  const PointSet* points_ = nullptr;
  int d_ = 0;
  bool usable_ = false;
  bool first_ = true;                 // no set chosen yet
  int threshold_ = 0;                 // the previous centre's: the next search starts there
  std::vector<int> low_, span_;       // per axis: least coordinate (0 on rings), values counted
  std::size_t stride_ = 0;            // keys per axis row (n rounded up to whole words)
  std::vector<std::uint8_t> coords_;  // [axis · stride + point]: coordinate − low
  SmallKeySelection selection_;
  std::vector<std::uint64_t> previous_;  // the previous set's mask
  std::vector<std::size_t> segment_;     // per axis: where its counts start in counts_
  std::vector<std::int64_t> counts_;     // the previous set's histograms by coordinate
};

}  // namespace allocsim::geom::detail
