// Node sets and sched/backfill's node_space map (sched/slurm_backfill.hpp).
#include "allocsim/sched/slurm_backfill.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace allocsim {

void NodeSet::clear() {
  for (auto& word : words_) word = 0;
}

void NodeSet::fill() {
  for (auto& word : words_) word = ~std::uint64_t{0};
  trim();
}

void NodeSet::trim() {
  if (size_ % 64 != 0 && !words_.empty()) words_.back() &= (std::uint64_t{1} << (size_ % 64)) - 1;
}

NodeSet& NodeSet::operator|=(const NodeSet& other) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] |= other.words_[i];
  return *this;
}

NodeSet& NodeSet::operator&=(const NodeSet& other) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= other.words_[i];
  return *this;
}

void NodeSet::subtract(const NodeSet& other) {
  for (std::size_t i = 0; i < words_.size(); ++i) words_[i] &= ~other.words_[i];
}

bool NodeSet::intersects(const NodeSet& other) const {
  for (std::size_t i = 0; i < words_.size(); ++i)
    if (words_[i] & other.words_[i]) return true;
  return false;
}

// Node sets are counted in every test of a backfill pass: with the popcnt instruction where the
// processor has it (GCC's target_clones picks the version when the program loads; without
// the instruction, __builtin_popcountll calls libgcc).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ALLOCSIM_POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define ALLOCSIM_POPCNT_CLONES
#endif

ALLOCSIM_POPCNT_CLONES int NodeSet::count() const {
  int total = 0;
  for (const std::uint64_t word : words_) total += __builtin_popcountll(word);
  return total;
}

ALLOCSIM_POPCNT_CLONES int NodeSet::add_words(const NodeSet& other, std::size_t first,
                                              std::size_t last) {
  int added = 0;
  for (std::size_t i = first; i < last; ++i) {
    added += __builtin_popcountll(other.words_[i] & ~words_[i]);
    words_[i] |= other.words_[i];
  }
  return added;
}

std::pair<std::size_t, std::size_t> NodeSet::word_range() const {
  std::size_t first = 0, last = words_.size();
  while (first < last && words_[first] == 0) ++first;
  while (last > first && words_[last - 1] == 0) --last;
  return {first, last};
}

ALLOCSIM_POPCNT_CLONES int NodeSet::add_common(const NodeSet& a, const NodeSet& b,
                                               std::size_t first, std::size_t last) {
  std::uint64_t any = 0;
  int added = 0;
  for (std::size_t i = first; i < last; ++i) {
    const std::uint64_t common = a.words_[i] & b.words_[i];
    any |= common;
    const std::uint64_t fresh = common & ~words_[i];
    if (fresh != 0) {
      added += __builtin_popcountll(fresh);
      words_[i] |= fresh;
    }
  }
  return any == 0 ? -1 : added;
}

void NodeSet::from_busy(const std::vector<char>& busy) {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::size_t begin = i * 64, end = std::min(busy.size(), begin + 64);
    std::uint64_t word = 0;
    std::size_t node = begin;
    for (; node + 8 <= end; node += 8) {  // eight entries at a time: bit 0 of each byte ORs
      std::uint64_t bytes;                // the byte's bits, then the eight bits are gathered
      std::memcpy(&bytes, busy.data() + node, 8);
      bytes |= bytes >> 4;
      bytes |= bytes >> 2;
      bytes |= bytes >> 1;
      bytes &= 0x0101010101010101ULL;
      const std::uint64_t busy_bits = (bytes * 0x0102040810204080ULL) >> 56;  // bit 8k to k
      word |= (~busy_bits & 0xffU) << (node - begin);
    }
    for (; node < end; ++node)
      word |= static_cast<std::uint64_t>(busy[node] == 0) << (node - begin);
    words_[i] = word;
  }
}

ALLOCSIM_POPCNT_CLONES int NodeSet::assign_common(const NodeSet& a, const NodeSet& b) {
  std::uint64_t* __restrict const out = words_.data();
  const std::uint64_t* __restrict const left = a.words_.data();
  const std::uint64_t* __restrict const right = b.words_.data();
  int total = 0;
  for (std::size_t i = 0, n = words_.size(); i < n; ++i) {
    out[i] = left[i] & right[i];
    total += __builtin_popcountll(out[i]);
  }
  return total;
}

ALLOCSIM_POPCNT_CLONES void NodeSet::assign_lowest(const NodeSet& from, int count) {
  std::size_t i = 0;
  const std::size_t n = words_.size();
  for (; i < n; ++i) {  // whole words kept while they hold fewer than `count` members
    const std::uint64_t word = from.words_[i];
    const int here = __builtin_popcountll(word);
    if (here >= count) break;
    words_[i] = word;
    count -= here;
  }
  if (i == n) return;
  // The shortest prefix of the word's bits holding `count` members, by bisection.
  const std::uint64_t word = from.words_[i];
  int low = 0, high = 64;  // popcount(word below bit low) < count <= popcount(below high)
  if (count == 0) {
    high = 0;
  } else {
    while (high - low > 1) {
      const int mid = (low + high) / 2;
      if (__builtin_popcountll(word & ((std::uint64_t{1} << mid) - 1)) >= count)
        high = mid;
      else
        low = mid;
    }
  }
  words_[i] = high == 64 ? word : word & ((std::uint64_t{1} << high) - 1);
  for (++i; i < n; ++i) words_[i] = 0;
}

void NodeSet::keep_lowest(int count) {
  assign_lowest(*this, count);
}

std::uint64_t NodeSet::hash() const {
  std::uint64_t value = 0;
  count_and_hash(value);
  return value;
}

ALLOCSIM_POPCNT_CLONES int NodeSet::count_and_hash(std::uint64_t& hash) const {
  // Each word multiplied on its own (no chain from word to word, so the products overlap in
  // the processor), summed, then mixed.
  std::uint64_t value = static_cast<std::uint64_t>(size_);
  int total = 0;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    value += (words_[i] ^ (i * 0x9e3779b97f4a7c15ULL)) * 0xbf58476d1ce4e5b9ULL;
    total += __builtin_popcountll(words_[i]);
  }
  value ^= value >> 31;
  value *= 0x94d049bb133111ebULL;
  hash = value ^ (value >> 29);
  return total;
}

std::vector<int> NodeSet::members() const {
  std::vector<int> nodes;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    for (std::uint64_t word = words_[i]; word != 0; word &= word - 1)
      nodes.push_back(static_cast<int>(i * 64) + std::countr_zero(word));
  }
  return nodes;
}

void NodeSet::to_busy(std::vector<char>& busy) const {
  busy.resize(static_cast<std::size_t>(size_));
  for (std::size_t i = 0; i < words_.size(); ++i) {
    const std::uint64_t word = words_[i];
    const std::size_t begin = i * 64, end = std::min(busy.size(), begin + 64);
    if (word == 0 || word == ~std::uint64_t{0}) {
      std::fill(busy.begin() + static_cast<std::ptrdiff_t>(begin),
                busy.begin() + static_cast<std::ptrdiff_t>(end), static_cast<char>(word == 0));
      continue;
    }
    for (std::size_t node = begin; node < end; ++node)
      busy[node] = static_cast<char>(((word >> (node - begin)) & 1U) ^ 1U);
  }
}

void NodeSpace::reset(double now, double window_end, int nodes) {
  if (segments_.empty()) segments_.emplace_back();
  live_ = 1;  // the others stay allocated for later splits
  segments_[0].begin = now;
  segments_[0].end = window_end;
  if (segments_[0].held.size() != nodes) segments_[0].held = NodeSet(nodes);
  segments_[0].held.clear();
  segments_[0].first = segments_[0].last = 0;
  segments_[0].held_count = 0;
  segments_[0].releases = -1;
}

namespace {
/// The smallest range of words holding [a_first, a_last) and [b_first, b_last) (empty ones
/// ignored).
void widen(std::size_t& first, std::size_t& last, std::size_t b_first, std::size_t b_last) {
  if (b_first == b_last) return;
  if (first == last) {
    first = b_first;
    last = b_last;
    return;
  }
  first = std::min(first, b_first);
  last = std::max(last, b_last);
}
/// out[w] &= ~held[w] for the words [first, last). The bounds are read once and the pointers
/// do not alias, so the compiler keeps them in registers and vectorizes the loop (it reloaded
/// the segment's bound after every store when the loop read it from the segment).
void remove_held(std::uint64_t* __restrict out, const std::uint64_t* __restrict held,
                 std::size_t first, std::size_t last) {
  for (std::size_t w = first; w < last; ++w) out[w] &= ~held[w];
}
}  // namespace

double NodeSpace::usable(double from, double to, NodeSet& usable) const {
  bool enough = true;
  return scan(from, to, 0, usable, enough);  // need 0: always enough
}

double NodeSpace::usable_for(double from, double to, int need, NodeSet& usable,
                             bool& enough) const {
  enough = true;
  return scan(from, to, need, usable, enough);
}

double NodeSpace::scan(double from, double to, int need, NodeSet& usable, bool& enough) const {
  // A node held by a segment overlapping [from, to] is not usable, so one of them holding more
  // than size - need leaves fewer than need usable, whatever the others hold: then the set is
  // not finished, only later_start is (every assignment of `later` below is guarded by
  // later == 0, so once it is known the rest of the scan cannot change it).
  const int most = usable.size() - need;
  usable.fill();
  // The words where `usable` may lack a node: those of the segments subtracted so far. Outside
  // them (and outside a segment's own words) no node is held, so none is gained either.
  std::size_t cut_first = 0, cut_last = 0;
  double later = 0;
  const std::size_t count = live_;
  const std::size_t words = usable.words_.size();
  const std::uint64_t last_mask =
      usable.size() % 64 != 0 ? (std::uint64_t{1} << (usable.size() % 64)) - 1 : ~std::uint64_t{0};
  std::uint64_t* const out = usable.words_.data();
  // The segments ending by `from` play no part (neither rule looks at them): start after them.
  for (std::size_t j = first_ending_after(from); j < count; ++j) {
    const Segment& segment = segments_[j];
    const std::uint64_t* const here = segment.held.words_.data();
    if (later == 0 && segment.end > from && j + 1 < count && cut_first == cut_last) {
      // Nothing cut so far (`usable` is every node): a node is gained exactly when one held
      // here is not held in the next segment, a property of the map kept per segment.
      if (releases(j)) later = segment.end;
    } else if (later == 0 && segment.end > from && j + 1 < count) {
      // "if the next set of nodes is a subset of the currently tested ones then calling
      // _try_sched (expensive function) would be useless": later_start only where a node
      // usable in the next segment is not usable so far.
      const std::uint64_t* const next = segments_[j + 1].held.words_.data();
      std::size_t first = cut_first, last = cut_last;
      widen(first, last, segment.first, segment.last);
      for (std::size_t w = first; w < last; ++w) {
        std::uint64_t gained = ~next[w] & ~(out[w] & ~here[w]);
        if (w + 1 == words) gained &= last_mask;
        if (gained != 0) {
          later = segment.end;
          break;
        }
      }
    }
    if (!enough && later != 0) return later;
    if (segment.end <= from) continue;
    if (segment.begin <= to) {
      remove_held(out, here, segment.first, segment.last);
      widen(cut_first, cut_last, segment.first, segment.last);
      if (segment.held_count > most) {
        enough = false;
        if (later != 0) return later;
      }
    } else {
      if (later == 0 && j + 2 < count) later = segments_[j + 1].end;
      break;
    }
  }
  return later;
}

bool NodeSpace::releases(std::size_t j) const {
  const Segment& segment = segments_[j];
  if (segment.releases < 0) {
    const std::uint64_t* const here = segment.held.words_.data();
    const std::uint64_t* const next = segments_[j + 1].held.words_.data();
    std::uint64_t any = 0;
    for (std::size_t w = segment.first; w < segment.last; ++w) any |= here[w] & ~next[w];
    segment.releases = any != 0 ? 1 : 0;
  }
  return segment.releases == 1;
}

bool NodeSpace::short_throughout(double from, double length, int need) const {
  // Proof. A try from t (a start_res of the job) is short when a segment overlapping [t, t +
  // length] holds more than size - need nodes: scan() visits every segment ending after t and
  // beginning by t + length (it stops only at one beginning after it, and every later one does
  // too), so it finds that segment and reports `enough` false. A job's tries all run on one
  // map (nothing is reserved until its last try), and its start_res values are `from` and
  // later_start values, each the end of a segment ending after the try's start and before the
  // map's end (scan(): segment.end with a next segment, or segments_[j + 1].end with a segment
  // after it). So when the try from `from` and from every segment end in (from, map end) is
  // short, every try of the job is. For such a t, the first segment holding more than
  // size - need that ends after t overlaps [t, t + length] exactly when it begins by t +
  // length (the later ones begin later still).
  if (live_ == 0) return false;
  const int most = segments_[0].held.size() - need;
  // The last segment overlaps a try from its own beginning (t = its begin is checked last), so
  // it must hold more than `most`: a test that most jobs fail at once.
  if (segments_[live_ - 1].held_count <= most) return false;
  // k: the first segment ending after t that holds more than `most` (t ascends, so k does).
  std::size_t k = first_ending_after(from);
  const std::size_t first = k;
  auto short_at = [&](double t) {
    while (k < live_ && (segments_[k].end <= t || segments_[k].held_count <= most)) ++k;
    return k < live_ && segments_[k].begin <= t + length;
  };
  if (!short_at(from)) return false;
  for (std::size_t j = first; j + 1 < live_; ++j)
    if (!short_at(segments_[j].end)) return false;
  return true;
}

void NodeSpace::usable_only(double from, double to, NodeSet& usable) const {
  usable.fill();
  std::uint64_t* const out = usable.words_.data();
  for (std::size_t j = first_ending_after(from); j < live_; ++j) {
    const Segment& segment = segments_[j];
    if (segment.begin > to) break;
    remove_held(out, segment.held.words_.data(), segment.first, segment.last);
  }
}

bool NodeSpace::overlaps(const NodeSet& nodes, double from, double to) const {
  for (std::size_t j = first_ending_after(from); j < live_; ++j) {
    const Segment& segment = segments_[j];
    if (!(segment.begin < to)) break;  // and so every later one
    for (std::size_t w = segment.first; w < segment.last; ++w)
      if (nodes.words_[w] & segment.held.words_[w]) return true;
  }
  return false;
}

std::size_t NodeSpace::first_ending_after(double time) const {
  // Segments are consecutive, so their ends ascend.
  return static_cast<std::size_t>(
      std::partition_point(segments_.begin(),
                           segments_.begin() + static_cast<std::ptrdiff_t>(live_),
                           [time](const Segment& segment) { return segment.end <= time; }) -
      segments_.begin());
}

std::size_t NodeSpace::split_at(double time) {
  // The segments before the first ending after `time` begin before it and end by it.
  const std::size_t j = first_ending_after(time);
  if (j == live_) return j;
  if (segments_[j].begin >= time) return j;
  // The tail goes into the first spare segment (its node set reused, not allocated), which is
  // then rotated into place after segment j.
  if (live_ == segments_.size()) segments_.emplace_back();
  Segment& segment = segments_[j];
  Segment& tail = segments_[live_];
  tail.begin = time;
  tail.end = segment.end;
  tail.held = segment.held;
  tail.first = segment.first;
  tail.last = segment.last;
  tail.held_count = segment.held_count;
  tail.releases = segment.releases;  // the same nodes, the same next segment
  segment.releases = 0;              // its next holds the same nodes
  segment.end = time;
  const auto at = segments_.begin() + static_cast<std::ptrdiff_t>(j) + 1;
  std::rotate(at, segments_.begin() + static_cast<std::ptrdiff_t>(live_),
              segments_.begin() + static_cast<std::ptrdiff_t>(live_) + 1);
  ++live_;
  return j + 1;
}

void NodeSpace::reserve(const NodeSet& nodes, double from, double to) {
  if (!(to > from)) return;
  const std::size_t first = split_at(from);
  split_at(to);
  const auto [words_first, words_last] = nodes.word_range();
  if (first > 0 && first < live_) segments_[first - 1].releases = -1;  // its next grows
  for (std::size_t j = first; j < live_ && segments_[j].end <= to; ++j) {
    segments_[j].held_count += segments_[j].held.add_words(nodes, words_first, words_last);
    segments_[j].releases = -1;  // it grows, and its next too (or not: the last one)
    widen(segments_[j].first, segments_[j].last, words_first, words_last);
  }
}

std::vector<double> NodeSpace::boundaries() const {
  std::vector<double> times;
  for (std::size_t j = 1; j < live_; ++j) times.push_back(segments_[j].begin);
  if (live_ > 0) times.push_back(segments_[live_ - 1].end);
  return times;
}

}  // namespace allocsim
