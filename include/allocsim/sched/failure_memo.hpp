#pragma once
// Failed searches of one compression walk (sched/compressing.hpp), reused to skip candidates.
//
// Why a failure stays a failure for the rest of the walk: a job Y (need n, duration d, start
// s) whose search found no fit among the breakpoints of [lo, hi) (hi <= s) has, for every time
// t in [T, hi) (T the first breakpoint at or after lo), a witness x in [t, t + d] with
// P(x) < n and x < s: the failing breakpoint of t's window, or t's own step (P(t) < n). (A
// failing breakpoint inside Y's own window [s, s + d) would need P < 0 there; failures are
// recorded only while P >= 0 everywhere.) Later in the walk P before s only goes down: a
// revisited job Z (start s' >= s) gives its nodes back on [s', s' + d'), and takes nodes
// anywhere. So for Z with need >= n and duration >= d, every candidate t in [T, hi) fails on
// the same witness (x < s <= s', outside Z's own window): Z's search skips [T, hi), and what
// Z covers (the spans it searched and those it skipped) covers for the jobs Z dominates.
#include <cstddef>
#include <vector>

namespace allocsim {

/// The candidate times a job's search covers, and the failures recorded in one walk.
class FailureMemo {
 public:
  /// A time span [lo, hi).
  struct Span {
    double lo = 0;
    double hi = 0;
  };
  /// Recent failures looked at for each search.
  static constexpr std::size_t kRing = 16;
  /// Spans kept per failure (more are dropped: covering less is always safe).
  static constexpr std::size_t kSpans = 8;
  /// Forgets every failure (at the start of a walk).
  void clear();
  /// Removes from `spans` the times covered by the recorded failures that dominate a job
  /// (need and duration at least theirs), and opens the job's own record with their spans.
  void subtract(int need, double duration, std::vector<Span>& spans);
  /// Adds a span the job's search proved (see above) to its open record.
  void cover(Span span);
  /// Records the open record as a failure.
  void commit();

 private:
  struct Failure {
    int need = 0;
    double duration = 0;
    std::size_t count = 0;
    Span spans[kSpans];
  };
  Failure failures_[kRing];
  std::size_t recorded_ = 0;  // failures recorded since clear (the ring holds the last kRing)
  Failure open_;
  std::vector<Span> scratch_;
};

}  // namespace allocsim
