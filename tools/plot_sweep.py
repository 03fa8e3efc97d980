#!/usr/bin/python3
"""Plot one metric of a sweep against a numeric axis, one line per group.

    /usr/bin/python3 tools/plot_sweep.py results.h5 --x load --metric mean_bounded_slowdown \
        --lines alloc --facet sched -o bsd.png

Replicates (and any column not named) are averaged.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep_results import load  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--x", required=True, help="numeric /configs column (e.g. a variable)")
    parser.add_argument("--metric", default="mean_bounded_slowdown")
    parser.add_argument("--lines", default="alloc", help="one line per value of this column")
    parser.add_argument("--facet", help="one panel per value of this column")
    parser.add_argument("-o", "--output", default="sweep.png")
    args = parser.parse_args()
    _, _, joined = load(args.results)
    facets = sorted(joined[args.facet].unique()) if args.facet else [None]
    figure, axes = plt.subplots(1, len(facets), figsize=(5 * len(facets), 4), squeeze=False)
    for axis, facet in zip(axes[0], facets):
        part = joined if facet is None else joined[joined[args.facet] == facet]
        means = part.groupby([args.lines, args.x])[args.metric].mean().reset_index()
        for name, line in means.groupby(args.lines):
            axis.plot(line[args.x], line[args.metric], marker="o", label=str(name))
        axis.set_xlabel(args.x)
        axis.set_ylabel(args.metric)
        if facet is not None:
            axis.set_title(f"{args.facet} = {facet}")
        axis.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(args.output, dpi=120)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
