#pragma once
// The append-only journal beside a result file (`results.h5.journal`).
// The master appends every outcome as one checksummed frame; the frames of one batch of results
// go out with a single write() (write_pending(), at every dispatch iteration) before the HDF5
// file is touched, so a SIGKILL at any moment leaves a journal whose frames up to the first
// torn or corrupt one are exactly the configs finished but those of the last iteration. `--resume`
// replays it and rebuilds the HDF5 file; a clean finish removes it.
//
// Frame: magic "ASJ1" (4 bytes), type (u32), payload length (u64), FNV-1a of payload (u64),
// payload. Type 1 = header (key=value lines), type 3 = outcome (encode_outcome()); type 2 =
// outcome as a Boost archive (journals of earlier versions, still read).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "allocsim/sweep/store/outcome.hpp"

namespace allocsim::sweep {

/// Identifies the sweep a journal or result file belongs to.
struct JournalHeader {
  std::string experiment;  ///< experiment name
  std::uint64_t seed = 0;
  std::uint64_t fingerprint = 0;
  std::string shard;  ///< "K/N" or empty

  std::string encode() const;
  /// Parses encode()'s text; throws InputError naming the line and field when a line is not
  /// key=value, a key is unknown, repeated or missing, or seed/fingerprint is no u64 number.
  static JournalHeader decode(const std::string& text);
};

/// Appends frames to a journal file (created if missing).
class JournalWriter {
 public:
  /// Creates `path` anew (truncating) with a header frame.
  static JournalWriter create(const std::string& path, const JournalHeader& header);
  JournalWriter(JournalWriter&& other) noexcept;
  JournalWriter& operator=(JournalWriter&& other) noexcept;
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  ~JournalWriter();

  /// Queues one outcome frame (written by the next write_pending()) and returns its offset
  /// (for read()).
  std::uint64_t append(const ConfigOutcome& outcome);
  /// The same with the outcome's encode_outcome() bytes (as a worker sent them) and, when not
  /// 0, their checksum stable_hash(payload) (computed by the worker).
  std::uint64_t append_encoded(const std::string& payload, std::uint64_t checksum = 0);
  /// Writes the queued frames with one write(). When the write fails (a full disk), the part
  /// of them written is cut off again, so the journal keeps whole frames only, and
  /// std::runtime_error names the file and the system error.
  void write_pending();
  std::size_t pending_bytes() const { return queued_.size(); }
  /// Reads back the outcome frame at `offset` (writes the queued frames first).
  ConfigOutcome read(std::uint64_t offset);
  /// write_pending() and fdatasync: survives power loss too (SIGKILL survival needs no sync).
  /// Throws like write_pending() when either fails.
  void sync();
  /// Writes, syncs and closes (never throws: the frames are lost as in a kill; call sync()
  /// first where a failure must be reported).
  void close();
  /// The journal's name in errors, after the file was renamed.
  void set_path(std::string path) { path_ = std::move(path); }

 private:
  JournalWriter(int fd, std::string path) : path_(std::move(path)), fd_(fd) {}
  std::uint64_t queue_frame(std::uint32_t type, const std::string& payload,
                            std::uint64_t checksum = 0);
  std::string path_;
  int fd_ = -1;
  std::uint64_t bytes_ = 0;  ///< written and queued
  std::string queued_;       ///< frames not yet written
};

/// Reads outcome frames of a journal by offset through one open file (never one open per frame).
class JournalReader {
 public:
  explicit JournalReader(const std::string& path);
  JournalReader(const JournalReader&) = delete;
  JournalReader& operator=(const JournalReader&) = delete;
  ~JournalReader();
  ConfigOutcome read(std::uint64_t offset) const;

 private:
  std::string path_;
  int fd_ = -1;
};

/// The valid prefix of a journal.
struct JournalContents {
  bool has_header = false;
  JournalHeader header;
  /// Byte offset of every outcome frame, in file order, with its id, index and status.
  struct Frame {
    std::uint64_t offset = 0;
    std::uint64_t config_id = 0;
    std::int64_t index = 0;
    ConfigStatus status = ConfigStatus::pending;
  };
  std::vector<Frame> frames;
  std::uint64_t valid_bytes = 0;  ///< end of the last complete frame
  std::uint64_t file_bytes = 0;   ///< > valid_bytes when the tail was torn or corrupt
  /// True when the bytes at valid_bytes are damaged rather than a torn last frame (a frame
  /// that would end before the end of the file, a bad magic, checksum or payload).
  bool corrupt = false;
  /// Complete, intact outcome frames found after the damage (dropped with it).
  std::int64_t frames_after_damage = 0;
  /// When corrupt: which record is damaged and how ("record 5 (byte offset 812) has a valid
  /// checksum but bad contents (...)"); records count from 1, the header being record 1.
  std::string damage;
};

/// Scans a journal (decoding every frame to check it); stops at the first torn or corrupt
/// frame, and after a corrupt one counts the intact frames that follow (resynchronizing on
/// the magic). Throws InputError when the file cannot be opened, or when its header record has a
/// valid checksum but bad contents (naming the file, the record and the field, and saying how
/// to recover).
JournalContents scan_journal(const std::string& path);
/// Reads the outcome frame at `offset` (from scan_journal); opens the file: for one frame only
/// (JournalReader for many).
ConfigOutcome read_journal_outcome(const std::string& path, std::uint64_t offset);

/// The latest frame per config id (later frames supersede earlier ones).
std::map<std::uint64_t, JournalContents::Frame> latest_frames(const JournalContents& contents);

}  // namespace allocsim::sweep
