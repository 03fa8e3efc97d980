"""Submits the project's jobs/ scripts to the one-node cluster of cluster-up.sh and checks their
results. Run by slurm_test.sh, which starts and stops the cluster; SLURM_CONF and the
Open MPI settings come from the environment it sources.

The scripts are submitted unchanged: only paths (arguments, ALLOCSIM) and sizes (sbatch options,
ALLOCSIM_GRACE) are passed in. Three scenarios, with the exact commands of jobs/README.md:
  1. jobs/sweep.sbatch on a small experiment: every config done, /summary and /configs equal to
     `mpirun -np 3 allocsim sweep` of the same experiment, and run by 3 MPI ranks under srun;
  2. jobs/submit-array.sh (jobs/sweep-array.sbatch + jobs/merge.sbatch with afterany): the merge
     runs after the shards and its file equals the single job's;
  3. jobs/sweep.sbatch with --time=1 --signal=B:TERM@59 on a longer experiment: Slurm's
     time-limit warning reaches the batch shell, which forwards it to srun; the sweep is
     interrupted, the script requeues itself, the requeued job resumes and ends complete and
     equal to an mpirun run;
  4. the same at the same moment with ALLOCSIM_LAUNCHER=mpirun: the warning reaches mpirun in
     the batch step through the script's trap (the log says so), the sweep (2 MPI ranks under
     mpirun) is interrupted, requeued, resumed, complete and equal to the mpirun run;
  5. the warning while the sweep is starting (issue 25): SIGTERM goes to the batch shell (as
     --signal=B:TERM does) the moment its launcher's process exists, or a little later, in
     sweep.sbatch under srun (several times) and under mpirun, and in sweep-array.sbatch: each
     job is interrupted cleanly (never "srun: error: ... User defined signal 1" or exit 138),
     requeued, resumed, complete and equal to the mpirun run;
  6. a site with SBATCH_EXPORT=NONE (issue 29, item 7): a copy of jobs/sweep.sbatch whose site
     section alone is edited (site_environment sources the cluster's environment file,
     SITE_ALLOCSIM names the binary), submitted with SBATCH_EXPORT=NONE from a shell without
     ALLOCSIM: the job sees none of the submitting shell's variables, its 3 ranks start under
     srun with the site environment, and the result equals scenario 1's.
What the scenarios share (commands under hang bounds, sbatch, job records, result files, the
batch shell's signal) is in slurm_harness.py.
"""
import argparse
import atexit
import os
import re
import subprocess
import threading
import time

from slurm_harness import (FINAL, HANG_BOUND, attrs, check, expect_complete, expect_completed,
                           expect_equal, fail, jobs, log, next_limit_check, read, run, sbatch,
                           signal_at_start, slurm_time, stop, table, wait_final)

SMALL = """\
# 12 tiny configs: the single job, the shards and the merge (tests/slurm).
[experiment]
name = "slurm-small"
seed = 8
[base]
machine = "mesh:8x8"
trace = "synthetic:jobs=300,arrival=exp:20,runtime=exp:300,size=uniform:1,24"
[sweep]
alloc = ["flat", "random", "mbs", "mc1x1"]
sched = ["fcfs", "easy", "conservative"]
"""

# About 1 s per config on one core: long enough for Slurm's signal to land mid-sweep.
SLOW = """\
# 12 configs of one to four seconds each on an idle machine (about 10 s on one worker, so the
# sweep is surely still running when the time-limit warning comes 3-4 s after it started):
# the time-limit job (tests/slurm).
[experiment]
name = "slurm-timelimit"
seed = 9
replicates = 4
[base]
machine = "mesh:16x16"
sched = "easy"
trace = "synthetic:jobs=24000,arrival=exp:10,runtime=exp:600,size=uniform:1,64"
[sweep]
alloc = ["mc1x1", "mbs", "random"]
"""


# ---- scenarios -----------------------------------------------------------------------------

class Test:
    def __init__(self, args):
        self.allocsim = os.path.abspath(args.allocsim)
        self.jobs = os.path.join(os.path.abspath(args.source), "jobs")
        self.mpirun = args.mpirun
        self.work = os.path.abspath(args.work)
        self.ctld_log = os.path.join(self.work, "log", "slurmctld.log")
        os.environ["ALLOCSIM"] = self.allocsim  # sbatch exports the environment to the jobs
        os.environ.pop("ALLOCSIM_TRACE_DIR", None)
        self.small = self.write("exp/small.toml", SMALL)
        self.slow = self.write("exp/slow.toml", SLOW)

    def path(self, *parts):
        return os.path.join(self.work, *parts)

    def folder(self, name):
        os.makedirs(self.path(name), exist_ok=True)
        return self.path(name)

    def write(self, name, text):
        os.makedirs(os.path.dirname(self.path(name)), exist_ok=True)
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def reference(self, experiment, name):
        """Starts `mpirun -np 3 allocsim sweep EXPERIMENT` outside Slurm; returns a function that
        waits for it and gives the result file."""
        output = self.path("reference", name)
        os.makedirs(os.path.dirname(output), exist_ok=True)
        args = [self.mpirun, "--oversubscribe", "-np", "3", self.allocsim, "sweep", experiment,
                "-o", output, "--progress", "none"]
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
        atexit.register(stop, process)  # when a check fails before it is waited for

        done = []

        def result():  # may be called by several scenarios
            if done:
                return output
            done.append(True)
            try:
                out, _ = process.communicate(timeout=HANG_BOUND)
            except subprocess.TimeoutExpired:
                process.kill()
                fail(f"{' '.join(args)} did not end")
            check(process.returncode == 0, f"{' '.join(args)} exited {process.returncode}:\n{out}")
            return output

        return result

    def single_job(self, reference):
        """Scenario 1: one MPI job of 3 ranks (master + 2 workers) under srun."""
        cwd = self.folder("single")
        job = sbatch(["--ntasks=3", "--time=5", os.path.join(self.jobs, "sweep.sbatch"),
                      self.small, "single.h5"], cwd)
        log(f"sweep.sbatch: job {job}")
        logfile = os.path.join(cwd, f"allocsim-sweep-{job}.log")
        expect_completed(wait_final([job], "sweep.sbatch"), "sweep.sbatch", [logfile])
        result = os.path.join(cwd, "single.h5")
        info = expect_complete(result, 12, "sweep.sbatch")
        check(info["ranks"] == 3, f"sweep.sbatch: {info['ranks']} MPI ranks, expected 3 (srun "
              "started singletons? check MpiDefault=pmix)")
        ranks = set(table(result, "configs")["rank"])
        check(ranks <= {1, 2}, f"sweep.sbatch: configs ran on ranks {ranks}")
        expect_equal(result, reference, "sweep.sbatch vs mpirun")
        check("no problems found" in read(logfile), "sweep.sbatch: no --dry-run output in log")
        log(f"sweep.sbatch: 12 configs done on ranks {sorted(ranks)}, equal to mpirun")
        return result

    def export_none(self, single):
        """Scenario 6: SBATCH_EXPORT=NONE, the site section edited as jobs/README.md says."""
        cwd = self.folder("export-none")
        script = open(os.path.join(self.jobs, "sweep.sbatch")).read()
        site = ("site_environment() {\n"
                "  echo \"site environment: ALLOCSIM=${ALLOCSIM-unset}\"\n"
                f"  source {self.path('env')}\n"
                "}\n")
        edited = re.sub(r"site_environment\(\) \{\n.*?\n\}\n", lambda _: site, script,
                        count=1, flags=re.S)
        edited = edited.replace('SITE_ALLOCSIM=""', f'SITE_ALLOCSIM="{self.allocsim}"', 1)
        check(edited.count(self.allocsim) == 1 and self.path("env") in edited,
              "the site section of jobs/sweep.sbatch was not found")
        copy = os.path.join(cwd, "sweep.sbatch")
        with open(copy, "w") as f:
            f.write(edited)
        env_backup = dict(os.environ)
        os.environ.pop("ALLOCSIM", None)
        os.environ["SBATCH_EXPORT"] = "NONE"
        try:
            job = sbatch(["--ntasks=3", "--time=5", copy, self.small, "none.h5"], cwd)
        finally:
            os.environ.clear()
            os.environ.update(env_backup)
        log(f"sweep.sbatch under SBATCH_EXPORT=NONE: job {job}")
        logfile = os.path.join(cwd, f"allocsim-sweep-{job}.log")
        expect_completed(wait_final([job], "SBATCH_EXPORT=NONE"), "SBATCH_EXPORT=NONE", [logfile])
        text = read(logfile)
        check("site environment: ALLOCSIM=unset" in text,
              f"SBATCH_EXPORT=NONE: the job saw the submitting shell's environment:\n{text}")
        result = os.path.join(cwd, "none.h5")
        info = expect_complete(result, 12, "SBATCH_EXPORT=NONE")
        check(info["ranks"] == 3, f"SBATCH_EXPORT=NONE: {info['ranks']} MPI ranks, expected 3")
        expect_equal(result, single, "SBATCH_EXPORT=NONE vs sweep.sbatch")
        log("SBATCH_EXPORT=NONE: clean job environment, site section set it up, 3 ranks, equal")

    def array_and_merge(self, single):
        """Scenario 2: 3 shards as an array, merged by a job that depends on it (afterany)."""
        cwd = self.folder("array")
        out = run([os.path.join(self.jobs, "submit-array.sh"), self.small, "3", "parts",
                   "merged.h5", "--ntasks=2", "--time=5"], cwd=cwd).stdout
        match = re.search(r"array job (\d+) \(3 shards\), merge job (\d+)", out)
        check(match, f"submit-array.sh printed {out!r}")
        array, merge = match.groups()
        log(f"submit-array.sh: array job {array}, merge job {merge}")
        pending = jobs(merge)[0]
        check(pending["JobState"] != "PENDING" or f"afterany:{array}" in pending["Dependency"],
              f"merge job {merge} waits without an afterany dependency: {pending}")
        tasks = wait_final([array], "sweep-array.sbatch", array_tasks=3)
        logs = [os.path.join(cwd, f"allocsim-shard-{array}_{r['ArrayTaskId']}.log")
                for r in tasks]
        expect_completed(tasks, "sweep-array.sbatch", logs)
        merged = wait_final([merge], "merge.sbatch")
        merge_log = os.path.join(cwd, f"allocsim-merge-{merge}.log")
        expect_completed(merged, "merge.sbatch", [merge_log])
        last_shard_end = max(slurm_time(r["EndTime"]) for r in tasks)
        check(slurm_time(merged[0]["StartTime"]) >= last_shard_end,
              f"merge started {merged[0]['StartTime']} before the last shard ended")
        ids = []
        for k in (1, 2, 3):
            part = os.path.join(cwd, "parts", f"part{k}.h5")
            info = attrs(part)
            check(info.get("shard") == f"{k}/3" and info.get("status") == "complete",
                  f"part{k}.h5: shard {info.get('shard')} status {info.get('status')}")
            ids.append(set(table(part, "configs")["config_id"]))
        check(sum(map(len, ids)) == 12 and len(set.union(*ids)) == 12,
              f"shards overlap or miss configs: {[len(s) for s in ids]}")
        result = os.path.join(cwd, "merged.h5")
        expect_complete(result, 12, "merge.sbatch")
        expect_equal(result, single, "merged shards vs sweep.sbatch")
        check("12 done" in read(merge_log), f"merge.sbatch printed no report:\n{read(merge_log)}")
        log(f"array {array}: shards of {[len(s) for s in ids]} configs; merge {merge} equal to "
            "the single job")

    def submit_time_limited(self, lead):
        """Scenarios 3 and 4, part 1: submit both time-limited jobs (srun and mpirun launcher) so
        that slurmctld's next time-limit test (which sends the --signal warning, due at once with
        B:TERM@59 in a 1-minute job) comes LEAD s later. Returns {name: job id}."""
        when = next_limit_check(self.ctld_log, lead + 1)
        if when is None:
            log("no time-limit test in the slurmctld log: submitting without timing it")
        else:
            pause = when - lead - time.time()
            log(f"waiting {pause:.1f} s: slurmctld tests time limits in {pause + lead:.1f} s")
            time.sleep(max(0.0, pause))
        submitted = {}
        for name, launcher in (("timelimit", None), ("timelimit-mpirun", self.mpirun)):
            cwd = self.folder(name)
            # A grace period well inside the minute, sizes as for a real run otherwise.
            os.environ["ALLOCSIM_GRACE"] = "20"
            if launcher:
                os.environ["ALLOCSIM_LAUNCHER"] = launcher
            try:
                job = sbatch(["--ntasks=2", "--time=1", "--signal=B:TERM@59",
                              os.path.join(self.jobs, "sweep.sbatch"), self.slow, name + ".h5"],
                             cwd)
            finally:
                del os.environ["ALLOCSIM_GRACE"]
                os.environ.pop("ALLOCSIM_LAUNCHER", None)
            log(f"sweep.sbatch --time=1 --signal=B:TERM@59 ({launcher or 'srun'}): job {job}")
            submitted[name] = job
        return submitted

    def check_time_limited(self, name, job, reference):
        """Scenarios 3 and 4, part 2: interrupted, requeued by the script, resumed, complete,
        equal."""
        cwd = self.path(name)
        logfile = os.path.join(cwd, f"allocsim-sweep-{job}.log")
        deadline = time.time() + HANG_BOUND
        while True:
            records = wait_final([job], "time-limited sweep.sbatch",
                                 timeout=max(1, deadline - time.time()))
            # A job that requeues itself may look finished for a moment before it is PENDING
            # again: a final state must still hold half a second later.
            time.sleep(0.5)
            again = jobs(job)
            if again and again[0]["JobState"] in FINAL:
                records = again
                break
        text = read(logfile)
        expect_completed(records, "time-limited sweep.sbatch", [logfile])
        restarts = int(records[0].get("Restarts", "0"))
        check(restarts >= 1 and "interrupted: requeueing job" in text,
              f"the job was never interrupted and requeued (restarts {restarts}): the time-limit "
              f"signal came too late?\n{text}")
        check("interrupted; rerun with --resume" in text, f"no interruption message:\n{text}")
        check(f"(restart {restarts})" in text, f"no restart {restarts} start line:\n{text}")
        check("batch shell got SIGTERM" in text and "forwarding SIGUSR1 to" in text,
              f"the warning did not reach the batch shell's trap:\n{text}")
        result = os.path.join(cwd, name + ".h5")
        info = expect_complete(result, 12, "time-limited sweep.sbatch")
        check(info["ranks"] == 2, f"{name}: {info['ranks']} MPI ranks, expected 2")
        expect_equal(result, reference(), "interrupted, requeued and resumed vs mpirun")
        check(not os.path.exists(result + ".journal"), "journal left beside the finished file")
        log(f"{name}: job {job} interrupted by the signal, requeued {restarts} time(s), "
            "resumed: complete and equal to mpirun")

    def startup_signals(self, reference):
        """Scenario 5: SIGTERM to the batch shell while the sweep starts, DELAY s after the
        launcher's process appeared (the race of issue 25), in several jobs at once. --time=10:
        the scripts' own --signal=B:TERM@300 must not come too (with --time=5 it would, at
        slurmctld's next time-limit test, and again after every requeue)."""
        runs = [("srun", 0.0), ("srun", 0.0), ("srun", 0.05), ("srun", 0.2), ("mpirun", 0.0),
                ("array", 0.0)]
        submitted = []
        for number, (kind, delay) in enumerate(runs):
            cwd = self.folder(f"startup/{number}")
            env_backup = dict(os.environ)
            if kind == "mpirun":
                os.environ["ALLOCSIM_LAUNCHER"] = self.mpirun
            if kind == "array":
                os.environ["ALLOCSIM_SHARDS"] = "1"
                job = sbatch(["--array=1", "--ntasks=2", "--time=10",
                              os.path.join(self.jobs, "sweep-array.sbatch"), self.slow, "parts"],
                             cwd)
                logfile = os.path.join(cwd, f"allocsim-shard-{job}_1.log")
                result = os.path.join(cwd, "parts", "part1.h5")
            else:
                job = sbatch(["--ntasks=2", "--time=10", os.path.join(self.jobs, "sweep.sbatch"),
                              self.slow, "startup.h5"], cwd)
                logfile = os.path.join(cwd, f"allocsim-sweep-{job}.log")
                result = os.path.join(cwd, "startup.h5")
            os.environ.clear()
            os.environ.update(env_backup)
            submitted.append((kind, delay, job, logfile, result))
        log("start-up signals: jobs " + ", ".join(f"{j} ({k}, +{d} s)"
                                                  for k, d, j, _, _ in submitted))
        errors = []
        watchers = [threading.Thread(target=signal_at_start, args=(job, logfile, delay, errors))
                    for _, delay, job, logfile, _ in submitted]
        for watcher in watchers:
            watcher.start()
        for watcher in watchers:
            watcher.join(timeout=HANG_BOUND)
        check(not errors, "start-up signals: " + "; ".join(errors))
        for kind, delay, job, logfile, result in submitted:
            what = f"start-up signal ({kind}, +{delay} s), job {job}"
            deadline = time.time() + HANG_BOUND
            while True:
                records = wait_final([job], what, timeout=max(1, deadline - time.time()))
                time.sleep(0.5)  # a job that requeues itself may look final for a moment
                again = jobs(job)
                if again and again[0]["JobState"] in FINAL:
                    records = again
                    break
            text = read(logfile)
            expect_completed(records, what, [logfile])
            check(re.search(r"error: .*User defined signal|exited on signal", text) is None,
                  f"{what}: a process died of the signal:\n{text}")
            restarts = int(records[0].get("Restarts", "0"))
            check(restarts >= 1 and "interrupted; rerun with --resume" in text,
                  f"{what}: not interrupted cleanly and requeued (restarts {restarts}):\n{text}")
            info = expect_complete(result, 12, what)
            check(info["ranks"] == 2, f"{what}: {info['ranks']} MPI ranks, expected 2")
            expect_equal(result, reference(), what)
            log(f"{what}: interrupted at start-up, requeued {restarts} time(s), resumed, equal")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--allocsim", required=True)
    parser.add_argument("--source", required=True, help="the repository (for jobs/)")
    parser.add_argument("--mpirun", required=True)
    parser.add_argument("--work", required=True)
    test = Test(parser.parse_args())

    # The longer reference runs in the background meanwhile: it must not delay the submission
    # of the time-limited job, which is timed to slurmctld's clock.
    slow_reference = test.reference(test.slow, "slow.h5")
    single = test.single_job(test.reference(test.small, "small.h5")())
    test.array_and_merge(single)
    test.export_none(single)
    # 6 s: the job starts and its srun step is up within 2-3 s, and the sweep (about 10 s on
    # its one worker when idle, longer when loaded) is still running when the warning comes.
    submitted = test.submit_time_limited(lead=6)
    for name, job in submitted.items():
        test.check_time_limited(name, job, slow_reference)
    test.startup_signals(slow_reference)
    log("all Slurm scenarios passed")


if __name__ == "__main__":
    main()
