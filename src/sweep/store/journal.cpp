// Append-only outcome journal (survive SIGKILL at any moment).
#include "allocsim/sweep/store/journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace allocsim::sweep {

namespace {
constexpr char kMagic[4] = {'A', 'S', 'J', '1'};
constexpr std::uint32_t kHeaderFrame = 1, kOutcomeFrame = 2;
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

JournalHeader JournalHeader::decode(const std::string& text) {
  JournalHeader h;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "experiment")
      h.experiment = value;
    else if (key == "seed")
      h.seed = std::stoull(value);
    else if (key == "fingerprint")
      h.fingerprint = std::stoull(value);
    else if (key == "shard")
      h.shard = value;
  }
  return h;
}

JournalWriter JournalWriter::create(const std::string& path, const JournalHeader& header) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw system_error("cannot create journal '" + path + "'");
  JournalWriter writer(fd);
  writer.write_frame(kHeaderFrame, header.encode());
  return writer;
}

JournalWriter::JournalWriter(JournalWriter&& other) noexcept
    : fd_(other.fd_), bytes_(other.bytes_) {
  other.fd_ = -1;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = other.fd_;
    bytes_ = other.bytes_;
    other.fd_ = -1;
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  close();
}

std::uint64_t JournalWriter::append(const ConfigOutcome& outcome) {
  return write_frame(kOutcomeFrame, encode_outcome(outcome));
}

std::uint64_t JournalWriter::write_frame(std::uint32_t type, const std::string& payload) {
  if (fd_ < 0) throw std::runtime_error("journal is closed");
  std::string frame(kMagic, 4);
  frame.reserve(kFrameHead + payload.size());
  put_u32(frame, type);
  put_u64(frame, payload.size());
  put_u64(frame, stable_hash(payload));
  frame += payload;
  // One write() per frame: a kill leaves either the whole frame or a detectable torn tail.
  std::size_t written = 0;
  while (written < frame.size()) {
    const ssize_t n = ::write(fd_, frame.data() + written, frame.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw system_error("cannot write the journal");
    written += static_cast<std::size_t>(n);
  }
  const std::uint64_t offset = bytes_;
  bytes_ += frame.size();
  return offset;
}

void JournalWriter::sync() {
  if (fd_ >= 0) ::fdatasync(fd_);
}

void JournalWriter::close() {
  if (fd_ >= 0) {
    ::fdatasync(fd_);
    ::close(fd_);
    fd_ = -1;
  }
}

JournalContents scan_journal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read journal '" + path + "'");
  JournalContents contents;
  in.seekg(0, std::ios::end);
  contents.file_bytes = static_cast<std::uint64_t>(in.tellg());
  in.seekg(0);
  std::uint64_t offset = 0;
  char head[kFrameHead];
  std::string payload;
  while (in.read(head, kFrameHead)) {
    if (std::memcmp(head, kMagic, 4) != 0) break;
    const auto type = static_cast<std::uint32_t>(get_le(head + 4, 4));
    const std::uint64_t length = get_le(head + 8, 8), checksum = get_le(head + 16, 8);
    if (length > kMaxPayload || offset + kFrameHead + length > contents.file_bytes) break;
    payload.resize(length);
    if (!in.read(payload.data(), static_cast<std::streamsize>(length))) break;
    if (stable_hash(payload) != checksum) break;
    if (type == kHeaderFrame && offset == 0) {
      contents.has_header = true;
      contents.header = JournalHeader::decode(payload);
    } else if (type == kOutcomeFrame && contents.has_header) {
      try {
        const ConfigOutcome outcome = decode_outcome(payload);
        contents.frames.push_back({offset, outcome.config_id, outcome.index, outcome.status});
      } catch (const std::exception&) {
        break;
      }
    } else {
      break;
    }
    offset += kFrameHead + length;
    contents.valid_bytes = offset;
  }
  return contents;
}

ConfigOutcome read_journal_outcome(const std::string& path, std::uint64_t offset) {
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  char head[kFrameHead];
  if (!in.read(head, kFrameHead) || std::memcmp(head, kMagic, 4) != 0)
    throw InputError("journal '" + path + "' has no frame at offset " + std::to_string(offset));
  std::string payload(get_le(head + 8, 8), '\0');
  if (!in.read(payload.data(), static_cast<std::streamsize>(payload.size())))
    throw InputError("journal '" + path + "' is truncated at offset " + std::to_string(offset));
  return decode_outcome(payload);
}

std::map<std::uint64_t, JournalContents::Frame> latest_frames(const JournalContents& contents) {
  std::map<std::uint64_t, JournalContents::Frame> latest;
  for (const auto& frame : contents.frames) latest[frame.config_id] = frame;
  return latest;
}

}  // namespace allocsim::sweep
