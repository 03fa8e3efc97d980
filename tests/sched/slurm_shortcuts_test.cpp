// The `slurm` scheduler's shortcuts (skipped passes, passes ended early, jumps, replayed tests,
// running jobs kept between passes) against passes that test every job
// (`SlurmConfig::shortcuts = false`): random streams whose schedules must be the same, job for
// job. Hand-made cases of single conditions: slurm_replay_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "allocsim/sched/slurm.hpp"
#include "allocsim/util/rng.hpp"
#include "sched/sched_test_support.hpp"

using namespace allocsim;
using allocsim::testing::job;
using allocsim::testing::run_slurm;

namespace {

using Schedule = std::map<std::int64_t, std::pair<double, double>>;

/// `jobs` under `slurm` with `config`, its shortcuts on or off, on flat:16, as job id -> (start,
/// end).
Schedule schedule_on_flat16(const std::vector<Job>& jobs, const SlurmConfig& config,
                            bool shortcuts) {
  Schedule result;
  for (const auto& record : run_slurm(jobs, config, shortcuts, "flat:16").jobs)
    result[record.job_id] = {record.start, record.end};
  return result;
}

/// A random short window (5 to 20 minutes, ends moving every bf_resolution of 60 or 120 s),
/// bf_interval 30 or 60 s, limits enforced or not: most passes hold reservations cut at the
/// window's end.
SlurmConfig short_window_config(Rng& rng) {
  SlurmConfig config;
  config.bf_window = 60.0 * (5 + static_cast<int>(rng.uniform() * 16));
  config.bf_resolution = rng.uniform() < 0.5 ? 60 : 120;
  config.bf_interval = rng.uniform() < 0.5 ? 30 : 60;
  config.enforce_limits = rng.uniform() < 0.5;
  return config;
}

/// 40 jobs for a short window: arrivals in bursts (gaps under 5 s 40 % of the time, else under
/// 300 s), limits of 1 to 40 minutes (whole minutes), runtimes 20 to 110 % of them, three users,
/// widths from `width()`; every draw in a fixed order.
template <typename Width>
std::vector<Job> short_window_stream(Rng& rng, Width width) {
  std::vector<Job> jobs;
  double submit = 0;
  for (int id = 1; id <= 40; ++id) {
    const bool burst = rng.uniform() < 0.4;
    submit += std::floor(rng.uniform() * (burst ? 5 : 300));
    const double estimate = 60.0 * (1 + std::floor(rng.uniform() * 40));
    const double runtime = std::max(1.0, std::floor(estimate * (0.2 + 0.9 * rng.uniform())));
    const int procs = width();
    const int user = static_cast<int>(rng.uniform() * 3);
    jobs.push_back(job(id, submit, procs, runtime, user, estimate));
  }
  return jobs;
}

/// The schedule with shortcuts equals that of passes testing every job, job for job (flat:16).
void expect_shortcuts_change_nothing(const std::vector<Job>& jobs, const SlurmConfig& config,
                                     int trial) {
  Schedule result[2];
  for (int shortcuts = 0; shortcuts < 2; ++shortcuts)
    result[shortcuts] = schedule_on_flat16(jobs, config, shortcuts == 1);
  for (const auto& [id, times] : result[0])
    ASSERT_EQ(result[1][id], times) << "trial " << trial << ", job " << id << "\n"
                                    << config.describe();
}

}  // namespace

// ---- The pass's shortcuts against testing every job ----

// Random streams on flat:16 (sizes 1-16, runtimes 1-3000 s, estimates from half to three
// times the runtime so that some jobs are killed, five users, bursts of arrivals) under
// settings that exercise every shortcut: the schedule with shortcuts (skipped passes, passes
// ended early) must be the schedule of passes that test every job, job for job.
TEST(SlurmScheduler, ShortcutsGiveTheSameSchedulesAsTestingEveryJob) {
  std::vector<SlurmConfig> configs(6);
  configs[1].bf_window = 600;
  configs[1].bf_resolution = 300;
  configs[1].bf_max_job_test = 4;
  configs[2].multifactor = true;
  configs[2].weight_age = 1000;
  configs[2].weight_job_size = 300;
  configs[2].weight_fairshare = 2000;
  configs[2].max_age = 3600;
  configs[2].decay_half_life = 1800;
  configs[2].bf_max_job_user = 2;
  configs[3].bf_interval = 7;
  configs[3].bf_resolution = 1;
  configs[3].enforce_limits = false;
  configs[4].bf_window = 30 * 60;  // long jobs are cut at the window's end or left beyond it
  configs[4].bf_interval = 45;
  configs[4].enforce_limits = false;
  configs[5].multifactor = true;
  configs[5].calc_period = 0;
  configs[5].weight_age = 100;
  configs[5].weight_job_size = 1000;
  configs[5].favor_small = true;
  configs[5].bf_max_job_test = 3;
  Rng rng(2026);
  int cases = 0;
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Job> jobs;
    double submit = 0;
    for (int id = 1; id <= 40; ++id) {
      submit += std::floor(rng.uniform() * (rng.uniform() < 0.3 ? 2 : 400));
      const double runtime = 1 + std::floor(rng.uniform() * 3000);
      const double estimate = std::ceil(runtime * (0.5 + 2.5 * rng.uniform()));
      jobs.push_back(job(id, submit, 1 + static_cast<int>(rng.uniform() * 16), runtime,
                         static_cast<int>(rng.uniform() * 5), estimate));
    }
    for (const SlurmConfig& base : configs) {
      Schedule result[2];
      for (int shortcuts = 0; shortcuts < 2; ++shortcuts)
        result[shortcuts] = schedule_on_flat16(jobs, base, shortcuts == 1);
      std::string differences;
      for (const auto& [id, times] : result[0])
        if (result[1][id] != times)
          differences += " job " + std::to_string(id) + ": " + std::to_string(times.first) +
                         " (every job) vs " + std::to_string(result[1][id].first) + ";";
      ASSERT_TRUE(differences.empty()) << "trial " << trial << ":" << differences << "\n"
                                       << base.describe();
      ++cases;
    }
  }
  EXPECT_EQ(cases, 600);
}

// A pass skipped although the window's end moved since the last one (same_outcome: no answer
// of the map after a reservation reached the window's end depended on the map there): short
// windows (5 to 20 minutes, ends moving every bf_resolution) and limits longer than them, so
// that most passes hold reservations cut at the window's end, on random streams; the schedule
// with shortcuts must be that of passes that test every job, job for job. (It fails when the
// window's move is ignored, or when a reservation ending exactly at the window's end is not
// counted as reaching it.)
TEST(SlurmScheduler, PassesSkippedAfterTheWindowMovedGiveTheSameSchedules) {
  Rng rng(4242);
  int cases = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const SlurmConfig base = short_window_config(rng);
    const std::vector<Job> jobs =
        short_window_stream(rng, [&] { return 1 + static_cast<int>(rng.uniform() * 12); });
    ASSERT_NO_FATAL_FAILURE(expect_shortcuts_change_nothing(jobs, base, trial));
    ++cases;
  }
  EXPECT_EQ(cases, 300);
}

// The same with many wide jobs (10 to 16 of the 16 nodes), so that reservations reaching the
// window's end hold most nodes and jobs whose every try is short (NodeSpace::short_throughout)
// are common: their skipped tries' record (tail_scanned) must stay.
TEST(SlurmScheduler, WideJobsSkippedAsShortGiveTheSameSchedules) {
  Rng rng(2828);
  int cases = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const SlurmConfig base = short_window_config(rng);
    const std::vector<Job> jobs = short_window_stream(rng, [&] {
      const bool wide = rng.uniform() < 0.4;
      return wide ? 10 + static_cast<int>(rng.uniform() * 7)
                  : 1 + static_cast<int>(rng.uniform() * 8);
    });
    ASSERT_NO_FATAL_FAILURE(expect_shortcuts_change_nothing(jobs, base, trial));
    ++cases;
  }
  EXPECT_EQ(cases, 400);
}

// Passes that replay the leading tests of the previous recorded pass (reusable_prefix in
// src/sched/slurm_pass_memory.cpp) against passes that test every job: random streams on flat:16
// with a bf_resolution of 1 s or up to 20 times bf_interval (a start just after now rounds down to
// a reservation from now, which a replay must not take as it was), limits not enforced and
// estimates often below the runtime (will-run's starts at ends already passed), and short
// windows (the window's end moves under reservations cut at it). It fails when the condition
// on a reservation's start, on will-run's starts or on the segments beginning in (then + L,
// now + L] is left out, or when the running jobs are not compared.
TEST(SlurmScheduler, ReplayedLeadingTestsGiveTheSameSchedules) {
  Rng rng(7007);
  int cases = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SlurmConfig base;
    const double resolutions[] = {1, 60, 120, 300, 600};
    base.bf_resolution = resolutions[static_cast<int>(rng.uniform() * 5)];
    base.bf_interval = rng.uniform() < 0.3 ? 7 : rng.uniform() < 0.5 ? 30 : 60;
    base.bf_window = rng.uniform() < 0.5 ? 60.0 * (5 + static_cast<int>(rng.uniform() * 16))
                                         : 60.0 * (30 + static_cast<int>(rng.uniform() * 90));
    base.enforce_limits = rng.uniform() < 0.3;
    std::vector<Job> jobs;
    double submit = 0;
    for (int id = 1; id <= 40; ++id) {
      submit += std::floor(rng.uniform() * (rng.uniform() < 0.4 ? 5 : 300));
      const double estimate = 60.0 * (1 + std::floor(rng.uniform() * 40));
      const double runtime = std::max(1.0, std::floor(estimate * (0.2 + 1.3 * rng.uniform())));
      jobs.push_back(job(id, submit, 1 + static_cast<int>(rng.uniform() * 12), runtime,
                         static_cast<int>(rng.uniform() * 3), estimate));
    }
    Schedule result[2];
    for (int shortcuts = 0; shortcuts < 2; ++shortcuts)
      result[shortcuts] = schedule_on_flat16(jobs, base, shortcuts == 1);
    for (const auto& [id, times] : result[0])
      ASSERT_EQ(result[1][id], times) << "trial " << trial << ", job " << id << "\n"
                                      << base.describe();
    ++cases;
  }
  EXPECT_EQ(cases, 400);
}

// The structures kept between passes and the `flat` allocator's answer taken without asking it
// (config.shortcuts) against rebuilding the running jobs' node sets at every pass and asking the
// allocator, on flat:150 (three words of node bits, so that word ranges matter) with node sets
// compared too. Estimates from a few values and starts at shared times give many equal planned
// ends, whose order (that of the running list, which a finish reorders) changes will-run's
// groups.
TEST(SlurmScheduler, KeptNodeSetsGiveTheSameSchedulesAsRebuiltOnes) {
  std::vector<SlurmConfig> configs(3);
  configs[1].bf_window = 1200;
  configs[1].bf_resolution = 120;
  configs[2].multifactor = true;
  configs[2].calc_period = 0;
  configs[2].weight_job_size = 1000;
  configs[2].enforce_limits = false;
  Rng rng(2811);
  int cases = 0;
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<Job> jobs;
    double submit = 0;
    for (int id = 1; id <= 80; ++id) {
      submit += 60 * std::floor(rng.uniform() * (rng.uniform() < 0.7 ? 1 : 6));
      const double estimate = rng.uniform() < 0.5 ? 600 : 1800;
      const double runtime = std::max(1.0, std::floor(estimate * rng.uniform()));
      const int procs = rng.uniform() < 0.2 ? 40 + static_cast<int>(rng.uniform() * 100)
                                            : 1 + static_cast<int>(rng.uniform() * 20);
      jobs.push_back(
          job(id, submit, procs, runtime, static_cast<int>(rng.uniform() * 3), estimate));
    }
    for (const SlurmConfig& base : configs) {
      std::map<std::int64_t, std::tuple<double, double, std::string>> result[2];
      for (int shortcuts = 0; shortcuts < 2; ++shortcuts)
        for (const auto& record : run_slurm(jobs, base, shortcuts == 1, "flat:150").jobs)
          result[shortcuts][record.job_id] = {record.start, record.end, record.allocated_nodes};
      for (const auto& [id, rebuilt] : result[0])
        ASSERT_EQ(result[1][id], rebuilt) << "trial " << trial << ", job " << id << "\n"
                                          << base.describe();
      ++cases;
    }
  }
  EXPECT_EQ(cases, 120);
}
