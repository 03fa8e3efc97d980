#!/usr/bin/python3
"""Draw one figure of `allocsim reproduce` from the JSON description a study writes
(panels of series, each point x, y and the half-width of its 95 % confidence interval; a series
may name a colour index and a dash index, e.g. colour by one setting and dash by another) to
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


def style(series, index):
    """Colour and line style of a series: its own indices, else cycling colours then dashes."""
    colour = series.get("colour", index % len(COLOURS))
    dash = series.get("dash", index // len(COLOURS))
    return {"color": COLOURS[colour % len(COLOURS)], "linestyle": DASHES[dash % len(DASHES)]}


def main():
    spec_path, stem = sys.argv[1:3]
    with open(spec_path) as f:
        spec = json.load(f)
    panels = spec["panels"]
    crowded = max(len(panel["series"]) for panel in panels) > 6
    width = 5.2 + (2.2 if crowded else 0)
    figure, axes = plt.subplots(1, len(panels), figsize=(width * len(panels), 4.2), squeeze=False)
    for axis, panel in zip(axes[0], panels):
        for index, series in enumerate(panel["series"]):
            points = series["points"]
            xs = [p[0] for p in points]
            ys = [p[1] for p in points]
            errors = [p[2] for p in points]
            if any(e > 0 for e in errors):
                axis.errorbar(xs, ys, yerr=errors, marker="o", markersize=4, capsize=3,
                              label=series["label"], **style(series, index))
            else:
                axis.plot(xs, ys, marker="o", markersize=4, label=series["label"],
                          **style(series, index))
        axis.set_xlabel(panel["xlabel"])
        axis.set_ylabel(panel["ylabel"])
        if panel.get("logy"):
            axis.set_yscale("log")
        if panel["title"]:
            axis.set_title(panel["title"], fontsize="medium")
        axis.grid(True, alpha=0.3)
        if crowded:
            axis.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
        else:
            axis.legend(fontsize="small")
    if spec.get("title"):
        figure.suptitle(spec["title"], fontsize="medium")
    figure.tight_layout()
    figure.savefig(stem + ".png", dpi=120)
    figure.savefig(stem + ".pdf", metadata={"CreationDate": None})  # same input, same file


if __name__ == "__main__":
    main()
