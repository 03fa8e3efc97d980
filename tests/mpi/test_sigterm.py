"""SIGTERM to the master: no new configs, in-flight ones finish (or are abandoned after the
grace period), the file is flushed and closed, exit non-zero with the resume hint."""
import os
import time

import sweeptest as t

env = t.Env()
experiment = env.write("term.toml", """
[experiment]
name = "sigterm"
seed = 9

[base]
machine = "mesh:16x16"
trace = "synthetic:jobs=400,arrival=exp:10,runtime=exp:400,size=uniform:1,64"
transforms = ["target_load:load={load}"]

[sweep]
alloc = ["flat", "random", "sortedfreelist", "mbs"]
sched = ["fcfs", "easy", "conservative"]
load = [0.5, 0.8, 1.1]
""")
reference = env.path("reference.h5")
env.sweep(3, experiment, reference)

# 1. Two ranks under mpirun; the signal goes to the master alone (as with Slurm's --signal).
output = env.path("term.h5")
process, lines = env.start(2, experiment, output)
pid = t.master_pid(lines, process)
t.wait_for_frames(output + ".journal", 3, process)
t.kill(pid, t.SIGTERM)
code = t.finish(process)
text = "".join(lines)
t.check(code != 0, "an interrupted sweep must exit non-zero")
t.check("interrupted; rerun with --resume" in text, "missing resume hint:\n" + text)
info = t.attrs(output)  # readable: flushed and closed
t.check(info["status"] == "interrupted", f"status {info['status']}")
t.check(info["pending"] > 0 and info["done"] >= 3, f"done {info['done']} pending {info['pending']}")
statuses = t.configs(output)["status"].value_counts().to_dict()
t.check(statuses.get("done") == info["done"] and statuses.get("pending") == info["pending"],
        f"/configs statuses {statuses}")
env.sweep(2, experiment, output, "--resume")
t.assert_same_results(output, reference, "interrupted by SIGTERM, then resumed")

# 2. One rank (no mpirun): the master's own worker thread is stopped the same way; a grace
#    period shorter than a config abandons it and still closes the file.
slow = env.write("slow.toml", """
[experiment]
name = "slow"
[base]
machine = "mesh:32x32"
sched = "conservative"
trace = "synthetic:jobs=200000,arrival=exp:1,runtime=exp:1000,size=uniform:1,256"
[sweep]
alloc = ["flat", "random"]
""")
output = env.path("slow.h5")
process, lines = env.start(0, slow, output, "--grace", "0.5")
pid = t.master_pid(lines, process)
time.sleep(0.5)
started = time.time()
t.kill(pid, t.SIGTERM)
code = t.finish(process)
elapsed = time.time() - started
text = "".join(lines)
t.check(code == 3, f"exit status {code}, expected 3:\n{text}")
t.check("interrupted; rerun with --resume" in text, "missing resume hint:\n" + text)
t.check(elapsed < 30, f"took {elapsed:.1f} s to stop (grace 0.5 s)")
info = t.attrs(output)
t.check(info["status"] == "interrupted" and info["pending"] == 2, f"{info}")
print("SIGTERM: clean exit, message, readable file, resume completes")
