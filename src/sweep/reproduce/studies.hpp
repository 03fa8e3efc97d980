#pragma once
// The measurement functions of the studies (one per table row of studies.cpp).
#include <map>
#include <string>
#include <vector>

#include "allocsim/sweep/reproduce/reproduce.hpp"

namespace allocsim::sweep::measure {

/// Runs `experiment` (a file under experiments/) through the context's sweep runner into
/// <output>/<name>.h5 and returns that path; InputError when the sweep did not complete.
std::string run_experiment(const StudyContext& context, const std::string& experiment,
                           const std::string& name);

/// Per-group means of metrics in a result file (replicates averaged, as `allocsim report`).
struct GroupMeans {
  struct Value {
    double mean = 0;
    double ci95 = 0;  ///< half-width of the 95 % confidence interval over replicates (0: none)
  };
  /// values[group key (display text of each group_by column)][metric]
  std::map<std::vector<std::string>, std::map<std::string, Value>> values;
};
GroupMeans group_means(const std::string& results, const std::vector<std::string>& group_by,
                       const std::vector<std::string>& metrics);

/// A figure: panels of series with 95 % intervals, drawn by tools/plot_study.py.
struct Series {
  std::string label;
  std::vector<double> x, y, error;
  int colour = -1;  ///< colour index (-1: by position)
  int dash = -1;    ///< line-style index (-1: by position)
};
struct Panel {
  std::string title, xlabel, ylabel;  ///< axis labels carry their units
  bool logy = false;
  std::vector<Series> series;
};
struct Figure {
  std::string title;
  std::vector<Panel> panels;
};
/// Writes <output>/<name>.png and .pdf (and the .figure.json they are drawn from) and records
/// the PNG in m.figures; a note instead when the plot script fails. Returns the PNG name or "".
std::string write_figure(const StudyContext& context, const std::string& name, const Figure& figure,
                         Measurements& m);

Measurements bender_table1(const StudyContext& context, const std::string& experiment);
Measurements bender_fig2(const StudyContext& context);
Measurements bender_mm_tight(const StudyContext& context);
Measurements gabl(const StudyContext& context);
Measurements cplant_curves(const StudyContext& context);
Measurements mao(const StudyContext& context, const std::string& machine);

}  // namespace allocsim::sweep::measure
