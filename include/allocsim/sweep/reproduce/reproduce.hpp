#pragma once
// `allocsim reproduce STUDY`: every published number or trend of a study side by side with
// allocsim's, each PASS or FAIL against a stated tolerance (issue 14). A study is one row of the
// table returned by studies(): its experiment (run through the sweep engine) or its direct
// computation, and the code that turns the results into named measurements. The published
// values are facts typed in from the papers, one data file per study
// (experiments/published/<study>.toml, format in experiments/published/README.md).
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace allocsim::sweep {

/// One published number (compared within a tolerance) or trend (a fact that holds or not), with
/// where it is printed.
struct PublishedValue {
  std::string key;   ///< name the study's measurement uses ("mc1x1/mm")
  std::string what;  ///< what it is, in words
  bool fact = false;
  double value = 0;       ///< numbers only
  double tolerance = 0;   ///< numbers only: allowed |ours - published|
  bool relative = false;  ///< tolerance is a fraction of |published|
  std::string source;     ///< table or figure ("Table 1")
  std::string page;       ///< page or section
  /// What a `--quick` run (reduced inputs) can check of this value: nothing ("n/a (quick)"),
  /// the same value or trend as the full run (`quick = true`: a trend the reduced run shows
  /// too), or a reference value of the quick run itself (`quick_value`, `quick_tolerance`).
  enum class Quick { not_checked, same, reference };
  Quick quick = Quick::not_checked;
  double quick_value = 0, quick_tolerance = 0;  ///< Quick::reference only
  bool quick_relative = false;                  ///< quick_tolerance is a fraction of |quick_value|
};

/// A study's data file.
struct Published {
  std::string study;
  std::string paper;  ///< authors, title, venue
  std::vector<PublishedValue> values;
};

/// Reads experiments/published/<study>.toml. Throws InputError on a malformed file.
Published read_published(const std::string& path);

/// What a study measured: numbers and facts by key, plus notes for the report.
struct Measurements {
  std::map<std::string, double> numbers;
  std::map<std::string, bool> facts;
  std::vector<std::string> notes;
  std::vector<std::string> figures;  ///< files written (relative to the output folder)
};

/// Runs an experiment file through the sweep engine into a result file (the CLI supplies it:
/// MPI under mpirun, one process otherwise). Returns false when the sweep did not complete.
using SweepRunner = std::function<bool(const std::string& experiment, const std::string& output)>;

/// Where a study runs and what it may use.
struct StudyContext {
  std::string experiments_dir;  ///< the repository's experiments/ folder
  std::string tools_dir;        ///< the repository's tools/ folder (plot scripts)
  std::string output_dir;       ///< where results, JSON, Markdown and figures go
  bool quick = false;           ///< the reduced version (under a minute)
  SweepRunner run_sweep;
};

/// One row of the study table.
struct Study {
  std::string name;
  std::string summary;
  std::string experiment;        ///< experiment file under experiments/ ("" = computed directly)
  std::string quick_experiment;  ///< its reduced version under experiments/ ("" = same, or none)
  std::function<Measurements(const StudyContext&)> measure;
};

/// The table of studies, in the order `reproduce --list` prints them.
const std::vector<Study>& studies();
/// The study called `name`; InputError listing every study (and the closest name) otherwise.
const Study& find_study(const std::string& name);

/// One line of the comparison.
struct Comparison {
  PublishedValue published;
  bool applicable = true;  ///< false: a quick run cannot check it ("n/a (quick)", not counted)
  bool measured = false;
  double ours = 0;        ///< numbers: our value; facts: 1 when it holds
  double reference = 0;   ///< numbers: the value compared with (published, or the quick reference)
  double difference = 0;  ///< numbers: ours - reference
  bool pass = false;
};

/// The whole outcome of a study run.
struct Reproduction {
  std::string study;
  std::string paper;
  bool quick = false;
  std::vector<Comparison> comparisons;
  Measurements measurements;
  /// Every applicable comparison passed, and there was at least one.
  bool all_pass() const;
};

/// Compares measurements with the published values: a number passes when
/// |ours - published| <= tolerance (times |published| when relative), a fact when it holds;
/// anything not measured fails. In a quick run a value is checked only as its `quick` field
/// says (the published value, or the quick run's own reference); the rest are "n/a (quick)".
Reproduction compare(const Published& published, const Measurements& measured, bool quick);

/// Runs the study and compares it with its data file (experiments/published/<name>.toml).
Reproduction reproduce(const Study& study, const StudyContext& context);

/// The comparison as an aligned text table (published, ours, difference, tolerance, result).
std::string format_text(const Reproduction& reproduction);
/// The same as JSON and as Markdown (with notes and figures).
std::string format_json(const Reproduction& reproduction);
std::string format_markdown(const Reproduction& reproduction);

}  // namespace allocsim::sweep
