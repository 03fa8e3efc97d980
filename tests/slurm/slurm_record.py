"""The stream slurm_compare.py runs (slurm_compare.py's docstring, steps 1-3): the planned jobs,
their submission to the real Slurm by `sbatch`, and what Slurm recorded of them (`scontrol show
job` and slurmctld's log)."""
import os
import random
import re
import subprocess
import sys
import time


def make_stream(jobs, nodes, span, seed):
    """The planned stream: (id, submit offset s, nodes, runtime s, time limit min), submit order."""
    rng = random.Random(seed)
    # Mostly small jobs, some of the whole machine, as on real systems (and so that the
    # queue holds jobs a backfill can pass).
    sizes = list(range(1, nodes + 1))
    weights = [max(1, 2 * nodes // (k * k)) for k in sizes]
    weights[-1] += 1
    offsets = sorted(round(rng.uniform(0, span), 1) for _ in range(jobs))
    stream = []
    for i, offset in enumerate(offsets, start=1):
        size = rng.choices(sizes, weights)[0]
        runtime = rng.randint(1, 4)
        limit = rng.randint(1, 3)
        stream.append((i, offset, size, runtime, limit))
    return stream


def swf_line(job_id, submit, wait, runtime, procs, requested_time):
    """An 18-field Standard Workload Format line (unknown fields -1)."""
    fields = [job_id, submit, wait, runtime, procs, -1, -1, procs, requested_time, -1, 1, 1, 1,
              1, 1, -1, -1, -1]
    return " ".join(str(f) for f in fields)


def write_swf(path, header, rows):
    with open(path, "w", encoding="utf-8") as out:
        for line in header:
            out.write(f"; {line}\n")
        for row in rows:
            out.write(swf_line(*row) + "\n")


def submit_all(stream, work):
    """sbatch each job at its planned offset; returns {slurm id: stream id} and the jitters."""
    out_dir = os.path.join(work, "out")
    os.makedirs(out_dir, exist_ok=True)
    ids = {}
    jitter = []
    start = time.time() + 1.0
    for job_id, offset, size, runtime, limit in stream:
        delay = start + offset - time.time()
        if delay > 0:
            time.sleep(delay)
        late = time.time() - start - offset
        result = subprocess.run(
            ["sbatch", "--parsable", f"--job-name=j{job_id}", f"--nodes={size}",
             f"--ntasks={size}", f"--time={limit}", f"--output={out_dir}/%j.out",
             f"--wrap=sleep {runtime}"],
            capture_output=True, text=True, check=False)
        if result.returncode != 0:
            sys.exit(f"sbatch of job {job_id} failed: {result.stderr.strip()}")
        ids[int(result.stdout.strip().split(";")[0])] = job_id
        jitter.append(late)
    return ids, jitter


def scontrol_jobs():
    """{slurm job id: {field: value}} from `scontrol show job -o`."""
    text = subprocess.run(["scontrol", "show", "job", "-o"], capture_output=True, text=True,
                          check=True).stdout
    jobs = {}
    for line in text.splitlines():
        fields = dict(m.groups() for m in re.finditer(r"(\S+?)=(\S*)", line))
        if "JobId" in fields:
            jobs[int(fields["JobId"])] = fields
    return jobs


def wait_all(ids, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        jobs = scontrol_jobs()
        states = [jobs.get(j, {}).get("JobState", "?") for j in ids]
        if all(s in ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL") for s in states):
            return jobs
        time.sleep(1)
    sys.exit(f"jobs still not ended after {timeout} s")


def epoch(text):
    return int(time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S")))


def expand_nodes(text):
    """n[0-2,5] -> [0, 1, 2, 5] (node numbers of cluster-up.sh's n0 .. n(N-1))."""
    out = []
    for m in re.finditer(r"n(\[([^\]]*)\]|\d+)", text):
        if m.group(2) is None:
            out.append(int(m.group(1)))
            continue
        for part in m.group(2).split(","):
            lo, _, hi = part.partition("-")
            out.extend(range(int(lo), int(hi or lo) + 1))
    return out


# slurmctld's log lines (SlurmctldDebug=debug2 in cluster-up.sh) that give the instants, to the
# millisecond, of each submit, start and end, and of each scheduling pass.
LOG_LINE = re.compile(r"^\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d{3})\] (.*)$")
LOG_EVENTS = [
    ("submit", re.compile(r"_slurm_rpc_submit_batch_job: JobId=(\d+) ")),
    ("start", re.compile(r"sched: Allocate JobId=(\d+) ")),  # the main scheduler
    ("start", re.compile(r"sched/backfill: _start_job: Started JobId=(\d+) ")),
    ("end", re.compile(r"_job_complete: JobId=(\d+) done")),
    # A node that ran a job is not offered again before its epilog is reported complete.
    ("epilog", re.compile(r"_slurm_rpc_epilog_complete: JobId=(\d+) Node=n(\d+)")),
    # DebugFlags=Backfill,BackfillMap: the nodes each backfill test looked at, and the plan.
    ("test", re.compile(r"_dump_job_test: Test JobId=(\d+) at (\S+) on (\S+)")),
    ("plan", re.compile(r"_dump_job_sched: JobId=(\d+) to start at (\S+), end at \S+ on nodes "
                        r"(\S+)")),
    ("main", re.compile(r"sched: Running job scheduler")),  # a main pass
    ("backfill", re.compile(r"sched/backfill: _attempt_backfill: beginning")),
]


def read_log(path, ids, t0):
    """({stream id: {"submit"|"start"|"end": seconds from t0}}, [(pass instant, kind)])."""
    times, passes, plans = {}, [], {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f):
            m = LOG_LINE.match(line)
            if not m:
                continue
            for kind, pattern in LOG_EVENTS:
                e = pattern.search(m.group(3))
                if not e:
                    continue
                t = epoch(m.group(1)) - t0 + int(m.group(2)) / 1000
                if kind in ("main", "backfill"):
                    passes.append((t, kind))
                elif kind in ("test", "plan") and int(e.group(1)) in ids and passes:
                    # {(pass, job): (nodes tested, planned start, planned nodes)}
                    key = (passes[-1][0], ids[int(e.group(1))])
                    tested, start, nodes = plans.get(key, ("", None, ""))
                    if kind == "test":
                        tested = e.group(3)
                    else:
                        start, nodes = epoch(e.group(2)) - t0, e.group(3)
                    plans[key] = (tested, start, nodes)
                elif int(e.group(1)) in ids:
                    job = times.setdefault(ids[int(e.group(1))], {})
                    if kind == "epilog":  # {node: instant}
                        job.setdefault("epilog", {}).setdefault(int(e.group(2)), t)
                    else:
                        job.setdefault(kind, t)
                    if kind == "start":
                        job.setdefault("line", number)  # the order of starts within a pass
                break
    times["plans"] = plans
    return times, sorted(passes)
