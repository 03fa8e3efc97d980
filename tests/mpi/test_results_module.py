"""Result files describe themselves: every table column has `unit` and `description`
attributes, the root holds provenance (command line, traces with SHA-256, ALLOCSIM_TRACE_DIR,
versions), and tools/allocsim_results.load() returns str-valued DataFrames whose join of
/configs and /summary matches the file, also after shards are merged."""
import hashlib
import os
import re
import shutil
import sys

import h5py
import pandas as pd

import sweeptest as t

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import allocsim_results  # noqa: E402

env = t.Env()
shutil.copy(f"{env.data}/small.swf", env.path("small.swf"))
experiment = env.write("loader.toml", """
[experiment]
name = "loader"
seed = 3
keep_jobs = true
[base]
machine = "mesh:8x8"
decisions = ["mc1x1", "mm"]
[sweep]
alloc = ["mc1x1", "mm"]
trace = ["synthetic:jobs=40,size=uniform:1,16", "small.swf"]
""")
output = env.path("loader.h5")
env.sweep(1, experiment, output)


def check_self_describing(path):
    with h5py.File(path, "r") as f:
        tables = ["configs", "summary"] + [f"{g}/{k}" for g in ("jobs", "job_nodes", "decisions")
                                           if g in f for k in f[g]]
        t.check(any(n.startswith("jobs/") for n in tables), f"no /jobs tables: {tables}")
        t.check(any(n.startswith("decisions/") for n in tables), f"no /decisions: {tables}")
        for name in tables:
            dataset = f[name]
            names = dataset.dtype.names
            units, descriptions = dataset.attrs["unit"], dataset.attrs["description"]
            t.check(len(units) == len(names) == len(descriptions),
                    f"{name}: {len(names)} columns, {len(units)} units")
            for column, unit, text in zip(names, units, descriptions):
                t.check(isinstance(unit, str) and isinstance(text, str),
                        f"{name}.{column}: unit/description not str")
                t.check(text.strip() != "", f"{name}.{column} has no description")
        for key, value in f.attrs.items():
            if isinstance(value, bytes):
                t.fail(f"root attribute {key} is bytes, not str")
        return dict(f.attrs)


info = check_self_describing(output)
t.check("sweep" in info["command_line"] and experiment in info["command_line"],
        info["command_line"])
t.check(info["trace_dir"] == env.data, f"trace_dir {info['trace_dir']}")
traces = dict(zip(info["trace_names"], zip(info["trace_paths"], info["trace_sha256"])))
with open(env.path("small.swf"), "rb") as trace:
    digest = hashlib.sha256(trace.read()).hexdigest()
t.check(traces["small.swf"] == (env.path("small.swf"), digest), f"{traces}")
t.check(traces["synthetic:jobs=40,size=uniform:1,16"] == ("", ""), f"{traces}")
t.check(re.fullmatch(r"\d+\.\d+\.\d+", info["hdf5_version"]) is not None, info["hdf5_version"])
t.check(info["hdf5_version"] == h5py.version.hdf5_version, "HDF5 version of the writer")
t.check(info["mpi_version"].startswith("Open MPI v"), info["mpi_version"])
t.check(re.fullmatch(r"1\.\d+\.\d+", info["boost_version"]) is not None, info["boost_version"])
t.check("+" in info["version"], f"allocsim version with git describe: {info['version']}")

frames = allocsim_results.load(output)
t.check({"configs", "summary", "results", "jobs", "decisions", "columns", "traces"}
        <= set(frames), f"{set(frames)}")
configs = frames["configs"]
for column in configs.columns:
    if configs[column].dtype == object:
        t.check(all(isinstance(v, str) for v in configs[column]), f"configs.{column} not str")
# The join, checked against the file read independently.
with h5py.File(output, "r") as f:
    raw_configs = pd.DataFrame(f["configs"][()])
    raw_summary = pd.DataFrame(f["summary"][()])
    raw_labels = {c: list(f["configs"].attrs[f"labels_{c}"]) for c in ("alloc", "trace")}
results = frames["results"]
t.check(len(results) == len(raw_summary) == 4, f"{len(results)} joined rows")
for _, row in results.iterrows():
    stored = raw_summary[raw_summary["config_id"] == row["config_id"]].iloc[0]
    config = raw_configs[raw_configs["config_id"] == row["config_id"]].iloc[0]
    for metric in ("makespan", "utilization", "mean_wait", "jobs"):
        t.check(row[metric] == stored[metric], f"{row['label']} {metric}")
    t.check(row["alloc"] == raw_labels["alloc"][int(config["alloc"])], f"{row['label']} alloc")
    t.check(row["trace"] == raw_labels["trace"][int(config["trace"])], f"{row['label']} trace")
jobs = frames["jobs"]
for _, row in results.iterrows():
    count = (jobs["config_id"] == row["config_id"]).sum()
    t.check(count == row["jobs"], f"{row['label']}: {count} job rows, {row['jobs']} jobs")
t.check(set(frames["decisions"]["decision"]) == {"mc1x1", "mm"}, f"{frames['decisions']}")
units = allocsim_results.units(frames)
t.check(units["makespan"] == "s" and units["utilization"] == "1", f"{units}")
t.check(allocsim_results.units(frames, "jobs")["wait"] == "s", "job units")
t.check(results.attrs["trace_sha256"] == info["trace_sha256"].tolist(), "provenance in attrs")
t.check(frames["traces"]["sha256"].tolist() == info["trace_sha256"].tolist(), "traces frame")

# Merged shards keep units, descriptions and provenance.
parts = []
for k in (1, 2):
    parts.append(env.path(f"part{k}.h5"))
    env.sweep(1, experiment, parts[-1], "--shard", f"{k}/2")
merged = env.path("merged.h5")
env.run([env.allocsim, "merge", *parts, "-o", merged])
merged_info = check_self_describing(merged)
t.check(list(merged_info["trace_sha256"]) == list(info["trace_sha256"]), "merged provenance")
t.check(len(allocsim_results.load(merged)["results"]) == 4, "merged results")
print("result files describe themselves; allocsim_results.load joins them")
