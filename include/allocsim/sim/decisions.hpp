#pragma once
// The situation/decision experiment of Bender et al. (Algorithmica 2008, Section 5, Table 1):
// one allocator (the situation) places every job; at each placement, every decision allocator is
// asked what it would choose for the same job on the same free processors (a pure choice,
// nothing committed), and the sum of pairwise distances of its answer is recorded. One row per
// decision allocator: the mean over placements, i.e. one row of the paper's Table 1.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/observer.hpp"

namespace allocsim {

/// Hears every placement of a Simulation and asks the decision allocators.
/// Each decision allocator is its own instance (make_allocator) with its own generator, seeded
/// from `seed` and its position in the list. After asking, the situation's choice is forwarded
/// to every decision allocator's commit() (so stateful ones follow the situation's machine
/// state), and after_release() forwards release().
class DecisionRecorder : public SimulationObserver {
 public:
  DecisionRecorder(const std::vector<std::string>& decision_specs, const Topology& topology,
                   std::uint64_t seed);
  ~DecisionRecorder() override;

  void before_commit(const Job& job, const MachineView& machine, const Allocation& chosen) override;
  void after_release(const Allocation& allocation) override;

  /// One row per decision spec, in the given order. A placement where a decision allocator had
  /// no answer counts as a refusal and is left out of its means.
  std::vector<DecisionRow> rows() const;

 private:
  struct Decider {
    std::string spec;
    std::unique_ptr<Allocator> allocator;
    Rng rng;
    double sum_total = 0;
    double avg_total = 0;
    std::int64_t answered = 0;
    std::int64_t refused = 0;
  };

  const Topology* topology_;
  std::vector<Decider> deciders_;
  std::vector<char> busy_;  // rebuilt from the situation's view at each placement
};

}  // namespace allocsim
