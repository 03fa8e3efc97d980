"""SIGUSR1 through mpirun (every rank gets it) stops a batched sweep: exit 3, an interrupted
file with its rows in index order (pending ones included), the journal kept; --resume with
another rank count finishes it, equal to an uninterrupted run."""
import os

import sweeptest as t

env = t.Env()
experiment = env.write("stop.toml", """
[experiment]
name = "stop-resume"
seed = 13

[base]
machine = "mesh:16x16"
trace = "synthetic:jobs=300,arrival=exp:10,runtime=exp:400,size=uniform:1,64"
transforms = ["target_load:load={load}"]

[sweep]
alloc = ["flat", "random", "sortedfreelist", "mbs"]
sched = ["fcfs", "easy"]
load = {from = 0.5, to = 1.2, step = 0.05}
""")
total = 4 * 2 * 15
reference = env.path("reference.h5")
env.sweep(3, experiment, reference)

output = env.path("stopped.h5")
process, lines = env.start(3, experiment, output)
t.master_pid(lines, process)
t.wait_for_frames(output + ".journal", 10, process)
t.kill(process.pid, t.SIGUSR1)  # mpirun forwards SIGUSR1 to every rank
code = t.finish(process)
text = "".join(lines)
t.check(code == 3, f"exit status {code}, expected 3:\n{text}")
t.check("interrupted; rerun with --resume" in text, "missing resume hint:\n" + text)
t.check(os.path.exists(output + ".journal"), "an interrupted sweep keeps its journal")
info = t.attrs(output)
t.check(info["status"] == "interrupted" and info["pending"] > 0, f"{info}")
configs = t.configs(output)
t.check(list(configs["index"]) == list(range(total)), "rows are not in index order")
t.check((configs["status"] == "pending").sum() == info["pending"], "pending rows missing")

env.sweep(2, experiment, output, "--resume")
t.check(not os.path.exists(output + ".journal"), "a complete sweep removes its journal")
t.assert_same_results(output, reference, "stopped by SIGUSR1, then resumed")
print("SIGUSR1 stop, resume at another -np: identical to the uninterrupted run")
