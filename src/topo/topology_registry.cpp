// The topology table and machine specs: `KIND:WxH[x...][:key=value,...]` read by
// Topology::parse and written by Topology::spec, so that parse(t.spec()) == t for every form.
#include "allocsim/topo/topology_registry.hpp"

#include <charconv>
#include <cstdio>
#include <limits>

#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

const char* const kAcceptedForms =
    "accepted forms: mesh:WxH[xD...] (e.g. mesh:16x16, mesh:8x8x5), torus:WxH[x...][:wrap=FLAGS] "
    "(e.g. torus:4x4x4, torus:2x2x2x6x8, torus:4x4:wrap=10), semitorus:WxH[x...]:wrap=FLAGS "
    "(e.g. semitorus:8x8x4:wrap=110), flat:N (e.g. flat:256); every side a positive integer, "
    "FLAGS one 0/1 per dimension";

/// Side lengths `WxHx...`; rejects non-numbers, non-positive sides and node counts beyond int.
std::vector<int> parse_sides(std::string_view spec, std::string_view text) {
  std::vector<int> sides;
  long long volume = 1;
  while (true) {
    const auto x = text.find('x');
    const std::string_view part = text.substr(0, x);
    int side = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), side);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size())
      throw_bad_machine(spec, std::string(1, '\'').append(part).append("' is not a side length"));
    if (side <= 0) throw_bad_machine(spec, "side " + std::string(part) + " must be positive");
    volume *= side;
    if (volume > std::numeric_limits<int>::max()) throw_bad_machine(spec, "too many nodes");
    sides.push_back(side);
    if (x == std::string_view::npos) break;
    text = text.substr(x + 1);
  }
  // Link ids (node * 2·dims + slot) must fit an int too (Topology::finish checks the same).
  if (volume * 2 * static_cast<long long>(sides.size()) > std::numeric_limits<int>::max())
    throw_bad_machine(spec, "too many nodes (node count x 2 x dimensions must fit an int)");
  return sides;
}

/// Per-dimension wrap flags, e.g. "110"; empty text means `fallback` in every dimension.
std::vector<bool> parse_wrap(const std::string& flags, std::size_t dims, bool fallback) {
  if (flags.empty()) return std::vector<bool>(dims, fallback);
  if (flags.size() != dims || flags.find_first_not_of("01") != std::string::npos)
    throw InputError("wrap=" + flags + " needs one 0/1 flag per dimension (" +
                     std::to_string(dims) + ")");
  std::vector<bool> wrap(dims);
  for (std::size_t axis = 0; axis < dims; ++axis) wrap[axis] = flags[axis] == '1';
  return wrap;
}

/// Removes `allow_large=...` from the parameters; true when it was given as 1/true/yes.
bool take_allow_large(std::vector<std::pair<std::string, std::string>>& given) {
  bool allowed = false;
  for (auto it = given.begin(); it != given.end();) {
    if (it->first != "allow_large") {
      ++it;
      continue;
    }
    if (it->second != "0" && it->second != "1" && it->second != "true" && it->second != "false")
      throw InputError("allow_large=" + it->second + " must be 1 or 0");
    allowed = it->second == "1" || it->second == "true";
    it = given.erase(it);
  }
  return allowed;
}

/// Refuses machines beyond kMaxNodesWithoutOverride nodes unless allowed, with the memory
/// they would take.
void check_machine_size(const std::vector<int>& sides, bool allowed) {
  long long nodes = 1;
  for (int side : sides) nodes *= side;
  if (allowed || nodes <= kMaxNodesWithoutOverride) return;
  const double gigabytes = static_cast<double>(nodes) * kBytesPerNode / 1e9;
  char estimate[64];
  std::snprintf(estimate, sizeof estimate, "%.1f", gigabytes);
  throw InputError(std::to_string(nodes) + " nodes would take about " + estimate +
                   " GB of memory before any job runs; machines of more than " +
                   std::to_string(kMaxNodesWithoutOverride) +
                   " nodes need the parameter allow_large=1 (e.g. mesh:4000x4000:allow_large=1)");
}

const ParamSpec kWrapParam{"wrap",
                           ParamKind::text,
                           "",
                           "one 0/1 flag per dimension, 1 = the dimension wraps around (required)",
                           {}};

std::vector<RegistryEntry<TopologyFactory>> topology_entries() {
  return {
      {"mesh",
       "WxH[xD...]: grid of any dimension, L1 hop distance (mesh:16x16, mesh:8x8x5)",
       {},
       [](const std::vector<int>& sides, const Params&) {
         return Topology(sides, std::vector<bool>(sides.size(), false));
       }},
      {"torus",
       "WxH[xD...]: grid wrapping in every dimension, or in those wrap= flags "
       "(torus:2x2x2x6x8, torus:4x4:wrap=10)",
       {{"wrap", ParamKind::text, "", "one 0/1 flag per dimension, 1 = wraps; none: all wrap", {}}},
       [](const std::vector<int>& sides, const Params& p) {
         return Topology(sides, parse_wrap(p.text("wrap"), sides.size(), true));
       }},
      {"semitorus",
       "WxH[xD...]:wrap=FLAGS: grid wrapping in the flagged dimensions only, written back as "
       "torus:...:wrap=FLAGS (semitorus:8x8x4:wrap=110)",
       {kWrapParam},
       [](const std::vector<int>& sides, const Params& p) {
         if (p.text("wrap").empty()) throw InputError("semitorus needs wrap=FLAGS");
         return Topology(sides, parse_wrap(p.text("wrap"), sides.size(), false));
       }},
      {"flat",
       "N: complete graph, every pair of nodes one hop apart; routes cross a crossbar (flat:256)",
       {},
       [](const std::vector<int>& sides, const Params&) {
         if (sides.size() != 1) throw InputError("flat takes one node count");
         return Topology::flat(sides[0]);
       }},
  };
}

}  // namespace

void throw_bad_machine(std::string_view spec, const std::string& why) {
  throw InputError("bad machine '" + std::string(spec) + "': " + why + "; " + kAcceptedForms);
}

const TopologyRegistry& topology_registry() {
  static const TopologyRegistry registry("topology", topology_entries());
  return registry;
}

namespace {

/// A machine spec split into its table entry, sides and parameters (`allow_large` taken out).
struct SpecParts {
  const RegistryEntry<TopologyFactory>* entry = nullptr;
  std::string kind;
  std::vector<int> sides;
  std::vector<std::pair<std::string, std::string>> given;
  bool allow_large = false;
};

SpecParts split_spec(std::string_view spec) {
  SpecParts parts;
  const auto colon = spec.find(':');
  if (colon == std::string_view::npos) throw_bad_machine(spec, "missing ':'");
  parts.kind = std::string(spec.substr(0, colon));
  try {
    parts.entry = &topology_registry().find(parts.kind);
  } catch (const InputError& error) {
    throw_bad_machine(spec, error.what());
  }
  const std::string_view rest = spec.substr(colon + 1);
  const auto params_colon = rest.find(':');
  parts.sides = parse_sides(spec, rest.substr(0, params_colon));
  try {
    if (params_colon != std::string_view::npos) {
      const std::string_view text = rest.substr(params_colon + 1);
      if (text.empty()) throw InputError("nothing after the last ':'");
      parts.given = AlgoSpec::parse(parts.kind + ":" + std::string(text)).params;
    }
    parts.allow_large = take_allow_large(parts.given);
  } catch (const InputError& error) {
    throw_bad_machine(spec, error.what());
  }
  return parts;
}

}  // namespace

void check_machine_size(std::string_view spec) {
  const SpecParts parts = split_spec(spec);
  try {
    check_machine_size(parts.sides, parts.allow_large);
  } catch (const InputError& error) {
    throw_bad_machine(spec, error.what());
  }
}

Topology Topology::parse(std::string_view spec) {
  const SpecParts parts = split_spec(spec);
  try {
    const Params params(parts.entry->params, parts.given, "topology '" + parts.kind + "'");
    return parts.entry->factory(parts.sides, params);
  } catch (const InputError& error) {
    throw_bad_machine(spec, error.what());
  }
}

std::string Topology::spec() const {
  std::string text = kind_ == Kind::flat ? "flat:" : kind_ == Kind::torus ? "torus:" : "mesh:";
  for (std::size_t axis = 0; axis < sides_.size(); ++axis) {
    if (axis > 0) text += 'x';
    text += std::to_string(sides_[axis]);
  }
  // A semitorus (some wraps missing) is spelled with its wrap flags.
  bool mixed = false;
  for (bool w : wrap_) mixed |= (w != wrap_[0]);
  if (mixed) {
    text += ":wrap=";
    for (bool w : wrap_) text += w ? '1' : '0';
  }
  // Only a machine built with the permission can be this large: parse(spec()) needs it too.
  if (nodes_ > kMaxNodesWithoutOverride) text += mixed ? ",allow_large=1" : ":allow_large=1";
  return text;
}

}  // namespace allocsim
