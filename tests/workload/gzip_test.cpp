// Truncated and corrupted gzip traces (issue 16, item 2): each is an InputError naming the file
// and the byte offset, never a partial read reported as success.
#include <gtest/gtest.h>
#include <zlib.h>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"
#include "scratch.hpp"

using namespace allocsim;

namespace {

constexpr int kJobs = 3000;
constexpr int kLinesPerBlock = 250;

/// A gzip-compressed SWF trace of kJobs lines, fully flushed every kLinesPerBlock lines; the
/// compressed offsets of those flush points are cuts that fall exactly on line boundaries.
struct GzipTrace {
  std::string bytes;
  std::vector<std::size_t> line_boundaries;
};

GzipTrace make_trace() {
  GzipTrace trace;
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<unsigned char> out(1 << 20);
  auto pump = [&](const std::string& input, int flush) {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
    stream.avail_in = static_cast<uInt>(input.size());
    do {
      stream.next_out = out.data();
      stream.avail_out = static_cast<uInt>(out.size());
      deflate(&stream, flush);
      trace.bytes.append(reinterpret_cast<char*>(out.data()), out.size() - stream.avail_out);
    } while (stream.avail_out == 0);
  };
  pump("; synthetic trace for the gzip tests\n", Z_NO_FLUSH);
  for (int block = 0; block < kJobs / kLinesPerBlock; ++block) {
    std::string lines;
    for (int i = 0; i < kLinesPerBlock; ++i) {
      const int id = block * kLinesPerBlock + i + 1;
      lines += std::to_string(id) + " " + std::to_string(id * 7) + " 0 " +
               std::to_string(100 + id % 37) + " " + std::to_string(1 + id % 16) +
               " -1 -1 -1 -1 -1 1 " + std::to_string(id % 11) + " 1 1 1 1 -1 -1\n";
    }
    pump(lines, Z_FULL_FLUSH);
    trace.line_boundaries.push_back(trace.bytes.size());
  }
  pump("", Z_FINISH);
  deflateEnd(&stream);
  trace.line_boundaries.pop_back();  // the last flush point is followed only by the trailer
  return trace;
}

std::string error_of(const std::string& path) {
  try {
    const Workload w = read_swf(path);
    return "(no error: " + std::to_string(w.jobs.size()) + " jobs)";
  } catch (const InputError& e) {
    return e.what();
  }
}

}  // namespace

TEST(Gzip, TheWholeStreamReadsEveryJob) {
  const GzipTrace trace = make_trace();
  ScratchFile file("trace.swf.gz");
  file.write(trace.bytes);
  EXPECT_EQ(read_swf(file.path()).jobs.size(), static_cast<std::size_t>(kJobs));
  // Concatenated members and zero padding after the stream are still the same trace.
  file.write(trace.bytes + trace.bytes + std::string(512, '\0'));
  EXPECT_EQ(read_swf(file.path()).jobs.size(), static_cast<std::size_t>(2 * kJobs));
}

TEST(Gzip, EveryCutIsATruncationErrorWithTheOffset) {
  const GzipTrace trace = make_trace();
  std::vector<std::size_t> cuts = trace.line_boundaries;  // on line boundaries
  const std::size_t size = trace.bytes.size();
  for (std::size_t cut : {std::size_t{2}, std::size_t{10}, std::size_t{25}, size / 3, size / 2,
                          size - 9, size - 8, size - 4, size - 1})
    cuts.push_back(cut);  // inside the header, off line boundaries, inside the trailer
  ScratchFile file("cut.swf.gz");
  for (std::size_t cut : cuts) {
    file.write(trace.bytes.substr(0, cut));
    const std::string message = error_of(file.path());
    EXPECT_NE(message.find("cannot read '" + file.path() + "': gzip data is truncated"),
              std::string::npos)
        << "cut at " << cut << ": " << message;
    EXPECT_NE(message.find("at compressed byte " + std::to_string(cut)), std::string::npos)
        << message;
  }
}

TEST(Gzip, FlippedBytesAreCorruptionErrors) {
  const GzipTrace trace = make_trace();
  const std::size_t size = trace.bytes.size();
  ScratchFile file("flipped.swf.gz");
  // In the compressed data, in the CRC-32 and in the length of the trailer.
  for (std::size_t at : {size / 2, size / 5, size - 7, size - 2}) {
    std::string bytes = trace.bytes;
    bytes[at] = static_cast<char>(bytes[at] ^ 0x10);
    file.write(bytes);
    const std::string message = error_of(file.path());
    EXPECT_NE(
        message.find("cannot read '" + file.path() + "': corrupt gzip data at compressed byte "),
        std::string::npos)
        << "flip at " << at << ": " << message;
  }
}

TEST(Gzip, DataAfterTheStreamIsAnError) {
  const GzipTrace trace = make_trace();
  ScratchFile file("trailing.swf.gz");
  file.write(trace.bytes + "1 0 0 100 4\n");
  const std::string message = error_of(file.path());
  EXPECT_NE(message.find("data after the end of the gzip stream at compressed byte " +
                         std::to_string(trace.bytes.size())),
            std::string::npos)
      << message;
}

TEST(Gzip, TruncatedShippedTraceCopyIsAnError) {
  ScratchFile file("small.swf.gz");
  std::ifstream in(std::string(ALLOCSIM_TEST_DATA) + "/small-copy.swf.gz", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 40u);
  for (std::size_t cut = 1; cut < bytes.size(); cut += 7) {
    file.write(bytes.substr(0, cut));
    EXPECT_NE(error_of(file.path()).find("cannot read"), std::string::npos) << "cut at " << cut;
  }
}
