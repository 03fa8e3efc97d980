// The outcome journal: round trip, and a kill at every byte leaves a clean prefix.
#include <gtest/gtest.h>

#include <unistd.h>
#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sweep/store/journal.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

namespace fs = std::filesystem;

ConfigOutcome sample(std::uint64_t id, ConfigStatus status, int jobs) {
  ConfigOutcome o;
  o.config_id = id;
  o.index = static_cast<std::int64_t>(id % 100);
  o.status = status;
  o.error = status == ConfigStatus::done ? "" : "boom " + std::to_string(id);
  o.wall_seconds = 0.25 * static_cast<double>(id);
  o.rank = 2;
  o.result.summary.utilization = 0.5 + 0.001 * static_cast<double>(id);
  o.result.summary.makespan = 1000.0 + static_cast<double>(id);
  for (int j = 0; j < jobs; ++j) {
    JobRecord r;
    r.job_id = j;
    r.wait = j * 1.5;
    r.avg_pairwise_hops = 2.25;
    o.result.jobs.push_back(r);
  }
  o.result.decisions.push_back({"mc1x1", 12.5, 1.25, 4, 1});
  o.result.diagnostics.count("dropped: runtime < 0", 17, 2);
  o.result.diagnostics.notes.push_back("a note");
  return o;
}

void expect_same(const ConfigOutcome& a, const ConfigOutcome& b) {
  EXPECT_EQ(a.config_id, b.config_id);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.wall_seconds, b.wall_seconds);
  EXPECT_EQ(a.rank, b.rank);
  for (const auto& c : summary_columns())
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.result.summary.*c.member),  // NaN too
              std::bit_cast<std::uint64_t>(b.result.summary.*c.member))
        << c.name;
  ASSERT_EQ(a.result.jobs.size(), b.result.jobs.size());
  for (std::size_t j = 0; j < a.result.jobs.size(); ++j) {
    EXPECT_EQ(a.result.jobs[j].job_id, b.result.jobs[j].job_id);
    for (const auto& c : job_columns())
      EXPECT_EQ(a.result.jobs[j].*c.member, b.result.jobs[j].*c.member) << c.name;
  }
  ASSERT_EQ(a.result.decisions.size(), b.result.decisions.size());
  EXPECT_EQ(a.result.decisions[0].decision, b.result.decisions[0].decision);
  EXPECT_EQ(a.result.decisions[0].mean_pairwise_sum, b.result.decisions[0].mean_pairwise_sum);
  EXPECT_EQ(a.result.diagnostics.total("dropped: runtime < 0"),
            b.result.diagnostics.total("dropped: runtime < 0"));
  EXPECT_EQ(a.result.diagnostics.notes, b.result.diagnostics.notes);
}

TEST(Outcome, EncodeDecodeRoundTrip) {
  const ConfigOutcome o = sample(42, ConfigStatus::done, 3);
  expect_same(decode_outcome(encode_outcome(o)), o);
}

TEST(Outcome, EncodingKeepsEveryBitAndRejectsDamagedBytes) {
  ConfigOutcome o = sample(43, ConfigStatus::timed_out, 2);
  o.rank = -1;
  o.index = -7;
  o.wall_seconds = -0.0;
  o.result.summary.mean_wait = std::nan("");
  o.result.jobs[1].allocated_nodes = "0-3 8";
  const std::string bytes = encode_outcome(o);
  const ConfigOutcome back = decode_outcome(bytes);
  expect_same(back, o);
  EXPECT_TRUE(std::signbit(back.wall_seconds));
  EXPECT_TRUE(std::isnan(back.result.summary.mean_wait));
  EXPECT_EQ(back.result.jobs[1].allocated_nodes, "0-3 8");
  EXPECT_EQ(back.result.diagnostics.entries.at("dropped: runtime < 0").first_lines,
            o.result.diagnostics.entries.at("dropped: runtime < 0").first_lines);
  for (std::size_t cut = 0; cut < bytes.size(); cut += 7)
    EXPECT_THROW(decode_outcome(bytes.substr(0, cut)), InputError) << cut;
  EXPECT_THROW(decode_outcome(bytes + "x"), InputError);
  // The Boost archive of journals written by earlier versions.
  expect_same(decode_outcome_boost(encode_outcome_boost(o)), o);
}

TEST(Outcome, TimelineTravelsLastAndOnlyWhenKept) {
  ConfigOutcome o = sample(44, ConfigStatus::done, 1);
  const std::string without = encode_outcome(o);
  o.result.timeline = {{0, 4, 1, 0, 2}, {1.5, 2, 0.5, 3, 1}, {17, 0, 0, 0, 0}};
  const std::string with = encode_outcome(o);
  // Outcomes without a timeline encode as before it existed (older journals still decode);
  // the rows follow: a count and 5 words per row.
  EXPECT_EQ(with.substr(0, without.size()), without);
  EXPECT_EQ(with.size(), without.size() + 8 + 3 * 40);
  const ConfigOutcome back = decode_outcome(with);
  expect_same(back, o);
  EXPECT_EQ(back.result.timeline, o.result.timeline);
  EXPECT_TRUE(decode_outcome(without).result.timeline.empty());
  // A cut inside the rows is refused (a cut right before them reads as an outcome without a
  // timeline: the journal frame's hash refuses that damage).
  for (std::size_t cut = without.size() + 1; cut < with.size(); cut += 5)
    EXPECT_THROW(decode_outcome(with.substr(0, cut)), InputError) << cut;
  expect_same(decode_outcome_boost(encode_outcome_boost(o)), o);
  EXPECT_EQ(decode_outcome_boost(encode_outcome_boost(o)).result.timeline, o.result.timeline);
}

TEST(Journal, FramesOfEarlierVersionsAreRead) {
  // Type 2 frames hold the Boost archive (journals written before type 3).
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("boost.journal");
  { JournalWriter::create(path, JournalHeader{"exp", 7, 1, ""}); }
  const std::uint64_t offset = fs::file_size(path);
  const std::string payload = encode_outcome_boost(sample(5, ConfigStatus::done, 1));
  std::string frame = "ASJ1";
  auto put = [&](std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) frame.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  };
  put(2, 4);
  put(payload.size(), 8);
  put(stable_hash(payload), 8);
  frame += payload;
  std::ofstream(path, std::ios::binary | std::ios::app) << frame;
  const JournalContents contents = scan_journal(path);
  EXPECT_FALSE(contents.corrupt);
  ASSERT_EQ(contents.frames.size(), 1u);
  EXPECT_EQ(contents.frames[0].offset, offset);
  EXPECT_EQ(contents.frames[0].config_id, 5u);
  expect_same(read_journal_outcome(path, offset), sample(5, ConfigStatus::done, 1));
}

TEST(Outcome, StatusNames) {
  EXPECT_STREQ(status_name(ConfigStatus::timed_out), "timed_out");
  EXPECT_EQ(parse_status("failed"), ConfigStatus::failed);
  EXPECT_THROW(parse_status("weird"), InputError);
}

TEST(Journal, RoundTripAndLatestFrameWins) {
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("roundtrip.journal");
  const JournalHeader header{"exp", 7, 0xabcdef, "2/3"};
  std::vector<std::uint64_t> offsets;
  {
    JournalWriter writer = JournalWriter::create(path, header);
    offsets.push_back(writer.append(sample(1, ConfigStatus::done, 2)));
    offsets.push_back(writer.append(sample(2, ConfigStatus::failed, 0)));
    offsets.push_back(writer.append(sample(2, ConfigStatus::done, 1)));  // --retry-failed rerun
  }
  const JournalContents contents = scan_journal(path);
  ASSERT_TRUE(contents.has_header);
  EXPECT_EQ(contents.header.experiment, "exp");
  EXPECT_EQ(contents.header.seed, 7u);
  EXPECT_EQ(contents.header.fingerprint, 0xabcdefu);
  EXPECT_EQ(contents.header.shard, "2/3");
  ASSERT_EQ(contents.frames.size(), 3u);
  EXPECT_EQ(contents.valid_bytes, contents.file_bytes);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(contents.frames[i].offset, offsets[i]);
  const auto latest = latest_frames(contents);
  ASSERT_EQ(latest.size(), 2u);
  EXPECT_EQ(latest.at(2).status, ConfigStatus::done);
  expect_same(read_journal_outcome(path, latest.at(2).offset), sample(2, ConfigStatus::done, 1));
}

TEST(Journal, KillAtEveryByteLeavesTheCompleteFramesOnly) {
  const TempDir temp_path("allocsim_journal_test");
  // A SIGKILL can stop the master anywhere inside a write(): every truncation of the file
  // must read back as exactly the frames that were complete.
  const std::string path = temp_path("full.journal");
  std::vector<std::uint64_t> frame_ends;
  {
    JournalWriter writer = JournalWriter::create(path, {"exp", 1, 2, ""});
    for (std::uint64_t id = 1; id <= 4; ++id) {
      writer.append(sample(id, id == 3 ? ConfigStatus::timed_out : ConfigStatus::done, 2));
    }
  }
  const auto full = scan_journal(path);
  ASSERT_EQ(full.frames.size(), 4u);
  for (std::size_t i = 1; i < full.frames.size(); ++i) frame_ends.push_back(full.frames[i].offset);
  frame_ends.push_back(full.file_bytes);
  const std::string cut = temp_path("cut.journal");
  fs::copy_file(path, cut);
  // Shrink one copy byte by byte, from the whole file down to nothing.
  for (std::uint64_t length = full.file_bytes + 1; length-- > 0;) {
    fs::resize_file(cut, length);
    const auto contents = scan_journal(cut);
    std::size_t complete = 0;
    while (complete < frame_ends.size() && frame_ends[complete] <= length) ++complete;
    ASSERT_EQ(contents.frames.size(), complete) << "length " << length;
    EXPECT_EQ(contents.has_header, length >= full.frames[0].offset) << "length " << length;
    EXPECT_EQ(contents.valid_bytes, complete == 0
                                        ? (contents.has_header ? full.frames[0].offset : 0)
                                        : frame_ends[complete - 1]);
  }
}

TEST(Journal, CorruptByteStopsTheScan) {
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("corrupt.journal");
  {
    JournalWriter writer = JournalWriter::create(path, {"exp", 1, 2, ""});
    for (std::uint64_t id = 1; id <= 3; ++id) writer.append(sample(id, ConfigStatus::done, 1));
  }
  const auto before = scan_journal(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(before.frames[1].offset + 40));
    f.put('\x7f');
  }
  const auto after = scan_journal(path);
  EXPECT_EQ(after.frames.size(), 1u);
  EXPECT_LT(after.valid_bytes, after.file_bytes);
}

}  // namespace
}  // namespace allocsim::sweep

namespace allocsim::sweep {
namespace {

TEST(Journal, DamageInsideTheFileIsCorruptionWithTheRecordsDroppedAfterIt) {
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("damaged.journal");
  {
    JournalWriter writer = JournalWriter::create(path, {"exp", 1, 2, ""});
    for (std::uint64_t id = 1; id <= 5; ++id) writer.append(sample(id, ConfigStatus::done, 1));
  }
  const auto before = scan_journal(path);
  ASSERT_EQ(before.frames.size(), 5u);
  EXPECT_FALSE(before.corrupt);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(before.frames[1].offset + 40));
    f.put('\x7f');
  }
  const auto after = scan_journal(path);
  EXPECT_TRUE(after.corrupt);
  EXPECT_EQ(after.frames.size(), 1u);
  EXPECT_EQ(after.valid_bytes, before.frames[1].offset);
  EXPECT_EQ(after.frames_after_damage, 3);
}

TEST(Journal, LengthFieldDamageBeforeIntactFramesIsCorruptionNotATornTail) {
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("long.journal");
  {
    JournalWriter writer = JournalWriter::create(path, {"exp", 1, 2, ""});
    for (std::uint64_t id = 1; id <= 4; ++id) writer.append(sample(id, ConfigStatus::done, 1));
  }
  const auto before = scan_journal(path);
  {
    // The payload length of frame 2 now claims more bytes than the file has.
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(before.frames[1].offset + 8 + 4));
    f.put('\x01');
  }
  const auto after = scan_journal(path);
  EXPECT_TRUE(after.corrupt);
  EXPECT_EQ(after.frames.size(), 1u);
  EXPECT_EQ(after.frames_after_damage, 2);
}

TEST(Journal, TornTailIsNoCorruption) {
  const TempDir temp_path("allocsim_journal_test");
  const std::string path = temp_path("torn.journal");
  {
    JournalWriter writer = JournalWriter::create(path, {"exp", 1, 2, ""});
    for (std::uint64_t id = 1; id <= 3; ++id) writer.append(sample(id, ConfigStatus::done, 1));
  }
  const auto before = scan_journal(path);
  fs::resize_file(path, before.file_bytes - 5);
  const auto after = scan_journal(path);
  EXPECT_FALSE(after.corrupt);
  EXPECT_EQ(after.frames.size(), 2u);
  EXPECT_EQ(after.frames_after_damage, 0);
}

}  // namespace
}  // namespace allocsim::sweep
