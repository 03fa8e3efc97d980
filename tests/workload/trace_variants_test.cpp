// Trace windows, arrival jitter and runtime noise (issue 29, item 1): hand-worked windows with
// their exact job ids, and what each perturbation keeps, for fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"

using namespace allocsim;

namespace {

/// Ten jobs, ids 1..10, submitted at 100, 110, ..., 190; job i runs 10*i s of an estimate of
/// 20*i s on i processors.
Workload ten_jobs() {
  Workload w;
  for (int i = 1; i <= 10; ++i) w.jobs.push_back({i, 90.0 + 10 * i, 10.0 * i, 20.0 * i, i});
  return w;
}

Workload transformed(const std::string& spec, std::uint64_t seed = 1) {
  Rng rng(seed);
  TransformContext context{64, &rng};
  Workload w = ten_jobs();
  apply_transform(w, spec, context);
  return w;
}

std::vector<std::int64_t> ids(const Workload& w) {
  std::vector<std::int64_t> out;
  for (const Job& job : w.jobs) out.push_back(job.id);
  return out;
}

}  // namespace

TEST(Window, SuccessiveIndicesGiveDisjointWindowsStartingAtZero) {
  const Workload w0 = transformed("window:jobs=3,index=0");
  const Workload w1 = transformed("window:jobs=3,index=1");
  const Workload w2 = transformed("window:jobs=3,index=2");
  EXPECT_EQ(ids(w0), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(ids(w1), (std::vector<std::int64_t>{4, 5, 6}));
  EXPECT_EQ(ids(w2), (std::vector<std::int64_t>{7, 8, 9}));
  // Submit times shifted so the window starts at 0; inter-arrival times, sizes, runtimes and
  // estimates are the trace's.
  for (const Workload* w : {&w0, &w1, &w2}) {
    ASSERT_EQ(w->jobs.size(), 3u);
    EXPECT_EQ(w->jobs[0].submit, 0);
    EXPECT_EQ(w->jobs[1].submit, 10);
    EXPECT_EQ(w->jobs[2].submit, 20);
    for (const Job& job : w->jobs) {
      EXPECT_EQ(job.runtime, 10.0 * static_cast<double>(job.id));
      EXPECT_EQ(job.estimate, 20.0 * static_cast<double>(job.id));
      EXPECT_EQ(job.procs, job.id);
    }
  }
  EXPECT_EQ(w1.transforms, std::vector<std::string>{"window:index=1,jobs=3,skip=0"});
  // skip moves every window: jobs 2..4 for skip=1, index 0.
  EXPECT_EQ(ids(transformed("window:jobs=3,skip=1")), (std::vector<std::int64_t>{2, 3, 4}));
}

TEST(Window, PastTheEndIsAClearError) {
  try {
    transformed("window:jobs=3,index=3");  // jobs 10..12 of 10
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("needs 12 jobs, but the workload has 10"), std::string::npos) << text;
    EXPECT_NE(text.find("at most 3 disjoint windows"), std::string::npos) << text;
  }
  EXPECT_THROW(transformed("random_window:jobs=11"), InputError);
}

TEST(RandomWindow, SeededStartSameForASeedDifferentAcrossSeeds) {
  std::set<std::int64_t> firsts;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Workload a = transformed("random_window:jobs=4", seed);
    const Workload b = transformed("random_window:jobs=4", seed);
    EXPECT_EQ(ids(a), ids(b));
    ASSERT_EQ(a.jobs.size(), 4u);
    EXPECT_EQ(a.jobs[0].submit, 0);
    for (std::size_t i = 1; i < 4; ++i) EXPECT_EQ(a.jobs[i].id, a.jobs[0].id + std::int64_t(i));
    EXPECT_GE(a.jobs[0].id, 1);
    EXPECT_LE(a.jobs[0].id, 7);  // start uniform in jobs 1..7
    firsts.insert(a.jobs[0].id);
  }
  EXPECT_GT(firsts.size(), 3u);  // 20 seeds do not all draw the same start
}

TEST(Jitter, DeterministicPerSeedKeepsJobsAndSortsBySubmit) {
  const Workload a = transformed("jitter:sd=30", 7), b = transformed("jitter:sd=30", 7);
  const Workload c = transformed("jitter:sd=30", 8);
  ASSERT_EQ(a.jobs.size(), 10u);
  bool differs = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].id, b.jobs[i].id);
    EXPECT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    differs |= a.jobs[i].submit != c.jobs[i].submit;
    EXPECT_GE(a.jobs[i].submit, 0);
    if (i > 0) {
      EXPECT_LE(a.jobs[i - 1].submit, a.jobs[i].submit);
    }
    // Every job keeps its size, runtime and estimate.
    EXPECT_EQ(a.jobs[i].procs, a.jobs[i].id);
    EXPECT_EQ(a.jobs[i].runtime, 10.0 * static_cast<double>(a.jobs[i].id));
    EXPECT_EQ(a.jobs[i].estimate, 20.0 * static_cast<double>(a.jobs[i].id));
  }
  EXPECT_TRUE(differs);
  auto sorted = ids(a);
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, ids(ten_jobs()));  // the same ten jobs
  // sd=0 is the identity.
  const Workload zero = transformed("jitter:sd=0");
  for (std::size_t i = 0; i < zero.jobs.size(); ++i)
    EXPECT_EQ(zero.jobs[i].submit, ten_jobs().jobs[i].submit);
  // A huge jitter clamps at 0.
  const Workload clamped = transformed("jitter:sd=1e6", 3);
  EXPECT_TRUE(std::any_of(clamped.jobs.begin(), clamped.jobs.end(),
                          [](const Job& job) { return job.submit == 0; }));
}

TEST(RuntimeNoise, DeterministicMeanOneCappedAtTheEstimate) {
  const Workload a = transformed("runtime_noise:cv=0.5", 7),
                 b = transformed("runtime_noise:cv=0.5", 7);
  const Workload c = transformed("runtime_noise:cv=0.5", 8);
  bool differs = false, changed = false;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    const Job& job = a.jobs[i];
    EXPECT_EQ(job.runtime, b.jobs[i].runtime);
    differs |= job.runtime != c.jobs[i].runtime;
    changed |= job.runtime != 10.0 * static_cast<double>(job.id);
    EXPECT_GT(job.runtime, 0);
    EXPECT_LE(job.runtime, job.estimate);  // cap=estimate
    EXPECT_EQ(job.submit, 90.0 + 10 * static_cast<double>(job.id));
    EXPECT_EQ(job.procs, job.id);
  }
  EXPECT_TRUE(differs);
  EXPECT_TRUE(changed);
  // cv=0: the factor is exactly exp(0) = 1.
  const Workload same = transformed("runtime_noise:cv=0");
  for (const Job& job : same.jobs) EXPECT_EQ(job.runtime, 10.0 * static_cast<double>(job.id));
  // The factor's mean is 1 and its coefficient of variation cv (no cap: 4000 jobs of 1 s
  // without estimates; the standard error of the mean is 0.3/sqrt(4000) ~ 0.005).
  Workload many;
  for (int i = 0; i < 4000; ++i) many.jobs.push_back({i, 0, 1, 0, 1});
  Rng rng(11);
  TransformContext context{64, &rng};
  apply_transform(many, "runtime_noise:cv=0.3,cap=none", context);
  double sum = 0, squares = 0;
  for (const Job& job : many.jobs) {
    sum += job.runtime;
    squares += job.runtime * job.runtime;
  }
  const double mean = sum / 4000, sd = std::sqrt(squares / 4000 - mean * mean);
  EXPECT_NEAR(mean, 1.0, 0.02);
  EXPECT_NEAR(sd / mean, 0.3, 0.02);
}
