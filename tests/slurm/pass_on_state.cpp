// Runs one scheduling pass of an allocsim scheduler on a machine state given node by node: the
// scheduling half of the real-Slurm comparison (slurm_compare.py, issue 28 section 3). The jobs
// Slurm was running at one of its passes hold the nodes Slurm gave them (a trace cannot say
// which nodes a job holds, and Slurm's backfill reserves specific nodes, so they matter), the
// waiting jobs queue in submit order, and the scheduler is asked once, at the pass's time.
//
//   pass_on_state MACHINE ALLOCATOR SCHEDULER < STATES
//
// STATES is a sequence of blocks, each:
//   now T                               the pass's time (slurmctld's whole seconds: epoch)
//   run JOB START LIMIT NODE...         a running job: its start, time limit (s), node names
//   wait JOB SUBMIT NODES LIMIT         a waiting job (the queue is in submit order, then id)
//   pass                                runs the pass and prints one line per job it started,
//                                       `JOB NODE...` (names in id order), then `.`
// Node names are a Slurm topology file's on `slurm-topology:FILE`, else n<id>. Running jobs are
// committed to the allocator in the order given; each is planned to end at START + LIMIT (as
// Slurm's backfill plans it: the job's runtime is not known). A bad line is an error naming its
// line number.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "allocsim/alloc/allocator.hpp"
#include "allocsim/sched/scheduler.hpp"
#include "allocsim/topo/graph_machine.hpp"
#include "allocsim/topo/topology.hpp"
#include "allocsim/util/rng.hpp"
#include "sim/job_maker.hpp"

namespace {

using namespace allocsim;
using allocsim::testing::make_job;  // (limit = runtime = estimate)

std::string name_of(const Topology& topology, NodeId node) {
  return topology.graph() != nullptr ? topology.graph()->node_name(node)
                                     : std::string(1, 'n').append(std::to_string(node));
}

/// One machine state and the pass on it.
class State final : public SchedulerContext {
 public:
  State(const Topology& topology, const std::string& alloc)
      : topology_(&topology),
        allocator_(make_allocator(alloc, topology)),
        busy_(static_cast<std::size_t>(topology.node_count()), 0),
        free_(topology.node_count()) {}

  void set_now(double now) { now_ = now; }
  void add_running(const Job& job, double start, std::vector<NodeId> nodes) {
    jobs_.push_back(job);
    Allocation allocation;
    allocation.nodes = std::move(nodes);
    for (NodeId node : allocation.nodes) {
      if (busy_[static_cast<std::size_t>(node)])
        throw std::runtime_error("node " + name_of(*topology_, node) + " held twice");
      busy_[static_cast<std::size_t>(node)] = 1;
    }
    free_ -= static_cast<int>(allocation.nodes.size());
    allocator_->commit(allocation);
    const int index = static_cast<int>(jobs_.size()) - 1;
    running_.push_back({index, start, start + job.estimate, std::move(allocation)});
  }
  void add_waiting(const Job& job) {
    jobs_.push_back(job);
    waiting_.push_back(static_cast<int>(jobs_.size()) - 1);
  }
  /// Queue in submit order, then id; jobs() keeps the order of the lines.
  void order_queue() {
    std::stable_sort(waiting_.begin(), waiting_.end(), [&](int a, int b) {
      return std::pair(jobs_[a].submit, jobs_[a].id) < std::pair(jobs_[b].submit, jobs_[b].id);
    });
  }

  double now() const override { return now_; }
  const Topology& topology() const override { return *topology_; }
  const std::vector<Job>& jobs() const override { return jobs_; }
  const std::vector<int>& waiting() const override { return waiting_; }
  const std::vector<RunningJob>& running() const override { return running_; }
  int free_count() const override { return free_; }
  const std::vector<char>& busy() const override { return busy_; }
  const Allocator& allocator() const override { return *allocator_; }
  std::optional<Allocation> try_allocate(int job_index) override {
    if (free_ < nodes_needed(job_index)) return std::nullopt;
    const MachineView view(*topology_, busy_, free_, rng_, this, now_);
    return allocator_->allocate(jobs_[job_index], view);
  }
  std::optional<Allocation> try_allocate_excluding(int job_index,
                                                   const std::vector<char>& excluded) override {
    return allocate_excluding(job_index, excluded, rng_);
  }
  void start(int job_index, Allocation allocation) override {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), job_index));
    started.emplace_back(jobs_[job_index].id, allocation.nodes);
    Job job = jobs_[job_index];
    for (NodeId node : allocation.nodes) busy_[static_cast<std::size_t>(node)] = 1;
    free_ -= static_cast<int>(allocation.nodes.size());
    allocator_->commit(allocation);
    running_.push_back({job_index, now_, now_ + job.estimate, std::move(allocation)});
  }

  std::vector<std::pair<std::int64_t, std::vector<NodeId>>> started;

 private:
  const Topology* topology_;
  std::vector<Job> jobs_;
  std::unique_ptr<Allocator> allocator_;
  std::vector<char> busy_;
  int free_;
  double now_ = 0;
  std::vector<int> waiting_;
  std::vector<RunningJob> running_;
  Rng rng_{1};
};

int run(const std::string& machine, const std::string& alloc, const std::string& sched) {
  const Topology topology = Topology::parse(machine);
  std::map<std::string, NodeId> ids;
  for (NodeId node = 0; node < topology.node_count(); ++node) ids[name_of(topology, node)] = node;
  const auto [entry, params] = scheduler_registry().resolve(sched);
  auto state = std::make_unique<State>(topology, alloc);
  std::string line;
  for (int number = 1; std::getline(std::cin, line); ++number) {
    std::istringstream fields(line);
    std::string kind;
    if (!(fields >> kind)) continue;
    auto fail = [&](const std::string& what) {
      std::cerr << "line " << number << ": " << what << "\n";
      return 1;
    };
    if (kind == "now") {
      double now = 0;
      if (!(fields >> now)) return fail("expected `now T`");
      state->set_now(now);
    } else if (kind == "run") {
      std::int64_t id = 0;
      double start = 0, limit = 0;
      if (!(fields >> id >> start >> limit)) return fail("expected `run JOB START LIMIT NODE...`");
      std::vector<NodeId> nodes;
      for (std::string name; fields >> name;) {
        const auto it = ids.find(name);
        if (it == ids.end()) return fail("node '" + name + "' is not in " + machine);
        nodes.push_back(it->second);
      }
      if (nodes.empty()) return fail("a running job without nodes");
      state->add_running(make_job(id, start, static_cast<int>(nodes.size()), limit), start,
                         std::move(nodes));
    } else if (kind == "wait") {
      std::int64_t id = 0;
      double submit = 0, limit = 0;
      int size = 0;
      if (!(fields >> id >> submit >> size >> limit) || size <= 0)
        return fail("expected `wait JOB SUBMIT NODES LIMIT`");
      state->add_waiting(make_job(id, submit, size, limit));
    } else if (kind == "pass") {
      state->order_queue();
      auto scheduler = entry->factory(params);
      scheduler->schedule(*state);
      for (auto& [id, nodes] : state->started) {
        std::sort(nodes.begin(), nodes.end());
        std::cout << id;
        for (NodeId node : nodes) std::cout << ' ' << name_of(topology, node);
        std::cout << '\n';
      }
      std::cout << ".\n" << std::flush;
      state = std::make_unique<State>(topology, alloc);
    } else {
      return fail("unknown line kind '" + kind + "'");
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: pass_on_state MACHINE ALLOCATOR SCHEDULER < STATES\n";
    return 2;
  }
  try {
    return run(argv[1], argv[2], argv[3]);
  } catch (const std::exception& error) {
    std::cerr << "pass_on_state: " << error.what() << "\n";
    return 1;
  }
}
