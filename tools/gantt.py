#!/usr/bin/python3
"""Schedule Gantt chart (time x nodes, one colour per job) from Batsim's jobs.csv or from
allocsim's own per-job file (`allocsim run --jobs-out`).

    build/allocsim run --trace small.swf --machine mesh:8x8 --format batsim > jobs.csv
    /usr/bin/python3 tools/gantt.py jobs.csv -o gantt.png [--title ...] [--labels]
    build/allocsim run --trace small.swf --machine mesh:8x8 --jobs-out jobs.csv \
        --format json > run.json
    /usr/bin/python3 tools/gantt.py jobs.csv --config run.json --relative --snapshot 120

--relative counts time from the first start; --time-unit s|h|days. --snapshot T adds a panel
with the occupancy of a 2D mesh or torus at time T (each node in its job's colour, free nodes
white; node id = x + width * y, allocsim's row-major order) and marks T on the chart. The
runtime model (fixed, flow, ...) is part of the title whenever the config is known: a chart
under a network model shows stretched running times.

The title gives the machine and settings (scheduler, allocator, trace, transforms) when they
are known: from --config FILE, the run's `--format json` output or its `--swf-out` SWF file
(both hold the run's canonical config), or from --machine and --settings; otherwise it names
the CSV file.

Each job is one rectangle per interval of its `allocated_resources` interval set ("0-3 8
10-11": nodes 0..3, 8 and 10..11), from starting_time to finish_time. Writes gantt.png and
gantt.pdf at 300 dpi and gantt.caption.txt. Node ids are allocsim's (row-major on a mesh or
torus), so a contiguous allocation shows as few rectangles.
"""
import argparse
import json
import math
import os
import re
import sys

import pandas as pd
from matplotlib.ticker import MaxNLocator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402

NEEDED = ["job_id", "starting_time", "finish_time", "allocated_resources"]
# allocsim's --jobs-out columns and their Batsim names.
JOBS_OUT = {"start": "starting_time", "end": "finish_time", "allocated_nodes":
            "allocated_resources"}
TIME_UNITS = {"s": 1.0, "h": 3600.0, "days": 86400.0}


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


def split_config(text):
    """A canonical config "machine=mesh:8x8;trace=...;transforms=[a | b];..." as a dict (the
    separators inside [...] are part of the value)."""
    fields, depth, start = {}, 0, 0
    for index, char in enumerate(text + ";"):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == ";" and depth == 0:
            key, _, value = text[start:index].partition("=")
            if key.strip():
                fields[key.strip()] = value.strip()
            start = index + 1
    return fields


def read_config(path):
    """The canonical config of a run from its `--format json` output ("config") or its
    `--swf-out` file ("; Note: config ..."), as split_config's dict."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise PlotError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise PlotError(f"{path} is not a text file") from None
    if text.lstrip().startswith("{"):
        try:
            config = json.loads(text).get("config")
        except (json.JSONDecodeError, AttributeError) as error:
            raise PlotError(f"{path} is not the JSON of `allocsim run --format json` "
                            f"({error})") from None
    else:
        notes = [line.split("config", 1)[1] for line in text.splitlines()
                 if line.startswith(";") and line[1:].strip().startswith("Note: config ")]
        config = notes[0] if notes else None
    if not config:
        raise PlotError(f"{path} holds no run config (give `allocsim run --format json` output "
                        "or an SWF file written by --swf-out)")
    return split_config(config)


def describe(config, machine, settings):
    """(title, caption line) naming the machine and settings, or (None, None) when unknown:
    machine, scheduler and allocator on the first line, the trace and the rest below."""
    machine = machine or config.get("machine")
    first = [f"{name} {config[key]}" for key, name in (("sched", "scheduler"),
                                                          ("alloc", "allocator"),
                                                          ("runtime_model", "runtime model"))
             if config.get(key)]
    second = [f"trace {config['trace']}"] if config.get("trace") else []
    transforms = config.get("transforms", "[]").strip("[]")
    if transforms:
        second.append(f"transforms {transforms}")
    if settings:
        second.append(settings)
    if not machine and not first and not second:
        return None, None
    head = (machine or "machine not given") + (": " + ", ".join(first) if first else "")
    lines = [head] + ([", ".join(second)] if second else [])
    return "\n".join(pc.wrap_title(line, 95) for line in lines), \
        "machine and settings: " + "; ".join(lines)


def machine_nodes(machine):
    """Node count of a machine spec like "mesh:8x8" or "torus:4x4x8" (None if not of that form)."""
    match = re.fullmatch(r"[a-z0-9_]+:(\d+(?:x\d+)*)", machine or "")
    return math.prod(int(side) for side in match.group(1).split("x")) if match else None


def read_jobs(path):
    """The jobs of a Batsim jobs.csv or an allocsim --jobs-out file, with Batsim's column
    names."""
    try:
        jobs = pd.read_csv(path, dtype={"allocated_resources": str, "allocated_nodes": str})
    except FileNotFoundError:
        raise PlotError(f"{path}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
        raise PlotError(f"{path} is not a CSV file ({error})") from None
    if "allocated_resources" not in jobs.columns and "allocated_nodes" in jobs.columns:
        jobs = jobs.rename(columns=JOBS_OUT)  # allocsim run --jobs-out
    missing = [c for c in NEEDED if c not in jobs.columns]
    if missing:
        raise PlotError(f"{path} is neither a Batsim jobs.csv nor an allocsim --jobs-out file "
                        f"(no column {', '.join(missing)}); write one with `allocsim run ... "
                        "--format batsim` or `--jobs-out FILE`")
    jobs = jobs[jobs.allocated_resources.notna() & (jobs.allocated_resources != "")]
    if jobs.empty:
        raise PlotError(f"{path}: no job has allocated_resources (nothing ran)")
    return jobs


def mesh_sides(machine):
    """(width, height) of a 2D mesh/torus/semitorus spec such as "mesh:8x8", else None."""
    match = re.fullmatch(r"(?:mesh|torus|semitorus):(\d+)x(\d+)", machine or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def draw_snapshot(axis, jobs, colour_of, at, sides, labels):
    """Occupancy of a 2D mesh at time `at` (simulated seconds): each node of a job running then
    (start <= at < finish) in the job's colour, free nodes white."""
    width, height = sides
    owner = {}
    for job in jobs.itertuples(index=False):
        if float(job.starting_time) <= at < float(job.finish_time):
            for low, high in intervals(job.allocated_resources):
                for node in range(low, high + 1):
                    owner[node] = job
    for node in range(width * height):
        x, y = node % width, node // width
        job = owner.get(node)
        axis.add_patch(plt.Rectangle((x, y), 1, 1, facecolor=colour_of[job.job_id] if job
                                     else "white", edgecolor="grey", linewidth=0.3))
        if job is not None and labels:
            axis.text(x + 0.5, y + 0.5, str(job.job_id), ha="center", va="center", fontsize=5)
    axis.set_xlim(0, width)
    axis.set_ylim(0, height)
    axis.set_aspect("equal")
    axis.set_xlabel("x")
    axis.set_ylabel("y")
    busy = len(owner)
    axis.set_title(f"occupancy at t = {at:g} s: {busy}/{width * height} nodes busy",
                   fontsize="small")
    return busy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("jobs", help="Batsim jobs.csv (allocsim run --format batsim) or "
                        "allocsim run --jobs-out FILE")
    parser.add_argument("-o", "--output", default="gantt.png")
    parser.add_argument("--title", default=None, help="instead of the machine and settings")
    parser.add_argument("--config", metavar="FILE", help="the run's `--format json` output or "
                        "its --swf-out file: machine and settings for the title")
    parser.add_argument("--machine", help="machine for the title (e.g. mesh:8x8)")
    parser.add_argument("--settings", help="more settings for the title (free text)")
    parser.add_argument("--nodes", type=int, help="node count of the machine (default: the "
                        "machine's when known, else the highest allocated node id + 1)")
    parser.add_argument("--relative", action="store_true",
                        help="time counted from the first job's start")
    parser.add_argument("--time-unit", choices=sorted(TIME_UNITS), default="s")
    parser.add_argument("--snapshot", type=float, metavar="T",
                        help="add the occupancy of the 2D mesh at simulated time T (seconds, "
                        "as in the file, not relative)")
    labels = parser.add_mutually_exclusive_group()
    labels.add_argument("--labels", action="store_true", default=None,
                        help="write job ids in the rectangles (default: up to 60 jobs)")
    labels.add_argument("--no-labels", dest="labels", action="store_false")
    args = parser.parse_args()
    jobs = read_jobs(args.jobs)
    config = read_config(args.config) if args.config else {}
    known, known_caption = describe(config, args.machine, args.settings)
    machine = args.machine or config.get("machine")
    machine_size = machine_nodes(machine)
    sides = mesh_sides(machine) if args.snapshot is not None else None
    if args.snapshot is not None and not sides:
        raise PlotError(f"--snapshot draws a 2D mesh or torus; the machine is "
                        f"{machine or 'not given (use --machine or --config)'}")
    if args.labels is None:
        args.labels = len(jobs) <= 60
    if sides:
        figure, (axis, snap_axis) = plt.subplots(
            1, 2, figsize=(11.5, 4.2), gridspec_kw={"width_ratios": [2.2, 1]})
    else:
        figure, axis = plt.subplots(figsize=(7.5, 4.2))
    colours = plt.get_cmap("tab20")
    origin = float(jobs.starting_time.min()) if args.relative else 0.0
    scale = TIME_UNITS[args.time_unit]
    colour_of = {}
    top = 0
    for number, job in enumerate(jobs.itertuples(index=False)):
        start = (float(job.starting_time) - origin) / scale
        length = float(job.finish_time - job.starting_time) / scale
        colour = colour_of[job.job_id] = colours(number % 20)
        sets = intervals(job.allocated_resources)
        for low, high in sets:
            axis.broken_barh([(start, length)], (low, high - low + 1), facecolor=colour,
                             edgecolor="black", linewidth=0.3)
            top = max(top, high + 1)
            if args.labels:  # every rectangle: a job split over intervals stays recognisable
                axis.text(start + length / 2, (low + high + 1) / 2, str(job.job_id),
                          ha="center", va="center", fontsize=5, clip_on=True)
    axis.set_xlim((float(jobs.starting_time.min()) - origin) / scale,
                  (float(jobs.finish_time.max()) - origin) / scale)
    nodes = args.nodes or machine_size  # the machine's size when known
    if nodes:
        if nodes < top:
            raise PlotError(f"{'--nodes' if args.nodes else 'the machine has'} {nodes}"
                            f"{'' if args.nodes else ' nodes'}, but node {top - 1} is allocated")
        top = nodes
    axis.set_ylim(0, top)
    axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_xlabel(f"time since the first start ({args.time_unit})" if args.relative
                    else f"time ({args.time_unit})")
    axis.set_ylabel("node id")
    title = args.title or known or f"{os.path.basename(args.jobs)} (machine and settings not " \
                                   "given: see --config)"
    busy = None
    if sides:
        axis.axvline((args.snapshot - origin) / scale, color="black", linestyle="--",
                     linewidth=0.8)
        busy = draw_snapshot(snap_axis, jobs, colour_of, args.snapshot, sides, args.labels)
    if sides:
        figure.suptitle(title, fontsize="medium")
    else:
        axis.set_title(title, fontsize="medium")
    figure.tight_layout()
    caption = [f"Gantt chart of {len(jobs)} jobs from {args.jobs}: one rectangle per job and "
               f"interval of allocated node ids (time in simulated "
               f"{'seconds' if scale == 1 else args.time_unit}"
               f"{', counted from the first start' if args.relative else ''}, nodes "
               f"0-{top - 1}); colours cycle through 20 (neighbouring jobs differ)" +
               ("; labels: job ids." if args.labels else ".")]
    if busy is not None:
        caption.append(f"Right: occupancy of the {sides[0]}x{sides[1]} mesh at t = "
                       f"{args.snapshot:g} s (dashed line), node id = x + {sides[0]} * y; "
                       f"{busy} nodes busy, free nodes white.")
    if known_caption:
        caption.append(known_caption)
    if not config.get("runtime_model"):
        caption.append("Runtime model not known (give --config): under a network model the "
                       "rectangles are the stretched running times.")
    if "workload_name" in jobs.columns:
        caption.append("workload: " + ", ".join(map(str, jobs.workload_name.unique())))
    paths = pc.save(figure, args.output, caption)
    print("wrote " + " ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
