// Reading a trace file's bytes and decoding gzip with zlib's inflate directly, so that a
// truncated or corrupted stream is an error naming the byte offset, never a partial success.
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"

namespace allocsim {

namespace {

bool has_gzip_magic(std::string_view bytes, std::size_t at) {
  return bytes.size() >= at + 2 && static_cast<unsigned char>(bytes[at]) == 0x1f &&
         static_cast<unsigned char>(bytes[at + 1]) == 0x8b;
}

/// Gzip data, or its first byte alone (a file cut after one byte).
bool looks_like_gzip(std::string_view bytes) {
  return has_gzip_magic(bytes, 0) ||
         (bytes.size() == 1 && static_cast<unsigned char>(bytes[0]) == 0x1f);
}

[[noreturn]] void decode_error(const std::string& source, const std::string& what) {
  throw InputError("cannot read '" + source + "': " + what);
}

std::string offsets(std::size_t compressed, std::size_t text) {
  return "at compressed byte " + std::to_string(compressed) + " (after " + std::to_string(text) +
         " bytes of text)";
}

/// Frees an inflate stream when it leaves scope.
struct InflateGuard {
  z_stream* stream;
  ~InflateGuard() { inflateEnd(stream); }
};

/// Decompresses every gzip member of `bytes`. Each member must end with its checksum and
/// length trailer; data after the last member must be zero padding.
std::string gunzip(std::string_view bytes, const std::string& source, const TextLimit& limit) {
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    decode_error(source, "zlib could not start inflating");
  InflateGuard guard{&stream};
  std::string text;
  std::size_t fed = 0;  // bytes of `bytes` handed to zlib so far
  char buffer[1 << 16];
  while (true) {
    if (stream.avail_in == 0 && fed < bytes.size()) {
      const std::size_t chunk = std::min<std::size_t>(bytes.size() - fed, 1u << 30);
      stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + fed));
      stream.avail_in = static_cast<uInt>(chunk);
      fed += chunk;
    }
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    const int status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t produced = sizeof buffer - stream.avail_out;
    // Binary text (a gzip-compressed /dev/zero) is refused at once, not after the size limit.
    if (const void* zero = std::memchr(buffer, 0, produced))
      decode_error(source,
                   "binary data (a NUL byte at text byte " +
                       std::to_string(text.size() + static_cast<std::size_t>(
                                                        static_cast<const char*>(zero) - buffer)) +
                       "); expected " + std::string(limit.expected));
    text.append(buffer, produced);
    const std::size_t position = fed - stream.avail_in;  // compressed bytes consumed
    if (text.size() > limit.max_bytes)
      decode_error(source, "more than " + std::to_string(limit.max_bytes) +
                               " bytes when decompressed (limit of " + std::string(limit.reader) +
                               ")");
    if (status == Z_STREAM_END) {
      if (position == bytes.size()) return text;
      if (has_gzip_magic(bytes, position)) {  // another member follows (concatenated gzip)
        inflateReset(&stream);
        continue;
      }
      const auto rest = bytes.substr(position);
      if (rest.find_first_not_of('\0') == std::string_view::npos) return text;
      decode_error(source,
                   "data after the end of the gzip stream " + offsets(position, text.size()));
    }
    if (status == Z_OK) continue;
    if (status == Z_BUF_ERROR && stream.avail_in == 0 && fed == bytes.size())
      decode_error(source, "gzip data is truncated: the stream ends unexpectedly " +
                               offsets(bytes.size(), text.size()));
    if (status == Z_MEM_ERROR) decode_error(source, "out of memory while decompressing");
    decode_error(source, "corrupt gzip data " + offsets(position, text.size()) + ": " +
                             (stream.msg ? stream.msg : "invalid stream"));
  }
}

}  // namespace

std::string read_file_bytes(const std::string& path, const TextLimit& limit) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!file) decode_error(path, std::strerror(errno));
  std::string bytes;
  char buffer[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    if (bytes.size() + got > limit.max_bytes)  // checked first: never holds more than the limit
      decode_error(path, "file larger than " + std::to_string(limit.max_bytes) +
                             " bytes (limit of " + std::string(limit.reader) + ")");
    bytes.append(buffer, got);
    // Plain text with a NUL byte is binary data: refused now, not after reading all of it.
    if (!looks_like_gzip(bytes))
      if (const void* zero = std::memchr(buffer, 0, got))
        decode_error(
            path,
            "binary data (a NUL byte at text byte " +
                std::to_string(bytes.size() - got +
                               static_cast<std::size_t>(static_cast<const char*>(zero) - buffer)) +
                "); expected " + std::string(limit.expected));
  }
  if (std::ferror(file.get())) decode_error(path, std::strerror(errno));
  return bytes;
}

namespace {
/// Returns `text` unless it holds a NUL byte (binary data, not a trace).
std::string checked_text(std::string text, const std::string& source, const TextLimit& limit) {
  const auto zero = text.find('\0');
  if (zero != std::string::npos)
    decode_error(source, "binary data (a NUL byte at text byte " + std::to_string(zero) +
                             "); expected " + std::string(limit.expected));
  return text;
}
}  // namespace

std::string decode_trace_bytes(std::string_view bytes, const std::string& source,
                               const TextLimit& limit) {
  if (looks_like_gzip(bytes)) return checked_text(gunzip(bytes, source, limit), source, limit);
  if (bytes.size() > limit.max_bytes)
    decode_error(source, "more than " + std::to_string(limit.max_bytes) + " bytes (limit of " +
                             std::string(limit.reader) + ")");
  return checked_text(std::string(bytes), source, limit);
}

std::string read_trace_text(const std::string& path, const TextLimit& limit) {
  std::string bytes = read_file_bytes(path, limit);
  if (looks_like_gzip(bytes)) return checked_text(gunzip(bytes, path, limit), path, limit);
  return checked_text(std::move(bytes), path, limit);
}

}  // namespace allocsim
