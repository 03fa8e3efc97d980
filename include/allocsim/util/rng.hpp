#pragma once
// Deterministic random numbers. Distributions are written here (not std::*_distribution, whose
// output differs between standard libraries) so results are bit-identical everywhere.
#include <cmath>
#include <cstdint>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

namespace allocsim {

/// 64-bit Mersenne Twister with portable uniform / exponential / integer draws.
class Rng {
 public:
  explicit Rng(std::uint64_t seed = 1) : engine_(seed) {}

  std::uint64_t next() { return engine_(); }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [lo, hi] (inclusive), unbiased by rejection.
  std::int64_t uniform_int(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t range = static_cast<std::uint64_t>(hi - lo) + 1;
    if (range == 0) return static_cast<std::int64_t>(engine_());
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    std::uint64_t draw;
    do draw = engine_();
    while (draw >= limit);
    return lo + static_cast<std::int64_t>(draw % range);
  }
  /// Fisher-Yates shuffle of `values` with these portable draws (std::shuffle's are not
  /// portable): from the back, each element swapped with a uniform one at or before it.
  template <class T>
  void shuffle(std::vector<T>& values) {
    for (std::size_t i = values.size(); i > 1; --i)
      std::swap(values[i - 1],
                values[static_cast<std::size_t>(uniform_int(0, static_cast<std::int64_t>(i) - 1))]);
  }
  /// Exponential with the given mean.
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }

 private:
  std::mt19937_64 engine_;
};

/// Mixes two 64-bit values into one seed (splitmix64 finaliser), e.g. experiment seed + config id.
std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b);
/// Stable 64-bit FNV-1a hash of a string (used for config ids).
std::uint64_t stable_hash(std::string_view text);

}  // namespace allocsim
