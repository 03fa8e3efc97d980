"""SIGKILL of mpirun ends every rank at once (they die with their launcher), so an immediate
`--resume` finds the output lock free and completes the sweep."""
import os
import time

import sweeptest as t

env = t.Env()
experiment = env.write("orphan.toml", """
[experiment]
name = "orphan"
seed = 9
[base]
machine = "mesh:16x16"
trace = "synthetic:jobs=400,arrival=exp:10,runtime=exp:400,size=uniform:1,64"
[sweep]
alloc = ["flat", "random", "sortedfreelist", "mbs"]
sched = ["fcfs", "easy", "conservative"]
""")
output = env.path("orphan.h5")
process, lines = env.start(3, experiment, output)
master = t.master_pid(lines, process)
t.wait_for_frames(output + ".journal", 1, process)


def descendants(pid):
    found = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except FileNotFoundError:
        return found
    for child in children:
        found += [child] + descendants(child)
    return found


ranks = [pid for pid in descendants(process.pid)
         if os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "allocsim"]
t.check(master in ranks and len(ranks) == 3, f"ranks {ranks}, master {master}")
killed = time.time()
t.kill(process.pid, t.SIGKILL)
process.wait()
# Bounded wait on the event "every rank is gone" (the bound only catches ranks that live on).
deadline = time.time() + 30
alive = ranks
while alive and time.time() < deadline:
    alive = [pid for pid in alive if os.path.exists(f"/proc/{pid}") and
             open(f"/proc/{pid}/stat").read().split(") ")[1][0] != "Z"]
    time.sleep(0.01)
t.check(not alive, f"ranks {alive} outlived mpirun")
gone_after = time.time() - killed
env.sweep(2, experiment, output, "--resume", "--lock-wait", "0")
statuses = t.configs(output)["status"]
t.check(len(statuses) == 12 and (statuses == "done").all(), statuses.value_counts().to_dict())
print(f"mpirun killed: its {len(ranks)} ranks were gone {gone_after:.2f} s later; --resume "
      "completed at once")
