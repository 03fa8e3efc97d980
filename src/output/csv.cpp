// CSV writers for per-job records and configs.
#include "allocsim/output/csv.hpp"

#include <sstream>
#include <utility>

#include "allocsim/output/json.hpp"
#include "allocsim/sim/config_fields.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::output {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

/// True when some node of `machine` has a name other than `n<id>`.
bool names_its_nodes(const Topology* machine) {
  if (!machine || !machine->graph()) return false;
  const GraphMachine& graph = *machine->graph();
  for (NodeId node = 0; node < graph.node_count(); ++node)
    if (graph.node_name(node) != "n" + std::to_string(node)) return true;
  return false;
}

/// A name split into a prefix and its trailing digits ("tux07" -> "tux", "07"); a name ending
/// in more than 9 digits is kept whole (no number), so the numbers fit an int.
std::pair<std::string, std::string> split_number(const std::string& name) {
  std::size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9') --digits;
  if (name.size() - digits > 9) return {name, ""};
  return {name.substr(0, digits), name.substr(digits)};
}

}  // namespace

std::vector<int> parse_node_interval_set(const std::string& text) {
  std::vector<int> nodes;
  std::istringstream words(text);
  std::string word;
  while (words >> word) {
    const auto dash = word.find('-');
    try {
      std::size_t used = 0;
      const int first = std::stoi(word.substr(0, dash), &used);
      const int last = dash == std::string::npos ? first : std::stoi(word.substr(dash + 1));
      if (used != word.substr(0, dash).size() || last < first || first < 0) throw std::exception();
      for (int node = first; node <= last; ++node) nodes.push_back(node);
    } catch (const std::exception&) {
      throw InputError("node interval set '" + text +
                       "': expected ids or first-last ranges, "
                       "found '" +
                       word + "'");
    }
  }
  return nodes;
}

std::string hostlist_text(const std::vector<std::string>& names) {
  std::string out;
  std::size_t i = 0;
  while (i < names.size()) {
    const auto [prefix, number] = split_number(names[i]);
    // The names after i with the same prefix and a number of the same width.
    std::size_t end = i + 1;
    while (end < names.size()) {
      const auto [next_prefix, next_number] = split_number(names[end]);
      if (number.empty() || next_prefix != prefix || next_number.size() != number.size()) break;
      ++end;
    }
    if (!out.empty()) out += ',';
    if (end == i + 1) {
      out += names[i];
      i = end;
      continue;
    }
    out += prefix + '[';
    for (std::size_t j = i; j < end;) {  // runs of consecutive numbers as first-last
      std::size_t last = j;
      while (last + 1 < end && std::stoi(split_number(names[last + 1]).second) ==
                                   std::stoi(split_number(names[last]).second) + 1)
        ++last;
      if (j > i) out += ',';
      out += split_number(names[j]).second;
      if (last > j) out += '-' + split_number(names[last]).second;
      j = last + 1;
    }
    out += ']';
    i = end;
  }
  return out;
}

void write_jobs_csv(std::ostream& out, const std::vector<JobRecord>& jobs,
                    const Topology* machine) {
  const bool names = names_its_nodes(machine);
  out << "job_id";
  for (const auto& column : job_columns()) out << ',' << column.name;
  out << ",allocated_nodes" << (names ? ",allocated_node_names" : "") << '\n';
  std::vector<std::string> node_names;
  for (const auto& job : jobs) {
    out << job.job_id;
    for (const auto& column : job_columns()) out << ',' << json_number(job.*column.member);
    out << ',' << csv_field(job.allocated_nodes);
    if (names) {
      node_names.clear();
      for (const int node : parse_node_interval_set(job.allocated_nodes))
        node_names.push_back(machine->graph()->node_name(node));
      out << ',' << csv_field(hostlist_text(node_names));
    }
    out << '\n';
  }
}

void write_configs_csv(std::ostream& out, const std::vector<RunConfig>& configs) {
  const auto& fields = config_fields();
  for (std::size_t f = 0; f < fields.size(); ++f) out << (f ? "," : "") << fields[f].name;
  out << '\n';
  for (const auto& config : configs) {
    for (std::size_t f = 0; f < fields.size(); ++f)
      out << (f ? "," : "") << csv_field(field_text(config, fields[f]));
    out << '\n';
  }
}

}  // namespace allocsim::output
