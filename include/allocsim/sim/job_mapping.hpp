#pragma once
// Task mapping inside simulations (Agarwal, Sharma and Kalé §3–4, applied per job): when a
// job starts, its communication pattern (RunConfig::pattern, sized to the job's processor
// count) is mapped by RunConfig::mapper onto the nodes it was allocated, and the mapping's
// hop-bytes, hops per byte and maximum link load are written into the job's record.
//
// For runtime models (e.g. network models in which jobs share links): RateContext::traffic()
// returns the JobTraffic of a running job — its task graph, its placement and its traffic
// aggregated per pair of nodes. Observers run before the runtime model is asked at a start
// (sim/simulation.hpp, event order), so a model sees the traffic of the job that just started.
// Mapping happens outside simulated time; its wall-clock time is reported apart from the
// results (RunResult::mapping_seconds), never in records or summaries, which stay
// deterministic.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "allocsim/mapping/mapper.hpp"
#include "allocsim/metrics/hop_bytes.hpp"
#include "allocsim/sim/observer.hpp"

namespace allocsim {

class JobRecorder;

/// Bytes per iteration between two distinct nodes of one job (both directions together).
struct NodeFlow {
  NodeId a = 0, b = 0;  ///< a < b
  double bytes = 0;
};

/// A running job's mapped communication (one per running job with a pattern).
struct JobTraffic {
  std::shared_ptr<const mapping::TaskGraph> graph;  ///< shared by jobs of equal size
  std::vector<NodeId> placement;                    ///< task -> node
  std::vector<NodeFlow> flows;  ///< per node pair, sorted by (a, b); bytes on one node left out
  HopBytes hop_bytes;
  LinkLoad link_load;
};

/// The observer that maps each starting job's pattern onto its nodes (see the file comment).
/// Deterministic: each job's mapper draws from a generator seeded by (run seed, job id), so a
/// job's mapping depends on its nodes only, not on other jobs or on the order of starts.
class JobMappingObserver final : public SimulationObserver {
 public:
  /// `pattern` a job pattern (mapping/job_pattern.hpp), `mapper` a mapper chain spec; writes
  /// into `records` (must outlive the observer). The mappers poll `time_limit` (the run's
  /// --timeout; may be null) in their loops. Throws InputError on bad specs.
  JobMappingObserver(const Topology& topology, const std::string& pattern,
                     const std::string& mapper, std::uint64_t seed, JobRecorder& records,
                     const TimeLimit* time_limit = nullptr);

  void on_start(int job_index, const Job& job, double now, const Allocation& allocation) override;
  void on_finish(int job_index, const Job& job, double now, const Allocation& allocation) override;

  /// The traffic of a running job, or nullptr (not running).
  const JobTraffic* traffic(int job_index) const;
  /// Wall-clock seconds spent building patterns and mapping so far.
  double seconds() const { return seconds_; }

 private:
  std::shared_ptr<const mapping::TaskGraph> graph_for(int tasks);

  const Topology* topology_;
  std::string pattern_;
  mapping::MapperChain mapper_;
  std::uint64_t seed_;
  JobRecorder* records_;
  const TimeLimit* time_limit_;
  std::map<int, std::shared_ptr<const mapping::TaskGraph>> graphs_;  // by task count
  std::unordered_map<int, JobTraffic> running_;                      // by job index
  double seconds_ = 0;
};

}  // namespace allocsim
