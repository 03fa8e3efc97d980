#pragma once
// Communication-aware allocators of Bender et al. (Algorithmica 2008, Sections 3–5): a geom/
// point-set solver applied to the coordinates of the free processors. Rows: `mm`, `genalg`,
// `mc1x1`, `mc`, `mm-inc`, `greedy-optimal` (the exact optimum at every step, budgeted, falling
// back to MM+Inc), `ptas:m=M` (budgeted likewise). Meshes and tori (ring-aware distances);
// flat machines are refused.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/geom/free_grid.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/point_set.hpp"

namespace allocsim {

/// Appends the communication-aware rows to the allocator table.
void append_comm_aware_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// Memo of a communication-aware allocator's answers for one free set.
///
/// Why: schedulers ask the same question again and again between events (EASY tries every
/// waiting job at each pass and again in its look-ahead; the idle check asks once more), and the
/// solvers cost far more than a lookup.
/// Key: the free set (node ids, so the allocator's fixed topology gives their coordinates), the
/// processor count and, for `mc` only, the requested shape. The allocator's options are fixed at
/// construction, and no solver draws from the generator, so the answer is a function of the key:
/// a stored answer is exactly what the solver would return again (with a node budget; with a
/// wall-clock budget the solver itself is machine-dependent and the first answer is reused).
/// Bound: answers for one free set only, at most kCapacity of them; a question about another
/// free set empties the cache, a full cache is emptied before storing. So it holds at most one
/// free set (<= N node ids) and kCapacity selections (<= N indices each).
/// Not thread-safe (one allocator per simulation; clones copy the cache).
class SelectionCache {
 public:
  static constexpr std::size_t kCapacity = 64;

  /// What an answer depends on besides the free set.
  struct Key {
    int procs = 0, shape_a = 0, shape_b = 0;
    bool operator==(const Key&) const = default;
  };
  struct Answer {
    Key key;
    bool fell_back = false;  ///< the budgeted method gave up and the fallback answered
    geom::Selection selection;
    std::vector<NodeId> nodes;  ///< the chosen node ids, when the solver answered with them
  };

  /// The stored answer for `key` on the free set `free`, or nullptr. Forgets all answers when
  /// `free` is not the free set they belong to.
  const Answer* find(const std::vector<NodeId>& free, const Key& key);
  /// The stored answer for `key` on the current free set, for callers that follow the free set
  /// themselves and call forget() whenever it changes.
  const Answer* find(const Key& key);
  /// Forgets every answer (the free set changed).
  void forget();
  /// Stores the answer for `key` on the free set of the preceding find() (which missed).
  const Answer& store(const Key& key, bool fell_back, geom::Selection selection,
                      std::vector<NodeId> nodes = {});
  /// Answers held (never more than kCapacity).
  std::size_t size() const { return answers_.size(); }
  /// The answer most recently found or stored, or nullptr.
  const Answer* last() const { return last_ < 0 ? nullptr : &answers_[last_]; }

 private:
  std::vector<NodeId> free_;  // the free set the answers belong to
  std::vector<Answer> answers_;
  int last_ = -1;
};

/// One allocator class for the whole family; the method selects the solver. allocate() is a
/// pure choice memoised in a SelectionCache; fallbacks are counted when committed.
class CommAwareAllocator final : public CloneableAllocator<CommAwareAllocator> {
 public:
  enum class Method { mm, genalg, mc1x1, mc, mm_inc, greedy_optimal, ptas };
  /// Candidate centres of mm / mm-inc / mc1x1: MM's intersections, the free processors, or
  /// every processor position ("improved versions" of Bender et al.'s Table 1).
  enum class Centres { intersections, free, all };

  struct Options {
    Method method = Method::mm;
    Centres centres = Centres::intersections;
    int ptas_m = 3;
    geom::Budget budget;          ///< greedy-optimal, ptas
    bool square_fallback = true;  ///< mc: jobs without a shape get a near-cube shape (else 1x1)
    geom::ShellTies shell_ties = geom::ShellTies::first;         ///< mc1x1 `ties=first|sum`
    geom::CentreOrder centre_order = geom::CentreOrder::sorted;  ///< mm, mm-inc `ties=`
  };

  CommAwareAllocator(const Options& options, const Topology& topology);

  /// The solver's choice on the free processors; used_fallback is set when greedy-optimal or
  /// ptas exhausted its budget and answered with MM+Inc instead.
  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) const override;
  /// Counts a committed allocation that used the fallback.
  void commit(const Allocation& allocation) override {
    if (allocation.used_fallback) ++fallbacks_;
  }

  /// Committed allocations that used the fallback (RunSummary::allocator_fallbacks).
  std::int64_t fallbacks() const override { return fallbacks_; }
  /// Solver result of the most recent allocate() answer (indices refer to the free processors
  /// then); empty before the first. Read from the cache, for inspection only.
  const geom::Selection& last_selection() const;
  /// The answer memo (for tests of its bound).
  const SelectionCache& cache() const { return cache_; }
  /// The near-cube shell-0 shape MC uses for a job of k processors without a requested shape.
  static std::vector<int> near_cube_shape(int k, int dims);

 private:
  /// Runs the solver; sets `fell_back` when a budgeted method answered with its fallback. The
  /// solvers poll `time_limit` (may be null) and let its TimeoutError through.
  geom::Selection choose(const geom::PointSet& points, int k, const Job& job,
                         const TimeLimit* time_limit, bool& fell_back) const;
  std::vector<std::vector<int>> all_positions() const;
  /// allocate() of mc1x1 on free_grid_ (k ≥ 1 processors, enough of them free).
  std::optional<Allocation> allocate_on_grid(int k, const MachineView& machine) const;

  Options options_;
  std::vector<int> sides_, rings_;
  std::vector<int> node_coords_;  // coordinates of every node, node-major (built once)
  std::int64_t fallbacks_ = 0;
  mutable SelectionCache cache_;  // a memo only: see SelectionCache for why it is exact
  // MM's sums of centres in free neighbourhoods, kept between decisions (geom/mm.hpp proves
  // that a stored sum equals a recomputed one).
  mutable geom::NearestMemo nearest_memo_;
  // mc1x1 (centres: the free processors or every position) on machines whose axis 0 has at most 64
  // positions: the free nodes as a bit grid brought up to date from the busy map at each question
  // (geom/mc.hpp, mc1x1_on_grid), instead of a point set rebuilt per question. Not usable
  // otherwise.
  mutable geom::FreeGrid free_grid_;
};

}  // namespace allocsim
