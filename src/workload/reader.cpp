// SWF and 4-column trace readers (plain or gzip via zlib, which reads both transparently).
#include "allocsim/workload/reader.hpp"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <memory>

#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

/// Whole file content, decompressed when gzip (gzread passes plain files through).
std::string read_text(const std::string& path) {
  std::unique_ptr<gzFile_s, int (*)(gzFile)> file(gzopen(path.c_str(), "rb"), gzclose);
  if (!file) throw InputError("cannot open trace '" + path + "'");
  gzbuffer(file.get(), 1 << 17);
  std::string text;
  char buffer[1 << 16];
  int got = 0;
  while ((got = gzread(file.get(), buffer, sizeof buffer)) > 0) text.append(buffer, got);
  if (got < 0) throw InputError("cannot read trace '" + path + "': corrupt gzip data");
  return text;
}

/// Calls f(line_number, line) for every line (1-based numbers), without copying.
template <class F>
void for_each_line(const std::string& text, F&& f) {
  std::size_t begin = 0;
  std::int64_t number = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(++number, line);
    begin = end + 1;
  }
}

/// Splits `line` into numbers; returns false on a token that is not a number.
bool parse_numbers(std::string_view line, std::vector<double>& out) {
  out.clear();
  const char* p = line.data();
  const char* end = p + line.size();
  while (true) {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) return true;
    double value = 0;
    auto [next, ec] = std::from_chars(p, end, value);
    if (ec != std::errc() || (next < end && *next != ' ' && *next != '\t')) return false;
    out.push_back(value);
    p = next;
  }
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

/// Leading integer of a header value such as ` 338 (batch partition; 512 total)`.
int header_integer(std::string_view value) {
  const auto first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos) return 0;
  int parsed = 0;
  std::from_chars(value.data() + first, value.data() + value.size(), parsed);
  return parsed;
}

[[noreturn]] void malformed(const std::string& path, std::int64_t line, const std::string& why) {
  throw InputError(path + ":" + std::to_string(line) + ": " + why);
}

/// Stable sort by submit time, counting out-of-order submits.
void sort_by_submit(Workload& workload) {
  std::int64_t decreases = 0;
  for (std::size_t i = 1; i < workload.jobs.size(); ++i)
    if (workload.jobs[i].submit < workload.jobs[i - 1].submit) ++decreases;
  if (decreases == 0) return;
  workload.diagnostics.count("submit out of order (sorted stably)", 0, decreases);
  std::stable_sort(workload.jobs.begin(), workload.jobs.end(),
                   [](const Job& a, const Job& b) { return a.submit < b.submit; });
}

/// Shared rules for a parsed job: drop bad runtime/processors, fill the estimate.
void accept_job(Workload& workload, Job job, std::int64_t line, const ReadOptions& options,
                std::int64_t& estimate_fallbacks) {
  if (job.runtime < 0) {
    workload.diagnostics.count("runtime < 0 (dropped)", line);
    return;
  }
  if (job.procs <= 0) {
    workload.diagnostics.count("processors <= 0 (dropped)", line);
    return;
  }
  if (job.estimate <= 0) {
    job.estimate = options.estimate_factor * job.runtime;
    ++estimate_fallbacks;
  }
  workload.jobs.push_back(job);
}

void note_estimates(Workload& workload, std::int64_t fallbacks, const ReadOptions& options) {
  if (fallbacks > 0)
    workload.diagnostics.notes.push_back(
        std::to_string(fallbacks) + " jobs without a requested time: estimate = " +
        std::to_string(options.estimate_factor).substr(0, 4) + " x runtime");
}

}  // namespace

Workload read_swf(const std::string& path, const ReadOptions& options) {
  const std::string text = read_text(path);
  Workload workload;
  workload.source = path;
  std::vector<double> fields;
  std::int64_t estimate_fallbacks = 0;
  for_each_line(text, [&](std::int64_t number, std::string_view line) {
    if (is_blank(line)) return;
    if (line.front() == ';') {
      const auto colon = line.find(':');
      if (colon == std::string_view::npos) return;
      std::string_view key = line.substr(1, colon - 1);
      key.remove_prefix(std::min(key.find_first_not_of(" \t"), key.size()));
      if (key == "MaxProcs") workload.header_max_procs = header_integer(line.substr(colon + 1));
      if (key == "MaxNodes") workload.header_max_nodes = header_integer(line.substr(colon + 1));
      return;
    }
    if (!parse_numbers(line, fields)) {
      if (options.strict) malformed(path, number, "field is not a number (expected 18 numbers)");
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    if (fields.size() != 18) {
      if (options.strict)
        malformed(path, number, "expected 18 fields, found " + std::to_string(fields.size()));
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    Job job;
    job.id = static_cast<std::int64_t>(fields[0]);
    job.submit = fields[1];
    job.runtime = fields[3];
    job.procs = static_cast<int>(fields[4] > 0 ? fields[4] : fields[7]);
    job.estimate = fields[8];
    job.user = static_cast<int>(fields[11]);
    accept_job(workload, job, number, options, estimate_fallbacks);
  });
  note_estimates(workload, estimate_fallbacks, options);
  sort_by_submit(workload);
  return workload;
}

Workload read_four_column(const std::string& path, const ReadOptions& options) {
  const std::string text = read_text(path);
  Workload workload;
  workload.source = path;
  std::vector<double> fields;
  std::int64_t estimate_fallbacks = 0, job_line = 0;
  for_each_line(text, [&](std::int64_t number, std::string_view line) {
    if (is_blank(line) || line.front() == ';' || line.front() == '#') return;
    const std::int64_t id = job_line++;
    if (!parse_numbers(line, fields) || fields.size() != 4) {
      if (options.strict)
        malformed(path, number, "expected 4 numbers: submit procs runtime estimate");
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    Job job;
    job.id = id;
    job.submit = fields[0];
    job.procs = static_cast<int>(fields[1]);
    job.runtime = fields[2];
    job.estimate = fields[3];
    accept_job(workload, job, number, options, estimate_fallbacks);
  });
  note_estimates(workload, estimate_fallbacks, options);
  sort_by_submit(workload);
  return workload;
}

Workload read_trace(const std::string& path, const ReadOptions& options) {
  const bool swf = path.find(".swf") != std::string::npos;
  return swf ? read_swf(path, options) : read_four_column(path, options);
}

std::string resolve_trace_path(const std::string& name_or_path, const std::string& trace_dir) {
  namespace fs = std::filesystem;
  if (fs::is_regular_file(name_or_path)) return name_or_path;
  std::vector<std::string> tried{name_or_path};
  if (!trace_dir.empty()) {
    for (const char* folder : {"", "derived/"})
      for (const char* extension : {"", ".swf", ".swf.gz", ".txt.gz", ".txt"}) {
        const std::string candidate = trace_dir + "/" + folder + name_or_path + extension;
        if (fs::is_regular_file(candidate)) return candidate;
        tried.push_back(candidate);
      }
  }
  std::string message = "trace '" + name_or_path + "' not found";
  if (trace_dir.empty())
    message += " (ALLOCSIM_TRACE_DIR is not set, so names cannot be looked up)";
  message += "; tried:";
  for (std::size_t i = 0; i < tried.size() && i < 6; ++i) message += " " + tried[i];
  if (tried.size() > 6) message += " ...";
  throw InputError(message);
}

std::vector<std::string> read_lines(const std::string& path) {
  const std::string text = read_text(path);
  std::vector<std::string> lines;
  for_each_line(text, [&](std::int64_t, std::string_view line) { lines.emplace_back(line); });
  return lines;
}

}  // namespace allocsim
