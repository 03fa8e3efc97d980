#!/usr/bin/python3
"""Plot a run's machine state over time as evalys draws a Batsim schedule: utilization (busy
nodes / machine nodes), queue length and running jobs, as step functions.

    build/allocsim run --machine mesh:16x16 --trace SDSC-SP2-1998-4.2-cln \
        --timeline-out sdsc.csv
    /usr/bin/python3 tools/plot_timeline.py sdsc.csv --time-unit days -o sdsc-timeline.png
    /usr/bin/python3 tools/plot_timeline.py results.h5 --config 3 -o config3.png

Inputs are `allocsim run --timeline-out` CSV files, or a sweep result file with `--config`
(config ids as 16 hex digits, config indices, or labels; the sweep must have kept timelines:
`keep_timeline = true`). Several inputs are drawn over each other, one style per input. Each
row of a timeline holds from its time until the next row's, so the lines are steps
("post"); --time-unit s|h|days as tools/plot_sweep.py; --relative starts the time axis at each
timeline's first row. Writes OUTPUT.png, OUTPUT.pdf (300 dpi) and OUTPUT.caption.txt.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402

TIME_UNITS = {"s": 1.0, "h": 3600.0, "days": 86400.0}
COLUMNS = ["time", "busy_nodes", "utilization", "queued_jobs", "running_jobs"]
PANELS = [("utilization", "utilization\n(busy / all nodes)"),
          ("queued_jobs", "queued jobs"),
          ("running_jobs", "running jobs")]


def read_csv(path):
    """The timeline of a --timeline-out file; PlotError for a file that is not one."""
    import pandas as pd
    if not os.path.exists(path):
        raise PlotError(f"{path}: no such file")
    try:
        data = pd.read_csv(path)
    except (ValueError, UnicodeDecodeError) as error:
        raise PlotError(f"{path}: not a CSV file ({error})") from None
    missing = [c for c in COLUMNS if c not in data.columns]
    if missing:
        raise PlotError(f"{path}: not an allocsim --timeline-out file (no column "
                        f"{', '.join(missing)}; expected {', '.join(COLUMNS)})")
    return data


def window_means(time, values, width):
    """(window starts, time-weighted mean of the step function over each window [a, a + width))
    from the first to the last time; the value before the first row is 0 (an empty machine)."""
    import numpy as np
    t = np.asarray(time, dtype=float)
    v = np.asarray(values, dtype=float)
    integral = np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])  # at each row's time

    def area(x):  # integral of the steps from t[0] to x (x >= t[0])
        k = np.searchsorted(t, x, side="right") - 1
        return integral[k] + v[k] * (x - t[k])
    starts = np.arange(t[0], t[-1], width)
    ends = np.minimum(starts + width, t[-1])
    return starts, (area(ends) - area(starts)) / (ends - starts)


def read_results(path, configs):
    """[(label, timeline)] of the chosen configs of a sweep result file."""
    frames = pc.load_results(path)
    timelines = frames["timeline"]
    results = frames["results"]
    out = []
    for wanted in configs:
        hexes = results["config_id"].map(lambda i: f"{int(i):016x}")
        match = results[(hexes == wanted.lower()) | (results["label"].astype(str) == wanted) |
                        (results["index"].astype(str) == wanted)]
        if match.empty:
            raise PlotError(f"{path}: no done config {wanted} (give a config id, index or label;"
                            f" e.g. {results['index'].iloc[0]} = {results['label'].iloc[0]})")
        row = match.iloc[0]
        timeline = (timelines[timelines["config_id"] == row["config_id"]]
                    if not timelines.empty else timelines)
        if timeline.empty:
            raise PlotError(f"{path}: config {wanted} has no /timeline table (run the sweep "
                            "with keep_timeline = true in [experiment])")
        out.append((str(row["label"]), timeline))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="+",
                        help="--timeline-out CSV files, or one sweep result file with --config")
    parser.add_argument("--config", action="append", metavar="ID",
                        help="with a result file: the config to draw (hex id, index or label; "
                        "repeatable)")
    parser.add_argument("--label", action="append",
                        help="legend text of each input, in order (default: the file names)")
    parser.add_argument("--time-unit", choices=sorted(TIME_UNITS), default="s",
                        help="unit of the time axis (default s)")
    parser.add_argument("--relative", action="store_true",
                        help="time from each timeline's first row (default: the trace's clock)")
    parser.add_argument("--average", type=float, metavar="WIDTH",
                        help="also draw the time-weighted mean over consecutive windows of WIDTH "
                        "time units (default: 1/200 of the time span when a timeline has more "
                        "than 2000 rows, where the steps alone are a solid block; 0 = never)")
    parser.add_argument("-o", "--output", default="timeline.png",
                        help="PNG name; the PDF and .caption.txt are written next to it")
    args = parser.parse_args()
    if args.config:
        if len(args.inputs) != 1:
            raise PlotError("--config reads one sweep result file")
        series = read_results(args.inputs[0], args.config)
        source = [f"{args.inputs[0]}: config {label}" for label, _ in series]
    else:
        series = [(os.path.splitext(os.path.basename(p))[0], read_csv(p)) for p in args.inputs]
        source = [f"{p}" for p in args.inputs]
    if args.label:
        if len(args.label) != len(series):
            raise PlotError(f"{len(args.label)} --label for {len(series)} timelines")
        series = [(text, data) for text, (_, data) in zip(args.label, series)]
    scale = TIME_UNITS[args.time_unit]
    if args.average is not None and args.average < 0:
        raise PlotError(f"--average {args.average:g}: give a window width >= 0")
    figure, axes = plt.subplots(len(PANELS), 1, figsize=(7.5, 6.4), sharex=True)
    averaged = None
    for index, (name, data) in enumerate(series):
        if data.empty:
            raise PlotError(f"{name}: the timeline has no rows (no job ran)")
        time = data["time"].astype(float)
        if args.relative:
            time = time - time.iloc[0]
        time = time / scale
        width = args.average
        if width is None:
            width = (time.iloc[-1] - time.iloc[0]) / 200 if len(data) > 2000 else 0
        style = pc.style(index)
        style.pop("marker")
        windows = width > 0 and time.iloc[-1] > time.iloc[0]
        if windows:
            averaged = width
        for axis, (column, _) in zip(axes, PANELS):
            if windows:  # the raw steps faint, the window means on top
                axis.step(time, data[column], where="post", color=style["color"], alpha=0.25,
                          linewidth=0.5)
                starts, means = window_means(time, data[column], width)
                axis.step(list(starts) + [time.iloc[-1]], list(means) + [means[-1]],
                          where="post", label=name, **style)  # the last window drawn to its end
            else:
                axis.step(time, data[column], where="post", label=name, **style)
    for axis, (column, text) in zip(axes, PANELS):
        axis.set_ylabel(text, fontsize="small")
        axis.grid(True, alpha=0.3)
        axis.set_ylim(bottom=0)
    axes[0].set_ylim(0, 1.05)
    if not averaged:  # job counts: whole-number ticks
        from matplotlib.ticker import MaxNLocator
        for axis in axes[1:]:
            axis.yaxis.set_major_locator(MaxNLocator(integer=True))
    start = "time since the first event" if args.relative else "simulated time"
    axes[-1].set_xlabel(f"{start} ({args.time_unit})")
    if len(series) > 1:
        pc.legend_outside(figure, axes)
    else:
        axes[0].set_title(pc.wrap_title(series[0][0], 80), fontsize="medium")
    figure.tight_layout()
    caption = [
        "Machine state over time (step functions: each value holds until the next change): "
        "utilization = busy nodes / machine nodes, queued jobs (arrived, not started), running "
        f"jobs; time in {args.time_unit}" + (", from each timeline's first event." if
                                              args.relative else ", on the trace's clock."),
        "Each row of a timeline is the state after every event at its time (allocsim run "
        "--timeline-out)."] + [f"input: {s}" for s in source]
    if averaged:
        caption.insert(1, f"Faint: the steps themselves; solid: their time-weighted mean over "
                       f"consecutive windows of {averaged:.4g} {args.time_unit} (--average).")
        axes[-1].annotate(f"solid: mean over windows of {averaged:.3g} {args.time_unit}; "
                          "faint: every change", xy=(0, -0.32), xycoords="axes fraction",
                          fontsize="x-small", va="top")
    paths = pc.save(figure, args.output, caption)
    print("wrote " + " ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
