#include "allocsim/mapping/graph_io.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/reader.hpp"

namespace allocsim::mapping {

namespace {

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& why) {
  throw InputError(path + ":" + std::to_string(line) + ": " + why);
}

/// Whitespace-separated tokens of a line.
std::vector<std::string> tokens(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> result;
  std::string token;
  while (in >> token) result.push_back(token);
  return result;
}

long long to_integer(const std::string& token, const std::string& path, std::size_t line,
                     const std::string& what) {
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != token.size()) fail(path, line, what + " '" + token + "' is not an integer");
  return value;
}

double to_real(const std::string& token, const std::string& path, std::size_t line,
               const std::string& what) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(token, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != token.size() || !std::isfinite(value))
    fail(path, line, what + " '" + token + "' is not a number");
  return value;
}

}  // namespace

TaskGraph read_metis_graph(const std::string& path) {
  const auto lines = read_lines(path);
  std::size_t index = 0;
  auto next_content = [&]() -> bool {
    while (index < lines.size() && (!lines[index].empty() && lines[index][0] == '%')) ++index;
    return index < lines.size();
  };
  // Header (blank lines before it are skipped; afterwards a blank line is an isolated vertex).
  while (index < lines.size() &&
         (lines[index].empty() || lines[index][0] == '%' || tokens(lines[index]).empty()))
    ++index;
  if (index >= lines.size()) throw InputError(path + ": no METIS header line 'n m [fmt [ncon]]'");
  const auto header = tokens(lines[index]);
  const std::size_t header_line = index + 1;
  if (header.size() < 2 || header.size() > 4)
    fail(path, header_line, "expected header 'n m [fmt [ncon]]'");
  const long long n = to_integer(header[0], path, header_line, "vertex count");
  const long long m = to_integer(header[1], path, header_line, "edge count");
  if (n < 0 || n > 100000000 || m < 0) fail(path, header_line, "bad vertex or edge count");
  std::string fmt = header.size() >= 3 ? header[2] : "0";
  if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string::npos)
    fail(path, header_line, "fmt '" + fmt + "' must be up to three 0/1 digits");
  fmt.insert(0, 3 - fmt.size(), '0');
  const bool has_sizes = fmt[0] == '1', has_vertex_weights = fmt[1] == '1',
             has_edge_weights = fmt[2] == '1';
  const long long ncon = header.size() == 4 ? to_integer(header[3], path, header_line, "ncon")
                                            : (has_vertex_weights ? 1 : 0);
  if (ncon < 0 || (ncon > 0 && !has_vertex_weights))
    fail(path, header_line, "ncon needs vertex weights in fmt");
  ++index;
  std::vector<double> loads(n, 1.0);
  std::map<std::pair<long long, long long>, double> seen;  // (a, b) -> bytes, a < b
  std::vector<TaskEdge> edges;
  long long listed = 0;
  for (long long v = 0; v < n; ++v) {
    if (!next_content())
      throw InputError(path + ": ends after " + std::to_string(v) + " of " + std::to_string(n) +
                       " vertex lines");
    const std::size_t line = index + 1;
    const auto values = tokens(lines[index++]);
    std::size_t at = 0;
    if (has_sizes) {
      if (at >= values.size()) fail(path, line, "missing vertex size");
      to_integer(values[at++], path, line, "vertex size");
    }
    for (long long c = 0; c < ncon; ++c) {
      if (at >= values.size()) fail(path, line, "missing vertex weight");
      const long long weight = to_integer(values[at++], path, line, "vertex weight");
      if (weight < 0) fail(path, line, "negative vertex weight");
      if (c == 0) loads[v] = static_cast<double>(weight);
    }
    while (at < values.size()) {
      const long long u = to_integer(values[at++], path, line, "neighbour") - 1;
      if (u < 0 || u >= n)
        fail(path, line, "neighbour " + std::to_string(u + 1) + " outside 1.." + std::to_string(n));
      if (u == v) fail(path, line, "self loop on vertex " + std::to_string(v + 1));
      double bytes = 1;
      if (has_edge_weights) {
        if (at >= values.size()) fail(path, line, "missing weight after neighbour");
        bytes = static_cast<double>(to_integer(values[at++], path, line, "edge weight"));
        if (bytes < 0) fail(path, line, "negative edge weight");
      }
      ++listed;
      const auto key = std::make_pair(std::min(u, v), std::max(u, v));
      const auto found = seen.find(key);
      if (found == seen.end()) {
        seen.emplace(key, bytes);
        continue;
      }
      if (found->second != bytes)
        fail(path, line,
             "edge " + std::to_string(v + 1) + "-" + std::to_string(u + 1) + " has weight " +
                 std::to_string(static_cast<long long>(bytes)) +
                 " here but a different weight at vertex " + std::to_string(u + 1));
      edges.push_back({static_cast<TaskId>(key.first), static_cast<TaskId>(key.second), bytes});
      found->second = -1;  // both ends seen
    }
  }
  for (const auto& [key, bytes] : seen)
    if (bytes >= 0)
      throw InputError(path + ": edge " + std::to_string(key.first + 1) + "-" +
                       std::to_string(key.second + 1) + " is listed only at one end");
  if (listed != 2 * m)
    throw InputError(path + ":" + std::to_string(header_line) + ": header says " +
                     std::to_string(m) + " edges, the vertex lines hold " +
                     std::to_string(listed / 2));
  if (next_content() && !tokens(lines[index]).empty())
    fail(path, index + 1, "more vertex lines than the header's " + std::to_string(n));
  return TaskGraph::from_edges(static_cast<int>(n), std::move(edges), std::move(loads));
}

TaskGraph read_matrix_market(const std::string& path) {
  const auto lines = read_lines(path);
  if (lines.empty()) throw InputError(path + ": empty file");
  auto banner = tokens(lines[0]);
  for (auto& word : banner)
    for (auto& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (banner.size() != 5 || banner[0] != "%%matrixmarket" || banner[1] != "matrix" ||
      banner[2] != "coordinate")
    fail(path, 1, "expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  const std::string& field = banner[3];
  const std::string& symmetry = banner[4];
  if (field != "real" && field != "integer" && field != "pattern")
    fail(path, 1, "field '" + field + "' not supported (real, integer, pattern)");
  if (symmetry != "general" && symmetry != "symmetric")
    fail(path, 1, "symmetry '" + symmetry + "' not supported (general, symmetric)");
  std::size_t index = 1;
  while (index < lines.size() && (tokens(lines[index]).empty() || lines[index][0] == '%')) ++index;
  if (index >= lines.size()) throw InputError(path + ": no size line 'rows cols entries'");
  const auto size = tokens(lines[index]);
  const std::size_t size_line = index + 1;
  if (size.size() != 3) fail(path, size_line, "expected 'rows cols entries'");
  const long long rows = to_integer(size[0], path, size_line, "rows");
  const long long cols = to_integer(size[1], path, size_line, "cols");
  const long long entries = to_integer(size[2], path, size_line, "entries");
  if (rows != cols) fail(path, size_line, "matrix must be square to be a task graph");
  if (rows < 0 || rows > 100000000 || entries < 0) fail(path, size_line, "bad sizes");
  std::vector<TaskEdge> edges;
  long long read = 0;
  for (++index; index < lines.size(); ++index) {
    const auto values = tokens(lines[index]);
    if (values.empty() || lines[index][0] == '%') continue;
    const std::size_t line = index + 1;
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
    if (++read > entries)
      fail(path, line, "more entries than the size line's " + std::to_string(entries));
    if (i != j) edges.push_back({static_cast<TaskId>(i), static_cast<TaskId>(j), value});
  }
  if (read != entries)
    throw InputError(path + ":" + std::to_string(size_line) + ": size line says " +
                     std::to_string(entries) + " entries, file holds " + std::to_string(read));
  return TaskGraph::from_edges(static_cast<int>(rows), std::move(edges));
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
