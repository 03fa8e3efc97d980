#include "allocsim/sim/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "allocsim/alloc/curve.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/sim/decisions.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

namespace {

double mean_of(const std::vector<JobRecord>& records, double JobRecord::*field,
               bool (*include)(const JobRecord&) = nullptr) {
  double sum = 0;
  std::size_t count = 0;
  for (const auto& record : records)
    if (!include || include(record)) {
      sum += record.*field;
      ++count;
    }
  return count ? sum / static_cast<double>(count) : 0;
}

}  // namespace

Simulation::Simulation(const RunConfig& config, Workload workload)
    : config_(config),
      workload_(std::move(workload)),
      topology_(Topology::parse(config.machine)),
      rng_(config.seed),
      meter_(topology_) {
  allocator_ = make_allocator(config.alloc, topology_);
  {
    auto [entry, params] = scheduler_registry().resolve(config.sched);
    scheduler_ = entry->factory(params);
  }
  {
    auto [entry, params] = runtime_model_registry().resolve(config.runtime_model);
    runtime_model_ = entry->factory(params);
  }
  if (!config.decisions.empty()) {
    decision_recorder_ = std::make_unique<DecisionRecorder>(
        config.decisions, topology_, mix_seed(config.seed, stable_hash("decisions")));
    add_observer(decision_recorder_.get());
  }

  const int nodes = topology_.node_count();
  drop_oversized(workload_, nodes);
  const auto before = workload_.jobs.size();
  std::erase_if(workload_.jobs,
                [&](const Job& job) { return allocator_->nodes_needed(job) > nodes; });
  if (workload_.jobs.size() != before)
    workload_.diagnostics.count("allocator needs more nodes than the machine has (dropped)", 0,
                                static_cast<std::int64_t>(before - workload_.jobs.size()));
  // Arrivals at equal times are taken in job id order.
  std::stable_sort(workload_.jobs.begin(), workload_.jobs.end(), [](const Job& a, const Job& b) {
    return a.submit < b.submit || (a.submit == b.submit && a.id < b.id);
  });
  busy_.assign(nodes, 0);
  free_count_ = nodes;
  records_.resize(workload_.jobs.size());
  fragmentation_seen_.assign(workload_.jobs.size(), 0);
}

Simulation::~Simulation() = default;

std::optional<Allocation> Simulation::try_allocate(int job_index) {
  const Job& job = workload_.jobs[job_index];
  if (free_count_ < allocator_->nodes_needed(job)) return std::nullopt;
  auto allocation = allocator_->allocate(job, view());
  if (!allocation && !fragmentation_seen_[job_index]) {
    fragmentation_seen_[job_index] = 1;  // enough nodes free, but not in the required shape
    ++external_fragmentation_;
  }
  return allocation;
}

void Simulation::start(int job_index, Allocation allocation) {
  const Job& job = workload_.jobs[job_index];
  for (auto* observer : observers_) observer->before_commit(job, view(), allocation);
  for (NodeId node : allocation.nodes) {
    if (busy_[node])
      throw std::logic_error("allocator handed out busy node " + std::to_string(node));
    busy_[node] = 1;
  }
  free_count_ -= static_cast<int>(allocation.nodes.size());
  allocator_->commit(allocation);
  waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));

  RunningJob running;
  running.job = job_index;
  running.start = now_;
  running.end = now_ + runtime_model_->runtime(job, allocation, topology_);
  running.estimated_end = now_ + job.estimate;

  JobRecord& record = records_[job_index];
  record.job_id = job.id;
  record.submit = job.submit;
  record.start = now_;
  record.end = running.end;
  record.wait = now_ - job.submit;
  record.procs = job.procs;
  record.runtime = running.end - now_;
  record.estimate = job.estimate;
  const double delta = config_.bsd_threshold;
  record.bounded_slowdown =
      std::max(record.end - job.submit, delta) / std::max(record.runtime, delta);
  const auto k = static_cast<double>(allocation.nodes.size());
  record.nodes = k;
  record.internal_fragmentation = k - job.procs;
  record.pieces = allocation.pieces;
  if (k >= 2)
    record.avg_pairwise_hops =
        static_cast<double>(meter_.pairwise_sum(allocation.nodes)) / (k * (k - 1) / 2);
  record.components = meter_.components(allocation.nodes);
  const BoundingBox box = meter_.bounding_box(allocation.nodes);
  record.bbox_volume = static_cast<double>(box.volume);
  record.bbox_sides = static_cast<double>(box.sides_sum);
  const int size = static_cast<int>(allocation.nodes.size());
  record.bbox_ratio = record.bbox_volume / static_cast<double>(meter_.smallest_box(size));
  // Bounding cube: the cube (capped by the machine's sides) around the longest box side.
  const int cube_side =
      box.extents.empty() ? 0 : *std::max_element(box.extents.begin(), box.extents.end());
  double cube = 1;
  for (int side : topology_.sides()) cube *= std::min(cube_side, side);
  record.bounding_cube_ratio = cube / static_cast<double>(meter_.smallest_cube(size));
  if (allocation.linear_span > 0) {
    record.linear_span = allocation.linear_span;
    record.ring_span = allocation.ring_span;
  } else {  // row order: ranks are node ids
    const std::vector<int> ranks(allocation.nodes.begin(), allocation.nodes.end());
    record.linear_span = linear_span(ranks);
    record.ring_span = ring_span(ranks, topology_.node_count());
  }
  record.stretch = k > 0 ? record.linear_span / k : 0;

  completions_.emplace(running.end, job.id, job_index);
  running.allocation = std::move(allocation);
  running_.push_back(std::move(running));
}

void Simulation::finish(int job_index) {
  auto found = std::find_if(running_.begin(), running_.end(),
                            [&](const RunningJob& r) { return r.job == job_index; });
  Allocation& allocation = found->allocation;
  for (NodeId node : allocation.nodes) busy_[node] = 0;
  free_count_ += static_cast<int>(allocation.nodes.size());
  allocator_->release(allocation);
  for (auto* observer : observers_) observer->after_release(allocation);
  *found = std::move(running_.back());
  running_.pop_back();
}

void Simulation::check_timeout() {
  if (config_.timeout_seconds <= 0) return;
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
  if (elapsed.count() > config_.timeout_seconds)
    throw TimeoutError("simulation exceeded its timeout of " +
                       std::to_string(config_.timeout_seconds) + " s at simulated time " +
                       std::to_string(now_));
}

RunResult Simulation::run() {
  started_ = std::chrono::steady_clock::now();
  const auto& jobs = workload_.jobs;
  std::vector<char> placed(jobs.size(), 0);
  std::size_t next_arrival = 0;
  std::int64_t events = 0;
  std::int64_t unplaceable = 0;
  while (next_arrival < jobs.size() || !completions_.empty()) {
    const double arrival_time = next_arrival < jobs.size() ? jobs[next_arrival].submit : INFINITY;
    const double completion_time =
        completions_.empty() ? INFINITY : std::get<0>(completions_.top());
    now_ = std::min(arrival_time, completion_time);
    while (!completions_.empty() && std::get<0>(completions_.top()) == now_) {
      const int job_index = std::get<2>(completions_.top());
      completions_.pop();
      finish(job_index);
    }
    while (next_arrival < jobs.size() && jobs[next_arrival].submit == now_)
      waiting_.push_back(static_cast<int>(next_arrival++));
    scheduler_->schedule(*this);
    // On an idle machine, a waiting job that the allocator cannot place can never run.
    if (running_.empty() && !waiting_.empty()) {
      std::vector<int> stuck;
      for (int job_index : waiting_)
        if (!allocator_->allocate(jobs[job_index], view())) stuck.push_back(job_index);
      for (int job_index : stuck) {
        waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));
        records_[job_index].job_id = -1;  // marks a dropped record
        ++unplaceable;
      }
      scheduler_->schedule(*this);
      if (running_.empty() && !waiting_.empty() && next_arrival >= jobs.size())
        throw std::logic_error("scheduler left placeable jobs waiting on an idle machine");
    }
    if ((++events & 1023) == 0) check_timeout();
  }
  if (unplaceable > 0)
    workload_.diagnostics.count("allocator cannot place the job even on an empty machine (dropped)",
                                0, unplaceable);
  return summarize();
}

RunResult Simulation::summarize() {
  RunResult result;
  std::erase_if(records_, [](const JobRecord& r) { return r.job_id == -1; });
  RunSummary& s = result.summary;
  const double n = static_cast<double>(records_.size());
  s.jobs = n;
  if (!records_.empty()) {
    s.first_submit = records_.front().submit;
    s.last_end = records_.front().end;
    double work = 0;
    std::vector<double> waits;
    waits.reserve(records_.size());
    for (const auto& r : records_) {
      s.first_submit = std::min(s.first_submit, r.submit);
      s.last_end = std::max(s.last_end, r.end);
      work += r.procs * r.runtime;
      waits.push_back(r.wait);
    }
    s.makespan = s.last_end - s.first_submit;
    const int nodes = topology_.node_count();
    s.utilization = s.makespan > 0 ? work / (nodes * s.makespan) : 0;
    s.offered_load = offered_load(workload_.jobs, nodes);
    std::sort(waits.begin(), waits.end());
    s.mean_wait = mean_of(records_, &JobRecord::wait);
    s.median_wait = waits.size() % 2 ? waits[waits.size() / 2]
                                     : (waits[waits.size() / 2 - 1] + waits[waits.size() / 2]) / 2;
    // p95: nearest rank.
    s.p95_wait = waits[static_cast<std::size_t>(std::ceil(0.95 * n)) - 1];
    s.max_wait = waits.back();
    double response = 0;
    for (const auto& r : records_) response += r.end - r.submit;
    s.mean_response = response / n;
    s.mean_bounded_slowdown = mean_of(records_, &JobRecord::bounded_slowdown);
    auto multi_node = [](const JobRecord& r) { return r.nodes >= 2; };
    s.mean_pairwise_hops = mean_of(records_, &JobRecord::avg_pairwise_hops, multi_node);
    s.mean_components = mean_of(records_, &JobRecord::components);
    s.mean_internal_fragmentation = mean_of(records_, &JobRecord::internal_fragmentation);
    s.mean_pieces = mean_of(records_, &JobRecord::pieces);
    s.mean_bbox_ratio = mean_of(records_, &JobRecord::bbox_ratio);
    s.mean_bbox_sides = mean_of(records_, &JobRecord::bbox_sides);
    s.mean_bounding_cube_ratio = mean_of(records_, &JobRecord::bounding_cube_ratio);
    s.mean_linear_span = mean_of(records_, &JobRecord::linear_span);
    s.mean_ring_span = mean_of(records_, &JobRecord::ring_span);
    s.mean_stretch = mean_of(records_, &JobRecord::stretch);
  }
  s.external_fragmentation = static_cast<double>(external_fragmentation_);
  s.allocator_fallbacks = static_cast<double>(allocator_->fallbacks());
  if (decision_recorder_) result.decisions = decision_recorder_->rows();
  if (config_.keep_jobs) result.jobs = std::move(records_);
  result.diagnostics = workload_.diagnostics;
  return result;
}

// ---- Whole-run helpers ----

Workload load_workload(const RunConfig& config, const std::string& trace_dir) {
  if (config.trace.rfind("synthetic:", 0) == 0 || config.trace == "synthetic") {
    Rng rng(mix_seed(config.workload_seed, stable_hash("synthetic")));
    return generate_synthetic(config.trace, rng);
  }
  ReadOptions options;
  options.strict = config.strict;
  options.estimate_factor = config.estimate_factor;
  return read_trace(resolve_trace_path(config.trace, trace_dir), options);
}

Workload transform_workload(const RunConfig& config, const Workload& base) {
  Workload workload = base;
  Rng rng(mix_seed(config.workload_seed, stable_hash("transforms")));
  TransformContext context{Topology::parse(config.machine).node_count(), &rng};
  for (const auto& spec : config.transforms) apply_transform(workload, spec, context);
  return workload;
}

RunResult simulate(const RunConfig& config, const Workload& base) {
  Simulation simulation(config, transform_workload(config, base));
  return simulation.run();
}

RunResult simulate(const RunConfig& config, const std::string& trace_dir) {
  return simulate(config, load_workload(config, trace_dir));
}

}  // namespace allocsim
