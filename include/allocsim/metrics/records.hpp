#pragma once
// Result value types produced once per job / per run and consumed by every writer
// (console, JSON, CSV, HDF5, MPI). Column tables list the fields by their output names.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace allocsim {

class Topology;

/// Per-job record. Every field is a double except the job id, so writers can treat it as a row.
/// A field that does not apply to the machine's kind (bounding boxes on a graph machine, router
/// counts on a grid) is 0, the results' convention for "not measured" (as hop_bytes without a
/// pattern); its column description says which kinds it applies to.
struct JobRecord {
  std::int64_t job_id = 0;
  double submit = 0, start = 0, end = 0, wait = 0;
  double procs = 0, runtime = 0, estimate = 0;
  double bounded_slowdown = 0;
  double avg_pairwise_hops = 0;
  double components = 0;
  double nodes = 0;                   ///< nodes made busy (>= procs for block allocators)
  double internal_fragmentation = 0;  ///< nodes - procs
  double pieces = 0;
  /// Grid measures (mesh, torus, flat), 0 on graph machines (not applicable: no coordinates).
  double bbox_volume = 0, bbox_ratio = 0, bbox_sides = 0, bounding_cube_ratio = 0;
  double linear_span = 0, ring_span = 0, stretch = 0;  ///< ring_span: grids and flat only
  /// Graph machines only (dragonfly, fat tree, ...), 0 on grids (not applicable): mean over
  /// node pairs of GraphMachine::router_hops, and the routers and groups the nodes span.
  double router_hops = 0, routers_spanned = 0, groups_spanned = 0;
  /// Communication of the job's mapped pattern (Agarwal et al. §3; sim/job_mapping.hpp), all 0
  /// without a pattern: bytes per iteration (hops-per-byte denominator), hop-bytes, hops per
  /// byte, and the most bytes on one directed link under dimension-ordered routing.
  double comm_bytes = 0, hop_bytes = 0, hops_per_byte = 0, max_link_load = 0;
  /// Actual runtime / alone-compact runtime (the job alone on the reference compact allocation,
  /// RuntimeModel::alone_runtime): 1 under `fixed`, the slowdown due to communication under the
  /// network runtime models.
  double comm_slowdown = 1;
  /// The three runtimes of a job (issue 27, issue 29 item 3): its trace runtime (from the
  /// trace, after transforms); its alone runtime (the job under the run's runtime model alone on
  /// its own allocation, its own traffic only: RuntimeModel::own_alone_runtime; 0 when the
  /// model does not measure it); its actual runtime (`runtime`, with all jobs).
  double trace_runtime = 0, runtime_alone = 0;
  /// Actual / alone runtime: the slowdown that other jobs' traffic causes the job (1 when
  /// nothing shares its links; 0 when the alone runtime is not measured).
  double interference = 0;
  /// max(response, threshold) / max(trace runtime, threshold): bounded slowdown against the
  /// trace runtime, so a job stretched by communication counts as slowed down.
  double bounded_slowdown_trace = 0;
  /// The job's communication class as a number (CommClass): 0 none, 1 light, 2 heavy.
  double comm_class = 0;
  /// The job's nodes as an interval set, Batsim's notation: sorted, "0-3 8 10-11" (filled
  /// only when the run keeps its job records; not a column of job_columns()).
  std::string allocated_nodes;
  /// Ended at its time limit while still running (a scheduler with time limits: `slurm`). Not a
  /// column of job_columns(): `--jobs-out` adds a `killed` column when some job was.
  bool killed = false;
};

/// Per-run summary; names are the JSON keys and HDF5 column names.
struct RunSummary {
  double jobs = 0, makespan = 0, utilization = 0, offered_load = 0;
  double mean_wait = 0, median_wait = 0, p95_wait = 0, max_wait = 0;
  double mean_response = 0, mean_bounded_slowdown = 0;
  double mean_pairwise_hops = 0, mean_components = 0;
  double external_fragmentation = 0;
  double mean_internal_fragmentation = 0, mean_pieces = 0;
  double mean_bbox_ratio = 0, mean_bbox_sides = 0, mean_bounding_cube_ratio = 0;
  double mean_linear_span = 0, mean_ring_span = 0, mean_stretch = 0;
  /// Graph machines only (0 on grids): means of router_hops (jobs of two or more nodes),
  /// routers_spanned and groups_spanned.
  double mean_router_hops = 0, mean_routers_spanned = 0, mean_groups_spanned = 0;
  double allocator_fallbacks = 0;  ///< e.g. greedy-optimal budget exhaustions
  double first_submit = 0, last_end = 0;
  /// Mapped communication (0 without a pattern): means over jobs with bytes to send (jobs of
  /// one task have none), and the largest max_link_load of any job.
  double mean_hop_bytes = 0, mean_hops_per_byte = 0, mean_max_link_load = 0;
  double max_link_load = 0;
  double mean_comm_slowdown = 0;
  /// Utilization counted on trace runtimes (Σ procs x trace runtime / (nodes x makespan)):
  /// communication-inflated time is not work. Mean bounded slowdown against trace runtimes.
  double utilization_trace = 0, mean_bounded_slowdown_trace = 0;
  /// Interference (actual / alone runtime) over the jobs whose alone runtime was measured:
  /// mean, nearest-rank 95th percentile and maximum; then the same over heavy and over light
  /// communicators (comm_class; 0 when a class has no measured job).
  double mean_interference = 0, p95_interference = 0, max_interference = 0;
  double mean_interference_heavy = 0, p95_interference_heavy = 0, max_interference_heavy = 0;
  double mean_interference_light = 0, p95_interference_light = 0, max_interference_light = 0;
  /// Link utilization, time-averaged over the run (mean over links) and the largest any link
  /// reached; measured by the network runtime models (`flow`), 0 under the others.
  double mean_link_utilization = 0, max_link_utilization = 0;
  /// max_link_utilization over one class of links (graph machines under `flow`; 0 on grids,
  /// flat and under the other models, and for a class the machine lacks): injection and
  /// ejection links (node <-> its router), router-to-router links within a group (dragonfly
  /// local links, links between grid routers), dragonfly global links, and every link between
  /// routers or switches (local, global, fat-tree up and down: all but the endpoint links).
  double max_link_util_endpoint = 0, max_link_util_local = 0, max_link_util_global = 0;
  double max_link_util_router = 0;
  /// Message-level network (`wormhole`), 0 under the others: mean latency of delivered
  /// messages (release to tail delivered, source queueing included), mean time their headers
  /// waited for busy channels, and messages failed by the deadlock watchdog.
  double mean_message_latency = 0, mean_message_blocking = 0, failed_messages = 0;
};

/// A named double member of a record type, with its unit ("s", "nodes"; "1" when
/// dimensionless) and a one-line description: stored as attributes of every HDF5 column.
template <class Record>
struct Column {
  const char* name;
  double Record::*member;
  const char* unit;
  const char* description;
};

const std::vector<Column<JobRecord>>& job_columns();

/// Node ids as an interval set: sorted, runs of consecutive ids as "first-last", separated by
/// spaces ("0-3 8 10-11"; "" for no nodes). Batsim's `allocated_resources` notation.
std::string node_interval_set(std::vector<int> nodes);
/// Node ids of an interval set ("0-3 8" -> 0 1 2 3 8), in the order written; throws InputError
/// on malformed text, and on an id >= `limit` (the machine's node count) before expanding a
/// range, so "0-2000000000" is an error, not two billion ids.
std::vector<int> parse_node_interval_set(const std::string& text,
                                         int limit = std::numeric_limits<int>::max());
/// The nodes of an interval set by name, as a Slurm hostlist (compress_hostlist) of
/// GraphMachine::node_name in id order ("tux[0-3,8]"); for machines that name their nodes.
std::string node_names_hostlist(const Topology& machine, const std::string& interval_set);
const std::vector<Column<RunSummary>>& summary_columns();

/// Situation/decision experiment output: for one decision allocator, the mean over placed jobs
/// of the sum of pairwise distances it would have chosen (one cell of Bender et al.'s Table 1).
struct DecisionRow {
  std::string decision;
  double mean_pairwise_sum = 0;
  double mean_avg_pairwise = 0;
  double jobs = 0;
  double refusals = 0;  ///< placements where the decision allocator had no answer
};

}  // namespace allocsim
