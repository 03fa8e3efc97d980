// Welford's running variance and Student-t intervals for `allocsim report`.
#include "allocsim/sweep/report/statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace allocsim::sweep {

void RunningStats::add(double value) {
  ++count_;
  if (count_ == 1) {
    mean_ = min_ = max_ = value;
    m2_ = 0;
    return;
  }
  const double delta = value - mean_;
  mean_ += delta / static_cast<double>(count_);
  m2_ += delta * (value - mean_);
  if (value < min_) min_ = value;
  if (value > max_) max_ = value;
}

double RunningStats::mean() const {
  return count_ > 0 ? mean_ : std::numeric_limits<double>::quiet_NaN();
}

double RunningStats::variance() const {
  if (count_ < 2) return std::numeric_limits<double>::quiet_NaN();
  if (min_ == max_) return 0.0;
  return std::max(0.0, m2_ / static_cast<double>(count_ - 1));
}

double student_t_quantile(double probability, std::int64_t degrees_of_freedom) {
  const boost::math::students_t distribution(static_cast<double>(degrees_of_freedom));
  return boost::math::quantile(distribution, probability);
}

double t_interval_half_width(const RunningStats& stats, double confidence) {
  if (stats.count() < 2) return std::numeric_limits<double>::quiet_NaN();
  if (stats.identical()) return 0.0;
  const double n = static_cast<double>(stats.count());
  return student_t_quantile(1 - (1 - confidence) / 2, stats.count() - 1) *
         std::sqrt(stats.variance() / n);
}

}  // namespace allocsim::sweep
