#include "allocsim/workload/reader.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "allocsim/util/error.hpp"

using namespace allocsim;

namespace {
const std::string kData = ALLOCSIM_TEST_DATA;
}

TEST(SwfReader, ReadsFieldsHeaderAndDropsDirtyJobs) {
  const Workload w = read_swf(kData + "/small.swf");
  EXPECT_EQ(w.header_max_nodes, 338);  // "338 (batch partition; 512 total)"
  EXPECT_EQ(w.header_max_procs, 64);   // ";MaxProcs:64" without a space
  ASSERT_EQ(w.jobs.size(), 4u);        // job 3 (runtime -1) and job 4 (no size) dropped
  EXPECT_EQ(w.diagnostics.total("runtime < 0 (dropped)"), 1);
  EXPECT_EQ(w.diagnostics.total("processors <= 0 (dropped)"), 1);
  EXPECT_EQ(w.diagnostics.entries.at("runtime < 0 (dropped)").first_lines.at(0), 7);
  EXPECT_EQ(w.diagnostics.total("submit out of order (sorted stably)"), 1);
  // Job 2: allocated -1 -> requested 8; requested time -1 -> 2 x runtime.
  EXPECT_EQ(w.jobs[1].id, 2);
  EXPECT_EQ(w.jobs[1].procs, 8);
  EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 100);
  EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 200);
  // Sorted by submit: job 6 (submit 40) before job 5 (submit 50).
  EXPECT_EQ(w.jobs[2].id, 6);
  EXPECT_EQ(w.jobs[3].id, 5);
  EXPECT_EQ(w.jobs[3].procs, 100);
}

TEST(SwfReader, GzipGivesTheSameJobs) {
  const Workload plain = read_swf(kData + "/small.swf");
  const Workload packed = read_trace(kData + "/small-copy.swf.gz");
  ASSERT_EQ(plain.jobs.size(), packed.jobs.size());
  for (std::size_t i = 0; i < plain.jobs.size(); ++i) {
    EXPECT_EQ(plain.jobs[i].id, packed.jobs[i].id);
    EXPECT_EQ(plain.jobs[i].procs, packed.jobs[i].procs);
  }
}

TEST(SwfReader, MalformedLinesAreCountedOrStrictErrors) {
  const Workload w = read_swf(kData + "/malformed.swf");
  EXPECT_EQ(w.jobs.size(), 3u);
  const auto& entry = w.diagnostics.entries.at("malformed line (skipped)");
  EXPECT_EQ(entry.count, 2);
  EXPECT_EQ(entry.first_lines, (std::vector<std::int64_t>{4, 5}));
  ReadOptions strict;
  strict.strict = true;
  try {
    read_swf(kData + "/malformed.swf", strict);
    FAIL();
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("malformed.swf:4: expected 18 fields, found 17"), std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos);
  }
}

TEST(FourColumnReader, ReadsPlainAndGzip) {
  for (const char* name : {"/small-4col.txt", "/small-4col.txt.gz"}) {
    const Workload w = read_trace(kData + name);
    ASSERT_EQ(w.jobs.size(), 3u);
    EXPECT_EQ(w.jobs[0].id, 0);
    EXPECT_EQ(w.jobs[1].procs, 4);
    EXPECT_DOUBLE_EQ(w.jobs[0].estimate, 200);  // -1 -> 2 x runtime
    EXPECT_DOUBLE_EQ(w.jobs[1].estimate, 20);
    EXPECT_EQ(w.jobs[2].id, 2);
  }
}

TEST(TraceLookup, FindsNamesAndExplainsMisses) {
  EXPECT_EQ(resolve_trace_path("small", kData), kData + "/small.swf");
  EXPECT_EQ(resolve_trace_path("small-4col", kData), kData + "/small-4col.txt.gz");
  EXPECT_THROW(resolve_trace_path("nope", kData), InputError);
  EXPECT_THROW(read_trace(kData + "/does-not-exist.swf"), InputError);
}

// Real traces from the Parallel Workloads Archive, when $ALLOCSIM_TRACE_DIR is set.
TEST(RealTraces, NasaAndSdscCounts) {
  const char* dir = std::getenv("ALLOCSIM_TRACE_DIR");
  if (!dir) GTEST_SKIP() << "ALLOCSIM_TRACE_DIR not set: real-trace checks skipped";
  const Workload nasa = read_trace(resolve_trace_path("NASA-iPSC-1993-3.1-cln", dir));
  EXPECT_EQ(nasa.jobs.size(), 18239u);
  EXPECT_EQ(nasa.header_max_procs, 128);
  const Workload sdsc = read_trace(resolve_trace_path("SDSC-SP2-1998-4.2-cln", dir));
  EXPECT_EQ(sdsc.diagnostics.total("runtime < 0 (dropped)"), 5671);
  EXPECT_EQ(sdsc.jobs.size(), 59715u - 5671u);
  const Workload ctc = read_trace(resolve_trace_path("CTC-SP2-1996-3.1-cln", dir));
  EXPECT_EQ(ctc.header_max_nodes, 338);
  const Workload t3d = read_trace(resolve_trace_path("LLNL-T3D-1996-2.premas-4col", dir));
  EXPECT_EQ(t3d.jobs.size(), 21323u);
}
