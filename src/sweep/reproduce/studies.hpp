#pragma once
// The measurement functions of the studies (one per table row of studies.cpp).
#include <string>

#include "allocsim/sweep/reproduce/reproduce.hpp"

namespace allocsim::sweep::measure {

/// Runs `experiment` (a file under experiments/) through the context's sweep runner into
/// <output>/<name>.h5 and returns that path; InputError when the sweep did not complete.
std::string run_experiment(const StudyContext& context, const std::string& experiment,
                           const std::string& name);

Measurements bender_table1(const StudyContext& context, const std::string& experiment);
Measurements bender_fig2(const StudyContext& context);
Measurements bender_mm_tight(const StudyContext& context);

}  // namespace allocsim::sweep::measure
