#pragma once
// Flow-level (fluid) network model: running jobs' communication shares link bandwidth max-min
// fairly, so a scattered job is slower and overlapping jobs slow each other (issue "flow and
// wormhole network models", item 1; the effect Leung et al. measured on Cplant, and the
// all-to-all contention of the GABL paper §5, at the level of rates instead of flits).
//
// The model, exactly:
// - A job of trace runtime T spends (1 − comm)·T computing and comm·T communicating when it
//   runs alone on the reference compact allocation of its size (reference_compact_nodes: the
//   most cubic box at the origin on grids; on graph machines the first k nodes in id order,
//   which fill a router, then the next of its group or pod, then the next group).
// - Its communication is its pattern's messages (default all-to-all among its nodes); the
//   loads w_l (messages crossing link l, link_loads.hpp) make it one weighted flow: all its
//   messages progress at one rate r, using r·w_l of link l, because an all-to-all exchange
//   ends with its slowest message (the job's rate is that of its slowest flow).
// - Every link has capacity `bandwidth` (default 1: the bandwidth at which comm was measured)
//   times its relative capacity c_l (Topology::link_capacity: 1 on grids and flat, the
//   graph's own on graph machines). The constraint Σ_jobs r·w_l ≤ bandwidth·c_l is the same as
//   Σ_jobs r·(w_l / c_l) ≤ bandwidth: the model divides every load by its link's capacity when
//   a job is added (normalised loads, "link-busy time at unit capacity") and works with those
//   throughout — pacing loads, the solver (every link at `bandwidth`), utilization (a fraction
//   of each link's own capacity). On grids the division is skipped (c_l = 1: bit for bit).
//   Rates are max-min fair among the running jobs (progressive filling, max_min.hpp), each
//   all-to-all job capped at bandwidth · r_ref, r_ref = 1 / L(w_ref), L the pacing load below
//   of the reference allocation's loads: a job never communicates faster than alone on the
//   reference allocation, so at bandwidth 1 its trace runtime is a floor. (Jobs with a mapped
//   pattern are not capped: see add_job.) Without the cap (`flow:cap=none`,
//   set_reference_cap(false)) no job is capped: its rate r is its max-min fair share bounded
//   only by its links, alone r = bandwidth / L(w) (L(w) < L(w_ref) when its own allocation
//   spreads its messages over more links than the reference, e.g. an all-to-all over many
//   dragonfly groups against the reference's few global links), so it may communicate faster
//   than on the reference.
// - Communication slowdown s = r_ref / r (≥ 1 / bandwidth when capped; uncapped, below 1 when
//   the job communicates faster than alone on the reference: then it runs faster than its
//   trace runtime, and the comm_slowdown column, actual / alone-compact runtime, is below 1). The
//   job advances through its trace runtime at progress rate 1 / ((1 − comm) + comm·s): with s fixed
//   it takes (1 − comm)·T + comm·T·s. Compute and communication are interleaved evenly
//   (bulk-synchronous iterations), and shares are computed as if every running job were
//   communicating at once (worst-case overlap, the case Leung et al. observed doubling two jobs'
//   running times). `comm` is the network's unless a job has its own (set_comm: the
//   comm_classes transform's heavy and light shares).
// - Alone (alone_rate): the job's flow with no other job, min(cap, bandwidth / its largest
//   load); alone runtime T·((1 − comm) + comm·s_alone), the denominator of interference.
//
// Two pacing loads (FlowLoad; `flow:load=max|mean`), i.e. two answers to "which link load sets
// a job's communication time":
// - max (the default, the bottleneck form): the job's messages are routed on their
//   dimension-ordered paths and its most loaded link paces it, L(w) = max_l w_l; jobs contend
//   on the links they share. This is a fluid model of deterministic routing, where a hot link
//   is not relieved by idle ones: it applies when the network routes obliviously (as
//   link_loads.hpp does) and a job's exchange ends with its slowest message. Alone at low
//   bandwidth, two mappings' times tend to the ratio of their most loaded links.
// - mean: the job's link load is spread evenly over every link of the machine, as adaptive
//   routing (or a simulator that spreads a hot link's load, like the BigNetSim runs of
//   Agarwal et al. §5.3) would: L(w) = Σ_l w_l / N, N = Topology::link_count() (every real
//   directed link of the machine, used by the job or not), i.e. the job's hop-bytes over N.
//   On graph machines the loads are normalised, L(w) = Σ_l (w_l / c_l) / N with N the graph's
//   links (injection and ejection links included): the job's link-busy time spread evenly.
//   This is Agarwal et al.'s argument, §5.3: "TopoLB is the most resilient; this is because a
//   smaller value of hops-per-byte leads to a smaller number of packets on each link.
//   Consequently, the links can service the traffic with a smaller bandwidth", and §5.4: "there
//   are additional wrap-around paths in a torus network which help in keeping average load on
//   links lower". The average is over all links, not over the links the job uses: only then is
//   "packets on each link" a function of hops-per-byte alone (same bytes, same machine: it is
//   hops-per-byte × bytes / N), as the paper's sentence has it, and more links (the torus's
//   wrap-around) lower it, as §5.4's does; averaged over the used links a mapping that spreads
//   its bytes over more, longer routes could have the lower mean. Alone at low bandwidth, two
//   mappings' times tend to the ratio of their hop-bytes. As every job's load is spread over
//   the whole machine, all communicating jobs share one pool of N links (capacity N ·
//   bandwidth, max-min fair, each job's weight its hop-bytes): jobs contend wherever they are,
//   so the mean form suits one job per machine or machine-wide adaptive spreading; where
//   several jobs' locality matters, use max. Link utilization is then the pool's: the same on
//   every link (mean = max).
//
// Adaptive routing (graph machines whose graph()->adaptive(), e.g. dragonfly routing=ugal): a
// job's routes depend on the loads it meets. The rule: when an all-to-all job is added, it is
// routed with the current normalised per-link loads of every other running job (their sum,
// link_load_view) as GraphMachine::for_each_path's LinkLoadView; and at every solve() that
// follows a change (every re-rating), every running all-to-all job is routed again, one after
// another in key order, against the loads of all the others as they then stand (the jobs before
// it already re-routed), then all rates are re-solved. Its reference rate is alone (no loads:
// minimal routes). Jobs added with explicit loads (mapped patterns) are routed by their caller
// (the flow runtime passes link_load_view at their start) and keep those routes. Cost per solve
// on such machines O(J² · U) for J all-to-all jobs (each re-route sums the others' loads).
#include <algorithm>
#include <array>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <map>
#include <memory_resource>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "allocsim/network/link_loads.hpp"
#include "allocsim/network/max_min.hpp"

namespace allocsim {

/// The number of LinkClass values (graph_machine.hpp), the size of per-class statistics.
inline constexpr std::size_t kLinkClassCount = static_cast<std::size_t>(LinkClass::down) + 1;

/// Which link load paces a job's communication (see the file comment).
enum class FlowLoad {
  max,   ///< its most loaded link (bottleneck of dimension-ordered routes)
  mean,  ///< its hop-bytes spread over all the machine's links (Agarwal et al. §5.3)
};

/// The pacing load of per-link loads under `form`: max_l w_l, or Σ_l w_l / link_count
/// (summed in the order given). 0 for no loads.
double pacing_load(std::span<const std::pair<LinkId, double>> loads, FlowLoad form,
                   std::int64_t link_count);

/// The flow model's view of the running jobs, re-solved after every start and end.
/// solve() re-runs progressive filling only on the jobs whose rates can have changed: those
/// connected (through contended links, transitively) to a job added or removed since the last
/// solve(). Max-min fair rates of jobs that share no contended link with the rest are
/// independent of it, and progressive filling run on such a connected part alone performs, in
/// the same order, the same floating-point operations on its links as when run on all jobs, so
/// the rates are the same bit for bit. (So is re-solving a superset of it: when the search for
/// the connected jobs looks at more than kSearchBudgetPerJob link users per running job, every
/// job is re-solved instead.)
///
/// Contended links. On grids every link with two users or more. On graph machines (where global
/// and core links join nearly every pair of jobs) only the shared links that can saturate: a
/// job's rate never exceeds its upper rate u = min(cap, bandwidth / its largest load), so a
/// link whose users' demand Σ u·w stays below bandwidth (by a relative margin of
/// kContentionMargin, far above the sum's rounding) is below capacity whatever the rates: in
/// progressive filling its level stays above every level at which its users freeze, so it
/// never freezes a flow and leaving it out changes no floating-point operation on the other
/// links (the rates are the same bit for bit; FlowModel tests compare with the full solve). A
/// job whose largest load is on a shared link has u = bandwidth / that load unless its cap is
/// lower, so that link's demand reaches bandwidth: it is contended.
/// Cost: progressive filling on the changed part, plus the use of the links that can still set
/// a peak (see Utilization::max: on long runs a small share of them) for the jobs whose rates
/// changed; add_job and remove_job visit each of the job's loaded links once (on graph machines
/// with exclusive nodes not its injection and ejection links, see set_exclusive_nodes), and
/// add_job costs one all_to_all_link_loads (plus, once per job size, the reference
/// allocation's).
class FlowNetwork {
 public:
  using JobKey = std::int64_t;

  /// Rates of one running job after solve().
  struct JobRate {
    /// s = reference rate / actual communication rate (≥ 1 / bandwidth under the reference
    /// cap; without it (set_reference_cap(false)) any value > 0)
    double comm_slowdown = 1;
    double progress = 1;  ///< trace seconds done per second: 1 / ((1 − comm) + comm·s)
  };
  /// Link use after solve(): per real link, the bandwidth fraction in use, counting each job
  /// only during the share of its time it spends communicating, comm·s / ((1 − comm) + comm·s).
  struct Utilization {
    /// Over all real links of the machine, now: Σ over jobs (key order) of rate · its share
    /// communicating · Σ of its loads, over bandwidth and the link count.
    double mean = 0;
    /// The largest any link has had since the network was made: the run's peak link
    /// utilization. Each link's use is kept as a sum of its users' terms, each rounded to a
    /// multiple of 2^-52 (rounded down), so that adding and taking away terms in any order gives
    /// the same sum, as if summed afresh (rounding: less than 2^-52 per user). Kept only for the
    /// links that could still set a new peak: a job's term is largest at its upper rate (it
    /// grows with the rate), so each link also keeps the sum of its users' largest terms (a
    /// bound, exact integer sums); a link whose bound is at most the peak of its class cannot
    /// raise it while its users stay, and its use is no longer summed (on a long run nearly
    /// every link: the peak soon exceeds what most links can reach). A link is summed afresh
    /// from its users when a new user lifts its bound above the peak.
    double max = 0;
    /// Graph machines: the same peak over the links of each LinkClass (indexed by the enum's
    /// value: injection, ejection, local, global, up, down), 0 for a class no loaded link has
    /// had; all 0 on grids, whose links have no class. Under FlowLoad::mean every link carries
    /// the pool's use, so every class the machine has gets max.
    std::array<double, kLinkClassCount> max_by_class{};
  };

  /// `bandwidth`: every link's capacity, relative to the bandwidth at which `comm` holds (1);
  /// `load`: the pacing load (max: bottleneck link; mean: hop-bytes over all links).
  FlowNetwork(const Topology& topology, double comm, double bandwidth = 1,
              FlowLoad load = FlowLoad::max);
  /// Not copied: the links' users point into jobs_.
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  /// The run's wall-clock limit, polled inside solve() and the all-to-all loads
  /// (TimeLimitPoll): they throw TimeoutError once it is spent. Null (the default): no limit.
  void set_time_limit(const TimeLimit* limit) { poll_ = TimeLimitPoll(limit); }
  /// Weighted sharing (`flow:share=weighted`): on a link where jobs contend, each gets
  /// bandwidth in proportion to its communication share (its comm: weighted max-min, rates
  /// rising at pace comm), as a packet network gives more of a link to a job that injects more
  /// (the mechanism of Yang et al.'s "bully", SC 2016). Default (false): max-min fair per job,
  /// whatever its share. A job alone on its links gets its alone rate either way (weighted: up
  /// to the last bits, as every rate then comes from the solver with the scaled loads).
  void set_weighted_sharing(bool weighted) { weighted_sharing_ = weighted; }
  /// The compact-reference cap (`flow:cap=compact|none`). On (the default, `compact`): every
  /// all-to-all job's rate is at most bandwidth · r_ref, its rate alone on the reference
  /// compact allocation, so no placement communicates faster than the reference. Off (`none`):
  /// no job is capped; its rate is its max-min fair share bounded only by its links' capacity
  /// (alone: bandwidth / its largest normalised load), and s = r_ref / r may fall below 1 (a
  /// spread allocation whose all-to-all loads its busiest link less than the reference's does).
  /// Applies to the jobs added from then on: call before the first add_job.
  void set_reference_cap(bool capped) { reference_cap_ = capped; }

  /// Exclusive nodes (graph machines; the simulation's allocations): no node serves two running
  /// jobs, so a job's injection and ejection links are its own while it runs. They are then
  /// kept out of the per-link registers (a third or more of a job's links, never shared): only
  /// the heaviest of them (for the solver) and the largest load per class (for the peak, see
  /// Utilization::max) are kept per job. add_job throws std::logic_error when a node (its
  /// injection or ejection link) is already another running job's. (Under FlowLoad::mean a
  /// job's one link is the pool: nothing to keep out, nothing checked.) Default false.
  void set_exclusive_nodes(bool exclusive) {
    exclusive_nodes_ = exclusive && !class_of_link_.empty();
  }

  /// A job starts with the all-to-all pattern among `nodes`.
  void add_job(JobKey key, std::span<const NodeId> nodes);
  /// The same with a given reference rate (capped as above). A node may repeat (several
  /// processors on one switch): messages between equal nodes cross no link.
  void add_job(JobKey key, std::span<const NodeId> nodes, double reference_rate);
  /// A job starts with explicit link loads (another pattern); `nodes` is its size for the
  /// reference, whose pattern is then all-to-all too.
  void add_job(JobKey key, int nodes, std::vector<LoadedLink> loads);
  /// A job starts with weighted link loads (e.g. bytes of a mapped pattern) and its own
  /// reference rate (1 / pacing_load of the same pattern on the reference allocation).
  void add_job(JobKey key, std::span<const std::pair<LinkId, double>> loads, double reference_rate);
  void remove_job(JobKey key);
  bool empty() const { return jobs_.empty(); }
  /// The job's own communication share (a job's comm_classes share), replacing the network's
  /// `comm` for it from the next solve() on; call right after add_job.
  void set_comm(JobKey key, double comm);

  /// The job's rate alone on its own allocation (its own traffic only, no other job): what
  /// progressive filling gives its flow alone, min(cap, bandwidth / the largest of its loads),
  /// computed once when it is added (on adaptive machines from its minimal routes, as the
  /// reference: alone, UGAL sees no load; a mapped pattern from the loads it was added with).
  /// A job alone on its links gets exactly this rate from solve() (the same operations).
  JobRate alone_rate(JobKey key) const;

  /// Recomputes every running job's rate (deterministic: jobs in key order). False when only
  /// jobs without messages came or went since the last call: no other job's rate changed.
  bool solve();
  /// The rate of a running job as of the last solve().
  const JobRate& rate(JobKey key) const { return jobs_.at(key).rate; }
  const Utilization& utilization() const { return utilization_; }

  /// Communication rate of k nodes alone on the reference compact allocation (+inf if k < 2).
  double reference_rate(int k);
  double comm() const { return comm_; }
  FlowLoad load() const { return load_; }
  /// pacing_load of raw `loads` (divided by their links' capacities first) under this
  /// network's form and machine.
  double pacing_load(std::span<const std::pair<LinkId, double>> loads) const;
  /// On an adaptive machine, the sum of every running job's normalised per-link loads but
  /// `except`'s, indexed by LinkId (valid until the next call); empty on other machines.
  LinkLoadView link_load_view(JobKey except);

 private:
  struct RunningJob {
    std::vector<std::pair<LinkId, double>> loads;  ///< normalised (w / c), or the pool's
    std::vector<NodeId> nodes;  ///< adaptive machines: an all-to-all job's nodes, to re-route
    std::vector<std::pair<LinkId, double>> link_loads;  ///< adaptive machines: its real loads
    double reference_rate = 0;
    double comm = -1;                ///< its communication share (the network's unless set)
    double alone_message_rate = -1;  ///< its messages' rate alone (−1: not yet computed)
    bool capped = true;       ///< at bandwidth × reference_rate: the trace runtime is a floor at 1
    double message_rate = 0;  ///< its messages' max-min fair rate
    double communicating = 0;  ///< the share of its time spent communicating (utilization)
    JobRate rate;
    JobKey key = 0;
    std::int32_t slot = -1;       ///< in job_slots_ (what its links' users name)
    bool queued = false;          ///< scratch of solve(): already among the jobs to re-solve
    bool seeded = false;          ///< already in changed_
    bool distinct_links = false;  ///< its loads are sorted by link, no link twice
    double upper_rate = 0;        ///< u = min(cap, bandwidth / its largest per-link load)
    /// Positions in loads of its contended links (see the class comment), in no set order
    /// (shared_slot: each position's index there, −1 if none), and of its heaviest private
    /// link (one user; first of largest load; −1 if none): what connects it to other jobs and
    /// what the solver needs of it. `shared` is kept as links change between contended and
    /// not; the heaviest private link as links become private, and found again
    /// (private_stale) only when it becomes shared.
    std::vector<int> shared, shared_slot;
    /// loads[p] for each p of shared, in the same order: what the connected search and the
    /// solver read of it, in one place rather than scattered over loads.
    std::vector<std::pair<LinkId, double>> shared_loads;
    std::vector<int> entry_slot;  ///< per position in loads, its entry's index in its link's users
    int heaviest_private = -1;
    bool private_stale = false;
    double load_sum = 0;    ///< Σ of its loads, in load order (the mean utilization's share)
    double use_factor = 0;  ///< message_rate · communicating / bandwidth in its links' use
    /// Exclusive nodes: the largest load on its own injection and on its own ejection links.
    double largest_injection = 0, largest_ejection = 0;
    /// Its largest use factor (at its upper rate, with a relative margin of 1e-6 for
    /// rounding): its links' use bound (see Utilization::max).
    double largest_use_factor = 0;
    /// Positions in loads of its links whose use is summed (in no set order; live_slot: each
    /// position's index there, −1 if none): every link whose bound exceeds its class's peak
    /// (and some whose bound no longer does, dropped when next met).
    std::vector<int> live, live_slot;
  };
  /// A job loading a link: one entry per entry of its loads. Eight bytes, so that a link's
  /// state with two users inline fills one cache line.
  struct LinkUser {
    std::int32_t job = 0;       ///< its slot in job_slots_
    std::int32_t position = 0;  ///< of the entry in the job's loads
  };
  RunningJob& job_of(const LinkUser& user) const {
    return *job_slots_[static_cast<std::size_t>(user.job)];
  }
  /// The user's (normalised) load on the link.
  double load_of(const LinkUser& user) const {
    return job_of(user).loads[static_cast<std::size_t>(user.position)].second;
  }
  struct NodeListHash {
    std::size_t operator()(const std::vector<NodeId>& nodes) const;
  };
  static constexpr std::size_t kMaxMemoizedLoads = 4096;
  /// Link users the connected search of one solve() may look at, per running job.
  static constexpr std::size_t kSearchBudgetPerJob = 8;
  /// A shared link on a graph machine is contended when its demand exceeds
  /// bandwidth · (1 − kContentionMargin) (see the class comment).
  static constexpr double kContentionMargin = 1e-9;

  /// Divides each load by its link's capacity (graph machines; grids: nothing to do).
  void normalise(std::vector<std::pair<LinkId, double>>& loads) const;
  /// Normalised all-to-all loads among `nodes` (adaptive routing informed by `view`).
  std::vector<std::pair<LinkId, double>> all_to_all(std::span<const NodeId> nodes,
                                                    LinkLoadView view);
  /// Routes every running all-to-all job again, in key order (adaptive machines; see the file
  /// comment).
  void reroute_adaptive();
  /// Adds `job` (its loads: real links, normalised); under FlowLoad::mean its loads become one
  /// load, Σ w / N, on the pool link. Its alone rate comes from `alone_loads` (normalised, real
  /// links) when given, else from its loads.
  void insert_job(JobKey key, RunningJob job,
                  const std::vector<std::pair<LinkId, double>>* alone_loads = nullptr);
  /// The message rate of one flow of `loads` alone (cap as for `job`), as solve_queued's
  /// one-job path computes it; per-link sums first when a link repeats.
  double alone_message_rate(const RunningJob& job,
                            std::span<const std::pair<LinkId, double>> loads) const;
  /// The same for loads sorted by link without repeats: progressive filling of one flow.
  double one_flow_rate(const RunningJob& job,
                       std::span<const std::pair<LinkId, double>> loads) const;
  /// Slowdown and progress of `job` when its messages progress at `message_rate`.
  JobRate rate_at(const RunningJob& job, double message_rate) const;
  /// Finds `job`'s heaviest private link again if stale.
  void refresh_private(RunningJob& job) const;
  /// The entry of `user` (its job's loads[user.position]) is on a contended link from now on /
  /// no longer; keeps sharing_jobs_ up to date.
  void add_shared(const LinkUser& user);
  void drop_shared(const LinkUser& user);
  /// The entry of `user` is now its link's only one: a candidate heaviest private link.
  static void became_private(RunningJob& job, int position);
  /// Prefetches the memory that the visit of `job`'s loaded links some positions after
  /// `i` will use (insert_job: `leaving` false; remove_job: true).
  void prefetch_ahead(const RunningJob& job, std::size_t i, bool leaving) const;
  static constexpr std::size_t kStateAhead = 48, kUsersAhead = 20, kEntryAhead = 6;
  /// Exclusive nodes: `link` is an injection or ejection link, its job's own.
  bool own_link(LinkId link) const {
    return exclusive_nodes_ && static_cast<std::size_t>(link) < class_of_link_.size() &&
           (class_of_link_[static_cast<std::size_t>(link)] == kInjectionClass ||
            class_of_link_[static_cast<std::size_t>(link)] == kEjectionClass);
  }
  /// Whether `link`, with its users and demand as they stand, is contended (kept nowhere: it
  /// changes only with them).
  bool contended(LinkId link) const;
  /// Queues `job` and every job sharing a link with it, transitively, for re-solving, looking
  /// at no more than `budget` link users (less what it looks at): false if it would.
  bool queue_connected(RunningJob& job, std::size_t& budget);
  /// Progressive filling on the queued jobs (in key order) alone.
  void solve_queued();
  /// solve_queued() by progressive filling on the queued jobs' flows.
  void solve_queued_flows();
  /// φ of weighted sharing: the job's comm (1 when sharing is equal).
  double sharing_weight(const RunningJob& job) const;
  void update_utilization();
  /// Puts `job`'s terms in its links' use at `use_factor` (0: takes them out).
  void set_use(RunningJob& job, double use_factor);
  /// The use factor of `job` when its messages progress at `rate`.
  double use_factor_at(const RunningJob& job, double rate) const;
  /// Sets `job`'s largest use factor from its upper rate and share (see
  /// RunningJob::largest_use_factor).
  void set_largest_use_factor(RunningJob& job) const;
  /// Adds (sign 1) or takes away (−1) `job`'s largest term in the use bound of its link at
  /// `position`; on adding, starts summing the link's use if its bound now exceeds its class's
  /// peak.
  void add_bound(RunningJob& job, std::size_t position, int sign);
  /// Puts the link at `position` in `job`'s live list unless it is there.
  static void make_live(RunningJob& job, int position);
  /// Sums `link`'s use afresh from its users and has each of them keep it live.
  void track(LinkId link);
  /// The peak that `link`'s use must exceed to raise one (its class's on graph machines), in
  /// the units of LinkState::bound. (Here, with quantized_bound, to be inlined in the visits of
  /// a job's links.)
  std::int64_t bound_threshold(LinkId link) const {
    const std::int64_t peak = static_cast<std::size_t>(link) < class_of_link_.size()
                                  ? peak_class_use_[class_of_link_[static_cast<std::size_t>(link)]]
                                  : peak_use_;
    return peak >> kBoundShift;
  }
  static constexpr int kBoundShift = 20;  ///< bound units (2^-32) are 2^20 use units (2^-52)
  /// A bound term in units of 2^-32, rounded up (≥ the use term it bounds, over 2^20); the
  /// clamp keeps sums of millions in range.
  static std::int64_t quantized_bound(double use) {
    return static_cast<std::int64_t>(std::min(use, 0x1p20) * 0x1p32) + 1;
  }
  /// The peak utilization over the links whose use rose since the last call.
  void raise_peak();

  const Topology* topology_;
  double comm_, bandwidth_;
  FlowLoad load_;
  bool adaptive_ = false;          ///< the machine's routes depend on loads (UGAL)
  bool weighted_sharing_ = false;  ///< see set_weighted_sharing
  bool reference_cap_ = true;      ///< see set_reference_cap
  bool exclusive_nodes_ = false;   ///< see set_exclusive_nodes
  bool unit_capacities_ = false;   ///< graph machines: every link's capacity is 1 (normalise)
  static constexpr auto kInjectionClass = static_cast<std::uint8_t>(LinkClass::injection);
  static constexpr auto kEjectionClass = static_cast<std::uint8_t>(LinkClass::ejection);
  /// Graph machines: only links that can saturate join jobs (see the class comment).
  bool prune_uncontended_ = false;
  /// Graph machines: per LinkId its LinkClass (as an index), and which classes the machine has;
  /// empty and all false on grids.
  std::vector<std::uint8_t> class_of_link_;
  std::array<bool, kLinkClassCount> has_class_{};
  LinkLoadScratch scratch_;        ///< for all_to_all_link_loads
  std::vector<double> link_view_;  ///< link_load_view's result
  /// Link slots the solver knows: the topology's, plus under FlowLoad::mean one more, the pool
  /// (LinkId pool_link_ = link_slot_count()) that stands for all N links evenly loaded.
  LinkId pool_link_ = -1;
  std::map<JobKey, RunningJob> jobs_;
  /// The running jobs by slot (RunningJob::slot; null: free, and in free_job_slots_).
  std::vector<RunningJob*> job_slots_;
  std::vector<std::int32_t> free_job_slots_;
  /// Where the links' users lists of three users or more live: pools of their own, a few MB
  /// together, instead of blocks scattered over the heap among the jobs' load lists (a start or
  /// end visits some 1,600 of them: fewer cache misses). Declared before links_, which
  /// it outlives.
  std::pmr::unsynchronized_pool_resource users_pool_;
  /// What a started or ended job reads and writes of each of its links, in one cache line (it
  /// visits each of its links once: one cache miss, not one per array); the rest of a link's
  /// state is in use_of_link_, searched_of_link_ and tracked_of_link_.
  struct alignas(64) LinkState {
    using Users =
        boost::container::small_vector<LinkUser, 2, std::pmr::polymorphic_allocator<LinkUser>>;
    explicit LinkState(std::pmr::memory_resource* pool)
        : users(Users::allocator_type(std::pmr::polymorphic_allocator<LinkUser>(pool))) {}
    /// Its users, in no set order; two without allocating (most links have one or two), more
    /// in users_pool_.
    Users users;
    double demand = 0;  ///< Σ over its users of upper_rate · load
    /// Σ over its users of their largest terms, each rounded up to units of 2^-32: a bound on
    /// its use (see Utilization::max).
    std::int64_t bound = 0;
  };
  static_assert(sizeof(LinkState) == 64);
  std::vector<LinkState> links_;  ///< per LinkId
  /// Per LinkId: its use over bandwidth in units of 2^-52 (see Utilization::max), where
  /// tracked, stale elsewhere; the last queue_connected() search that looked at it; whether its
  /// use is summed (every user has it live; every link whose bound exceeds bound_threshold is).
  std::vector<std::int64_t> use_of_link_;
  std::vector<std::uint32_t> searched_of_link_;
  std::vector<char> tracked_of_link_;
  /// Exclusive nodes: per LinkId, the running job whose own link it is (−1: none).
  std::vector<JobKey> owner_of_link_;
  std::vector<JobKey> changed_;      ///< jobs to re-solve with their connected jobs
  bool links_changed_ = false;       ///< a job with messages came or went since the last solve()
  std::vector<RunningJob*> queued_;  ///< jobs to re-solve (scratch of solve())
  int sharing_jobs_ = 0;             ///< running jobs with a contended link
  int queued_sharing_ = 0;           ///< of them, those in queued_ (scratch of solve())
  std::int64_t peak_use_ = 0;        ///< the largest link use so far (units of 2^-52)
  std::array<std::int64_t, kLinkClassCount> peak_class_use_{};  ///< the same per link class
  std::vector<LinkId> raised_links_;  ///< links whose use rose since the last raise_peak()
  std::uint32_t link_search_ = 0;
  std::unordered_map<int, double> reference_rates_;  ///< per job size; ≤ node_count entries
  /// All-to-all loads per node list (see add_job).
  std::unordered_map<std::vector<NodeId>, std::vector<std::pair<LinkId, double>>, NodeListHash>
      all_to_all_memo_;
  // Scratch for solve().
  std::vector<int> compact_of_link_;  ///< LinkId -> index among loaded links, −1 if none
  std::vector<LinkId> loaded_links_;
  std::vector<int> positions_;
  std::vector<double> capacities_, rates_, link_use_;
  Utilization utilization_;
  std::vector<FlowUse> uses_;
  FlowSet flows_;
  MaxMinSolver solver_;
  TimeLimitPoll poll_{nullptr};  ///< the run's wall-clock limit (set_time_limit)
};

}  // namespace allocsim
