#!/usr/bin/python3
"""Mao, Chen & Watson's figures from an `allocsim sweep` of experiments/mao-*.toml.

    /usr/bin/python3 tools/mao_figures.py mao-jlab.h5 [--plot mao-jlab.png]

For each trace x scheduler x allocator it prints the utilization at which the mean bounded
slowdown first passes 10 (linear interpolation between neighbouring runtime multiples c, ordered
by c), and optionally plots bounded slowdown against utilization and utilization against
offered load (the data behind the paper's Figures 3-7).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_results import load  # noqa: E402


def utilization_at_slowdown(rows, threshold=10.0):
    """Utilization where mean bounded slowdown crosses `threshold` (rows sorted by c)."""
    previous = None
    for _, row in rows.iterrows():
        if row.mean_bounded_slowdown > threshold:
            if previous is None:
                return row.utilization
            u0, s0 = previous.utilization, previous.mean_bounded_slowdown
            u1, s1 = row.utilization, row.mean_bounded_slowdown
            return u0 + (threshold - s0) * (u1 - u0) / (s1 - s0)
        previous = row
    return float("nan")  # never passes: saturation not reached in the sweep


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--plot", help="PNG file for the figures")
    args = parser.parse_args()
    _, _, joined = load(args.results)
    joined["c"] = joined["c"].astype(float)
    keys = ["trace", "sched", "alloc"]
    print(f"{'trace':26} {'sched':6} {'alloc':22} {'U at bsd=10':>11} {'max U':>6}")
    for (trace, sched, alloc), rows in joined.groupby(keys):
        rows = rows.sort_values("c")
        print(f"{trace:26} {sched:6} {alloc:22} {utilization_at_slowdown(rows):11.3f} "
              f"{rows.utilization.max():6.3f}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        traces = sorted(joined.trace.unique())
        fig, axes = plt.subplots(2, len(traces), figsize=(6 * len(traces), 9), squeeze=False)
        for column, trace in enumerate(traces):
            for (sched, alloc), rows in joined[joined.trace == trace].groupby(["sched", "alloc"]):
                rows = rows.sort_values("c")
                label = f"{sched} {alloc.replace('subtorus:scheme=', '').upper()}"
                axes[0][column].plot(rows.utilization, rows.mean_bounded_slowdown, ".-", label=label)
                axes[1][column].plot(rows.offered_load, rows.utilization, ".-", label=label)
            axes[0][column].set(title=trace, xlabel="utilization", ylabel="mean bounded slowdown",
                                yscale="log")
            axes[1][column].set(xlabel="offered load", ylabel="utilization")
            axes[0][column].legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=90)
        print(f"figures: {args.plot}")


if __name__ == "__main__":
    main()
