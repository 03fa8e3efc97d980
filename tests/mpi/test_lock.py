"""Two sweeps on one output file: while a sweep holds `<file>.lock`, a
second sweep (--overwrite or --resume) and a merge into that file are refused at once with the
holder's pid and host, and the first sweep completes intact."""
import os
import signal
import socket

import sweeptest as t

env = t.Env()
experiment = env.write("lock.toml", """
[experiment]
name = "lock"
seed = 3
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=60,size=uniform:1,16"
[sweep]
alloc = ["flat", "random", "mbs"]
sched = ["fcfs", "easy"]
""")
other = env.path("other.h5")
env.sweep(0, experiment, other)
output = env.path("locked.h5")
lock = output + ".lock"
first, lines = env.start(2, experiment, output)
pid = t.master_pid(lines, first)
# The master prints its pid after taking the lock; freeze it so that it cannot finish while
# the others try (an event, not a time window).
t.check(os.path.exists(lock), "the master holds no lock file")
t.kill(pid, signal.SIGSTOP)
try:
    holder = f"in use by pid {pid} on host {socket.gethostname()}"
    for extra in (["--overwrite"], ["--resume", "--lock-wait", "0"],
                  ["--resume", "--lock-wait", "0.5"]):
        second = env.sweep(0, experiment, output, *extra, expect=2)
        t.check(holder in second.stderr, f"{extra}: no holder in:\n{second.stderr}")
    merged = env.run([env.allocsim, "merge", other, "-o", output], expect=2)
    t.check(holder in merged.stderr, f"merge: no holder in:\n{merged.stderr}")
finally:
    t.kill(pid, signal.SIGCONT)
t.check(t.finish(first) == 0, "the first sweep failed:\n" + "".join(lines))
statuses = t.configs(output)["status"]
t.check(len(statuses) == 6 and (statuses == "done").all(),
        f"first sweep: {statuses.value_counts().to_dict()}")
t.check(not os.path.exists(lock), "the lock file outlived the sweep")
t.check(not os.path.exists(output + ".journal"), "the journal outlived the sweep")
# Released: the file can be swept again.
env.sweep(0, experiment, output, "--overwrite")
print("second sweep, resume and merge refused while the first ran; the first completed")
