#pragma once
// A TimeLimit for tests that counts its questions instead of reading a clock.
#include <cstdint>

#include "allocsim/util/error.hpp"
#include "allocsim/util/time_limit.hpp"

namespace allocsim::testing {

/// A time limit that is spent at its `fire_at`-th question (never when fire_at is 0).
class CountingLimit final : public TimeLimit {
 public:
  explicit CountingLimit(std::int64_t fire_at = 0) : fire_at_(fire_at) {}
  void check_time_limit() const override {
    ++asked_;
    if (fire_at_ > 0 && asked_ >= fire_at_) throw TimeoutError("test time limit spent");
  }
  std::int64_t asked() const { return asked_; }

 private:
  std::int64_t fire_at_;
  mutable std::int64_t asked_ = 0;
};

}  // namespace allocsim::testing
