"""SIGKILL the master at several points, resume, and get every config exactly once with the
results of an uninterrupted run."""
import os

import sweeptest as t

env = t.Env()
experiment = env.write("kill.toml", """
[experiment]
name = "kill-resume"
seed = 5
keep_jobs = true

[base]
machine = "mesh:16x16"
trace = "synthetic:jobs=400,arrival=exp:10,runtime=exp:400,size=uniform:1,64"
transforms = ["target_load:load={load}"]

[sweep]
alloc = ["flat", "random", "sortedfreelist", "mbs"]
sched = ["fcfs", "easy", "conservative"]
load = [0.5, 0.8, 1.1]
""")
total = 36
reference = env.path("reference.h5")
env.sweep(2, experiment, reference)

output = env.path("killed.h5")
journal = output + ".journal"
# (ranks, journal frames to wait for before the kill): at start-up, early, late.
rounds = [(2, 0), (3, 8), (1, 20), (2, 30)]
for number, (ranks, frames) in enumerate(rounds):
    extra = ["--resume"] if number > 0 else []
    process, lines = env.start(ranks, experiment, output, *extra)
    pid = t.master_pid(lines, process)
    if frames > 0:
        t.wait_for_frames(journal, frames, process)
    t.kill(pid, t.SIGKILL)
    t.finish(process)
    print(f"round {number}: killed the master (-np {ranks}) with {t.journal_frames(journal)} "
          f"results in the journal")
    t.check(os.path.exists(journal), "the journal must survive a SIGKILL")

env.sweep(2, experiment, output, "--resume")
t.check(not os.path.exists(journal), "a complete sweep removes its journal")
statuses = t.configs(output)["status"]
t.check(len(statuses) == total and (statuses == "done").all(),
        f"after --resume: {statuses.value_counts().to_dict()}")
t.assert_same_results(output, reference, "killed and resumed")
# Per-job tables too.
import h5py
with h5py.File(output, "r") as a, h5py.File(reference, "r") as b:
    t.check(sorted(a["jobs"]) == sorted(b["jobs"]), "/jobs groups differ")
    for name in b["jobs"]:
        t.check((a["jobs"][name][()] == b["jobs"][name][()]).all(), f"/jobs/{name} differs")
print("killed 4 times, resumed: identical to the uninterrupted run")
