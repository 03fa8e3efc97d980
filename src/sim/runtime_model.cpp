// Runtime models. `fixed`: the trace's runtime. `dispersal`: runtime stretched by how spread
// out the allocation is, t' = t · (1 + alpha · (avg pairwise hops − 1)), a simple
// communication-cost model in the spirit of Leung et al.'s locality experiments.
#include "allocsim/sim/runtime_model.hpp"

#include <cmath>
#include <string>

#include "allocsim/metrics/locality.hpp"
#include "allocsim/sim/network_runtime.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

class FixedRuntime final : public RuntimeModel {
 public:
  double runtime(const Job& job, const Allocation&, const Topology&) const override {
    return job.runtime;
  }
};

class DispersalRuntime final : public RuntimeModel {
 public:
  explicit DispersalRuntime(double alpha) : alpha_(alpha) {
    require_number(alpha, kDispersalAlphaRule, "runtime model 'dispersal': parameter 'alpha'");
  }
  double runtime(const Job& job, const Allocation& allocation,
                 const Topology& topology) const override {
    const auto k = static_cast<double>(allocation.nodes.size());
    if (k < 2) return job.runtime;
    const double average =
        static_cast<double>(pairwise_hop_sum(topology, allocation.nodes)) / (k * (k - 1) / 2);
    const double runtime = job.runtime * (1 + alpha_ * std::max(0.0, average - 1));
    if (!std::isfinite(runtime))
      throw InputError("runtime model 'dispersal': job " + std::to_string(job.id) + " of runtime " +
                       number_text(job.runtime) + " at " + number_text(average) +
                       " average hops runs " + number_text(runtime) + " with alpha=" +
                       number_text(alpha_) + ", not a finite time; choose a smaller alpha");
    return runtime;
  }

 private:
  double alpha_;
};

std::vector<RegistryEntry<RuntimeModelFactory>> runtime_model_entries() {
  return {
      {"fixed",
       "the trace's running time, whatever the allocation",
       {},
       [](const Params&) -> std::unique_ptr<RuntimeModel> {
         return std::make_unique<FixedRuntime>();
       }},
      {"dispersal",
       "runtime x (1 + alpha x (average pairwise hops - 1))",
       {{"alpha",
         ParamKind::real,
         "0.1",
         "slowdown per extra average hop",
         {},
         kDispersalAlphaRule}},
       [](const Params& p) -> std::unique_ptr<RuntimeModel> {
         return std::make_unique<DispersalRuntime>(p.real("alpha"));
       }},
      {"flow",
       "running jobs share link bandwidth max-min fairly (the run's pattern mapped by its "
       "mapper, default all-to-all; dimension-ordered routing): runtime x ((1 - comm) + comm x s), "
       "s the communication slowdown vs alone "
       "on a compact box (paced by the most loaded link, or with load=mean by the load spread "
       "over all links), re-rated at every start and end",
       {{"comm",
         ParamKind::real,
         "0.5",
         "fraction of the trace runtime spent communicating alone on a compact allocation",
         {},
         kFlowCommRule},
        {"bandwidth",
         ParamKind::real,
         "1",
         "link bandwidth relative to the one at which comm holds (lower = slower communication)",
         {},
         kFlowBandwidthRule},
        {"load",
         ParamKind::choice,
         "max",
         "what paces a job's communication: max (its most loaded link, dimension-ordered "
         "routes) or mean (its hop-bytes spread over all the machine's links, as adaptive "
         "routing would: Agarwal et al. 5.3)",
         {"max", "mean"},
         {},
         true,
         false},  // added after the first flow runs: at its default their config ids stay
        // Added after the first release: left out of canonical specs at its default.
        {"switch",
         ParamKind::choice,
         "none",
         "first: the machine's first axis lists the processors of one switch, which share the "
         "switch's links (messages routed on the switches; topo/switches.hpp; load=max only)",
         {"none", "first"},
         {},
         true,
         false},
        {"share",
         ParamKind::choice,
         "equal",
         "how contending jobs share a link: equal (max-min fair per job) or weighted (in "
         "proportion to each job's communication share, as a packet network favours the job "
         "that injects more: Yang et al.'s bully)",
         {"equal", "weighted"},
         {},
         true,
         false},
        {"cap",
         ParamKind::choice,
         "compact",
         "what bounds a job's communication rate: compact (its links and its rate alone on the "
         "compact reference allocation: no placement communicates faster than compact, s >= 1 "
         "at bandwidth 1) or none (its links only: a spread job whose busiest link carries "
         "less than the reference's runs faster, s < 1, comm_slowdown below 1)",
         {"compact", "none"},
         {},
         true,
         false}},
       [](const Params& p) {
         return make_flow_runtime(p.real("comm"), p.real("bandwidth"),
                                  p.text("load") == "mean" ? FlowLoad::mean : FlowLoad::max,
                                  p.text("switch") == "first", p.text("share") == "weighted",
                                  p.text("cap") == "compact");
       }},
      {"wormhole",
       "GABL paper's message-level network: each task sends Exp(num_mes) all-to-all packets (each "
       "to a uniformly drawn other task) of "
       "plen flits at its start, wormhole routing (XY; dateline channels on tori), jobs' "
       "messages contend; a job ends at its last delivery + its trace runtime",
       {{"plen", ParamKind::integer, "8", "flits per message", {}, kWormholePlenRule},
        {"ts",
         ParamKind::integer,
         "3",
         "time units to route a header through a node",
         {},
         kWormholeTsRule},
        {"num_mes",
         ParamKind::real,
         "5",
         "mean messages per task (exponential, rounded)",
         {},
         kWormholeNumMesRule},
        {"count",
         ParamKind::choice,
         "exp",
         "messages per task: exp (exponential, mean num_mes, rounded) or fixed (num_mes)",
         {"exp", "fixed"}},
        {"dest",
         ParamKind::choice,
         "uniform",
         "all-to-all destinations without a pattern: uniform (each message to a uniformly drawn "
         "other task, GABL 4.2) or ring (task i's j-th to task i+1+j: the old reading)",
         {"uniform", "ring"}},
        {"cycle",
         ParamKind::real,
         "1",
         "seconds of simulated time per flit hop",
         {},
         kWormholeCycleRule},
        {"stall",
         ParamKind::real,
         "1000",
         "watchdog: time units without a move (> ts + 1)",
         {},
         kWormholeStallRule},
        {"allow_large",
         ParamKind::integer,
         "0",
         "1 = allow runs whose messages would take more than 4 GB or 10^9 network events "
         "(refused with an estimate otherwise); not part of the config id",
         {},
         integer_rule(0, 1),
         false}},
       [](const Params& p) {
         WormholeRuntimeParams params;
         params.plen = static_cast<int>(p.integer("plen"));
         params.ts = static_cast<int>(p.integer("ts"));
         params.num_mes = p.real("num_mes");
         params.fixed_count = p.text("count") == "fixed";
         params.destinations =
             p.text("dest") == "ring" ? AllToAllDestinations::ring : AllToAllDestinations::uniform;
         params.cycle = p.real("cycle");
         params.stall_limit = p.real("stall");
         params.allow_large = p.integer("allow_large") != 0;
         return make_wormhole_runtime(params);
       }},
      {"distance",
       "SST time-per-distance: runtime x (1 + a x H^e) / (1 + a x H0^e), H the mean pairwise "
       "hops, H0 that of a compact box",
       {{"a", ParamKind::real, "0.1", "weight of the distance term", {}, kDistanceARule},
        {"e", ParamKind::real, "1", "exponent of the mean pairwise hops", {}, kDistanceERule}},
       [](const Params& p) {
         return make_distance_runtime({p.real("a"), p.real("e")});
       }},
  };
}

}  // namespace

const RuntimeModelRegistry& runtime_model_registry() {
  static const RuntimeModelRegistry registry("runtime model", runtime_model_entries());
  return registry;
}

}  // namespace allocsim
