#!/usr/bin/python3
"""Mao, Chen & Watson's figures from an `allocsim sweep` of experiments/mao-*.toml.

    /usr/bin/python3 tools/mao_figures.py mao-jlab.h5 [--plot mao-jlab.png]

For each trace x scheduler x allocator it prints the saturation readings of
docs/REPRODUCTIONS.md (the same as `allocsim reproduce mao-*`): the primary one, where
utilization stops following offered load (the first point, in rising runtime multiple c, at
which load - utilization exceeds 2 points, interpolated; also for margins of 1, 5 and 10
points), the secondary one, the utilization at which the mean bounded slowdown first passes 10
(interpolated), and the plateau, the largest utilization over the sweep. "<=" marks a bound when
the first point already meets the criterion, ">=" when no point does. Per trace it prints the
largest ratio of the four subtorus combinations' mean bounded slowdowns at the c where all four
are at or below 50 % utilization ("similar" when at most 2). Optionally it plots bounded slowdown (log axis)
against utilization and utilization against offered load (the data behind the paper's Figures
3-7): PNG and PDF at 300 dpi and a .caption.txt with the settings. Replicates are averaged, with
95 % Student-t error bars.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402

NEEDED = ["trace", "sched", "alloc", "c", "utilization", "mean_bounded_slowdown", "offered_load"]


MARGINS = [0.01, 0.02, 0.05, 0.10]


def first_above(rows, value, limit):
    """(utilization, load, relation) at the first row (rows sorted by c) where value(row) >
    limit, interpolated in value from the row before: relation "=" for a crossing, "<=" when the
    first row already exceeds the limit (a bound), ">=" when no row does (the largest
    utilization reached is a lower bound)."""
    previous = None
    for _, row in rows.iterrows():
        if value(row) > limit:
            if previous is None:
                return row.utilization, row.offered_load, "<="
            t = (limit - value(previous)) / (value(row) - value(previous))
            return (previous.utilization + t * (row.utilization - previous.utilization),
                    previous.offered_load + t * (row.offered_load - previous.offered_load), "=")
        previous = row
    return rows.utilization.max(), rows.offered_load.max(), ">="


def load_saturation(rows, margin):
    """Utilization stops following offered load: load - utilization > margin."""
    return first_above(rows, lambda r: r.offered_load - r.utilization, margin)


def utilization_at_slowdown(rows, threshold=10.0):
    """(utilization, relation) where mean bounded slowdown first exceeds `threshold`."""
    utilization, _, relation = first_above(rows, lambda r: r.mean_bounded_slowdown, threshold)
    return utilization, relation


def shown(utilization, relation):
    return f"{'' if relation == '=' else relation}{utilization:.3f}"


def slowdown_spread(curves, up_to=0.5):
    """Largest highest/lowest mean bounded slowdown over the c where every curve is <= up_to."""
    ratios = []
    common = set.intersection(*(set(c.c[c.utilization <= up_to]) for c in curves))
    for c in sorted(common):
        values = [float(curve[curve.c == c].mean_bounded_slowdown.iloc[0]) for curve in curves]
        ratios.append(max(values) / min(values))
    return max(ratios) if ratios else float("nan")


def series_name(sched, alloc):
    return f"{sched.upper()} {alloc.replace('subtorus:scheme=', '').upper()}"


def plot(frames, joined, output):
    from plot_common import plt
    traces = sorted(joined.trace.unique())
    figure, axes = plt.subplots(2, len(traces), figsize=(4.2 * len(traces), 6.4), squeeze=False)
    replicated = clipped = False
    names = sorted({series_name(s, a) for s, a in zip(joined.sched, joined.alloc)})
    for column, trace in enumerate(traces):
        for (sched, alloc), rows in joined[joined.trace == trace].groupby(["sched", "alloc"]):
            name = series_name(sched, alloc)
            points = rows.groupby("c").agg(list).sort_index()
            style = pc.style(names.index(name))
            for row, (x, y) in enumerate([("utilization", "mean_bounded_slowdown"),
                                          ("offered_load", "utilization")]):
                xs = [sum(v) / len(v) for v in points[x]]
                ys = [sum(v) / len(v) for v in points[y]]
                errors = [pc.t_half_width(v) for v in points[y]]
                replicated |= any(e > 0 for e in errors)
                bound = pc.bounds(frames, y)
                clipped |= pc.clip_intervals(ys, errors, bound)[2]
                yerr = pc.error_bars(ys, errors, "log" if row == 0 else None, bound)
                axes[row][column].errorbar(xs, ys, yerr=yerr, capsize=2, label=name, **style)
        top, bottom = axes[0][column], axes[1][column]
        top.set_title(pc.wrap_title(trace), fontsize="medium")
        top.set_yscale("log")
        top.set_ylim(bottom=0.9)  # bounded slowdown >= 1: nothing to show below
        top.axhline(10, color="grey", linewidth=0.8, linestyle=":")
        top.set_xlabel(pc.label(frames, "utilization"))
        top.set_ylabel(pc.label(frames, "mean_bounded_slowdown") + " (log scale)")
        top.set_xlim(0, 1)  # utilization is a fraction: the same axis in every panel
        bottom.set_ylim(0, 1.02)
        bottom.set_xlabel(pc.label(frames, "offered_load"))
        bottom.set_ylabel(pc.label(frames, "utilization"))
        for axis in (top, bottom):
            axis.grid(True, alpha=0.3)
    pc.legend_outside(figure, [a for row in axes for a in row])
    figure.tight_layout()
    caption = ["Top: mean bounded slowdown (log axis; dotted line at 10) against utilization; "
               "bottom: utilization against offered load; one point per runtime multiple c.",
               "Error bars: 95 % Student-t intervals across replicates." if replicated else
               "One run per point (or identical replicates): no error bars."]
    if clipped:
        caption.append("Intervals that would cross a metric's bounds (mean bounded slowdown >= "
                       "1, utilization in [0, 1]) are drawn clipped there; the Student-t "
                       "intervals themselves ignore the bounds.")
    return pc.save(figure, output, caption + pc.settings_lines(frames))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--plot", help="PNG file for the figures (a PDF and caption next to it)")
    args = parser.parse_args()
    frames = pc.load_results(args.results, experiment_prefix="mao")
    for name in NEEDED:
        pc.column(frames, name)
    joined = frames["results"]
    joined["c"] = joined["c"].astype(float)
    keys = ["trace", "sched", "alloc"]
    margins = " ".join(f"{'sat' + str(round(100 * m)):>8}" for m in MARGINS)
    print(f"{'trace':26} {'sched':6} {'alloc':40} {margins} {'at load':>7} {'U@bsd10':>8} "
          f"{'plateau':>7}")
    curves = {}
    for (trace, sched, alloc), rows in joined.groupby(keys):
        rows = rows.groupby("c")[["utilization", "mean_bounded_slowdown", "offered_load"]].mean()
        rows = rows.reset_index().sort_values("c")
        curves[(trace, sched, alloc)] = rows
        readings = [load_saturation(rows, m) for m in MARGINS]
        sat = " ".join(f"{shown(u, r):>8}" for u, _, r in readings)
        load = readings[MARGINS.index(0.02)][1]
        print(f"{trace:26} {sched:6} {alloc:40} {sat} {load:7.3f} "
              f"{shown(*utilization_at_slowdown(rows)):>8} {rows.utilization.max():7.3f}")
    for trace in sorted(joined.trace.unique()):
        four = [rows for (t, _, alloc), rows in curves.items()
                if t == trace and alloc.startswith("subtorus")]
        if len(four) >= 2:
            print(f"{trace}: up to 50 % utilization the {len(four)} subtorus curves' mean "
                  f"bounded slowdowns differ by a factor of at most {slowdown_spread(four):.2f}")
    if args.plot:
        print("figures: " + " ".join(plot(frames, joined, args.plot)))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
