// The `subtorus` allocator (Mao, Chen, Watson, Sections 2.3 and 3): identification of a fitting
// available semitorus, EP / NEP partition, torus conversion of the allocated piece, and release
// with recursive merging of complete partitions. Pure algorithms are in subtorus.cpp.
#include <algorithm>
#include <stdexcept>

#include "allocsim/alloc/subtorus.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

constexpr int kMaxDims = 16;  // 4 bits of log2(side) per dimension in a 64-bit word
constexpr int kBits = 4;

int log_side(std::uint64_t packed, int axis) {
  return static_cast<int>((packed >> (kBits * axis)) & ((1u << kBits) - 1));
}

}  // namespace

SubtorusAllocator::SubtorusAllocator(const Topology& topology, PartitionScheme scheme,
                                     ConvertMode mode, PickRule pick, MergeRule merge)
    : sides_(topology.sides()), scheme_(scheme), mode_(mode), pick_(pick), merge_(merge) {
  if (topology.graph()) topology.require_grid("allocator 'subtorus'");
  if (topology.dims() > kMaxDims)
    throw InputError("subtorus allocators support at most 16 dimensions");
  const std::vector<Semitorus> initial = preprocess(topology);  // validates the machine
  wrap_.resize(sides_.size());
  strides_.resize(sides_.size());
  int stride = 1;
  for (int d = 0; d < topology.dims(); ++d) {
    wrap_[d] = topology.wraps(d) || sides_[d] <= 2;
    strides_[d] = stride;
    stride *= sides_[d];
  }
  for (const Semitorus& s : initial) {
    for (int side : s.sides)
      if (ceil_log2(side) >= (1 << kBits))
        throw InputError("subtorus allocators support power-of-two sides up to 32768");
    add_slot(s, -1, State::available);
    largest_ = std::max(largest_, s.size());
  }
}

Semitorus SubtorusAllocator::to_semitorus(const Slot& slot) const {
  Semitorus s;
  s.origin.resize(sides_.size());
  s.sides.resize(sides_.size());
  s.wrap.resize(sides_.size());
  for (std::size_t d = 0; d < sides_.size(); ++d) {
    s.origin[d] = (slot.origin / strides_[d]) % sides_[d];
    s.sides[d] = 1 << log_side(slot.log_sides, static_cast<int>(d));
    // The semitorus rule: a ring when short, or when spanning the machine's wrapped side.
    s.wrap[d] = s.sides[d] <= 2 || (s.sides[d] == sides_[d] && wrap_[d]);
  }
  return s;
}

int SubtorusAllocator::add_slot(const Semitorus& s, int parent, State state) {
  Slot slot;
  slot.parent = parent;
  slot.state = state;
  for (int d = 0; d < s.dims(); ++d) {
    slot.origin += s.origin[d] * strides_[d];
    const int k = ceil_log2(s.sides[d]);
    slot.log_sides |= static_cast<std::uint64_t>(k) << (kBits * d);
    slot.log_size = static_cast<std::uint8_t>(slot.log_size + k);
  }
  if (free_slots_.empty()) {
    slots_.push_back(slot);
    return static_cast<int>(slots_.size()) - 1;
  }
  const int index = free_slots_.back();
  free_slots_.pop_back();
  slots_[index] = slot;
  return index;
}

int SubtorusAllocator::find_slot(NodeId origin, int log_size, State state) const {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].state == state && slots_[i].origin == origin && slots_[i].log_size == log_size)
      return static_cast<int>(i);
  return -1;
}

void SubtorusAllocator::take(int index, State state) {
  slots_[index].state = state;
  if (slots_[index].parent >= 0) ++slots_[slots_[index].parent].pending;
}

void SubtorusAllocator::merge_up(int index) {
  // Paper, Section 2.3: "the deallocation algorithm checks to see if all its siblings are in A.
  // If so all siblings together with the returned torus are replaced by their parent S, which
  // is put back to A"; S then counts as returned to its own parent, recursively.
  for (int parent = slots_[index].parent; parent >= 0; parent = slots_[parent].parent) {
    if (--slots_[parent].pending > 0) return;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].state != State::dead && slots_[i].parent == parent) {
        slots_[i].state = State::dead;
        free_slots_.push_back(static_cast<int>(i));
      }
    }
    slots_[parent].state = State::available;
  }
}

Semitorus SubtorusAllocator::piece_for(const Semitorus& s, int k) const {
  const std::int64_t m = std::int64_t{1} << k;
  if (s.size() == m) return s;
  if (scheme_ == PartitionScheme::ep) return sub_semitorus(s, s.origin, ep_piece_sides(s.sides, m));
  // NEP keeps halving at the origin: the job's piece is the last kept half.
  Semitorus kept = s;
  while (kept.size() > m) {
    std::vector<int> sides = kept.sides;
    sides[nep_halving_axis(sides)] /= 2;
    kept = sub_semitorus(kept, kept.origin, std::move(sides));
  }
  return kept;
}

int SubtorusAllocator::nodes_needed(const Job& job) const {
  return static_cast<int>(round_up_power_of_two(job.procs));
}

std::optional<Allocation> SubtorusAllocator::allocate(const Job& job,
                                                      const MachineView& /*machine*/) const {
  // Identification (paper, Section 2.3): "Identify a semitorus S in A that has at least as many
  // nodes as m". Which one is the PickRule's (the paper names none); every rule breaks its ties
  // by origin node id or size, so the choice does not depend on slot order.
  const int k = ceil_log2(job.procs);
  int best = -1;
  auto better = [&](const Slot& a, const Slot& b) {
    switch (pick_) {
      case PickRule::smallest:
        return a.log_size != b.log_size ? a.log_size < b.log_size : a.origin < b.origin;
      case PickRule::largest:
        return a.log_size != b.log_size ? a.log_size > b.log_size : a.origin < b.origin;
      case PickRule::lowest:
        break;
    }
    return a.origin != b.origin ? a.origin < b.origin : a.log_size < b.log_size;
  };
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    const Slot& slot = slots_[i];
    if (slot.state != State::available || slot.log_size < k) continue;
    if (best < 0 || better(slot, slots_[best])) best = static_cast<int>(i);
  }
  if (best < 0) return std::nullopt;
  const Semitorus piece = piece_for(to_semitorus(slots_[best]), k);
  Allocation allocation;
  allocation.nodes = torus_ordered_nodes(piece, convert_to_torus(piece, mode_), sides_);
  allocation.token = slots_[best].origin;
  return allocation;
}

void SubtorusAllocator::commit(const Allocation& allocation) {
  const int k = ceil_log2(static_cast<std::int64_t>(allocation.nodes.size()));
  // The piece sits at the origin of the chosen available semitorus: find that one again.
  int chosen = -1;
  for (std::size_t i = 0; i < slots_.size(); ++i)
    if (slots_[i].state == State::available && slots_[i].origin == allocation.token &&
        slots_[i].log_size >= k)
      chosen = static_cast<int>(i);
  if (chosen < 0)
    throw std::logic_error("subtorus: commit of an allocation that allocate() did not choose");
  const Semitorus s = to_semitorus(slots_[chosen]);
  const std::int64_t m = std::int64_t{1} << k;
  if (s.size() == m) {
    take(chosen, State::allocated);
    return;
  }
  take(chosen, State::split);
  if (scheme_ == PartitionScheme::ep || merge_ == MergeRule::partition) {
    // Paper, Section 2.3: the pieces of the partition are the children of S, "siblings to each
    // other"; S returns to A only when all of them are in A. Element 0 is the job's piece.
    const std::vector<Semitorus> pieces =
        scheme_ == PartitionScheme::ep ? ep_split(s, m) : nep_split(s, m);
    slots_[chosen].pending = 1;
    add_slot(pieces[0], chosen, State::allocated);
    for (std::size_t i = 1; i < pieces.size(); ++i) add_slot(pieces[i], chosen, State::available);
    return;
  }
  // NEP with MergeRule::halves: a chain of halvings; each split slot has one available half and
  // one taken half, and halves merge pairwise.
  int parent = chosen;
  Semitorus kept = s;
  while (kept.size() > m) {
    std::vector<int> sides = kept.sides, other = kept.origin;
    const int axis = nep_halving_axis(sides);
    sides[axis] /= 2;
    other[axis] += sides[axis];
    const Semitorus half = sub_semitorus(kept, other, sides);
    kept = sub_semitorus(kept, kept.origin, std::move(sides));
    slots_[parent].pending = 1;
    add_slot(half, parent, State::available);
    const bool last = kept.size() == m;
    parent = add_slot(kept, parent, last ? State::allocated : State::split);
  }
}

void SubtorusAllocator::release(const Allocation& allocation) {
  const int k = ceil_log2(static_cast<std::int64_t>(allocation.nodes.size()));
  const int index = find_slot(static_cast<NodeId>(allocation.token), k, State::allocated);
  if (index < 0) throw std::logic_error("subtorus: release of an allocation not held");
  slots_[index].state = State::available;
  merge_up(index);
}

std::vector<Semitorus> SubtorusAllocator::available() const {
  std::vector<std::pair<NodeId, Semitorus>> found;
  for (const Slot& slot : slots_)
    if (slot.state == State::available) found.emplace_back(slot.origin, to_semitorus(slot));
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Semitorus> result;
  for (auto& entry : found) result.push_back(std::move(entry.second));
  return result;
}

std::vector<Semitorus> SubtorusAllocator::allocated() const {
  std::vector<std::pair<NodeId, Semitorus>> found;
  for (const Slot& slot : slots_)
    if (slot.state == State::allocated) found.emplace_back(slot.origin, to_semitorus(slot));
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Semitorus> result;
  for (auto& entry : found) result.push_back(std::move(entry.second));
  return result;
}

void append_subtorus_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries) {
  entries.push_back(
      {"subtorus",
       "Mao-Chen-Watson subtorus allocation on tori: power-of-two semitori, EP or NEP partition",
       {{"scheme",
         ParamKind::choice,
         "nep",
         "ep: equal partition into |S|/m pieces; nep: repeated halving (1+log2(|S|/m) pieces)",
         {"ep", "nep"}},
        {"convert",
         ParamKind::choice,
         "pair",
         "torus shape of the piece: collapse all wrap-less sides into one ring, or pair each "
         "with a ringed side",
         {"collapse", "pair"}},
        {"pick",
         ParamKind::choice,
         "smallest",
         "which fitting available semitorus to partition (the paper names no rule): smallest "
         "(best fit), lowest (lowest origin node id, first fit) or largest (worst fit)",
         {"smallest", "lowest", "largest"}},
        {"merge",
         ParamKind::choice,
         "partition",
         "partition: a partition's pieces return to their parent only all together (the "
         "paper); halves: NEP's halves merge pairwise as soon as both are free",
         {"partition", "halves"}}},
       [](const Params& params, const Topology& topology) -> std::unique_ptr<Allocator> {
         const auto scheme =
             params.text("scheme") == "ep" ? PartitionScheme::ep : PartitionScheme::nep;
         const auto mode =
             params.text("convert") == "collapse" ? ConvertMode::collapse : ConvertMode::pair;
         const std::string pick_text = params.text("pick");
         const auto pick = pick_text == "lowest"    ? PickRule::lowest
                           : pick_text == "largest" ? PickRule::largest
                                                    : PickRule::smallest;
         const auto merge =
             params.text("merge") == "halves" ? MergeRule::halves : MergeRule::partition;
         return std::make_unique<SubtorusAllocator>(topology, scheme, mode, pick, merge);
       }});
}

}  // namespace allocsim
