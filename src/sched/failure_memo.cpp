// Failed searches of one compression walk (sched/failure_memo.hpp).
#include "allocsim/sched/failure_memo.hpp"

#include <algorithm>

namespace allocsim {

void FailureMemo::clear() { recorded_ = 0; }

void FailureMemo::subtract(int need, double duration, std::vector<Span>& spans) {
  open_.need = need;
  open_.duration = duration;
  open_.count = 0;
  const std::size_t held = std::min(recorded_, kRing);
  for (std::size_t k = 0; k < held && !spans.empty(); ++k) {
    const Failure& failure = failures_[(recorded_ - 1 - k) % kRing];  // newest first
    if (failure.need > need || failure.duration > duration) continue;
    for (std::size_t c = 0; c < failure.count; ++c) {
      const Span covered = failure.spans[c];
      cover(covered);
      scratch_.clear();
      for (const Span& span : spans) {
        if (!(covered.lo < span.hi && span.lo < covered.hi)) {
          scratch_.push_back(span);
          continue;
        }
        if (span.lo < covered.lo) scratch_.push_back({span.lo, covered.lo});
        if (covered.hi < span.hi) scratch_.push_back({covered.hi, span.hi});
      }
      spans.swap(scratch_);
    }
  }
}

void FailureMemo::cover(Span span) {
  if (!(span.lo < span.hi)) return;
  // Merged with the spans it overlaps or touches; kept sorted by lo.
  Span* begin = open_.spans;
  Span* end = open_.spans + open_.count;
  Span* at = std::lower_bound(begin, end, span.lo,
                              [](const Span& s, double lo) { return s.hi < lo; });
  Span* last = at;
  while (last != end && last->lo <= span.hi) {
    span.lo = std::min(span.lo, last->lo);
    span.hi = std::max(span.hi, last->hi);
    ++last;
  }
  if (at != last) {  // replaces [at, last)
    *at = span;
    std::copy(last, end, at + 1);
    open_.count -= static_cast<std::size_t>(last - at) - 1;
    return;
  }
  if (open_.count == kSpans) return;  // full: dropped
  std::copy_backward(at, end, end + 1);
  *at = span;
  ++open_.count;
}

void FailureMemo::commit() {
  if (open_.count == 0) return;
  failures_[recorded_ % kRing] = open_;
  ++recorded_;
}

}  // namespace allocsim
