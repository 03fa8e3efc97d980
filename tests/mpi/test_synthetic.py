"""--synthetic-results (workers answer at once, made-up metrics from the config id) under
mpirun --oversubscribe at 8 ranks: every config done, the same values as with 2 ranks, and the
master's per-result cost printed."""
import re

import sweeptest as t

env = t.Env()
experiment = env.write("synthetic.toml", """
[experiment]
name = "synthetic-results"
seed = 4

[base]
machine = "mesh:4x4"
trace = "synthetic:jobs=2,arrival=exp:20,runtime=exp:30,size=uniform:1,4"
transforms = ["target_load:load={load}"]

[sweep]
alloc = ["flat", "random"]
load = {from = 0.001, to = 2.0, step = 0.001}
""")
outputs = {}
for ranks in (2, 8):
    outputs[ranks] = env.path(f"np{ranks}.h5")
    result = env.sweep(ranks, experiment, outputs[ranks], "--synthetic-results")
    info = t.attrs(outputs[ranks])
    t.check(info["status"] == "complete" and info["done"] == 4000, f"-np {ranks}: {info}")
    cost = re.search(r"master: ([0-9.]+) us CPU per result", result.stderr)
    t.check(cost is not None, "no master cost line:\n" + result.stderr)
    print(f"-np {ranks}: master {cost.group(1)} us CPU per result")
t.assert_same_results(outputs[8], outputs[2], "synthetic results, -np 8 vs -np 2")
summary = t.summary(outputs[8])
t.check(summary.drop(columns=["config_id"]).nunique().min() > 1, "synthetic metrics are constant")
print("synthetic results: deterministic at -np 2 and -np 8")
