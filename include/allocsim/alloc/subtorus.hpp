#pragma once
// Subtorus allocation on multi-dimensional tori (Mao, Chen, Watson, "Efficient subtorus
// processor allocation in a multi-dimensional torus"): semitori, preprocessing of a machine with
// one non-power-of-two side, Equal Partition (EP), Non-Equal Partition (NEP), the conversion of
// an allocated semitorus into a torus shape, and the `subtorus` allocator built from them.
//
// The pure algorithms are free functions so that tests check the paper's examples directly.
//
// Comparison with the paper's "flat" machine: that baseline is the core's `flat` allocator (any
// p free nodes) on `flat:N` with the same node count N (flat:384 for JLab 2x2x2x6x8, flat:1024
// for a QCDOC crate 2x2x2x4x4x8), fed with the same power-of-two-rounded job sizes. Nothing is
// built for it here.
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"

namespace allocsim {

/// A semitorus (paper, Section 2): a box of the machine whose sides are powers of two, with per
/// dimension a flag saying whether the box is a ring along it. A side of 1 or 2 is always a ring
/// (a 2-ring is one link); a longer side is a ring only when the box spans the machine's whole
/// wrapped side. Any torus or power-of-two mesh is a semitorus.
struct Semitorus {
  std::vector<int> origin;  ///< machine coordinates of the lowest corner
  std::vector<int> sides;   ///< powers of two (1 allowed)
  std::vector<bool> wrap;   ///< ring along this dimension

  std::int64_t size() const;
  int dims() const { return static_cast<int>(sides.size()); }
  bool operator==(const Semitorus&) const = default;
};

/// Smallest k with 2^k >= n (0 for n <= 1).
int ceil_log2(std::int64_t n);
/// The request size rounded up to a power of two, m = 2^k (paper, Section 3 "Request").
std::int64_t round_up_power_of_two(std::int64_t procs);
/// `2x4x2` for sides {2,4,2,1}: trailing sides of 1 are dropped (at least one side is kept).
std::string format_sides(const std::vector<int>& sides);

/// Preprocessing (paper, Section 3): a torus whose sides are powers of two except one side
/// 2^a·p (p odd) is split along that side by the binary digits of p into power-of-two semitori,
/// largest first. Example: 2x2x2x6x8 -> 2x2x2x4x8 (no wrap in the 6-side) and 2x2x2x2x8.
/// Throws InputError when more than one side is not a power of two.
std::vector<Semitorus> preprocess(const std::vector<int>& sides, const std::vector<bool>& wrap);
/// The same for a machine; also throws InputError when it is not a torus (mesh or flat).
std::vector<Semitorus> preprocess(const Topology& topology);

/// A sub-box of `parent` with the given origin and sides; wrap flags follow the semitorus rule.
Semitorus sub_semitorus(const Semitorus& parent, std::vector<int> origin, std::vector<int> sides);

/// EP piece shape (paper, Section 3.1): m = 2^k nodes spread over S's dimensions as equally as
/// possible (water-filling the exponents under S's sides). When k <= h (h = sides > 1) each piece
/// is 2x...x2 in k dimensions. Ties go to the dimension with the least room left, then the lowest
/// index, so pieces span full sides (and keep wraps) where possible: S = 2x4x4x8, m = 8 -> 2x2x2;
/// m = 64 -> 2x4x4x2 (sides {2,2,4,4}). Requires m <= |S|, m a power of two.
std::vector<int> ep_piece_sides(const std::vector<int>& sides, std::int64_t m);
/// EP (paper, Section 3.1): S cut into |S|/m identical pieces of ep_piece_sides(). Element 0 is
/// the piece at S's origin (the one given to the job); the rest follow in node-id order.
std::vector<Semitorus> ep_split(const Semitorus& s, std::int64_t m);

/// The dimension NEP halves: the highest-index dimension with side > 1 (the paper's example).
int nep_halving_axis(const std::vector<int>& sides);
/// NEP (paper, Section 3.2): S halved repeatedly (keeping the half at S's origin) until m nodes
/// remain: 1 + log2(|S|/m) pieces. Element 0 is the job's piece, then its sibling half, then the
/// larger halves in increasing size. Example: S = 2x4x4x8, m = 16 -> 2x4x2, 2x4x2, 2x4x4,
/// 2x4x4x2, 2x4x4x4.
std::vector<Semitorus> nep_split(const Semitorus& s, std::int64_t m);

/// How the dimensions of an allocated semitorus that miss their wrap become torus rings
/// (paper, Section 3.3): `collapse` joins all of them into one ring; `pair` joins each with a
/// ringed dimension (largest missing with smallest ringed), e.g. 2^2x2^3x2x2^2 with the first
/// two missing wraps -> 2^5x2x2^2 (collapse) or 2^4x2^4 (pair).
enum class ConvertMode { collapse, pair };

/// A torus shape reported for a semitorus. Torus dimension j is formed by the semitorus axes
/// groups[j]; a group of several axes is one ring through them (a Hamiltonian cycle of that
/// sub-mesh). wrap[j] is false only for a lone wrap-less axis that had no partner to form a ring.
struct TorusShape {
  std::vector<int> sides;
  std::vector<bool> wrap;
  std::vector<std::vector<int>> groups;
};

/// Conversion of a semitorus into a torus shape (paper, Section 3.3). Sides of 1 are omitted.
TorusShape convert_to_torus(const Semitorus& s, ConvertMode mode);
/// Local coordinates (within the semitorus) of every torus rank, first torus dimension fastest:
/// torus neighbours (with wrap) are neighbours in the semitorus.
std::vector<std::vector<int>> torus_local_coords(const Semitorus& s, const TorusShape& shape);
/// Machine node ids of the semitorus listed by torus rank (ids number dimension 0 fastest).
std::vector<NodeId> torus_ordered_nodes(const Semitorus& s, const TorusShape& shape,
                                        const std::vector<int>& machine_sides);
/// Machine node ids of the semitorus in increasing order.
std::vector<NodeId> semitorus_nodes(const Semitorus& s, const std::vector<int>& machine_sides);

/// Which partition a `subtorus` allocator uses.
enum class PartitionScheme { ep, nep };

/// Which available semitorus with at least m nodes the identification step takes. The paper
/// (Section 2.3, "Identify a semitorus S in A that has at least as many nodes as m") names no
/// rule: `smallest` (best fit; ties lowest origin node id) is ours, `lowest` takes the fitting
/// semitorus with the lowest origin node id (first fit in node order; ties smaller), `largest`
/// the largest fitting one (worst fit; ties lowest origin).
enum class PickRule { smallest, lowest, largest };

/// What a partition's parent is (paper, Section 2.3: "we need to keep a record of the chosen
/// semitorus S in the identification step and its children (these children are siblings to
/// each other) which are obtained in the partition step. When a job return its torus to the
/// available set A, the deallocation algorithm checks to see if all its siblings are in A. If
/// so all siblings together with the returned torus are replaced by their parent S").
/// `partition` (the paper): every piece of one partition of S, EP's |S|/m or NEP's
/// 1 + log2(|S|/m), is a child of S, and S returns only when all of them are available.
/// `halves`: NEP's pieces form a chain of halvings, each half merging with its sibling half as
/// soon as both are available (EP is the same under both).
enum class MergeRule { partition, halves };

/// The subtorus allocator (paper, Sections 2.3 and 3): the available set starts as the
/// preprocessed machine; a request of p processors takes m = 2^ceil(log2 p) nodes from an
/// available semitorus with at least m nodes chosen by the PickRule, partitioned by EP or NEP
/// when larger; the other pieces join the available set. On release, a partition whose pieces
/// are all available merges back into its parent (MergeRule), recursively. The Allocation lists the
/// m nodes in the converted torus order; its token is the piece's origin node id. State is a flat
/// array of trivially copyable slots, cheap to clone for backfilling look-ahead.
class SubtorusAllocator : public CloneableAllocator<SubtorusAllocator> {
 public:
  SubtorusAllocator(const Topology& topology, PartitionScheme scheme, ConvertMode mode,
                    PickRule pick = PickRule::smallest, MergeRule merge = MergeRule::partition);

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  void commit(const Allocation& allocation) override;
  void release(const Allocation& allocation) override;
  int nodes_needed(const Job& job) const override;
  bool contiguous_only() const override { return true; }
  /// The answer depends on the job only through k = ceil(log2 procs); nothing is drawn.
  std::optional<std::uint64_t> request_key(const Job& job) const override {
    // ceil_log2(procs), inline: the EASY loop asks it for every queued job of every pass.
    return job.procs <= 1 ? 0 : std::bit_width(static_cast<std::uint64_t>(job.procs - 1));
  }

  /// Available semitori, sorted by origin node id.
  std::vector<Semitorus> available() const;
  /// Allocated semitori, sorted by origin node id.
  std::vector<Semitorus> allocated() const;
  /// Size of the largest semitorus the machine can ever hand out (largest preprocessed piece).
  std::int64_t largest_request() const { return largest_; }

 private:
  enum class State : std::uint8_t { dead, available, allocated, split };
  /// One node of the partition forest; geometry packed (4 bits of log2 side per dimension).
  struct Slot {
    NodeId origin = 0;
    std::int32_t parent = -1;
    std::int32_t pending = 0;  ///< children not available (split slots)
    State state = State::dead;
    std::uint8_t log_size = 0;
    std::uint64_t log_sides = 0;
  };

  Semitorus to_semitorus(const Slot& slot) const;
  int add_slot(const Semitorus& s, int parent, State state);
  int find_slot(NodeId origin, int log_size, State state) const;
  /// Marks an available slot unavailable (split or allocated) and tells its parent.
  void take(int index, State state);
  /// Slot `index` became available: merge complete partitions upwards.
  void merge_up(int index);
  Semitorus piece_for(const Semitorus& s, int k) const;

  std::vector<int> sides_;
  std::vector<bool> wrap_;
  std::vector<int> strides_;
  PartitionScheme scheme_;
  ConvertMode mode_;
  PickRule pick_;
  MergeRule merge_;
  std::int64_t largest_ = 0;
  std::vector<Slot> slots_;
  std::vector<int> free_slots_;
};

/// Appends the `subtorus` row (scheme=ep|nep, convert=collapse|pair, pick=smallest|lowest|
/// largest, merge=partition|halves) to the allocator table.
void append_subtorus_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

}  // namespace allocsim
