#!/usr/bin/python3
"""Plot one metric of a sweep against a numeric axis, one line per group.

    /usr/bin/python3 tools/plot_sweep.py results.h5 --x load --metric bsd \
        --lines alloc --facet sched -o bsd.png

Writes bsd.png and bsd.pdf (300 dpi) and bsd.caption.txt (the settings: traces, transforms such
as truncation and scaling, seeds, replicates). Points are means over replicates; error bars are
95 % Student-t intervals across replicates when there are several, drawn clipped at the bounds
a metric cannot cross (bounded slowdown >= 1, waits >= 0, utilization in [0, 1]). Columns not named (and not
constant) are averaged, which the caption says. Metric names as `allocsim report --metrics`
(bsd, mean_bsd = mean_bounded_slowdown); axes are labelled with the file's units; bounded
slowdown and other metrics spanning decades get a log axis (--linear to turn it off).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--x", required=True, help="numeric /configs column (e.g. a variable)")
    parser.add_argument("--metric", default="mean_bounded_slowdown")
    parser.add_argument("--lines", default="alloc", help="one line per value of this column")
    parser.add_argument("--facet", help="one panel per value of this column")
    parser.add_argument("--linear", action="store_true", help="no log scale on the y axis")
    parser.add_argument("-o", "--output", default="sweep.png",
                        help="PNG name; the PDF and .caption.txt are written next to it")
    args = parser.parse_args()
    frames = pc.load_results(args.results)
    x = pc.column(frames, args.x, "--x column")
    metric = pc.column(frames, args.metric, "metric")
    lines = pc.column(frames, args.lines, "--lines column")
    facet = pc.column(frames, args.facet, "--facet column") if args.facet else None
    data = frames["results"]
    try:
        data[x] = data[x].astype(float)
    except ValueError:
        raise PlotError(f"--x column '{x}' is not numeric (values: "
                        f"{', '.join(map(str, data[x].unique()[:5]))})") from None
    facets = sorted(data[facet].unique()) if facet else [None]
    series = sorted(data[lines].astype(str).unique())
    # Replicate means: first average each replicate over the columns not plotted (another
    # trace, say), so that the error bars are intervals across replicates only.
    keys = [c for c in (facet, lines, x) if c]
    if "replicate" in data.columns:
        data = data.groupby(keys + ["replicate"], as_index=False)[metric].mean()
    log = pc.use_log(metric, data[metric], args.linear)
    x_values = sorted(data[x].unique())
    dodge = 0.012 * (x_values[-1] - x_values[0]) if len(x_values) > 1 else 0.0
    figure, axes = plt.subplots(1, len(facets), figsize=(4.2 * len(facets), 3.4),
                                squeeze=False)  # own y axis per panel: traces differ in scale
    replicated = clipped = False
    bound = pc.bounds(frames, metric)
    for axis, value in zip(axes[0], facets):
        part = data if value is None else data[data[facet] == value]
        for index, name in enumerate(series):
            rows = part[part[lines].astype(str) == name]
            if rows.empty:
                continue
            points = rows.groupby(x)[metric].agg(list).sort_index()
            means = [sum(v) / len(v) for v in points]
            errors = [pc.t_half_width(v) for v in points]
            replicated |= any(e > 0 for e in errors)
            clipped |= pc.clip_intervals(means, errors, bound)[2]
            # Series side by side (dodged) so that equal values stay visible.
            shift = (index - (len(series) - 1) / 2) * dodge
            axis.errorbar([p + shift for p in points.index], means,
                          yerr=pc.error_bars(means, errors, log, bound), capsize=2.5, label=name,
                          **pc.style(index))
        axis.set_xlabel(pc.label(frames, x))
        pc.set_scale(axis, log, part[metric])
        if log == "log" and bound[0] and axis.get_ylim()[0] < 0.9 * bound[0]:
            axis.set_ylim(bottom=0.9 * bound[0])  # nothing to show below the bound
        axis.grid(True, which="major", alpha=0.3)
        if value is not None:
            axis.set_title(pc.wrap_title(f"{facet} = {value}"), fontsize="medium")
    axes[0][0].set_ylabel(pc.label(frames, metric) + (f" ({log} scale)" if log else ""))
    pc.legend_outside(figure, axes[0])
    figure.tight_layout()
    averaged = pc.averaged_columns(frames, [x, lines, facet])
    caption = [f"{pc.label(frames, metric)}" + (f" ({log} axis)" if log else "") + f" against {pc.label(frames, x)}, one line per "
               f"{lines}" + (f", one panel per {facet}" if facet else "") +
               (" (series shifted sideways by 1 % of the axis to stay visible)." if dodge
                else ".")]
    caption.append("Points: means over replicates; error bars: 95 % Student-t intervals across "
                   "replicates." if replicated else
                   "Points: one run each, or identical replicates (no error bars).")
    if clipped:
        caption.append(pc.bound_text(bound, pc.label(frames, metric), log))
    if averaged:
        caption.append("Each point also averages over: " + ", ".join(averaged) +
                       " (add --facet or --lines to separate them).")
    paths = pc.save(figure, args.output, caption + pc.settings_lines(frames))
    print("wrote " + " ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
