#pragma once
// How the Mao et al. study reads a curve of the runtime-multiple sweep (src/sweep/reproduce/
// mao.cpp): the saturation point from utilization against offered load (primary, the paper's
// Fig. 7 reading), the slowdown-10 crossing (secondary) and the "similar slowdown" check.
// Pure functions of the curve, so that tests check them on hand-made curves.
#include <string>
#include <vector>

namespace allocsim::sweep::measure::mao_reading {

/// One point of a curve (one runtime multiple c): utilization and offered load as fractions.
struct CurvePoint {
  double c = 0, utilization = 0, slowdown = 0, load = 0;
};

/// A saturation point read off a curve. `crossing` is interpolated between two neighbouring
/// points; `at_most` means the first point already satisfies the criterion (the crossing lies
/// at or below it: a bound); `at_least` means no point does (the largest utilization reached,
/// at the largest load, is a lower bound).
struct Saturation {
  enum Kind { crossing, at_most, at_least };
  double utilization = 0;  ///< NaN for an empty curve
  double load = 0;         ///< offered load at the same point (interpolated alike)
  Kind kind = crossing;
};

/// Primary reading. Paper, Section 4.4: "The system utilization for FCFS with the Equal
/// Partition saturates at 55% starting at a low system load value of 0.56." Utilization
/// saturates where it stops following offered load: the first point (in rising c) at which
/// load - utilization > margin, interpolated linearly in that gap between it and the point
/// before. Below saturation utilization equals offered load up to the drain of the last jobs
/// (a fraction of a point on whole traces).
Saturation load_saturation(const std::vector<CurvePoint>& curve, double margin);

/// Secondary reading: the utilization at which mean bounded slowdown first exceeds `threshold`
/// in rising c, interpolated linearly in slowdown.
Saturation slowdown_saturation(const std::vector<CurvePoint>& curve, double threshold);

/// Paper, Section 4.4 (Fig. 3): "All four processor allocation and job scheduling combinations
/// provide similar mean job bounded slowdown for utilization up to 50%." The largest ratio
/// (highest / lowest mean bounded slowdown among the curves) over the runtime multiples c at
/// which every curve has a point with utilization <= up_to; NaN when there is no such c.
double slowdown_spread(const std::vector<std::vector<CurvePoint>>& curves, double up_to);

/// "at", "at most", "at least": how a Saturation is printed.
std::string kind_text(Saturation::Kind kind);

}  // namespace allocsim::sweep::measure::mao_reading
