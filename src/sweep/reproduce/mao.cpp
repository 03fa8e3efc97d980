// Mao, Chen & Watson (HPC Asia 2005), Section 4.4, Figs. 3-7: saturation points of FCFS and
// backfilling with the Equal (EP) and Non-Equal (NEP) partition subtorus allocators and the flat
// machine, on the NASA iPSC/860 and SDSC SP2 logs, on QCDOC (2x2x2x4x4x8) or JLab (2x2x2x6x8).
//
// Saturation point (docs/REPRODUCTIONS.md; readings in mao_reading.hpp):
// - primary (`…/sat`, `…/sat-load`): where utilization stops following offered load, the
//   paper's own reading ("saturates at 55% starting at a low system load value of 0.56"): the
//   first point in rising c with load - utilization > kMargin, interpolated. The paper gives no
//   margin: kMargin is 2 points (its two FCFS sentences pair 55 % with 0.56 and 60 % with 0.62,
//   gaps of 1 and 2 points) and the notes print the reading for every margin of kMargins.
// - secondary (`…/bsd10`): the utilization at which mean bounded slowdown first exceeds 10.
// - `…/plateau`: the largest utilization over the sweep.
// Bounds (the criterion already met at the first point, or never) are reported as such in the
// notes and compared only as facts.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mao_reading.hpp"
#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

using mao_reading::CurvePoint;
using mao_reading::Saturation;

constexpr double kSlowdownThreshold = 10;
/// Primary margin of load over utilization (fraction of capacity), and the margins swept.
constexpr double kMargin = 0.02;
constexpr double kMargins[] = {0.01, 0.02, 0.05, 0.10};
/// "similar mean job bounded slowdown": highest / lowest of the four combinations at most this.
constexpr double kSimilarRatio = 2;
constexpr double kSimilarUpTo = 0.50;

std::string short_trace(const std::string& trace) {
  return trace.rfind("NASA", 0) == 0 ? "nasa" : trace.rfind("SDSC", 0) == 0 ? "sdsc" : trace;
}

std::string short_alloc(const std::string& alloc) {
  if (alloc == "subtorus:scheme=ep") return "ep";
  if (alloc == "subtorus:scheme=nep") return "nep";
  return alloc;
}

std::string bound_text(const Saturation& s) {
  return mao_reading::kind_text(s.kind);
}

/// Numbers, facts and a note for one curve.
void read_curve(const std::string& name, const std::vector<CurvePoint>& curve, Measurements& m) {
  const Saturation sat = mao_reading::load_saturation(curve, kMargin);
  const Saturation bsd = mao_reading::slowdown_saturation(curve, kSlowdownThreshold);
  double plateau = 0;
  for (const auto& p : curve) plateau = std::max(plateau, p.utilization);
  m.numbers[name + "/plateau"] = 100 * plateau;
  // Only a crossing is a measured number; a lower bound can still establish an "above X" fact.
  if (sat.kind == Saturation::crossing) {
    m.numbers[name + "/sat"] = 100 * sat.utilization;
    m.numbers[name + "/sat-load"] = sat.load;
  }
  if (bsd.kind == Saturation::crossing) m.numbers[name + "/bsd10"] = 100 * bsd.utilization;
  auto at_least = [&](const Saturation& s, const std::string& what, double value, double x) {
    // at_most bounds cannot prove "at least"; crossings and at_least bounds can.
    m.facts[name + "/" + what] = s.kind != Saturation::at_most && value >= x;
  };
  at_least(sat, "sat-at-least-85", sat.utilization, 0.85);
  at_least(sat, "sat-load-at-least-0.85", sat.load, 0.85);
  at_least(bsd, "bsd10-at-least-75", bsd.utilization, 0.75);
  at_least(bsd, "bsd10-at-least-85", bsd.utilization, 0.85);
  char buffer[96];
  std::snprintf(buffer, sizeof buffer, "%s %.1f %% at load %.3f; by margin",
                bound_text(sat).c_str(), 100 * sat.utilization, sat.load);
  std::string text = name + ": saturation (load - utilization > 2 points) " + buffer;
  for (double margin : kMargins) {
    const Saturation s = mao_reading::load_saturation(curve, margin);
    std::snprintf(buffer, sizeof buffer, " %.0f: %s %.1f %%;", 100 * margin, bound_text(s).c_str(),
                  100 * s.utilization);
    text += buffer;
  }
  std::snprintf(buffer, sizeof buffer, " slowdown-10 %s %.1f %%; plateau %.1f %%",
                bound_text(bsd).c_str(), 100 * bsd.utilization, 100 * plateau);
  text += buffer;
  m.notes.push_back(text);
}

}  // namespace

Measurements mao(const StudyContext& context, const std::string& machine) {
  const std::string name = "mao-" + machine;
  const std::string results =
      run_experiment(context, (context.quick ? "quick/" : "") + name + ".toml", name);
  const GroupMeans means = group_means(results, {"trace", "sched", "alloc", "c"},
                                       {"utilization", "mean_bounded_slowdown", "offered_load"});
  std::map<std::string, std::vector<CurvePoint>> curves;  // "nasa/fcfs/ep"
  for (const auto& [key, v] : means.values)
    curves[short_trace(key[0]) + "/" + key[1] + "/" + short_alloc(key[2])].push_back(
        {key_number(results, "c", key[3]), v.at("utilization").mean,
         v.at("mean_bounded_slowdown").mean, v.at("offered_load").mean});
  Measurements m;
  for (auto& [curve_name, curve] : curves) {
    std::sort(curve.begin(), curve.end(),
              [](const CurvePoint& a, const CurvePoint& b) { return a.c < b.c; });
    read_curve(curve_name, curve, m);
  }
  // Fig. 7 (SDSC on QCDOC): the same readings under their own keys.
  for (const std::string curve : {"sdsc/fcfs/ep", "sdsc/fcfs/nep", "sdsc/easy/ep", "sdsc/easy/nep"})
    for (const std::string what : {"/sat", "/sat-load"})
      if (m.numbers.count(curve + what))
        m.numbers["fig7/" + curve + what] = m.numbers[curve + what];
  for (const std::string trace : {"nasa", "sdsc"}) {
    const std::string p = trace + "/fcfs/";
    auto has = [&](const std::string& key) { return m.numbers.count(key) > 0; };
    if (has(p + "ep/plateau") && has(p + "nep/plateau") && has(p + "flat/plateau"))
      m.facts[trace + "/fcfs/ep<=nep<=flat"] =
          m.numbers[p + "ep/plateau"] <= m.numbers[p + "nep/plateau"] &&
          m.numbers[p + "nep/plateau"] <= m.numbers[p + "flat/plateau"];
    if (has(p + "ep/sat") && has(p + "nep/sat") && has(p + "flat/sat"))
      m.facts[trace + "/fcfs/sat:ep<=nep<=flat"] =
          m.numbers[p + "ep/sat"] <= m.numbers[p + "nep/sat"] &&
          m.numbers[p + "nep/sat"] <= m.numbers[p + "flat/sat"];
    if (has(trace + "/easy/nep/plateau") && has(p + "nep/plateau"))
      m.facts[trace + "/easy-nep-above-fcfs-nep"] =
          m.numbers[trace + "/easy/nep/plateau"] > m.numbers[p + "nep/plateau"];
    // "All four ... combinations provide similar mean job bounded slowdown for utilization up
    // to 50%": highest / lowest of the four at every c where all four are at or below 50 %.
    std::vector<std::vector<CurvePoint>> four;
    for (const std::string combination : {"fcfs/ep", "fcfs/nep", "easy/ep", "easy/nep"})
      if (curves.count(trace + "/" + combination))
        four.push_back(curves[trace + "/" + combination]);
    if (four.size() == 4) {
      const double spread = mao_reading::slowdown_spread(four, kSimilarUpTo);
      if (std::isfinite(spread)) {
        m.numbers[trace + "/bsd-spread-up-to-50"] = spread;
        m.facts[trace + "/similar-bsd-up-to-50"] = spread <= kSimilarRatio;
        char text[200];
        std::snprintf(text, sizeof text,
                      "%s: up to 50 %% utilization the four combinations' mean bounded "
                      "slowdowns differ by a factor of at most %.2f (similar: <= %.0f)",
                      trace.c_str(), spread, kSimilarRatio);
        m.notes.push_back(text);
      }
    }
  }
  // Figures: bounded slowdown against utilization (Figs. 3-6) and utilization against offered
  // load (Fig. 7), one pair of panels per trace.
  Figure figure;
  figure.title = "Mao et al., " +
                 std::string(machine == "qcdoc" ? "QCDOC 2x2x2x4x4x8" : "JLab 2x2x2x6x8") +
                 " torus (runtime multiple c swept; deterministic traces, no replicates)";
  for (const std::string trace : {"nasa", "sdsc"}) {
    Panel slowdown{trace == "nasa" ? "NASA iPSC/860" : "SDSC SP2",
                   "utilization (%)",
                   "mean bounded slowdown (10 s bound)",
                   true,
                   {}};
    Panel load{trace == "nasa" ? "NASA iPSC/860" : "SDSC SP2",
               "offered load (work / capacity)",
               "utilization (%)",
               false,
               {}};
    double top_load = 0;
    for (const std::string sched : {"fcfs", "easy"})
      for (const std::string alloc : {"ep", "nep", "flat"}) {
        const auto found = curves.find(trace + "/" + sched + "/" + alloc);
        if (found == curves.end()) continue;
        std::string label =
            (sched == "fcfs" ? "FCFS " : "backfill ") + std::string(alloc == "flat" ? "flat"
                                                                    : alloc == "ep" ? "EP"
                                                                                    : "NEP");
        Series a{label, {}, {}, {}}, b{label, {}, {}, {}};
        for (const auto& point : found->second) {
          a.x.push_back(100 * point.utilization);
          a.y.push_back(point.slowdown);
          b.x.push_back(point.load);
          b.y.push_back(100 * point.utilization);
          top_load = std::max(top_load, point.load);
        }
        slowdown.series.push_back(a);
        load.series.push_back(b);
      }
    if (!slowdown.series.empty()) {
      // Utilization = offered load (up to full capacity): the primary reading is where a curve
      // leaves this line by more than 2 points.
      const double top = std::min(top_load, 1.0);
      load.series.push_back({"utilization = load", {0, top}, {0, 100 * top}, {}, 7, 3});
      figure.panels.push_back(slowdown);
      figure.panels.push_back(load);
    }
  }
  write_figure(context, name + "-figs", figure, m);
  m.notes.push_back(
      "saturation point: (primary, …/sat) the first point in rising c at which offered load "
      "exceeds utilization by more than 2 points, interpolated; the notes give it for margins "
      "of 1, 2, 5 and 10 points; (secondary, …/bsd10) the utilization at which mean bounded "
      "slowdown first exceeds 10; (…/plateau) the largest utilization over the sweep; bounds "
      "are marked and compared only as facts");
  return m;
}

}  // namespace allocsim::sweep::measure
