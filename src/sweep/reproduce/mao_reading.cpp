// Readings of a Mao et al. curve: saturation against offered load, the slowdown-10 crossing and
// the spread of slowdowns at low utilization; see mao_reading.hpp.
#include "mao_reading.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace allocsim::sweep::measure::mao_reading {

namespace {

/// The first point at which value(point) > limit, interpolated in value from the point before.
template <class Value>
Saturation first_above(const std::vector<CurvePoint>& curve, double limit, Value value) {
  Saturation s;
  if (curve.empty()) {
    s.utilization = s.load = NAN;
    return s;
  }
  for (std::size_t i = 0; i < curve.size(); ++i) {
    if (!(value(curve[i]) > limit)) continue;
    if (i == 0) {
      s.utilization = curve[0].utilization;
      s.load = curve[0].load;
      s.kind = Saturation::at_most;
      return s;
    }
    const CurvePoint& a = curve[i - 1];
    const CurvePoint& b = curve[i];
    const double t = (limit - value(a)) / (value(b) - value(a));
    s.utilization = a.utilization + t * (b.utilization - a.utilization);
    s.load = a.load + t * (b.load - a.load);
    return s;
  }
  s.kind = Saturation::at_least;
  const auto top = std::max_element(curve.begin(), curve.end(), [](const auto& a, const auto& b) {
    return a.utilization < b.utilization;
  });
  s.utilization = top->utilization;
  s.load = curve.back().load;
  return s;
}

}  // namespace

Saturation load_saturation(const std::vector<CurvePoint>& curve, double margin) {
  return first_above(curve, margin, [](const CurvePoint& p) { return p.load - p.utilization; });
}

Saturation slowdown_saturation(const std::vector<CurvePoint>& curve, double threshold) {
  return first_above(curve, threshold, [](const CurvePoint& p) { return p.slowdown; });
}

double slowdown_spread(const std::vector<std::vector<CurvePoint>>& curves, double up_to) {
  if (curves.empty()) return NAN;
  // c -> (points seen, lowest, highest slowdown) over the curves' points with U <= up_to.
  struct Range {
    std::size_t count = 0;
    double low = INFINITY, high = -INFINITY;
  };
  std::map<double, Range> at;
  for (const auto& curve : curves)
    for (const auto& p : curve) {
      if (p.utilization > up_to) continue;
      Range& r = at[p.c];
      ++r.count;
      r.low = std::min(r.low, p.slowdown);
      r.high = std::max(r.high, p.slowdown);
    }
  double spread = NAN;
  for (const auto& [c, r] : at) {
    if (r.count != curves.size()) continue;
    const double ratio = r.high / r.low;
    spread = std::isnan(spread) ? ratio : std::max(spread, ratio);
  }
  return spread;
}

std::string kind_text(Saturation::Kind kind) {
  return kind == Saturation::crossing ? "at" : kind == Saturation::at_most ? "at most" : "at least";
}

}  // namespace allocsim::sweep::measure::mao_reading
