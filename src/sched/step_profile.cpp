// The free-node step function (sched/step_profile.hpp).
#include "allocsim/sched/step_profile.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace allocsim {

void StepProfile::reset(double now, int free) {
  points_.assign(1, Point{now, free});
  compacted_size_ = 1;
  count_negatives();
}

void StepProfile::count_negatives() {
  negatives_ = 0;
  for (const Point& point : points_) negatives_ += point.free < 0 ? 1 : 0;
}

std::size_t StepProfile::lower_from(std::size_t from, double time) const {
  return static_cast<std::size_t>(
      std::lower_bound(points_.begin() + static_cast<std::ptrdiff_t>(from), points_.end(), time,
                       [](const Point& point, double t) { return point.time < t; }) -
      points_.begin());
}

std::size_t StepProfile::lower_gallop(std::size_t from, double time) const {
  const std::size_t count = points_.size();
  if (from >= count || !(points_[from].time < time)) return from;
  // Every breakpoint before `low` is before `time`; probe low + step - 1, doubling the step.
  std::size_t low = from + 1, step = 1;
  while (low + step - 1 < count && points_[low + step - 1].time < time) {
    low += step;
    step *= 2;
  }
  const auto first = points_.begin() + static_cast<std::ptrdiff_t>(low);
  const auto last = points_.begin() + static_cast<std::ptrdiff_t>(std::min(low + step - 1, count));
  return static_cast<std::size_t>(
      std::lower_bound(first, last, time,
                       [](const Point& point, double t) { return point.time < t; }) -
      points_.begin());  // (the breakpoint at low + step - 1, if any, is at or after `time`)
}

std::size_t StepProfile::ensure(double time) {
  const std::size_t at = lower(time);
  if (at < points_.size() && points_[at].time == time) return at;
  const int value = points_[at - 1].free;  // time > the first breakpoint (now)
  points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(at), Point{time, value});
  negatives_ += value < 0 ? 1 : 0;
  return at;
}

void StepProfile::add(double from, double to, int delta) {
  add(from, to, delta, 0);
}

void StepProfile::add(double from, double to, int delta, int pin) {
  from = std::max(from, points_.front().time);
  if (!(from < to) || delta == 0) return;
  const std::size_t first = ensure(from);
  std::size_t stop = points_.size();
  if (!std::isinf(to)) {
    stop = lower_from(first + 1, to);  // to > from
    if (stop == points_.size() || points_[stop].time != to) {
      const int value = points_[stop - 1].free;
      points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(stop), Point{to, value});
      negatives_ += value < 0 ? 1 : 0;
    }
    if (stop < points_.size()) points_[stop].pins += pin;
  }
  points_[first].pins += pin;  // (first is 0 when from was before now: its pins are not read)
  shift(first, stop, delta);
}

void StepProfile::move(double from, double to, std::size_t to_index, double duration, int nodes,
                       std::size_t to_stop, std::size_t from_index) {
  if (nodes == 0) return;  // (as add: no breakpoint either)
  // The new window's end, inserted when missing (to < from: before the old window's end).
  const double to_end = to + duration;
  if (to_end > from) {
    move_overlapping(from, to, to_index, duration, nodes, to_stop, from_index);
    return;
  }
  if (to_stop == kNone) to_stop = lower_from(to_index + 1, to_end);
  if (to_stop == points_.size() || points_[to_stop].time != to_end) {
    const int value = points_[to_stop - 1].free;
    points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(to_stop), Point{to_end, value});
    negatives_ += value < 0 ? 1 : 0;
  }
  shift(to_index, to_stop, -nodes);
  ++points_[to_index].pins;
  ++points_[to_stop].pins;
  // The old window: found by galloping from the new one (it is mostly a few breakpoints on),
  // its end by the shift's own scan (a window holds ~10 breakpoints: no binary search).
  from_index = to_index + 1;  // (the index given is for overlapping windows only)
  std::size_t step = 1;
  while (from_index + step < points_.size() && points_[from_index + step].time < from) {
    from_index += step;
    step *= 2;
  }
  const auto first = points_.begin() + static_cast<std::ptrdiff_t>(from_index);
  const auto last = points_.begin() +
                    static_cast<std::ptrdiff_t>(std::min(from_index + step + 1, points_.size()));
  from_index = static_cast<std::size_t>(
      std::lower_bound(first, last, from,
                       [](const Point& point, double t) { return point.time < t; }) -
      points_.begin());  // (the breakpoint at from_index + step, if any, is at or after `from`)
  const double from_end = from + duration;
  std::size_t from_stop = from_index;
  while (from_stop < points_.size() && points_[from_stop].time < from_end) ++from_stop;
  shift(from_index, from_stop, nodes);
  --points_[from_index].pins;
  if (from_stop < points_.size()) --points_[from_stop].pins;  // (at from + duration)
}

void StepProfile::move_overlapping(double from, double to, std::size_t to_index, double duration,
                                   int nodes, std::size_t to_stop, std::size_t from_index) {
  // The windows overlap (to < from < to + duration): the breakpoints in [from, to + duration)
  // would be shifted by -nodes, then by +nodes (and their sign changes cancel), so only
  // [to, from) and [to + duration, from + duration) are shifted: the same counts, pins and
  // negatives as move()'s two shifts.
  if (from_index == kNone) from_index = lower_gallop(to_index + 1, from);  // from: a breakpoint
  const double to_end = to + duration;
  if (to_stop == kNone) {  // (> from_index; the overlap holds ~8 breakpoints: scanned)
    to_stop = from_index + 1;
    while (to_stop < points_.size() && points_[to_stop].time < to_end) ++to_stop;
  }
  if (to_stop == points_.size() || points_[to_stop].time != to_end) {
    const int value = points_[to_stop - 1].free;
    points_.insert(points_.begin() + static_cast<std::ptrdiff_t>(to_stop), Point{to_end, value});
    negatives_ += value < 0 ? 1 : 0;
  }
  const double from_end = from + duration;
  std::size_t from_stop = to_stop;
  while (from_stop < points_.size() && points_[from_stop].time < from_end) ++from_stop;
  shift(to_index, from_index, -nodes);
  shift(to_stop, from_stop, nodes);
  ++points_[to_index].pins;
  ++points_[to_stop].pins;
  --points_[from_index].pins;
  if (from_stop < points_.size()) --points_[from_stop].pins;  // (at from + duration)
}

void StepProfile::shift(std::size_t first, std::size_t stop, int delta) {
  // The sign changes counted without a branch (the loop vectorizes; signs rarely change).
  std::ptrdiff_t change = 0;
  for (std::size_t i = first; i < stop; ++i) {
    const int before = points_[i].free;
    const int after = before + delta;
    points_[i].free = after;
    change += static_cast<std::ptrdiff_t>(after < 0) - static_cast<std::ptrdiff_t>(before < 0);
  }
  negatives_ = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(negatives_) + change);
}

void StepProfile::advance(double now) {
  auto after = std::upper_bound(points_.begin(), points_.end(), now,
                                [](double time, const Point& point) { return time < point.time; });
  for (auto it = points_.begin(); it != std::prev(after); ++it) negatives_ -= it->free < 0 ? 1 : 0;
  points_.erase(points_.begin(), std::prev(after));
  points_.front().time = now;
}

bool StepProfile::wants_compaction() const {
  // At a quarter's growth (was: doubled, + 64): the searches and inserts run over fewer
  // redundant breakpoints, for more compactions: ~3 % faster at SDSC-BLUE x0.8 (near the noise).
  return points_.size() > compacted_size_ + compacted_size_ / 4 + 16;
}

void StepProfile::compact(const std::vector<double>& keep) {
  // The breakpoints' times and `keep` both ascend: one merge-like pass finds the kept times.
  std::size_t kept = 1;
  auto next_keep = keep.begin();
  for (std::size_t i = 1; i < points_.size(); ++i) {
    const double time = points_[i].time;
    while (next_keep != keep.end() && *next_keep < time) ++next_keep;
    if (points_[i].free != points_[kept - 1].free || points_[i].pins != 0 ||
        (next_keep != keep.end() && *next_keep == time))
      points_[kept++] = points_[i];
  }
  points_.resize(kept);
  compacted_size_ = kept;
  count_negatives();
}

bool StepProfile::fits(std::size_t candidate, int need, double duration) const {
  if (points_[candidate].free < need) return false;
  const double end = points_[candidate].time + duration;
  for (std::size_t next = candidate + 1; next < points_.size() && points_[next].time < end; ++next)
    if (points_[next].free < need) return false;
  return true;
}

std::size_t StepProfile::earliest(int need, double duration, double limit, std::size_t from,
                                  const Own& own, std::size_t* window_end,
                                  std::size_t* own_start) const {
  const std::size_t count = points_.size();
  // The free count of breakpoint i with the own window's nodes given back (own.to and
  // own.from are breakpoints, so a step is wholly inside or outside the window).
  auto value = [&](std::size_t i) {
    const double t = points_[i].time;
    return points_[i].free + (own.from <= t && t < own.to ? own.nodes : 0);
  };
  const bool own_free = negatives_ == 0 && own.nodes >= need;
  // Candidates before own.from hold no own nodes (the compression's searches end by the job's
  // start): their counts are read as they are.
  const bool before_own = limit <= own.from;
  std::size_t candidate = from;
  while (candidate < count && points_[candidate].time < limit) {
    if ((before_own ? points_[candidate].free : value(candidate)) < need) {
      ++candidate;
      continue;
    }
    const double end = points_[candidate].time + duration;
    // Inside the own window every count is free + own.nodes: when no count is negative and
    // own.nodes >= need, each passes, so a window ending by own.to fits once its scan reaches
    // own.from (no need to read the breakpoints it shares with the own window: 89 % of the
    // compression's moves overlap their old window, ~8 breakpoints each at SDSC-BLUE x0.8).
    const bool own_passes = own_free && end <= own.to;
    std::size_t next = candidate + 1;
    for (; next < count; ++next) {
      const double t = points_[next].time;
      if (!(t < end)) break;
      if (own.from <= t && t < own.to) {
        if (own_passes) {  // fits; its end's index is not known (left to the caller)
          if (window_end) *window_end = kNone;
          if (own_start) *own_start = t == own.from ? next : kNone;
          return candidate;
        }
        if (points_[next].free + own.nodes < need) break;
      } else if (points_[next].free < need) {
        break;
      }
    }
    if (next == count || !(points_[next].time < end)) {
      if (window_end) *window_end = next;  // the first breakpoint at or after the end
      return candidate;
    }
    candidate = next + 1;  // every candidate up to `next` has `next` in its window
  }
  return kNone;
}

bool StepProfile::fits_at(double time, int need, double duration) const {
  auto after = std::upper_bound(points_.begin(), points_.end(), time,
                                [](double t, const Point& point) { return t < point.time; });
  if (std::prev(after)->free < need) return false;
  for (; after != points_.end() && after->time < time + duration; ++after)
    if (after->free < need) return false;
  return true;
}

std::size_t StepProfile::earliest_change_after_now(int need, double duration, double limit) const {
  for (std::size_t c = 1; c < points_.size() && points_[c].time < limit; ++c)
    if (points_[c].free != points_[c - 1].free && fits(c, need, duration)) return c;
  return kNone;
}

}  // namespace allocsim
