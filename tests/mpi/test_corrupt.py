"""200 random byte corruptions of a small result file: `allocsim report`
never crashes (no exit by a signal) and never hangs (each run bounded by this test's own
generous limit); it prints the report or a clear error (exit 2). A few corrupted files without
a journal must also not crash or hang `sweep --resume`, and with an intact journal the resume
rebuilds the file. Deterministic: the corruptions come from a fixed seed."""
import os
import random
import shutil
import subprocess

import sweeptest as t

env = t.Env()
experiment = env.write("corrupt.toml", """
[experiment]
name = "corrupt"
seed = 16
keep_jobs = true
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=30,size=uniform:1,16"
[sweep]
alloc = ["flat", "random"]
sched = ["fcfs", "easy"]
""")
clean = env.path("clean.h5")
env.sweep(0, experiment, clean)
data = open(clean, "rb").read()
rng = random.Random(16)
damaged = env.path("damaged.h5")


def corrupt():
    """A copy of the clean file with 1 to 4 random bytes replaced."""
    body = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        body[rng.randrange(len(body))] = rng.randrange(256)
    with open(damaged, "wb") as f:
        f.write(body)


def bounded(args):
    try:
        return subprocess.run(args, env=env.env, capture_output=True, text=True,
                              errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        t.fail(f"{' '.join(args)} hung (corruption seed 16)")


outcomes = {}
crashes_caught = 0
for run in range(200):
    corrupt()
    result = bounded([env.allocsim, "report", damaged])
    t.check(result.returncode >= 0, f"run {run}: report died of signal {-result.returncode}:\n"
            f"{result.stderr}")
    t.check(result.returncode in (0, 2), f"run {run}: exit {result.returncode}:\n{result.stderr}")
    t.check("internal error" not in result.stderr, f"run {run}: {result.stderr}")
    outcomes[result.returncode] = outcomes.get(result.returncode, 0) + 1
    crashes_caught += "crashed the HDF5 library" in result.stderr
print(f"report on 200 corrupted files: {outcomes.get(0, 0)} read, {outcomes.get(2, 0)} refused "
      f"({crashes_caught} of them crash libhdf5 when read directly)")

# --resume from a corrupted finished file (no journal): an error or a rebuild, never a crash.
resumed = {}
for run in range(10):
    corrupt()
    result = bounded(env.command(0, experiment, damaged, "--resume"))
    t.check(result.returncode in (0, 2), f"resume {run}: exit {result.returncode}:\n"
            f"{result.stderr}")
    resumed[result.returncode] = resumed.get(result.returncode, 0) + 1
    if os.path.exists(damaged + ".journal"):
        os.remove(damaged + ".journal")
print(f"--resume on 10 corrupted files: {resumed}")

# A damaged live file beside an intact journal: --resume rebuilds from the journal.
live = env.path("live.h5")
# SIGKILL a run once its journal holds every result (before its final rewrite, if it is not
# that fast; otherwise there is no journal and nothing to check).
process, lines = env.start(0, experiment, live)
pid = t.master_pid(lines, process)
if t.wait_for_frames(live + ".journal", 4, process):
    t.kill(pid, t.SIGKILL)
t.finish(process)
if os.path.exists(live + ".journal"):
    with open(live, "r+b") as f:
        f.seek(len(data) // 2)
        f.write(b"\xff" * 64)
    env.sweep(0, experiment, live, "--resume")
    statuses = t.configs(live)["status"]
    t.check(len(statuses) == 4 and (statuses == "done").all(), f"rebuilt: {statuses.tolist()}")
    print("damaged live file + intact journal: rebuilt by --resume")
