// Situation/decision recorder (Bender et al. Section 5, Table 1); see decisions.hpp.
#include "allocsim/sim/decisions.hpp"

#include "allocsim/metrics/locality.hpp"

namespace allocsim {

DecisionRecorder::DecisionRecorder(const std::vector<std::string>& decision_specs,
                                   const Topology& topology, std::uint64_t seed)
    : topology_(&topology) {
  deciders_.reserve(decision_specs.size());
  for (std::size_t i = 0; i < decision_specs.size(); ++i) {
    Decider decider{decision_specs[i], make_allocator(decision_specs[i], topology),
                    Rng(mix_seed(seed, static_cast<std::uint64_t>(i) + 1))};
    deciders_.push_back(std::move(decider));
  }
}

DecisionRecorder::~DecisionRecorder() = default;

void DecisionRecorder::before_commit(const Job& job, const MachineView& machine,
                                     const Allocation& chosen) {
  const int nodes = topology_->node_count();
  busy_.assign(nodes, 0);
  for (NodeId node = 0; node < nodes; ++node) busy_[node] = machine.is_free(node) ? 0 : 1;
  for (auto& decider : deciders_) {
    const MachineView view(*topology_, busy_, machine.free_count(), decider.rng,
                           machine.time_limit(), machine.now());
    const std::optional<Allocation> answer = decider.allocator->allocate(job, view);
    if (!answer) {
      ++decider.refused;
      continue;
    }
    const std::int64_t sum = pairwise_hop_sum(*topology_, answer->nodes);
    const std::int64_t k = static_cast<std::int64_t>(answer->nodes.size());
    decider.sum_total += static_cast<double>(sum);
    decider.avg_total +=
        k >= 2 ? static_cast<double>(sum) / static_cast<double>(k * (k - 1) / 2) : 0.0;
    ++decider.answered;
  }
  for (auto& decider : deciders_) decider.allocator->commit(chosen);
}

void DecisionRecorder::after_release(const Allocation& allocation) {
  for (auto& decider : deciders_) decider.allocator->release(allocation);
}

std::vector<DecisionRow> DecisionRecorder::rows() const {
  std::vector<DecisionRow> result;
  result.reserve(deciders_.size());
  for (const auto& decider : deciders_) {
    DecisionRow row;
    row.decision = decider.spec;
    const double answered = static_cast<double>(decider.answered);
    row.mean_pairwise_sum = answered > 0 ? decider.sum_total / answered : 0;
    row.mean_avg_pairwise = answered > 0 ? decider.avg_total / answered : 0;
    row.jobs = answered;
    row.refusals = static_cast<double>(decider.refused);
    result.push_back(row);
  }
  return result;
}

}  // namespace allocsim
