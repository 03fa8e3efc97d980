#include "allocsim/workload/transform.hpp"

#include <gtest/gtest.h>

#include "allocsim/util/error.hpp"

using namespace allocsim;

namespace {
Workload three_jobs() {
  Workload w;
  w.jobs = {{1, 0, 100, 100, 4}, {2, 10, 50, 60, 3}, {3, 20, 10, 10, 8}};
  return w;
}
}  // namespace

TEST(Transforms, ScaleRuntimeArrivalSizeRoundTruncate) {
  Rng rng(1);
  TransformContext context{16, &rng};
  Workload w = three_jobs();
  apply_transform(w, "runtime_scale:factor=2", context);
  EXPECT_DOUBLE_EQ(w.jobs[0].runtime, 200);
  EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 120);
  apply_transform(w, "arrival_scale:factor=0.5", context);
  EXPECT_DOUBLE_EQ(w.jobs[2].submit, 10);
  apply_transform(w, "size_scale:factor=1.5", context);
  EXPECT_EQ(w.jobs[1].procs, 5);  // ceil(4.5)
  apply_transform(w, "size_round:to=pow2", context);
  EXPECT_EQ(w.jobs[0].procs, 8);
  EXPECT_EQ(w.jobs[1].procs, 8);
  apply_transform(w, "truncate:max_jobs=1,skip=1", context);
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].id, 2);
  EXPECT_EQ(w.transforms.size(), 5u);
  EXPECT_EQ(w.transforms[0], "runtime_scale:factor=2");
}

TEST(Transforms, TargetLoadReachesTheLoad) {
  Rng rng(1);
  TransformContext context{16, &rng};
  Workload w = three_jobs();
  apply_transform(w, "target_load:load=0.8", context);
  EXPECT_NEAR(offered_load(w.jobs, 16), 0.8, 1e-12);
}

TEST(Transforms, ReplicateIsSeededAndKeepsOrder) {
  auto replicate = [](std::uint64_t seed) {
    Rng rng(seed);
    TransformContext context{16, &rng};
    Workload w = three_jobs();
    apply_transform(w, "replicate:copies=3,jitter=5", context);
    return w;
  };
  const Workload a = replicate(9), b = replicate(9);
  ASSERT_EQ(a.jobs.size(), 9u);
  for (std::size_t i = 0; i < a.jobs.size(); ++i) {
    EXPECT_EQ(a.jobs[i].submit, b.jobs[i].submit);
    if (i) {
      EXPECT_LE(a.jobs[i - 1].submit, a.jobs[i].submit);
    }
  }
}

TEST(Transforms, BadSpecsAreErrors) {
  Rng rng(1);
  TransformContext context{16, &rng};
  Workload w = three_jobs();
  EXPECT_THROW(apply_transform(w, "runtime_scale:factr=2", context), InputError);
  EXPECT_THROW(apply_transform(w, "runtime_scale:factor=-1", context), InputError);
  EXPECT_THROW(apply_transform(w, "rescale", context), InputError);
}

TEST(Synthetic, IsSeededAndHonoursDistributions) {
  Rng a(5), b(5);
  const Workload w1 =
      generate_synthetic("synthetic:jobs=200,arrival=exp:2,runtime=exp:1,size=sides:4", a);
  const Workload w2 =
      generate_synthetic("synthetic:jobs=200,arrival=exp:2,runtime=exp:1,size=sides:4", b);
  ASSERT_EQ(w1.jobs.size(), 200u);
  for (std::size_t i = 0; i < w1.jobs.size(); ++i) {
    EXPECT_EQ(w1.jobs[i].submit, w2.jobs[i].submit);
    EXPECT_GE(w1.jobs[i].shape_a, 1);
    EXPECT_LE(w1.jobs[i].shape_b, 4);
    EXPECT_EQ(w1.jobs[i].procs, w1.jobs[i].shape_a * w1.jobs[i].shape_b);
  }
  Rng c(5);
  const Workload pow2 = generate_synthetic("synthetic:jobs=100,size=pow2:2,32", c);
  for (const Job& job : pow2.jobs) {
    EXPECT_EQ(job.procs & (job.procs - 1), 0);
    EXPECT_GE(job.procs, 2);
    EXPECT_LE(job.procs, 32);
  }
  Rng d(5);
  EXPECT_THROW(generate_synthetic("synthetic:jobs=5,size=normal:3", d), InputError);
}

TEST(Synthetic, ParsedSpecGeneratesWhatGenerateSyntheticDoes) {
  for (const std::string spec :
       {"synthetic:jobs=40,arrival=exp:10,runtime=exp:100,size=uniform:1,64",
        "synthetic:jobs=30,size=pow2:1,64,estimate=2", "synthetic:jobs=20,size=sides:8",
        "synthetic:jobs=10,arrival=uniform:1,5,runtime=const:7,size=const:3"}) {
    const SyntheticSpec parsed(spec);
    for (std::uint64_t seed : {1u, 2u, 99u}) {
      Rng a(seed), b(seed);
      const Workload expected = generate_synthetic(spec, a), got = parsed.generate(b);
      EXPECT_EQ(got.source, expected.source);
      ASSERT_EQ(got.jobs.size(), expected.jobs.size()) << spec;
      for (std::size_t j = 0; j < got.jobs.size(); ++j) {
        EXPECT_EQ(got.jobs[j].submit, expected.jobs[j].submit) << spec;
        EXPECT_EQ(got.jobs[j].runtime, expected.jobs[j].runtime) << spec;
        EXPECT_EQ(got.jobs[j].estimate, expected.jobs[j].estimate) << spec;
        EXPECT_EQ(got.jobs[j].procs, expected.jobs[j].procs) << spec;
        EXPECT_EQ(got.jobs[j].shape_a, expected.jobs[j].shape_a) << spec;
      }
      EXPECT_EQ(a.next(), b.next()) << "same draws";
    }
  }
  EXPECT_THROW(SyntheticSpec("synthetic:jobs=-1"), InputError);
}

TEST(SyntheticSpec, SyntheticTraceNamesAreToldFromFileNames) {
  EXPECT_TRUE(is_synthetic_trace("synthetic"));
  EXPECT_TRUE(is_synthetic_trace("synthetic:jobs=20"));
  EXPECT_FALSE(is_synthetic_trace("synthetic-jobs.swf"));
  EXPECT_FALSE(is_synthetic_trace("NASA-iPSC-1993-3.1-cln"));
  EXPECT_FALSE(is_synthetic_trace(""));
}
