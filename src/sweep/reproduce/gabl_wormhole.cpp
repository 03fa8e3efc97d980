// Bani-Mohammad et al., GABL (Section 4.2, Figs. 3-5) under the message-level `wormhole`
// runtime model (the paper's simulator: wormhole routing, XY, all-to-all messages, contention
// between jobs): First Fit, Paging(0), MBS, ANCA and GABL on a 16x16 mesh against the load, for
// message lengths plen 8 ... 64. The paper prints its figures without numbers, so the study
// checks the trends its text states, each GABL-vs-other comparison three ways:
// - mean: on the means over replicates alone (the paper's reading of its curves);
// - unpaired: the two 95 % Student-t intervals over replicates are disjoint;
// - paired: the 95 % Student-t interval of the per-replicate differences lies on one side of 0.
//   Every config of one replicate runs the same job stream and, under `wormhole`, the same
//   message draws (they depend on the workload seed and the job id only), so the paired test
//   removes the stream's noise that the unpaired intervals carry twice.
// Loads: "high" = the largest of the sweep, "medium" = the middle one (the lower middle for an
// even count). See studies.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

struct Strategy {
  std::string spec, key, label;
};
const std::vector<Strategy> kStrategies{{"submesh:fit=first", "ff", "First Fit"},
                                        {"paging:size_index=0", "paging0", "Paging(0)"},
                                        {"mbs", "mbs", "MBS"},
                                        {"anca", "anca", "ANCA"},
                                        {"gabl", "gabl", "GABL"}};
/// The strategies the paper compares GABL with (ANCA is ours, reported in the notes only).
const std::vector<std::string> kPaperRivals{"submesh:fit=first", "paging:size_index=0", "mbs"};

const Strategy& strategy(const std::string& spec) {
  for (const auto& s : kStrategies)
    if (s.spec == spec) return s;
  return kStrategies.back();
}

/// values[plen][mean inter-arrival][alloc][metric][replicate]
using Runs =
    std::map<double,
             std::map<double, std::map<std::string, std::map<std::string, std::map<int, double>>>>>;

Interval over_replicates(const std::map<int, double>& values) {
  std::vector<double> v;
  for (const auto& [replicate, x] : values) v.push_back(x);
  return mean_interval(v);
}

std::string interval_text(const Interval& i, double scale = 1) {
  char text[64];
  std::snprintf(text, sizeof text, "%.4g ± %.2g", i.mean * scale, i.half * scale);
  return text;
}

std::string load_text(double mean_interarrival) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", 1 / mean_interarrival);
  return text;
}

}  // namespace

Measurements gabl_wormhole(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/gabl-wormhole.toml" : "gabl-wormhole.toml", "gabl-wormhole");
  const std::vector<std::string> metrics{"makespan", "mean_response", "utilization",
                                         "failed_messages"};
  const ReplicateValues replicates = replicate_values(results, {"plen", "mean", "alloc"}, metrics);
  Runs runs;
  for (const auto& [key, by_metric] : replicates.values)
    runs[key_number(results, "plen", key[0])][key_number(results, "mean", key[1])][key[2]] =
        by_metric;
  Measurements m;
  if (runs.empty()) {
    m.notes.push_back("no completed runs in the results");
    return m;
  }
  std::vector<double> means;  // mean inter-arrival times, from low load (long) to high (short)
  for (const auto& [mean, by_alloc] : runs.begin()->second) means.push_back(mean);
  std::sort(means.rbegin(), means.rend());
  const double base_plen = runs.begin()->first, long_plen = runs.rbegin()->first;
  const double high = means.back(), medium = means[(means.size() - 1) / 2];
  auto at = [&](double plen, double mean, const std::string& alloc, const std::string& metric) {
    return runs[plen][mean][alloc][metric];
  };
  double failed = 0;
  for (auto& [plen, by_mean] : runs)
    for (auto& [mean, by_alloc] : by_mean)
      for (auto& [alloc, by_metric] : by_alloc)
        for (const auto& [replicate, x] : by_metric["failed_messages"]) failed += x;

  // Fig. 5: every non-contiguous strategy above First Fit on utilization at the highest load.
  bool mean_above = true, paired_above = true;
  for (const auto& s : kStrategies) {
    if (s.key == "ff") continue;
    const auto& ours = at(base_plen, high, s.spec, "utilization");
    const auto& ff = at(base_plen, high, "submesh:fit=first", "utilization");
    mean_above = mean_above && over_replicates(ours).mean > over_replicates(ff).mean;
    paired_above = paired_above && paired_difference(ours, ff).above_zero();
  }
  m.facts["fig5/noncontiguous-above-ff/high/mean"] = mean_above;
  m.facts["fig5/noncontiguous-above-ff/high/paired"] = paired_above;
  {
    const Interval gabl = over_replicates(at(base_plen, high, "gabl", "utilization"));
    bool highest = true;
    for (const std::string rival : {"paging:size_index=0", "mbs"})
      highest =
          highest && gabl.mean >= over_replicates(at(base_plen, high, rival, "utilization")).mean;
    m.facts["fig5/gabl-highest-noncontiguous/high/mean"] = highest;
  }

  // Figs. 3 and 4: GABL lowest finish time and mean turnaround at medium and high load.
  std::vector<std::string> paired_notes;
  for (const auto& [metric, figure] : std::vector<std::pair<std::string, std::string>>{
           {"makespan", "fig3/finish"}, {"mean_response", "fig4/turnaround"}})
    for (const auto& [level, mean] :
         std::vector<std::pair<std::string, double>>{{"medium", medium}, {"high", high}}) {
      const auto& gabl = at(base_plen, mean, "gabl", metric);
      const Interval g = over_replicates(gabl);
      bool lowest = true;
      for (const auto& rival : kPaperRivals) {
        const auto& other = at(base_plen, mean, rival, metric);
        const Interval o = over_replicates(other);
        const Interval d = paired_difference(gabl, other);
        const std::string key = figure + "/" + level + "/gabl<" + strategy(rival).key;
        lowest = lowest && g.mean < o.mean;
        m.facts[key + "/unpaired"] =
            g.count > 1 && o.count > 1 && g.mean + g.half < o.mean - o.half;
        m.facts[key + "/paired"] = d.below_zero();
      }
      m.facts[figure + "/" + level + "/gabl-lowest/mean"] = lowest;
      std::string line = metric + " at load " + load_text(mean) + " (plen " +
                         std::to_string(static_cast<int>(base_plen)) + "), GABL " +
                         interval_text(g) + "; paired GABL - other:";
      for (const auto& s : kStrategies) {
        if (s.key == "gabl") continue;
        const Interval d = paired_difference(gabl, at(base_plen, mean, s.spec, metric));
        line += " " + s.label + " " + interval_text(d) + ",";
      }
      line.back() = ' ';
      paired_notes.push_back(line + "(mean ± 95 % half-width, time units)");
    }

  // Message length: GABL's relative turnaround advantage over each rival, 1 - GABL / other, at
  // the medium load, larger at the longest message than at the shortest.
  std::map<std::string, std::map<double, Interval>> advantage;  // [rival][plen], paired form
  for (const auto& rival : kPaperRivals) {
    std::map<int, double> grows;  // per replicate: advantage(long) - advantage(short)
    for (const auto& [plen, by_mean] : runs) {
      std::vector<double> per_replicate;
      for (const auto& [replicate, g] : at(plen, medium, "gabl", "mean_response")) {
        const auto& other = at(plen, medium, rival, "mean_response");
        if (const auto found = other.find(replicate); found != other.end() && found->second > 0) {
          per_replicate.push_back(1 - g / found->second);
          if (plen == long_plen) grows[replicate] += 1 - g / found->second;
          if (plen == base_plen) grows[replicate] -= 1 - g / found->second;
        }
      }
      advantage[rival][plen] = mean_interval(per_replicate);
    }
    auto of_means = [&](double plen) {
      return 1 - over_replicates(at(plen, medium, "gabl", "mean_response")).mean /
                     over_replicates(at(plen, medium, rival, "mean_response")).mean;
    };
    const std::string key = "fig4/advantage-grows-with-plen/medium/vs-" + strategy(rival).key;
    if (long_plen > base_plen) {
      m.facts[key + "/mean"] = of_means(long_plen) > of_means(base_plen);
      std::vector<double> d;
      for (const auto& [replicate, x] : grows) d.push_back(x);
      m.facts[key + "/paired"] = mean_interval(d).above_zero();
    }
  }
  for (const auto& rival : kPaperRivals) {
    const auto& by_plen = advantage[rival];
    std::string line = "GABL's turnaround reduction 1 - GABL/" + strategy(rival).label +
                       " at load " + load_text(medium) +
                       " (mean of per-replicate ratios ± 95 % half-width):";
    for (const auto& [plen, i] : by_plen)
      line +=
          " plen " + std::to_string(static_cast<int>(plen)) + " " + interval_text(i, 100) + " %,";
    line.pop_back();
    paired_notes.push_back(line);
  }

  // Figures: Figs. 3-5 at the base message length; GABL's advantage against message length.
  Figure figs;
  figs.title = "GABL study under wormhole routing, 16x16 mesh, FCFS, plen " +
               std::to_string(static_cast<int>(base_plen)) + " flits (mean and 95 % CI)";
  const std::vector<std::tuple<std::string, std::string, std::string, double>> panels{
      {"makespan", "Fig. 3: finish time", "finish time of all jobs (time units)", 1},
      {"mean_response", "Fig. 4: turnaround", "mean turnaround time (time units)", 1},
      {"utilization", "Fig. 5: utilization", "system utilization (%)", 100}};
  for (const auto& [metric, title, ylabel, scale] : panels) {
    Panel panel{title, "system load (jobs per time unit)", ylabel, metric != "utilization", {}};
    for (const auto& s : kStrategies) {
      Series series{s.label, {}, {}, {}};
      for (auto it = means.begin(); it != means.end(); ++it) {
        const Interval i = over_replicates(at(base_plen, *it, s.spec, metric));
        series.x.push_back(1 / *it);
        series.y.push_back(i.mean * scale);
        series.error.push_back(std::isfinite(i.half) ? i.half * scale : 0);
      }
      panel.series.push_back(series);
    }
    figs.panels.push_back(panel);
  }
  write_figure(context, "gabl-wormhole-figs3-5", figs, m);
  Figure length;
  length.title = "GABL's turnaround advantage against message length, load " + load_text(medium) +
                 " (paired, mean and 95 % CI)";
  Panel panel{"1 - GABL / other (mean turnaround)",
              "message length plen (flits)",
              "GABL's turnaround reduction (%)",
              false,
              {}};
  panel.logx = true;
  for (const auto& rival : kPaperRivals) {
    Series series{strategy(rival).label, {}, {}, {}};
    for (const auto& [plen, i] : advantage[rival]) {
      series.x.push_back(plen);
      series.y.push_back(100 * i.mean);
      series.error.push_back(std::isfinite(i.half) ? 100 * i.half : 0);
    }
    panel.series.push_back(series);
  }
  length.panels.push_back(panel);
  write_figure(context, "gabl-wormhole-plen", length, m);

  char text[320];
  std::snprintf(text, sizeof text,
                "loads %.4g..%.4g jobs per time unit (medium %.4g, high %.4g), plen %g..%g "
                "flits, %d replicates; %g messages failed (watchdog) over all runs",
                1 / means.front(), 1 / high, 1 / medium, 1 / high, base_plen, long_plen,
                over_replicates(at(base_plen, high, "gabl", "makespan")).count, failed);
  m.notes.push_back(text);
  m.notes.push_back(
      "verdicts: '/mean' compares the means over replicates only; '/unpaired' needs the two 95 % "
      "Student-t intervals over replicates to be disjoint; '/paired' needs the 95 % Student-t "
      "interval of the per-replicate differences (GABL - other; for message length the "
      "per-replicate reduction at the longest minus at the shortest plen) to exclude 0. Every "
      "config of a replicate sees the same job stream and message draws, so '/paired' is the "
      "proper test; Figs. 3-5 trends at the shortest plen, the paper's default");
  m.notes.push_back(
      "the paper compares GABL with First Fit, Paging(0) and MBS; ANCA is run too and appears "
      "in the figures and the paired intervals below, not in the verdicts");
  for (const auto& line : paired_notes) m.notes.push_back(line);
  return m;
}

}  // namespace allocsim::sweep::measure
