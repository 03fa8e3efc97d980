#!/usr/bin/python3
"""Sweep engine benchmark: drives `mpirun allocsim sweep` and prints

  1. throughput on 2,000 tiny configs (configs/s, master CPU share and CPU per result), 1 and
     2 workers;
  2. parallel efficiency of 1 vs 2 workers on CPU-bound configs, T(1) / (2 T(2)),
     and the master's CPU share while 2 workers compute (targets: >= 85 %, < 5 %);
  3. with --synthetic-ranks N, the master's CPU per result with N ranks whose workers answer at
     once (--synthetic-results), on the tiny configs.

Times are the master's dispatch phase (first task sent to last result), stored in the result
file as `dispatch_seconds`; MPI start-up is reported separately. Run on an otherwise idle
machine with at least 2 cores:

  /usr/bin/python3 bench/bench_sweep.py --allocsim build/allocsim [--tiny 2000] [--heavy 8]

The issue's sweep targets (100k tiny configs with -np 3 at >= 50k configs/s; the master at
<= 5 us per result with 64 ranks) are measured with

  /usr/bin/python3 bench/bench_sweep.py --tiny 100000 --heavy 0 --synthetic-ranks 64

(A Python driver rather than a bench/*.cpp Google Benchmark: the sweep needs MPI and HDF5,
which bench programs do not link.)
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import h5py

TINY = """
[experiment]
name = "bench-tiny"
replicates = {replicates}
[base]
machine = "mesh:4x4"
trace = "synthetic:jobs=10,size=uniform:1,4"
[sweep]
alloc = ["flat", "random"]
"""

HEAVY = """
[experiment]
name = "bench-heavy"
replicates = {replicates}
[base]
machine = "mesh:16x16"
sched = "easy"
trace = "synthetic:jobs={jobs},arrival=exp:8,runtime=exp:1000,size=uniform:1,64"
transforms = ["target_load:load=0.9"]
[sweep]
alloc = ["flat", "curve:order=hilbert"]
"""


def run(args, ranks, experiment, output, *extra):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = [args.mpirun, "--oversubscribe", "-np", str(ranks), args.allocsim, "sweep",
               experiment, "-o", output, "--overwrite", "--progress", "none", *extra]
    started = time.time()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.time() - started
    if result.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{result.stderr}")
    with h5py.File(output, "r") as f:
        info = dict(f.attrs)
    cost = re.search(r"master: ([\d.]+) us CPU per result", result.stderr)
    info["us_per_result"] = float(cost.group(1)) if cost else float("nan")
    return wall, info


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--allocsim", default="build/allocsim")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--tiny", type=int, default=2000, help="tiny configs")
    parser.add_argument("--heavy", type=int, default=16, help="CPU-bound configs (0: skip)")
    parser.add_argument("--heavy-jobs", type=int, default=60000, help="jobs per heavy config")
    parser.add_argument("--synthetic-ranks", type=int, default=0,
                        help="ranks of the --synthetic-results run (0: skip)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench_sweep_")
    print("load average before: %.2f %.2f %.2f on %d cores (efficiency needs 2 idle cores)"
          % (*os.getloadavg(), os.cpu_count()))
    try:
        tiny = os.path.join(folder, "tiny.toml")
        with open(tiny, "w") as f:
            f.write(TINY.format(replicates=max(1, args.tiny // 2)))
        print(f"== throughput: {args.tiny} tiny configs (10 jobs on mesh:4x4) ==")
        for ranks in (2, 3):
            wall, info = run(args, ranks, tiny, os.path.join(folder, f"tiny{ranks}.h5"))
            done = info["done"]
            rate = done / info["dispatch_seconds"]
            print(f"-np {ranks} ({ranks - 1} worker{'s' if ranks > 2 else ''}): {done} configs in "
                  f"{info['dispatch_seconds']:.2f} s = {rate:,.0f} configs/s; master CPU share "
                  f"{100 * info['master_cpu_share']:.1f}%, {info['us_per_result']:.2f} us CPU per "
                  f"result; whole command {wall:.2f} s")

        if args.synthetic_ranks > 0:
            ranks = args.synthetic_ranks
            wall, info = run(args, ranks, tiny, os.path.join(folder, "synthetic.h5"),
                             "--synthetic-results")
            print(f"\n== the master alone: -np {ranks} --synthetic-results ==\n"
                  f"{info['us_per_result']:.2f} us CPU per result (target <= 5), "
                  f"{info['done'] / info['dispatch_seconds']:,.0f} results/s; whole command "
                  f"{wall:.2f} s")
        if args.heavy <= 0:
            return

        heavy = os.path.join(folder, "heavy.toml")
        with open(heavy, "w") as f:
            f.write(HEAVY.format(replicates=max(1, args.heavy // 2), jobs=args.heavy_jobs))
        print(f"\n== parallel efficiency: {args.heavy} CPU-bound configs "
              f"({args.heavy_jobs} jobs, EASY, mesh:16x16) ==")
        times = {}
        for ranks in (2, 3):
            wall, info = run(args, ranks, heavy, os.path.join(folder, f"heavy{ranks}.h5"))
            times[ranks] = info["dispatch_seconds"]
            print(f"-np {ranks} ({ranks - 1} worker{'s' if ranks > 2 else ''}): "
                  f"{info['dispatch_seconds']:.2f} s ({info['dispatch_seconds'] / info['done']:.2f}"
                  f" s/config); master CPU share {100 * info['master_cpu_share']:.2f}%")
        efficiency = times[2] / (2 * times[3])
        print(f"efficiency 1 -> 2 workers: {100 * efficiency:.1f}% (target >= 85%); "
              f"master CPU share with 2 workers: {100 * info['master_cpu_share']:.2f}% "
              f"(target < 5%)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
