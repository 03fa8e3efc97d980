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
/// A group key's text (from column `column` of the result file `results`) as a number; throws
/// InputError naming the file, the column and the value when it is not one (a damaged file).
double key_number(const std::string& results, const std::string& column, const std::string& text);

/// Per-replicate values of metrics in a result file (done configs only), for paired
/// comparisons: every config of one replicate runs the same job stream (the sweep gives them one
/// workload seed), so differences between settings within a replicate cancel the stream's noise.
struct ReplicateValues {
  /// values[group key (display text of each group_by column)][metric][replicate]
  std::map<std::vector<std::string>, std::map<std::string, std::map<int, double>>> values;
};
ReplicateValues replicate_values(const std::string& results,
                                 const std::vector<std::string>& group_by,
                                 const std::vector<std::string>& metrics);

/// A mean and the half-width of its 95 % Student-t interval (NaN below two values).
struct Interval {
  double mean = 0, half = 0;
  int count = 0;
  bool above_zero() const { return count > 1 && mean - half > 0; }
  bool below_zero() const { return count > 1 && mean + half < 0; }
};
Interval mean_interval(const std::vector<double>& values);
/// The paired comparison: the interval of a[r] - b[r] over the replicates both have.
Interval paired_difference(const std::map<int, double>& a, const std::map<int, double>& b);

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
  bool logx = false;
  /// A categorical x axis: tick i, at x = i, labelled xticks[i] (empty: a numeric axis).
  std::vector<std::string> xticks{};
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
Measurements dragonfly_placement(const StudyContext& context);
Measurements gabl_wormhole(const StudyContext& context);
Measurements agarwal_network(const StudyContext& context);
Measurements agarwal_mapping(const StudyContext& context);
Measurements cplant_contention(const StudyContext& context);

}  // namespace allocsim::sweep::measure
