// will-run's resumable walk and its memo per usable set (sched/slurm_will_run.hpp).
#include "allocsim/sched/slurm_will_run.hpp"

#include <algorithm>
#include <bit>

namespace allocsim {

namespace {

constexpr double kWindow = 30;  // "int time_window = 30"

/// floor(log2(x)) for a normal x > 0 (std::ilogb, without its library call).
int binary_exponent(double x) {
  return static_cast<int>((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff) - 1023;
}

/// 2^k for 0 <= k <= 1023, exact (multiplying by it is std::ldexp).
double power_of_two(int k) {
  return std::bit_cast<double>(static_cast<std::uint64_t>(1023 + k) << 52);
}

}  // namespace

void WillRunWalk::start(const NodeSet& free, const NodeSet& usable) {
  if (free_usable_.size() != free.size()) free_usable_ = NodeSet(free.size());
  count_ = free_usable_.assign_common(free, usable);
  next_ = 0;
  window_ = kWindow;
  barrier_ = -1;
  more_ = true;
}

bool WillRunWalk::advance(const std::vector<PlannedJob>& planned, const NodeSet& usable,
                          double& end) {
  while (more_) {
    const PlannedJob* last = nullptr;
    int removed = 0;
    bool test = true;
    while (true) {
      if (next_ == planned.size()) {
        more_ = false;
        break;
      }
      const PlannedJob& job = planned[next_++];
      const int added = free_usable_.add_common(job.nodes, usable, job.first, job.last);
      if (added < 0) continue;  // "job has no usable nodes"
      if (barrier_ < 0) barrier_ = job.barrier;
      last = &job;
      count_ += added;
      if (next_ == planned.size()) {
        more_ = false;
        break;
      }
      if (planned[next_].end > barrier_ + window_) break;
      if (removed++ > 200) {  // more than 200 removals in one group go on without a test
        test = false;
        break;
      }
    }
    if (last == nullptr) {
      more_ = false;
      return false;
    }
    if (!test) continue;
    // "do window *= 2 while the next end is beyond the barrier plus the window", with the
    // doublings that surely fall short skipped at once (window stays 30 s times a power of
    // two, so the jump is exact; the sum is monotone in the window, so the same one ends it).
    window_ *= 2;
    if (next_ < planned.size() && planned[next_].end > barrier_ + window_) {
      const double beyond = planned[next_].end - barrier_;
      const int skip = binary_exponent(beyond / window_) - 2;  // floor(log2(beyond / window)) - 2
      if (skip > 0) window_ *= power_of_two(skip);
      while (planned[next_].end > barrier_ + window_) window_ *= 2;
    }
    end = last->end;
    return true;
  }
  return false;
}

void WillRunMemo::clear() {
  live_ = 0;
  if (++generation_ == 0) {  // wrapped: mark every slot unused explicitly
    for (Slot& slot : table_) slot.generation = 0;
    generation_ = 1;
  }
}

WillRunMemo::Entry& WillRunMemo::find_or_add(const NodeSet& usable, std::uint64_t hash,
                                             const NodeSet& free) {
  if (table_.size() < 2 * (live_ + 1)) {  // grow: rehash this pass's entries
    std::vector<Slot> old = std::move(table_);
    table_.assign(std::max<std::size_t>(64, 2 * old.size()), Slot{});
    for (const Slot& slot : old) {
      if (slot.generation != generation_) continue;
      std::size_t at = slot.hash & (table_.size() - 1);
      while (table_[at].generation == generation_) at = (at + 1) & (table_.size() - 1);
      table_[at] = slot;
    }
  }
  std::size_t at = hash & (table_.size() - 1);
  for (; table_[at].generation == generation_; at = (at + 1) & (table_.size() - 1)) {
    if (table_[at].hash != hash) continue;
    Entry& entry = entries_[table_[at].entry];
    if (entry.usable == usable) return entry;
  }
  if (live_ == entries_.size()) {
    entries_.emplace_back();
    sets_held_ += 2;  // usable, walk
  }
  table_[at] = Slot{hash, static_cast<std::uint32_t>(live_), generation_};
  Entry& entry = entries_[live_++];
  entry.usable = usable;
  entry.walk.start(free, usable);
  entry.ends.assign(1, 0.0);
  entry.counts.assign(1, entry.walk.count());
  entry.done = false;
  return entry;
}

bool WillRunMemo::first_reaching(const NodeSet& free, const std::vector<PlannedJob>& planned,
                                 const NodeSet& usable, std::uint64_t hash, int need,
                                 Answer& answer) {
  const std::size_t words_per_set = (static_cast<std::size_t>(usable.size()) + 63) / 64;
  if (sets_held_ * words_per_set > max_words_) {  // release every set (see the class comment)
    entries_ = {};
    sets_held_ = 0;
    clear();
  }
  Entry& entry = find_or_add(usable, hash, free);
  // The kept tests first (the counts only grow, so the first reaching `need` is the answer).
  const std::size_t kept = entry.counts.size();
  if (entry.counts.back() >= need) {
    std::size_t test = 0;
    while (entry.counts[test] < need) ++test;
    answer.test = test;
    answer.end = entry.ends[test];
    answer.free_usable = test + 1 == kept ? &entry.walk.free_usable() : &entry.snapshots[test];
    return true;
  }
  // Then further, keeping each test passed.
  double end = 0;
  while (!entry.done) {
    const std::size_t test = entry.counts.size() - 1;  // the walk's current test, to be passed
    if (entry.snapshots.size() <= test) {
      entry.snapshots.emplace_back();
      ++sets_held_;
    }
    entry.snapshots[test] = entry.walk.free_usable();
    if (!entry.walk.advance(planned, usable, end)) {
      entry.done = true;
      break;
    }
    entry.ends.push_back(end);
    entry.counts.push_back(entry.walk.count());
    if (entry.walk.count() >= need) {
      answer.test = entry.counts.size() - 1;
      answer.end = end;
      answer.free_usable = &entry.walk.free_usable();
      return true;
    }
  }
  return false;
}

}  // namespace allocsim
