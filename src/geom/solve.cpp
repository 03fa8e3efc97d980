// The table of point-set methods; see solve.hpp.
#include "allocsim/geom/solve.hpp"

#include <chrono>
#include <cstdlib>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/ptas.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::geom {

namespace {

std::vector<int> parse_shape(const std::string& text) {
  std::vector<int> shape;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find('x', start);
    const std::string part = text.substr(start, end == std::string::npos ? end : end - start);
    char* stop = nullptr;
    const long value = std::strtol(part.c_str(), &stop, 10);
    if (part.empty() || *stop != '\0' || value < 1 || value > 1000000)
      throw InputError("bad shape '" + text + "' (expected sides like 2x3 or 2x2x2)");
    shape.push_back(static_cast<int>(value));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return shape;
}

std::vector<RegistryEntry<SolverFn>> solver_entries() {
  std::vector<RegistryEntry<SolverFn>> entries;
  entries.push_back({"exact",
                     "proven optimum by branch and bound (budgeted)",
                     {},
                     [](const PointSet& p, int k, const Params&, const Budget& budget) {
                       ExactOptions options;
                       options.budget = budget;
                       return exact_optimum(p, k, options);
                     }});
  entries.push_back({"ptas",
                     "Bender et al.'s PTAS with m slabs per axis (budgeted)",
                     {{"m",
                       ParamKind::integer,
                       "3",
                       "slabs per axis (guarantee needs m >= 5)",
                       {},
                       integer_rule(1, 64)}},
                     [](const PointSet& p, int k, const Params& params, const Budget& budget) {
                       const long long m = params.integer("m");
                       if (m < 1 || m > 64) throw InputError("ptas needs 1 <= m <= 64");
                       return ptas(p, k, static_cast<int>(m), budget);
                     }});
  entries.push_back({"mm",
                     "Manhattan Median: best of the k nearest around grid intersections",
                     {},
                     [](const PointSet& p, int k, const Params&, const Budget&) {
                       return manhattan_median(p, k);
                     }});
  entries.push_back(
      {"genalg",
       "Gen-Alg: best of the k nearest around an input point",
       {},
       [](const PointSet& p, int k, const Params&, const Budget&) { return gen_alg(p, k); }});
  entries.push_back(
      {"mc1x1",
       "MC1x1: least sum of L-inf shell numbers around an input point",
       {},
       [](const PointSet& p, int k, const Params&, const Budget&) { return mc1x1(p, k); }});
  entries.push_back({"mc",
                     "MC: shells around a box of the given shape",
                     {{"shape", ParamKind::text, "1", "shell-0 sides, e.g. 2x3", {}}},
                     [](const PointSet& p, int k, const Params& params, const Budget&) {
                       return mc_shaped(p, k, parse_shape(params.text("shape")));
                     }});
  entries.push_back(
      {"mm-inc",
       "MM followed by improving swaps",
       {},
       [](const PointSet& p, int k, const Params&, const Budget&) { return mm_inc(p, k); }});
  return entries;
}

}  // namespace

const SolverRegistry& solver_registry() {
  static const SolverRegistry registry("method", solver_entries());
  return registry;
}

Selection solve(const std::string& method, const PointSet& points, int k, const Budget& budget) {
  if (k < 0) throw InputError("k must not be negative");
  if (k > points.size())
    throw InputError("k = " + std::to_string(k) + " but only " + std::to_string(points.size()) +
                     " points are available");
  auto [entry, params] = solver_registry().resolve(method);
  const auto start = std::chrono::steady_clock::now();
  Selection result = entry->factory(points, k, params, budget);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (entry->name != "exact" && entry->name != "ptas") {
    result.proven = false;
    result.lower_bound = std::min(result.sum, axis_window_lower_bound(points, k));
  }
  return result;
}

double parse_duration_seconds(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    throw InputError("bad duration '" + text + "' (expected e.g. 10s, 500ms, 2m)");
  }
  const std::string unit = text.substr(used);
  double scale = 0;
  if (unit.empty() || unit == "s")
    scale = 1;
  else if (unit == "ms")
    scale = 1e-3;
  else if (unit == "m" || unit == "min")
    scale = 60;
  else if (unit == "h")
    scale = 3600;
  if (scale == 0 || value < 0)
    throw InputError("bad duration '" + text + "' (expected e.g. 10s, 500ms, 2m)");
  return value * scale;
}

}  // namespace allocsim::geom
