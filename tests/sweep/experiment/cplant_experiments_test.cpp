// The Cplant studies' experiment files against Leung et al. (CLUSTER 2002): §2.3 "In this paper,
// we use ring span which we call span", and §4's Table 1 measured on the §4 test stream on the
// §4 machine (the Ross trace on §3's machine is only an extension).
#include <gtest/gtest.h>

#include <string>

#include "allocsim/alloc/curve.hpp"
#include "allocsim/metrics/span.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"

namespace allocsim::sweep {
namespace {

const std::string kExperiments = std::string(ALLOCSIM_TEST_DATA) + "/../../experiments/";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// §2.3: "In this paper, we use ring span which we call span and denote s_j for brevity."
TEST(CplantExperiments, EveryCurveAllocationMinimisesTheRingSpan) {
  for (const std::string file :
       {"cplant-contention.toml", "quick/cplant-contention.toml", "cplant-contention-ross.toml",
        "cplant-curves.toml", "quick/cplant-curves.toml"}) {
    const Expansion expansion = expand(read_experiment(kExperiments + file));
    ASSERT_FALSE(expansion.configs.empty()) << file;
    for (const ConfigEntry& entry : expansion.configs) {
      EXPECT_TRUE(contains(entry.config.alloc, "span=ring")) << file << ": " << entry.config.alloc;
      EXPECT_FALSE(contains(entry.config.alloc, "span=linear")) << file;
    }
  }
}

// §2.3's hand case on §4's 128 ranks: free ranks 0..7, 60..63 and 120..127, a job of 16. No
// interval holds it; the linear span is least from rank 0 (0..7, 60..63, 120..123: 124), the
// ring span around the wrap (120..127, 0..7: 16). The old setting (span=linear) takes the first.
TEST(CplantExperiments, RingSpanJoinsTheEndsOfTheOrder) {
  FreeIntervals free(128, false);
  free.add(0, 8);
  free.add(60, 64);
  free.add(120, 128);
  const auto linear = choose_curve_ranks(free, 16, CurveFit::best, SpanKind::linear);
  const auto ring = choose_curve_ranks(free, 16, CurveFit::best, SpanKind::ring);
  ASSERT_TRUE(linear && ring);
  EXPECT_DOUBLE_EQ(ring_span(*linear, 128), 72);  // the largest free gap is 64..119
  EXPECT_DOUBLE_EQ(linear_span(*linear), 124);
  EXPECT_DOUBLE_EQ(ring_span(*ring, 128), 16);
  EXPECT_EQ(ring->front(), 120);
}

// §4: "We have performed a limited number of experiments on a 128-processor Cplant machine
// configured as a 2D mesh. This development machine has an 8 x 8 mesh of switches with toroidal
// wraps in both dimensions. Four of the rows have four processors per switch." and "Our test job
// stream had 91 jobs of size 2, 33 jobs of size 5, 31 jobs of size 25, and 33 jobs of size 30."
TEST(CplantExperiments, Table1RunsSection4sStreamOnSection4sMachine) {
  for (const std::string file : {"cplant-contention.toml", "quick/cplant-contention.toml"}) {
    const Expansion expansion = expand(read_experiment(kExperiments + file));
    ASSERT_FALSE(expansion.configs.empty()) << file;
    for (const ConfigEntry& entry : expansion.configs) {
      const RunConfig& c = entry.config;
      EXPECT_EQ(c.machine, "torus:4x8x4:wrap=010") << file;
      EXPECT_TRUE(contains(c.trace, "stream=cplant") && contains(c.trace, "jobs=188")) << file;
      EXPECT_TRUE(contains(c.alloc, "switch=first")) << file;
      EXPECT_TRUE(contains(c.runtime_model, "flow:") && contains(c.runtime_model, "switch=first"))
          << file;
    }
  }
}

}  // namespace
}  // namespace allocsim::sweep
