// Runtime models backed by the network layer (see network_runtime.hpp).
#include "allocsim/sim/network_runtime.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include "allocsim/mapping/job_pattern.hpp"
#include "allocsim/metrics/locality.hpp"
#include "allocsim/network/flow_model.hpp"
#include "allocsim/network/link_loads.hpp"
#include "allocsim/sim/job_mapping.hpp"
#include "allocsim/topo/switches.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

std::span<const NodeId> task_nodes(const Job& job, const Allocation& allocation) {
  const auto count = std::min<std::size_t>(static_cast<std::size_t>(std::max(job.procs, 0)),
                                           allocation.nodes.size());
  return {allocation.nodes.data(), count};
}

namespace {

class FlowRuntime final : public RuntimeModel {
 public:
  FlowRuntime(double comm, double bandwidth, FlowLoad load, bool switches, bool weighted,
              bool reference_cap)
      : comm_(comm),
        bandwidth_(bandwidth),
        load_(load),
        switches_(switches),
        weighted_(weighted),
        reference_cap_(reference_cap) {}

  double runtime(const Job& job, const Allocation&, const Topology&) const override {
    return job.runtime;
  }

  /// switch=first reads the machine's first axis as the processors of a switch: grids only.
  void check_size(const Topology& topology, std::span<const Job>) const override {
    if (switches_) topology.require_grid("runtime model 'flow' with switch=first");
  }

  void rerate(RateContext& context, const RunningChange& change) override {
    if (!network_) {
      if (switches_) {
        context.topology().require_grid("runtime model 'flow' with switch=first");
        switch_topology_ = std::make_unique<const Topology>(switch_topology(context.topology()));
      }
      network_ = std::make_unique<FlowNetwork>(switches_ ? *switch_topology_ : context.topology(),
                                               comm_, bandwidth_, load_);
      network_->set_time_limit(context.time_limit());
      network_->set_weighted_sharing(weighted_);
      network_->set_reference_cap(reference_cap_);
      // Allocations never give a node to two running jobs: their host links are their own.
      network_->set_exclusive_nodes(true);
      first_time_ = context.now();
    } else {
      utilization_integral_ += network_->utilization().mean * (context.now() - last_time_);
    }
    last_time_ = context.now();
    poll_ = TimeLimitPoll(context.time_limit());
    const auto& running = context.running();
    if (change.kind == RunningChange::Kind::ended) {
      for (int job : change.jobs) {
        network_->remove_job(job);
        alone_.erase(job);
      }
    } else {
      for (int job : change.jobs) {
        const Job& record = context.jobs()[job];
        if (const JobTraffic* traffic = context.traffic(job)) {
          if (switches_)
            throw InputError("runtime model 'flow': switch=first takes no mapped pattern yet");
          if (record.comm_pattern != CommPattern::none)
            throw InputError("runtime model 'flow': job " + std::to_string(record.id) +
                             " has its own pattern (the comm_classes transform) and the run "
                             "maps a pattern (--pattern): choose one");
          add_pattern_job(context.topology(), job, *traffic);
        } else {
          const auto found = std::find_if(running.begin(), running.end(),
                                          [&](const RunningJob& r) { return r.job == job; });
          const std::span<const NodeId> nodes = task_nodes(record, found->allocation);
          if (switches_ && record.comm_pattern == CommPattern::stencil)
            throw InputError("runtime model 'flow': switch=first takes no stencil pattern yet");
          if (record.comm_share == 0)  // its own share 0: it sends nothing, loads no link
            network_->add_job(job, nodes.first(0));
          else if (switches_)
            add_switched_job(context.topology(), job, nodes);
          else if (record.comm_pattern == CommPattern::stencil)
            add_stencil_job(context.topology(), job, nodes);
          else
            network_->add_job(job, nodes);
        }
        if (record.comm_share >= 0) network_->set_comm(job, record.comm_share);
        // Alone on its own allocation: its work (the trace runtime) at its alone rate, the
        // same division the simulation makes for a job that keeps one rate.
        alone_[job] = record.runtime / network_->alone_rate(job).progress;
      }
    }
    if (!network_->solve()) {
      // Only the started jobs (without messages) may have a rate other than 1; setting an
      // unchanged rate is a no-op, so the others are left alone.
      if (change.kind == RunningChange::Kind::started)
        for (int job : change.jobs) context.set_rate(job, checked_progress(context, job));
      return;
    }
    max_utilization_ = std::max(max_utilization_, network_->utilization().max);
    for (std::size_t c = 0; c < kLinkClassCount; ++c)
      max_class_utilization_[c] =
          std::max(max_class_utilization_[c], network_->utilization().max_by_class[c]);
    for (const RunningJob& r : running) context.set_rate(r.job, checked_progress(context, r.job));
  }

  /// The job's progress rate from the last solve(), refused (naming the parameters) unless it
  /// is finite and > 0 and its remaining work at that rate ends at a finite time: a bandwidth
  /// or a pattern's bytes far enough from 1 make the slowdown overflow or vanish.
  double checked_progress(const RateContext& context, int job) const {
    const FlowNetwork::JobRate& rate = network_->rate(job);
    const double end = context.now() + context.remaining_work(job) / rate.progress;
    if (rate.progress > 0 && std::isfinite(rate.progress) && std::isfinite(end))
      return rate.progress;
    throw InputError("runtime model 'flow': job " + std::to_string(context.jobs()[job].id) +
                     " gets a communication slowdown of " + number_text(rate.comm_slowdown) +
                     " (progress rate " + number_text(rate.progress) + ") with bandwidth=" +
                     number_text(bandwidth_) + ", comm=" + number_text(comm_) +
                     (context.traffic(job) ? " and its pattern's bytes" : "") +
                     ": not a finite time; bring the bandwidth (or the pattern's bytes) closer "
                     "to 1");
  }

  /// Alone on its own allocation: the trace runtime at the rate its own loads allow
  /// (FlowNetwork::alone_rate), with its own comm share; computed at its start.
  double own_alone_runtime(int job_index, const Job&, double work) const override {
    const auto found = alone_.find(job_index);
    return found == alone_.end() ? work : found->second;
  }

  /// Link utilization averaged over the time from the first start to the last end.
  void summarize(RunSummary& summary) const override {
    const double span = last_time_ - first_time_;
    summary.mean_link_utilization = span > 0 ? utilization_integral_ / span : 0;
    summary.max_link_utilization = max_utilization_;
    // Per link class (graph machines; 0 where the machine has no link of the class).
    const auto of = [&](LinkClass c) {
      return max_class_utilization_[static_cast<std::size_t>(c)];
    };
    summary.max_link_util_endpoint = std::max(of(LinkClass::injection), of(LinkClass::ejection));
    summary.max_link_util_local = of(LinkClass::local);
    summary.max_link_util_global = of(LinkClass::global);
    summary.max_link_util_router = std::max(
        {of(LinkClass::local), of(LinkClass::global), of(LinkClass::up), of(LinkClass::down)});
  }

 private:
  /// A job with the run's pattern: its mapped bytes per link; the reference is the same
  /// pattern with task i on node i of the reference compact allocation (memo per task count:
  /// one pattern per run).
  void add_pattern_job(const Topology& topology, int job, const JobTraffic& traffic) {
    const auto loads = route_task_graph(topology, traffic.graph->comm_view(), traffic.placement,
                                        scratch_, &poll_, network_->link_load_view(job));
    const int tasks = traffic.graph->size();
    auto found = pattern_reference_rates_.find(tasks);
    if (found == pattern_reference_rates_.end()) {
      const std::vector<NodeId> compact = reference_compact_nodes(topology, tasks);
      const double pacing = network_->pacing_load(
          route_task_graph(topology, traffic.graph->comm_view(), compact, scratch_, &poll_));
      const double rate = pacing > 0 ? 1.0 / pacing : std::numeric_limits<double>::infinity();
      found = pattern_reference_rates_.emplace(tasks, rate).first;
    }
    network_->add_job(job, loads, found->second);
  }

  /// A job whose own pattern is the stencil (CommPattern::stencil, the comm_classes
  /// transform): the 2D nearest-neighbour pattern `mesh2d:auto` (most square A x B = tasks)
  /// with one message each way per neighbour pair (bytes=2, half each way), so its loads count
  /// messages as the all-to-all jobs' do; task i on the i-th node of its allocation (no
  /// mapper). Its reference: the same with task i on node i of the reference compact
  /// allocation (memo per task count); not capped, like a mapped pattern.
  void add_stencil_job(const Topology& topology, int job, std::span<const NodeId> nodes) {
    const auto tasks = static_cast<int>(nodes.size());
    if (tasks < 2) {  // no messages
      network_->add_job(job, nodes);
      return;
    }
    auto graph = stencil_graphs_.find(tasks);
    if (graph == stencil_graphs_.end()) {
      if (stencil_graphs_.size() >= kMaxStencilGraphs) {
        stencil_graphs_.clear();
        stencil_reference_rates_.clear();
      }
      graph = stencil_graphs_.emplace(tasks, mapping::job_pattern_graph(kStencil, tasks)).first;
    }
    const CommGraphView view = graph->second.comm_view();
    const auto loads =
        route_task_graph(topology, view, nodes, scratch_, &poll_, network_->link_load_view(job));
    auto reference = stencil_reference_rates_.find(tasks);
    if (reference == stencil_reference_rates_.end()) {
      const std::vector<NodeId> compact = reference_compact_nodes(topology, tasks);
      const double pacing =
          network_->pacing_load(route_task_graph(topology, view, compact, scratch_, &poll_));
      const double rate = pacing > 0 ? 1.0 / pacing : std::numeric_limits<double>::infinity();
      reference = stencil_reference_rates_.emplace(tasks, rate).first;
    }
    network_->add_job(job, loads, reference->second);
  }
  static constexpr const char* kStencil = "mesh2d:bytes=2";
  static constexpr std::size_t kMaxStencilGraphs = 64;

  /// An all-to-all job on a machine whose first axis lists the processors of one switch
  /// (switches_): its processors' switches, a switch once per processor on it.
  void add_switched_job(const Topology& machine, int job, std::span<const NodeId> nodes) {
    std::vector<NodeId> switches(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) switches[i] = switch_of(machine, nodes[i]);
    network_->add_job(job, switches,
                      switched_reference_rate(machine, static_cast<int>(nodes.size())));
  }
  /// Reference rate of k processors (memo per k): filling the ceil(k / s) switches of the most
  /// compact switch box in order, s processors each (s = side(0)); 1 / the largest load of
  /// their all-to-all, or of a processor's own link to its switch (k − 1 each way), whichever
  /// is larger. +inf when k < 2.
  double switched_reference_rate(const Topology& machine, int k) {
    if (k < 2) return std::numeric_limits<double>::infinity();
    const auto found = switched_reference_rates_.find(k);
    if (found != switched_reference_rates_.end()) return found->second;
    const int per_switch = machine.side(0);
    std::vector<NodeId> switches;
    for (const NodeId s :
         reference_compact_nodes(*switch_topology_, (k + per_switch - 1) / per_switch))
      for (int slot = 0; slot < per_switch && static_cast<int>(switches.size()) < k; ++slot)
        switches.push_back(s);
    double max_load = static_cast<double>(k - 1);
    for (const LoadedLink& load :
         all_to_all_link_loads(*switch_topology_, switches, scratch_, &poll_))
      max_load = std::max(max_load, load.load);
    const double rate = 1.0 / max_load;
    switched_reference_rates_.emplace(k, rate);
    return rate;
  }

  double comm_, bandwidth_;
  FlowLoad load_;
  bool switches_ = false;
  bool weighted_ = false;                            ///< share=weighted
  bool reference_cap_ = true;                        ///< cap=compact (false: cap=none)
  std::unique_ptr<const Topology> switch_topology_;  ///< switches_: the machine's switches
  std::unordered_map<int, double> switched_reference_rates_;
  std::unordered_map<int, double> pattern_reference_rates_;
  std::unordered_map<int, mapping::TaskGraph> stencil_graphs_;  ///< per task count
  std::unordered_map<int, double> stencil_reference_rates_;     ///< per task count
  std::unordered_map<int, double> alone_;  ///< running jobs' alone runtimes (own allocation)
  LinkLoadScratch scratch_;
  TimeLimitPoll poll_{nullptr};           ///< the run's wall-clock limit, for this model's loops
  std::unique_ptr<FlowNetwork> network_;  ///< built on the first call, for the run's machine
  double first_time_ = 0, last_time_ = 0, utilization_integral_ = 0, max_utilization_ = 0;
  std::array<double, kLinkClassCount> max_class_utilization_{};  ///< per LinkClass, as max
};

class DistanceRuntime final : public RuntimeModel {
 public:
  explicit DistanceRuntime(DistanceModelParams params) : params_(params) {}

  double runtime(const Job& job, const Allocation& allocation,
                 const Topology& topology) const override {
    const std::span<const NodeId> nodes = task_nodes(job, allocation);
    const auto k = static_cast<int>(nodes.size());
    if (k < 2) return job.runtime;
    const double hops = mean_hops(topology, nodes);
    const double runtime =
        distance_model_runtime(job.runtime, hops, reference_mean_hops(topology, k), params_);
    if (!std::isfinite(runtime) || runtime < 0)
      throw InputError("runtime model 'distance': job " + std::to_string(job.id) + " of runtime " +
                       number_text(job.runtime) + " at " + number_text(hops) + " mean hops runs " +
                       number_text(runtime) + " with a=" + number_text(params_.a) + ", e=" +
                       number_text(params_.e) + ", not a finite time; choose a smaller a or e");
    return runtime;
  }

 private:
  static double mean_hops(const Topology& topology, std::span<const NodeId> nodes) {
    const auto k = static_cast<double>(nodes.size());
    return static_cast<double>(pairwise_hop_sum(topology, nodes)) / (k * (k - 1) / 2);
  }
  double reference_mean_hops(const Topology& topology, int k) const {
    const auto found = reference_.find(k);
    if (found != reference_.end()) return found->second;
    const double hops = mean_hops(topology, reference_compact_nodes(topology, k));
    reference_.emplace(k, hops);
    return hops;
  }

  DistanceModelParams params_;
  /// Mean hops of the reference allocation per job size, for the run's one machine: a memo
  /// of a pure function (≤ node_count entries), so it cannot change an answer.
  mutable std::unordered_map<int, double> reference_;
};

}  // namespace

std::unique_ptr<RuntimeModel> make_flow_runtime(double comm, double bandwidth, FlowLoad load,
                                                bool switches, bool weighted_sharing,
                                                bool reference_cap) {
  require_number(comm, kFlowCommRule, "runtime model 'flow': parameter 'comm'");
  require_number(bandwidth, kFlowBandwidthRule, "runtime model 'flow': parameter 'bandwidth'");
  if (switches && load != FlowLoad::max)
    throw InputError("runtime model 'flow': switch=first needs load=max.");
  return std::make_unique<FlowRuntime>(comm, bandwidth, load, switches, weighted_sharing,
                                       reference_cap);
}

std::unique_ptr<RuntimeModel> make_distance_runtime(DistanceModelParams params) {
  require_number(params.a, kDistanceARule, "runtime model 'distance': parameter 'a'");
  require_number(params.e, kDistanceERule, "runtime model 'distance': parameter 'e'");
  return std::make_unique<DistanceRuntime>(params);
}

}  // namespace allocsim
