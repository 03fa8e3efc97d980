// The topology table and machine specs: `KIND:WxH[x...][:key=value,...]` read by
// Topology::parse and written by Topology::spec, so that parse(t.spec()) == t for every form.
#include "allocsim/topo/topology_registry.hpp"

#include <charconv>
#include <cstdio>
#include <limits>

#include "allocsim/topo/dragonfly.hpp"
#include "allocsim/topo/fattree.hpp"
#include "allocsim/topo/grid_routers.hpp"
#include "allocsim/topo/slurm_topology.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim {

namespace {

const char* const kAcceptedForms =
    "accepted forms: mesh:WxH[xD...] (e.g. mesh:16x16, mesh:8x8x5), torus:WxH[x...][:wrap=FLAGS] "
    "(e.g. torus:4x4x4, torus:2x2x2x6x8, torus:4x4:wrap=10), semitorus:WxH[x...]:wrap=FLAGS "
    "(e.g. semitorus:8x8x4:wrap=110), grids with several nodes per router (e.g. "
    "torus:8x8:per_router=2), flat:N (e.g. flat:256), dragonfly:p=P,a=A,h=H[,g=G,...] (e.g. "
    "dragonfly:p=2,a=4,h=2), fattree:k=K (e.g. fattree:k=4) or fattree:down=M1xM2...,up=W1xW2... "
    "(e.g. fattree:down=24x36,up=1x12), slurm-topology:FILE (topology.conf or topology.yaml); "
    "every side a positive integer, FLAGS one 0/1 per dimension; `allocsim list topologies` "
    "lists every parameter";

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
const ParamSpec kPerRouterParam{
    "per_router",
    ParamKind::integer,
    "1",
    "compute nodes attached to each grid point (a router); above 1 the machine is a graph: "
    "node id = slot + per_router x router id, routes go node -> router -> grid route -> node",
    {},
    integer_rule(1, 4096),
    true,
    false};

/// A grid of routers, or with per_router > 1 the graph of routers with nodes attached.
Topology grid_machine(std::vector<int> sides, std::vector<bool> wrap, const MachineArgs& args) {
  const Params& params = args.params;
  Topology routers(std::move(sides), std::move(wrap));
  const auto per_router = static_cast<int>(params.integer("per_router"));
  if (per_router == 1) return routers;
  return Topology::graph(make_grid_routers(routers, per_router, args.allow_large));
}

ParamSpec integer_param(std::string key, std::string fallback, std::string help, double min,
                        double max) {
  return {std::move(key),        ParamKind::integer, std::move(fallback), std::move(help), {},
          integer_rule(min, max)};
}
ParamSpec real_param(std::string key, std::string help) {
  return {std::move(key), ParamKind::real, "1", std::move(help), {}, real_rule(1e-9, 1e9)};
}

std::vector<RegistryEntry<TopologyFactory>> topology_entries() {
  using Form = MachineSpecForm;
  return {
      {"mesh",
       "WxH[xD...]: grid of any dimension, L1 hop distance, dimension-ordered routes "
       "(mesh:16x16, mesh:8x8x5)",
       {kPerRouterParam},
       {Form::sides,
        [](const MachineArgs& m) {
          return grid_machine(m.sides, std::vector<bool>(m.sides.size(), false), m);
        }}},
      {"torus",
       "WxH[xD...]: grid wrapping in every dimension, or in those wrap= flags; "
       "dimension-ordered routes, the shorter way round (torus:2x2x2x6x8, torus:4x4:wrap=10)",
       {{"wrap", ParamKind::text, "", "one 0/1 flag per dimension, 1 = wraps; none: all wrap", {}},
        kPerRouterParam},
       {Form::sides,
        [](const MachineArgs& m) {
          return grid_machine(m.sides, parse_wrap(m.params.text("wrap"), m.sides.size(), true), m);
        }}},
      {"semitorus",
       "WxH[xD...]:wrap=FLAGS: grid wrapping in the flagged dimensions only, written back as "
       "torus:...:wrap=FLAGS (semitorus:8x8x4:wrap=110)",
       {kWrapParam, kPerRouterParam},
       {Form::sides,
        [](const MachineArgs& m) {
          if (m.params.text("wrap").empty()) throw InputError("semitorus needs wrap=FLAGS");
          return grid_machine(m.sides, parse_wrap(m.params.text("wrap"), m.sides.size(), false), m);
        }}},
      {"flat",
       "N: complete graph, every pair of nodes one hop apart; routes cross a crossbar (flat:256)",
       {},
       {Form::sides,
        [](const MachineArgs& m) {
          if (m.sides.size() != 1) throw InputError("flat takes one node count");
          return Topology::flat(m.sides[0]);
        }}},
      {"dragonfly",
       "p=P,a=A,h=H[,g=G]: Kim et al. (ISCA 2008): p nodes per router, a routers per group "
       "joined all-to-all, h global links per router, g <= a*h+1 groups (default a*h+1); "
       "routing minimal (local, global, local), valiant (through an intermediate group, an even "
       "split in the flow model) or ugal (minimal or valiant per flow by load) "
       "(dragonfly:p=2,a=4,h=2)",
       {integer_param("p", "", "compute nodes per router", 1, 4096),
        integer_param("a", "", "routers per group, joined all-to-all by local links", 1, 4096),
        integer_param("h", "", "global links per router", 1, 4096),
        integer_param("g", "0", "groups, 2 .. a*h+1 (0: a*h+1)", 0, 1 << 24),
        {"arrangement",
         ParamKind::choice,
         "absolute",
         "how global links join groups: absolute, relative or circulant (Hastings et al., "
         "Cluster 2015; Kaplan et al., CCGrid 2017)",
         {"absolute", "relative", "circulant"}},
        {"routing",
         ParamKind::choice,
         "minimal",
         "minimal, valiant or ugal",
         {"minimal", "valiant", "ugal"}},
        real_param("local_bw", "capacity of a local (intra-group) link"),
        real_param("global_bw", "capacity of a global link")},
       {Form::parameters,
        [](const MachineArgs& m) {
          return Topology::graph(make_dragonfly(m.params, m.allow_large));
        }}},
      {"fattree",
       "k=K | down=M1xM2...,up=W1xW2...: fat tree, k-ary three levels (Al-Fares et al., SIGCOMM "
       "2008: k^3/4 hosts, 5k^2/4 switches) or the general form XGFT(M; W) of real clusters, "
       "levels from the leaves up: Mi children per level-i switch, Wi parents per level-(i-1) "
       "vertex (fattree:down=24x36,up=1x12: 36 leaves of 24 hosts, 12 spines, 2:1 "
       "oversubscribed); routing dmodk (up port by destination) or ecmp (even split)",
       {integer_param("k", "0", "switch ports of the three-level k-ary fat tree (even)", 0, 256),
        {"down", ParamKind::text, "", "children per switch, per level from the leaves up", {}},
        {"up", ParamKind::text, "", "parents per vertex, per level from the hosts up", {}},
        {"routing",
         ParamKind::choice,
         "dmodk",
         "dmodk (up port floor(d / product of lower arities) mod arity) or ecmp (even split over "
         "the shortest up-down paths)",
         {"dmodk", "ecmp"}}},
       {Form::parameters,
        [](const MachineArgs& m) {
          return Topology::graph(make_fattree(m.params, m.allow_large));
        }}},
      {"slurm-topology",
       "FILE: a cluster described by Slurm's topology.conf (SwitchName=... Nodes=... / "
       "Switches=...) or topology.yaml (tree or block form); node names in file order, routes "
       "up to the lowest common switch and down",
       {},
       {Form::file,
        [](const MachineArgs& m) { return Topology::graph(make_slurm_topology(m.file)); }}},
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
  std::string file;
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
  const MachineSpecForm form = parts.entry->factory.form;
  if (form == MachineSpecForm::file) {
    if (rest.empty()) throw_bad_machine(spec, "missing the file after '" + parts.kind + ":'");
    parts.file = std::string(rest);
    return parts;
  }
  std::string_view text;
  if (form == MachineSpecForm::sides) {
    const auto params_colon = rest.find(':');
    parts.sides = parse_sides(spec, rest.substr(0, params_colon));
    if (params_colon != std::string_view::npos) {
      text = rest.substr(params_colon + 1);
      if (text.empty()) throw_bad_machine(spec, "nothing after the last ':'");
    }
  } else {
    text = rest;
    if (text.empty()) throw_bad_machine(spec, "missing parameters after '" + parts.kind + ":'");
  }
  try {
    if (!text.empty()) parts.given = AlgoSpec::parse(parts.kind + ":" + std::string(text)).params;
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
  MachineArgs args;
  args.sides = parts.sides;
  args.file = parts.file;
  args.allow_large = parts.allow_large;
  Topology topology;
  try {
    args.params = Params(parts.entry->params, parts.given, "topology '" + parts.kind + "'");
    topology = parts.entry->factory.build(args);
  } catch (const InputError& error) {
    // A topology file's own errors name the file and line: passed on as they are.
    if (parts.entry->factory.form == MachineSpecForm::file) throw;
    throw_bad_machine(spec, error.what());
  }
  return topology;
}

std::string Topology::spec() const {
  if (graph_) return graph_->spec();
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
