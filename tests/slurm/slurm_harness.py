"""What slurm_jobs.py's scenarios share: failing with a message, running commands and child
processes under hang bounds, sbatch and Slurm's job records, the result files, and signalling a
job's batch shell (scenario 5)."""
import datetime
import os
import re
import signal
import subprocess
import sys
import time

import h5py

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from sweep_results import table as decoded_table  # noqa: E402  (shared with the tools)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "mpi"))
from sweeptest import children, cmdline  # noqa: E402  (shared with the sweep tests)


# Final job states (squeue / scontrol show job); a requeued job passes through PENDING again.
FINAL = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
         "BOOT_FAIL", "DEADLINE", "PREEMPTED"}
TIMING_COLUMNS = ["wall_seconds", "rank"]  # differ between runs by nature

STARTED = time.time()


def log(message):
    print(f"[slurm-test {time.time() - STARTED:6.1f}s] {message}", flush=True)


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


# Every wait below is a bound that only catches a hang, never a window the work must fit in:
# on a loaded machine the time-limited job may be interrupted and requeued several times (each
# requeue waits out Slurm's BeginTime delay) before it completes.
HANG_BOUND = 600


def run(args, cwd=None, timeout=HANG_BOUND, check_exit=True):
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if check_exit and result.returncode != 0:
        fail(f"{' '.join(map(str, args))} exited {result.returncode}\n"
             f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
    return result


def stop(process):
    """Ends a child process still running (mpirun forwards SIGTERM to its ranks)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---- Slurm ---------------------------------------------------------------------------------

def sbatch(args, cwd):
    """`sbatch --parsable ARGS` in CWD (the job's working directory); returns the job id."""
    out = run(["sbatch", "--parsable", *args], cwd=cwd).stdout.strip()
    check(re.fullmatch(r"\d+(;\S+)?", out), f"sbatch printed {out!r}")
    return out.split(";")[0]


def jobs(job_id):
    """`scontrol show job -o ID` as dicts (one per array task), keyed by field name."""
    result = run(["scontrol", "show", "job", "-o", job_id], check_exit=False)
    if result.returncode != 0 and "Invalid job id" not in result.stderr:
        fail(f"scontrol show job {job_id}: {result.stderr.strip()}")
    records = []
    for line in result.stdout.splitlines():
        record = {}
        for field in re.findall(r"(\w+)=(\S*)", line):
            record.setdefault(field[0], field[1])
        if record:
            records.append(record)
    return records


def wait_final(job_ids, what, timeout=HANG_BOUND, array_tasks=None):
    """Waits until every job (every array task) is in a final state; returns their records."""
    deadline = time.time() + timeout
    while True:
        records = [r for job_id in job_ids for r in jobs(job_id)]
        if array_tasks is not None:
            # An array shows a single pending record until its tasks are split off.
            tasks = [r for r in records if r.get("ArrayTaskId", "").isdigit()]
            done = len(tasks) == array_tasks and all(r["JobState"] in FINAL for r in tasks)
            records = tasks
        else:
            done = records and all(r["JobState"] in FINAL for r in records)
        if done:
            return records
        if time.time() > deadline:
            states = [(r.get("JobId"), r.get("ArrayTaskId"), r.get("JobState"), r.get("Reason"))
                      for r in records]
            fail(f"{what}: jobs {job_ids} not finished after {timeout} s: {states}")
        time.sleep(0.25)


def expect_completed(records, what, logs):
    for r in records:
        if r["JobState"] != "COMPLETED" or r["ExitCode"] != "0:0":
            text = "\n".join(f"--- {p}\n{read(p)}" for p in logs)
            fail(f"{what}: job {r['JobId']} {r['JobState']} exit {r['ExitCode']} "
                 f"({r.get('Reason')})\n{text}")


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError as error:
        return f"({error})"


def slurm_time(text):
    return datetime.datetime.fromisoformat(text).timestamp()


def next_limit_check(ctld_log, lead):
    """When slurmctld next tests time limits, at least LEAD seconds from now.

    slurmctld tests time limits (and sends --signal warnings) every 30 s in its background
    thread, not at the exact second asked for; its debug2 log shows each test. The first
    comes 30 s after start-up ("Running as primary controller"), each next one 30-31 s later.
    """
    base = None
    stamp = re.compile(r"^\[(\S+)\] (?:debug2: Testing job time limits|Running as primary)")
    for line in read(ctld_log).splitlines():
        match = stamp.match(line)
        if match:
            base = slurm_time(match.group(1))
    if base is None:
        return None
    when = base + 30.05
    while when < time.time() + lead:
        when += 30.05
    return when


# ---- result files --------------------------------------------------------------------------

def table(path, name):
    with h5py.File(path, "r") as f:
        return decoded_table(f[name])


def attrs(path):
    with h5py.File(path, "r") as f:
        return {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}


def expect_complete(path, configs, what):
    check(os.path.exists(path), f"{what}: no result file {path}")
    info = attrs(path)
    check(info.get("status") == "complete", f"{what}: status {info.get('status')}")
    statuses = table(path, "configs")["status"].value_counts().to_dict()
    check(statuses == {"done": configs}, f"{what}: config statuses {statuses}, "
          f"expected all {configs} done")
    return info


def expect_equal(path, reference, what):
    """/summary and /configs (timing columns aside) equal, row for row, by config id."""
    for name, drop in (("summary", []), ("configs", TIMING_COLUMNS)):
        a = table(path, name).drop(columns=drop).sort_values("config_id").reset_index(drop=True)
        b = table(reference, name).drop(columns=drop).sort_values("config_id")
        b = b.reset_index(drop=True)
        check(list(a.columns) == list(b.columns), f"{what}: /{name} columns differ")
        check(a.equals(b), f"{what}: /{name} differs from {reference}:\n{a.compare(b)}")


# ---- the batch shell and its launcher (scenario 5) -------------------------------------

def batch_shell(job):
    """The pid of job JOB's batch shell on this node (the array's first task too), or None."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if b"slurm_script" not in f.read():
                    continue
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read().split(b"\0")
        except OSError:
            continue
        if (f"SLURM_JOB_ID={job}".encode() in environ
                or f"SLURM_ARRAY_JOB_ID={job}".encode() in environ):
            return int(entry)
    return None


def signal_at_start(job, logfile, delay, errors):
    """Sends SIGTERM to JOB's batch shell DELAY s after its launcher's process appeared (once
    the dry run has printed its verdict, the next child of the shell that is no zombie)."""
    deadline = time.time() + HANG_BOUND
    shell = None
    while shell is None and time.time() < deadline:
        shell = batch_shell(job)
        if shell is None:
            time.sleep(0.02)
    while shell is not None and "no problems found" not in read(logfile):
        if time.time() > deadline or not os.path.exists(f"/proc/{shell}"):
            shell = None
            break
        time.sleep(0.002)
    launcher = None
    while shell is not None and launcher is None and time.time() < deadline:
        launcher = next((c for c in children(shell)
                         if cmdline(c) and "--dry-run" not in cmdline(c)), None)
        if launcher is None:
            time.sleep(0.0005)
    if launcher is None:
        errors.append(f"job {job}: its batch shell or launcher was never seen")
        return
    time.sleep(delay)
    os.kill(shell, signal.SIGTERM)
