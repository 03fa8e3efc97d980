// Task mapping inside simulations (sim/job_mapping.hpp): hop-bytes, hops per byte and link
// loads of each job's mapped pattern, worked out by hand on a line of 8 nodes.
#include <gtest/gtest.h>

#include "allocsim/mapping/job_pattern.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/sim/job_mapping.hpp"
#include "allocsim/sim/simulation.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::make_job;

/// Keeps the traffic the simulation shows the runtime model when each job starts.
class TrafficProbe final : public RuntimeModel {
 public:
  double runtime(const Job& job, const Allocation&, const Topology&) const override {
    return job.runtime;
  }
  void rerate(RateContext& context, const RunningChange& change) override {
    if (change.kind != RunningChange::Kind::started) return;
    for (const int index : change.jobs) {
      const JobTraffic* traffic = context.traffic(index);
      if (traffic) flows[context.jobs()[index].id] = traffic->flows;
    }
  }
  std::map<std::int64_t, std::vector<NodeFlow>> flows;
};

/// Line of 8 nodes, lowest free ids first; jobs of 4, 3 and 1 processors all start at 0 on
/// nodes 0-3, 4-6 and 7.
RunConfig line_config(const std::string& pattern, const std::string& mapper = "identity") {
  RunConfig config;
  config.machine = "mesh:8";
  config.alloc = "flat";
  config.keep_jobs = true;
  config.pattern = pattern;
  config.mapper = mapper;
  return config;
}

Workload three_jobs() {
  Workload workload;
  workload.jobs = {make_job(1, 0, 4, 10), make_job(2, 0, 3, 20), make_job(3, 0, 1, 5)};
  return workload;
}

TEST(JobMapping, RingOnALineByHand) {
  Simulation simulation(line_config("ring"), three_jobs());
  auto probe = std::make_unique<TrafficProbe>();
  TrafficProbe* seen = probe.get();
  simulation.set_runtime_model(std::move(probe));
  const RunResult result = simulation.run();
  ASSERT_EQ(result.jobs.size(), 3u);
  // Job 1: ring of 4 on nodes 0..3 (identity), 1 KiB per edge: edges 0-1, 1-2, 2-3 travel 1
  // hop, 3-0 travels 3: hop-bytes 6 KiB over 4 KiB. Each edge sends 512 B each way; link 0->1
  // carries 0->1 and 0->3: 1 KiB, as does every other link.
  const JobRecord& ring4 = result.jobs[0];
  EXPECT_EQ(ring4.job_id, 1);
  EXPECT_EQ(ring4.comm_bytes, 4096);
  EXPECT_EQ(ring4.hop_bytes, 6144);
  EXPECT_EQ(ring4.hops_per_byte, 1.5);
  EXPECT_EQ(ring4.max_link_load, 1024);
  // Job 2: ring of 3 on nodes 4..6: hops 1 + 1 + 2.
  const JobRecord& ring3 = result.jobs[1];
  EXPECT_EQ(ring3.comm_bytes, 3072);
  EXPECT_EQ(ring3.hop_bytes, 4096);
  EXPECT_DOUBLE_EQ(ring3.hops_per_byte, 4.0 / 3.0);
  EXPECT_EQ(ring3.max_link_load, 1024);
  // Job 3: one task, no bytes.
  EXPECT_EQ(result.jobs[2].comm_bytes, 0);
  EXPECT_EQ(result.jobs[2].hop_bytes, 0);
  // Means over the jobs that communicate.
  EXPECT_EQ(result.summary.mean_hop_bytes, 5120);
  EXPECT_DOUBLE_EQ(result.summary.mean_hops_per_byte, (1.5 + 4.0 / 3.0) / 2);
  EXPECT_EQ(result.summary.mean_max_link_load, 1024);
  EXPECT_EQ(result.summary.max_link_load, 1024);
  // What a runtime model sees: bytes per node pair.
  ASSERT_EQ(seen->flows.count(1), 1u);
  const auto& flows = seen->flows[1];
  ASSERT_EQ(flows.size(), 4u);
  const std::pair<NodeId, NodeId> pairs[] = {{0, 1}, {0, 3}, {1, 2}, {2, 3}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(flows[i].a, pairs[i].first);
    EXPECT_EQ(flows[i].b, pairs[i].second);
    EXPECT_EQ(flows[i].bytes, 1024);
  }
  EXPECT_EQ(seen->flows.count(3), 1u);  // a one-task job has traffic, but no flows
  EXPECT_TRUE(seen->flows[3].empty());
}

TEST(JobMapping, MapperImprovesTheRing) {
  // A ring of k tasks on a line of k nodes needs at least 2(k-1) hops (the ring crosses every
  // cut between neighbouring nodes twice): identity's 6 and 4 hops are optimal, and TopoLB
  // with refinement reaches them too.
  Simulation simulation(line_config("ring", "topolb+refine"), three_jobs());
  const RunResult result = simulation.run();
  EXPECT_EQ(result.jobs[0].hop_bytes, 6144);
  EXPECT_EQ(result.jobs[1].hop_bytes, 4096);
}

TEST(JobMapping, ScotchMapsAOneNodeJob) {
  // Job 3 gets one node: Scotch cannot build a one-processor target, the mapper places it.
  const RunResult result = Simulation(line_config("ring", "scotch"), three_jobs()).run();
  ASSERT_EQ(result.jobs.size(), 3u);
  EXPECT_EQ(result.jobs[2].hop_bytes, 0);
  EXPECT_EQ(result.jobs[0].comm_bytes, 4096);
}

TEST(JobMapping, NoPatternLeavesCommunicationAtZero) {
  RunConfig config = line_config("");
  Simulation simulation(config, three_jobs());
  const RunResult result = simulation.run();
  for (const auto& record : result.jobs) {
    EXPECT_EQ(record.comm_bytes, 0);
    EXPECT_EQ(record.max_link_load, 0);
  }
  EXPECT_EQ(result.summary.mean_hop_bytes, 0);
  EXPECT_EQ(result.mapping_seconds, 0);
  // Defaults stay out of the config text, so existing config ids are unchanged.
  EXPECT_EQ(config.canonical().find("pattern"), std::string::npos);
  EXPECT_EQ(config.canonical().find("mapper"), std::string::npos);
}

TEST(JobMapping, RandomMapperIsDeterministic) {
  const RunResult a = Simulation(line_config("alltoall", "random"), three_jobs()).run();
  const RunResult b = Simulation(line_config("alltoall", "random"), three_jobs()).run();
  ASSERT_EQ(a.jobs.size(), b.jobs.size());
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].hop_bytes, b.jobs[i].hop_bytes);
    EXPECT_EQ(a.jobs[i].max_link_load, b.jobs[i].max_link_load);
  }
}

TEST(JobPattern, SizesComeFromTheJob) {
  EXPECT_EQ(mapping::balanced_sides(12, 2), (std::vector<int>{4, 3}));
  EXPECT_EQ(mapping::balanced_sides(7, 2), (std::vector<int>{7, 1}));
  EXPECT_EQ(mapping::balanced_sides(64, 3), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(mapping::balanced_sides(24, 3), (std::vector<int>{4, 3, 2}));
  EXPECT_EQ(mapping::sized_pattern_spec("mesh2d:auto,bytes=8", 12), "mesh2d:size=4x3,bytes=8");
  EXPECT_EQ(mapping::sized_pattern_spec("ring", 5), "ring:size=5");
  EXPECT_EQ(mapping::sized_pattern_spec("random:degree=6", 3), "random:size=3,degree=2");
  EXPECT_EQ(mapping::job_pattern_graph("mesh3d:auto", 8).edge_count(), 12);
  EXPECT_EQ(mapping::canonical_job_pattern("mesh2d"), "mesh2d:bytes=1024,size=auto,wrap=0");
  EXPECT_EQ(mapping::canonical_job_pattern("random:degree=6"),
            "random:bytes=1024,degree=6,seed=1,size=auto");
  EXPECT_THROW(mapping::sized_pattern_spec("mesh2d:8x8", 64), InputError);
  EXPECT_THROW(mapping::sized_pattern_spec("leanmd", 64), InputError);
  EXPECT_THROW(mapping::sized_pattern_spec("nope", 64), InputError);
}

TEST(JobPattern, ConfigFieldsCheckAndSpell) {
  RunConfig config;
  config.pattern = "mesh2d:8x8";
  EXPECT_FALSE(check_fields(config).empty());
  config.pattern = "mesh2d";
  config.mapper = "topolb+refine";
  EXPECT_TRUE(check_fields(config).empty());
  const std::string text = config.canonical();
  EXPECT_NE(text.find("pattern=mesh2d:bytes=1024,size=auto,wrap=0"), std::string::npos) << text;
  EXPECT_NE(text.find("mapper=topolb:order=2+refine"), std::string::npos) << text;
}

}  // namespace
