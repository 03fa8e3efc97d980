// Seeded synthetic workloads, e.g. the Bani-Mohammad et al. study's stream: exponential
// inter-arrival and running times, request sides uniform in [1, L]; or, with `stream=cplant`,
// Leung et al.'s §4 test stream (workload/cplant_stream.hpp).
#include <algorithm>
#include <cmath>
#include <new>
#include <stdexcept>
#include <tuple>

#include "allocsim/util/error.hpp"
#include "allocsim/util/numbers.hpp"
#include "allocsim/workload/cplant_stream.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

namespace {

/// Largest power of two accepted by `size=pow2:MIN,MAX` (it must fit an int).
constexpr double kMaxPow2 = 1 << 30;
/// Largest side of `size=sides:L` (L x L must fit an int).
constexpr double kMaxSide = 46340;

/// A distribution written `kind:a[,b]`, e.g. `exp:10`, `uniform:1,64`, `const:5`.
struct Distribution {
  std::string kind;
  double a = 0, b = 0;
};

/// One accepted `kind:ARGS` form of a parameter, with the names and rule of its arguments.
struct DistributionForm {
  std::string kind;
  std::vector<std::string> arguments;  ///< "MEAN" or "MIN", "MAX"
  NumberRule rule;
};

std::string form_text(const DistributionForm& form) {
  std::string text = form.kind + ":";
  for (std::size_t i = 0; i < form.arguments.size(); ++i)
    text += (i ? "," : "") + form.arguments[i];
  return text;
}

/// Parses `text` as one of `forms`; every argument is checked against its form's rule and
/// MIN <= MAX. Errors name the parameter (`field`), the argument and its valid range.
Distribution parse_distribution(const std::string& text, const std::string& field,
                                const std::vector<DistributionForm>& forms) {
  const std::string context = "synthetic " + field + "='" + text + "'";
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const auto form = std::find_if(forms.begin(), forms.end(),
                                 [&](const DistributionForm& f) { return f.kind == kind; });
  std::string expected = "one of";
  for (const auto& f : forms) expected.append(" ").append(form_text(f));
  if (form == forms.end() || colon == std::string::npos)
    throw InputError(context + ": expected " + expected);
  std::vector<std::string> tokens;
  std::string_view rest = std::string_view(text).substr(colon + 1);
  while (true) {
    const auto comma = rest.find(',');
    tokens.emplace_back(rest.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (tokens.size() != form->arguments.size())
    throw InputError(context + ": expected " + form_text(*form) + " (" +
                     std::to_string(form->arguments.size()) + " value" +
                     (form->arguments.size() > 1 ? "s" : "") + ")");
  double values[2] = {0, 0};
  for (std::size_t i = 0; i < tokens.size(); ++i)
    values[i] = parse_number(tokens[i], form->rule, context + ": " + form->arguments[i]);
  Distribution result{kind, values[0], tokens.size() > 1 ? values[1] : values[0]};
  if (result.b < result.a)
    throw InputError(context + ": MIN must be <= MAX, got " + tokens[0] + " > " + tokens[1]);
  return result;
}

std::vector<DistributionForm> time_forms() {
  const NumberRule time = real_rule(0, kMaxTime);
  return {{"exp", {"MEAN"}, time}, {"uniform", {"MIN", "MAX"}, time}, {"const", {"X"}, time}};
}

std::vector<DistributionForm> size_forms() {
  return {{"uniform", {"MIN", "MAX"}, integer_rule(1, kMaxProcs)},
          {"pow2", {"MIN", "MAX"}, integer_rule(1, kMaxPow2)},
          {"const", {"P"}, integer_rule(1, kMaxProcs)},
          {"sides", {"L"}, integer_rule(1, kMaxSide)}};
}

double draw_time(const Distribution& d, Rng& rng) {
  if (d.kind == "exp") return rng.exponential(d.a);
  if (d.kind == "uniform") return d.a + (d.b - d.a) * rng.uniform();
  return d.a;  // const
}

/// Exponents of the smallest and largest powers of two in [lo, hi] (both <= 2^30); throws when
/// the interval holds none.
std::pair<int, int> pow2_exponents(std::int64_t lo, std::int64_t hi, const std::string& text) {
  int low_exp = 0, high_exp = 0;
  while ((std::int64_t{1} << low_exp) < lo) ++low_exp;
  while ((std::int64_t{1} << (high_exp + 1)) <= hi) ++high_exp;
  if (low_exp > high_exp)
    throw InputError("synthetic size='" + text + "': no power of two in [MIN, MAX]");
  return {low_exp, high_exp};
}

}  // namespace

const std::vector<ParamSpec>& synthetic_params() {
  static const std::vector<ParamSpec> params{
      {"jobs", ParamKind::integer, "1000", "number of jobs", {}, integer_rule(0, 1e15)},
      {"arrival",
       ParamKind::text,
       "exp:10",
       "inter-arrival time: exp:MEAN, uniform:MIN,MAX, const:X (each in [0, 1e12])",
       {}},
      {"runtime",
       ParamKind::text,
       "exp:100",
       "running time: exp:MEAN, uniform:MIN,MAX, const:X (each in [0, 1e12])",
       {}},
      {"size",
       ParamKind::text,
       "uniform:1,16",
       "processors: uniform:MIN,MAX, pow2:MIN,MAX (<= 2^30), const:P (<= 2^31-1), sides:L "
       "(a x b, sides uniform in [1,L], L <= 46340)",
       {}},
      {"estimate", ParamKind::real, "1", "estimate = factor x runtime", {}, positive_rule(1e6)},
      allow_large_param(),
      // Added after the first release: left out of canonical specs at their defaults.
      {"stream",
       ParamKind::choice,
       "random",
       "random: sizes drawn from `size`; cplant: Leung et al. (2002) Sec. 4 test stream, "
       "jobs=188 (91 x 2, 33 x 5, 31 x 25, 33 x 30 processors), large jobs first, small ones "
       "interspersed, the last one small (`size` unused)",
       {"random", "cplant"},
       {},
       true,
       false},
      {"order_seed",
       ParamKind::integer,
       "1",
       "stream=cplant: seed of the job order (the same order in every replicate)",
       {},
       integer_rule(0, 1e15),
       true,
       false},
      {"head",
       ParamKind::integer,
       "4",
       "stream=cplant: large jobs that open the stream (to fill the machine)",
       {},
       integer_rule(0, 64),
       true,
       false},
      {"size_exp",
       ParamKind::real,
       "0",
       "stream=cplant: a job's runtime is the `runtime` draw x (procs / 30)^size_exp",
       {},
       real_rule(0, 4),
       true,
       false},
  };
  return params;
}

namespace {

/// A synthetic spec checked in full: every parameter, distribution and the size guard.
struct SyntheticPlan {
  std::int64_t count = 0;
  Distribution arrival, runtime, size;
  int low_exp = 0, high_exp = 0;  ///< pow2 sizes: exponents of the smallest and largest power
  double estimate_factor = 1;
  bool cplant = false;            ///< stream=cplant
  std::vector<int> cplant_sizes;  ///< stream=cplant: sizes in release order
  double size_exp = 0;
  std::string source;  ///< canonical spelling
};

SyntheticPlan plan_synthetic(const std::string& spec) {
  const AlgoSpec parsed = AlgoSpec::parse(spec);
  if (parsed.name != "synthetic")
    throw InputError(
        "'" + spec +
        "' is not a synthetic spec (synthetic:jobs=N,arrival=...,runtime=...,size=...)");
  const Params params(synthetic_params(), parsed.params, "synthetic workload");
  SyntheticPlan plan;
  plan.count = params.integer("jobs");
  check_job_count(static_cast<std::uint64_t>(plan.count), params.integer("allow_large") != 0,
                  "synthetic jobs=" + std::to_string(plan.count));
  plan.arrival = parse_distribution(params.text("arrival"), "arrival", time_forms());
  plan.runtime = parse_distribution(params.text("runtime"), "runtime", time_forms());
  plan.size = parse_distribution(params.text("size"), "size", size_forms());
  if (plan.size.kind == "pow2")
    std::tie(plan.low_exp, plan.high_exp) =
        pow2_exponents(static_cast<std::int64_t>(plan.size.a),
                       static_cast<std::int64_t>(plan.size.b), params.text("size"));
  plan.estimate_factor = params.real("estimate");
  if (params.text("stream") == "cplant") {
    if (plan.count != kCplantStreamJobs)
      throw InputError("synthetic stream=cplant: the stream has " +
                       std::to_string(kCplantStreamJobs) +
                       " jobs; write jobs=" + std::to_string(kCplantStreamJobs) + " (got " +
                       std::to_string(plan.count) + ")");
    plan.cplant = true;
    plan.cplant_sizes =
        cplant_stream_sizes(static_cast<int>(params.integer("head")),
                            static_cast<std::uint64_t>(params.integer("order_seed")));
    plan.size_exp = params.real("size_exp");
  }
  plan.source = "synthetic:" + params.canonical();
  return plan;
}

}  // namespace

void validate_synthetic_spec(const std::string& spec) {
  plan_synthetic(spec);
}

bool is_synthetic_trace(const std::string& trace) {
  return trace == "synthetic" || trace.rfind("synthetic:", 0) == 0;
}

Workload generate_synthetic(const std::string& spec, Rng& rng) {
  return SyntheticSpec(spec).generate(rng);
}

struct SyntheticSpec::Plan : SyntheticPlan {};

SyntheticSpec::SyntheticSpec(const std::string& spec)
    : plan_(std::make_unique<const Plan>(Plan{plan_synthetic(spec)})) {}
SyntheticSpec::~SyntheticSpec() = default;
SyntheticSpec::SyntheticSpec(SyntheticSpec&&) noexcept = default;
SyntheticSpec& SyntheticSpec::operator=(SyntheticSpec&&) noexcept = default;

Workload SyntheticSpec::generate(Rng& rng) const {
  const SyntheticPlan& plan = *plan_;
  const std::int64_t count = plan.count;
  const Distribution& arrival = plan.arrival;
  const Distribution& runtime = plan.runtime;
  const Distribution& size = plan.size;
  const auto lo = static_cast<std::int64_t>(size.a), hi = static_cast<std::int64_t>(size.b);
  const int low_exp = plan.low_exp, high_exp = plan.high_exp;
  const double estimate_factor = plan.estimate_factor;

  Workload workload;
  workload.source = plan.source;
  try {
    workload.jobs.reserve(static_cast<std::size_t>(count));
  } catch (const std::exception&) {  // std::bad_alloc or std::length_error
    throw InputError("synthetic jobs=" + std::to_string(count) + ": not enough memory");
  }
  double clock = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    Job job;
    job.id = i + 1;
    clock += draw_time(arrival, rng);
    job.submit = clock;
    job.runtime = draw_time(runtime, rng);
    if (plan.cplant) {
      // Replicas of one test suite: the runtime grows with the size as (procs / 30)^size_exp.
      job.procs = plan.cplant_sizes[static_cast<std::size_t>(i)];
      job.runtime *= std::pow(static_cast<double>(job.procs) / kCplantLargestSize, plan.size_exp);
      job.estimate = job.runtime * estimate_factor;
      workload.jobs.push_back(job);
      continue;
    }
    job.estimate = job.runtime * estimate_factor;
    if (size.kind == "uniform")
      job.procs = static_cast<int>(rng.uniform_int(lo, hi));
    else if (size.kind == "const")
      job.procs = static_cast<int>(lo);
    else if (size.kind == "pow2")
      job.procs = 1 << rng.uniform_int(low_exp, high_exp);
    else {  // sides:L
      job.shape_a = static_cast<int>(rng.uniform_int(1, lo));
      job.shape_b = static_cast<int>(rng.uniform_int(1, lo));
      job.procs = job.shape_a * job.shape_b;
    }
    workload.jobs.push_back(job);
  }
  return workload;
}

}  // namespace allocsim
