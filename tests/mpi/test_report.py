"""`allocsim report` groups and averages like pandas does on the same file."""
import io
import json
import os
import sys

import pandas as pd

import sweeptest as t

env = t.Env()
experiment = env.write("report.toml", """
[experiment]
name = "report"
replicates = 2
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=80,size=uniform:1,16"
[sweep]
alloc = ["flat", "random"]
sched = ["fcfs", "easy"]
""")
output = env.path("report.h5")
env.sweep(1, experiment, output)
table = env.run([env.allocsim, "report", output]).stdout
t.check("experiment 'report': 8 configs, 8 done" in table, table)
t.check("alloc" in table and "sched" in table and "utilization" in table, table)

# --group-by alloc pools both schedulers: the spread is a pooled standard deviation, labelled.
pooled = env.run([env.allocsim, "report", output, "--group-by", "alloc", "--metrics",
                  "utilization,mean_bsd", "--format", "csv"])
got = pd.read_csv(io.StringIO(pooled.stdout))
t.check(list(got.columns) == ["alloc", "configs", "failed", "utilization", "utilization_pooled_sd",
                              "mean_bounded_slowdown", "mean_bounded_slowdown_pooled_sd"],
        f"{list(got.columns)}")
t.check("pooled groups: configs of one group differ in sched" in pooled.stderr, pooled.stderr)
t.check("not a confidence interval" in pooled.stderr, pooled.stderr)
joined = t.configs(output).merge(t.summary(output), on="config_id")
grouped = joined.groupby("alloc", sort=False)[["utilization", "mean_bounded_slowdown"]]
expected, spread = grouped.mean(), grouped.std()
for _, row in got.iterrows():
    for metric in ("utilization", "mean_bounded_slowdown"):
        want = expected.loc[row["alloc"], metric]
        t.check(abs(row[metric] - want) <= 1e-12 * max(1, abs(want)),
                f"{row['alloc']} {metric}: {row[metric]} vs {want}")
        sd = spread.loc[row["alloc"], metric]
        t.check(abs(row[metric + "_pooled_sd"] - sd) <= 1e-9 * max(1, abs(sd)),
                f"{row['alloc']} {metric} pooled sd: {row[metric + '_pooled_sd']} vs {sd}")
t.check((got["configs"] == 4).all(), f"{got}")

# --group-by alloc,sched holds only replicates: a 95 % Student-t interval of each mean.
replicated = env.run([env.allocsim, "report", output, "--group-by", "alloc,sched", "--metrics",
                      "utilization", "--format", "csv"])
got = pd.read_csv(io.StringIO(replicated.stdout))
t.check(list(got.columns) == ["alloc", "sched", "configs", "failed", "replicates", "utilization",
                              "utilization_ci95"], f"{list(got.columns)}")
t.check("Student-t confidence interval" in replicated.stderr, replicated.stderr)
grouped = joined.groupby(["alloc", "sched"], sort=False)["utilization"]
for _, row in got.iterrows():
    sd = grouped.std().loc[(row["alloc"], row["sched"])]
    half = 12.7062047362 * sd / 2 ** 0.5  # t(0.975, 1 degree of freedom), 2 replicates
    t.check(abs(row["utilization_ci95"] - half) <= 1e-9 * max(1, abs(half)),
            f"{row['alloc']} {row['sched']} ci: {row['utilization_ci95']} vs {half}")
    t.check(row["replicates"] == ("identical" if sd == 0 else "differ"), f"{row}")

rows = json.loads(env.run([env.allocsim, "report", output, "--group-by", "alloc,sched",
                           "--format", "json"]).stdout)
t.check(len(rows) == 4 and rows[0]["alloc"] == "flat" and rows[0]["configs"] == 2, f"{rows}")
bad = env.run([env.allocsim, "report", output, "--metrics", "utilisation"], expect=2)
t.check("did you mean 'utilization'" in bad.stderr, bad.stderr)

# --baseline sched=fcfs (flat and random give the same schedules here, without a network model):
# per-replicate ratios and differences against fcfs with the same alloc and replicate, their mean and paired Student-t interval, exactly as tools/plot_sweep.py's
# paired() computes them for its --baseline figures (the report and the figure agree).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import plot_common  # noqa: E402
import plot_sweep  # noqa: E402

for mode in ("ratio", "difference"):
    result = env.run([env.allocsim, "report", output, "--baseline", "sched=fcfs", "--paired", mode,
                      "--metrics", "utilization,mean_bsd", "--format", "csv"])
    got = pd.read_csv(io.StringIO(result.stdout))
    t.check(list(got.columns) == ["sched", "alloc", "configs", "failed", "pairs",
                                  f"utilization_{mode}", f"utilization_{mode}_ci95",
                                  f"mean_bounded_slowdown_{mode}",
                                  f"mean_bounded_slowdown_{mode}_ci95"], f"{list(got.columns)}")
    t.check(f"paired {mode}s against sched=fcfs" in result.stderr, result.stderr)
    for metric in ("utilization", "mean_bounded_slowdown"):
        per_replicate = joined.groupby(["alloc", "sched", "replicate"], as_index=False)[metric].mean()
        pairs = plot_sweep.paired(per_replicate, ["alloc", "sched"], "sched", metric, "fcfs", mode)
        for _, row in got.iterrows():
            values = pairs[(pairs["alloc"] == row["alloc"]) & (pairs["sched"] == row["sched"])][metric]
            want, half = values.mean(), plot_common.t_half_width(list(values))
            t.check(abs(row[f"{metric}_{mode}"] - want) <= 1e-12 * max(1, abs(want)),
                    f"{mode} {row['alloc']} {row['sched']} {metric}: {row[f'{metric}_{mode}']} vs {want}")
            t.check(abs(row[f"{metric}_{mode}_ci95"] - half) <= 1e-9 * max(1, abs(half)),
                    f"{mode} ci {row['alloc']} {row['sched']} {metric}: "
                    f"{row[f'{metric}_{mode}_ci95']} vs {half}")
    t.check((got[got["sched"] == "fcfs"][f"utilization_{mode}"] == (1 if mode == "ratio" else 0)).all(),
            f"{got}")
    easy = got[got["sched"] == "easy"]
    t.check((easy[f"mean_bounded_slowdown_{mode}"] != (1 if mode == "ratio" else 0)).all() and
            (easy[f"mean_bounded_slowdown_{mode}_ci95"] > 0).all(), f"a trivial comparison: {got}")
bad = env.run([env.allocsim, "report", output, "--baseline", "alloc=sortedfreelist"], expect=2)
t.check("no done config has alloc = sortedfreelist (values: flat, random)" in bad.stderr, bad.stderr)
bad = env.run([env.allocsim, "report", output, "--baseline", "aloc=flat"], expect=2)
t.check("did you mean 'alloc'" in bad.stderr, bad.stderr)
bad = env.run([env.allocsim, "report", output, "--paired", "difference"], expect=2)
t.check("--paired needs --baseline" in bad.stderr, bad.stderr)
print("report matches pandas")
