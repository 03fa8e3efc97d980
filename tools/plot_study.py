#!/usr/bin/python3
"""Draw one figure of `allocsim reproduce` from the JSON description a study writes
(panels of series, each point x, y and the half-width of its 95 % confidence interval; a series
may name a colour index and a dash index, e.g. colour by one setting and dash by another; a
panel's optional "xticks" names the categories of its x axis, category i at x = i) to
STEM.png and STEM.pdf.

    /usr/bin/python3 tools/plot_study.py gabl-fig3.figure.json out/gabl-fig3
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


DASHES = ["-", "--", ":", "-."]
COLOURS = plt.rcParams["axes.prop_cycle"].by_key()["color"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def style(series, index):
    """Colour, line style and marker of a series: colour and dash from its own indices, else
    cycling; the marker always differs between the series of a panel, so series that coincide
    stay distinguishable."""
    colour = series.get("colour", index % len(COLOURS))
    dash = series.get("dash", index % len(DASHES))
    return {"color": COLOURS[colour % len(COLOURS)], "linestyle": DASHES[dash % len(DASHES)],
            "marker": MARKERS[index % len(MARKERS)], "markersize": 4}


def main():
    spec_path, stem = sys.argv[1:3]
    with open(spec_path) as f:
        spec = json.load(f)
    panels = spec["panels"]
    crowded = max(len(panel["series"]) for panel in panels) > 6
    width = 5.2
    # Up to three panels side by side; more in rows of two (four panels: 2 x 2).
    columns = len(panels) if len(panels) <= 3 else 2
    rows = (len(panels) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(width * columns, 4.2 * rows),
                                squeeze=False)
    for axis in axes.flat[len(panels):]:
        axis.set_visible(False)
    for axis, panel in zip(axes.flat, panels):
        for index, series in enumerate(panel["series"]):
            points = series["points"]
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            errors = [p[2] for p in points]
            if any(e > 0 for e in errors):
                axis.errorbar(xs, ys, yerr=errors, capsize=3, label=series["label"],
                              **style(series, index))
            else:
                axis.plot(xs, ys, label=series["label"], **style(series, index))
        axis.set_xlabel(panel["xlabel"])
        axis.set_ylabel(panel["ylabel"])
        if panel.get("logy"):
            axis.set_yscale("log")
        if panel.get("logx"):  # ticks at the data's x values, written plainly
            axis.set_xscale("log", base=2)
            ticks = sorted({p[0] for series in panel["series"] for p in series["points"]})
            axis.set_xticks(ticks)
            axis.set_xticklabels(["%g" % t for t in ticks])
            axis.minorticks_off()
        if panel.get("xticks"):  # categorical axis: tick i at x = i, named
            names = panel["xticks"]
            axis.set_xticks(range(len(names)))
            axis.set_xticklabels(names)
            axis.set_xlim(-0.3, len(names) - 0.7)
            axis.minorticks_off()
        if panel["title"]:
            axis.set_title(panel["title"], fontsize="medium")
        axis.grid(True, alpha=0.3)
    # One legend for the figure, right of the panels (series merged by label).
    handles = {}
    for axis in axes.flat:
        for handle, text in zip(*axis.get_legend_handles_labels()):
            handles.setdefault(text, handle)
    if handles:
        figure.legend(list(handles.values()), list(handles), loc="center left",
                      bbox_to_anchor=(1.0, 0.5), frameon=False,
                      fontsize="x-small" if crowded else "small")
    if spec.get("title"):
        figure.suptitle(spec["title"], fontsize="medium")
    figure.tight_layout()
    figure.savefig(stem + ".png", dpi=300, bbox_inches="tight")
    # Same input, same file: no creation date in the PDF.
    figure.savefig(stem + ".pdf", bbox_inches="tight", metadata={"CreationDate": None})


if __name__ == "__main__":
    main()
