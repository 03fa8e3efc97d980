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
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "allocsim/metrics/records.hpp"
#include "allocsim/sweep/experiment/experiment.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/workload/job.hpp"
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

/// Why random placement with indirect routing need not give the lowest maximum (Bhatele et al.,
/// Jain et al.): the same comparison on router-to-router links at several communication shares
/// (experiments/dragonfly-placement-load.toml), in the notes.
void load_level(const StudyContext& context, Measurements& m) {
  const std::string results = run_experiment(
      context,
      context.quick ? "quick/dragonfly-placement-load.toml" : "dragonfly-placement-load.toml",
      "dragonfly-placement-load");
  const GroupMeans means = group_means(results, {"comm", "routing", "alloc"},
                                       {"max_link_util_router", "max_link_util_endpoint"});
  // comm -> cells (router-link maximum, "alloc / routing"), and the endpoint-link maximum.
  std::map<std::string, std::vector<std::pair<double, std::string>>> by_comm;
  std::map<std::string, double> endpoint;
  for (const auto& [key, values] : means.values) {
    by_comm[key[0]].emplace_back(values.at("max_link_util_router").mean, key[2] + " / " + key[1]);
    double& e = endpoint[key[0]];
    e = std::max(e, values.at("max_link_util_endpoint").mean);
  }
  int shares = 0, holds = 0, random_below_contiguous = 0;
  // random / indirect (the better of Valiant and UGAL) minus random / minimal, its range.
  double indirect_low = std::numeric_limits<double>::infinity(), indirect_high = -indirect_low;
  const char* shape = context.quick ? "p=2,a=4,h=2" : "p=2,a=8,h=2";
  for (auto& [comm, cells] : by_comm) {
    std::sort(cells.begin(), cells.end());
    const auto value = [&](const std::string& at) {
      for (const auto& [load, where] : cells)
        if (where == at) return load;
      return std::numeric_limits<double>::quiet_NaN();
    };
    double random_indirect = std::numeric_limits<double>::infinity();
    int rank = 0;  // of the best random / indirect cell, 1 = lowest
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::string& at = cells[i].second;
      const std::string alloc = at.substr(0, at.find(" / "));
      const std::string routing = at.substr(at.find(" / ") + 3);
      if (contains(kRandom, alloc) && contains(kIndirect, routing) && rank == 0)
        random_indirect = cells[i].first, rank = static_cast<int>(i) + 1;
    }
    const double random_minimal = value("random / minimal");
    const double contiguous_minimal = value("simple / minimal");
    ++shares;
    if (rank == 1) ++holds;
    if (random_minimal < contiguous_minimal) ++random_below_contiguous;
    indirect_low = std::min(indirect_low, random_indirect - random_minimal);
    indirect_high = std::max(indirect_high, random_indirect - random_minimal);
    char text[500];
    std::snprintf(text, sizeof text,
                  "load, %s, all-to-all, flow:comm=%s: lowest max utilization of a "
                  "router-to-router link %.3f (%s); random placement with indirect routing %.3f "
                  "(rank %d of %zu), random / minimal %.3f, simple / minimal %.3f; injection and "
                  "ejection links at most %.3f",
                  shape, comm.c_str(), cells.front().first, cells.front().second.c_str(),
                  random_indirect, rank, cells.size(), random_minimal, contiguous_minimal,
                  endpoint[comm]);
    m.notes.push_back(text);
  }
  char text[700];
  std::snprintf(text, sizeof text,
                "load: random placement with indirect routing has the lowest router-link maximum "
                "at %d of %d communication shares; random placement is below contiguous "
                "(simple, minimal routing) at %d of %d, but indirect routing changes random "
                "placement's maximum by %+.3f to %+.3f only (Valiant and UGAL detours add router "
                "hops, each an extra load in the flow model). On a saturated link the "
                "utilization is the share of time its jobs communicate, so the maxima of the "
                "spread placements converge as the share grows",
                holds, shares, random_below_contiguous, shares, indirect_low, indirect_high);
  m.notes.push_back(text);
}

/// Per group of a result file's done configs (the display text of `group_by`'s /configs
/// columns), per communication class (0 heavy, 1 light), the mean over the group's configs of
/// each config's mean runtime / trace runtime of its jobs of that class, read from its /jobs
/// table (keep_jobs; configs without one are left out and counted in `without_jobs`). Under the
/// flow model the trace runtime is the job's running time alone on the compact reference allocation
/// (RuntimeModel:: alone_runtime), so this is the class's mean comm_slowdown column: below 1 when
/// its jobs run faster than alone-compact (flow:cap=none), above when slower.
std::map<std::vector<std::string>, std::array<double, 2>> class_runtimes(
    const std::string& results, const std::vector<std::string>& group_by, int& without_jobs) {
  const ResultTables tables = read_result_tables(results);
  const h5::Table& configs = tables.configs;
  const auto column = [&](const std::string& name) {
    const int c = configs.find(name);
    if (c < 0) throw InputError("no column '" + name + "' in " + results);
    return static_cast<std::size_t>(c);
  };
  const std::size_t id = column("config_id"), status = column("status");
  const h5::File file(results, h5::File::Mode::read);
  std::map<std::vector<std::string>, std::array<std::array<double, 2>, 2>> sums;  // Σ, count
  for (std::size_t r = 0; r < configs.rows(); ++r) {
    const std::string hex = id_hex(configs.u64(r, id));
    if (configs.text(r, status) != "done") continue;
    if (!file.exists("/jobs/" + hex)) {
      ++without_jobs;
      continue;
    }
    std::array<double, 2> sum{}, count{};
    for (const JobRecord& job : read_job_tables(file, hex)) {
      const int c = job.comm_class == static_cast<double>(CommClass::heavy)   ? 0
                    : job.comm_class == static_cast<double>(CommClass::light) ? 1
                                                                              : -1;
      if (c < 0 || job.trace_runtime <= 0) continue;
      sum[c] += job.comm_slowdown;
      ++count[c];
    }
    std::vector<std::string> key;
    for (const auto& name : group_by) key.push_back(configs.display(r, column(name)));
    auto& [total, configs_counted] = sums[key];
    for (int c = 0; c < 2; ++c)
      if (count[c] > 0) total[c] += sum[c] / count[c], ++configs_counted[c];
  }
  std::map<std::vector<std::string>, std::array<double, 2>> means;
  for (const auto& [key, value] : sums) {
    const auto& [total, counted] = value;
    for (int c = 0; c < 2; ++c)
      means[key][c] = counted[c] > 0 ? total[c] / counted[c] : std::nan("");
  }
  return means;
}

/// Yang et al. (SC 2016), abstract: "while random job placement coupled with adaptive routing
/// is good at load balancing network traffic, it cannot guarantee the best performance for every
/// job. The performance improvement of communication-intensive applications comes at the
/// expense of performance degradation of less intensive ones." Their baseline is contiguous
/// placement; ours is SST's `simple` (lowest free ids: a job fills routers, then groups), under
/// the same UGAL routing so that only the placement changes. Per communication class
/// (comm_classes: heavy share 0.6, light 0.1), the slowdown other jobs cause, mean interference
/// = actual / alone runtime on the job's own allocation (the check, under the model's
/// compact-reference cap and equal sharing). The isolating experiments: link shares weighted by
/// communication share (flow:share=weighted), and the cap lifted (flow:cap=none), where a spread
/// job may run faster than alone-compact; there a placement's gain shows in each class's mean
/// runtime / trace runtime (actual against alone-compact: class_runtimes), which interference
/// (against alone on the job's own allocation) leaves out by construction.
constexpr double kBullyDirection = 0.005;  ///< a smaller change of mean interference: no change

void bully(const StudyContext& context, Measurements& m) {
  const std::string results = run_experiment(
      context,
      context.quick ? "quick/dragonfly-placement-bully.toml" : "dragonfly-placement-bully.toml",
      "dragonfly-placement-bully");
  const std::vector<std::string> group_by{"shape", "by", "alloc", "share", "cap"};
  const GroupMeans means =
      group_means(results, group_by, {"mean_interference_heavy", "mean_interference_light"});
  int without_jobs = 0;
  const auto runtimes = class_runtimes(results, group_by, without_jobs);
  if (without_jobs > 0)
    m.notes.push_back("bully: " + std::to_string(without_jobs) + " finished configurations in " +
                      results +
                      " have no per-job table (the file was written before the experiment kept "
                      "them): their runtimes are left out of the comparisons below; remove the "
                      "file to run them again");
  // Per link sharing rule (flow:share): equal is the model's (the check); weighted, in
  // proportion to each job's communication share, is the experiment that isolates the bully's
  // mechanism (a packet network gives more of a link to the job that injects more). Per cap
  // (flow:cap): compact is the model's (the check); none lets a spread job beat alone-compact.
  using Counts = std::array<int, 3>;                          // dragonflies, gains, loses
  std::map<std::string, Counts> counts;                       // per share (cap compact)
  std::map<std::string, std::array<double, 2>> random_sums;   // per share: Σ heavy, Σ light
  std::map<std::vector<std::string>, Counts> runtime_counts;  // per {by, share, cap}
  const auto runtime_of = [&](const std::vector<std::string>& key) {
    const auto found = runtimes.find(key);
    return found == runtimes.end() ? std::array<double, 2>{std::nan(""), std::nan("")}
                                   : found->second;
  };
  for (const auto& [key, values] : means.values) {
    if (key[2] != "simple") continue;
    const double heavy = values.at("mean_interference_heavy").mean;
    const double light = values.at("mean_interference_light").mean;
    const auto [heavy_runtime, light_runtime] = runtime_of(key);
    char text[600];
    for (const auto& [other, w] : means.values) {
      if (other[0] != key[0] || other[1] != key[1] || other[3] != key[3] || other[4] != key[4] ||
          other[2] == "simple")
        continue;
      const double other_heavy = w.at("mean_interference_heavy").mean;
      const double other_light = w.at("mean_interference_light").mean;
      const auto [other_heavy_runtime, other_light_runtime] = runtime_of(other);
      const bool runtimes_known = !std::isnan(heavy_runtime) && !std::isnan(light_runtime) &&
                                  !std::isnan(other_heavy_runtime) &&
                                  !std::isnan(other_light_runtime);
      if (key[4] == "compact") {
        std::snprintf(text, sizeof text,
                      "bully, %s, classes by %s, UGAL, link shares %s: mean interference (actual "
                      "/ alone runtime) of heavy communicators %.4f under %s against %.4f under "
                      "simple, of light ones %.4f against %.4f",
                      key[0].c_str(), key[1].c_str(), key[3].c_str(), other_heavy, other[2].c_str(),
                      heavy, other_light, light);
        m.notes.push_back(text);
      } else if (runtimes_known) {
        std::snprintf(text, sizeof text,
                      "bully, %s, classes by %s, UGAL, link shares %s, cap %s: mean runtime / "
                      "trace runtime (actual against alone-compact) of heavy communicators %.4f "
                      "under %s against %.4f under simple, of light ones %.4f against %.4f; mean "
                      "interference of heavy ones %.4f against %.4f, of light ones %.4f against "
                      "%.4f",
                      key[0].c_str(), key[1].c_str(), key[3].c_str(), key[4].c_str(),
                      other_heavy_runtime, other[2].c_str(), heavy_runtime, other_light_runtime,
                      light_runtime, other_heavy, heavy, other_light, light);
        m.notes.push_back(text);
      }
      if (other[2] != "random") continue;
      if (runtimes_known) {  // else said once above (no per-job table)
        auto& [runs, runtime_gains, runtime_loses] = runtime_counts[{key[1], key[3], key[4]}];
        ++runs;
        runtime_gains += other_heavy_runtime <= heavy_runtime - kBullyDirection;
        runtime_loses += other_light_runtime >= light_runtime + kBullyDirection;
      }
      if (key[1] != "draw" || key[4] != "compact") continue;
      auto& [shapes, gains, loses] = counts[key[3]];
      ++shapes;
      random_sums[key[3]][0] += other_heavy;
      random_sums[key[3]][1] += other_light;
      gains += other_heavy <= heavy - kBullyDirection;
      loses += other_light >= light + kBullyDirection;
    }
  }
  const auto summary = [](const Counts& c) {
    const auto& [shapes, gains, loses] = c;
    return "heavy communicators gain on " + std::to_string(gains) + " of " +
           std::to_string(shapes) + " dragonflies and light ones lose on " + std::to_string(loses) +
           " of " + std::to_string(shapes);
  };
  if (counts["equal"][0] == 0) return;
  const auto& [shapes, gains, loses] = counts["equal"];
  m.facts["yang/bully-heavy-gain-light-lose"] = gains == shapes && loses == shapes;
  m.notes.push_back(
      "bully: under random placement against simple (classes by draw), " +
      summary(counts["equal"]) +
      " (a change of mean interference below 0.005 counts as none). In the flow model as the "
      "check runs it (flow:cap=compact) no job communicates faster than alone on the compact "
      "reference allocation (spreading cannot speed a job's own exchange), so interference "
      "(actual / alone runtime on the job's own allocation) shows what other jobs cost a job, not "
      "what a placement gains it; and jobs sharing a link get equal max-min fair rates whatever "
      "their communication shares. The two isolating experiments follow.");
  if (counts["weighted"][0] > 0) {
    char text[600];
    const double n = counts["equal"][0], w = counts["weighted"][0];
    std::snprintf(text, sizeof text,
                  "bully, the experiment that isolates the sharing rule: the same runs with each "
                  "link shared in proportion to the jobs' communication shares "
                  "(flow:share=weighted): %s; under random placement the heavy communicators' "
                  "mean interference goes from %.4f (equal) to %.4f (weighted), the light ones' "
                  "from %.4f to %.4f (means over the dragonflies)",
                  summary(counts["weighted"]).c_str(), random_sums["equal"][0] / n,
                  random_sums["weighted"][0] / w, random_sums["equal"][1] / n,
                  random_sums["weighted"][1] / w);
    m.notes.push_back(text);
  }
  // The cap: each class's runtime / trace runtime under random against simple, per classes
  // (by), sharing rule and cap; "flips" where heavy ones gain and light ones lose on every
  // dragonfly.
  std::string cap_text;
  std::vector<std::string> flipped;
  for (const auto& [key, c] : runtime_counts) {
    cap_text += (cap_text.empty() ? "" : "; ") + std::string("classes by ") + key[0] +
                ", link shares " + key[1] + ", cap " + key[2] + ": " + summary(c);
    if (c[0] > 0 && c[1] == c[0] && c[2] == c[0])
      flipped.push_back("by " + key[0] + " / " + key[1] + " / cap " + key[2]);
  }
  if (runtime_counts.count({"draw", "equal", "none"})) {
    std::string flipped_text;
    for (const auto& f : flipped) flipped_text += (flipped_text.empty() ? "" : ", ") + f;
    m.notes.push_back(
        "bully, the experiment that isolates the compact-reference cap: the same runs with "
        "flow:cap=none (a job's rate bounded by its links only, so a spread job can run faster "
        "than alone-compact), compared on each class's mean runtime / trace runtime (actual "
        "against alone-compact; a change below 0.005 counts as none), random against simple: " +
        cap_text + ". Heavy communicators gain and light ones lose on every dragonfly under: " +
        (flipped.empty() ? std::string("none of these") : flipped_text) +
        ". (The check itself compares interference with classes drawn, cap compact and equal "
        "shares; its verdict does not use these runs.)");
  }
}

}  // namespace

Measurements dragonfly_placement(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/dragonfly-placement.toml" : "dragonfly-placement.toml",
      "dragonfly-placement");
  const GroupMeans means =
      group_means(results, {"shape", "pattern", "arrangement", "routing", "alloc"},
                  {"mean_response", "mean_comm_slowdown", "max_link_utilization",
                   "max_link_util_endpoint", "max_link_util_global", "max_link_util_router"});
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
  // Their hot spots are on router-to-router links (Jain et al.: "hot spots on global links"; the
  // links whose load routing and placement move), so the lowest maximum is taken over links
  // between routers (max_link_util_router, local and global); the maximum over all links
  // (injection and ejection included) is kept as a note.
  bool random_indirect_lowest = true, contiguous_minimal_above = true;
  // Kaplan et al.: per shape and pattern, the spread of communication time over arrangement x
  // routing x allocation, (worst - best) / worst.
  double widest = 0;
  for (const std::string& shape : shapes) {
    double lowest = std::numeric_limits<double>::infinity(), random_indirect = lowest;
    double contiguous_minimal = -1;
    std::string lowest_at;
    // The same over router links (the check) and the largest endpoint-link maximum.
    double lowest_router = std::numeric_limits<double>::infinity(),
           random_indirect_router = lowest_router;
    double lowest_global = lowest_router, endpoint = 0;
    std::string lowest_router_at, lowest_global_at;
    std::map<std::string, std::pair<double, double>> range;  // pattern -> (best, worst)
    for (const auto& [cell, v] : cells) {
      if (cell.shape != shape) continue;
      auto& [best, worst] = range.try_emplace(cell.pattern, 1e300, -1e300).first->second;
      best = std::min(best, comm_time(v)), worst = std::max(worst, comm_time(v));
      if (cell.pattern != "alltoall:auto" || cell.arrangement != "absolute") continue;
      const std::string at = cell.alloc + " / " + cell.routing;
      const double load = v.at("max_link_utilization").mean;
      const double router = v.at("max_link_util_router").mean;
      const double global = v.at("max_link_util_global").mean;
      endpoint = std::max(endpoint, v.at("max_link_util_endpoint").mean);
      if (load < lowest) lowest = load, lowest_at = at;
      if (router < lowest_router) lowest_router = router, lowest_router_at = at;
      if (global < lowest_global) lowest_global = global, lowest_global_at = at;
      const bool random_indirect_cell =
          contains(kRandom, cell.alloc) && contains(kIndirect, cell.routing);
      if (random_indirect_cell) {
        random_indirect = std::min(random_indirect, load);
        random_indirect_router = std::min(random_indirect_router, router);
      }
      if (cell.alloc == "simple" && cell.routing == "minimal") contiguous_minimal = load;
    }
    random_indirect_lowest = random_indirect_lowest && random_indirect_router <= lowest_router;
    contiguous_minimal_above = contiguous_minimal_above && contiguous_minimal > random_indirect;
    char text[600];
    std::snprintf(text, sizeof text,
                  "%s, all-to-all, absolute: lowest max utilization of a router-to-router link "
                  "%.3f (%s), of a global link %.3f (%s); random placement with indirect "
                  "routing %.3f on router links; over all links lowest %.3f (%s), random / "
                  "indirect %.3f, simple / minimal %.3f; injection and ejection links at most "
                  "%.3f",
                  shape.c_str(), lowest_router, lowest_router_at.c_str(), lowest_global,
                  lowest_global_at.c_str(), random_indirect_router, lowest, lowest_at.c_str(),
                  random_indirect, contiguous_minimal, endpoint);
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
  load_level(context, m);
  bully(context, m);
  // The figure: per shape, communication time and max link utilization of each placement
  // against the routing (all-to-all, absolute arrangement).
  Figure figure;
  figure.title =
      "Dragonfly placement, NASA log, EASY, flow:comm=0.5, all-to-all, absolute arrangement";
  for (const std::string metric : {"comm", "load"})
    for (const std::string& shape : shapes) {
      Panel panel{shape,
                  "routing",
                  metric == "comm" ? "communication time / trace runtime"
                                   : "max utilization of a router-to-router link",
                  false,
                  {},
                  false,
                  kRoutings};  // categorical: x = the routing's index in kRoutings
      std::map<std::string, Series> by_alloc;
      for (const auto& [cell, v] : cells) {
        if (cell.shape != shape || cell.pattern != "alltoall:auto" ||
            cell.arrangement != "absolute")
          continue;
        const double x = static_cast<double>(
            std::find(kRoutings.begin(), kRoutings.end(), cell.routing) - kRoutings.begin());
        Series& s = by_alloc.try_emplace(cell.alloc, Series{cell.alloc, {}, {}, {}}).first->second;
        s.x.push_back(x);
        s.y.push_back(metric == "comm" ? comm_time(v) : v.at("max_link_util_router").mean);
        s.error.push_back(metric == "comm" ? v.at("mean_comm_slowdown").ci95
                                           : v.at("max_link_util_router").ci95);
      }
      for (auto& [alloc, s] : by_alloc) {  // points in routing order (the map sorts by name)
        std::vector<std::size_t> order(s.x.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return s.x[a] < s.x[b]; });
        Series sorted{s.label, {}, {}, {}};
        for (std::size_t i : order)
          sorted.x.push_back(s.x[i]), sorted.y.push_back(s.y[i]),
              sorted.error.push_back(s.error[i]);
        panel.series.push_back(sorted);
      }
      figure.panels.push_back(panel);
    }
  write_figure(context, "dragonfly-placement", figure, m);
  return m;
}

}  // namespace allocsim::sweep::measure
