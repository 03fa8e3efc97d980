// Dispatch loop (in-process transport), config runner with failures and timeouts, progress
// line.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sim/simulation.hpp"
#include "allocsim/sweep/dispatch/dispatch.hpp"
#include "allocsim/sweep/dispatch/progress.hpp"
#include "allocsim/sweep/dispatch/runner.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::sweep {
namespace {

ConfigOutcome done(std::int64_t index) {
  ConfigOutcome o;
  o.config_id = static_cast<std::uint64_t>(index) + 1;
  o.index = index;
  o.status = ConfigStatus::done;
  o.wall_seconds = 1e-4;
  return o;
}

TEST(Dispatch, EveryTaskRunsOnceInTheGivenOrder) {
  std::vector<std::int64_t> ran;
  LocalTransport transport([&](std::int64_t index) {
    ran.push_back(index);
    return done(index);
  });
  std::vector<std::int64_t> received;
  DispatchCallbacks callbacks;
  callbacks.on_outcome = [&](const ConfigOutcome& o) { received.push_back(o.index); };
  const std::deque<std::int64_t> order = {5, 3, 9, 0, 1, 2, 4, 6, 7, 8};
  EXPECT_EQ(dispatch(transport, order, {}, callbacks), DispatchEnd::complete);
  EXPECT_EQ(received, std::vector<std::int64_t>(order.begin(), order.end()));
  EXPECT_EQ(ran, received);
}

TEST(Dispatch, EmptyWorkCompletes) {
  LocalTransport transport([](std::int64_t index) { return done(index); });
  DispatchCallbacks callbacks;
  callbacks.on_outcome = [](const ConfigOutcome&) {};
  EXPECT_EQ(dispatch(transport, {}, {}, callbacks), DispatchEnd::complete);
}

TEST(Dispatch, StopRequestLeavesTheRestUnrun) {
  std::atomic<int> ran{0};
  LocalTransport transport([&](std::int64_t index) {
    ++ran;
    return done(index);
  });
  int received = 0;
  DispatchCallbacks callbacks;
  callbacks.on_outcome = [&](const ConfigOutcome&) { ++received; };
  callbacks.stop_requested = [&] { return received >= 3; };
  std::deque<std::int64_t> order;
  for (int i = 0; i < 1000; ++i) order.push_back(i);
  EXPECT_EQ(dispatch(transport, order, {}, callbacks), DispatchEnd::interrupted);
  EXPECT_GE(received, 3);
  EXPECT_LT(received, 1000);
  EXPECT_EQ(received, ran.load());  // whatever ran was received before the worker left
}

TEST(Dispatch, GracePeriodRunsOutOnASlowConfig) {
  std::atomic<bool> release{false}, running{false};
  auto transport = std::make_unique<LocalTransport>([&](std::int64_t index) {
    running = true;
    while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done(index);
  });
  DispatchCallbacks callbacks;
  callbacks.on_outcome = [](const ConfigOutcome&) {};
  callbacks.stop_requested = [&] { return running.load(); };  // stop once a config runs
  DispatchOptions options;
  options.grace_seconds = 0.05;
  EXPECT_EQ(dispatch(*transport, {0, 1}, options, callbacks), DispatchEnd::abandoned);
  release = true;  // let the worker finish so the test can join it
  transport.reset();
}

TEST(Dispatch, WatchdogRecordsAStuckConfigAsTimedOutAndAbandonsItsWorker) {
  // Config 1 never returns on its own (it ignores its time limit); the others are instant.
  std::atomic<bool> release{false};
  auto transport = std::make_unique<LocalTransport>([&](std::int64_t index) {
    while (index == 1 && !release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return done(index);
  });
  std::map<std::int64_t, ConfigOutcome> received;
  DispatchCallbacks callbacks;
  callbacks.on_outcome = [&](const ConfigOutcome& o) { received[o.index] = o; };
  callbacks.hard_limit = [](std::int64_t index) { return index == 1 ? 0.05 : 0.0; };
  EXPECT_EQ(dispatch(*transport, {0, 1, 2}, {}, callbacks), DispatchEnd::stuck);
  ASSERT_EQ(received.count(1), 1u);
  EXPECT_EQ(received[1].status, ConfigStatus::timed_out);
  EXPECT_NE(received[1].error.find("watchdog"), std::string::npos) << received[1].error;
  EXPECT_GT(received[1].wall_seconds, 0.05);
  EXPECT_EQ(received[0].status, ConfigStatus::done);
  EXPECT_EQ(received.count(2), 0u);  // its only worker is gone: config 2 stays pending
  release = true;                    // let the worker finish so the test can join it
  transport.reset();
}

// ---- ConfigRunner with fake load/simulate ----

std::vector<ConfigEntry> entries(const std::vector<std::string>& traces) {
  std::vector<ConfigEntry> list;
  for (std::size_t i = 0; i < traces.size(); ++i) {
    ConfigEntry e;
    e.index = static_cast<std::int64_t>(i);
    e.id = 100 + i;
    e.config.trace = traces[i];
    e.config.workload_seed = 1;
    list.push_back(e);
  }
  return list;
}

TEST(ConfigRunner, CachesWorkloadsAndRecordsFailuresAndTimeouts) {
  const auto configs = entries({"synthetic:jobs=5", "synthetic:jobs=5", "synthetic:throw",
                                "synthetic:timeout", "synthetic:badload"});
  int loads = 0;
  LoadFn load = [&](const RunConfig& c, const std::string&) {
    ++loads;
    if (c.trace == "synthetic:badload") throw InputError("cannot read it");
    Workload w;
    w.source = c.trace;
    w.jobs.resize(3);
    return w;
  };
  SimulateFn simulate = [](const RunConfig& c, const Workload& base) {
    if (c.trace == "synthetic:throw") throw std::logic_error("allocator bug");
    if (c.trace == "synthetic:timeout") throw TimeoutError("time budget of 1 s exceeded");
    RunResult r;
    r.summary.jobs = static_cast<double>(base.jobs.size());
    return r;
  };
  ConfigRunner runner(configs, "/nowhere", "", load, simulate);
  const ConfigOutcome a = runner.run(0, 4), b = runner.run(1, 4);
  EXPECT_EQ(a.status, ConfigStatus::done);
  EXPECT_EQ(a.config_id, 100u);
  EXPECT_EQ(a.rank, 4);
  EXPECT_EQ(a.result.summary.jobs, 3);
  EXPECT_EQ(b.status, ConfigStatus::done);
  EXPECT_EQ(loads, 1);  // same trace and workload seed: read once
  const ConfigOutcome c = runner.run(2, 4);
  EXPECT_EQ(c.status, ConfigStatus::failed);
  EXPECT_EQ(c.error, "allocator bug");
  const ConfigOutcome d = runner.run(3, 4);
  EXPECT_EQ(d.status, ConfigStatus::timed_out);
  EXPECT_EQ(d.error, "time budget of 1 s exceeded");
  const ConfigOutcome e = runner.run(4, 4);
  EXPECT_EQ(e.status, ConfigStatus::failed);
  EXPECT_EQ(e.error, "cannot read it");
  EXPECT_EQ(runner.run(4, 4).error, "cannot read it");
  EXPECT_EQ(loads, 4);  // the failed read is cached too
}

TEST(ConfigRunner, KeepsOnlyTheLatestSyntheticWorkloads) {
  // Every replicate has its own workload seed: a worker keeps a few, not one per replicate.
  std::vector<ConfigEntry> configs = entries(std::vector<std::string>(20, "synthetic:jobs=5"));
  for (std::size_t i = 0; i < configs.size(); ++i) configs[i].config.workload_seed = i % 10;
  int loads = 0;
  LoadFn load = [&](const RunConfig&, const std::string&) {
    ++loads;
    return Workload{};
  };
  ConfigRunner runner(configs, "/nowhere", "", load,
                      [](const RunConfig&, const Workload&) { return RunResult{}; });
  for (std::int64_t i = 0; i < 10; ++i) EXPECT_EQ(runner.run(i, 1).status, ConfigStatus::done);
  EXPECT_EQ(loads, 10);
  EXPECT_EQ(runner.run(19, 1).status, ConfigStatus::done);  // seed 9: still kept
  EXPECT_EQ(loads, 10);
  EXPECT_EQ(runner.run(10, 1).status, ConfigStatus::done);  // seed 0: dropped, made again
  EXPECT_EQ(loads, 11);
}

TEST(ConfigRunner, CoreLoadAndSimulateGiveTheCoreResults) {
  // The worker's caches (parsed synthetic specs, built machines) change no result.
  std::vector<ConfigEntry> configs =
      entries({"synthetic:jobs=30,size=uniform:1,16", "synthetic:jobs=30,size=uniform:1,16",
               "synthetic:jobs=30,size=uniform:1,16"});
  configs[1].config.workload_seed = 7;
  configs[2].config.alloc = "random";
  for (auto& entry : configs) entry.config.machine = "mesh:8x8";
  configs[2].config.transforms = {"runtime_scale:factor=2"};
  ConfigRunner runner(configs, "/nowhere", "");
  for (std::int64_t i = 0; i < 3; ++i) {
    const ConfigOutcome got = runner.run(i, 1);
    ASSERT_EQ(got.status, ConfigStatus::done) << got.error;
    const RunResult expected = simulate(configs[static_cast<std::size_t>(i)].config, "");
    for (const auto& c : summary_columns())
      EXPECT_EQ(got.result.summary.*c.member, expected.summary.*c.member) << c.name;
  }
}

TEST(Progress, LineFormat) {
  EXPECT_EQ(Progress::line(37, 120, 2.1, 39, 0),
            "[ 37/120] 30.8%  2.1 cfg/s  ETA 0:00:39  failed 0");
  EXPECT_EQ(Progress::line(5, 5, 10, 0, 2), "[5/5] 100.0%  10.0 cfg/s  ETA 0:00:00  failed 2");
  EXPECT_EQ(Progress::line(0, 10, 0, -1, 0), "[ 0/10] 0.0%  0.0 cfg/s  ETA ?:??:??  failed 0");
  EXPECT_EQ(Progress::clock_text(3725), "1:02:05");
}

TEST(Progress, BatchModePrintsEveryFivePercentAtMostOnceASecond) {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  const auto t0 = Progress::Clock::now();
  Progress progress(100, 0, false, out);
  progress.update(1, 0, t0);                                   // first line
  progress.update(2, 0, t0 + std::chrono::milliseconds(500));  // too soon
  progress.update(6, 0, t0 + std::chrono::seconds(2));         // new 5 % step
  progress.update(7, 0, t0 + std::chrono::seconds(4));         // same step, < 10 s
  progress.update(8, 0, t0 + std::chrono::seconds(15));        // 10 s passed
  progress.finish(100, 1, t0 + std::chrono::seconds(20));
  std::fclose(out);
  const std::string text(buffer, size);
  std::free(buffer);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4) << text;
  EXPECT_NE(text.find("[  6/100]"), std::string::npos);
  EXPECT_NE(text.find("[100/100] 100.0%"), std::string::npos);
}

}  // namespace
}  // namespace allocsim::sweep
