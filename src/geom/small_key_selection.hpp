#pragma once
// Private helper of mm.cpp: the k points with the smallest keys, ties by lower index, when the
// keys are small integers (< 255: L1 distances on machines of a few hundred positions per
// axis). The keys are bytes, so one SSE2 instruction compares 16 of them, and the chosen set
// is a bitmask (word w, bit b = point 64·w + b), so telling whether a centre chose the same
// set as the previous one costs n / 64 word compares instead of a pass over a list.
//
// Exactness: the threshold t is the key with below(t) < k ≤ below(t) + equal(t), where below
// and equal count keys < t and = t; the set is every key < t plus the k − below(t) lowest
// indices with key = t: the same rule as select_smallest_keys (point_set.hpp).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace allocsim::geom::detail {

/// Set bits of a word (portable: without a popcount instruction std::popcount is a library call).
inline int bit_count(std::uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
}

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

}  // namespace allocsim::geom::detail
