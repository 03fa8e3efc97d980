// Pattern generators: stencils, ring, all-to-all, random graphs and the LeanMD-like pattern.
#include "allocsim/mapping/patterns.hpp"

#include <algorithm>
#include <set>

#include "allocsim/util/rng.hpp"

namespace allocsim::mapping {

namespace {

/// Parses `AxBxC` with exactly `dims` positive factors; `what` names the pattern in errors.
std::vector<int> parse_sides(const std::string& text, int dims, const std::string& what) {
  std::vector<int> sides;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto cross = text.find('x', start);
    const std::string part = text.substr(start, cross == std::string::npos ? cross : cross - start);
    int value = 0;
    bool ok = !part.empty() && part.size() <= 7;
    for (const char c : part) ok = ok && c >= '0' && c <= '9';
    if (ok) value = std::stoi(part);
    if (!ok || value < 1)
      throw InputError(what + ": size '" + text + "' must be " + std::to_string(dims) +
                       " positive integers separated by 'x'");
    sides.push_back(value);
    if (cross == std::string::npos) break;
    start = cross + 1;
  }
  if (static_cast<int>(sides.size()) != dims)
    throw InputError(what + ": size '" + text + "' must have " + std::to_string(dims) + " factors");
  return sides;
}

/// Tasks of a box (a double: the product of three 7-digit sides overflows an int).
double box_tasks(const std::vector<int>& sides) {
  double tasks = 1;
  for (const int side : sides) tasks *= side;
  return tasks;
}

/// An integer parameter in [1, kMaxProcs] (its range in the table); the size guard follows.
int positive(const Params& p, const std::string& key) {
  return static_cast<int>(p.integer(key));
}

/// The `bytes` parameter (its table range: > 0 and at most kMaxEdgeBytes).
double byte_count(const Params& p) {
  return p.real("bytes");
}

/// Jacobi-like stencil on a box: each task talks to its 2·dims axis neighbours (wrap optional).
/// Refused before any memory is taken beyond the size guards (`what` names the pattern).
TaskGraph stencil(const std::vector<int>& sides, bool wrap, double bytes, const std::string& what) {
  check_task_graph_size(box_tasks(sides), box_tasks(sides) * static_cast<double>(sides.size()),
                        what);
  const int tasks = static_cast<int>(box_tasks(sides));
  std::vector<TaskEdge> edges;
  int stride = 1;
  for (const int side : sides) {
    for (int t = 0; t < tasks; ++t) {
      const int c = (t / stride) % side;
      if (c + 1 < side)
        edges.push_back({t, t + stride, bytes});
      else if (wrap && side > 2)
        edges.push_back({t, t - (side - 1) * stride, bytes});
    }
    stride *= side;
  }
  return TaskGraph::from_edges(tasks, std::move(edges));
}

const ParamSpec kBytes{"bytes", ParamKind::real,
                       "1024",  "bytes per edge and iteration",
                       {},      positive_rule(kMaxEdgeBytes)};
/// Task counts: an int; the size guard (check_task_graph_size) refuses more than kMaxTasks
/// with a memory estimate.
const NumberRule kCount = integer_rule(1, kMaxProcs);
const ParamSpec kWrap{"wrap", ParamKind::choice, "0", "periodic boundaries", {"0", "1"}};

std::vector<RegistryEntry<PatternFactory>> pattern_entries() {
  return {
      {"mesh2d",
       "2D Jacobi stencil, 4 neighbours (paper §5.2.1)",
       {{"size", ParamKind::text, "8x8", "AxB tasks", {}}, kWrap, kBytes},
       [](const Params& p) {
         return stencil(parse_sides(p.text("size"), 2, "mesh2d"), p.text("wrap") == "1",
                        byte_count(p), "mesh2d");
       }},
      {"mesh3d",
       "3D Jacobi stencil, 6 neighbours",
       {{"size", ParamKind::text, "4x4x4", "AxBxC tasks", {}}, kWrap, kBytes},
       [](const Params& p) {
         return stencil(parse_sides(p.text("size"), 3, "mesh3d"), p.text("wrap") == "1",
                        byte_count(p), "mesh3d");
       }},
      {"ring",
       "k tasks in a ring, each talking to its two neighbours",
       {{"size", ParamKind::integer, "16", "tasks k", {}, kCount}, kBytes},
       [](const Params& p) { return stencil({positive(p, "size")}, true, byte_count(p), "ring"); }},
      {"alltoall",
       "k tasks, every pair exchanging bytes",
       {{"size", ParamKind::integer, "16", "tasks k", {}, kCount}, kBytes},
       [](const Params& p) {
         const int k = positive(p, "size");
         check_task_graph_size(k, 0.5 * k * (k - 1.0), "alltoall");
         const double bytes = byte_count(p);
         std::vector<TaskEdge> edges;
         edges.reserve(static_cast<std::size_t>(k) * (k - 1) / 2);
         for (int a = 0; a < k; ++a)
           for (int b = a + 1; b < k; ++b) edges.push_back({a, b, bytes});
         return TaskGraph::from_edges(k, std::move(edges));
       }},
      {"random",
       "k tasks, k*degree/2 distinct random pairs (seeded)",
       {{"size", ParamKind::integer, "64", "tasks k", {}, kCount},
        {"degree", ParamKind::integer, "4", "average degree", {}, integer_rule(0, kMaxProcs)},
        {"seed",
         ParamKind::integer,
         "1",
         "generator seed",
         {},
         integer_rule(0, 9007199254740991.0)},
        kBytes},
       [](const Params& p) {
         const int k = positive(p, "size");
         const long long degree = p.integer("degree");
         if (degree < 0 || degree > k - 1)
           throw InputError("random: degree must be in 0.." + std::to_string(k - 1));
         const long long wanted = static_cast<long long>(k) * degree / 2;
         check_task_graph_size(k, static_cast<double>(wanted), "random");
         const double bytes = byte_count(p);
         Rng rng(mix_seed(static_cast<std::uint64_t>(p.integer("seed")), 0x6d6170));
         std::set<std::pair<int, int>> chosen;
         std::vector<TaskEdge> edges;
         while (static_cast<long long>(edges.size()) < wanted) {
           int a = static_cast<int>(rng.uniform_int(0, k - 1));
           int b = static_cast<int>(rng.uniform_int(0, k - 1));
           if (a == b) continue;
           if (a > b) std::swap(a, b);
           if (chosen.insert({a, b}).second) edges.push_back({a, b, bytes});
         }
         return TaskGraph::from_edges(k, std::move(edges));
       }},
      {"leanmd",
       "molecular dynamics: cells, 14 computes per cell, a proxy per processor",
       {{"cells", ParamKind::text, "6x6x6", "cell box AxBxC (periodic)", {}},
        {"procs", ParamKind::integer, "512", "processors (one proxy each)", {}, kCount},
        {"proxies",
         ParamKind::choice,
         "cells",
         "cells: proxy of cell i mod procs, computes talk to cells; computes: proxy per "
         "processor relays cells to the computes placed there (round-robin)",
         {"cells", "computes"}},
        kBytes},
       [](const Params& p) {
         const auto cells = parse_sides(p.text("cells"), 3, "leanmd");
         return leanmd_pattern(cells[0], cells[1], cells[2], positive(p, "procs"), byte_count(p),
                               p.text("proxies") == "computes" ? LeanMDProxies::on_computes
                                                               : LeanMDProxies::on_cells);
       }},
  };
}

}  // namespace

const PatternRegistry& pattern_registry() {
  static const PatternRegistry registry("pattern", pattern_entries());
  return registry;
}

std::string normalize_pattern_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) return spec;
  const auto comma = spec.find(',', colon);
  const std::string first =
      spec.substr(colon + 1, comma == std::string::npos ? comma : comma - colon - 1);
  if (first.empty() || first.find('=') != std::string::npos) return spec;
  return spec.substr(0, colon + 1) + "size=" + spec.substr(colon + 1);
}

TaskGraph make_pattern(const std::string& spec) {
  auto [entry, params] = pattern_registry().resolve(normalize_pattern_spec(spec));
  return entry->factory(params);
}

TaskGraph leanmd_pattern(int a, int b, int c, int procs, double bytes, LeanMDProxies proxies) {
  // At most 14 computes per cell, each with at most 3 edges, one edge per cell to its proxy.
  const double box = box_tasks({a, b, c});
  check_task_graph_size(15 * box + procs, 43 * box, "leanmd");
  const int cells = a * b * c;
  auto cell_at = [&](int x, int y, int z) {
    return ((x + a) % a) + a * (((y + b) % b) + b * ((z + c) % c));
  };
  // Interacting pairs: each cell with itself and with its 13 forward neighbours (offsets whose
  // first non-zero component is positive), periodic, each unordered pair once.
  std::set<std::pair<int, int>> pairs;
  std::vector<std::pair<int, int>> ordered;
  for (int z = 0; z < c; ++z)
    for (int y = 0; y < b; ++y)
      for (int x = 0; x < a; ++x) {
        const int self = cell_at(x, y, z);
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const bool forward = dz > 0 || (dz == 0 && dy > 0) || (dz == 0 && dy == 0 && dx >= 0);
              if (!forward) continue;
              const int other = cell_at(x + dx, y + dy, z + dz);
              const auto key = std::minmax(self, other);
              if (pairs.insert(key).second) ordered.emplace_back(self, other);
            }
      }
  const int computes = static_cast<int>(ordered.size());
  const int tasks = cells + computes + procs;
  std::vector<double> loads(tasks, 1.0);
  std::vector<TaskEdge> edges;
  for (int cell = 0; cell < cells; ++cell) loads[cell] = 2;
  for (int i = 0; i < computes; ++i)
    loads[cells + i] = ordered[i].first == ordered[i].second ? 5 : 10;
  if (proxies == LeanMDProxies::on_cells) {
    for (int cell = 0; cell < cells; ++cell)
      edges.push_back({cell, cells + computes + cell % procs, bytes});
    for (int i = 0; i < computes; ++i) {
      const auto [first, second] = ordered[i];
      edges.push_back({cells + i, first, bytes});
      if (first != second) edges.push_back({cells + i, second, bytes});
    }
  } else {
    // Compute i starts on processor i mod procs; that processor's proxy receives each cell it
    // needs once and serves every compute there (bytes per cell the compute reads).
    std::set<std::pair<int, int>> relayed;  // (cell, proxy)
    for (int i = 0; i < computes; ++i) {
      const auto [first, second] = ordered[i];
      const int proxy = cells + computes + i % procs;
      edges.push_back({cells + i, proxy, first == second ? bytes : 2 * bytes});
      for (const int cell : {first, second})
        if (relayed.insert({cell, proxy}).second) edges.push_back({cell, proxy, bytes});
    }
  }
  return TaskGraph::from_edges(tasks, std::move(edges), std::move(loads));
}

}  // namespace allocsim::mapping
