// topology.conf reader (Slurm topology.conf(5)): SwitchName lines (topology/tree) or BlockName and
// BlockSizes lines (topology/block); "Parameter names are case insensitive. Any text following a
// "#" in the configuration file is treated as a comment through the end of that line."
#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "allocsim/topo/hostlist.hpp"
#include "allocsim/util/error.hpp"
#include "slurm_topology_decl.hpp"

namespace allocsim::slurm_topology_detail {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A whole non-negative number, or -1.
long long whole_number(const std::string& s) {
  if (s.empty() || s.size() > 9 ||
      !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit((unsigned char)c); }))
    return -1;
  return std::stoll(s);
}

struct Field {
  std::string key;  ///< as written
  std::string value;
};

}  // namespace

Declared read_conf(const std::string& path, const std::string& text) {
  Declared d;
  d.path = path;
  std::istringstream lines(text);
  std::string raw;
  int line = 0;
  bool saw_switch = false, saw_block = false;
  while (std::getline(lines, raw)) {
    ++line;
    raw = raw.substr(0, raw.find('#'));
    std::istringstream tokens(raw);
    std::map<std::string, Field> fields;  // lower-case key -> field
    std::string token;
    while (tokens >> token) {
      const std::size_t eq = token.find('=');
      if (eq == std::string::npos || eq == 0)
        fail(path, line,
             "'" + token + "' is not KEY=VALUE; expected e.g. SwitchName=s0 Nodes=tux[0-3]");
      Field field{token.substr(0, eq), token.substr(eq + 1)};
      if (field.value.size() >= 2 && field.value.front() == '"' && field.value.back() == '"')
        field.value = field.value.substr(1, field.value.size() - 2);
      const std::string key = lower(field.key);
      if (key != "switchname" && key != "switches" && key != "nodes" && key != "linkspeed" &&
          key != "blockname" && key != "blocksizes")
        fail(path, line,
             "unknown key '" + field.key +
                 "'; expected SwitchName, Switches, Nodes, LinkSpeed "
                 "(topology/tree) or BlockName, Nodes, BlockSizes (topology/block)");
      if (!fields.emplace(key, field).second)
        fail(path, line, "key '" + field.key + "' appears twice on the line; expected it once");
    }
    if (fields.empty()) continue;
    d.last_line = line;
    const auto value = [&](const std::string& key) -> const std::string& {
      const Field& f = fields.at(key);
      if (f.value.empty())
        fail(path, line, f.key + "= has no value; expected e.g. SwitchName=s0 Nodes=tux[0-3]");
      return f.value;
    };
    const auto names = [&](const std::string& key) {
      try {
        return expand_hostlist(value(key));
      } catch (const InputError& e) {
        fail(path, line, fields.at(key).key + "=: " + e.what());
      }
    };
    const auto refuse_others = [&](std::initializer_list<const char*> allowed,
                                   const std::string& kind) {
      for (const auto& [key, field] : fields)
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
          fail(path, line,
               "key '" + field.key + "' does not belong on a " + kind + " line; expected " +
                   (kind == "SwitchName" ? "SwitchName=NAME Switches=... or Nodes=... [LinkSpeed=N]"
                    : kind == "BlockName" ? "BlockName=NAME Nodes=..."
                                          : "BlockSizes=N,... alone"));
    };
    if (fields.count("switchname") != 0) {
      refuse_others({"switchname", "switches", "nodes", "linkspeed"}, "SwitchName");
      if (saw_block)
        fail(path, line, "SwitchName= in a file of BlockName= lines; expected one kind");
      saw_switch = true;
      SwitchDecl decl;
      decl.name = value("switchname");
      decl.line = line;
      if (decl.name.size() > 64)
        fail(path, line, "the switch name '" + decl.name + "' is longer than 64 characters");
      if (fields.count("switches") != 0)
        decl.has_switches = true, decl.switches = names("switches");
      if (fields.count("nodes") != 0) decl.has_nodes = true, decl.nodes = names("nodes");
      if (fields.count("linkspeed") != 0) {
        const long long speed = whole_number(value("linkspeed"));
        if (speed < 0)
          fail(path, line,
               "LinkSpeed=" + fields.at("linkspeed").value +
                   " is not a whole number; expected e.g. LinkSpeed=100");
        decl.link_speed = static_cast<double>(speed);
      }
      d.switches.push_back(std::move(decl));
    } else if (fields.count("blockname") != 0) {
      refuse_others({"blockname", "nodes"}, "BlockName");
      if (saw_switch)
        fail(path, line, "BlockName= in a file of SwitchName= lines; expected one kind");
      saw_block = true;
      SwitchDecl decl;
      decl.name = value("blockname");
      decl.line = line;
      if (fields.count("nodes") != 0) decl.has_nodes = true, decl.nodes = names("nodes");
      d.switches.push_back(std::move(decl));
    } else if (fields.count("blocksizes") != 0) {
      refuse_others({"blocksizes"}, "BlockSizes");
      if (saw_switch)
        fail(path, line, "BlockSizes= in a file of SwitchName= lines; expected one kind");
      if (d.block_sizes_line != 0)
        fail(path, line,
             "BlockSizes= given twice (first on line " + std::to_string(d.block_sizes_line) +
                 "); expected it once");
      saw_block = true;
      d.block_sizes_line = line;
      std::istringstream sizes(value("blocksizes"));
      std::string size;
      while (std::getline(sizes, size, ',')) {
        const long long n = whole_number(size);
        if (n <= 0)
          fail(path, line,
               "BlockSizes=" + fields.at("blocksizes").value + ": '" + size +
                   "' is not a positive whole number; expected e.g. "
                   "BlockSizes=4,16");
        d.block_sizes.push_back(static_cast<int>(n));
      }
    } else {
      fail(path, line,
           "the line has no SwitchName=; expected SwitchName=NAME first, e.g. "
           "SwitchName=s0 " +
               fields.begin()->second.key + "=...");
    }
  }
  d.last_line = std::max(d.last_line, line);
  d.form = saw_block ? SlurmTopology::Form::conf_block : SlurmTopology::Form::conf_tree;
  if (saw_block && d.switches.empty())
    fail(path, d.block_sizes_line, "BlockSizes= without BlockName= lines; expected blocks");
  return d;
}

}  // namespace allocsim::slurm_topology_detail
