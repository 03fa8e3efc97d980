// Leung et al., "Processor allocation on Cplant" (CLUSTER 2002), Section 4, Table 1: the makespan
// of one test stream of 188 communication test suites on a 128-processor Cplant machine (an 8x8
// torus of switches, four compute rows of four processors per switch) under six allocation
// strategies. Modelled in experiments/cplant-contention.toml: the stream (synthetic
// stream=cplant), the machine (torus:4x8x4:wrap=010, first axis = processors of one switch) and
// contention (flow model routed on the switches), ring span; the communication share, the
// runtime's growth with size, the offered load and the stream's order are swept, the published
// savings compared at the chosen setting (comm 0.9, size_exp 1, load 1.5, mean over the three
// stream orders and four replicates). The former run of the Ross trace on Section 3's simulated
// 8x8x5 machine is kept as a labelled extension (cplant-contention-ross.toml), not compared.
// See studies.hpp and experiments/cplant-contention.md.
#include <algorithm>
#include <cstdio>
#include <tuple>

#include "studies.hpp"

namespace allocsim::sweep::measure {

namespace {

using Strategy = std::pair<std::string, std::string>;  // order, fit
/// comm, size_exp, load
using Setting = std::tuple<double, double, double>;
using Makespans = std::map<Strategy, double>;

/// The chosen setting (experiments/cplant-contention.toml): the suite's computation "consumes a
/// small fraction of the total running time" (comm 0.9), its tests take p - 1 steps (runtime
/// linear in size), the machine "busy through the release of the last job" (offered load 1.5).
const Setting kChosen{0.9, 1, 1.5};

/// Table 1's rows: label, strategy, published mean makespan (s).
struct Table1Row {
  const char* label;
  Strategy strategy;
  double seconds;
};
const std::vector<Table1Row>& table1() {
  static const std::vector<Table1Row> rows{
      {"baseline (no curve)", {"row", "none"}, 5 * 3600 + 46 * 60 + 31},
      {"best fit (no curve)", {"row", "best"}, 5 * 3600 + 27 * 60 + 58},
      {"baseline (Hilbert)", {"hilbert", "none"}, 4 * 3600 + 58 * 60 + 52},
      {"sum of squares (Hilbert)", {"hilbert", "sumsq"}, 4 * 3600 + 32 * 60 + 9},
      {"first fit (Hilbert)", {"hilbert", "first"}, 4 * 3600 + 30 * 60 + 22},
      {"best fit (Hilbert)", {"hilbert", "best"}, 4 * 3600 + 25 * 60 + 23}};
  return rows;
}

const Strategy kRowNone{"row", "none"}, kRowBest{"row", "best"}, kHilbertNone{"hilbert", "none"},
    kHilbertBest{"hilbert", "best"};

/// The published rows' keys with their (from, to) strategies and published value.
struct SavingRow {
  const char* key;
  Strategy from, to;
  double published;
};
const std::vector<SavingRow>& saving_rows() {
  static const std::vector<SavingRow> rows{
      {"table1/curve-saving/no-fit", kRowNone, kHilbertNone, 13.75},
      {"table1/curve-saving/best-fit", kRowBest, kHilbertBest, 19.08},
      {"table1/best-fit-saving/row", kRowNone, kRowBest, 5.35},
      {"table1/best-fit-saving/hilbert", kHilbertNone, kHilbertBest, 11.20},
      {"table1/both-saving", kRowNone, kHilbertBest, 23.41}};
  return rows;
}
constexpr double kTolerance = 5;  // percentage points (experiments/published/cplant-contention)

bool has_table1(const Makespans& m) {
  for (const auto& s : {kRowNone, kRowBest, kHilbertNone, kHilbertBest})
    if (!m.count(s)) return false;
  return true;
}
double saving(const Makespans& m, const Strategy& from, const Strategy& to) {
  return 100 * (1 - m.at(to) / m.at(from));
}
/// The four published facts of Table 1.
std::map<std::string, bool> table1_facts(const Makespans& m) {
  return {{"table1/hilbert-below-row/both-fits",
           m.at(kHilbertNone) < m.at(kRowNone) && m.at(kHilbertBest) < m.at(kRowBest)},
          {"table1/best-below-none/both-orders",
           m.at(kRowBest) < m.at(kRowNone) && m.at(kHilbertBest) < m.at(kHilbertNone)},
          {"table1/hilbert-best-lowest",
           m.at(kHilbertBest) < std::min({m.at(kRowNone), m.at(kRowBest), m.at(kHilbertNone)})},
          {"table1/curve-alone-beats-best-fit-alone", m.at(kHilbertNone) < m.at(kRowBest)}};
}

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return text;
}
std::string setting_text(const Setting& s) {
  char text[80];
  std::snprintf(text, sizeof text, "comm %g, size_exp %g, load %g", std::get<0>(s), std::get<1>(s),
                std::get<2>(s));
  return text;
}

/// The Ross-trace extension (full runs only): notes labelled as such and a figure panel.
void ross_extension(const StudyContext& context, Measurements& m, Figure& figure) {
  const std::string results =
      run_experiment(context, "cplant-contention-ross.toml", "cplant-contention-ross");
  const GroupMeans means = group_means(results, {"comm", "load", "order", "fit"}, {"makespan"});
  std::map<std::pair<double, double>, Makespans> value;
  for (const auto& [key, v] : means.values)
    value[{key_number(results, "comm", key[0]), key_number(results, "load", key[1])}]
         [{key[2], key[3]}] = v.at("makespan").mean;
  for (auto& [comm_load, runs] : value) {
    if (!has_table1(runs) || comm_load.first == 0) continue;
    char text[320];
    std::snprintf(text, sizeof text,
                  "EXTENSION (Ross trace, Section 3's simulated 8x8x5 mesh, not Table 1's stream; "
                  "not compared): comm %g, load %g: curve saving %.1f %% (no fit) / %.1f %% (best "
                  "fit), best-fit saving %.1f %% (row) / %.1f %% (Hilbert), both %.1f %%",
                  comm_load.first, comm_load.second, saving(runs, kRowNone, kHilbertNone),
                  saving(runs, kRowBest, kHilbertBest), saving(runs, kRowNone, kRowBest),
                  saving(runs, kHilbertNone, kHilbertBest), saving(runs, kRowNone, kHilbertBest));
    m.notes.push_back(text);
  }
  Panel panel{"EXTENSION: Ross trace, 8x8x5 mesh, load 1.5 (not Table 1)",
              "communication fraction comm",
              "makespan (hours)",
              false,
              {}};
  std::map<Strategy, Series> series;
  for (auto& [comm_load, runs] : value) {
    if (comm_load.second != 1.5) continue;
    for (auto& [strategy, makespan] : runs) {
      Series& s = series[strategy];
      s.label =
          "Ross: " + strategy.first + ", " + (strategy.second == "none" ? "no" : "best") + " fit";
      s.colour = strategy.first == "row" ? 6 : strategy.first == "snake" ? 7 : 8;  // not Table 1's
      s.dash = strategy.second == "none" ? 0 : 1;
      s.x.push_back(comm_load.first);
      s.y.push_back(makespan / 3600);
    }
  }
  for (auto& [strategy, s] : series) panel.series.push_back(s);
  figure.panels.push_back(panel);
}

}  // namespace

Measurements cplant_contention(const StudyContext& context) {
  const std::string results = run_experiment(
      context, context.quick ? "quick/cplant-contention.toml" : "cplant-contention.toml",
      "cplant-contention");
  // Makespans of every stream order x replicate per setting and strategy (their mean and
  // interval), and per stream order (replicates averaged).
  const ReplicateValues replicates = replicate_values(
      results, {"comm", "size_exp", "load", "stream", "order", "fit"}, {"makespan"});
  std::map<Setting, std::map<Strategy, std::vector<double>>> samples;
  std::map<std::pair<Setting, std::string>, Makespans> stream_makespans;
  for (const auto& [key, v] : replicates.values) {
    const Setting setting{key_number(results, "comm", key[0]),
                          key_number(results, "size_exp", key[1]),
                          key_number(results, "load", key[2])};
    const Strategy strategy{key[4], key[5]};
    double sum = 0;
    for (const auto& [replicate, x] : v.at("makespan")) {
      samples[setting][strategy].push_back(x);
      sum += x;
    }
    stream_makespans[{setting, key[3]}][strategy] =
        sum / static_cast<double>(v.at("makespan").size());
  }
  std::map<Setting, std::map<Strategy, Interval>> value;
  for (const auto& [setting, by_strategy] : samples)
    for (const auto& [strategy, xs] : by_strategy) value[setting][strategy] = mean_interval(xs);
  auto makespans_at = [&](const Setting& s) {
    Makespans result;
    for (const auto& [strategy, makespan] : value[s]) result[strategy] = makespan.mean;
    return result;
  };

  Measurements m;
  const Makespans chosen = makespans_at(kChosen);
  if (!has_table1(chosen)) {
    m.notes.push_back("no runs of the chosen setting (" + setting_text(kChosen) +
                      ") in the results");
    return m;
  }
  for (const SavingRow& row : saving_rows()) m.numbers[row.key] = saving(chosen, row.from, row.to);
  for (const auto& [key, holds] : table1_facts(chosen)) m.facts[key] = holds;

  // Notes: Table 1 row by row at the chosen setting.
  m.notes.push_back(
      "compared at the chosen setting " + setting_text(kChosen) +
      " (experiments/cplant-contention.toml), the mean of 3 stream orders x 4 replicates; model: "
      "Section 4's stream (188 jobs: 91 x 2, 33 x 5, 31 x 25, 33 x 30; 4 large first, small "
      "ones interspersed, the last small), machine torus:4x8x4:wrap=010 (8 switch columns x 4 "
      "compute rows, 4 processors per switch, links shared per switch: flow switch=first), ring "
      "span, Cplant queue");
  std::string line =
      "Table 1 at the chosen setting, ours (95 % interval over the 12 runs: 3 stream orders x 4 "
      "replicates) against the paper:";
  for (const Table1Row& row : table1()) {
    const auto found = value[kChosen].find(row.strategy);
    if (found == value[kChosen].end()) continue;
    const Interval& makespan = found->second;
    line += " " + std::string(row.label) + " " + clock_text(makespan.mean) + " (±" +
            clock_text(makespan.half) + ") against " + clock_text(row.seconds) + ";";
  }
  line.pop_back();
  m.notes.push_back(line);
  for (const auto& [setting_stream, runs] : stream_makespans) {
    if (setting_stream.first != kChosen || !has_table1(runs)) continue;
    char text[240];
    std::snprintf(text, sizeof text,
                  "stream order %s at the chosen setting: savings %.1f / %.1f (curve, no fit / "
                  "best fit), %.1f / %.1f (best fit, row / Hilbert), %.1f %% (both)",
                  setting_stream.second.c_str(), saving(runs, kRowNone, kHilbertNone),
                  saving(runs, kRowBest, kHilbertBest), saving(runs, kRowNone, kRowBest),
                  saving(runs, kHilbertNone, kHilbertBest), saving(runs, kRowNone, kHilbertBest));
    m.notes.push_back(text);
  }
  // The range over what the paper leaves open: every swept setting (streams averaged).
  if (value.size() > 1) {
    for (const SavingRow& row : saving_rows()) {
      double low = 1e300, high = -1e300;
      int within = 0, settings = 0;
      Setting at_low{}, at_high{};
      for (const auto& [setting, runs] : value) {
        const Makespans ms = makespans_at(setting);
        if (!has_table1(ms)) continue;
        const double x = saving(ms, row.from, row.to);
        ++settings;
        within += std::abs(x - row.published) <= kTolerance;
        if (x < low) low = x, at_low = setting;
        if (x > high) high = x, at_high = setting;
      }
      char text[320];
      std::snprintf(text, sizeof text,
                    "range over the %d swept settings (comm x size_exp x load, streams averaged): "
                    "%s %.1f %% (%s) ... %.1f %% (%s); within ±5 of %.2f in %d of %d",
                    settings, row.key, low, setting_text(at_low).c_str(), high,
                    setting_text(at_high).c_str(), row.published, within, settings);
      m.notes.push_back(text);
    }
    std::map<std::string, int> holds;
    int settings = 0;
    for (const auto& [setting, runs] : value) {
      const Makespans ms = makespans_at(setting);
      if (!has_table1(ms)) continue;
      ++settings;
      for (const auto& [key, fact] : table1_facts(ms)) holds[key] += fact;
    }
    for (const auto& [key, count] : holds)
      m.notes.push_back("range: " + key + " holds in " + std::to_string(count) + " of " +
                        std::to_string(settings) + " swept settings");
  }

  // Figure: Table 1's six strategies against comm, one panel per size_exp at load 1.5; the
  // savings at the chosen size_exp and load with the published ones.
  Figure figure;
  figure.title =
      "Leung et al. Table 1: Section 4 stream on the 128-processor Cplant model (8x8 switch torus, "
      "4 compute rows x 4 processors per switch), flow model, ring span";
  std::vector<double> size_exps;
  for (const auto& [setting, runs] : value)
    if (std::find(size_exps.begin(), size_exps.end(), std::get<1>(setting)) == size_exps.end())
      size_exps.push_back(std::get<1>(setting));
  for (const double size_exp : size_exps) {
    char title[96];
    std::snprintf(title, sizeof title, "makespan, runtime ~ size^%g, load %g", size_exp,
                  std::get<2>(kChosen));
    Panel panel{title, "communication share comm", "makespan (hours)", false, {}};
    int colour = 0;
    for (const Table1Row& row : table1()) {
      Series s{row.label, {}, {}, {}, colour++, row.strategy.first == "row" ? 1 : 0};
      for (const auto& [setting, runs] : value) {
        if (std::get<1>(setting) != size_exp || std::get<2>(setting) != std::get<2>(kChosen))
          continue;
        const auto found = runs.find(row.strategy);
        if (found == runs.end()) continue;
        s.x.push_back(std::get<0>(setting));
        s.y.push_back(found->second.mean / 3600);
        s.error.push_back(found->second.half / 3600);
      }
      panel.series.push_back(s);
    }
    figure.panels.push_back(panel);
  }
  {
    Panel panel{"savings, runtime ~ size^1, load 1.5 (dotted: published)",
                "communication share comm",
                "makespan saving (%)",
                false,
                {}};
    int colour = 0;
    for (const SavingRow& row : saving_rows()) {
      Series ours{std::string(row.key).substr(7), {}, {}, {}, colour, 0};
      Series paper{"published", {}, {}, {}, colour++, 2};
      for (const auto& [setting, runs] : value) {
        if (std::get<1>(setting) != std::get<1>(kChosen) ||
            std::get<2>(setting) != std::get<2>(kChosen))
          continue;
        const Makespans ms = makespans_at(setting);
        if (!has_table1(ms)) continue;
        ours.x.push_back(std::get<0>(setting));
        ours.y.push_back(saving(ms, row.from, row.to));
        paper.x.push_back(std::get<0>(setting));
        paper.y.push_back(row.published);
      }
      panel.series.push_back(ours);
      panel.series.push_back(paper);
    }
    figure.panels.push_back(panel);
  }
  if (!context.quick)
    ross_extension(context, m, figure);
  else
    m.notes.push_back("quick run: the Ross-trace extension is not run");
  write_figure(context, "cplant-contention-table1", figure, m);
  m.notes.push_back(
      "tolerance ±5 percentage points on every saving: Table 1's makespans are means of 2-5 "
      "runs with standard deviations of 3-10 min on 4.4-5.8 h, so each published saving carries "
      "a standard error of about 1-2 points");
  return m;
}

}  // namespace allocsim::sweep::measure
