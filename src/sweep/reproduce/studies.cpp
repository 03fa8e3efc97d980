// The table of reproducible studies and the driver; see reproduce.hpp.
#include <filesystem>

#include "allocsim/sweep/reproduce/reproduce.hpp"
#include "allocsim/util/error.hpp"
#include "allocsim/util/spec.hpp"
#include "studies.hpp"

namespace allocsim::sweep {

namespace measure {

std::string run_experiment(const StudyContext& context, const std::string& experiment,
                           const std::string& name) {
  const std::string path = context.experiments_dir + "/" + experiment;
  if (!std::filesystem::exists(path)) throw InputError("experiment file '" + path + "' not found");
  const std::string output = context.output_dir + "/" + name + ".h5";
  if (!context.run_sweep) throw InputError("no sweep runner to run '" + path + "'");
  if (!context.run_sweep(path, output))
    throw InputError("the sweep of '" + path + "' did not complete (see its messages above)");
  return output;
}

}  // namespace measure

const std::vector<Study>& studies() {
  static const std::vector<Study> table{
      {"bender-table1",
       "Bender et al. Table 1: situation/decision matrix of MC1x1, MM, MM+Inc, Hilbert BF on the "
       "LLNL T3D trace (16 cells within 1 %, the ranking in every row)",
       "bender-table1.toml", "quick/bender-table1.toml",
       [](const StudyContext& c) {
         return measure::bender_table1(c,
                                       c.quick ? "quick/bender-table1.toml" : "bender-table1.toml");
       }},
      {"bender-fig2",
       "Bender et al. Fig. 2: optimal unconstrained clusters, k = 2..21, proven by branch and "
       "bound, with the published sums",
       "", "", [](const StudyContext& c) { return measure::bender_fig2(c); }},
      {"bender-mm-tight",
       "Bender et al. Section 2.2: MM's ratio on the tight example approaches 7/4", "", "",
       [](const StudyContext& c) { return measure::bender_mm_tight(c); }},
      {"gabl",
       "Bani-Mohammad et al. Figs. 3-5: finish time, turnaround and utilization of First Fit, "
       "Paging(0), MBS and GABL against load on a 16x16 mesh (the trends of Section 4.2)",
       "gabl-mesh16.toml", "quick/gabl-mesh16.toml",
       [](const StudyContext& c) { return measure::gabl(c); }},
      {"gabl-wormhole",
       "Bani-Mohammad et al. Figs. 3-5 and message lengths under wormhole routing: First Fit, "
       "Paging(0), MBS, ANCA, GABL on a 16x16 mesh (trends of Section 4.2, paired and unpaired)",
       "gabl-wormhole.toml", "quick/gabl-wormhole.toml",
       [](const StudyContext& c) { return measure::gabl_wormhole(c); }},
      {"cplant-curves",
       "Leung et al. Fig. 1: bounding-cube ratio and span of row/snake/Hilbert 1D allocation "
       "against the work multiple, Ross trace on an 8x8x5 mesh (the trends of Section 3)",
       "cplant-curves.toml", "quick/cplant-curves.toml",
       [](const StudyContext& c) { return measure::cplant_curves(c); }},
      {"cplant-contention",
       "Leung et al. Table 1: makespan savings of the Hilbert curve and best fit under contention "
       "(flow model), Section 4's 188-job test stream on a 128-processor 8x8 switch torus, 4 "
       "processors per switch (savings within 5 points, the ranking); Ross trace as an extension",
       "cplant-contention.toml", "quick/cplant-contention.toml",
       [](const StudyContext& c) { return measure::cplant_contention(c); }},
      {"agarwal-mapping",
       "Agarwal et al. Figs. 1-6: hops per byte of random, TopoCentLB, TopoLB (+ refine) for 2D "
       "stencils and LeanMD on 2D and 3D tori (mapping layer called directly)",
       "", "", [](const StudyContext& c) { return measure::agarwal_mapping(c); }},
      {"agarwal-network",
       "Agarwal et al. Figs. 9-11: time for 2,000 stencil iterations under random, TopoCentLB and "
       "TopoLB mapping against link bandwidth, 4x4x4 torus and mesh (flow model)",
       "agarwal-network.toml", "quick/agarwal-network.toml",
       [](const StudyContext& c) { return measure::agarwal_network(c); }},
      {"mao-qcdoc",
       "Mao et al. Figs. 3, 5, 7: saturation points of FCFS/backfilling x EP/NEP/flat, NASA and "
       "SDSC logs on the QCDOC torus (within 5 percentage points)",
       "mao-qcdoc.toml", "quick/mao-qcdoc.toml",
       [](const StudyContext& c) { return measure::mao(c, "qcdoc"); }},
      {"mao-jlab",
       "Mao et al. Figs. 4, 6: saturation points of FCFS/backfilling x EP/NEP/flat, NASA and "
       "SDSC logs on the JLab torus (within 5 percentage points)",
       "mao-jlab.toml", "quick/mao-jlab.toml",
       [](const StudyContext& c) { return measure::mao(c, "jlab"); }},
      {"dragonfly-placement",
       "Placement on dragonflies (Kaplan et al.'s shapes and a balanced one) and an "
       "oversubscribed fat tree, NASA log, flow model: placement x routing x arrangement "
       "against the trends of Bhatele, Jain, Zhang, Kaplan and Pollard et al.",
       "dragonfly-placement.toml", "quick/dragonfly-placement.toml",
       [](const StudyContext& c) { return measure::dragonfly_placement(c); }},
  };
  return table;
}

const Study& find_study(const std::string& name) {
  std::vector<std::string> names;
  for (const auto& study : studies()) {
    if (study.name == name) return study;
    names.push_back(study.name);
  }
  std::string message = "unknown study '" + name + "'";
  const std::string suggestion = closest_match(name, names);
  if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
  message += "; valid studies:";
  for (const auto& n : names) message += " " + n;
  throw InputError(message);
}

Reproduction reproduce(const Study& study, const StudyContext& context) {
  const Published published =
      read_published(context.experiments_dir + "/published/" + study.name + ".toml");
  if (published.study != study.name)
    throw InputError("experiments/published/" + study.name + ".toml names study '" +
                     published.study + "'");
  std::error_code ec;
  std::filesystem::create_directories(context.output_dir, ec);
  if (ec)
    throw OutputError("cannot create the output folder '" + context.output_dir +
                      "': " + ec.message() + " (choose another with -o)");
  return compare(published, study.measure(context), context.quick);
}

}  // namespace allocsim::sweep
