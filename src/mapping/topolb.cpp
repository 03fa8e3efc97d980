#include "allocsim/mapping/topolb.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "allocsim/util/numbers.hpp"
#include "geometry.hpp"

namespace allocsim::mapping {

namespace {

/// The incremental state of one TopoLB run (see the header for the scheme).
class TopoLBRun {
 public:
  TopoLBRun(const MappingProblem& problem, int order)
      : graph_(problem.graph),
        geometry_(problem.topology, problem.processors),
        order_(order),
        n_(graph_.size()),
        p_(geometry_.size()),
        poll_(problem.time_limit) {
    const double entries = static_cast<double>(n_) * p_;
    if (entries > 4.0e8)
      throw InputError("topolb: a " + std::to_string(n_) + " x " + std::to_string(p_) +
                       " cost table would take about " +
                       number_text(std::round(entries * 8 / 1e8) / 10) +
                       " GB (limit 4e8 entries, 3.2 GB); partition first or map onto fewer "
                       "processors");
    table_.assign(static_cast<std::size_t>(n_) * p_, 0.0);
    unplaced_bytes_.resize(n_);
    for (TaskId t = 0; t < n_; ++t) unplaced_bytes_[t] = graph_.communication(t);
    state_.assign(n_, State::unconstrained);
    min_cost_.assign(n_, 0.0);
    min_proc_.assign(n_, -1);
    placed_sum_.assign(n_, 0.0);
    frontier_position_.assign(n_, -1);
    stamp_.assign(n_, -1);
    weight_.assign(p_, 0.0);
    if (order_ >= 2)
      for (int q = 0; q < p_; ++q) {
        poll_.add(p_);  // O(p²) in all: the watchdog must reach in here
        for (int r = 0; r < p_; ++r) weight_[q] += geometry_.distance(q, r);
      }
    free_.resize(p_);
    std::iota(free_.begin(), free_.end(), 0);
    free_position_ = free_;
    weight_free_sum_ = std::accumulate(weight_.begin(), weight_.end(), 0.0);
    by_weight_ = free_;
    std::stable_sort(by_weight_.begin(), by_weight_.end(),
                     [&](int a, int b) { return weight_[a] < weight_[b]; });
    by_id_.resize(n_);
    std::iota(by_id_.begin(), by_id_.end(), 0);
    by_communication_ = by_id_;
    std::stable_sort(by_communication_.begin(), by_communication_.end(), [&](int a, int b) {
      return graph_.communication(a) > graph_.communication(b);
    });
    distance_.assign(p_, 0);
  }

  std::vector<int> run() {
    std::vector<int> processor_of(n_, -1);
    for (int step = 0; step < n_; ++step) {
      poll_.add(static_cast<std::int64_t>(p_) + static_cast<std::int64_t>(frontier_.size()));
      const auto [task, processor] = choose();
      processor_of[task] = processor;
      place(task, processor, step);
    }
    return processor_of;
  }

 private:
  enum class State : char { unconstrained, frontier, placed };

  double alpha() const {
    return order_ == 1   ? 1.0
           : order_ == 2 ? static_cast<double>(p_)
                         : static_cast<double>(free_.size());
  }
  double cost(TaskId t, int q) const {
    const double placed = alpha() * table_[static_cast<std::size_t>(t) * p_ + q];
    return order_ == 1 ? placed : placed + unplaced_bytes_[t] * weight_[q];
  }
  /// Free processor with the least weight (mean distance), earliest in the list on ties.
  int lightest_free() {
    if (order_ == 3) {
      int best = -1;
      for (const int q : free_)
        if (best < 0 || weight_[q] < weight_[best] || (weight_[q] == weight_[best] && q < best))
          best = q;
      return best;
    }
    while (free_position_[by_weight_[weight_cursor_]] < 0) ++weight_cursor_;
    return by_weight_[weight_cursor_];
  }
  /// Recomputes min_cost_, min_proc_ and placed_sum_ of a frontier task over free processors.
  void rescan(TaskId t) {
    double best = 0, sum = 0;
    int best_q = -1;
    const double* row = &table_[static_cast<std::size_t>(t) * p_];
    for (const int q : free_) {
      sum += row[q];
      const double c = cost(t, q);
      if (best_q < 0 || c < best || (c == best && q < best_q)) best = c, best_q = q;
    }
    min_cost_[t] = best;
    min_proc_[t] = best_q;
    placed_sum_[t] = sum;
  }

  /// The task with the largest gain and its best processor. §4.4: "we maintain the minimum
  /// and average value of f_est for each unassigned task over all unassigned processors. Let
  /// us call these arrays FMIn[t] and FAvg[t], respectively. In the k-th iteration we need to
  /// select the unassigned task t_k, which maximizes the value of FAvg[t] − FMIn[t]." The
  /// average is over the F free processors (not Algorithm 1's n − k = F − 1); both sides are
  /// multiplied by F, so the gain compared is Σ f_est − F·min f_est (exact in integers).
  std::pair<TaskId, int> choose() {
    const double free_count = static_cast<double>(free_.size());
    TaskId best = -1;
    double best_gain = 0;
    auto consider = [&](TaskId t, double gain) {
      if (best < 0 || gain > best_gain || (gain == best_gain && t < best)) {
        best = t;
        best_gain = gain;
      }
    };
    const double unplaced_weight_sum = order_ == 1 ? 0.0 : weight_free_sum_;
    for (const TaskId t : frontier_) {
      const double sum = alpha() * placed_sum_[t] + unplaced_bytes_[t] * unplaced_weight_sum;
      consider(t, sum - free_count * min_cost_[t]);
    }
    // Unconstrained tasks differ only in their unplaced bytes U: F·gain = U·(ΣW − F·W_min) ≥ 0
    // (orders 2, 3; order 1: 0). When ΣW > F·W_min the most communicating one (lowest id on
    // ties) beats the others; when every free processor has the same W (any torus, order 2)
    // all their gains are 0 and the lowest id wins.
    while (id_cursor_ < n_ && state_[by_id_[id_cursor_]] != State::unconstrained) ++id_cursor_;
    while (comm_cursor_ < n_ && state_[by_communication_[comm_cursor_]] != State::unconstrained)
      ++comm_cursor_;
    int light = -1;
    if (id_cursor_ < n_) {
      light = order_ == 1 ? -1 : lightest_free();
      const double spread = order_ == 1 ? 0.0 : unplaced_weight_sum - free_count * weight_[light];
      const TaskId t = spread > 0 ? by_communication_[comm_cursor_] : by_id_[id_cursor_];
      // f_est = U·W_q: least where W is, unless U = 0 or order 1 (every cost 0: the first free
      // processor).
      if (order_ == 1 || unplaced_bytes_[t] == 0)
        light = *std::min_element(free_.begin(), free_.end());
      consider(t, unplaced_bytes_[t] * spread);
    }
    return {best, state_[best] == State::frontier ? min_proc_[best] : light};
  }

  void remove_from_frontier(TaskId t) {
    const int at = frontier_position_[t];
    frontier_[at] = frontier_.back();
    frontier_position_[frontier_[at]] = at;
    frontier_.pop_back();
    frontier_position_[t] = -1;
  }

  void place(TaskId task, int processor, int step) {
    if (state_[task] == State::frontier) remove_from_frontier(task);
    state_[task] = State::placed;
    // Take the processor out of the free set.
    const int at = free_position_[processor];
    free_[at] = free_.back();
    free_position_[free_[at]] = at;
    free_.pop_back();
    free_position_[processor] = -1;
    for (const int q : free_) distance_[q] = geometry_.distance(q, processor);
    if (order_ == 3) {
      weight_free_sum_ = 0;
      for (const int q : free_) weight_free_sum_ += weight_[q] -= distance_[q];
    } else {
      weight_free_sum_ -= weight_[processor];
    }
    // Neighbours of the placed task: their rows gain c·d(q, processor); full rescan.
    const auto neighbours = graph_.neighbours(task);
    const auto bytes = graph_.edge_bytes(task);
    for (std::size_t i = 0; i < neighbours.size(); ++i) {
      const TaskId j = neighbours[i];
      if (state_[j] == State::placed) continue;
      double* row = &table_[static_cast<std::size_t>(j) * p_];
      for (const int q : free_) row[q] += bytes[i] * distance_[q];
      unplaced_bytes_[j] -= bytes[i];
      if (state_[j] == State::unconstrained) {
        state_[j] = State::frontier;
        frontier_position_[j] = static_cast<int>(frontier_.size());
        frontier_.push_back(j);
      }
      stamp_[j] = step;
    }
    // Every frontier task loses the taken column; rescan those that changed or lost their best.
    for (const TaskId t : frontier_) {
      if (stamp_[t] == step || order_ == 3 || min_proc_[t] == processor) {
        rescan(t);
        continue;
      }
      placed_sum_[t] -= table_[static_cast<std::size_t>(t) * p_ + processor];
    }
  }

  const TaskGraph& graph_;
  ProcessorGeometry geometry_;
  int order_, n_, p_;
  std::vector<double> table_;           // A[t][q], placed-neighbour hop-bytes
  std::vector<double> unplaced_bytes_;  // bytes from t to its unplaced neighbours
  std::vector<State> state_;
  std::vector<double> min_cost_, placed_sum_;
  std::vector<int> min_proc_, frontier_, frontier_position_, stamp_;
  std::vector<double> weight_;  // Σ distance to all (order 2) or free (order 3) processors
  double weight_free_sum_ = 0;
  std::vector<int> free_, free_position_, by_weight_, by_id_, by_communication_, distance_;
  int weight_cursor_ = 0, id_cursor_ = 0, comm_cursor_ = 0;
  TimeLimitPoll poll_;
};

class TopoLBMapper final : public Mapper {
 public:
  explicit TopoLBMapper(int order) : order_(order) {}
  void map(const MappingProblem& problem, Rng&, std::vector<NodeId>& placement) override {
    const auto processor_of = TopoLBRun(problem, order_).run();
    placement.resize(processor_of.size());
    for (std::size_t t = 0; t < processor_of.size(); ++t)
      placement[t] = problem.processors[processor_of[t]];
  }

 private:
  int order_;
};

}  // namespace

void append_topolb_mappers(std::vector<RegistryEntry<MapperFactory>>& entries) {
  entries.push_back(
      {"topolb",
       "most critical task first, on its best processor (Agarwal et al. §4)",
       {{"order", ParamKind::choice, "2", "estimation function order (§4.3)", {"1", "2", "3"}}},
       [](const Params& p) -> std::unique_ptr<Mapper> {
         return std::make_unique<TopoLBMapper>(static_cast<int>(p.integer("order")));
       }});
}

}  // namespace allocsim::mapping
