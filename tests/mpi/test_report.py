"""`allocsim report` groups and averages like pandas does on the same file."""
import io
import json

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

csv = env.run([env.allocsim, "report", output, "--group-by", "alloc", "--metrics",
               "utilization,mean_bsd", "--format", "csv"]).stdout
got = pd.read_csv(io.StringIO(csv))
t.check(list(got.columns) == ["alloc", "configs", "failed", "utilization", "utilization_ci95",
                              "mean_bounded_slowdown", "mean_bounded_slowdown_ci95"],
        f"{list(got.columns)}")
joined = t.configs(output).merge(t.summary(output), on="config_id")
grouped = joined.groupby("alloc", sort=False)[["utilization", "mean_bounded_slowdown"]]
expected, spread = grouped.mean(), grouped.std()
for _, row in got.iterrows():
    for metric in ("utilization", "mean_bounded_slowdown"):
        want = expected.loc[row["alloc"], metric]
        t.check(abs(row[metric] - want) <= 1e-12 * max(1, abs(want)),
                f"{row['alloc']} {metric}: {row[metric]} vs {want}")
        # 95 % half-width with Student's t for 4 configs (3 degrees of freedom).
        half = 3.182 * spread.loc[row["alloc"], metric] / 2.0
        t.check(abs(row[metric + "_ci95"] - half) <= 1e-9 * max(1, abs(half)),
                f"{row['alloc']} {metric} ci: {row[metric + '_ci95']} vs {half}")
t.check((got["configs"] == 4).all(), f"{got}")

rows = json.loads(env.run([env.allocsim, "report", output, "--group-by", "alloc,sched",
                           "--format", "json"]).stdout)
t.check(len(rows) == 4 and rows[0]["alloc"] == "flat" and rows[0]["configs"] == 2, f"{rows}")
bad = env.run([env.allocsim, "report", output, "--metrics", "utilisation"], expect=2)
t.check("did you mean 'utilization'" in bad.stderr, bad.stderr)
print("report matches pandas")
