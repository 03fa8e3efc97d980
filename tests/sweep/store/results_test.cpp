// HDF5 result files: tables round trip, result writer/reader, the store's resume after a kill,
// merge and report.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/store/merge.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/sweep/store/store.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

namespace fs = std::filesystem;

TEST(H5Table, RoundTripAllColumnTypes) {
  const TempDir temp_path("allocsim_results_test");
  const std::string path = temp_path("table.h5");
  h5::Table t({{"id", h5::ColumnType::u64},
               {"n", h5::ColumnType::i64},
               {"x", h5::ColumnType::f64},
               {"name", h5::ColumnType::text}});
  t.add_row({std::uint64_t{18446744073709551615ULL}, std::int64_t{-3}, 0.1, std::string("flat")});
  t.add_row({std::uint64_t{2}, std::int64_t{4}, std::nan(""), std::string("héllo, \"x\"")});
  {
    h5::File file(path, h5::File::Mode::create);
    file.create_table("/group/t", t.columns(), 1, true);
    file.append_table("/group/t", t);
    file.append_table("/group/t", t.select({0}));
    file.set_attr("s", std::string("text"));
    file.set_attr("d", 2.5);
    file.set_attr("i", std::int64_t{-7});
    file.set_attr("u", std::uint64_t{9});
    file.set_attr("s", std::string("replaced"));
  }
  h5::File file(path, h5::File::Mode::read);
  const h5::Table back = file.read_table("/group/t");
  ASSERT_EQ(back.rows(), 3u);
  ASSERT_EQ(back.columns().size(), 4u);
  EXPECT_EQ(back.columns()[3].name, "name");
  EXPECT_EQ(back.u64(0, 0), 18446744073709551615ULL);
  EXPECT_EQ(back.i64(0, 1), -3);
  EXPECT_EQ(back.number(0, 2), 0.1);
  EXPECT_TRUE(std::isnan(back.number(1, 2)));
  EXPECT_EQ(back.text(1, 3), "héllo, \"x\"");
  EXPECT_EQ(back.text(2, 3), "flat");
  EXPECT_EQ(std::get<std::string>(*file.attr("s")), "replaced");
  EXPECT_EQ(std::get<double>(*file.attr("d")), 2.5);
  EXPECT_EQ(std::get<std::int64_t>(*file.attr("i")), -7);
  EXPECT_EQ(std::get<std::uint64_t>(*file.attr("u")), 9u);
  EXPECT_FALSE(file.attr("missing").has_value());
  EXPECT_TRUE(file.exists("/group/t"));
  EXPECT_FALSE(file.exists("/nothing/here"));
  EXPECT_EQ(file.list("/group"), std::vector<std::string>{"t"});
}

/// A hand-made expansion of three configs (no registry needed).
Expansion three_configs() {
  Expansion x;
  x.variable_names = {"load"};
  for (int i = 0; i < 3; ++i) {
    ConfigEntry e;
    e.index = i;
    e.id = 1000 + static_cast<std::uint64_t>(i);
    e.canonical = "canonical " + std::to_string(i);
    e.config.trace = "synthetic:jobs=10";
    e.config.alloc = i == 1 ? "random" : "flat";
    e.config.transforms = {"target_load:load=0." + std::to_string(5 + i)};
    e.variables = {{"load", "0." + std::to_string(5 + i)}};
    e.label = "alloc=" + e.config.alloc + " load=0." + std::to_string(5 + i);
    x.configs.push_back(e);
  }
  x.fingerprint = 77;
  return x;
}

ConfigOutcome outcome(const ConfigEntry& e, ConfigStatus status) {
  ConfigOutcome o;
  o.config_id = e.id;
  o.index = e.index;
  o.status = status;
  o.rank = 1;
  o.wall_seconds = 0.5;
  if (status == ConfigStatus::done) {
    o.result.summary.utilization = 0.25 * static_cast<double>(e.index + 1);
    o.result.summary.makespan = 100.0 * static_cast<double>(e.index + 1);
    JobRecord r;
    r.job_id = 5;
    r.wait = 3;
    o.result.jobs = {r};
  } else {
    o.error = "simulated failure";
  }
  return o;
}

FileInfo info_for(const Expansion& x) {
  FileInfo info;
  info.experiment = "unit";
  info.seed = 3;
  info.fingerprint = x.fingerprint;
  info.total_configs = static_cast<std::int64_t>(x.configs.size());
  return info;
}

TEST(ResultWriter, WritesConfigsSummaryJobsAndReadsThemBack) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string path = temp_path("writer.h5");
  {
    ResultWriter writer(path, info_for(x), x, {2, 0, 1});
    writer.add(x.configs[2], outcome(x.configs[2], ConfigStatus::done));
    writer.add(x.configs[0], outcome(x.configs[0], ConfigStatus::failed));
    writer.add_pending(x.configs[1]);
    writer.close();
  }
  const ResultTables t = read_result_tables(path);
  EXPECT_EQ(t.info.experiment, "unit");
  EXPECT_EQ(t.info.fingerprint, 77u);
  ASSERT_EQ(t.configs.rows(), 3u);
  const int status = t.configs.find("status"), load = t.configs.find("load");
  ASSERT_GE(load, 0);
  EXPECT_EQ(t.configs.columns()[load].type, h5::ColumnType::f64);  // all values numeric
  EXPECT_EQ(t.configs.text(0, status), "done");
  EXPECT_EQ(t.configs.text(1, status), "failed");
  EXPECT_EQ(t.configs.text(2, status), "pending");
  EXPECT_DOUBLE_EQ(t.configs.number(0, load), 0.7);
  EXPECT_EQ(t.configs.text(0, t.configs.find("transforms")), "target_load:load=0.7");
  ASSERT_EQ(t.summary.rows(), 1u);
  EXPECT_EQ(t.summary.columns()[0].name, "config_id");
  EXPECT_EQ(t.summary.columns().size(), 1 + summary_columns().size());
  EXPECT_EQ(t.summary.number(0, t.summary.find("utilization")), 0.75);

  const auto outcomes = read_outcomes(path);
  ASSERT_EQ(outcomes.size(), 2u);  // pending rows are not outcomes
  EXPECT_EQ(outcomes[0].config_id, 1002u);
  EXPECT_EQ(outcomes[0].result.summary.makespan, 300);
  ASSERT_EQ(outcomes[0].result.jobs.size(), 1u);
  EXPECT_EQ(outcomes[0].result.jobs[0].wait, 3);
  EXPECT_EQ(outcomes[1].status, ConfigStatus::failed);
  EXPECT_EQ(outcomes[1].error, "simulated failure");
}

TEST(ResultStore, RefusesAnExistingFileWithoutResume) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string path = temp_path("exists.h5");
  std::ostringstream log;
  { ResultStore store(path, info_for(x), x, {0, 1, 2}, {}, log); }
  EXPECT_THROW(ResultStore(path, info_for(x), x, {0, 1, 2}, {}, log), InputError);
  StoreOptions overwrite;
  overwrite.overwrite = true;
  EXPECT_NO_THROW(ResultStore(path, info_for(x), x, {0, 1, 2}, overwrite, log));
}

TEST(ResultStore, ResumeAfterKillReplaysTheJournal) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string path = temp_path("killed.h5");
  std::ostringstream log;
  {
    // A run killed after two results: the store is never finished (the destructor of a killed
    // process does not run either, but nothing in it writes).
    ResultStore store(path, info_for(x), x, {0, 1, 2}, {}, log);
    store.record(outcome(x.configs[2], ConfigStatus::done));
    store.record(outcome(x.configs[0], ConfigStatus::failed));
  }
  ASSERT_TRUE(fs::exists(ResultStore::journal_path(path)));
  StoreOptions resume;
  resume.resume = true;
  {
    ResultStore store(path, info_for(x), x, {0, 1, 2}, resume, log);
    EXPECT_EQ(store.todo(), std::vector<std::int64_t>{1});
    EXPECT_EQ(store.finished(), 2);
    EXPECT_EQ(store.failed(), 1);
  }
  StoreOptions retry = resume;
  retry.retry_failed = true;
  {
    ResultStore store(path, info_for(x), x, {0, 1, 2}, retry, log);
    EXPECT_EQ(store.todo(), (std::vector<std::int64_t>{0, 1}));
    store.record(outcome(x.configs[0], ConfigStatus::done));
    store.record(outcome(x.configs[1], ConfigStatus::done));
    const FileInfo info = store.finish(info_for(x));
    EXPECT_EQ(info.status, "complete");
    EXPECT_EQ(info.done, 3);
  }
  EXPECT_FALSE(fs::exists(ResultStore::journal_path(path)));
  const ResultTables t = read_result_tables(path);
  ASSERT_EQ(t.configs.rows(), 3u);
  for (std::size_t r = 0; r < 3; ++r) {  // rewritten in index order, each config once
    EXPECT_EQ(t.configs.i64(r, t.configs.find("index")), static_cast<std::int64_t>(r));
    EXPECT_EQ(t.configs.text(r, t.configs.find("status")), "done");
  }
  // Resuming a complete file (no journal) reads it back and has nothing left to do.
  ResultStore again(path, info_for(x), x, {0, 1, 2}, resume, log);
  EXPECT_TRUE(again.todo().empty());
}

TEST(ResultStore, ResumeRefusesAnotherExperiment) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string path = temp_path("other.h5");
  std::ostringstream log;
  { ResultStore store(path, info_for(x), x, {0, 1, 2}, {}, log); }
  FileInfo other = info_for(x);
  other.seed = 4;
  StoreOptions resume;
  resume.resume = true;
  EXPECT_THROW(ResultStore(path, other, x, {0, 1, 2}, resume, log), InputError);
}

TEST(Merge, ShardsCombineAndOtherExperimentsAreRefused) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string a = temp_path("part1.h5"), b = temp_path("part2.h5"),
                    merged = temp_path("all.h5"), other = temp_path("other_exp.h5");
  std::ostringstream log;
  {
    ResultStore store(a, info_for(x), x, {0, 2}, {}, log);
    store.record(outcome(x.configs[0], ConfigStatus::done));
    store.record(outcome(x.configs[2], ConfigStatus::timed_out));
    store.finish(info_for(x));
  }
  {
    ResultStore store(b, info_for(x), x, {1}, {}, log);
    store.record(outcome(x.configs[1], ConfigStatus::done));
    store.finish(info_for(x));
  }
  const MergeSummary s = merge_results({b, a}, merged);
  EXPECT_EQ(s.configs, 3);
  EXPECT_EQ(s.done, 2);
  EXPECT_EQ(s.timed_out, 1);
  EXPECT_EQ(s.missing, 0);
  const ResultTables t = read_result_tables(merged);
  ASSERT_EQ(t.configs.rows(), 3u);
  EXPECT_EQ(t.configs.u64(0, 0), 1000u);
  EXPECT_EQ(t.configs.u64(1, 0), 1001u);
  EXPECT_EQ(t.summary.rows(), 2u);
  EXPECT_EQ(t.info.status, "complete");
  h5::File file(merged, h5::File::Mode::read);
  EXPECT_TRUE(file.exists("/jobs/" + id_hex(1000)));
  EXPECT_TRUE(file.exists("/jobs/" + id_hex(1001)));

  FileInfo different = info_for(x);
  different.fingerprint = 78;
  {
    ResultStore store(other, different, x, {0}, {}, log);
    store.finish(different);
  }
  try {
    merge_results({a, other}, temp_path("bad.h5"));
    FAIL() << "merge of different experiments must be refused";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("different experiments"), std::string::npos);
  }
}

TEST(Report, GroupsVaryingColumnsAndAverages) {
  const TempDir temp_path("allocsim_results_test");
  const Expansion x = three_configs();
  const std::string path = temp_path("report.h5");
  std::ostringstream log;
  {
    ResultStore store(path, info_for(x), x, {0, 1, 2}, {}, log);
    for (const auto& e : x.configs) store.record(outcome(e, ConfigStatus::done));
    store.finish(info_for(x));
  }
  const ResultTables t = read_result_tables(path);
  ReportOptions options;
  options.group_by = {"alloc"};
  options.metrics = {"utilization", "makespan"};
  const h5::Table r = report_table(t, options);
  ASSERT_EQ(r.rows(), 2u);
  EXPECT_EQ(r.text(0, 0), "flat");
  EXPECT_EQ(r.i64(0, 1), 2);              // configs
  EXPECT_DOUBLE_EQ(r.number(0, 3), 0.5);  // (0.25 + 0.75) / 2
  EXPECT_DOUBLE_EQ(r.number(1, 4), 200);  // random: makespan 200
  EXPECT_EQ(format_report(r, "csv"),
            "alloc,configs,failed,utilization,makespan\nflat,2,0,0.5,200\nrandom,1,0,0.5,200\n");
  const std::string json = format_report(r, "json");
  EXPECT_NE(json.find("{\"alloc\": \"flat\", \"configs\": 2, \"failed\": 0, \"utilization\": 0.5"),
            std::string::npos);
  // Default grouping: the descriptive columns that vary (alloc, transforms, load).
  const h5::Table d = report_table(t, {});
  EXPECT_EQ(d.columns()[0].name, "alloc");
  EXPECT_EQ(d.rows(), 3u);
  options.metrics = {"utilisation"};
  try {
    report_table(t, options);
    FAIL();
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("did you mean 'utilization'"), std::string::npos);
  }
}

}  // namespace
}  // namespace allocsim::sweep
