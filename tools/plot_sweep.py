#!/usr/bin/python3
"""Plot one metric of a sweep against a numeric axis, one line per group.

    /usr/bin/python3 tools/plot_sweep.py results.h5 --x load --metric bsd \
        --lines alloc --col sched --row trace --where machine=mesh:16x16 -o bsd.png

Writes bsd.png and bsd.pdf (300 dpi) and bsd.caption.txt (the settings: traces, transforms such
as truncation and scaling, seeds, replicates). Points are means over replicates; error bars are
95 % Student-t intervals across replicates when there are several, drawn clipped at the bounds
a metric cannot cross (bounded slowdown >= 1, waits >= 0, utilization in [0, 1]). Columns not named (and not
constant) are averaged, which the caption says. Metric names as `allocsim report --metrics`
(bsd, mean_bsd = mean_bounded_slowdown); axes are labelled with the file's units; bounded
slowdown and other metrics spanning decades get a log axis (--linear to turn it off).
Panels: --col (alias --facet) and --row; --where KEY=VALUE keeps only matching runs; metrics
in seconds can be shown in --time-unit h or days. The y label gives the readable name and the
column name ("mean turnaround (s)  [mean_response]"); the runtime model and the columns each
point averages over are written on the figure itself as well as in the caption.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plot_common as pc  # noqa: E402
from plot_common import PlotError, plt  # noqa: E402


TIME_UNITS = {"s": 1.0, "h": 3600.0, "days": 86400.0}


def parse_where(frames, filters):
    """[(column, value)] from --where KEY=VALUE (aliases resolved); PlotError when malformed."""
    out = []
    for text in filters or []:
        if "=" not in text:
            raise PlotError(f"--where {text}: expected KEY=VALUE, e.g. --where sched=easy")
        key, value = text.split("=", 1)
        out.append((pc.column(frames, key.strip(), "--where column"), value.strip()))
    return out


def apply_where(data, filters):
    """The rows whose columns equal the --where values (compared as text, or as numbers where
    both sides are numbers: --where c=1 keeps c = 1.0); PlotError naming the values present
    when nothing is left."""
    for name, value in filters:
        values = data[name]
        try:
            keep = values.astype(float) == float(value)
        except ValueError:
            keep = values.astype(str) == value
        if not keep.any():
            present = ", ".join(map(str, values.astype(str).unique()[:8]))
            raise PlotError(f"--where {name}={value}: no run has that value (values: {present})")
        data = data[keep]
    return data


def readable(frames, metric, scale, unit_name):
    """'mean turnaround (h)': the readable name with the unit shown."""
    text = pc.label(frames, metric)
    return text.replace("(s)", f"({unit_name})") if scale != 1.0 else text


def figure_note(frames, data, averaged):
    """The line written on the figure itself: runtime model(s) and what each point averages
    over (hidden variables), so that a figure shown without its caption still says it."""
    parts = []
    if "runtime_model" in data.columns:
        models = sorted(data["runtime_model"].astype(str).unique())
        parts.append("runtime model: " + " | ".join(models))
    if averaged:
        parts.append("each point averages over: " + ", ".join(averaged))
    return "; ".join(parts)


def paired(data, keys, lines, metric, baseline_value, mode):
    """Per replicate, each series' metric against the baseline series' (same panel, x and
    replicate): a ratio (value / baseline) or a difference (value - baseline). The intervals of
    the points are then paired intervals: Student-t across replicates of the per-replicate
    ratios or differences. PlotError when the baseline is missing for some point.
    `allocsim report --baseline KEY=VALUE --paired ratio|difference` computes the same numbers
    (src/sweep/report/paired.cpp; checked against this function by tests/mpi/test_report.py),
    so a figure and a report agree."""
    if "replicate" not in data.columns:
        raise PlotError("--baseline needs the replicate column (a sweep result file)")
    base_rows = data[data[lines].astype(str) == baseline_value]
    if base_rows.empty:
        present = ", ".join(sorted(data[lines].astype(str).unique()))
        raise PlotError(f"--baseline {lines}={baseline_value}: no such series (values: "
                        f"{present})")
    match = [k for k in keys if k != lines] + ["replicate"]
    base = base_rows[match + [metric]].rename(columns={metric: "_baseline"})
    merged = data.merge(base, on=match, how="left")
    if merged["_baseline"].isna().any():
        raise PlotError(f"--baseline {lines}={baseline_value}: some panels, x values or "
                        "replicates have no baseline run to pair with")
    if mode == "ratio":
        merged[metric] = merged[metric] / merged["_baseline"]
    else:
        merged[metric] = merged[metric] - merged["_baseline"]
    return merged.drop(columns="_baseline")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--x", required=True, help="numeric /configs column (e.g. a variable)")
    parser.add_argument("--metric", default="mean_bounded_slowdown")
    parser.add_argument("--lines", default="alloc", help="one line per value of this column")
    parser.add_argument("--col", "--facet", dest="col",
                        help="one column of panels per value of this column")
    parser.add_argument("--row", help="one row of panels per value of this column")
    parser.add_argument("--where", action="append", metavar="KEY=VALUE",
                        help="keep only runs with this value (repeatable), e.g. sched=easy")
    parser.add_argument("--time-unit", choices=sorted(TIME_UNITS), default="s",
                        help="unit of metrics measured in seconds (default s)")
    parser.add_argument("--baseline", metavar="KEY=VALUE",
                        help="plot each series against this one, replicate by replicate "
                        "(KEY is the --lines column), e.g. alloc=sortedfreelist; the same "
                        "numbers as allocsim report --baseline")
    parser.add_argument("--paired", choices=["ratio", "difference"], default="ratio",
                        help="with --baseline: value / baseline (default) or value - baseline")
    parser.add_argument("--linear", action="store_true", help="no log scale on the y axis")
    parser.add_argument("-o", "--output", default="sweep.png",
                        help="PNG name; the PDF and .caption.txt are written next to it")
    args = parser.parse_args()
    frames = pc.load_results(args.results)
    x = pc.column(frames, args.x, "--x column")
    metric = pc.column(frames, args.metric, "metric")
    lines = pc.column(frames, args.lines, "--lines column")
    col = pc.column(frames, args.col, "--col column") if args.col else None
    row = pc.column(frames, args.row, "--row column") if args.row else None
    filters = parse_where(frames, args.where)
    data = apply_where(frames["results"], filters)
    try:
        data[x] = data[x].astype(float)
    except ValueError:
        raise PlotError(f"--x column '{x}' is not numeric (values: "
                        f"{', '.join(map(str, data[x].unique()[:5]))})") from None
    unit_rows = frames["columns"][frames["columns"]["column"] == metric]
    in_seconds = len(unit_rows) and unit_rows["unit"].iloc[0] == "s"
    scale = TIME_UNITS[args.time_unit] if in_seconds else 1.0
    if scale != 1.0:
        data = data.assign(**{metric: data[metric] / scale})
    averaged = pc.averaged_columns({**frames, "results": data},
                                   [x, lines, col, row] + [name for name, _ in filters])
    note = figure_note(frames, data, averaged)
    cols = sorted(data[col].unique()) if col else [None]
    rows = sorted(data[row].unique()) if row else [None]
    series = sorted(data[lines].astype(str).unique())
    # Replicate means: first average each replicate over the columns not plotted (another
    # trace, say), so that the error bars are intervals across replicates only.
    keys = [c for c in (row, col, lines, x) if c]
    if "replicate" in data.columns:
        data = data.groupby(keys + ["replicate"], as_index=False)[metric].mean()
    baseline = None
    if args.baseline:
        key, _, baseline = args.baseline.partition("=")
        if not baseline or pc.column(frames, key.strip(), "--baseline column") != lines:
            raise PlotError(f"--baseline {args.baseline}: expected {lines}=VALUE (the --lines "
                            "column), e.g. --baseline alloc=sortedfreelist")
        data = paired(data, keys, lines, metric, baseline.strip(), args.paired)
    log = pc.use_log(metric, data[metric], args.linear) if not baseline else None
    x_values = sorted(data[x].unique())
    dodge = 0.012 * (x_values[-1] - x_values[0]) if len(x_values) > 1 else 0.0
    figure, axes = plt.subplots(len(rows), len(cols), figsize=(4.2 * len(cols),
                                                               3.4 * len(rows) + 0.3),
                                squeeze=False)  # own y axis per panel: traces differ in scale
    replicated = clipped = False
    bound = pc.bounds(frames, metric)
    bound = tuple(b / scale if b is not None and scale != 1.0 else b for b in bound)
    metric_text = readable(frames, metric, scale, args.time_unit)
    y_label = f"{metric_text}\n[{metric}]"  # readable name, unit and column name
    if baseline:
        bound = (None, None)
        # Three lines (the measure; against what; the column) so that the label fits the axis.
        metric_text = (f"{metric_text.split(' (')[0]}\n/ that of {baseline}" if args.paired ==
                       "ratio" else f"{metric_text}\nminus that of {baseline}")
        y_label = f"{metric_text}\n[{metric}]"
    for r, row_value in enumerate(rows):
        for c, col_value in enumerate(cols):
            axis = axes[r][c]
            part = data
            if row_value is not None:
                part = part[part[row] == row_value]
            if col_value is not None:
                part = part[part[col] == col_value]
            for index, name in enumerate(series):
                points_rows = part[part[lines].astype(str) == name]
                if points_rows.empty:
                    continue
                points = points_rows.groupby(x)[metric].agg(list).sort_index()
                means = [sum(v) / len(v) for v in points]
                errors = [pc.t_half_width(v) for v in points]
                replicated |= any(e > 0 for e in errors)
                clipped |= pc.clip_intervals(means, errors, bound)[2]
                # Series side by side (dodged) so that equal values stay visible.
                shift = (index - (len(series) - 1) / 2) * dodge
                axis.errorbar([p + shift for p in points.index], means,
                              yerr=pc.error_bars(means, errors, log, bound), capsize=2.5,
                              label=name, **pc.style(index))
            if r == len(rows) - 1:
                axis.set_xlabel(pc.label(frames, x))
            if c == 0:
                axis.set_ylabel(y_label + (f" ({log} scale)" if log else ""), fontsize="small")
            pc.set_scale(axis, log, part[metric])
            if log == "log" and bound[0] and axis.get_ylim()[0] < 0.9 * bound[0]:
                axis.set_ylim(bottom=0.9 * bound[0])  # nothing to show below the bound
            axis.grid(True, which="major", alpha=0.3)
            title = [f"{name} = {value}" for name, value in ((row, row_value), (col, col_value))
                     if value is not None]
            if title:
                axis.set_title(pc.wrap_title(", ".join(title)), fontsize="medium")
    pc.legend_outside(figure, [axis for axis_row in axes for axis in axis_row])
    if note:
        figure.text(0.01, 0.0, pc.wrap_title(note, 110), fontsize="x-small", va="top")
    figure.tight_layout()
    panels = "".join([f", one column of panels per {col}" if col else "",
                      f", one row of panels per {row}" if row else ""])
    caption = [y_label.replace("\n", "  ") + (f" ({log} axis)" if log else "") + f" against "
               f"{pc.label(frames, x)}, one line per {lines}" + panels +
               (" (series shifted sideways by 1 % of the axis to stay visible)." if dodge
                else ".")]
    if filters:
        caption.append("Only runs with " + ", ".join(f"{k} = {v}" for k, v in filters) + ".")
    if baseline:
        caption.append(f"Paired comparison: each replicate's {args.paired} against the "
                       f"{lines} = {baseline} run of the same replicate, panel and x; points are "
                       f"the mean {args.paired}s, error bars 95 % Student-t intervals of the "
                       f"per-replicate {args.paired}s (paired intervals).")
    if not baseline or not replicated:
        caption.append("Points: means over replicates; error bars: 95 % Student-t intervals "
                       "across replicates." if replicated else
                       "Points: one run each, or identical replicates (no error bars).")
    if clipped:
        caption.append(pc.bound_text(bound, metric_text, log))
    if averaged:
        caption.append("Each point also averages over: " + ", ".join(averaged) +
                       " (add --lines, --col, --row or --where to separate them).")
    if note:
        caption.append("Written on the figure: " + note + ".")
    paths = pc.save(figure, args.output, caption + pc.settings_lines(frames))
    print("wrote " + " ".join(paths))
    return 0


if __name__ == "__main__":
    sys.exit(pc.run(main))
