// The run's time limit inside the point-set solvers (issue 16: "the time limit checked in every
// loop that can run long ... allocators' searches"). A search that would run for hours polls the
// limit and lets its TimeoutError through; a limit that never fires changes no answer. No clock
// is involved: the test limits count the questions and fire at a chosen one.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "allocsim/geom/exact.hpp"
#include "allocsim/geom/local_search.hpp"
#include "allocsim/geom/mc.hpp"
#include "allocsim/geom/mm.hpp"
#include "allocsim/geom/ptas.hpp"
#include "allocsim/util/error.hpp"
#include "geom_test_util.hpp"
#include "testing/counting_limit.hpp"

namespace allocsim::geom {
namespace {

using allocsim::testing::CountingLimit;

/// A solver run with an optional time limit.
using Solver = std::function<Selection(const PointSet&, int, const TimeLimit*)>;

struct NamedSolver {
  std::string name;
  Solver run;
  bool search = false;  ///< exact or PTAS: run on the smaller instance (their set-up is O(n^2))
};

/// The solvers an allocator runs at every allocation; exact and PTAS with node budgets, so
/// that they end and their answers can be compared.
std::vector<NamedSolver> budgeted_solvers() {
  auto with_limit = [](Budget budget, const TimeLimit* limit) {
    budget.time_limit = limit;
    return budget;
  };
  return {
      {"mm",
       [](const PointSet& p, int k, const TimeLimit* l) { return manhattan_median(p, k, l); }},
      {"genalg", [](const PointSet& p, int k, const TimeLimit* l) { return gen_alg(p, k, l); }},
      {"mm-all",
       [](const PointSet& p, int k, const TimeLimit* l) {
         std::vector<int> values(50);
         for (int i = 0; i < 50; ++i) values[i] = i;
         return nearest_best_over_grid(p, k, {values, values}, CentreOrder::sorted, l);
       }},
      {"mc1x1", [](const PointSet& p, int k, const TimeLimit* l) { return mc1x1(p, k, l); }},
      {"mc",
       [](const PointSet& p, int k, const TimeLimit* l) {
         return mc_shaped(p, k, {6, 5}, l);
       }},
      {"mm-inc", [](const PointSet& p, int k, const TimeLimit* l) { return mm_inc(p, k, l); }},
      {"exact",
       [with_limit](const PointSet& p, int k, const TimeLimit* l) {
         ExactOptions options;
         options.budget = with_limit(Budget{0, 5000}, l);
         return exact_optimum(p, k, options);
       },
       true},
      {"ptas",
       [with_limit](const PointSet& p, int k, const TimeLimit* l) {
         return ptas(p, k, 3, with_limit(Budget{0, 5000}, l));
       },
       true},
  };
}

/// Free processors scattered over a mesh, the shape of a busy machine: 600 of 30x30, or for
/// the heuristics (which must do enough work to be asked: k = 100) 2,000 of 50x50.
PointSet scattered_free_set(bool small = true) {
  Rng rng(16);
  return small ? testing::random_free_grid(rng, 2, 30, 600)
               : testing::random_free_grid(rng, 2, 50, 2000);
}

TEST(TimeLimit, ALimitThatNeverFiresChangesNoAnswerButIsAsked) {
  const PointSet small = scattered_free_set(), large = scattered_free_set(false);
  for (const auto& solver : budgeted_solvers()) {
    const PointSet& points = solver.search ? small : large;
    const int k = solver.search ? 20 : 100;
    const Selection free_run = solver.run(points, k, nullptr);
    const CountingLimit limit;
    const Selection limited = solver.run(points, k, &limit);
    EXPECT_EQ(limited.indices, free_run.indices) << solver.name;
    EXPECT_EQ(limited.sum, free_run.sum) << solver.name;
    EXPECT_EQ(limited.proven, free_run.proven) << solver.name;
    EXPECT_EQ(limited.nodes, free_run.nodes) << solver.name;
    EXPECT_GT(limit.asked(), 0) << solver.name << " never polled its time limit";
  }
}

TEST(TimeLimit, ASpentLimitEndsEverySolverWithTimeoutError) {
  const PointSet small = scattered_free_set(), large = scattered_free_set(false);
  for (const auto& solver : budgeted_solvers()) {
    const PointSet& points = solver.search ? small : large;
    const int k = solver.search ? 20 : 100;
    const CountingLimit limit(1);
    EXPECT_THROW(solver.run(points, k, &limit), TimeoutError) << solver.name;
    EXPECT_EQ(limit.asked(), 1) << solver.name;
  }
}

TEST(TimeLimit, UnboundedExactAndPtasSearchesStopAtTheLimit) {
  // Without a node budget these searches run for hours (exact: 80 of 600 scattered points;
  // PTAS m=6: billions of cut vectors); the limit fired at its 5th question stops them.
  const PointSet points = scattered_free_set();
  {
    const CountingLimit limit(5);
    ExactOptions options;
    options.budget.time_limit = &limit;
    EXPECT_THROW(exact_optimum(points, 80, options), TimeoutError);
    EXPECT_EQ(limit.asked(), 5);
  }
  {
    const CountingLimit limit(5);
    Budget budget;
    budget.time_limit = &limit;
    EXPECT_THROW(ptas(points, 80, 6, budget), TimeoutError);
    EXPECT_EQ(limit.asked(), 5);
  }
}

TEST(TimeLimitPoll, AsksOncePerIntervalOfWorkAndNeverWithoutALimit) {
  const CountingLimit limit;
  TimeLimitPoll poll(&limit, 100);
  for (int i = 0; i < 99; ++i) poll.add();
  EXPECT_EQ(limit.asked(), 0);
  poll.add();
  EXPECT_EQ(limit.asked(), 1);
  poll.add(250);  // a big step asks once, then counting starts again
  EXPECT_EQ(limit.asked(), 2);
  poll.check();
  EXPECT_EQ(limit.asked(), 3);
  TimeLimitPoll none(nullptr, 1);
  none.add(1000);
  none.check();  // no limit: nothing to ask, nothing thrown
}

}  // namespace
}  // namespace allocsim::geom
