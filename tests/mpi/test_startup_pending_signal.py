"""Issue 25: stop signals are blocked from a rank's first instruction and kept through MPI_Init;
one that comes while the sweep starts stops it cleanly (exit 3, nothing lost), never as an
error.
  1. Under `mpirun -np 3 ... --ready-file F`: once F exists, every thread of every rank (Open
     MPI's included) blocks SIGTERM, SIGINT and SIGUSR1; SIGUSR1 to mpirun then stops the sweep
     with status 3 (main: no --ready-file).
  2. A SIGUSR1 pending from exec (blocked and raised before exec, so it is there at the first
     instruction): a fresh sweep stops before its first config with status 3, and --resume
     completes it.
  3. The same while resuming a complete file of an extended experiment (no journal: the file is
     checked in a child process first): status 3 "while starting", the file unchanged, and
     --resume completes it (main: exit 2, "cannot resume ... use --overwrite to start again",
     advice that would throw the results away).
"""
import os
import signal
import subprocess
import time

import sweeptest as t

env = t.Env()
STOP_BITS = [signal.SIGINT, signal.SIGUSR1, signal.SIGTERM]


def experiment(name, replicates, allocs):
    return env.write(name, f"""
[experiment]
name = "startup-pending"
seed = 3
replicates = {replicates}
[base]
machine = "mesh:16x16"
sched = "easy"
trace = "synthetic:jobs=3000,arrival=exp:10,runtime=exp:600,size=uniform:1,64"
[sweep]
alloc = {allocs}
""")


def blocked(pid, tid):
    with open(f"/proc/{pid}/task/{tid}/status") as f:
        for line in f:
            if line.startswith("SigBlk:"):
                mask = int(line.split()[1], 16)
                return [s for s in STOP_BITS if not mask & (1 << (s - 1))]
    return STOP_BITS


def descendants(pid):
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            kids = []
        found += kids
        todo += kids
    return found


def pending_usr1():
    """preexec_fn: SIGUSR1 blocked and pending across exec, as if sent at the first instruction."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    os.kill(os.getpid(), signal.SIGUSR1)


def run_pending(args):
    result = subprocess.run(args, env=env.env, capture_output=True, text=True, timeout=300,
                            preexec_fn=pending_usr1)
    return result.returncode, result.stdout + result.stderr


# 1. Every thread of every rank blocks the stop signals once --ready-file exists.
small = experiment("small.toml", 3, '["mc1x1", "mbs", "random", "flat"]')
ready = env.path("ready")
output = env.path("ready.h5")
process, lines = env.start(3, small, output, "--ready-file", ready)
bound = time.time() + 120
while not os.path.exists(ready) and process.poll() is None and time.time() < bound:
    time.sleep(0.01)
t.check(os.path.exists(ready), "no --ready-file:\n" + "".join(lines))
ranks = [p for p in descendants(process.pid)
         if os.path.realpath(f"/proc/{p}/exe") == os.path.realpath(env.allocsim)]
t.check(len(ranks) == 3, f"{len(ranks)} allocsim ranks under mpirun, expected 3")
with open(ready) as f:
    t.check(int(f.read()) in ranks, "the --ready-file does not hold rank 0's pid")
for pid in ranks:
    for tid in os.listdir(f"/proc/{pid}/task"):
        missing = blocked(pid, tid)
        t.check(not missing, f"rank pid {pid} thread {tid} does not block {missing} after MPI_Init")
t.kill(process.pid, t.SIGUSR1)
code = t.finish(process)
text = "".join(lines)
t.check(code == 3 and "interrupted; rerun with --resume" in text,
        f"SIGUSR1 to mpirun once ready: exit {code}\n{text}")
print(f"1. {len(ranks)} ranks, every thread blocks SIGINT/SIGUSR1/SIGTERM; SIGUSR1: exit 3")

# 2. A signal pending from the first instruction: stopped before the first config.
reference = env.path("reference.h5")
env.sweep(0, small, reference)
output = env.path("pending.h5")
code, text = run_pending(env.command(0, small, output))
t.check(code == 3 and "interrupted; rerun with --resume" in text,
        f"a sweep with SIGUSR1 pending from its start exited {code}:\n{text}")
t.check(t.attrs(output)["done"] == 0, "configs ran although the stop came first")
env.sweep(0, small, output, "--resume")
t.assert_same_results(output, reference, "stopped at its start, then resumed")
print("2. SIGUSR1 pending from exec: exit 3 before the first config; --resume completes")

# 3. Resuming a big complete file of an extended experiment (checked in a child process).
big = experiment("big.toml", 5000, '["mc1x1", "mbs", "random", "flat"]')
extended = experiment("big2.toml", 5000, '["mc1x1", "mbs", "random", "flat", "paging"]')
output = env.path("big.h5")
env.sweep(0, big, output, "--synthetic-results")
before = t.attrs(output)
code, text = run_pending(env.command(0, extended, output, "--resume", "--synthetic-results"))
t.check(code == 3, f"resuming with SIGUSR1 pending from the start exited {code}, not 3:\n{text}")
t.check("--overwrite" not in text and "error" not in text,
        f"a stop signal reported as an error:\n{text}")
t.check("interrupted; rerun with --resume" in text, f"no resume hint:\n{text}")
after = t.attrs(output)
t.check(after["done"] >= before["done"] == 20000, f"done {before['done']} -> {after['done']}")
env.sweep(0, extended, output, "--resume", "--synthetic-results")
final = t.attrs(output)
t.check(final["status"] == "complete" and final["done"] == 25000,
        f"after --resume: status {final['status']}, {final['done']} done")
print("3. resuming a complete file with SIGUSR1 pending: exit 3, nothing lost; --resume completes")
print("PASS")
