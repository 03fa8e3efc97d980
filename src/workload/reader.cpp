// SWF and 4-column trace readers. Every field is checked at the boundary: finite, integral
// where it counts processors or names a job or user, and within range; a line that breaks a
// rule is dropped and counted under "<what> <field>" (or is an error in strict mode).
#include "allocsim/workload/reader.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"

namespace allocsim {

namespace {

/// Calls f(line_number, line) for every line (1-based numbers), without copying.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t begin = 0;
  std::int64_t number = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(++number, line);
    begin = end + 1;
  }
}

/// A line split into numbers, with each number's text for messages.
struct Fields {
  std::vector<double> values;
  std::vector<std::string_view> texts;
};

/// Splits `line` into numbers; returns false on a token that is not a number. "nan", "inf"
/// and values beyond a double's range parse (as nan/inf) so the field checks can name them.
bool parse_numbers(std::string_view line, Fields& out) {
  out.values.clear();
  out.texts.clear();
  const char* p = line.data();
  const char* const end = p + line.size();
  // A hand-written scan (not find_first_of): this loop runs for every field of every line. The
  // common token is read by one from_chars call; others ('+' signs, values beyond a double's
  // range, junk) take parse_double's path.
  while (true) {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) return true;
    double value = 0;
    auto [next, error] = std::from_chars(p, end, value);
    if (error != std::errc() || (next < end && *next != ' ' && *next != '\t')) {
      next = p;
      while (next < end && *next != ' ' && *next != '\t') ++next;
      const auto parsed = parse_double(std::string_view(p, static_cast<std::size_t>(next - p)));
      if (!parsed) return false;
      value = *parsed;
    }
    out.values.push_back(value);
    out.texts.emplace_back(p, static_cast<std::size_t>(next - p));
    p = next;
  }
}

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t") == std::string_view::npos;
}

/// Leading integer of a header value such as ` 338 (batch partition; 512 total)`; 0 when it is
/// missing, negative or does not fit an int.
int header_integer(std::string_view value) {
  const auto first = value.find_first_not_of(" \t");
  if (first == std::string_view::npos) return 0;
  int parsed = 0;
  const auto [ptr, ec] = std::from_chars(value.data() + first, value.data() + value.size(), parsed);
  return ec == std::errc() && parsed > 0 ? parsed : 0;
}

[[noreturn]] void malformed(const std::string& source, std::int64_t line, const std::string& why) {
  throw InputError(source + ":" + std::to_string(line) + ": " + why);
}

/// The rule of one field: its short name (used in diagnostic reasons), where it is in the line
/// (for strict messages) and what it must be.
struct FieldRule {
  const char* name;
  const char* label;
  NumberRule rule;
};

/// Job numbers and ids must be exact in a double and fit an int64.
constexpr double kMaxId = 9007199254740992.0;  // 2^53

const NumberRule kTime = real_rule(-kMaxTime, kMaxTime);
const NumberRule kProcs = integer_rule(-kMaxProcs, kMaxProcs);
const NumberRule kAny{};

/// The 18 SWF fields (Feitelson's Standard Workload Format, version 2.2).
const std::vector<FieldRule>& swf_rules() {
  static const std::vector<FieldRule> rules{
      {"job number", "job number (SWF field 1)", integer_rule(-kMaxId, kMaxId)},
      {"submit", "submit (SWF field 2)", kTime},
      {"wait time", "wait time (SWF field 3)", kAny},
      {"runtime", "runtime (SWF field 4)", kTime},
      {"processors", "processors (SWF field 5, allocated)", kProcs},
      {"average CPU time", "average CPU time (SWF field 6)", kAny},
      {"used memory", "used memory (SWF field 7)", kAny},
      {"processors", "processors (SWF field 8, requested)", kProcs},
      {"estimate", "estimate (SWF field 9, requested time)", kTime},
      {"requested memory", "requested memory (SWF field 10)", kAny},
      {"status", "status (SWF field 11)", kAny},
      {"user id", "user id (SWF field 12)", integer_rule(-kMaxProcs, kMaxProcs)},
      {"group id", "group id (SWF field 13)", kAny},
      {"executable number", "executable number (SWF field 14)", kAny},
      {"queue number", "queue number (SWF field 15)", kAny},
      {"partition number", "partition number (SWF field 16)", kAny},
      {"preceding job number", "preceding job number (SWF field 17)", kAny},
      {"think time", "think time (SWF field 18)", kAny},
  };
  return rules;
}

/// The 4 columns `submit procs runtime estimate`.
const std::vector<FieldRule>& four_column_rules() {
  static const std::vector<FieldRule> rules{
      {"submit", "submit (column 1)", kTime},
      {"processors", "processors (column 2)", kProcs},
      {"runtime", "runtime (column 3)", kTime},
      {"estimate", "estimate (column 4)", kTime},
  };
  return rules;
}

/// Checks every field against its rule. On the first violation, counts the line under e.g.
/// "non-integral processors (dropped)" (or throws in strict mode) and returns false.
bool fields_valid(const Fields& fields, const std::vector<FieldRule>& rules, Workload& workload,
                  const std::string& source, std::int64_t line, const ReadOptions& options) {
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].rule.accepts(fields.values[i])) continue;
    const auto violation = rules[i].rule.violation(fields.values[i]);
    if (!violation) continue;
    if (options.strict)
      malformed(source, line,
                std::string(rules[i].label) + ": expected " + rules[i].rule.describe() + ", got '" +
                    std::string(fields.texts[i]) + "'");
    const std::string reason = *violation == "out of range"
                                   ? std::string(rules[i].name) + " out of range (dropped)"
                                   : *violation + " " + rules[i].name + " (dropped)";
    workload.diagnostics.count(reason, line);
    return false;
  }
  return true;
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

/// Shared rules for a parsed job whose fields passed their checks: drop SWF's "unknown"
/// runtime/processors, fill the estimate.
void accept_job(Workload& workload, Job job, std::int64_t line, const ReadOptions& options,
                std::int64_t& estimate_fallbacks) {
  job.line = line;
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
    workload.diagnostics.notes.push_back(std::to_string(fallbacks) +
                                         " jobs without a requested time: estimate = " +
                                         number_text(options.estimate_factor) + " x runtime");
}

}  // namespace

void validate_read_options(const ReadOptions& options) {
  require_number(options.estimate_factor, positive_rule(1e6), "estimate factor");
}

Workload parse_swf(std::string_view text, const std::string& source, const ReadOptions& options) {
  validate_read_options(options);
  Workload workload;
  workload.source = source;
  Fields fields;
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
      if (options.strict) malformed(source, number, "field is not a number (expected 18 numbers)");
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    if (fields.values.size() != 18) {
      if (options.strict)
        malformed(source, number,
                  "expected 18 fields, found " + std::to_string(fields.values.size()));
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    if (!fields_valid(fields, swf_rules(), workload, source, number, options)) return;
    const std::vector<double>& f = fields.values;
    Job job;
    job.id = static_cast<std::int64_t>(f[0]);
    job.submit = f[1];
    job.runtime = f[3];
    job.procs = static_cast<int>(f[4] > 0 ? f[4] : f[7]);
    job.estimate = f[8];
    job.user = static_cast<int>(f[11]);
    accept_job(workload, job, number, options, estimate_fallbacks);
  });
  note_estimates(workload, estimate_fallbacks, options);
  sort_by_submit(workload);
  return workload;
}

Workload parse_four_column(std::string_view text, const std::string& source,
                           const ReadOptions& options) {
  validate_read_options(options);
  Workload workload;
  workload.source = source;
  Fields fields;
  std::int64_t estimate_fallbacks = 0, job_line = 0;
  for_each_line(text, [&](std::int64_t number, std::string_view line) {
    if (is_blank(line) || line.front() == ';' || line.front() == '#') return;
    const std::int64_t id = job_line++;
    if (!parse_numbers(line, fields) || fields.values.size() != 4) {
      if (options.strict)
        malformed(source, number, "expected 4 numbers: submit procs runtime estimate");
      workload.diagnostics.count("malformed line (skipped)", number);
      return;
    }
    if (!fields_valid(fields, four_column_rules(), workload, source, number, options)) return;
    Job job;
    job.id = id;
    job.submit = fields.values[0];
    job.procs = static_cast<int>(fields.values[1]);
    job.runtime = fields.values[2];
    job.estimate = fields.values[3];
    accept_job(workload, job, number, options, estimate_fallbacks);
  });
  note_estimates(workload, estimate_fallbacks, options);
  sort_by_submit(workload);
  return workload;
}

Workload read_swf(const std::string& path, const ReadOptions& options) {
  validate_read_options(options);
  return parse_swf(read_trace_text(path), path, options);
}

Workload read_four_column(const std::string& path, const ReadOptions& options) {
  validate_read_options(options);
  return parse_four_column(read_trace_text(path), path, options);
}

Workload read_trace(const std::string& path, const ReadOptions& options) {
  const bool swf = path.find(".swf") != std::string::npos;
  return swf ? read_swf(path, options) : read_four_column(path, options);
}

std::string resolve_trace_path(const std::string& name_or_path, const std::string& trace_dir) {
  namespace fs = std::filesystem;
  std::error_code error;  // unreadable or overlong names are "not found", not exceptions
  if (fs::is_regular_file(name_or_path, error)) return name_or_path;
  std::vector<std::string> tried{name_or_path};
  if (!trace_dir.empty()) {
    for (const char* folder : {"", "derived/"})
      for (const char* extension : {"", ".swf", ".swf.gz", ".txt.gz", ".txt"}) {
        const std::string candidate = trace_dir + "/" + folder + name_or_path + extension;
        if (fs::is_regular_file(candidate, error)) return candidate;
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
  const std::string text = read_trace_text(path);
  std::vector<std::string> lines;
  for_each_line(text, [&](std::int64_t, std::string_view line) { lines.emplace_back(line); });
  return lines;
}

}  // namespace allocsim
