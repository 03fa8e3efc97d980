#!/usr/bin/python3
"""Schedule Gantt chart (time x nodes, one colour per job) from Batsim's jobs.csv.

    build/allocsim run --trace small.swf --machine mesh:8x8 --format batsim > jobs.csv
    /usr/bin/python3 tools/gantt.py jobs.csv -o gantt.png [--title ...] [--labels]

Each job is one rectangle per interval of its `allocated_resources` interval set ("0-3 8
10-11": nodes 0..3, 8 and 10..11), from starting_time to finish_time. Writes gantt.png and
gantt.pdf at 300 dpi and gantt.caption.txt. Node ids are allocsim's (row-major on a mesh or
torus), so a contiguous allocation shows as few rectangles.
"""
import argparse
import os
import sys

import pandas as pd
from matplotlib.ticker import MaxNLocator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402

NEEDED = ["job_id", "starting_time", "finish_time", "allocated_resources"]


def intervals(text):
    """Batsim interval set "0-3 8 10-11" as [(0, 3), (8, 8), (10, 11)] (inclusive bounds)."""
    out = []
    for part in str(text).split():
        low, _, high = part.partition("-")
        try:
            out.append((int(low), int(high or low)))
        except ValueError:
            raise PlotError(f"'{text}' is not a Batsim interval set (like '0-3 8')") from None
    return out


def read_jobs(path):
    try:
        jobs = pd.read_csv(path, dtype={"allocated_resources": str})
    except FileNotFoundError:
        raise PlotError(f"{path}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise PlotError(f"{path} is not a CSV file ({error})") from None
    missing = [c for c in NEEDED if c not in jobs.columns]
    if missing:
        raise PlotError(f"{path} is not a Batsim jobs.csv (no column {', '.join(missing)}); "
                        f"write one with `allocsim run ... --format batsim`")
    jobs = jobs[jobs.allocated_resources.notna() & (jobs.allocated_resources != "")]
    if jobs.empty:
        raise PlotError(f"{path}: no job has allocated_resources (nothing ran)")
    return jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs", help="Batsim jobs.csv (allocsim run --format batsim)")
    parser.add_argument("-o", "--output", default="gantt.png")
    parser.add_argument("--title", default=None)
    parser.add_argument("--nodes", type=int, help="node count of the machine (default: the "
                        "highest allocated node id + 1)")
    labels = parser.add_mutually_exclusive_group()
    labels.add_argument("--labels", action="store_true", default=None,
                        help="write job ids in the rectangles (default: up to 60 jobs)")
    labels.add_argument("--no-labels", dest="labels", action="store_false")
    args = parser.parse_args()
    jobs = read_jobs(args.jobs)
    if args.labels is None:
        args.labels = len(jobs) <= 60
    figure, axis = plt.subplots(figsize=(7.5, 4.2))
    colours = plt.get_cmap("tab20")
    top = 0
    for number, job in enumerate(jobs.itertuples(index=False)):
        start, length = float(job.starting_time), float(job.finish_time - job.starting_time)
        colour = colours(number % 20)
        sets = intervals(job.allocated_resources)
        for low, high in sets:
            axis.broken_barh([(start, length)], (low, high - low + 1), facecolor=colour,
                             edgecolor="black", linewidth=0.3)
            top = max(top, high + 1)
            if args.labels:  # every rectangle: a job split over intervals stays recognisable
                axis.text(start + length / 2, (low + high + 1) / 2, str(job.job_id),
                          ha="center", va="center", fontsize=5, clip_on=True)
    axis.set_xlim(float(jobs.starting_time.min()), float(jobs.finish_time.max()))
    if args.nodes:
        if args.nodes < top:
            raise PlotError(f"--nodes {args.nodes}, but node {top - 1} is allocated")
        top = args.nodes
    axis.set_ylim(0, top)
    axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_xlabel("time (s)")
    axis.set_ylabel("node id")
    axis.set_title(args.title or os.path.basename(args.jobs), fontsize="medium")
    figure.tight_layout()
    caption = [f"Gantt chart of {len(jobs)} jobs from {args.jobs}: one rectangle per job and "
               f"interval of allocated node ids (time in simulated seconds, nodes 0-{top - 1}); "
               "colours cycle through 20 (neighbouring jobs differ)" +
               ("; labels: job ids." if args.labels else ".")]
    if "workload_name" in jobs.columns:
        caption.append("workload: " + ", ".join(map(str, jobs.workload_name.unique())))
    paths = pc.save(figure, args.output, caption)
    print("wrote " + " ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
