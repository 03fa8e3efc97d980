#pragma once
// The pass times a scheduler has asked for and not yet reached, handed to the simulation one at
// a time (sched/compressing.hpp asks for a pass at every new reservation start).
//
// Why: conservative backfilling asks for millions of pass times on a loaded trace (SDSC-BLUE
// with arrivals x0.8: 5.5 M, 2.6 M distinct, up to 240 k pending at once). Pushed straight into
// the simulation's binary heap, popping them cost as much as a whole EASY run. Here they wait in
// a radix heap (a monotone priority queue: every time pushed is after the last time popped,
// which holds because passes only move forward), and the simulation is asked only for the
// earliest pending time; at that pass the next one is asked. The set of pass times is unchanged:
// the last pass before a pending time t asks for a time <= t, so the next pass is at t.
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace allocsim {

/// Monotone min-queue of times (radix heap on the times' order-preserving bit patterns): push
/// only times after the last time popped. Duplicates are kept and popped together.
class PassTimes {
 public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  /// Forgets every time.
  void clear() {
    for (auto& bucket : buckets_) bucket.clear();
    used_ = 0;
    size_ = 0;
    last_ = 0;
    has_least_ = false;
  }
  /// Adds `time` (finite, after every time popped).
  void push(double time) {
    const std::uint64_t key = key_of(time);
    const std::size_t b = bucket_of(key);
    buckets_[b].push_back(key);
    mark(b);
    ++size_;
    if (has_least_ && key < least_) least_ = key;
  }
  /// The earliest time (not empty).
  double min() { return time_of(least()); }
  /// Drops every time <= `now`.
  void pop_until(double now) {
    const std::uint64_t limit = key_of(now);
    while (size_ != 0 && least() <= limit) {
      // The least key becomes last_: only its bucket's keys change bucket (all to lower ones),
      // and it alone, with its duplicates, lands in bucket 0.
      const std::size_t b = first_used();
      if (b != 0) {
        std::vector<std::uint64_t>& from = buckets_[b];
        last_ = least_;
        for (std::uint64_t key : from) {
          const std::size_t to = bucket_of(key);
          buckets_[to].push_back(key);
          mark(to);
        }
        from.clear();
        unmark(b);
      }
      size_ -= buckets_[0].size();
      buckets_[0].clear();
      unmark(0);
      has_least_ = false;
    }
  }

 private:
  /// Order-preserving map of doubles to unsigned integers (negative values reversed).
  static std::uint64_t key_of(double time) {
    const auto bits = std::bit_cast<std::uint64_t>(time + 0.0);  // -0 as +0
    return bits >> 63 ? ~bits : bits | (std::uint64_t{1} << 63);
  }
  static double time_of(std::uint64_t key) {
    return std::bit_cast<double>(key >> 63 ? key & ~(std::uint64_t{1} << 63) : ~key);
  }
  /// Bucket 0 holds keys equal to last_; bucket b > 0 the keys whose highest bit differing
  /// from last_ is bit b - 1 (all keys are >= last_, the last key popped).
  std::size_t bucket_of(std::uint64_t key) const {
    return key == last_ ? 0 : 64 - static_cast<std::size_t>(std::countl_zero(key ^ last_));
  }
  /// The least key (not empty): in the first non-empty bucket, every key of which is below
  /// those of the later buckets. Kept until a pop.
  std::uint64_t least() {
    if (has_least_) return least_;
    const std::size_t b = first_used();
    least_ = buckets_[b].front();
    for (std::uint64_t key : buckets_[b]) least_ = key < least_ ? key : least_;
    has_least_ = true;
    return least_;
  }

  /// Bit b of used_ says bucket b < 64 is not empty (bucket 64 is the last: not marked). (Was:
  /// a scan of the buckets for the first non-empty one.)
  void mark(std::size_t b) {
    if (b < 64) used_ |= std::uint64_t{1} << b;
  }
  void unmark(std::size_t b) {
    if (b < 64) used_ &= ~(std::uint64_t{1} << b);
  }
  /// The first non-empty bucket (not empty).
  std::size_t first_used() const {
    return used_ != 0 ? static_cast<std::size_t>(std::countr_zero(used_)) : 64;
  }

  std::array<std::vector<std::uint64_t>, 65> buckets_;
  std::uint64_t used_ = 0;
  std::size_t size_ = 0;
  std::uint64_t last_ = 0;
  std::uint64_t least_ = 0;
  bool has_least_ = false;
};

}  // namespace allocsim
