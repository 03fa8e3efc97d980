#include "allocsim/mapping/graph_io.hpp"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>

#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/workload/reader.hpp"

namespace allocsim::mapping {

namespace {

/// Largest task-graph file (plain, or gzip data and its text): 1 GiB holds a graph at the size
/// guards (kMaxEdges edges listed at both ends); an endless input (/dev/zero, a FIFO) stops
/// there instead of growing without bound.
constexpr std::size_t kMaxGraphFileBytes = std::size_t{1} << 30;
constexpr TextLimit kGraphText{kMaxGraphFileBytes, "the task-graph readers",
                               "a text task graph (METIS or Matrix Market), plain or "
                               "gzip-compressed"};

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& why) {
  throw InputError(path + ":" + std::to_string(line) + ": " + why);
}

/// The lines of a text one at a time, as views into it without their '\r\n' or '\n' (no list
/// of lines: a file of a billion empty lines costs nothing more than its text).
class Lines {
 public:
  explicit Lines(std::string_view text) : rest_(text) { load(); }
  bool at_end() const { return at_end_; }
  /// The current line (empty at the end).
  std::string_view line() const { return line_; }
  /// 1-based number of the current line.
  std::size_t number() const { return number_; }
  void advance() {
    ++number_;
    load();
  }
  /// Lines from the current one to the end of the text.
  std::size_t remaining() const {
    if (at_end_) return 0;
    const auto breaks = static_cast<std::size_t>(std::count(rest_.begin(), rest_.end(), '\n'));
    return 1 + breaks + (!rest_.empty() && rest_.back() != '\n' ? 1 : 0);
  }

 private:
  void load() {
    at_end_ = rest_.empty();
    if (at_end_) {
      line_ = {};
      return;
    }
    std::size_t end = rest_.find('\n');
    if (end == std::string_view::npos) end = rest_.size();
    line_ = rest_.substr(0, end);
    if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
    rest_.remove_prefix(std::min(end + 1, rest_.size()));
  }

  std::string_view rest_, line_;
  std::size_t number_ = 1;
  bool at_end_ = false;
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Whitespace-separated tokens of a line, one at a time (no copies: a long line costs nothing).
class Tokens {
 public:
  explicit Tokens(std::string_view line) : rest_(line) {}
  /// The next token, or false at the end of the line.
  bool next(std::string_view& token) {
    std::size_t at = 0;
    while (at < rest_.size() && is_space(rest_[at])) ++at;
    if (at == rest_.size()) return false;
    std::size_t end = at;
    while (end < rest_.size() && !is_space(rest_[end])) ++end;
    token = rest_.substr(at, end - at);
    rest_.remove_prefix(end);
    return true;
  }
  bool empty() const {
    for (const char c : rest_)
      if (!is_space(c)) return false;
    return true;
  }

 private:
  std::string_view rest_;
};

/// Every token of a short line (headers, banners).
std::vector<std::string_view> all_tokens(std::string_view line) {
  std::vector<std::string_view> result;
  Tokens tokens(line);
  std::string_view token;
  while (tokens.next(token) && result.size() < 16) result.push_back(token);
  return result;
}

/// A token for messages, cut to 40 characters.
std::string shown(std::string_view token) {
  return token.size() <= 40 ? std::string(token) : std::string(token.substr(0, 40)) + "...";
}

long long to_integer(std::string_view token, const std::string& path, std::size_t line,
                     const std::string& what) {
  std::string_view digits = token;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
  long long value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size())
    fail(path, line, what + " '" + shown(token) + "' is not an integer (of at most 18 digits)");
  return value;
}

double to_real(std::string_view token, const std::string& path, std::size_t line,
               const std::string& what) {
  const auto value = parse_double(token);
  if (!value || !std::isfinite(*value))
    fail(path, line, what + " '" + shown(token) + "' is not a finite number");
  return *value;
}

/// One neighbour listed on a vertex line of a METIS file.
struct Listed {
  TaskId from = 0, to = 0;
  double bytes = 0;
  std::uint32_t line = 0;
};

/// Checks METIS's rule for the edges listed on the vertex lines: each edge listed once at each
/// of its two ends, with the same weight at both (duplicates on one line are caught earlier).
/// Returns the edges, each once.
std::vector<TaskEdge> paired_edges(std::vector<Listed> listed, const std::string& path) {
  std::sort(listed.begin(), listed.end(), [](const Listed& x, const Listed& y) {
    const auto kx = std::minmax(x.from, x.to), ky = std::minmax(y.from, y.to);
    return kx != ky ? kx < ky : x.line < y.line;
  });
  std::vector<TaskEdge> edges;
  edges.reserve(listed.size() / 2);
  for (std::size_t i = 0; i < listed.size();) {
    const Listed& first = listed[i];
    const auto key = std::minmax(first.from, first.to);
    const bool paired =
        i + 1 < listed.size() && std::minmax(listed[i + 1].from, listed[i + 1].to) == key;
    if (!paired)
      fail(path, first.line,
           "edge " + std::to_string(first.from + 1) + "-" + std::to_string(first.to + 1) +
               " is listed at vertex " + std::to_string(first.from + 1) + " but not at vertex " +
               std::to_string(first.to + 1) +
               " (a METIS file lists each edge once at each of its two ends)");
    const Listed& second = listed[i + 1];
    if (first.bytes != second.bytes)
      fail(path, second.line,
           "edge " + std::to_string(second.from + 1) + "-" + std::to_string(second.to + 1) +
               " has weight " + number_text(second.bytes) + " here but weight " +
               number_text(first.bytes) + " at vertex " + std::to_string(first.from + 1) +
               " (line " + std::to_string(first.line) +
               "); both ends of an edge must list the same weight");
    edges.push_back({key.first, key.second, first.bytes});
    i += 2;
  }
  return edges;
}

}  // namespace

TaskGraph read_metis_graph(const std::string& path) {
  return parse_metis_graph(read_trace_text(path, kGraphText), path);
}

TaskGraph parse_metis_graph(std::string_view text, const std::string& path) {
  Lines lines(text);
  auto comment = [&] { return !lines.line().empty() && lines.line()[0] == '%'; };
  auto next_content = [&]() -> bool {
    while (!lines.at_end() && comment()) lines.advance();
    return !lines.at_end();
  };
  // Header (blank lines before it are skipped; afterwards a blank line is an isolated vertex).
  while (!lines.at_end() && (comment() || Tokens(lines.line()).empty())) lines.advance();
  if (lines.at_end()) throw InputError(path + ": no METIS header line 'n m [fmt [ncon]]'");
  const auto header = all_tokens(lines.line());
  const std::size_t header_line = lines.number();
  if (header.size() < 2 || header.size() > 4)
    fail(path, header_line, "expected header 'n m [fmt [ncon]]'");
  const long long n = to_integer(header[0], path, header_line, "vertex count");
  const long long m = to_integer(header[1], path, header_line, "edge count");
  if (n < 0 || m < 0) fail(path, header_line, "vertex and edge counts must be >= 0");
  // Size guards before any memory: the declared counts, then what the file can hold (a line
  // per vertex, at least two bytes per neighbour listed at both ends of every edge).
  check_task_graph_size(static_cast<double>(n), static_cast<double>(m),
                        path + ":" + std::to_string(header_line) + ": header");
  lines.advance();
  const std::size_t following = lines.remaining();
  if (static_cast<std::size_t>(n) > following)
    fail(path, header_line,
         "header declares " + std::to_string(n) + " vertices but only " +
             std::to_string(following) + " lines follow (METIS needs one line per vertex)");
  if (static_cast<std::size_t>(4 * m) > text.size())
    fail(path, header_line,
         "header declares " + std::to_string(m) + " edges but the file's " +
             std::to_string(text.size()) + " bytes cannot list each at both ends");
  std::string fmt = header.size() >= 3 ? std::string(header[2]) : "0";
  if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
    fail(path, header_line, "fmt '" + shown(fmt) + "' must be up to three 0/1 digits");
  fmt.insert(0, 3 - fmt.size(), '0');
  const bool has_sizes = fmt[0] == '1', has_vertex_weights = fmt[1] == '1',
             has_edge_weights = fmt[2] == '1';
  const long long ncon = header.size() == 4 ? to_integer(header[3], path, header_line, "ncon")
                                            : (has_vertex_weights ? 1 : 0);
  if (ncon < 0 || (ncon > 0 && !has_vertex_weights))
    fail(path, header_line, "ncon needs vertex weights in fmt");
  std::vector<double> loads(static_cast<std::size_t>(n), 1.0);
  std::vector<TaskId> listed_by(static_cast<std::size_t>(n), -1);  // last vertex listing it
  std::vector<Listed> listed;
  for (long long v = 0; v < n; ++v) {
    if (!next_content())
      throw InputError(path + ": ends after " + std::to_string(v) + " of " + std::to_string(n) +
                       " vertex lines");
    const std::size_t line = lines.number();
    Tokens values(lines.line());
    lines.advance();
    std::string_view token;
    if (has_sizes) {
      if (!values.next(token)) fail(path, line, "missing vertex size");
      if (to_integer(token, path, line, "vertex size") < 0)
        fail(path, line, "vertex size " + shown(token) + " must be >= 0");
    }
    for (long long c = 0; c < ncon; ++c) {
      if (!values.next(token)) fail(path, line, "missing vertex weight");
      const long long weight = to_integer(token, path, line, "vertex weight");
      if (weight < 0 || static_cast<double>(weight) > kMaxTaskLoad)
        fail(path, line, "vertex weight " + shown(token) + " must be in [0, 1e18]");
      if (c == 0) loads[v] = static_cast<double>(weight);
    }
    while (values.next(token)) {
      const long long u = to_integer(token, path, line, "neighbour") - 1;
      if (u < 0 || u >= n)
        fail(path, line, "neighbour " + shown(token) + " outside 1.." + std::to_string(n));
      if (u == v)
        fail(path, line,
             "self loop on vertex " + std::to_string(v + 1) + " (METIS graphs have none)");
      if (listed_by[u] == v)
        fail(path, line,
             "vertex " + std::to_string(v + 1) + " lists neighbour " + std::to_string(u + 1) +
                 " twice (a METIS file lists each edge once at each of its two ends)");
      listed_by[u] = static_cast<TaskId>(v);
      double bytes = 1;
      if (has_edge_weights) {
        if (!values.next(token)) fail(path, line, "missing weight after neighbour");
        const long long weight = to_integer(token, path, line, "edge weight");
        if (weight < 1 || static_cast<double>(weight) > kMaxEdgeBytes)
          fail(path, line,
               "edge weight " + shown(token) +
                   " must be a positive integer (METIS) of at most 1e18");
        bytes = static_cast<double>(weight);
      }
      if (static_cast<long long>(listed.size()) >= 2 * m)
        fail(path, line,
             "more neighbours than the header's " + std::to_string(m) +
                 " edges listed at both ends (" + std::to_string(2 * m) + ")");
      listed.push_back({static_cast<TaskId>(v), static_cast<TaskId>(u), bytes,
                        static_cast<std::uint32_t>(std::min<std::size_t>(line, UINT32_MAX))});
    }
  }
  if (next_content() && !Tokens(lines.line()).empty())
    fail(path, lines.number(), "more vertex lines than the header's " + std::to_string(n));
  const long long count = static_cast<long long>(listed.size());
  auto edges = paired_edges(std::move(listed), path);
  if (count != 2 * m)
    throw InputError(path + ":" + std::to_string(header_line) + ": header says " +
                     std::to_string(m) + " edges, the vertex lines hold " +
                     std::to_string(count / 2));
  return TaskGraph::from_edges(static_cast<int>(n), std::move(edges), std::move(loads));
}

TaskGraph read_matrix_market(const std::string& path) {
  return parse_matrix_market(read_trace_text(path, kGraphText), path);
}

TaskGraph parse_matrix_market(std::string_view text, const std::string& path) {
  Lines lines(text);
  if (lines.at_end()) throw InputError(path + ": empty file");
  std::vector<std::string> banner;
  for (const auto token : all_tokens(lines.line())) banner.emplace_back(token);
  for (auto& word : banner)
    for (auto& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (banner.size() != 5 || banner[0] != "%%matrixmarket" || banner[1] != "matrix" ||
      banner[2] != "coordinate")
    fail(path, 1, "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  const std::string& field = banner[3];
  const std::string& symmetry = banner[4];
  if (field != "real" && field != "integer" && field != "pattern")
    fail(path, 1, "field '" + shown(field) + "' not supported (real, integer, pattern)");
  if (symmetry != "general" && symmetry != "symmetric")
    fail(path, 1, "symmetry '" + shown(symmetry) + "' not supported (general, symmetric)");
  auto skipped = [&] { return Tokens(lines.line()).empty() || lines.line()[0] == '%'; };
  lines.advance();
  while (!lines.at_end() && skipped()) lines.advance();
  if (lines.at_end()) throw InputError(path + ": no size line 'rows cols entries'");
  const auto size = all_tokens(lines.line());
  const std::size_t size_line = lines.number();
  if (size.size() != 3) fail(path, size_line, "expected 'rows cols entries'");
  const long long rows = to_integer(size[0], path, size_line, "rows");
  const long long cols = to_integer(size[1], path, size_line, "cols");
  const long long entries = to_integer(size[2], path, size_line, "entries");
  if (rows != cols) fail(path, size_line, "matrix must be square to be a task graph");
  if (rows < 0 || entries < 0) fail(path, size_line, "sizes must be >= 0");
  // Size guards before any memory: each entry is at most one edge and needs a line.
  check_task_graph_size(static_cast<double>(rows), static_cast<double>(entries),
                        path + ":" + std::to_string(size_line) + ": size line");
  lines.advance();
  const std::size_t following = lines.remaining();
  if (static_cast<std::size_t>(entries) > following)
    fail(path, size_line,
         "size line says " + std::to_string(entries) + " entries but only " +
             std::to_string(following) + " lines follow");
  std::vector<TaskEdge> edges;
  long long read = 0;
  for (; !lines.at_end(); lines.advance()) {
    if (skipped()) continue;
    const auto values = all_tokens(lines.line());
    const std::size_t line = lines.number();
    const std::size_t expected = field == "pattern" ? 2 : 3;
    if (values.size() != expected)
      fail(path, line, "expected " + std::to_string(expected) + " values per entry");
    const long long i = to_integer(values[0], path, line, "row") - 1;
    const long long j = to_integer(values[1], path, line, "column") - 1;
    if (i < 0 || i >= rows || j < 0 || j >= rows)
      fail(path, line,
           "entry outside the " + std::to_string(rows) + "x" + std::to_string(rows) + " matrix");
    const double value =
        field == "pattern" ? 1.0 : std::fabs(to_real(values[2], path, line, "value"));
    if (value > kMaxEdgeBytes)
      fail(path, line, "value " + shown(values[2]) + " is beyond +-1e18 (bytes of one edge)");
    if (++read > entries)
      fail(path, line, "more entries than the size line's " + std::to_string(entries));
    if (i != j) edges.push_back({static_cast<TaskId>(i), static_cast<TaskId>(j), value});
  }
  if (read != entries)
    throw InputError(path + ":" + std::to_string(size_line) + ": size line says " +
                     std::to_string(entries) + " entries, file holds " + std::to_string(read));
  return TaskGraph::from_edges(static_cast<int>(rows), std::move(edges));
}

std::string decode_task_graph_bytes(std::string_view bytes, const std::string& source) {
  return decode_trace_bytes(bytes, source, kGraphText);
}

TaskGraph read_task_graph(const std::string& path) {
  const auto ends_with = [&](const std::string& suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".mtx") || ends_with(".mtx.gz")) return read_matrix_market(path);
  return read_metis_graph(path);
}

void write_metis_graph(const TaskGraph& graph, const std::string& path) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write '" + path + "'");
  auto whole = [](double x) { return std::max<long long>(1, std::llround(x)); };
  out << graph.size() << ' ' << graph.edge_count() << " 011\n";
  for (TaskId t = 0; t < graph.size(); ++t) {
    out << whole(graph.load(t));
    const auto neighbours = graph.neighbours(t);
    const auto bytes = graph.edge_bytes(t);
    for (std::size_t i = 0; i < neighbours.size(); ++i)
      out << ' ' << neighbours[i] + 1 << ' ' << whole(bytes[i]);
    out << '\n';
  }
}

}  // namespace allocsim::mapping
