// The comm_classes transform (workload/comm_classes.hpp): deterministic per seed, the
// documented class fractions, shares and patterns.
#include <gtest/gtest.h>

#include <cmath>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"

using namespace allocsim;

namespace {

/// n jobs of sizes 1..n in a scrambled order (size 7 x i mod n + 1: a permutation for n
/// prime to 7).
Workload jobs(int n) {
  Workload w;
  for (int i = 0; i < n; ++i) {
    Job job;
    job.id = i + 1;
    job.submit = i;
    job.runtime = 100;
    job.estimate = 100;
    job.procs = 7 * i % n + 1;
    w.jobs.push_back(job);
  }
  return w;
}

Workload classes(const std::string& spec, std::uint64_t seed, int n) {
  Rng rng(seed);
  TransformContext context{64, &rng};
  Workload w = jobs(n);
  apply_transform(w, spec, context);
  return w;
}

int heavy_count(const Workload& w) {
  int count = 0;
  for (const Job& job : w.jobs) count += job.comm_class == CommClass::heavy;
  return count;
}

}  // namespace

TEST(CommClasses, DrawIsDeterministicPerSeed) {
  const Workload a = classes("comm_classes", 3, 1000), b = classes("comm_classes", 3, 1000);
  const Workload c = classes("comm_classes", 4, 1000);
  int differ = 0;
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].comm_class, b.jobs[i].comm_class);
    EXPECT_EQ(a.jobs[i].comm_share, b.jobs[i].comm_share);
    differ += a.jobs[i].comm_class != c.jobs[i].comm_class;
  }
  EXPECT_GT(differ, 0);  // another seed, other classes
  EXPECT_EQ(a.transforms.back(),
            "comm_classes:by=draw,heavy=0.3,heavy_share=0.6,light_share=0.1,pattern=alltoall");
}

TEST(CommClasses, DrawGivesTheDocumentedFractionAndShares) {
  // Heavy count Binomial(10000, 0.3): mean 3000, sd sqrt(10000 x 0.3 x 0.7) = 45.8; within
  // 4 sd for every seed tried.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Workload w =
        classes("comm_classes:heavy=0.3,heavy_share=0.7,light_share=0.05", seed, 10000);
    EXPECT_NEAR(heavy_count(w), 3000, 4 * std::sqrt(10000 * 0.3 * 0.7));
    for (const Job& job : w.jobs) {
      ASSERT_NE(job.comm_class, CommClass::none);
      EXPECT_EQ(job.comm_share, job.comm_class == CommClass::heavy ? 0.7 : 0.05);
      EXPECT_EQ(job.comm_pattern, CommPattern::alltoall);
    }
  }
  // The extremes: everybody or nobody heavy.
  EXPECT_EQ(heavy_count(classes("comm_classes:heavy=1", 1, 100)), 100);
  EXPECT_EQ(heavy_count(classes("comm_classes:heavy=0", 1, 100)), 0);
}

TEST(CommClasses, BySizeMakesTheLargestJobsHeavy) {
  // 101 jobs of sizes 1..101: round(0.25 x 101) = 25 heavy, exactly those of sizes 77..101.
  const Workload w = classes("comm_classes:heavy=0.25,by=size", 1, 101);
  EXPECT_EQ(heavy_count(w), 25);
  for (const Job& job : w.jobs)
    EXPECT_EQ(job.comm_class, job.procs >= 77 ? CommClass::heavy : CommClass::light) << job.procs;
  // No draw: the same classes under any seed.
  const Workload other = classes("comm_classes:heavy=0.25,by=size", 99, 101);
  for (std::size_t i = 0; i < w.jobs.size(); ++i)
    EXPECT_EQ(w.jobs[i].comm_class, other.jobs[i].comm_class);
}

TEST(CommClasses, Patterns) {
  for (const Job& job : classes("comm_classes:pattern=stencil", 1, 50).jobs)
    EXPECT_EQ(job.comm_pattern, CommPattern::stencil);
  for (const Job& job : classes("comm_classes:pattern=by_class", 1, 50).jobs)
    EXPECT_EQ(job.comm_pattern,
              job.comm_class == CommClass::heavy ? CommPattern::alltoall : CommPattern::stencil);
  // mixed: a fair draw per job, about half each (Binomial(10000, 1/2): sd 50).
  int stencils = 0;
  for (const Job& job : classes("comm_classes:pattern=mixed", 2, 10000).jobs)
    stencils += job.comm_pattern == CommPattern::stencil;
  EXPECT_NEAR(stencils, 5000, 200);
  // Everything else of every job is kept.
  const Workload before = jobs(50), after = classes("comm_classes:pattern=mixed", 2, 50);
  for (std::size_t i = 0; i < before.jobs.size(); ++i) {
    EXPECT_EQ(before.jobs[i].id, after.jobs[i].id);
    EXPECT_EQ(before.jobs[i].submit, after.jobs[i].submit);
    EXPECT_EQ(before.jobs[i].runtime, after.jobs[i].runtime);
    EXPECT_EQ(before.jobs[i].procs, after.jobs[i].procs);
  }
}

TEST(CommClasses, BadParametersNameTheField) {
  EXPECT_THROW(classes("comm_classes:heavy=1.5", 1, 10), InputError);
  EXPECT_THROW(classes("comm_classes:pattern=ring", 1, 10), InputError);
}
