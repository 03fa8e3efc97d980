// Runtime models' numbers (issue 25, "Numbers and parameters"): every numeric parameter of
// every runtime model declares a range and refuses values outside it (no wrap-around of
// integers past 2^32, no negative past 2^31, no 1e300, nan or inf); a time a model derives that
// is not finite is an InputError naming the model and its parameters, never an internal error
// or a run at simulated time inf; a wormhole run too large for memory or time is refused up
// front with an estimate, and --timeout stops a run inside one long network computation.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "allocsim/network/flow_model.hpp"
#include "allocsim/network/wormhole.hpp"
#include "allocsim/sim/job_mapping.hpp"
#include "allocsim/sim/job_recorder.hpp"
#include "allocsim/sim/network_runtime.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::make_job;

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

RunResult run(const std::string& machine, const std::string& model, std::vector<Job> jobs,
              const std::string& pattern = "", double timeout = 0) {
  RunConfig config;
  config.machine = machine;
  config.runtime_model = model;
  config.pattern = pattern;
  config.timeout_seconds = timeout;
  Workload workload;
  workload.jobs = std::move(jobs);
  Simulation simulation(config, std::move(workload));
  return simulation.run();
}

/// Values outside `rule` of every kind the audit tried, as spec text.
std::vector<std::string> bad_values(const ParamSpec& param) {
  const NumberRule& rule = param.range;
  std::vector<std::string> values{"1e300", "-1e300", "nan", "inf", "-inf"};
  values.push_back(number_text(rule.above_min ? rule.min : rule.min - 1));  // below min
  values.push_back(number_text(rule.max * 10 + 1));                         // above max
  if (param.kind == ParamKind::integer) {
    values.push_back("4294967304");            // 2^32 + 8: wrapped to 8 by a cast to int
    values.push_back("-3000000000");           // below -2^31: wrapped to a positive int
    values.push_back("99999999999999999999");  // past 2^63
  }
  return values;
}

}  // namespace

TEST(ModelNumbers, EveryNumericParameterDeclaresARangeAndRefusesValuesOutsideIt) {
  int checked = 0;
  for (const auto& entry : runtime_model_registry().entries()) {
    for (const ParamSpec& param : entry.params) {
      if (param.kind != ParamKind::integer && param.kind != ParamKind::real) continue;
      SCOPED_TRACE(entry.name + ":" + param.key);
      // Declared: bounded on both sides.
      EXPECT_GT(param.range.min, -std::numeric_limits<double>::max());
      EXPECT_LT(param.range.max, std::numeric_limits<double>::max());
      NumberRule rule = param.range;
      rule.integral = param.kind == ParamKind::integer;
      for (const std::string& value : bad_values(param)) {
        const std::string spec = entry.name + ":" + param.key + "=" + value;
        EXPECT_EQ(error_of([&] { runtime_model_registry().resolve(spec); }),
                  "runtime model '" + entry.name + "': parameter '" + param.key + "' has value '" +
                      value + "', expected " + rule.describe())
            << spec;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked,
            11);  // alpha; comm, bandwidth; plen, ts, num_mes, cycle, stall, allow_large; a, e
}

TEST(ModelNumbers, TheIssuesExamplesAreRefusedWithTheParameter) {
  EXPECT_EQ(error_of([] { runtime_model_registry().resolve("wormhole:plen=4294967304"); }),
            "runtime model 'wormhole': parameter 'plen' has value '4294967304', expected an "
            "integer in [1, 1e+06]");
  EXPECT_EQ(error_of([] { runtime_model_registry().resolve("wormhole:ts=-3000000000"); }),
            "runtime model 'wormhole': parameter 'ts' has value '-3000000000', expected an "
            "integer in [0, 1e+06]");
  EXPECT_EQ(error_of([] { runtime_model_registry().resolve("dispersal:alpha=-0.5"); }),
            "runtime model 'dispersal': parameter 'alpha' has value '-0.5', expected a finite "
            "number in [0, 1e+06]");
  // ts near the integer limit: ts + 1 computed without overflow.
  EXPECT_EQ(error_of([] { run("mesh:4", "wormhole:ts=1000000", {make_job(1, 0, 2, 10)}); }),
            "runtime model 'wormhole': parameter 'stall' is 1000, expected more than ts + 1 = "
            "1000001");
  // The factories check the same ranges as the table.
  EXPECT_EQ(error_of([] {
              WormholeRuntimeParams params;
              params.ts = std::numeric_limits<int>::max();
              params.stall_limit = 1000;
              make_wormhole_runtime(params);
            }),
            "runtime model 'wormhole': parameter 'ts': expected an integer in [0, 1e+06], got "
            "2147483647");
  EXPECT_THROW(WormholeNetwork(Topology::parse("mesh:4"),
                               WormholeParams{8, std::numeric_limits<int>::max(), 1000, true}),
               InputError);
  EXPECT_EQ(error_of([] { make_flow_runtime(0.5, 1e-320); }),
            "runtime model 'flow': parameter 'bandwidth': expected a finite number in [1e-06, "
            "1e+06], got 1e-320");
  EXPECT_EQ(error_of([] {
              make_distance_runtime({1e300, 1e300});
            }),
            "runtime model 'distance': parameter 'a': expected a finite number in [0, 1e+06], got "
            "1e+300");
}

TEST(ModelNumbers, DerivedTimesThatAreNotFiniteNameTheModelAndItsParameters) {
  // distance: 1 + a·H^e overflows for a job of a huge (hand-made) runtime.
  EXPECT_EQ(error_of([] { run("mesh:8x8", "distance:a=1e6,e=10", {make_job(1, 0, 4, 1e308)}); }),
            "runtime model 'distance': job 1 of runtime 1e+308 at 1.6666666666666667 mean hops "
            "runs inf with a=1e+06, e=10, not a finite time; choose a smaller a or e");
  // dispersal: the same with alpha.
  EXPECT_EQ(error_of([] {
              run("mesh:8x8", "dispersal:alpha=1e6", {make_job(1, 0, 4, 1e303)});
            }).rfind("runtime model 'dispersal': job 1 of runtime 1e+303 at ", 0),
            0u);
  // flow: a pattern's bytes are bounded (1e18, the pattern's range) and so is the bandwidth,
  // so the slowdown stays finite; a job of a huge runtime stretched by it does not.
  EXPECT_EQ(error_of([] {
              run("mesh:4x4", "flow:bandwidth=1e-6", {make_job(1, 0, 4, 1e308)}, "ring:bytes=1e18");
            }).rfind("runtime model 'flow': job 1", 0),
            0u);
  // ... and bytes past that range are refused with the pattern's parameter named.
  EXPECT_EQ(error_of([] {
              run("mesh:4x4", "flow:load=mean", {make_job(1, 0, 4, 10)}, "ring:bytes=1e308");
            }),
            "pattern 'ring': parameter 'bytes' has value '1e308', expected a finite number in "
            "(0, 1e+18]");
  // wormhole: past 2^53 network time units a unit step is no longer exact.
  EXPECT_EQ(
      error_of([] {
        run("mesh:4x4", "wormhole:cycle=1e-6", {make_job(1, 0, 4, 1), make_job(2, 1e11, 4, 100)});
      }),
      "runtime model 'wormhole': simulated time 1e+11 s is 1e+17 network time units at "
      "cycle=1e-06, past 2^53 where a time unit is no longer exact; choose a larger cycle");
  // Any model: an end past the largest double is refused, never a run at simulated time inf.
  EXPECT_EQ(error_of([] {
              run("flat:4", "fixed", {make_job(1, 1e308, 1, std::numeric_limits<double>::max())});
            }),
            "runtime model 'fixed' gave job 1 a running time of 1.7976931348623157e+308 at time "
            "1e+308, not a finite time: its parameters are outside the range where its times are "
            "defined (allocsim list runtime-models)");
}

TEST(ModelNumbers, AWormholeRunTooLargeIsRefusedUpFrontWithAnEstimate) {
  std::vector<Job> jobs;
  for (int i = 1; i <= 3; ++i) jobs.push_back(make_job(i, 0, 64, 1));
  const std::string error = error_of([&] { run("mesh:8x8", "wormhole:plen=1000000", jobs); });
  EXPECT_EQ(error.rfind("runtime model 'wormhole' with plen=1000000, num_mes=5 on 64 nodes and 3 "
                        "jobs: about 320 messages in flight would take about ",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find("and the run about 1.92e+09 network events"), std::string::npos) << error;
  EXPECT_NE(error.find("need the parameter allow_large=1"), std::string::npos) << error;
  // Memory: num_mes at its maximum on a small machine.
  const std::string memory =
      error_of([&] { run("mesh:8x8", "wormhole:num_mes=1e6,count=fixed", jobs); });
  EXPECT_NE(memory.find("about 6.4e+07 messages in flight would take about 2.97e+04 MB"),
            std::string::npos)
      << memory;
}

TEST(ModelNumbers, TheTimeoutStopsARunInsideOneLongWormholeComputation) {
  // One job whose messages need about 6.4e10 network events (hours) in its first re-rating:
  // the run must stop by its 0.2 s limit from inside the network, not after it.
  const std::vector<Job> jobs{make_job(1, 0, 64, 1)};
  try {
    run("mesh:8x8", "wormhole:plen=1000000,num_mes=1000,count=fixed,allow_large=1", jobs, "", 0.2);
    FAIL() << "no timeout";
  } catch (const TimeoutError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("simulation exceeded its timeout of 0.2", 0), 0u);
  }
}

namespace {
/// A limit already spent: the first poll throws.
class SpentLimit final : public TimeLimit {
 public:
  void check_time_limit() const override { throw TimeoutError("spent"); }
};
}  // namespace

TEST(ModelNumbers, TheNetworksPollTheirTimeLimitInTheirInnerLoops) {
  const SpentLimit spent;
  // Wormhole: a long drain of one message polls per event.
  const Topology line = Topology::parse("mesh:4");
  WormholeNetwork wormhole(line, WormholeParams{1000000, 3, 1000, true});
  wormhole.set_time_limit(&spent);
  wormhole.add_message(0, 3, 0);
  EXPECT_THROW(wormhole.run(), TimeoutError);
  // Flow: the all-to-all loads of a job on a whole 300x300 mesh poll per line.
  const Topology mesh = Topology::parse("mesh:300x300");
  FlowNetwork flow(mesh, 0.5);
  flow.set_time_limit(&spent);
  std::vector<NodeId> nodes(static_cast<std::size_t>(mesh.node_count()));
  for (NodeId node = 0; node < mesh.node_count(); ++node) nodes[node] = node;
  EXPECT_THROW(flow.add_job(1, nodes), TimeoutError);
}

TEST(ModelNumbers, TheMappersOfASimulationPollItsTimeLimit) {
  // A run with a pattern maps each starting job (TopoLB here, O(p²)): the run's --timeout
  // reaches the mapper's loops, so a long mapping stops at the limit, not after it.
  const SpentLimit spent;
  const Topology mesh = Topology::parse("mesh:8x8");
  JobRecorder records(mesh, nullptr, 1, 10.0);
  JobMappingObserver mapping(mesh, "ring", "topolb", 1, records, &spent);
  const Job job = make_job(1, 0, 64, 1);
  Allocation allocation;
  for (NodeId node = 0; node < mesh.node_count(); ++node) allocation.nodes.push_back(node);
  records.on_start(0, job, 0.0, allocation);
  EXPECT_THROW(mapping.on_start(0, job, 0.0, allocation), TimeoutError);
}
