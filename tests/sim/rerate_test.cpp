// Running jobs re-rated while they run: a model that shares the machine's speed among the
// running jobs moves their end events; ends and runtimes worked out by hand.
#include <gtest/gtest.h>

#include <map>

#include "allocsim/sim/simulation.hpp"
#include "sim/job_maker.hpp"

using namespace allocsim;

namespace {

using allocsim::testing::make_job;

/// Every running job progresses at 1 / (number of running jobs); counts the questions asked.
class SharedSpeed final : public RuntimeModel {
 public:
  double runtime(const Job& job, const Allocation&, const Topology&) const override {
    return job.runtime;
  }
  void rerate(RateContext& context, const RunningChange& change) override {
    (change.kind == RunningChange::Kind::started ? starts : ends) += 1;
    const double rate = 1.0 / static_cast<double>(context.running().size());
    for (const RunningJob& running : context.running()) context.set_rate(running.job, rate);
  }
  int starts = 0, ends = 0;
};

using Schedule = std::map<std::int64_t, std::pair<double, double>>;

Schedule run(std::vector<Job> jobs, SharedSpeed** model_out = nullptr) {
  RunConfig config;
  config.machine = "flat:4";
  config.alloc = "flat";
  config.keep_jobs = true;
  Workload workload;
  workload.jobs = std::move(jobs);
  Simulation simulation(config, std::move(workload));
  auto model = std::make_unique<SharedSpeed>();
  SharedSpeed* raw = model.get();
  simulation.set_runtime_model(std::move(model));
  Schedule result;
  for (const auto& record : simulation.run().jobs) {
    result[record.job_id] = {record.start, record.end};
    EXPECT_EQ(record.runtime, record.end - record.start);
  }
  if (model_out) {
    static SharedSpeed counts;  // copy of the counters (the model dies with the simulation)
    counts.starts = raw->starts;
    counts.ends = raw->ends;
    *model_out = &counts;
  }
  return result;
}

}  // namespace

TEST(Rerate, SharingJobsMoveEachOthersEnds) {
  // A alone until 4 (6 s of work left); both at half speed: A ends at 4 + 12 = 16 while B has
  // done 6 of its 10; B alone again ends at 16 + 4 = 20.
  SharedSpeed* counts = nullptr;
  EXPECT_EQ(run({make_job(1, 0, 1, 10), make_job(2, 4, 1, 10)}, &counts),
            (Schedule{{1, {0, 16}}, {2, {4, 20}}}));
  EXPECT_EQ(counts->starts, 2);
  EXPECT_EQ(counts->ends, 2);
}

TEST(Rerate, SimultaneousEndsAreOneQuestion) {
  // Both start at 0 at half speed and end together at 20: the model hears one "ended" batch.
  SharedSpeed* counts = nullptr;
  EXPECT_EQ(run({make_job(1, 0, 1, 10), make_job(2, 0, 1, 10)}, &counts),
            (Schedule{{1, {0, 20}}, {2, {0, 20}}}));
  EXPECT_EQ(counts->starts, 2);
  EXPECT_EQ(counts->ends, 1);
}
