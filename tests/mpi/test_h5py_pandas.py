"""h5py reads /summary and /configs into pandas with column names and string values intact;
metric columns are named as in `allocsim run --format json`."""
import json
import shutil

import h5py
import pandas as pd

import sweeptest as t

env = t.Env()
# A trace whose file name has non-ASCII letters, a comma and quotes, beside the experiment.
odd_name = 'naïve, "quoted".swf'
shutil.copy(f"{env.data}/quickstart-a.swf", env.path(odd_name))
experiment = env.write("py.toml", """
[experiment]
name = "pandas"
seed = 21
keep_jobs = true

[base]
machine = "mesh:8x8"
transforms = ["runtime_scale:factor={work}"]

[sweep]
alloc = ["flat", "random"]
work = [1, 2.5]
trace = ["synthetic:jobs=60,size=uniform:1,16", 'naïve, "quoted".swf']
[[exclude]]
trace = "synthetic:*"
work = 2.5
""")
output = env.path("py.h5")
env.sweep(1, experiment, output)

run = env.run([env.allocsim, "run", "--machine", "mesh:8x8", "--trace", "synthetic:jobs=5",
               "--format", "json"])
json_keys = list(json.loads(run.stdout)["summary"].keys())

with h5py.File(output, "r") as f:
    summary = pd.DataFrame(f["summary"][()])
    raw_configs = pd.DataFrame(f["configs"][()])
    configs = t.table(f["configs"])
    # Text columns are codes into string-array attributes, which h5py returns as str.
    alloc_labels = f["configs"].attrs["labels_alloc"]
    t.check(all(isinstance(v, str) for v in alloc_labels), "labels are str")
    t.check([alloc_labels[c] for c in raw_configs["alloc"]] == list(configs["alloc"]),
            "alloc codes index the labels")
    t.check(f.attrs["experiment"] == "pandas", "string attributes come back as str")
    t.check("[sweep]" in f.attrs["experiment_text"], "experiment text stored")
    t.check(isinstance(f.attrs["master_cpu_share"], float), "master CPU share stored")
    first = format(int(configs["config_id"][0]), "016x")
    jobs = pd.DataFrame(f["jobs"][first][()])

t.check(list(summary.columns) == ["config_id"] + json_keys,
        f"/summary columns {list(summary.columns)} vs run --format json {json_keys}")
t.check(len(summary) == 6 and summary["config_id"].dtype == "uint64", f"{summary.dtypes}")
t.check(summary["utilization"].between(0, 1).all(), "utilization values")
t.check("job_id" in jobs.columns and len(jobs) == summary["jobs"][0], f"/jobs table {jobs.shape}")
t.check(jobs["node_interval_count"].sum() > 0, "node intervals of the jobs")

t.check(set(configs["alloc"]) == {"flat", "random"}, f"alloc strings {set(configs['alloc'])}")
t.check(set(configs["trace"]) == {"synthetic:jobs=60,size=uniform:1,16", odd_name},
        f"{set(configs['trace'])}")
t.check(configs["label"][2] == f"alloc=flat work=2.5 trace={odd_name}", configs["label"][2])
t.check(configs["work"].dtype == "float64", "a numeric variable is a float column")
t.check((configs["status"] == "done").all(), "status strings")
t.check(set(configs["transforms"]) == {"runtime_scale:factor=1", "runtime_scale:factor=2.5"},
        f"{set(configs['transforms'])}")
joined = configs.merge(summary, on="config_id")
t.check(len(joined) == 6, "configs and summary join on config_id")
print("h5py + pandas: columns and strings intact")
