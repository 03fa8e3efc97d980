"""Shared pieces of the plot scripts: column names as `allocsim report` takes them, axis labels
with units from the result file's `unit`/`description` attributes, replicate intervals, one
style (colour and line style and marker) per series, one legend outside the panels, and the
300 dpi PNG + PDF + caption file every figure is saved as.

Errors a user can make (unknown column, a file of another experiment, a file that is not a
result file) raise PlotError; `run(main)` prints its message and exits with status 2 instead of
a traceback.
"""
import difflib
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# The short metric names `allocsim report --metrics` accepts (src/sweep/report/report.cpp).
ALIASES = {"mean_bsd": "mean_bounded_slowdown", "bsd": "mean_bounded_slowdown"}
# Axis labels of the common columns (the file's description is used for the others).
LABELS = {
    "mean_bounded_slowdown": "mean bounded slowdown",
    "utilization": "utilization",
    "offered_load": "offered load",
    "makespan": "makespan",
    "mean_wait": "mean wait",
    "median_wait": "median wait",
    "p95_wait": "95th percentile wait",
    "max_wait": "longest wait",
    "mean_response": "mean turnaround",
    "mean_slowdown": "mean slowdown",
    "max_bounded_slowdown": "max bounded slowdown",
    "mean_comm_slowdown": "mean communication slowdown",
    "mean_stretch": "mean stretch",
    "mean_pairwise_hops": "mean pairwise hops",
    "load": "offered load (target)",
    "c": "runtime multiple c",
}
# The metrics that say which runtime they use (issue 27, issue 29 item 3).
LABELS.update({
    "utilization_trace": "utilization on trace runtimes",
    "mean_bounded_slowdown_trace": "mean bounded slowdown vs trace runtime",
    "mean_interference": "mean interference (actual / alone runtime)",
    "p95_interference": "95th percentile interference",
    "max_interference": "largest interference",
    "mean_interference_heavy": "mean interference, heavy communicators",
    "mean_interference_light": "mean interference, light communicators",
})
# Values spanning decades: plotted on a log axis.
LOG_COLUMNS = {"mean_bounded_slowdown", "max_bounded_slowdown", "mean_slowdown", "makespan",
               "mean_wait", "max_wait"}
# Values a metric cannot cross, (lower, upper) with None for none: a t-interval (mean +- half
# width) is drawn clipped to them. Columns with a unit that counts or measures something
# (seconds, jobs, nodes, ...) are never negative.
BOUNDS = {"mean_bounded_slowdown": (1.0, None), "max_bounded_slowdown": (1.0, None),
          "mean_slowdown": (1.0, None), "utilization": (0.0, 1.0),
          "mean_link_utilization": (0.0, 1.0), "max_link_utilization": (0.0, 1.0),
          "max_link_util_endpoint": (0.0, 1.0), "max_link_util_local": (0.0, 1.0),
          "max_link_util_global": (0.0, 1.0), "max_link_util_router": (0.0, 1.0),
          "utilization_trace": (0.0, 1.0), "mean_bounded_slowdown_trace": (1.0, None)}
NONNEGATIVE_UNITS = {"s", "jobs", "nodes", "processors", "hops", "bytes", "byte hops", "ranks",
                     "messages", "intervals"}
COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442"]  # Okabe-Ito: distinguishable with colour-blindness and in grey
LINESTYLES = ["-", "--", "-.", ":"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


class PlotError(Exception):
    """A mistake in the arguments or input file, reported as one line without a traceback."""


def run(main):
    """Call main(); a PlotError (or a missing file) becomes 'error: ...' on stderr, exit 2."""
    try:
        return main()
    except PlotError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(f"error: {error.filename}: no such file", file=sys.stderr)
        return 2


def load_results(path, experiment_prefix=None):
    """allocsim_results.load(path), with a PlotError for files that are not sweep results or
    belong to an experiment whose name does not start with `experiment_prefix`."""
    import allocsim_results
    if not os.path.exists(path):
        raise PlotError(f"{path}: no such file")
    try:
        frames = allocsim_results.load(path)
    except (OSError, ValueError, KeyError) as error:
        raise PlotError(f"{path} is not an allocsim sweep result file ({error})") from None
    experiment = frames["results"].attrs.get("experiment", "")
    if experiment_prefix and not str(experiment).startswith(experiment_prefix):
        raise PlotError(f"{path} holds experiment '{experiment}', not a {experiment_prefix}* "
                        f"experiment")
    if frames["results"].empty:
        raise PlotError(f"{path}: no config is done yet (nothing to plot)")
    return frames


def column(frames, name, what="column"):
    """The column `name` (aliases resolved) of the joined results; PlotError with the valid
    names and a suggestion when unknown."""
    name = ALIASES.get(name, name)
    results = frames["results"]
    if name in results.columns:
        return name
    valid = [c for c in results.columns if c != "config_id"]
    near = difflib.get_close_matches(name, valid + list(ALIASES), n=1)
    hint = f" (did you mean '{ALIASES.get(near[0], near[0])}'?)" if near else ""
    raise PlotError(f"unknown {what} '{name}'{hint}; valid: {' '.join(valid)}")


def label(frames, name):
    """Axis label with unit: 'mean wait (s)'; the column's description when no label is known."""
    rows = frames["columns"][frames["columns"]["column"] == name]
    unit = rows["unit"].iloc[0] if len(rows) else ""
    text = LABELS.get(name)
    if text is None:
        text = rows["description"].iloc[0] if len(rows) and rows["description"].iloc[0] else name
        text = text.split(";")[0].split(" (")[0]
        if len(text) > 40:
            text = name.replace("_", " ")
    return f"{text} ({unit})" if unit and unit != "1" else text


def style(index):
    """Colour, line style and marker of series `index` (all three differ between neighbours)."""
    return dict(color=COLOURS[index % len(COLOURS)],
                linestyle=LINESTYLES[index % len(LINESTYLES)],
                marker=MARKERS[index % len(MARKERS)], markersize=4, linewidth=1.4)


def t_half_width(values):
    """Half-width of the 95 % Student-t interval of the mean (0 for fewer than 2 values)."""
    n = len(values)
    if n < 2:
        return 0.0
    from scipy import stats
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return float(stats.t.ppf(0.975, n - 1) * math.sqrt(variance / n))


def use_log(name, values, linear=False):
    """'log' for metrics that span decades (a LOG_COLUMNS metric whose largest value is at least
    10 times its smallest positive one; a log axis over less shows almost no ticks), 'symlog'
    when such values include zeros (waits), else None."""
    values = [v for v in values if v == v]
    positive = [v for v in values if v > 0]
    if linear or name not in LOG_COLUMNS or not positive or min(values) < 0:
        return None
    if max(positive) < 10 * min(positive):
        return None
    return "log" if len(positive) == len(values) else "symlog"


def set_scale(axis, scale, values):
    """Applies use_log's answer to the y axis (symlog: linear below the smallest positive)."""
    positive = [v for v in values if v > 0]
    if scale == "log":
        axis.set_yscale("log")
    elif scale == "symlog" and positive:  # the metrics are never negative: axis from 0
        axis.set_yscale("symlog", linthresh=10 ** math.floor(math.log10(min(positive))))
        axis.set_ylim(bottom=0)
    elif scale == "symlog":  # this panel is all zeros
        axis.set_ylim(0, 1)


def wrap_title(text, width=40):
    """A long title (synthetic trace specs have no spaces) wrapped at commas and spaces."""
    import textwrap
    return "\n".join(textwrap.wrap(text.replace(",", ", "), width)).replace(", ", ",")


def bounds(frames, name):
    """(lower, upper) values column `name` cannot cross (None: unbounded on that side)."""
    if name in BOUNDS:
        return BOUNDS[name]
    rows = frames["columns"][frames["columns"]["column"] == name]
    unit = rows["unit"].iloc[0] if len(rows) else ""
    return (0.0, None) if unit in NONNEGATIVE_UNITS else (None, None)


def clip_intervals(means, errors, bound):
    """(lower, upper) half-widths of the intervals means +- errors cut at `bound`, and whether
    any interval was cut."""
    low, high = bound
    lower = [min(e, m - low) if low is not None else e for m, e in zip(means, errors)]
    upper = [min(e, high - m) if high is not None else e for m, e in zip(means, errors)]
    lower = [max(v, 0.0) for v in lower]
    upper = [max(v, 0.0) for v in upper]
    cut = any(a < e or b < e for a, b, e in zip(lower, upper, errors))
    return lower, upper, cut


def bound_text(bound, label_text, log=None):
    """Caption sentence for intervals clipped at a metric's bounds."""
    low, high = bound
    if low is not None and high is not None:
        where = f"to [{low:g}, {high:g}]"
    elif low is not None:
        where = f"at {low:g} (the smallest possible value)"
    else:
        where = f"at {high:g} (the largest possible value)"
    text = (f"Intervals of {label_text} that would cross its bounds are drawn clipped {where}; "
            "the Student-t interval itself ignores the bound.")
    if log == "log" and low == 0:
        text += " On the log axis a bar reaching 0 stops at 5 % of its mean."
    return text


def error_bars(means, errors, log, bound=(None, None)):
    """yerr for errorbar: None without spread; intervals clipped at the metric's `bound`
    (bounds()), and on a log axis the lower bar stops above 0."""
    if not any(errors):
        return None
    lower, upper, _ = clip_intervals(means, errors, bound)
    if log == "log":
        lower = [min(e, 0.95 * m) if m > 0 else e for m, e in zip(means, lower)]
    elif log == "symlog":  # non-negative metrics: the bar stops at 0
        lower = [min(e, m) for m, e in zip(means, lower)]
    return [lower, upper]


def legend_outside(figure, axes):
    """One legend for the whole figure, right of the panels (series merged by label)."""
    handles, labels = {}, []
    for axis in axes:
        for handle, text in zip(*axis.get_legend_handles_labels()):
            if text not in handles:
                handles[text] = handle
                labels.append(text)
    if labels:
        figure.legend([handles[t] for t in labels], labels, loc="center left",
                      bbox_to_anchor=(1.0, 0.5), frameon=False, fontsize="small")


def settings_lines(frames):
    """The caption's description of the settings: experiment, traces, constant config columns
    (machine, transforms such as truncation and scaling), seeds and replicates, version."""
    results = frames["results"]
    info = results.attrs
    lines = [f"experiment: {info.get('experiment', '?')}"]
    for _, trace in frames["traces"].iterrows():
        digest = f" sha256 {trace['sha256'][:16]}..." if trace["sha256"] else ""
        lines.append(f"trace {trace['name']}: {trace['path'] or '(generated)'}{digest}")
    skip = {"config_id", "index", "status", "error", "wall_seconds", "rank", "label",
            "canonical", "diagnostics"}
    varying = []
    for name in frames["configs"].columns:
        if name in skip:
            continue
        values = frames["configs"][name].astype(str).unique()
        if len(values) == 1:
            lines.append(f"{name} = {values[0]}")
        elif name not in ("replicate", "seed", "workload_seed"):
            varying.append(name)
    for name in ("seed", "workload_seed"):
        if name in results.columns and results[name].nunique() > 1:
            lines.append(f"{name}: {results[name].nunique()} values "
                         f"({results[name].min()} ... {results[name].max()})")
    if "replicate" in results.columns:
        lines.append(f"replicates per setting: {results['replicate'].nunique()}")
    for name in varying:  # the values of each varied column (abbreviated beyond 6)
        values = list(frames["configs"][name].astype(str).unique())
        shown = " | ".join(values[:6]) + (f" | ... ({len(values)} values)" if len(values) > 6
                                           else "")
        lines.append(f"varied {name}: {shown}")
    lines.append(f"allocsim {info.get('version', '?')}; command: {info.get('command_line', '?')}")
    return lines


def averaged_columns(frames, plotted):
    """Descriptive /configs columns that vary within one plotted point (not determined by the
    `plotted` columns): the point's mean is taken across them."""
    results = frames["results"]
    keys = [c for c in plotted if c]
    skip = {"config_id", "index", "status", "error", "label", "canonical", "diagnostics",
            "wall_seconds", "rank", "replicate", "seed", "workload_seed"}
    out = []
    for name in frames["configs"].columns:
        if name in skip or name in keys or name not in results.columns:
            continue
        if results.groupby(keys)[name].agg(lambda v: v.astype(str).nunique()).max() > 1:
            out.append(name)
    return out


def save(figure, output, caption_lines):
    """Writes OUTPUT.png and OUTPUT.pdf at 300 dpi and OUTPUT.caption.txt; returns the paths."""
    stem, extension = os.path.splitext(output)
    if extension.lower() not in (".png", ".pdf", ""):
        raise PlotError(f"output {output}: give a .png or .pdf name (both are written)")
    folder = os.path.dirname(os.path.abspath(stem))
    if not os.path.isdir(folder):
        raise PlotError(f"output folder {folder} does not exist")
    paths = []
    for kind in ("png", "pdf"):
        path = f"{stem}.{kind}"
        figure.savefig(path, dpi=300, bbox_inches="tight")
        paths.append(path)
    caption = f"{stem}.caption.txt"
    with open(caption, "w", encoding="utf-8") as out:
        out.write("\n".join(caption_lines) + "\n")
    paths.append(caption)
    plt.close(figure)
    return paths
