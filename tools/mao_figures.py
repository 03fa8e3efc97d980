#!/usr/bin/python3
"""Mao, Chen & Watson's figures from an `allocsim sweep` of experiments/mao-*.toml.

    /usr/bin/python3 tools/mao_figures.py mao-jlab.h5 [--plot mao-jlab.png]

For each trace x scheduler x allocator it prints the two saturation points of
docs/REPRODUCTIONS.md: the utilization at which the mean bounded slowdown first passes 10
(linear interpolation between neighbouring runtime multiples c, ordered by c; "<=" when the
first point is already above 10, a bound and not a crossing; ">=" when no point is) and the
plateau, the largest utilization over the sweep. Optionally it plots bounded slowdown against utilization and utilization against
offered load (the data behind the paper's Figures 3-7).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_results import load  # noqa: E402


def utilization_at_slowdown(rows, threshold=10.0):
    """(utilization, relation) where mean bounded slowdown crosses `threshold` (rows sorted by
    c): relation "=" for an interpolated crossing, "<=" when the first point already exceeds the
    threshold (the crossing lies at or below it: a bound), ">=" when no point exceeds it (the
    largest utilization reached is a lower bound)."""
    previous = None
    for _, row in rows.iterrows():
        if row.mean_bounded_slowdown > threshold:
            if previous is None:
                return row.utilization, "<="
            u0, s0 = previous.utilization, previous.mean_bounded_slowdown
            u1, s1 = row.utilization, row.mean_bounded_slowdown
            return u0 + (threshold - s0) * (u1 - u0) / (s1 - s0), "="
        previous = row
    return rows.utilization.max(), ">="


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--plot", help="PNG file for the figures")
    args = parser.parse_args()
    _, _, joined = load(args.results)
    joined["c"] = joined["c"].astype(float)
    keys = ["trace", "sched", "alloc"]
    print(f"{'trace':26} {'sched':6} {'alloc':22} {'U at bsd=10':>12} {'plateau':>7}")
    for (trace, sched, alloc), rows in joined.groupby(keys):
        rows = rows.sort_values("c")
        utilization, relation = utilization_at_slowdown(rows)
        shown = f"{'' if relation == '=' else relation}{utilization:.3f}"
        print(f"{trace:26} {sched:6} {alloc:22} {shown:>12} {rows.utilization.max():7.3f}")
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
