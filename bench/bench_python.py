#!/usr/bin/python3
"""Speed of the Python module (issue 30) on the NASA iPSC/860 trace with EASY on flat:128:

  1. C++ policies run from Python against the CLI: allocsim.run(..., keep_jobs=False) timed in
     this process (trace reading, simulation, results) against `allocsim run --format json`'s
     own wall_seconds (reading included; it keeps no per-job records either), the two in turn,
     A B A B ...; target: the median ratio within 5 %. Also, for the record, the default run
     (keeping the per-job records behind r.jobs) and the whole processes (a Python interpreter
     that imports allocsim and runs, against the CLI process).
  2. The Python first-fit allocator against the C++ `flat` (the same schedule): allocsim.run on
     one allocsim.Trace, in turn; target: the median ratio under 20x.

Medians over --runs pairs (the machine may be shared: the ratios are taken pair by pair).

  ALLOCSIM_TRACE_DIR=../shared/traces PYTHONPATH=build/python \\
      /usr/bin/python3 bench/bench_python.py --allocsim build/allocsim [--runs 9]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import allocsim

NASA = "NASA-iPSC-1993-3.1-cln"
# C++ policies: the topology-blind first fit (the run is mostly reading the trace) and MC1x1 on
# the iPSC's 128 nodes as a 16 x 8 mesh (mostly allocating).
CONFIGS = [{"machine": "flat:128", "trace": NASA, "sched": "easy", "alloc": "flat"},
           {"machine": "mesh:16x8", "trace": NASA, "sched": "easy", "alloc": "mc1x1"}]


class FirstFit(allocsim.Allocator):
    """`flat` in Python: the lowest free ids."""

    def allocate(self, job, machine):
        free = machine.free_nodes()
        return free[:job.size] if len(free) >= job.size else None


def cli_seconds(binary, config):
    """The CLI's own wall_seconds of one run (reading included) and its whole-process time."""
    command = [binary, "run", "--format", "json"]
    for key, value in config.items():
        command += ["--" + key.replace("_", "-"), value]
    started = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["resources"]["wall_seconds"], time.perf_counter() - started


def python_process_seconds(config):
    """A whole Python process that imports allocsim and runs `config`."""
    code = f"import allocsim; allocsim.run(**{config!r})"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - started


def timed(function):
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


def summary(name, values, unit="s"):
    print(f"  {name:<46} median {statistics.median(values):9.4f} {unit}   "
          f"(min {min(values):.4f}, max {max(values):.4f}, n={len(values)})")
    return statistics.median(values)


def compare_with_cli(args, config):
    """Part 1 for one config: the CLI and allocsim.run in turn, --runs pairs."""
    print(f"1. C++ policies from Python against the CLI ({config})")
    cli_seconds(args.allocsim, config), allocsim.run(**config)  # warm-up (file cache)
    cli, python, ratios, cli_process, python_process, process_ratios = [], [], [], [], [], []
    with_jobs, jobs_ratios = [], []
    for _ in range(args.runs):
        inside, whole = cli_seconds(args.allocsim, config)
        # The CLI's --format json keeps no per-job records: the same run is keep_jobs=False.
        ours, _ = timed(lambda: allocsim.run(keep_jobs=False, **config))
        cli.append(inside)
        python.append(ours)
        ratios.append(ours / inside)
        ours, _ = timed(lambda: allocsim.run(**config))
        with_jobs.append(ours)
        jobs_ratios.append(ours / inside)
        cli_process.append(whole)
        python_process.append(python_process_seconds(config))
        process_ratios.append(python_process[-1] / whole)
    summary("CLI run (its wall_seconds, reading included)", cli)
    summary("allocsim.run(keep_jobs=False), reading included", python)
    ratio = summary("ratio Python / CLI, pair by pair", ratios, "x")
    print(f"  -> {100 * (ratio - 1):+.1f} % (target: at most 5 % slower): "
          f"{'PASS' if ratio <= 1.05 else 'FAIL'}")
    summary("allocsim.run() (default keep_jobs=True: r.jobs)", with_jobs)
    summary("ratio of that to the CLI, pair by pair", jobs_ratios, "x")
    summary("whole CLI process", cli_process)
    summary("whole Python process (interpreter, import, run)", python_process)
    summary("ratio of whole processes, pair by pair", process_ratios, "x")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allocsim", default=os.environ.get("ALLOCSIM_BINARY", "build/allocsim"))
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    if not os.environ.get("ALLOCSIM_TRACE_DIR"):
        sys.exit("bench_python: set ALLOCSIM_TRACE_DIR to the folder holding " + NASA)

    for config in CONFIGS:
        compare_with_cli(args, config)
    print(f"2. Python first fit against the C++ flat, one Trace ({NASA}, easy, flat:128)")
    trace = allocsim.Trace(NASA)
    config = dict(CONFIGS[0], trace=trace)
    first_fit, flat, ratios = [], [], []
    for _ in range(args.runs):
        ours, a = timed(lambda: allocsim.run(**dict(config, alloc=FirstFit())))
        theirs, b = timed(lambda: allocsim.run(**config))
        assert a.summary == b.summary, "the two allocators should give the same schedule"
        first_fit.append(ours)
        flat.append(theirs)
        ratios.append(ours / theirs)
    summary("allocsim.run(alloc=FirstFit())", first_fit)
    summary("allocsim.run(alloc='flat')", flat)
    ratio = summary("ratio Python first fit / C++ flat, pair by pair", ratios, "x")
    print(f"  -> {ratio:.1f}x (target: under 20x): {'PASS' if ratio < 20 else 'FAIL'}")


if __name__ == "__main__":
    main()
