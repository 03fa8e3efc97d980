#pragma once
// Statistics of `allocsim report`: a numerically stable running mean and variance, and the
// Student-t confidence interval of a mean (quantiles from Boost.Math, not a table).
#include <cstdint>

namespace allocsim::sweep {

/// Running count, mean, sample variance, minimum and maximum of a stream of values, by
/// Welford's update (Welford 1962; Knuth, TAOCP vol. 2, 4.2.2): the variance is accumulated
/// from deviations to the running mean, so equal values give exactly 0 (the textbook
/// Σx² − n·mean² loses every digit when the values are large and close).
class RunningStats {
 public:
  void add(double value);
  std::int64_t count() const { return count_; }
  double mean() const;      ///< NaN when empty
  double variance() const;  ///< sample variance (n − 1); NaN below two values
  double min() const { return min_; }
  double max() const { return max_; }
  /// True when there are at least two values and all are equal.
  bool identical() const { return count_ > 1 && min_ == max_; }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0, m2_ = 0, min_ = 0, max_ = 0;
};

/// The `probability` quantile of Student's t distribution with `degrees_of_freedom` (> 0).
double student_t_quantile(double probability, std::int64_t degrees_of_freedom);

/// Half-width of the two-sided `confidence` interval of the mean of the values:
/// t(1 − (1 − confidence)/2, n − 1) · s / √n. NaN below two values; exactly 0 when all values
/// are identical.
double t_interval_half_width(const RunningStats& stats, double confidence = 0.95);

}  // namespace allocsim::sweep
