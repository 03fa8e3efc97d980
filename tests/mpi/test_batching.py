"""Tasks and results travel in batches and rows reach the file in index order, so the HDF5
content (timing columns aside) is identical for -np 2 and -np 4: /configs and /summary row by
row, and every /jobs table."""
import h5py
import numpy as np

import sweeptest as t

env = t.Env()
# 600 tiny configs (many results per message) and a few slower ones (long-first dispatch puts
# them first, so results arrive far from index order), with per-job tables.
experiment = env.write("batch.toml", """
[experiment]
name = "batching"
seed = 21
keep_jobs = true

[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=6,arrival=exp:20,runtime=exp:30,size=uniform:1,8"
transforms = ["target_load:load={load}"]
sched = "fcfs"
load = 0.8

[sweep]
alloc = ["flat", "random", "mbs"]
load = {from = 0.005, to = 1.0, step = 0.005}

[[include]]
trace = "synthetic:jobs=3000,arrival=exp:20,runtime=exp:300,size=uniform:1,24"
sched = "conservative"
alloc = "mbs"
""")


def content(path):
    with h5py.File(path, "r") as f:
        configs = f["configs"][()]
        names = [n for n in configs.dtype.names if n not in t.TIMING_COLUMNS]
        jobs = {name: f["jobs"][name][()] for name in f["jobs"]}
        return configs[names], f["summary"][()], jobs


outputs = {}
for ranks in (2, 4):
    outputs[ranks] = env.path(f"np{ranks}.h5")
    result = env.sweep(ranks, experiment, outputs[ranks])
    info = t.attrs(outputs[ranks])
    t.check(info["status"] == "complete" and info["done"] == 601, f"-np {ranks}: {info}")
    t.check("us CPU per result" in result.stderr, "no master cost line:\n" + result.stderr)

a_configs, a_summary, a_jobs = content(outputs[2])
b_configs, b_summary, b_jobs = content(outputs[4])
t.check(list(a_configs["index"]) == list(range(601)), "/configs rows are not in index order")
t.check(len(a_configs) == len(b_configs) and (a_configs == b_configs).all(),
        "/configs differ between -np 2 and -np 4")
t.check(a_summary.tobytes() == b_summary.tobytes(), "/summary differs between -np 2 and -np 4")
t.check(sorted(a_jobs) == sorted(b_jobs) and len(a_jobs) == 601, "/jobs groups differ")
for name, table in a_jobs.items():
    other = b_jobs[name]
    t.check(len(table) == len(other) and (table == other).all(), f"/jobs/{name} differs")
ranks_used = set(np.unique(t.configs(outputs[4])["rank"]))
t.check(ranks_used <= {1, 2, 3} and len(ranks_used) > 1, f"-np 4 ran on ranks {ranks_used}")
print("-np 2 and -np 4: identical /configs, /summary and /jobs, rows in index order")
