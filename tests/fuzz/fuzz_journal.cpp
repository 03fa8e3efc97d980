// Fuzz target: the outcome journal reader (issue 25). The first byte picks how the rest becomes
// a journal file: even, the bytes are the file as they are; odd, they are records split at each
// "\n--\n", every record framed with a valid checksum (so the fuzzer gets past it), the first
// as the header, the others as outcome frames (encode_outcome bytes). scan_journal must return
// a consistent prefix or raise InputError, and every outcome frame it lists must read back.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "allocsim/sweep/store/journal.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/rng.hpp"

namespace {

std::string framed(std::uint32_t type, std::string_view payload) {
  std::string out = "ASJ1";
  auto put = [&](std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  put(type, 4);
  put(payload.size(), 8);
  put(allocsim::stable_hash(payload), 8);
  out += payload;
  return out;
}

/// The journal file's bytes from the fuzzer's input (see the header comment).
std::string journal_bytes(const std::uint8_t* data, std::size_t size) {
  const std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if ((data[0] & 1) == 0) return std::string(rest);
  std::string out;
  std::size_t at = 0;
  for (std::uint32_t record = 0;; ++record) {
    const auto end = rest.find("\n--\n", at);
    out += framed(record == 0 ? 1 : 3, rest.substr(at, end - at));
    if (end == std::string_view::npos) break;
    at = end + 4;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::string path = "/tmp/allocsim_fuzz_journal_" + std::to_string(::getpid());
  const std::string bytes = journal_bytes(data, size);
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), file);
    std::fclose(file);
  } else {
    std::abort();
  }
  try {
    const allocsim::sweep::JournalContents contents = allocsim::sweep::scan_journal(path);
    if (contents.valid_bytes > contents.file_bytes || contents.file_bytes != bytes.size() ||
        (!contents.has_header && !contents.frames.empty()) ||
        (contents.corrupt && contents.damage.empty()))
      std::abort();
    const allocsim::sweep::JournalReader reader(path);
    for (const auto& frame : contents.frames) {
      if (frame.offset >= contents.valid_bytes) std::abort();
      const allocsim::sweep::ConfigOutcome outcome = reader.read(frame.offset);
      if (outcome.config_id != frame.config_id || outcome.status != frame.status) std::abort();
    }
  } catch (const allocsim::InputError&) {
  }
  return 0;
}
