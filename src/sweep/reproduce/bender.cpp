// The Bender et al. studies (Algorithmica 2008): Table 1 (situation/decision, through the sweep
// engine), Fig. 2 (optimal unconstrained clusters, computed directly) and the 7/4 tight example
// of MM (Section 2.2, computed directly). See studies.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/sweep/report/report.hpp"
#include "allocsim/sweep/store/results.hpp"
#include "allocsim/util/error.hpp"
#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

/// Short names of Table 1's allocators, keyed by their spec in experiments/bender-table1.toml.
std::string table1_name(const std::string& spec) {
  if (spec.rfind("mc1x1", 0) == 0) return "mc1x1";
  if (spec.rfind("mm-inc", 0) == 0) return "mm-inc";
  if (spec.rfind("mm", 0) == 0) return "mm";
  if (spec.rfind("curve:order=hilbert", 0) == 0) return "hilbert-bf";
  return spec;
}

const std::vector<std::string> kTable1Order{"mc1x1", "mm", "mm-inc", "hilbert-bf"};

}  // namespace

Measurements bender_table1(const StudyContext& context, const std::string& experiment) {
  const std::string results = run_experiment(context, experiment, "bender-table1");
  const ResultTables tables = read_result_tables(results);
  const h5::Table matrix = decision_matrix(results, tables, {"alloc"});
  Measurements m;
  // cell[situation][decision]
  std::map<std::string, std::map<std::string, double>> cell;
  for (std::size_t r = 0; r < matrix.rows(); ++r) {
    const std::string situation = table1_name(matrix.text(r, 0));
    for (std::size_t c = 1; c < matrix.columns().size(); ++c) {
      const std::string decision = table1_name(matrix.columns()[c].name);
      cell[situation][decision] = matrix.number(r, c);
      m.numbers[situation + "/" + decision] = matrix.number(r, c);
    }
  }
  auto has = [&](const std::string& s, const std::string& d) {
    return cell.count(s) && cell[s].count(d);
  };
  // Order facts: MM+Inc <= MM <= MC1x1 <= Hilbert BF within each row; the Hilbert BF situation
  // row lowest in every column.
  for (const auto& s : kTable1Order) {
    bool complete = true;
    for (const auto& d : kTable1Order) complete = complete && has(s, d);
    if (!complete) continue;
    auto& row = cell[s];
    m.facts["order/" + s] = row["mm-inc"] <= row["mm"] && row["mm"] <= row["mc1x1"] &&
                            row["mc1x1"] <= row["hilbert-bf"];
  }
  bool lowest = true, complete = true;
  for (const auto& d : kTable1Order)
    for (const auto& s : kTable1Order) {
      if (!has(s, d) || !has("hilbert-bf", d)) {
        complete = false;
        continue;
      }
      lowest = lowest && cell["hilbert-bf"][d] <= cell[s][d];
    }
  if (complete) m.facts["order/hilbert-bf-row-lowest"] = lowest;
  m.notes.push_back(
      "mean sum of pairwise distances per placement; rows: situation allocator, columns: "
      "decision allocator; LLNL T3D trace on a 16x16 mesh, EASY backfilling, estimates = "
      "runtimes; mc1x1 with the paper's tie rules (first centre of least shell cost, partial "
      "shell by index)");
  m.notes.push_back(
      "results file: bender-table1.h5 in the output folder (`allocsim report "
      "bender-table1.h5 --decisions`)");
  return m;
}

Measurements bender_fig2(const StudyContext& context) {
  Measurements m;
  const int last_k = context.quick ? 12 : 21;
  constexpr int kSide = 12;  // every optimal cluster of k <= 21 fits with room to spare
  geom::PointSet grid(2);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const int p[2] = {x, y};
      grid.add(p);
    }
  geom::ExactOptions options;
  options.budget.seconds = 120;  // a bound on a runaway search; proven says whether it finished
  for (int k = 2; k <= last_k; ++k) {
    const geom::Selection best = geom::exact_optimum(grid, k, options);
    m.numbers["k=" + std::to_string(k) + "/sum"] = static_cast<double>(best.sum);
    m.facts["k=" + std::to_string(k) + "/proven"] = best.proven;
  }
  m.notes.push_back("exact branch and bound on an empty " + std::to_string(kSide) + "x" +
                    std::to_string(kSide) + " mesh, k = 2.." + std::to_string(last_k) +
                    "; proven = the search finished (lower bound = sum)");
  return m;
}

namespace {

/// Section 2.2's example, scaled by S (ε = 1/S): k/2 points at (0,0) and at (S,0), k/8 at
/// (0,±(S−1)), (S,±(S−1)), (2S−1,0), (−S+1,0). OPT takes the two central clusters: (k/2)²·S.
geom::PointSet tight_example(int k, int scale) {
  geom::PointSet points(2);
  auto put = [&](int count, int x, int y) {
    const int p[2] = {x, y};
    for (int i = 0; i < count; ++i) points.add(p);
  };
  const int near = scale - 1;
  put(k / 2, 0, 0);
  put(k / 2, scale, 0);
  for (const int y : {near, -near}) {
    put(k / 8, 0, y);
    put(k / 8, scale, y);
  }
  put(k / 8, 2 * scale - 1, 0);
  put(k / 8, -scale + 1, 0);
  return points;
}

}  // namespace

Measurements bender_mm_tight(const StudyContext& context) {
  Measurements m;
  constexpr int kK = 64;
  const std::vector<int> scales =
      context.quick ? std::vector<int>{4, 16, 64} : std::vector<int>{4, 16, 64, 256, 1024, 4096};
  double previous = 0, ratio = 0;
  bool increasing = true, bounded = true;
  for (const int scale : scales) {
    const geom::PointSet points = tight_example(kK, scale);
    const geom::Selection mm = geom::manhattan_median(points, kK);
    const double opt = static_cast<double>(kK / 2) * (kK / 2) * scale;
    ratio = static_cast<double>(mm.sum) / opt;
    m.numbers["ratio/S=" + std::to_string(scale)] = ratio;
    char text[64];
    std::snprintf(text, sizeof text, "S = %d: MM / OPT = %.5f", scale, ratio);
    m.notes.push_back(text);
    increasing = increasing && ratio > previous;
    bounded = bounded && ratio <= 1.75;
    previous = ratio;
  }
  m.numbers["ratio/largest-S"] = ratio;
  m.facts["ratio/increases-as-epsilon-shrinks"] = increasing;
  m.facts["ratio/at-most-7/4"] = bounded;
  // The closed-form optimum checked by the exact solver on the smallest instance.
  const geom::PointSet small = tight_example(8, 4);
  const geom::Selection exact = geom::exact_optimum(small, 8);
  m.facts["opt/closed-form-checked"] = exact.proven && exact.sum == 4 * 4 * 4;
  m.notes.push_back(
      "MM / OPT on Section 2.2's example with k = 64, scale S (epsilon = 1/S), OPT = "
      "(k/2)^2 S (checked by the exact solver for k = 8, S = 4)");
  return m;
}

}  // namespace allocsim::sweep::measure
