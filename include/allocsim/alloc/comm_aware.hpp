#pragma once
// Communication-aware allocators of Bender et al. (Algorithmica 2008, Sections 3–5): a geom/
// point-set solver applied to the coordinates of the free processors. Rows: `mm`, `genalg`,
// `mc1x1`, `mc`, `mm-inc`, `greedy-optimal` (the exact optimum at every step, budgeted, falling
// back to MM+Inc), `ptas:m=M` (budgeted likewise). Meshes and tori (ring-aware distances);
// flat machines are refused.
#include <cstdint>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/geom/point_set.hpp"

namespace allocsim {

/// Appends the communication-aware rows to the allocator table.
void append_comm_aware_allocators(std::vector<RegistryEntry<AllocatorFactory>>& entries);

/// One allocator class for the whole family; the method selects the solver.
/// Answers are cached per free set: schedulers ask again and again between events (EASY tries
/// every waiting job at each pass), and the solvers are deterministic pure choices, so a repeat
/// question (same free processors, same size and shape) gets the stored answer.
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
  };

  CommAwareAllocator(const Options& options, const Topology& topology);

  std::optional<Allocation> allocate(const Job& job, const MachineView& machine) override;

  /// allocate() calls in which greedy-optimal or ptas exhausted its budget and answered with
  /// MM+Inc instead (for RunSummary::allocator_fallbacks; the Simulation reads it).
  std::int64_t fallbacks() const override { return fallbacks_; }
  /// Solver result of the last allocate() call (indices refer to the free processors then).
  const geom::Selection& last_selection() const { return last_; }
  /// The near-cube shell-0 shape MC uses for a job of k processors without a requested shape.
  static std::vector<int> near_cube_shape(int k, int dims);

 private:
  geom::Selection choose(const geom::PointSet& points, int k, const Job& job);
  std::vector<std::vector<int>> all_positions() const;

  struct CachedAnswer {
    int procs = 0, shape_a = 0, shape_b = 0;
    bool fell_back = false;
    geom::Selection selection;
  };

  Options options_;
  std::vector<int> sides_, rings_;
  std::int64_t fallbacks_ = 0;
  bool fell_back_ = false;  // set by choose()
  geom::Selection last_;
  std::vector<NodeId> cache_free_;  // the free set the cached answers belong to
  std::vector<CachedAnswer> cache_;
};

}  // namespace allocsim
