#!/usr/bin/python3
"""docs/PYTHON.md's worked example: an allocator written in Python against two built-in ones on
the NASA iPSC/860 trace, with jobs slowed by network contention (`flow`). Paste it into a
notebook, or run it:

    ALLOCSIM_TRACE_DIR=/path/to/traces PYTHONPATH=build/python \\
        /usr/bin/python3 docs/python_example.py docs/python_example.png
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import allocsim  # noqa: E402


class NearestToCentre(allocsim.Allocator):
    """Around every free node, the job's size nearest free nodes (hops on the mesh); keeps the
    set with the smallest total distance to its centre (Mache et al.'s MC idea, in numpy)."""

    def __init__(self):
        self.coords = None  # node id -> mesh coordinates, filled on the first call

    def allocate(self, job, machine):
        free = np.array(machine.free_nodes())
        if len(free) < job.size:
            return None  # not now
        if self.coords is None:
            topology = machine.topology
            self.coords = np.array([topology.coords(n) for n in range(topology.node_count)])
        points = self.coords[free]
        hops = np.abs(points[:, None, :] - points[None, :, :]).sum(axis=2)  # mesh: L1 distance
        nearest = np.partition(hops, job.size - 1, axis=1)[:, :job.size].sum(axis=1)
        centre = int(nearest.argmin())  # lowest id among equally compact centres
        chosen = free[np.argsort(hops[centre], kind="stable")[:job.size]]
        return sorted(chosen.tolist())


SETTINGS = dict(machine="mesh:16x8", sched="easy", runtime_model="flow:comm=0.5")
ALLOCATORS = {"flat (built-in)": "flat", "mc1x1 (built-in)": "mc1x1",
              "NearestToCentre (Python)": NearestToCentre()}


def main(figure_path):
    trace = allocsim.Trace("NASA-iPSC-1993-3.1-cln")  # read once, run three times
    results = {name: allocsim.run(trace=trace, alloc=alloc, **SETTINGS)
               for name, alloc in ALLOCATORS.items()}
    print(f"{'allocator':<26} {'mean wait':>10} {'mean response':>14} {'slowdown':>9} "
          f"{'pairwise hops':>14}")
    for name, result in results.items():
        s = result.summary
        print(f"{name:<26} {s['mean_wait']:>8.0f} s {s['mean_response']:>12.0f} s "
              f"{s['mean_comm_slowdown']:>9.3f} {s['mean_pairwise_hops']:>14.3f}")

    figure, (bars, cdf) = plt.subplots(1, 2, figsize=(11, 4.2))
    names = list(results)
    metrics = ["mean_wait", "mean_response"]
    width = 0.38
    for i, metric in enumerate(metrics):
        values = [results[n].summary[metric] for n in names]
        placed = bars.bar(np.arange(len(names)) + (i - 0.5) * width, values, width,
                          label=metric.replace("_", " ") + f" ({results[names[0]].units[metric]})")
        bars.bar_label(placed, fmt="%.0f", fontsize=8)
    bars.set_xticks(np.arange(len(names)), [n.replace(" (", "\n(") for n in names])
    bars.set_ylabel("seconds")
    bars.set_title("NASA iPSC/860 on mesh:16x8, EASY, flow (comm=0.5)")
    bars.legend()
    for name, result in results.items():  # per-job records: one row per job
        slowdown = np.sort(result.jobs["comm_slowdown"].to_numpy())
        cdf.plot(slowdown, np.arange(1, len(slowdown) + 1) / len(slowdown), label=name)
    cdf.set_xlabel("job's running time / its time alone on a compact allocation (log)")
    cdf.set_ylabel("fraction of jobs")
    cdf.set_xscale("log")
    cdf.set_xlim(1, 100)
    cdf.set_title("per-job communication slowdown (CDF)")
    cdf.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(figure_path, dpi=110)
    print(f"wrote {figure_path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "python_example.png")
