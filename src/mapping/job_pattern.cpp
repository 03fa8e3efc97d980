// Job patterns sized to each job; see mapping/job_pattern.hpp.
#include "allocsim/mapping/job_pattern.hpp"

#include <algorithm>
#include <functional>

#include "allocsim/mapping/patterns.hpp"
#include "allocsim/util/error.hpp"

namespace allocsim::mapping {

namespace {

/// Default degree of the `random` pattern (its registry default), capped per job.
constexpr long long kRandomDegree = 4;

/// Sides for `dims` axes, each factorization searched exhaustively (dims <= 3, so at most
/// O(tasks) candidate tuples); the one with the smallest sides read from largest to smallest.
std::vector<int> search_sides(int tasks, int dims) {
  std::vector<int> best, current;
  std::function<void(int, int)> search = [&](int left, int axes) {
    if (axes == 1) {
      current.push_back(left);
      std::vector<int> sorted = current;
      std::sort(sorted.rbegin(), sorted.rend());
      if (best.empty() || sorted < best) best = sorted;
      current.pop_back();
      return;
    }
    for (int side = 1; side <= left; ++side)
      if (left % side == 0) {
        current.push_back(side);
        search(left / side, axes - 1);
        current.pop_back();
      }
  };
  search(tasks, dims);
  return best;
}

std::string join_sides(const std::vector<int>& sides) {
  std::string text;
  for (const int side : sides) {
    if (!text.empty()) text += 'x';
    text += std::to_string(side);
  }
  return text;
}

}  // namespace

std::vector<int> balanced_sides(int tasks, int dims) {
  if (tasks < 1 || dims < 1 || dims > 3)
    throw InputError("job pattern: cannot shape " + std::to_string(tasks) + " tasks in " +
                     std::to_string(dims) + " dimensions");
  return search_sides(tasks, dims);
}

std::string sized_pattern_spec(const std::string& job_pattern, int tasks) {
  const AlgoSpec spec = AlgoSpec::parse(normalize_pattern_spec(job_pattern));
  const auto& entry = pattern_registry().find(spec.name);
  // Before shaping (an O(tasks) search): a job of more tasks than a task graph may hold.
  check_task_graph_size(tasks, 0, "job pattern '" + job_pattern + "'");
  if (entry.name == "leanmd")
    throw InputError(
        "job pattern 'leanmd' is not sized by a job's task count; use it with "
        "`allocsim map`");
  std::string text = entry.name + ":size=";
  if (entry.name == "mesh2d" || entry.name == "mesh3d")
    text += join_sides(balanced_sides(tasks, entry.name == "mesh2d" ? 2 : 3));
  else
    text += std::to_string(tasks);
  long long degree = kRandomDegree;
  for (const auto& [key, value] : spec.params) {
    if (key == "size") {
      if (value != "auto")
        throw InputError("job pattern '" + job_pattern +
                         "': the size comes from each job; write size 'auto' or leave it out");
      continue;
    }
    if (entry.name == "random" && key == "degree") {
      degree = Params(entry.params, {{key, value}}, "pattern 'random'").integer("degree");
      continue;
    }
    text += "," + key + "=" + value;
  }
  // A random pattern's degree is at most tasks - 1: small jobs get the densest graph they have.
  if (entry.name == "random")
    text += ",degree=" + std::to_string(std::max(0LL, std::min(degree, tasks - 1LL)));
  return text;
}

TaskGraph job_pattern_graph(const std::string& job_pattern, int tasks) {
  return make_pattern(sized_pattern_spec(job_pattern, tasks));
}

std::string canonical_job_pattern(const std::string& job_pattern) {
  // Resolve at a size every pattern accepts (checks every parameter), then write size=auto.
  std::string text = pattern_registry().canonical(sized_pattern_spec(job_pattern, 8));
  const auto colon = text.find(':');
  for (std::size_t at = colon; at != std::string::npos; at = text.find(',', at + 1)) {
    if (text.compare(at + 1, 5, "size=") != 0) continue;
    const auto end = text.find(',', at + 1);
    text.replace(at + 6, (end == std::string::npos ? text.size() : end) - (at + 6), "auto");
    break;
  }
  // `random`'s degree was capped at the probe size; keep the degree as written instead.
  if (text.rfind("random", 0) == 0) {
    const AlgoSpec spec = AlgoSpec::parse(normalize_pattern_spec(job_pattern));
    std::string degree = std::to_string(kRandomDegree);
    for (const auto& [key, value] : spec.params)
      if (key == "degree") degree = value;
    const auto at = text.find("degree=");
    text.replace(at + 7, text.find(',', at) - (at + 7), degree);
  }
  return text;
}

}  // namespace allocsim::mapping
