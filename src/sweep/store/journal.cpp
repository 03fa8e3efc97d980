// Append-only outcome journal (survive SIGKILL at any moment).
#include "allocsim/sweep/store/journal.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <set>
#include <sstream>
#include <string_view>

#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {

namespace {
constexpr char kMagic[4] = {'A', 'S', 'J', '1'};
/// Outcome frames: type 3 holds encode_outcome() bytes; type 2, written by earlier versions,
/// the Boost archive (still read).
constexpr std::uint32_t kHeaderFrame = 1, kBoostOutcomeFrame = 2, kOutcomeFrame = 3;
bool is_outcome_frame(std::uint32_t type) {
  return type == kOutcomeFrame || type == kBoostOutcomeFrame;
}
ConfigOutcome decode_frame(std::uint32_t type, const std::string& payload) {
  return type == kBoostOutcomeFrame ? decode_outcome_boost(payload) : decode_outcome(payload);
}
constexpr std::size_t kFrameHead = 4 + 4 + 8 + 8;
constexpr std::uint64_t kMaxPayload = std::uint64_t{1} << 36;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
std::uint64_t get_le(const char* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}
std::runtime_error system_error(const std::string& what) {
  return std::runtime_error(what + ": " + std::strerror(errno));
}
}  // namespace

std::string JournalHeader::encode() const {
  std::ostringstream out;
  out << "experiment=" << experiment << "\nseed=" << seed << "\nfingerprint=" << fingerprint
      << "\nshard=" << shard << "\n";
  return out.str();
}

namespace {
/// A whole decimal number of 0 to 2^64 - 1, or throws InputError naming `field`.
std::uint64_t header_number(const std::string& field, const std::string& value) {
  std::uint64_t number = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size())
    throw InputError("field '" + field + "' is '" + value.substr(0, 40) +
                     "' (expected a whole number from 0 to 18446744073709551615)");
  return number;
}
}  // namespace

JournalHeader JournalHeader::decode(const std::string& text) {
  JournalHeader h;
  std::istringstream in(text);
  std::string line;
  std::set<std::string> seen;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    const auto eq = line.find('=');
    if (eq == std::string::npos)
      throw InputError("line " + std::to_string(number) + " is '" + line.substr(0, 40) +
                       "' (expected key=value)");
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (!seen.insert(key).second)
      throw InputError("line " + std::to_string(number) + ": field '" + key + "' appears twice");
    if (key == "experiment")
      h.experiment = value;
    else if (key == "seed")
      h.seed = header_number(key, value);
    else if (key == "fingerprint")
      h.fingerprint = header_number(key, value);
    else if (key == "shard")
      h.shard = value;
    else
      throw InputError("line " + std::to_string(number) + " has the unknown field '" +
                       key.substr(0, 40) + "' (expected experiment, seed, fingerprint, shard)");
  }
  for (const char* key : {"experiment", "seed", "fingerprint", "shard"})
    if (seen.count(key) == 0) throw InputError(std::string("field '") + key + "' is missing");
  return h;
}

JournalWriter JournalWriter::create(const std::string& path, const JournalHeader& header) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw system_error("cannot create journal '" + path + "'");
  JournalWriter writer(fd, path);
  writer.queue_frame(kHeaderFrame, header.encode());
  writer.write_pending();
  return writer;
}

JournalWriter::JournalWriter(JournalWriter&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      bytes_(other.bytes_),
      queued_(std::move(other.queued_)) {
  other.fd_ = -1;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept {
  if (this != &other) {
    close();
    path_ = std::move(other.path_);
    fd_ = other.fd_;
    bytes_ = other.bytes_;
    queued_ = std::move(other.queued_);
    other.fd_ = -1;
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  close();
}

std::uint64_t JournalWriter::append(const ConfigOutcome& outcome) {
  return queue_frame(kOutcomeFrame, encode_outcome(outcome));
}

std::uint64_t JournalWriter::append_encoded(const std::string& payload, std::uint64_t checksum) {
  return queue_frame(kOutcomeFrame, payload, checksum);
}

std::uint64_t JournalWriter::queue_frame(std::uint32_t type, const std::string& payload,
                                         std::uint64_t checksum) {
  if (fd_ < 0) throw std::runtime_error("journal is closed");
  const std::uint64_t offset = bytes_;
  const std::size_t start = queued_.size();
  queued_.append(kMagic, 4);
  put_u32(queued_, type);
  put_u64(queued_, payload.size());
  put_u64(queued_, checksum != 0 ? checksum : stable_hash(payload));
  queued_ += payload;
  bytes_ += queued_.size() - start;
  return offset;
}

void JournalWriter::write_pending() {
  if (queued_.empty()) return;
  if (fd_ < 0) throw std::runtime_error("journal is closed");
  // One write() per batch: a kill leaves whole frames and at most one detectable torn tail.
  std::size_t written = 0;
  while (written < queued_.size()) {
    const ssize_t n = ::write(fd_, queued_.data() + written, queued_.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      // Whole frames only: cut off what this batch wrote (shrinking needs no space), so a
      // --resume after space is freed finds every frame written before intact.
      if (written > 0) (void)::ftruncate(fd_, static_cast<off_t>(bytes_ - queued_.size()));
      throw OutputError("cannot write the journal '" + path_ + "': " + std::strerror(error) +
                        " (errno " + std::to_string(error) + ")");
    }
    written += static_cast<std::size_t>(n);
  }
  queued_.clear();
}

namespace {
/// pread of exactly `size` bytes at `offset`; false at the end of the file.
bool read_exactly(int fd, char* data, std::size_t size, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

ConfigOutcome read_frame_at(int fd, const std::string& path, std::uint64_t offset) {
  char head[kFrameHead];
  if (!read_exactly(fd, head, kFrameHead, offset) || std::memcmp(head, kMagic, 4) != 0)
    throw InputError("journal '" + path + "' has no frame at offset " + std::to_string(offset));
  std::string payload(get_le(head + 8, 8), '\0');
  if (!read_exactly(fd, payload.data(), payload.size(), offset + kFrameHead))
    throw InputError("journal '" + path + "' is truncated at offset " + std::to_string(offset));
  return decode_frame(static_cast<std::uint32_t>(get_le(head + 4, 4)), payload);
}
}  // namespace

ConfigOutcome JournalWriter::read(std::uint64_t offset) {
  write_pending();
  return read_frame_at(fd_, "(journal being written)", offset);
}

void JournalWriter::sync() {
  if (fd_ >= 0) {
    write_pending();
    if (::fdatasync(fd_) != 0 && errno != EINVAL && errno != EROFS)
      throw OutputError("cannot sync the journal '" + path_ + "': " + std::strerror(errno));
  }
}

void JournalWriter::close() {
  if (fd_ >= 0) {
    try {
      write_pending();
    } catch (const std::exception&) {
      // closing (also from the destructor) must not throw; the frames are lost as in a kill
    }
    ::fdatasync(fd_);
    ::close(fd_);
    fd_ = -1;
  }
}

JournalReader::JournalReader(const std::string& path)
    : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw InputError("cannot read journal '" + path + "': " + std::strerror(errno));
}

JournalReader::~JournalReader() {
  if (fd_ >= 0) ::close(fd_);
}

ConfigOutcome JournalReader::read(std::uint64_t offset) const {
  return read_frame_at(fd_, path_, offset);
}

namespace {

/// A read-only memory map of a whole file (no copy, however large the journal).
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError("cannot read journal '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      size_ = static_cast<std::uint64_t>(st.st_size);
      void* map = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (map == MAP_FAILED) {
        ::close(fd);
        throw InputError("cannot map journal '" + path + "': " + std::strerror(errno));
      }
      data_ = static_cast<const char*>(map);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_ != nullptr) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  const char* data() const { return data_ != nullptr ? data_ : ""; }
  std::uint64_t size() const { return size_; }

 private:
  const char* data_ = nullptr;
  std::uint64_t size_ = 0;
};

/// How the frame at the start of `data` reads.
enum class FrameCheck { intact, torn, corrupt };

/// Checks the frame starting at data[0] (size bytes left in the file); on intact, sets its
/// type, payload and total length.
FrameCheck check_frame(const char* data, std::uint64_t size, std::uint32_t& type,
                       std::string& payload, std::uint64_t& length) {
  if (size < kFrameHead)
    return std::memcmp(data, kMagic, std::min<std::uint64_t>(size, 4)) == 0 ? FrameCheck::torn
                                                                            : FrameCheck::corrupt;
  if (std::memcmp(data, kMagic, 4) != 0) return FrameCheck::corrupt;
  type = static_cast<std::uint32_t>(get_le(data + 4, 4));
  const std::uint64_t payload_bytes = get_le(data + 8, 8), checksum = get_le(data + 16, 8);
  if (payload_bytes > kMaxPayload || (type != kHeaderFrame && !is_outcome_frame(type)))
    return FrameCheck::corrupt;
  // A frame longer than the rest of the file is the torn last write of a kill.
  if (kFrameHead + payload_bytes > size) return FrameCheck::torn;
  payload.assign(data + kFrameHead, payload_bytes);
  if (stable_hash(payload) != checksum) return FrameCheck::corrupt;
  length = kFrameHead + payload_bytes;
  return FrameCheck::intact;
}

}  // namespace

JournalContents scan_journal(const std::string& path) {
  const MappedFile data(path);
  JournalContents contents;
  contents.file_bytes = data.size();
  std::uint64_t offset = 0;
  std::string payload;
  while (offset < data.size()) {
    std::uint32_t type = 0;
    std::uint64_t length = 0;
    const FrameCheck check =
        check_frame(data.data() + offset, data.size() - offset, type, payload, length);
    if (check == FrameCheck::torn) break;
    bool accepted = false;
    const std::string record =
        "record " + std::to_string(contents.frames.size() + (contents.has_header ? 2 : 1)) +
        " (byte offset " + std::to_string(offset) + ")";
    if (check == FrameCheck::intact) {
      if (type == kHeaderFrame && offset == 0) {
        try {
          contents.header = JournalHeader::decode(payload);
        } catch (const InputError& error) {
          // Without a sound header no record can be matched to the sweep: nothing is kept.
          const std::string results = path.size() > 8 && path.ends_with(".journal")
                                          ? path.substr(0, path.size() - 8)
                                          : "the result file";
          throw InputError("journal '" + path + "' record 1 (its header, byte offset 0) has a " +
                           "valid checksum but bad contents: " + error.what() +
                           "; none of its records can be used. To recover, move it away (mv '" +
                           path + "' '" + path + ".damaged') and rerun with --resume, which " +
                           "continues from the results '" + results +
                           "' holds, or use --overwrite to start again");
        }
        contents.has_header = true;
        accepted = true;
      } else if (is_outcome_frame(type) && contents.has_header) {
        try {
          const ConfigOutcome outcome = decode_frame(type, payload);
          contents.frames.push_back({offset, outcome.config_id, outcome.index, outcome.status});
          accepted = true;
        } catch (const std::exception& error) {
          contents.damage =
              record + " has a valid checksum but bad contents (" + std::string(error.what()) + ")";
        }
      } else {
        contents.damage =
            record + (contents.has_header ? " is a second header" : " comes before any header");
      }
    } else {
      contents.damage = record + " is damaged (bad magic, type, length or checksum)";
    }
    if (!accepted) {
      contents.corrupt = true;
      break;
    }
    offset += length;
    contents.valid_bytes = offset;
  }
  // Count the intact outcome frames beyond the damage: then it was no torn last write, and
  // the user learns what was lost.
  const std::string_view all(data.data(), data.size()), magic(kMagic, 4);
  for (auto at = all.find(magic, offset + 1); at != std::string_view::npos;) {
    std::uint32_t type = 0;
    std::uint64_t length = 0;
    if (check_frame(data.data() + at, data.size() - at, type, payload, length) ==
            FrameCheck::intact &&
        is_outcome_frame(type)) {
      ++contents.frames_after_damage;
      at = all.find(magic, at + length);
    } else {
      at = all.find(magic, at + 1);
    }
  }
  if (contents.frames_after_damage > 0) {
    contents.corrupt = true;
    if (contents.damage.empty())  // it looked like a torn last record
      contents.damage =
          "record " + std::to_string(contents.frames.size() + (contents.has_header ? 2 : 1)) +
          " (byte offset " + std::to_string(offset) +
          ") is damaged (its length runs past the end of the file, yet intact records follow)";
  }
  return contents;
}

ConfigOutcome read_journal_outcome(const std::string& path, std::uint64_t offset) {
  return JournalReader(path).read(offset);
}

std::map<std::uint64_t, JournalContents::Frame> latest_frames(const JournalContents& contents) {
  std::map<std::uint64_t, JournalContents::Frame> latest;
  for (const auto& frame : contents.frames) latest[frame.config_id] = frame;
  return latest;
}

}  // namespace allocsim::sweep
