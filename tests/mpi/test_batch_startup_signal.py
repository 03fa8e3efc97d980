"""Issue 25: a stop signal that reaches jobs/sweep.sbatch while the sweep is starting must stop it
cleanly. The batch script is run by bash as Slurm would (no Slurm needed: without SLURM_JOB_ID
it does not requeue), with `mpirun -np 2` as its launcher; SIGTERM goes to the batch shell (what
--signal=B:TERM does) the moment the launcher's process exists, and again a little later each
round, so that it lands before mpirun, before the ranks and while MPI starts. On main the
signal killed mpirun or a rank (exit 138, "User defined signal 1") or was lost (the sweep ran
on, exit 0). Every round must exit 3 ("interrupted; rerun with --resume") with the configs done
so far kept; the last run, without a signal, completes the file equal to an uninterrupted run.
"""
import os
import re
import subprocess
import threading
import time

import sweeptest as t

env = t.Env()
JOBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "jobs")
experiment = env.write("startup.toml", """
[experiment]
name = "startup-signal"
seed = 5
replicates = 5
[base]
machine = "mesh:16x16"
sched = "easy"
trace = "synthetic:jobs=4000,arrival=exp:10,runtime=exp:600,size=uniform:1,64"
[sweep]
alloc = ["mc1x1", "mbs", "random", "flat", "sortedfreelist", "paging"]
""")
reference = env.path("reference.h5")
env.sweep(3, experiment, reference)
CONFIGS = 30

batch_env = {k: v for k, v in env.env.items() if not k.startswith("SLURM_")}
batch_env.update(ALLOCSIM=os.path.abspath(env.allocsim), ALLOCSIM_GRACE="60",
                 ALLOCSIM_LAUNCHER=f"{env.mpirun} --oversubscribe -np 2")


def batch_run(output, delay):
    """Runs the batch script; with DELAY (s) not None, sends SIGTERM to the batch shell DELAY s
    after its launcher's process appeared. Returns (exit status, output text)."""
    process = subprocess.Popen(["bash", os.path.join(JOBS, "sweep.sbatch"), experiment, output],
                               cwd=env.work, env=batch_env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines = []
    checked = threading.Event()

    def pump():
        for line in process.stdout:
            lines.append(line)
            if "no problems found" in line:
                checked.set()
        checked.set()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    if delay is not None:
        checked.wait(timeout=120)
        # The dry run has printed its verdict: the next child not running it (and no zombie:
        # the dry run's, which has no command line) is the launcher, forked and about to exec
        # mpirun, or already mpirun.
        bound = time.time() + 120
        launcher = None
        while launcher is None and process.poll() is None and time.time() < bound:
            launcher = next((c for c in t.children(process.pid)
                             if t.cmdline(c) and "--dry-run" not in t.cmdline(c)), None)
            if launcher is None:
                time.sleep(0.0005)
        t.check(launcher is not None, "the batch script started no launcher:\n" + "".join(lines))
        time.sleep(delay)
        t.kill(process.pid, t.SIGTERM)
    code = t.finish(process, timeout=300)
    reader.join(timeout=10)
    return code, "".join(lines)


output = env.path("startup.h5")
done_before = 0
for round_number, delay in enumerate([0, 0, 0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8]):
    code, text = batch_run(output, delay)
    what = f"round {round_number} (SIGTERM {delay} s after the launcher appeared)"
    t.check(code == 3, f"{what}: the batch script exited {code}, expected 3 (interrupted)\n{text}")
    t.check("interrupted; rerun with --resume" in text, f"{what}: no clean stop:\n{text}")
    t.check(re.search(r"error: .*User defined signal|exited on signal|killed by signal", text) is None,
            f"{what}: a process died of the signal:\n{text}")
    info = t.attrs(output)
    t.check(info["status"] == "interrupted", f"{what}: file status {info['status']}")
    t.check(info["done"] >= done_before, f"{what}: {info['done']} configs done, "
            f"{done_before} before: results were lost")
    t.check(info["done"] < CONFIGS, f"{what}: the sweep ended before the signal; make it longer")
    done_before = info["done"]
    print(f"{what}: exit 3, {info['done']} of {CONFIGS} done", flush=True)

code, text = batch_run(output, None)
t.check(code == 0, f"the last run (no signal) exited {code}:\n{text}")
t.check(f"resume: {done_before} configs already finished" in text or done_before == 0,
        f"the last run did not resume the {done_before} configs done:\n{text}")
t.check(t.attrs(output)["status"] == "complete", "the last run left the file incomplete")
t.check(not os.path.exists(output + ".ready"), "the --ready-file was left behind")
t.assert_same_results(output, reference, "interrupted at start-up 10 times, then resumed")
print("PASS: a stop signal during start-up stops the sweep cleanly, every time")
