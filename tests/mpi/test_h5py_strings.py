"""h5py reads every string of a result file as `str`: no dataset stores text (text columns are
codes into string-array attributes, node ids are integer intervals), every attribute anywhere
is str or numbers, and every column of every table has `unit` and `description` attributes.
A format 1 file (strings inside the tables, as written before) is still read by `report`,
`merge` and tools/allocsim_results.py, and `merge` rewrites it in the current format."""
import os
import shutil
import sys

import h5py
import numpy as np

import sweeptest as t

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import allocsim_results  # noqa: E402

env = t.Env()
shutil.copy(f"{env.data}/small.swf", env.path('ünï, "q".swf'))
experiment = env.write("strings.toml", """
[experiment]
name = "strïngs"
seed = 9
keep_jobs = true
replicates = 2
[base]
machine = "mesh:8x8"
decisions = ["mc1x1", "mm"]
transforms = ["{scaling}"]
[sweep]
alloc = ["mc1x1", "mm"]
scaling = ["runtime_scale:factor=1", "size_scale:factor=0.5"]
trace = ["synthetic:jobs=30,size=uniform:1,16", 'ünï, "q".swf']
[[include]]
trace = "quickstart-bad"
strict = true
scaling = "runtime_scale:factor=1"
""")
output = env.path("strings.h5")
env.sweep(1, experiment, output, expect=None)


def check_str_only(path):
    """Walks the file; returns the number of datasets and attributes checked."""
    counts = {"datasets": 0, "attributes": 0}

    def check_attributes(name, obj):
        for key, value in obj.attrs.items():
            counts["attributes"] += 1
            where = f"{path}:{obj.name} attribute {key}"
            t.check(not isinstance(value, bytes), f"{where} is bytes")
            if isinstance(value, np.ndarray):
                t.check(value.dtype.kind in "Oiuf", f"{where} has dtype {value.dtype}")
                for item in value.ravel():
                    t.check(isinstance(item, (str, np.integer, np.floating)),
                            f"{where} holds {type(item).__name__} {item!r}")
            else:
                t.check(isinstance(value, (str, np.integer, np.floating, int, float)),
                        f"{where} is {type(value).__name__}")

    def check_object(name, obj):
        check_attributes(name, obj)
        if not isinstance(obj, h5py.Dataset):
            return
        counts["datasets"] += 1
        names = obj.dtype.names
        t.check(names is not None, f"{obj.name} is not a table")
        for column in names:
            member = obj.dtype[column]
            t.check(h5py.check_string_dtype(member) is None and member.kind in "iuf",
                    f"{obj.name}.{column} stores {member} (text inside a dataset)")
            if f"labels_{column}" in obj.attrs:
                t.check(member.kind == "u", f"{obj.name}.{column}: codes must be unsigned")
        rows = obj[()]
        for column in names:  # what a user reads raw: numbers only
            t.check(rows[column].dtype.kind in "iuf", f"{obj.name}.{column} reads as text")
        units, descriptions = obj.attrs["unit"], obj.attrs["description"]
        t.check(len(units) == len(names) == len(descriptions),
                f"{obj.name}: {len(names)} columns, {len(units)} units, "
                f"{len(descriptions)} descriptions")
        for column, text in zip(names, descriptions):
            t.check(text.strip() != "", f"{obj.name}.{column} has no description")
        for key in obj.attrs:
            if key.startswith("labels_"):
                column = key[len("labels_"):].split("@")[0]
                t.check(column in names, f"{obj.name}: {key} labels no column")

    with h5py.File(path, "r") as f:
        check_attributes("/", f)
        f.visititems(check_object)
    return counts


counts = check_str_only(output)
t.check(counts["datasets"] >= 2 + 3 * 8, f"too few tables walked: {counts}")
print(f"{output}: {counts['datasets']} tables, {counts['attributes']} attributes, all str")

frames = allocsim_results.load(output)
configs = frames["configs"]
for column in configs.columns:
    if configs[column].dtype == object:
        t.check(all(isinstance(v, str) for v in configs[column]), f"configs.{column} not str")
t.check(set(configs["status"]) == {"done", "failed"}, f"{set(configs['status'])}")
t.check(configs.loc[configs["status"] == "failed", "error"].str.len().min() > 0, "error text")
t.check('ünï, "q".swf' in set(configs["trace"]), f"{set(configs['trace'])}")
t.check(set(configs["scaling"]) == {"runtime_scale:factor=1", "size_scale:factor=0.5"},
        f"{set(configs['scaling'])}")
jobs = frames["jobs"]
t.check(all(isinstance(v, str) for v in jobs["allocated_nodes"]), "allocated_nodes not str")
sizes = [sum(int(b or a) - int(a) + 1 for a, _, b in (p.partition("-") for p in text.split()))
         for text in jobs["allocated_nodes"]]
t.check(sizes == jobs["nodes"].astype(int).tolist(), "interval sets hold the jobs' node counts")


def downgrade(path, old):
    """The same results in the format 1 layout: text as variable-length strings inside the
    tables, node ids as interval-set text in /jobs, no /job_nodes."""
    string = h5py.string_dtype("utf-8")
    with h5py.File(path, "r") as f, h5py.File(old, "w") as out:
        for key, value in f.attrs.items():
            out.attrs[key] = value
        out.attrs["format"] = "allocsim-sweep/1"

        def copy(name, obj):
            if not isinstance(obj, h5py.Dataset) or name.startswith("job_nodes/"):
                return
            frame = allocsim_results.table(obj)
            attrs = dict(obj.attrs)
            if name.startswith("jobs/"):
                frame = allocsim_results._with_allocated_nodes(frame, f, name.split("/")[1])
                keep = [i for i, c in enumerate(obj.dtype.names)
                        if c not in allocsim_results.NODE_COLUMNS]
                attrs["unit"] = [attrs["unit"][i] for i in keep] + [""]
                attrs["description"] = [attrs["description"][i] for i in keep] + ["node ids"]
            dtype = [(c, string if frame[c].dtype == object else frame[c].dtype)
                     for c in frame.columns]
            rows = np.empty(len(frame), dtype=dtype)
            for c in frame.columns:
                rows[c] = frame[c].to_numpy()
            dataset = out.create_dataset(name, data=rows, maxshape=(None,), chunks=True)
            for key, value in attrs.items():
                if not key.startswith("labels_"):
                    dataset.attrs[key] = value

        f.visititems(copy)


old = env.path("format1.h5")
downgrade(output, old)
with h5py.File(old, "r") as f:
    t.check(isinstance(f["configs"][0]["alloc"], bytes), "the format 1 copy stores bytes")
old_frames = allocsim_results.load(old)
for name in ("configs", "summary", "jobs", "decisions"):
    t.check(old_frames[name].equals(frames[name]), f"format 1 {name} read differently")
for mode in ([], ["--decisions"]):
    new_report = env.run([env.allocsim, "report", output, *mode]).stdout
    t.check(env.run([env.allocsim, "report", old, *mode]).stdout == new_report,
            f"report {mode} of the format 1 file differs")
merged = env.path("merged.h5")
env.run([env.allocsim, "merge", old, "-o", merged])
with h5py.File(merged, "r") as f:
    t.check(f.attrs["format"] == "allocsim-sweep/2", f"merged format {f.attrs['format']}")
check_str_only(merged)
merged_frames = allocsim_results.load(merged)
for name in ("configs", "summary", "jobs", "decisions"):
    t.check(merged_frames[name].equals(frames[name]), f"merged format 1 {name} differs")

# A format this allocsim does not know is refused with the file named.
with h5py.File(old, "r+") as f:
    f.attrs["format"] = "allocsim-sweep/9"
refused = env.run([env.allocsim, "report", old], expect=None)
t.check(refused.returncode != 0 and old in refused.stderr and "allocsim-sweep/9" in refused.stderr,
        f"unknown format: {refused.stderr}")
print("every string h5py reads is str; format 1 files are read and merged into format 2")

# Labels past one page continue in labels_<column>@1, @2, ... (as the C++ writer pages them).
paged = env.path("paged.h5")
with h5py.File(paged, "w") as f:
    dataset = f.create_dataset("t", data=np.array([(0,), (2049,), (2050,)], dtype=[("x", "<u4")]))
    dataset.attrs["labels_x"] = [f"v{i}" for i in range(2048)]
    dataset.attrs["labels_x@1"] = ["v2048", "v2049", "v2050"]
    t.check(allocsim_results.table(dataset)["x"].tolist() == ["v0", "v2049", "v2050"],
            "paged labels")
