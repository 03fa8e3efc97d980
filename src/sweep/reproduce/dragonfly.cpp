// Placement on dragonflies and fat trees (issue 27): placement policy x routing x global-link
// arrangement on the NASA iPSC/860 log under the flow model (experiments/dragonfly-placement.toml)
// and Slurm's tree selection against topology-blind placement on an oversubscribed fat tree
// (experiments/dragonfly-placement-fattree.toml). The papers' trends are checked as facts; their
// numbers come from other machines, traces and simulators, so only directions and orders of
// magnitude are compared. See studies.hpp.
//
// Communication time. Under `flow:comm=c` a job runs (1 - c) + c * s times its trace runtime, s
// its communication slowdown against a compact allocation alone; the run's mean_comm_slowdown
// minus (1 - c) is then the mean communication time per unit of trace runtime, the quantity the
// papers' "communication overhead" and "communication time" compare.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

constexpr double kComm = 0.5;  ///< the experiments' flow:comm
const std::vector<std::string> kRandom{"random", "dfly-rdr"};
const std::vector<std::string> kIndirect{"valiant", "ugal"};
/// SST's dragonfly allocators, the baselines of Zhang et al.'s comparison.
const std::vector<std::string> kSstBaselines{"simple", "random", "dfly-rdr", "dfly-rrn",
                                             "dfly-spread"};
const std::vector<std::string> kRoutings{"minimal", "valiant", "ugal"};

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

/// One run group of the dragonfly sweep: windows averaged.
struct Cell {
  std::string shape, pattern, arrangement, routing, alloc;
};

std::string percent(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", 100 * x);
  return text;
}

void fat_tree(const StudyContext& context, Measurements& m) {
  const std::string results = run_experiment(
      context,
      context.quick ? "quick/dragonfly-placement-fattree.toml" : "dragonfly-placement-fattree.toml",
      "dragonfly-placement-fattree");
  const GroupMeans means =
      group_means(results, {"pattern", "alloc"}, {"makespan", "mean_comm_slowdown"});
  // Pollard et al.: few switches cost little utilization and cut interference. Utilization on
  // trace runtimes is the same work over the makespan, so it is compared through makespans (the
  // `utilization` column counts communication-stretched time as work and would favour the
  // spread placement).
  bool little_cost = true, less_communication = true;
  int patterns = 0;
  std::map<std::string, std::map<std::string, GroupMeans::Value>> by_alloc;
  for (const auto& [key, values] : means.values) {
    if (key[1] != "random") continue;
    const auto tree = means.values.find({key[0], "slurm-tree"});
    if (tree == means.values.end()) continue;
    ++patterns;
    const double makespan_ratio = tree->second.at("makespan").mean / values.at("makespan").mean;
    const double comm_random = values.at("mean_comm_slowdown").mean - (1 - kComm);
    const double comm_tree = tree->second.at("mean_comm_slowdown").mean - (1 - kComm);
    little_cost = little_cost && makespan_ratio <= 1.05;
    less_communication = less_communication && comm_tree < comm_random;
    m.notes.push_back("fat tree, " + key[0] + ": slurm-tree's makespan " +
                      percent(makespan_ratio - 1) + " against random's; communication time " +
                      percent(comm_tree / comm_random - 1));
  }
  if (patterns == 0) return;
  m.facts["pollard/few-switches-little-utilization-cost"] = little_cost;
  m.facts["pollard/few-switches-less-communication"] = less_communication;
}

}  // namespace

Measurements dragonfly_placement(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/dragonfly-placement.toml" : "dragonfly-placement.toml",
      "dragonfly-placement");
  const GroupMeans means =
      group_means(results, {"shape", "pattern", "arrangement", "routing", "alloc"},
                  {"mean_response", "mean_comm_slowdown", "max_link_utilization"});
  std::vector<std::pair<Cell, std::map<std::string, GroupMeans::Value>>> cells;
  std::vector<std::string> shapes;
  for (const auto& [key, values] : means.values) {
    cells.push_back({{key[0], key[1], key[2], key[3], key[4]}, values});
    if (!contains(shapes, key[0])) shapes.push_back(key[0]);
  }
  auto comm_time = [](const std::map<std::string, GroupMeans::Value>& v) {
    return v.at("mean_comm_slowdown").mean - (1 - kComm);
  };
  Measurements m;
  if (cells.empty()) {
    m.notes.push_back("no runs in the dragonfly results");
    return m;
  }
  // Bhatele et al. (SC 2011), Jain et al. (SC 2014): per shape, all-to-all, absolute arrangement.
  bool random_indirect_lowest = true, contiguous_minimal_above = true;
  // Kaplan et al.: per shape and pattern, the spread of communication time over arrangement x
  // routing x allocation, (worst - best) / worst.
  double widest = 0;
  for (const std::string& shape : shapes) {
    double lowest = std::numeric_limits<double>::infinity(), random_indirect = lowest;
    double contiguous_minimal = -1;
    std::string lowest_at;
    std::map<std::string, std::pair<double, double>> range;  // pattern -> (best, worst)
    for (const auto& [cell, v] : cells) {
      if (cell.shape != shape) continue;
      auto& [best, worst] = range.try_emplace(cell.pattern, 1e300, -1e300).first->second;
      best = std::min(best, comm_time(v)), worst = std::max(worst, comm_time(v));
      if (cell.pattern != "alltoall:auto" || cell.arrangement != "absolute") continue;
      const double load = v.at("max_link_utilization").mean;
      if (load < lowest) lowest = load, lowest_at = cell.alloc + " / " + cell.routing;
      if (contains(kRandom, cell.alloc) && contains(kIndirect, cell.routing))
        random_indirect = std::min(random_indirect, load);
      if (cell.alloc == "simple" && cell.routing == "minimal") contiguous_minimal = load;
    }
    random_indirect_lowest = random_indirect_lowest && random_indirect <= lowest;
    contiguous_minimal_above = contiguous_minimal_above && contiguous_minimal > random_indirect;
    char text[300];
    std::snprintf(text, sizeof text,
                  "%s, all-to-all, absolute: lowest max link utilization %.3f (%s); random "
                  "placement with indirect routing %.3f; simple / minimal %.3f",
                  shape.c_str(), lowest, lowest_at.c_str(), random_indirect, contiguous_minimal);
    m.notes.push_back(text);
    for (const auto& [pattern, br] : range) {
      const double spread = br.second > 0 ? (br.second - br.first) / br.second : 0;
      widest = std::max(widest, spread);
      m.notes.push_back(shape + ", " + pattern +
                        ": communication time from best to worst placement x routing x "
                        "arrangement spans " +
                        percent(spread));
    }
  }
  m.facts["bhatele-jain/random-indirect-lowest-max-link-load"] = random_indirect_lowest;
  m.facts["jain/contiguous-minimal-above-random-indirect"] = contiguous_minimal_above;
  m.facts["kaplan/wide-range"] = widest >= 0.1;
  m.numbers["kaplan/widest-spread"] = widest;
  // Zhang et al.: Level-Spread's communication time against the mean of SST's baselines, per
  // routing (every shape, pattern and arrangement).
  for (const std::string& routing : kRoutings) {
    double reduction_sum = 0, reduction_max = -1e300;
    int count = 0;
    for (const auto& [cell, v] : cells) {
      if (cell.alloc != "level-spread" || cell.routing != routing) continue;
      double baseline = 0;
      int baselines = 0;
      for (const auto& [other, w] : cells)
        if (other.shape == cell.shape && other.pattern == cell.pattern &&
            other.arrangement == cell.arrangement && other.routing == routing &&
            contains(kSstBaselines, other.alloc))
          baseline += comm_time(w), ++baselines;
      if (baselines == 0) continue;
      const double reduction = 1 - comm_time(v) / (baseline / baselines);
      reduction_sum += reduction, reduction_max = std::max(reduction_max, reduction), ++count;
    }
    if (count == 0) continue;
    m.numbers["zhang/level-spread-reduction-" + routing] = reduction_sum / count;
    m.notes.push_back("Level-Spread against SST's baselines under " + routing +
                      " routing: communication time " + percent(-reduction_sum / count) +
                      " on average (best case " + percent(-reduction_max) + ")");
    if (routing == "ugal") {
      // "16 % on average, up to 71 %": the direction, and the same order of magnitude (a tenth
      // to ten times the published average).
      const double mean = reduction_sum / count;
      m.facts["zhang/level-spread-lowers-communication"] = mean > 0.016 && mean < 1;
    }
  }
  fat_tree(context, m);
  // The figure: per shape, communication time and max link utilization of each placement
  // against the routing (all-to-all, absolute arrangement).
  Figure figure;
  figure.title =
      "Dragonfly placement, NASA log, EASY, flow:comm=0.5, all-to-all, absolute arrangement";
  for (const std::string metric : {"comm", "load"})
    for (const std::string& shape : shapes) {
      Panel panel{shape,
                  "routing (0 minimal, 1 Valiant, 2 UGAL)",
                  metric == "comm" ? "communication time / trace runtime" : "max link utilization",
                  false,
                  {}};
      std::map<std::string, Series> by_alloc;
      for (const auto& [cell, v] : cells) {
        if (cell.shape != shape || cell.pattern != "alltoall:auto" ||
            cell.arrangement != "absolute")
          continue;
        const double x = static_cast<double>(
            std::find(kRoutings.begin(), kRoutings.end(), cell.routing) - kRoutings.begin());
        Series& s = by_alloc.try_emplace(cell.alloc, Series{cell.alloc, {}, {}, {}}).first->second;
        s.x.push_back(x);
        s.y.push_back(metric == "comm" ? comm_time(v) : v.at("max_link_utilization").mean);
        s.error.push_back(metric == "comm" ? v.at("mean_comm_slowdown").ci95
                                           : v.at("max_link_utilization").ci95);
      }
      for (auto& [alloc, s] : by_alloc) panel.series.push_back(s);
      figure.panels.push_back(panel);
    }
  write_figure(context, "dragonfly-placement", figure, m);
  m.notes.push_back(
      "not checked yet: Yang et al.'s bully (heavy communicators gain, light ones lose under "
      "random placement with adaptive routing) needs each job's interference by communication "
      "class");
  return m;
}

}  // namespace allocsim::sweep::measure
