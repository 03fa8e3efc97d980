// Journal records with a valid checksum but bad contents (issue 25): the header stops --resume
// with the file, the record and the field, and how to recover; a bad outcome record ends the
// usable prefix with its record number and the field.
#include <gtest/gtest.h>

#include <fstream>

#include "allocsim/sweep/store/journal.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"
#include "sweep/temp_dir.hpp"

namespace allocsim::sweep {
namespace {

/// One frame as journal.cpp writes it, with a valid checksum around `payload`.
std::string frame(std::uint32_t type, const std::string& payload) {
  std::string out = "ASJ1";
  auto put = [&](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(type, 4);
  put(payload.size(), 8);
  put(stable_hash(payload), 8);
  return out + payload;
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string error_of(const std::string& path) {
  try {
    scan_journal(path);
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(JournalRecords, BadHeaderFieldNamesFileRecordFieldAndRecovery) {
  const TempDir temp_path("allocsim_journal_records_test");
  const std::string path = temp_path("out.h5.journal");
  write(path, frame(1, "experiment=e\nseed=12x\nfingerprint=3\nshard=\n"));
  const std::string message = error_of(path);
  EXPECT_NE(message.find("journal '" + path + "' record 1"), std::string::npos) << message;
  EXPECT_NE(message.find("field 'seed' is '12x'"), std::string::npos) << message;
  EXPECT_NE(message.find("mv '" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("--resume"), std::string::npos) << message;
  EXPECT_NE(message.find("'" + temp_path("out.h5") + "'"), std::string::npos) << message;

  for (const auto& [header, what] : std::initializer_list<std::pair<std::string, std::string>>{
           {"experiment=e\nseed=1\nfingerprint=99999999999999999999\nshard=\n", "'fingerprint'"},
           {"experiment=e\nseed=-1\nfingerprint=1\nshard=\n", "'seed' is '-1'"},
           {"experiment=e\nseed=\nfingerprint=1\nshard=\n", "'seed' is ''"},
           {"experiment=e\nfingerprint=1\nshard=\n", "field 'seed' is missing"},
           {"experiment=e\nseed=1\nseed=2\nfingerprint=1\nshard=\n", "'seed' appears twice"},
           {"experiment=e\nseed=1\nfingerprint=1\nshard=\ncolour=red\n", "unknown field 'colour'"},
           {"experiment=e\ngarbage\n", "line 2 is 'garbage' (expected key=value)"}}) {
    write(path, frame(1, header));
    const std::string m = error_of(path);
    EXPECT_NE(m.find(what), std::string::npos) << m;
    EXPECT_NE(m.find("record 1"), std::string::npos) << m;
  }
}

TEST(JournalRecords, BadOutcomeRecordEndsThePrefixWithItsNumberAndField) {
  const TempDir temp_path("allocsim_journal_records_test");
  const std::string path = temp_path("out.h5.journal");
  ConfigOutcome good;
  good.config_id = 7;
  good.status = ConfigStatus::done;
  std::string bad_status = encode_outcome(good);
  bad_status[16] = 9;  // the status field (after config_id and index)
  ConfigOutcome bad_nodes = good;
  bad_nodes.result.jobs.resize(1);
  bad_nodes.result.jobs[0].allocated_nodes = "7-3";
  const std::string header = frame(1, JournalHeader{"e", 1, 2, ""}.encode());
  for (const auto& [payload, what] : std::initializer_list<std::pair<std::string, std::string>>{
           {bad_status, "field status is 9"},
           {encode_outcome(bad_nodes), "field allocated_nodes of job 0 is '7-3'"}}) {
    write(path, header + frame(3, encode_outcome(good)) + frame(3, payload) +
                    frame(3, encode_outcome(good)));
    const JournalContents contents = scan_journal(path);
    EXPECT_TRUE(contents.corrupt);
    EXPECT_EQ(contents.frames.size(), 1u);
    EXPECT_EQ(contents.frames_after_damage, 1);
    EXPECT_NE(contents.damage.find("record 3 (byte offset "), std::string::npos) << contents.damage;
    EXPECT_NE(contents.damage.find(what), std::string::npos) << contents.damage;
  }
}

}  // namespace
}  // namespace allocsim::sweep
