// Leung et al., "Processor allocation on Cplant" (CLUSTER 2002), Section 3, Fig. 1: the average
// bounding cube divided by the smallest bounding cube (top) and the average span (bottom) of
// one-dimensional allocation along row, snake and Hilbert orders, against the work multiple, on
// the simulated 8x8x5 machine. The paper runs Cplant traces of late 2000 that are not public; we
// use Sandia's Ross (Cplant) log, scaled to 320 processors. Fig. 1 is printed without numbers,
// so the study checks the trends of the text: locality improves over the baseline (row order,
// no fit) and worsens as the work multiple grows. See studies.hpp.
#include <algorithm>
#include <cstdio>

#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

const char* kMachine = "mesh:8x8x5";

std::string strategy_label(const std::string& order, const std::string& fit) {
  if (order == "row" && fit == "none") return "baseline (row, no fit)";
  return order + ", " + (fit == "none" ? "no fit" : fit + " fit");
}

}  // namespace

Measurements cplant_curves(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/cplant-curves.toml" : "cplant-curves.toml", "cplant-curves");
  const GroupMeans means = group_means(results, {"machine", "order", "fit", "work"},
                                       {"mean_bounding_cube_ratio", "mean_ring_span"});
  // value[metric][order/fit][work]
  std::map<std::string, std::map<std::pair<std::string, std::string>, std::map<double, double>>>
      value;
  for (const auto& [key, v] : means.values) {
    if (key[0] != kMachine) continue;
    for (const auto& [metric, x] : v)
      value[metric][{key[1], key[2]}][key_number(results, "work", key[3])] = x.mean;
  }
  Measurements m;
  const std::pair<std::string, std::string> baseline{"row", "none"}, hilbert{"hilbert", "best"};
  for (const std::string metric : {"mean_bounding_cube_ratio", "mean_ring_span"}) {
    const std::string name = metric == "mean_ring_span" ? "span" : "cube-ratio";
    auto& curves = value[metric];
    if (!curves.count(baseline) || !curves.count(hilbert)) continue;
    // Locality worsens with the work multiple: every strategy's value at the largest work
    // multiple above its value at the smallest.
    bool grows = true;
    for (const auto& [strategy, curve] : curves) {
      const bool this_grows = curve.rbegin()->second > curve.begin()->second;
      grows = grows && this_grows;
      if (this_grows) continue;
      // Which strategy breaks the trend, and by how much against its curve's whole range.
      double low = curve.begin()->second, high = low;
      for (const auto& [work, x] : curve) low = std::min(low, x), high = std::max(high, x);
      char text[256];
      std::snprintf(text, sizeof text,
                    "%s does not grow for %s: %.3f at work %g, %.3f at work %g (its curve spans "
                    "%.3f ... %.3f over all work multiples)",
                    name.c_str(), strategy_label(strategy.first, strategy.second).c_str(),
                    curve.begin()->second, curve.begin()->first, curve.rbegin()->second,
                    curve.rbegin()->first, low, high);
      m.notes.push_back(text);
    }
    m.facts["fig1/" + name + "-grows-with-work"] = grows;
    if (!grows && name == "cube-ratio" && !context.quick)
      m.notes.push_back(
          "cube-ratio growth, isolating experiment (experiments/cplant-contention.md, section "
          "cplant-curves): the same full run with span=linear (the former setting; the one "
          "change) keeps every strategy's cube ratio growing (row/best 12.883 -> 12.919, "
          "row/first 12.784 -> 13.168 from work 0.5 to 2). Row order's ratio is flat, 12.8-14.0 "
          "at every work multiple and fit, so the span rule's effect on the packing history "
          "decides the fact: row/first at work 0.5 averages 13.305 under ring span against "
          "12.784 under linear span, though only 181 of its 10,000 jobs wrap (their ratio 9.09; "
          "the others 13.38)");
    // Curves improve on the baseline: Hilbert with best fit below row order without a fit at
    // every work multiple.
    bool better = true;
    for (const auto& [work, x] : curves[hilbert]) better = better && x < curves[baseline][work];
    m.facts["fig1/" + name + "-hilbert-best-below-baseline"] = better;
  }
  Figure figure;
  figure.title = "Leung et al. Fig. 1 on the Ross trace, 8x8x5 mesh (320 processors), Cplant queue";
  for (const std::string metric : {"mean_bounding_cube_ratio", "mean_ring_span"}) {
    Panel panel{
        metric == "mean_ring_span" ? "average (ring) span" : "bounding cube / smallest cube",
        "work multiple (runtime factor)",
        metric == "mean_ring_span" ? "average span (processor ranks)"
                                   : "average bounding cube ratio (1 = smallest)",
        false,
        {}};
    for (const auto& [strategy, curve] : value[metric]) {
      Series series{strategy_label(strategy.first, strategy.second), {}, {}, {}, -1, -1};
      // Colour by order, line style by fit.
      const std::vector<std::string> orders{"row", "snake", "hilbert"},
          fits{"none", "first", "best", "sumsq"};
      series.colour = static_cast<int>(std::find(orders.begin(), orders.end(), strategy.first) -
                                       orders.begin());
      series.dash =
          static_cast<int>(std::find(fits.begin(), fits.end(), strategy.second) - fits.begin());
      for (const auto& [work, x] : curve) {
        series.x.push_back(work);
        series.y.push_back(x);
      }
      panel.series.push_back(series);
    }
    figure.panels.push_back(panel);
  }
  write_figure(context, "cplant-fig1", figure, m);
  m.notes.push_back(
      "Sandia Ross (Cplant) log scaled to 320 processors (size_scale 0.2099), first 10,000 jobs, "
      "Cplant queue (by processors, then requested time), running times held constant x work "
      "multiple; one deterministic run per point (no replicates). The paper's traces (Cplant, "
      "Oct-Dec 2000, 592 processors) are not public, so only Fig. 1's trends are compared");
  m.notes.push_back(
      "span is the ring span (Section 2.3: \"In this paper, we use ring span which we call "
      "span\"), "
      "minimised by the fits (span=ring) and plotted (mean_ring_span); it is measured along the "
      "processor order (ranks), so orders with the same fit have the same span: the span panel "
      "separates fits, the cube panel orders");
  return m;
}

}  // namespace allocsim::sweep::measure
