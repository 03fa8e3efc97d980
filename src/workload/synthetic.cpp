// Seeded synthetic workloads, e.g. the Bani-Mohammad et al. study's stream: exponential
// inter-arrival and running times, request sides uniform in [1, L].
#include <charconv>

#include "allocsim/util/error.hpp"
#include "allocsim/workload/transform.hpp"

namespace allocsim {

namespace {

/// A distribution written `kind:a[,b]`, e.g. `exp:10`, `uniform:1,64`, `const:5`.
struct Distribution {
  std::string kind;
  double a = 0, b = 0;
};

Distribution parse_distribution(const std::string& text, const std::string& field,
                                const std::vector<std::string>& kinds) {
  Distribution result;
  const auto colon = text.find(':');
  result.kind = text.substr(0, colon);
  bool known = false;
  for (const auto& kind : kinds) known |= (kind == result.kind);
  std::string expected = "one of";
  for (const auto& kind : kinds)
    expected +=
        " " + kind + (kind == "exp" || kind == "const" || kind == "sides" ? ":X" : ":MIN,MAX");
  if (!known || colon == std::string::npos)
    throw InputError("synthetic " + field + "='" + text + "': expected " + expected);
  const std::string args = text.substr(colon + 1);
  const auto comma = args.find(',');
  try {
    result.a = std::stod(args.substr(0, comma));
    result.b = comma == std::string::npos ? result.a : std::stod(args.substr(comma + 1));
  } catch (const std::exception&) {
    throw InputError("synthetic " + field + "='" + text + "': expected " + expected);
  }
  if (result.a < 0 || result.b < result.a)
    throw InputError("synthetic " + field + "='" + text + "': values must be >= 0 and MIN <= MAX");
  return result;
}

double draw_time(const Distribution& d, Rng& rng) {
  if (d.kind == "exp") return rng.exponential(d.a);
  if (d.kind == "uniform") return d.a + (d.b - d.a) * rng.uniform();
  return d.a;  // const
}

}  // namespace

const std::vector<ParamSpec>& synthetic_params() {
  static const std::vector<ParamSpec> params{
      {"jobs", ParamKind::integer, "1000", "number of jobs", {}},
      {"arrival",
       ParamKind::text,
       "exp:10",
       "inter-arrival time: exp:MEAN, uniform:MIN,MAX, const:X",
       {}},
      {"runtime",
       ParamKind::text,
       "exp:100",
       "running time: exp:MEAN, uniform:MIN,MAX, const:X",
       {}},
      {"size",
       ParamKind::text,
       "uniform:1,16",
       "processors: uniform:MIN,MAX, pow2:MIN,MAX, const:P, sides:L (a x b, sides uniform in "
       "[1,L])",
       {}},
      {"estimate", ParamKind::real, "1", "estimate = factor x runtime", {}},
  };
  return params;
}

Workload generate_synthetic(const std::string& spec, Rng& rng) {
  const AlgoSpec parsed = AlgoSpec::parse(spec);
  if (parsed.name != "synthetic")
    throw InputError(
        "'" + spec +
        "' is not a synthetic spec (synthetic:jobs=N,arrival=...,runtime=...,size=...)");
  const Params params(synthetic_params(), parsed.params, "synthetic workload");
  const auto count = params.integer("jobs");
  if (count < 0) throw InputError("synthetic jobs must be >= 0");
  const Distribution arrival =
      parse_distribution(params.text("arrival"), "arrival", {"exp", "uniform", "const"});
  const Distribution runtime =
      parse_distribution(params.text("runtime"), "runtime", {"exp", "uniform", "const"});
  const Distribution size =
      parse_distribution(params.text("size"), "size", {"uniform", "pow2", "const", "sides"});
  if (size.kind != "sides" && size.a < 1)
    throw InputError("synthetic size='" + params.text("size") + "': sizes must be >= 1");

  Workload workload;
  workload.source = "synthetic:" + params.canonical();
  double clock = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    Job job;
    job.id = i + 1;
    clock += draw_time(arrival, rng);
    job.submit = clock;
    job.runtime = draw_time(runtime, rng);
    job.estimate = job.runtime * params.real("estimate");
    const auto lo = static_cast<std::int64_t>(size.a), hi = static_cast<std::int64_t>(size.b);
    if (size.kind == "uniform")
      job.procs = static_cast<int>(rng.uniform_int(lo, hi));
    else if (size.kind == "const")
      job.procs = static_cast<int>(lo);
    else if (size.kind == "pow2") {
      int low_exp = 0, high_exp = 0;
      while ((1LL << low_exp) < lo) ++low_exp;
      while ((1LL << (high_exp + 1)) <= hi) ++high_exp;
      job.procs = 1 << rng.uniform_int(low_exp, std::max(low_exp, high_exp));
    } else {  // sides:L
      job.shape_a = static_cast<int>(rng.uniform_int(1, lo));
      job.shape_b = static_cast<int>(rng.uniform_int(1, lo));
      job.procs = job.shape_a * job.shape_b;
    }
    workload.jobs.push_back(job);
  }
  return workload;
}

}  // namespace allocsim
