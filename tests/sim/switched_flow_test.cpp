// The flow model with several processors per switch (`flow:switch=first`, topo/switches.hpp):
// Cplant's switches carry "four processors per switch" (Leung et al. 2002, §4), whose traffic
// shares the switch's links.
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "allocsim/sim/simulation.hpp"
#include "allocsim/util/error.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using Schedule = std::map<std::int64_t, std::pair<double, double>>;

/// Two 2-processor jobs from time 0 on mesh:2x2 read as 2 switches (axis 1) of 2 processors
/// (axis 0): processors 0, 1 on switch 0 and 2, 3 on switch 1. The order file 0, 2, 1, 3 gives
/// the first job {0, 2} and the second {1, 3}: each spans both switches.
Schedule run(const std::string& runtime_model) {
  const std::string order =
      ::testing::TempDir() + "/switched-flow-" + std::to_string(::getpid()) + ".order";
  std::ofstream(order) << "0\n2\n1\n3\n";
  RunConfig config;
  config.machine = "mesh:2x2";
  config.alloc = "curve:order=file:path=" + order + ",fit=none";
  config.runtime_model = runtime_model;
  config.keep_jobs = true;
  Workload workload;
  workload.jobs = {allocsim::testing::make_job(1, 0, 2, 10),
                   allocsim::testing::make_job(2, 0, 2, 10)};
  Simulation simulation(config, std::move(workload));
  Schedule result;
  for (const auto& record : simulation.run().jobs)
    result[record.job_id] = {record.start, record.end};
  return result;
}

}  // namespace

TEST(SwitchedFlow, ProcessorsOfOneSwitchShareItsLinks) {
  // Processors as nodes: {0, 2} and {1, 3} use different links (0-2 and 1-3): s = 1.
  EXPECT_EQ(run("flow:comm=0.5"), (Schedule{{1, {0, 10}}, {2, {0, 10}}}));
  // Routed on the switches: both jobs send one message each way over the one link between
  // switch 0 and switch 1, capacity 1: rate 1/2 each. The reference of 2 processors is one
  // switch, bounded by each processor's own link (1 message each way): rate 1. s = 2, so
  // 10 x (0.5 + 0.5 x 2) = 15.
  EXPECT_EQ(run("flow:comm=0.5,switch=first"), (Schedule{{1, {0, 15}}, {2, {0, 15}}}));
}

TEST(SwitchedFlow, CurveOrdersTheSwitches) {
  // switch=first on the curve allocator: a switch's processors are consecutive, so a 2-processor
  // job fills one switch and crosses no switch link: s = 1 even when routed on the switches.
  RunConfig config;
  config.machine = "mesh:2x2";
  config.alloc = "curve:order=hilbert,fit=best,span=ring,switch=first";
  config.runtime_model = "flow:comm=0.5,switch=first";
  config.keep_jobs = true;
  Workload workload;
  workload.jobs = {allocsim::testing::make_job(1, 0, 2, 10),
                   allocsim::testing::make_job(2, 0, 2, 10)};
  Simulation simulation(config, std::move(workload));
  for (const auto& record : simulation.run().jobs) EXPECT_DOUBLE_EQ(record.end, 10);
}

TEST(SwitchedFlow, NeedsTheMaxLoad) {
  // The reference bounds a job by its processors' own links, a most-loaded-link argument.
  EXPECT_THROW(run("flow:comm=0.5,load=mean,switch=first"), InputError);
}
