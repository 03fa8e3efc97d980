// Bani-Mohammad et al., GABL (Section 4.2, Figs. 3-5): finish time, mean turnaround time and
// utilization of First Fit, Paging(0), MBS and GABL against the system load on a 16x16 mesh.
// The paper prints its figures without numbers, so the study checks the trends its text states,
// under the `dispersal` runtime model (a job runs longer the more spread its allocation: the
// communication cost that separates the strategies; with fixed runtimes every non-contiguous
// strategy yields the same schedule). See studies.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

struct Strategy {
  std::string spec, label;
};
const std::vector<Strategy> kStrategies{{"submesh:fit=first", "First Fit"},
                                        {"paging:size_index=0", "Paging(0)"},
                                        {"mbs", "MBS"},
                                        {"gabl", "GABL"}};
const char* kModel = "dispersal:alpha=0.1";

}  // namespace

Measurements gabl(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/gabl-mesh16.toml" : "gabl-mesh16.toml", "gabl");
  const std::vector<std::string> metrics{"makespan", "mean_response", "utilization"};
  const GroupMeans means = group_means(results, {"runtime_model", "alloc", "mean"}, metrics);
  // value[metric][strategy][load]
  std::map<std::string, std::map<std::string, std::map<double, GroupMeans::Value>>> value;
  std::vector<double> loads;
  for (const auto& [key, by_metric] : means.values) {
    if (key[0] != kModel) continue;
    const double load = 1.0 / key_number(results, "mean", key[2]);
    const double rounded = std::round(load * 100) / 100;
    if (std::find(loads.begin(), loads.end(), rounded) == loads.end()) loads.push_back(rounded);
    for (const auto& [metric, v] : by_metric) value[metric][key[1]][rounded] = v;
  }
  std::sort(loads.begin(), loads.end());
  Measurements m;
  if (loads.empty()) {
    m.notes.push_back("no runs of the dispersal runtime model in the results");
    return m;
  }
  const double low = loads.front(), high = loads.back();
  auto at = [&](const std::string& metric, const std::string& spec, double load) {
    return value[metric][spec][load].mean;
  };
  // Fig. 3: equal finish times at low load (within 5 %), GABL lowest at the highest load.
  double lowest = std::numeric_limits<double>::max(), highest = 0;
  for (const auto& s : kStrategies) {
    lowest = std::min(lowest, at("makespan", s.spec, low));
    highest = std::max(highest, at("makespan", s.spec, low));
  }
  m.numbers["fig3/low-load-spread"] = highest / lowest - 1;
  auto gabl_lowest = [&](const std::string& metric, double load) {
    for (const auto& s : kStrategies)
      if (at(metric, "gabl", load) > at(metric, s.spec, load)) return false;
    return true;
  };
  m.facts["fig3/gabl-lowest-at-high-load"] = gabl_lowest("makespan", high);
  // Fig. 4: GABL lowest mean turnaround at high load, and below First Fit at every load.
  m.facts["fig4/gabl-lowest-at-high-load"] = gabl_lowest("mean_response", high);
  bool below_first_fit = true;
  for (const double load : loads)
    below_first_fit = below_first_fit && at("mean_response", "gabl", load) <=
                                             at("mean_response", "submesh:fit=first", load);
  m.facts["fig4/gabl-below-first-fit-every-load"] = below_first_fit;
  // Fig. 5: every non-contiguous strategy above First Fit at every load; GABL highest of them
  // at the highest load.
  bool above_first_fit = true;
  for (const double load : loads)
    for (const auto& s : kStrategies)
      if (s.spec != "submesh:fit=first")
        above_first_fit = above_first_fit && at("utilization", s.spec, load) >=
                                                 at("utilization", "submesh:fit=first", load);
  m.facts["fig5/noncontiguous-above-first-fit-every-load"] = above_first_fit;
  m.facts["fig5/gabl-highest-at-high-load"] =
      at("utilization", "gabl", high) >= at("utilization", "paging:size_index=0", high) &&
      at("utilization", "gabl", high) >= at("utilization", "mbs", high);
  char line[240];
  std::snprintf(line, sizeof line,
                "utilization at load %.2f (mean and 95 %% CI over replicas): First Fit %.2f "
                "± %.2f %%, Paging(0) %.2f ± %.2f %%, MBS %.2f ± %.2f %%, GABL %.2f ± %.2f %%",
                high, 100 * at("utilization", "submesh:fit=first", high),
                100 * value["utilization"]["submesh:fit=first"][high].ci95,
                100 * at("utilization", "paging:size_index=0", high),
                100 * value["utilization"]["paging:size_index=0"][high].ci95,
                100 * at("utilization", "mbs", high), 100 * value["utilization"]["mbs"][high].ci95,
                100 * at("utilization", "gabl", high),
                100 * value["utilization"]["gabl"][high].ci95);
  m.notes.push_back(line);
  m.notes.push_back(
      "under the dispersal model the utilization counts each job's lengthened running time, so "
      "a more dispersed allocation also adds busy time; differences between the "
      "non-contiguous strategies far inside the replicas' 95 % CI are not a ranking");
  // The three figures, as in the paper (x = load = 1 / mean inter-arrival time).
  const std::vector<std::tuple<std::string, std::string, std::string, double>> panels{
      {"makespan", "Fig. 3: finish time", "finish time of all jobs (time units)", 1},
      {"mean_response", "Fig. 4: turnaround", "mean turnaround time (time units)", 1},
      {"utilization", "Fig. 5: utilization", "system utilization (%)", 100}};
  Figure figure;
  figure.title = "GABL study, 16x16 mesh, FCFS, dispersal runtime model (mean and 95 % CI)";
  for (const auto& [metric, title, ylabel, scale] : panels) {
    Panel panel{title, "system load (jobs per time unit)", ylabel, false, {}};
    for (const auto& s : kStrategies) {
      Series series{s.label, {}, {}, {}};
      for (const double load : loads) {
        series.x.push_back(load);
        series.y.push_back(value[metric][s.spec][load].mean * scale);
        series.error.push_back(value[metric][s.spec][load].ci95 * scale);
      }
      panel.series.push_back(series);
    }
    figure.panels.push_back(panel);
  }
  write_figure(context, "gabl-figs3-5", figure, m);
  char text[200];
  std::snprintf(text, sizeof text,
                "loads %.2f..%.2f jobs per time unit; trends read under the %s runtime model", low,
                high, kModel);
  m.notes.push_back(text);
  m.notes.push_back(
      "the paper prints Figs. 3-5 without numbers: only the trends its text states are "
      "compared; its wormhole-routing message model is approximated by the dispersal runtime "
      "model (the network-level study is gabl-wormhole)");
  return m;
}

}  // namespace allocsim::sweep::measure
