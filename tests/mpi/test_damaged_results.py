"""Damaged result files and journals (issue 25). A table of damage made with h5py from a small
valid sweep output goes through `report`, `merge` and tools/allocsim_results.load(): each is
refused with a message naming the file and the dataset or attribute (the Python reader with its
ResultFileError, a ValueError), merge writes no output, and cheap damage (a truncated file, a
broken superblock) is refused by the cheap checks, whose message says what was wrong rather than
that reading timed out. `report` on a file a running sweep holds names the holder's pid; a
journal header with a valid checksum but a bad field stops --resume with the journal, the
record and the field, and the recovery it advises works."""
import os
import shutil
import struct
import sys

import h5py
import numpy as np

import sweeptest as t

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import allocsim_results  # noqa: E402

env = t.Env()
experiment = env.write("damage.toml", """
[experiment]
name = "damage"
seed = 25
keep_jobs = true
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=20,size=uniform:1,16"
[sweep]
alloc = ["mc1x1", "random"]
""")
clean = env.path("clean.h5")
env.sweep(0, experiment, clean)
STRINGS = h5py.string_dtype()


def set_labels(dataset, name, values):
    del dataset.attrs[name]
    dataset.attrs.create(name, np.array(values, dtype=object), dtype=STRINGS)


def set_field(dataset, row, **values):
    record = dataset[row]
    for key, value in values.items():
        record[key] = value
    dataset[row] = record


def first(f, group):
    return f[group][sorted(f[group])[0]]


# name: (damage, what the C++ message says, what the Python error names)
DAMAGE = {
    "extra status label": (
        lambda f: set_labels(f["configs"], "labels_status",
                             ["bogus"] + list(f["configs"].attrs["labels_status"])),
        "labels_status has the label 'bogus'", "/configs attribute labels_status"),
    "status labels swapped": (
        lambda f: (set_labels(f["configs"], "labels_status", ["done"]),
                   set_labels(f["configs"], "labels_status@1", ["pending"])),
        "/summary row 0 is config", "/summary"),
    "missing status label page": (
        lambda f: f["configs"].attrs.__delitem__("labels_status@1"),
        "attribute labels_status and its pages", "/configs attribute labels_status"),
    "missing labels_alloc": (
        lambda f: f["configs"].attrs.__delitem__("labels_alloc"),
        "labels attribute 'labels_alloc' is missing", "/configs attribute labels_alloc"),
    "labels of no column": (
        lambda f: f["configs"].attrs.create("labels_colour", np.array(["x"], dtype=object),
                                            dtype=STRINGS),
        "label attribute 'labels_colour' but no text column", "labels_colour"),
    "duplicate id in /summary": (
        lambda f: set_field(f["summary"], 1, config_id=f["summary"][0]["config_id"]),
        "/summary has config_id", "/summary"),
    "duplicate id in /configs": (
        lambda f: set_field(f["configs"], 1, config_id=f["configs"][0]["config_id"]),
        "/configs has config_id", "/configs"),
    "interval first > last": (
        lambda f: set_field(first(f, "job_nodes"), 0, first=5, last=2),
        "is the interval 5-2", "/jobs/"),
    "node outside the machine": (
        lambda f: set_field(first(f, "job_nodes"), 0, last=64),
        "(expected 0 <= first <= last < 64", "/jobs/"),
    "negative node": (
        lambda f: set_field(first(f, "job_nodes"), 0, first=-1),
        "is the interval -1-", "/jobs/"),
    "offset that wraps": (
        lambda f: set_field(first(f, "jobs"), 1, node_interval_offset=2**64 - 1),
        "past the end of its", "/jobs/"),
    "offsets out of order": (
        lambda f: set_field(first(f, "jobs"), 2, node_interval_offset=0),
        "offsets must increase", "/jobs/"),
    "jobs of no config": (
        lambda f: f.move("jobs/" + sorted(f["jobs"])[0], "jobs/00000000000000ff"),
        "/jobs/00000000000000ff belongs to no config", "/jobs/00000000000000ff"),
    "done count": (
        lambda f: f.attrs.__setitem__("done", np.int64(3)),
        "root attribute 'done' is 3", "root attribute done"),
    "wrong format attribute": (
        lambda f: f.attrs.__setitem__("format", "allocsim-sweep/9"),
        "has result format 'allocsim-sweep/9'", "root attribute format"),
    "/summary of two dimensions": (
        lambda f: (f.__delitem__("summary"), f.create_dataset("summary", data=np.zeros((2, 3)))),
        "/summary is not a table", "/summary"),
    "/configs rows past its storage": (
        lambda f: f["configs"].resize((10**9,)) if f["configs"].maxshape[0] is None else None,
        "/configs declares 1000000000 rows", "/configs"),
}


def python_error(path):
    try:
        allocsim_results.load(path)
    except allocsim_results.ResultFileError as error:
        return str(error)
    except Exception as error:  # noqa: BLE001  (any other type is the finding)
        t.fail(f"allocsim_results.load({path}) raised {type(error).__name__}: {error}")
    return None


def refused(path, expected, dataset, what):
    report = env.run([env.allocsim, "report", path], expect=2)
    t.check(f"'{path}'" in report.stderr and expected in report.stderr,
            f"{what}: report says {report.stderr!r}, expected {expected!r}")
    t.check("did not end within" not in report.stderr, f"{what}: waited for the watchdog")
    merged = env.path("merged.h5")
    merge = env.run([env.allocsim, "merge", path, "-o", merged], expect=2)
    t.check(f"'{path}'" in merge.stderr and expected in merge.stderr,
            f"{what}: merge says {merge.stderr!r}")
    t.check(not os.path.exists(merged), f"{what}: merge wrote {merged}")
    message = python_error(path)
    t.check(message is not None and path in message and dataset in message,
            f"{what}: allocsim_results.load says {message!r}, expected {dataset!r}")


damaged = env.path("damaged.h5")
for name, (damage, expected, dataset) in DAMAGE.items():
    shutil.copy(clean, damaged)
    with h5py.File(damaged, "r+") as f:
        damage(f)
    refused(damaged, expected, dataset, name)
print(f"{len(DAMAGE)} kinds of damage refused by report, merge and allocsim_results")

# Cheap checks: refused by the superblock check, the message says what is wrong.
data = open(clean, "rb").read()
CHEAP = {"truncated to half": (data[:len(data) // 2], "it is truncated", "truncated"),
         "truncated to 5 bytes": (data[:5], "no HDF5 signature", "no HDF5 signature"),
         "superblock version": (data[:8] + b"\x55" + data[9:], "version 85", "version 85"),
         "superblock offsets": (data[:9] + b"\x55" + data[10:], "addresses of 85", "addresses of 85"),
         # The end-of-file address (bytes 28-35) made larger than the file whatever its size:
         # its third byte set to 0x55 adds at least 0x550000 - 0xffff bytes (a low byte would
         # make it smaller or larger depending on the file's size).
         "superblock end address": (data[:30] + b"\x55" + data[31:], "it is truncated",
                                    "truncated")}
for name, (body, expected, python_expected) in CHEAP.items():
    with open(damaged, "wb") as f:
        f.write(body)
    refused(damaged, expected, python_expected, name)
print(f"{len(CHEAP)} cheap kinds of damage refused at once")

# A file a running sweep holds: report and merge name the lock and its holder's pid.
slow = env.write("slow.toml", """
[experiment]
name = "slow"
seed = 1
[base]
machine = "mesh:16x16"
trace = "synthetic:jobs=6000,size=uniform:1,64"
[sweep]
alloc = ["mc1x1", "random", "mm", "flat", "genalg", "mc", "paging", "mbs"]
sched = ["fcfs", "easy"]
""")
live = env.path("live.h5")
process, lines = env.start(0, slow, live)
pid = t.master_pid(lines, process)
t.wait_for_frames(live + ".journal", 1, process)
report = env.run([env.allocsim, "report", live], expect=None)
held = python_error(live)
merge = env.run([env.allocsim, "merge", live, "-o", env.path("m.h5")], expect=None)
still_running = process.poll() is None
t.kill(pid, t.SIGKILL)
t.finish(process)
if still_running:
    for result, what in ((report, "report"), (merge, "merge")):
        t.check(result.returncode == 2 and f"pid {pid} on host" in result.stderr and
                f"lock '{live}.lock'" in result.stderr, f"{what} on a held file: {result.stderr!r}")
    t.check(held is not None and f"pid {pid} on host" in held, f"allocsim_results: {held!r}")
    print("report, merge and allocsim_results on a file a running sweep holds name its pid")
else:
    t.fail("the slow sweep ended before report ran: make it slower")

# A journal header with a valid checksum but a bad field.
def frame(kind, payload):
    checksum = 0xcbf29ce484222325
    for byte in payload:
        checksum = ((checksum ^ byte) * 0x100000001b3) % 2**64
    return b"ASJ1" + struct.pack("<IQQ", kind, len(payload), checksum) + payload


resumed = env.path("resumed.h5")
shutil.copy(clean, resumed)
journal = resumed + ".journal"
with open(journal, "wb") as f:
    f.write(frame(1, b"experiment=damage\nseed=x25\nfingerprint=1\nshard=\n"))
for attempt in range(2):
    result = env.sweep(0, experiment, resumed, "--resume", expect=2)
    for needed in (f"journal '{journal}' record 1", "field 'seed' is 'x25'", f"mv '{journal}'",
                   "--resume"):
        t.check(needed in result.stderr, f"resume {attempt}: {result.stderr!r} lacks {needed!r}")
os.rename(journal, journal + ".damaged")  # the advised recovery
result = env.sweep(0, experiment, resumed, "--resume")
t.check("2 configs already finished" in result.stderr, f"recovered resume: {result.stderr!r}")
print("a bad journal header names the journal, record and field; the advised recovery works")
